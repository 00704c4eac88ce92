//===--- SideEffects.h - what evaluating an expression does -----*- C++ -*-===//
//
// Whether an expression writes, calls something impure or reads volatile or
// atomic storage, and whether it could trap if evaluated earlier than the
// original program evaluates it.
//
//===----------------------------------------------------------------------===//

#ifndef HOTPATH_TIDY_ANALYSIS_SIDEEFFECTS_H
#define HOTPATH_TIDY_ANALYSIS_SIDEEFFECTS_H

#include "Rules.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/FoldingSet.h"
#include <optional>
#include <set>
#include <string>

namespace hotpath {

/// Why an expression cannot be evaluated twice with the same result and no
/// side effect, and where.
/// Expressions by structural identity (see exprIdentity).
using ExprIdentitySet = std::set<llvm::FoldingSetNodeID>;

struct Impurity {
  const clang::Stmt *Where = nullptr;
  std::string Why;
};

/// A callee that is known to be free of side effects: const/pure attributes,
/// constexpr, pure builtins, or the rule set's pure functions.
bool isKnownPureFunction(const clang::FunctionDecl *FD, const RuleIndex &Rules,
                         const clang::ASTContext &Ctx);

/// The first sub-expression of \p E that writes, calls something not known to
/// be pure, or reads volatile or atomic storage; none when \p E is pure.
std::optional<Impurity> findImpurity(const clang::Expr *E, const RuleIndex &Rules,
                                     const clang::ASTContext &Ctx);

/// Pointers (by structural identity) that an expression dereferences on every
/// evaluation, i.e. outside the right of && / || and the arms of ?:.
void collectUnconditionalDerefs(const clang::Expr *E, const clang::ASTContext &Ctx,
                                ExprIdentitySet &Out);

/// The first sub-expression of \p E that could trap or be undefined when
/// evaluated in a state the original program would not evaluate it in (a
/// dereference of a pointer not in \p SafeDerefs, an index, a division by a
/// non-constant, signed arithmetic that can overflow, a call).
std::optional<Impurity>
findSpeculationHazard(const clang::Expr *E, const clang::ASTContext &Ctx,
                      const ExprIdentitySet &SafeDerefs);

/// Structural identity of an expression, ignoring parentheses and implicit
/// casts.
llvm::FoldingSetNodeID exprIdentity(const clang::Expr *E,
                                    const clang::ASTContext &Ctx);

} // namespace hotpath

#endif // HOTPATH_TIDY_ANALYSIS_SIDEEFFECTS_H
