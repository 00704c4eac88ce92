//===--- MacroBody.h - what an assert-like macro's body does ----*- C++ -*-===//
//
// The body of a function-like macro, as its token spellings: whether, as a
// disabled assert, it still evaluates its condition ((void)(x),
// do { (void)(x); } while (0), if (x) {}), does not (((void)0), sizeof,
// 0 && ...), or is something else; and whether it is an enabled assert
// (tests its condition and reports or aborts). Read by hotpath-noop-assert.
//
//===----------------------------------------------------------------------===//

#ifndef HOTPATH_TIDY_ANALYSIS_MACROBODY_H
#define HOTPATH_TIDY_ANALYSIS_MACROBODY_H

#include "support/Rules.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace hotpath {

/// What a macro body does with its condition parameter.
enum class MacroBodyKind {
  Evaluating,    // disabled form that still evaluates it: the finding
  NonEvaluating, // disabled form that does not: ((void)0), sizeof, 0 && ...
  Other          // an enabled form, or anything else: never touched
};

/// Classifies a macro body given as token spellings, \p Param being the
/// condition parameter's name (or __VA_ARGS__).
MacroBodyKind classifyMacroBody(llvm::ArrayRef<std::string> Tokens, llvm::StringRef Param);

/// An enabled assert's body: it tests \p Param (if, ?:, && or ||) and
/// calls something that reports or aborts, or hands \p Param to another
/// assert (`BUG_ON(cond)`, `assert(!(cond))`).
bool isEnabledAssertBody(llvm::ArrayRef<std::string> Tokens, llvm::StringRef Param,
                         const RuleIndex &Rules);

/// Whether a call of \p Name reports or aborts, as an enabled assert's body
/// calls (a reporting or noreturn function or macro, another assert).
bool namesFailure(llvm::StringRef Name, const RuleIndex &Rules);

/// Whether \p Word may be in an evaluating form's body besides its
/// parameter ("void", "do", "while", "0", ...): a body with another word,
/// and no call for which namesFailure() holds, is neither form.
bool isEvaluatingFormWord(llvm::StringRef Word);

/// The condition parameter: the one of \p Params the body \p Tokens names;
/// none when it names none or several.
std::optional<unsigned> conditionParameter(llvm::ArrayRef<std::string> Params,
                                           llvm::ArrayRef<std::string> Tokens);

} // namespace hotpath

#endif // HOTPATH_TIDY_ANALYSIS_MACROBODY_H
