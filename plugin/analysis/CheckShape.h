//===--- CheckShape.h - recognising a check function ------------*- C++ -*-===//
//
// A *check function*: a side-effect-free preamble of locals, then one or more
// `if (cond) { report...; leave; }`, then a plain success return. The other
// ways such a function is written (the success return in an else, a local
// assigned after its declaration, nested ifs, the guard the other way round)
// are normalised to that model, so that the rewrite has one shape to read. Read by
// hotpath-check-split (which splits hot ones) and by the side-effect
// analysis (SideEffects.h), for which a call to one only reports: dropping
// it with a disabled assert is intended.
//
//===----------------------------------------------------------------------===//

#ifndef HOTPATH_TIDY_ANALYSIS_CHECKSHAPE_H
#define HOTPATH_TIDY_ANALYSIS_CHECKSHAPE_H

#include "support/Rules.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <string>
#include <vector>

namespace hotpath {

/// One `if (cond) { report...; leave; }`, as the shapes written around it
/// normalise to: a nested `if (a) { if (b) { report; leave; } }` is the
/// branch `a && b` (Guards a, Cond b), a guard written the other way round
/// (`if (ok) return 0; report; return 1;`) the branch `!ok` (Negated).
struct FailureBranch {
  const clang::IfStmt *If;          // the innermost if, whose condition is Cond
  const clang::Expr *Cond;
  const clang::ReturnStmt *Return;  // null when the branch leaves by a noreturn call
                                    // (or, in a void function, by falling off its end)
  unsigned Reports;
  /// Conditions of the enclosing ifs, outermost first: the branch is taken
  /// when each of them, then Cond, holds, evaluated in that order.
  llvm::SmallVector<const clang::Expr *, 2> Guards = {};
  /// Taken when Cond is false: Cond is an early success exit's.
  bool Negated = false;

  /// The condition the original evaluates first on the way to this branch.
  const clang::Expr *firstTested() const { return Guards.empty() ? Cond : Guards.front(); }
  /// The conditions the original tests on the way to this branch, in
  /// order: the guards, then Cond.
  llvm::SmallVector<const clang::Expr *, 3> conditions() const {
    llvm::SmallVector<const clang::Expr *, 3> Out(Guards.begin(), Guards.end());
    Out.push_back(Cond);
    return Out;
  }
};

/// The value a preamble local is given: its initializer, or the one plain
/// assignment statement (`int r; ... r = a + b;`) that precedes every use.
struct PreambleValue {
  const clang::VarDecl *Var;
  const clang::Expr *Value;
  size_t Position; // how many branches precede the statement giving it
  size_t Decl;     // its declaration, an index into CheckShape::Preamble
  size_t Stmt;     // the statement giving the value (Decl, or the assignment)
};

/// Preamble statements and failure branches in source order.
struct CheckShape {
  std::vector<FailureBranch> Branches;
  /// Declarations (DeclStmt) and assignments to locals declared without an
  /// initializer (an Expr), before the success path, in source order.
  std::vector<const clang::Stmt *> Preamble;
  std::vector<PreambleValue> Values;
  const clang::ReturnStmt *Success = nullptr; // null: void function falling off the end
  const clang::Stmt *ExtraSuccessWork = nullptr; // first statement beyond the return
  unsigned Reports = 0;

  /// The value \p VD is given in the preamble; null for anything else.
  const PreambleValue *valueOf(const clang::VarDecl *VD) const;
};

/// The rule of the shape a function's body breaks. Rendered by describe(),
/// nowhere else; explain mode says which one a function breaks.
enum class ShapeRule {
  NoBody,                // no compound body
  PreambleDeclaration,   // a static, reference or non-variable declaration
  DeclaredThenAssigned,  // a local without initializer not assigned once before its use
  StatementNotAllowed,   // a statement that is no declaration, if or return
  BranchHasElse,         // an else after a branch that may fall through, or declaring
  BranchHasInit,         // if (init; cond), a condition variable, if constexpr
  ConditionHasErrors,    // it did not compile
  BranchEmpty,           // if (c) {}
  BranchDoesNotLeave,    // the branch ends neither in return nor in a noreturn call
  BranchDoesMore,        // a statement of the branch that does not report
  NestedIf,              // an if after the reporting statements of a branch
  NoBranch,              // no if before the success path
  NoReport,              // no branch reports
  EarlySuccessExit,      // a branch that returns the success value unreported
  InvertedGuard,         // if (ok) return ok; then more than report and leave
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
