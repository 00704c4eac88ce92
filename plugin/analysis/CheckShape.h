//===--- CheckShape.h - recognising a check function ------------*- C++ -*-===//
//
// A *check function*: a side-effect-free preamble of locals, then one or more
// `if (cond) { report...; leave; }`, then a plain success return. The other
// ways such a function is written (the success return in an else, a local
// assigned after its declaration, nested ifs, the guard the other way round)
// are normalised to that model, so that the rewrite has one shape to read.
//
// Two readings, by what the reader needs of the failure paths
// (FailurePaths): the side-effect analysis (SideEffects.h), for which a call
// to a check only reports, so that dropping it with a disabled assert is
// intended, needs failure paths that only report and leave. The split
// (hotpath-check-split) keeps the original body as its slow path, so only
// what decides that the fast path may return (the preamble, the conditions,
// the success value) must be pure and exact: failure paths may do anything
// that leaves (write state, repair, nested ifs, locals of any type), and an
// early success exit `if (c) return ok;` becomes a guard of the tests after
// it (SuccessExit).
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
  /// Every return the branch may leave by, its own and those nested in it
  /// (FailurePaths::Anything): what the slow path may return through it.
  /// Empty when it leaves by noreturn calls only (or a void function's end).
  llvm::SmallVector<const clang::ReturnStmt *, 1> Returns = {};
  /// It does more than report and leave (FailurePaths::Anything): it runs in
  /// the slow path only, and none of it may be copied into the fast path.
  bool DoesMore = false;
  /// How many early success exits (CheckShape::Exits) the original tests
  /// before it.
  unsigned ExitsBefore = 0;

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

/// An early success exit, `if (c) return ok;` returning what the success
/// path returns (FailurePaths::Anything): the tests after it count only when
/// Cond is false.
struct SuccessExit {
  const clang::IfStmt *If;
  const clang::Expr *Cond;
  const clang::ReturnStmt *Return;
  unsigned BranchesBefore; // failure branches the original tests before it
};

/// The value a preamble local is given: its initializer, or the one plain
/// assignment statement (`int r; ... r = a + b;`) that precedes every use.
struct PreambleValue {
  const clang::VarDecl *Var;
  const clang::Expr *Value;
  size_t Position; // how many tests (branches, exits) precede the statement giving it
  size_t Decl;     // its declaration, an index into CheckShape::Preamble
  size_t Stmt;     // the statement giving the value (Decl, or the assignment)
};

/// Preamble statements and failure branches in source order.
struct CheckShape {
  std::vector<FailureBranch> Branches;
  /// Early success exits, in source order (FailurePaths::Anything).
  std::vector<SuccessExit> Exits;
  /// Declarations (DeclStmt) and assignments to locals declared without an
  /// initializer (an Expr), before the success path, in source order.
  std::vector<const clang::Stmt *> Preamble;
  std::vector<PreambleValue> Values;
  const clang::ReturnStmt *Success = nullptr; // null: void function falling off the end
  const clang::Stmt *ExtraSuccessWork = nullptr; // first statement beyond the return
  unsigned Reports = 0;

  /// The value \p VD is given in the preamble; null for anything else.
  const PreambleValue *valueOf(const clang::VarDecl *VD) const;
  /// The condition the original evaluates first.
  const clang::Expr *firstTested() const;
};

/// What a failure path may do, as the reader of the shape needs it.
enum class FailurePaths {
  /// Report and leave, nothing else; no early success exits.
  OnlyReport,
  /// Anything that leaves; early success exits fold into the conditions.
  Anything,
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
  // FailurePaths::Anything only:
  BranchNotAFailure,     // a branch that does work, reports nothing, returns success
  LocalNotCopyable,      // the fast path would read a local it cannot copy
};

/// Where and how a body breaks the shape.
struct ShapeFailure {
  ShapeRule Rule = ShapeRule::NoBody;
  const clang::Stmt *Where = nullptr; // null: the function as a whole
  unsigned Branch = 0;                // 1-based, for the branch rules
};

/// The rule as a clause: "branch 2 does more than report and leave".
std::string describe(const ShapeFailure &F);

/// False when \p FD's body cannot have the shape: no if comes before its
/// first statement that is neither a declaration nor an assignment, so
/// recogniseShape would find no branch. A look at the top statements, for
/// every definition of a TU; recogniseShape reads the rest, and says why.
bool mayHaveCheckShape(const clang::FunctionDecl *FD);

/// The check-function shape of \p FD's body, or none, with why in \p Why.
/// Says nothing about the purity of the preamble and conditions: callers
/// decide what they need.
std::optional<CheckShape> recogniseShape(const clang::FunctionDecl *FD,
                                         const RuleIndex &Rules,
                                         const clang::ASTContext &Ctx,
                                         ShapeFailure *Why = nullptr,
                                         FailurePaths Paths = FailurePaths::OnlyReport);

} // namespace hotpath

#endif // HOTPATH_TIDY_ANALYSIS_CHECKSHAPE_H
