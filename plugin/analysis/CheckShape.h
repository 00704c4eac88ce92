//===--- CheckShape.h - recognising a check function ------------*- C++ -*-===//
//
// A *check function*: a side-effect-free preamble of locals, then one or more
// `if (cond) { report...; leave; }`, then a plain success return. Read by
// hotpath-check-split (which splits hot ones) and by the side-effect
// analysis (SideEffects.h), for which a call to one only reports: dropping
// it with a disabled assert is intended.
//
//===----------------------------------------------------------------------===//

#ifndef HOTPATH_TIDY_ANALYSIS_CHECKSHAPE_H
#define HOTPATH_TIDY_ANALYSIS_CHECKSHAPE_H

#include "Rules.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include <optional>
#include <string>
#include <vector>

namespace hotpath {

/// One `if (cond) { report...; leave; }`.
struct FailureBranch {
  const clang::IfStmt *If;
  const clang::Expr *Cond;
  const clang::ReturnStmt *Return; // null when the branch leaves by a noreturn call
  unsigned Reports;
};

/// Preamble declarations and failure branches in source order.
struct CheckShape {
  std::vector<FailureBranch> Branches;
  std::vector<const clang::DeclStmt *> Decls;
  /// For each declaration: how many branches precede it.
  std::vector<size_t> DeclPosition;
  const clang::ReturnStmt *Success = nullptr; // null: void function falling off the end
  const clang::Stmt *ExtraSuccessWork = nullptr; // first statement beyond the return
  unsigned Reports = 0;
};

/// The rule of the shape a function's body breaks. Rendered by describe(),
/// nowhere else. "(not recognised yet)" marks shapes a later version may
/// accept; explain mode says which one a function has.
enum class ShapeRule {
  NoBody,                // no compound body
  PreambleDeclaration,   // a static, reference or non-variable declaration
  DeclaredThenAssigned,  // a local without initializer (assigned later)
  StatementNotAllowed,   // a statement that is no declaration, if or return
  BranchHasElse,         // if ... else
  ElseHoldsSuccess,      // if (bad) { report; return err; } else { return ok; }
  BranchHasInit,         // if (init; cond), a condition variable, if constexpr
  ConditionHasErrors,    // it did not compile
  BranchEmpty,           // if (c) {}
  BranchDoesNotLeave,    // the branch ends neither in return nor in a noreturn call
  BranchDoesMore,        // a statement of the branch that does not report
  NestedIf,              // an if inside a branch
  NoBranch,              // no if before the success path
  NoReport,              // no branch reports
  EarlySuccessExit,      // a branch that returns the success value unreported
  InvertedGuard,         // if (ok) return ok; report; return err;
  NoSuccessReturn,       // a non-void function that does not end in return
  SuccessDoesMore,       // the success path does more than a little work
};

/// Where and how a body breaks the shape.
struct ShapeFailure {
  ShapeRule Rule = ShapeRule::NoBody;
  const clang::Stmt *Where = nullptr; // null: the function as a whole
  unsigned Branch = 0;                // 1-based, for the branch rules
};

/// The rule as a clause: "branch 2 does more than report and leave".
std::string describe(const ShapeFailure &F);

/// The check-function shape of \p FD's body, or none, with why in \p Why.
/// Says nothing about the purity of the preamble and conditions: callers
/// decide what they need.
std::optional<CheckShape> recogniseShape(const clang::FunctionDecl *FD,
                                         const RuleIndex &Rules,
                                         const clang::ASTContext &Ctx,
                                         ShapeFailure *Why = nullptr);

} // namespace hotpath

#endif // HOTPATH_TIDY_ANALYSIS_CHECKSHAPE_H
