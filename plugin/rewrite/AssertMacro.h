//===--- AssertMacro.h - rewriting a disabled assert's definition -*- C++ -*-===//
//
// hotpath-noop-assert's edits: the body that type-checks a disabled
// assert's condition without evaluating it, put in place of the body that
// evaluates it; and the edit that keeps a definition as it is, so that
// another translation unit's rewrite of it is blocked.
//
//===----------------------------------------------------------------------===//

#ifndef HOTPATH_TIDY_REWRITE_ASSERTMACRO_H
#define HOTPATH_TIDY_REWRITE_ASSERTMACRO_H

#include "source/MacroDefinitions.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/LangOptions.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace hotpath {

/// The body the fix writes: type-checks \p Param, never evaluates it, and
/// is valid C and C++ (lambdas before C++20 included).
std::string assertReplacementBody(llvm::StringRef Param);

/// \p D's body replaced by assertReplacementBody(\p Param); none when the
/// body is empty.
std::optional<clang::FixItHint> replaceAssertBody(const FunctionLikeDefinition &D,
                                                  llvm::StringRef Param);


} // namespace hotpath

#endif // HOTPATH_TIDY_REWRITE_ASSERTMACRO_H
