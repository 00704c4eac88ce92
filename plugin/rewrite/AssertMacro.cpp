//===--- AssertMacro.cpp - rewriting a disabled assert's definition -------===//

#include "rewrite/AssertMacro.h"
#include "rewrite/Edits.h"

using namespace clang;

namespace hotpath {

std::string assertReplacementBody(llvm::StringRef Param) {
  // Not sizeof(!(x)): clang then says a static function used only in the
  // argument "is not needed and will not be emitted", and C++ before C++20
  // rejects a lambda in an unevaluated operand. `0 && ...` never evaluates
  // its right side in C and C++, emits no code even at -O0, and `!!` makes
  // the right side a plain truth value (no -Wconstant-logical-operand).
  return ("((void)(0 && !!(" + Param + ")))").str();
}

std::optional<FixItHint> replaceAssertBody(const FunctionLikeDefinition &D,
                                           llvm::StringRef Param) {
  if (D.BodyBegin.isInvalid())
    return std::nullopt;
  return replaceChars(D.BodyBegin, D.BodyEnd, assertReplacementBody(Param));
}

} // namespace hotpath
