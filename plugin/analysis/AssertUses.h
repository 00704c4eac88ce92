//===--- AssertUses.h - uses of a disabled assert that need their argument -*- C++ -*-===//
//
// A disabled assert that stops evaluating its argument loses whatever the
// argument did. One judgement of a use's argument serves the check (which
// reports each such use and refuses the rewrite) and the project index
// (which records them, so that the translation unit that rewrites a
// header's macro knows the uses every other one has): the same rewrite is
// refused on every route, whichever TU offers it.
//
//===----------------------------------------------------------------------===//

#ifndef HOTPATH_TIDY_ANALYSIS_ASSERTUSES_H
#define HOTPATH_TIDY_ANALYSIS_ASSERTUSES_H

#include "analysis/SideEffects.h"
#include "source/MacroDefinitions.h"
#include "clang/AST/ASTContext.h"
#include "clang/Lex/PPCallbacks.h"
#include "llvm/ADT/DenseMap.h"
#include <optional>
#include <string>
#include <vector>

namespace hotpath {

/// What dropping one use's argument (a disabled assert that does not
/// evaluate it) would change or save.
struct DroppedArgument {
  /// `!!(x)` would not compile: the argument is no scalar value.
  bool NotScalar = false;
  /// The side effect lost with it.
  std::optional<SideEffect> Effect;
  /// Work the compiler must keep while it is evaluated, described: why the
  /// use costs something ("" when it costs nothing).
  std::string Work;
  /// The use needs its argument evaluated: the rewrite would change the
  /// program.
  bool blocks() const { return NotScalar || Effect.has_value(); }
};

/// Judges the argument of \p U: \p Arg is its expression, or null when the
/// AST does not hold it (the active definition drops it), when its tokens
/// are judged. \p InvisibleCallsAreEffects: CheckFunctionCalls. None when the
/// argument does not compile (an error already said).
std::optional<DroppedArgument> judgeDroppedArgument(const MacroUse &U, const clang::Expr *Arg,
                                                    bool InvisibleCallsAreEffects,
                                                    const RuleIndex &Rules,
                                                    clang::ASTContext &Ctx,
                                                    SideEffectReport *Report = nullptr);

/// One use of a disabled assert whose argument must stay evaluated.
struct BlockingAssertUse {
  std::string Macro;
  clang::SourceLocation Definition; // the name in the active #define
  clang::SourceLocation Use;        // the macro name at the use
  std::string Why;                  // the effect, described
};

/// Records, while a TU is preprocessed, every use of a function-like macro
/// whose active definition is a disabled assert that still evaluates its
/// condition (MacroBody.h: Evaluating), whatever its name; after the AST,
/// blockingUses() says which of them need their argument evaluated. What
/// the project index records for hotpath-noop-assert.
class DisabledAssertUses : public clang::PPCallbacks {
public:
  explicit DisabledAssertUses(const clang::Preprocessor &PP) : PP(PP) {}
  void MacroExpands(const clang::Token &Name, const clang::MacroDefinition &MD,
                    clang::SourceRange Range, const clang::MacroArgs *Args) override;

  std::vector<BlockingAssertUse> blockingUses(clang::ASTContext &Ctx,
                                              const RuleIndex &Rules) const;

private:
  /// The condition parameter of \p MI when its body is a disabled form
  /// that evaluates it.
  std::optional<unsigned> evaluatedParameter(const clang::MacroInfo &MI);

  const clang::Preprocessor &PP;
  llvm::DenseMap<const clang::MacroInfo *, std::optional<unsigned>> Classified;
  std::vector<MacroUse> Uses;
  std::vector<clang::SourceLocation> Definitions; // of each use
};

} // namespace hotpath

#endif // HOTPATH_TIDY_ANALYSIS_ASSERTUSES_H
