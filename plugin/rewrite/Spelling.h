//===--- Spelling.h - spelling code at a location ---------------*- C++ -*-===//
//
// The rewrite layer's view of the source: how the emitted code spells branch
// weights and the slow-path attribute where it is placed (project macros
// judged by what they expand to), and conditions without their hints.
//
//===----------------------------------------------------------------------===//

#ifndef HOTPATH_TIDY_REWRITE_SPELLING_H
#define HOTPATH_TIDY_REWRITE_SPELLING_H

#include "source/SourceText.h"
#include "support/Rules.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include <string>
#include <vector>

namespace clang {
class Preprocessor;
} // namespace clang

namespace hotpath {

class IncludeGraph;
class SourceLayout;

/// How the emitted code spells branch weights and the slow-path attribute.
struct Spelling {
  enum class UnlikelyKind { Macro, CxxAttribute, Builtin } Unlikely;
  std::string UnlikelyMacro; // with Macro
  std::string ColdAttribute; // e.g. "__attribute__((noinline, cold))", "noinline __cold"
  bool ColdIsStandardAttribute = false; // "[[...]]": goes before specifiers
  /// Project macros of the rule set that are defined where the code goes
  /// but do not expand to what the fix needs there, each with what it
  /// expands to: "'__cold' is empty", "'unlikely(x)' is '(x)'".
  std::vector<std::string> Untrusted;

  /// "if (<cond>)" with the condition marked unlikely.
  std::string ifUnlikely(llvm::StringRef Cond) const;
  /// <cond> marked unlikely, as an expression: "unlikely(c)",
  /// "__builtin_expect(c, 0)", or "__builtin_expect(!!(c), 0)" when \p Cond
  /// may not be a truth value (C++20's attribute is not an expression).
  std::string unlikelyExpr(llvm::StringRef Cond, bool Boolean = true) const;
};

/// The spelling for code placed at \p Point: a project macro from the rule
/// set where it is visible there, defined wherever \p Point is compiled,
/// and expands in this configuration to what is needed (unlikely(x) to
/// __builtin_expect(..., 0), a cold macro to the cold or noinline
/// attribute); else the attribute or builtin spelled directly.
///
/// Defined wherever \p Point is compiled (issue 11's rule): every condition
/// of the branches around the macro's definition (SourceLayout::
/// macroConditions) is one \p Point is compiled under too, or one that
/// \p Point's own file shows to hold wherever \p Point is compiled (issue
/// 26): in code of that file compiled under no condition \p Point lacks, it
/// expands the macro itself (so the macro is defined there in every
/// configuration the file builds in), or expands another macro E whose
/// definition needs the condition, where E is defined once in the TU, no
/// directive tests E (#ifdef/#ifndef/defined()), and no other branch of a
/// group around E's definition defines E or includes a file; and the file
/// tests no name of the condition itself. The kernel's unlikely, noinline
/// and __cold are defined only under #ifndef __ASSEMBLY__ and #ifdef
/// __KERNEL__, which C files never test: a file that expands unlikely
/// shows both.
Spelling spellingAt(clang::SourceLocation Point, const RuleSet &Rules,
                    const clang::LangOptions &LangOpts, const clang::Preprocessor &PP,
                    const clang::SourceManager &SM, const IncludeGraph &Includes,
                    const SourceLayout &Layout);

/// A condition as the fast path tests it, without the hint it may already
/// carry: "x" for unlikely(x) (a rule set's unlikely macro, whatever it
/// expands to) and for __builtin_expect(x, 0) (and !!x inside it), so that a
/// hint is never wrapped in another. \p Hinted says whether one was taken off.
struct BareCondition {
  const clang::Expr *E;   // the condition without its hint
  std::string Text;       // as written
  bool Hinted = false;
};
BareCondition withoutHint(const clang::Expr *Cond, const RuleSet &Rules,
                          const clang::ASTContext &Ctx);

} // namespace hotpath

#endif // HOTPATH_TIDY_REWRITE_SPELLING_H
