//===--- CheckShape.cpp - recognising a check function --------------------===//

#include "analysis/CheckShape.h"
#include "analysis/Reporting.h"
#include "analysis/SideEffects.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace hotpath {

std::string describe(const ShapeFailure &F) {
  std::string B = "branch " + std::to_string(F.Branch);
  switch (F.Rule) {
  case ShapeRule::NoBody:
    return "it has no body of braces to read";
  case ShapeRule::PreambleDeclaration:
    return "a declaration before the branches is not a plain local variable with an "
           "initializer (static, a reference, or not a variable)";
  case ShapeRule::DeclaredThenAssigned:
    return "a local is declared without an initializer and assigned later (not "
           "recognised yet)";
  case ShapeRule::StatementNotAllowed:
    return "a statement before the success path is not a declaration, an 'if' or a return";
  case ShapeRule::BranchHasElse:
    return B + " has an 'else'";
  case ShapeRule::ElseHoldsSuccess:
    return "an else branch holds the success return (not recognised yet)";
  case ShapeRule::BranchHasInit:
    return B + " declares something in its condition, or is 'if constexpr'";
  case ShapeRule::ConditionHasErrors:
    return "the condition of " + B + " does not compile";
  case ShapeRule::BranchEmpty:
    return B + " is empty";
  case ShapeRule::BranchDoesNotLeave:
    return B + " does not leave: it ends neither in a return nor in a noreturn call";
  case ShapeRule::BranchDoesMore:
    return B + " does more than report and leave";
  case ShapeRule::NestedIf:
    return B + " holds a nested 'if' (not recognised yet)";
  case ShapeRule::NoBranch:
    return "no 'if' that reports and leaves comes before the success path";
  case ShapeRule::NoReport:
    return "no branch reports anything";
  case ShapeRule::EarlySuccessExit:
    return B + " reports nothing and returns what success returns: an early exit, not a "
               "failure";
  case ShapeRule::InvertedGuard:
    return "the guard is written the other way round: " + B +
           " returns on success and the failure path follows it (not recognised yet)";
  case ShapeRule::NoSuccessReturn:
    return "the function does not end in a return";
  case ShapeRule::SuccessDoesMore:
    return "the success path does more than a check does before it returns";
  }
  llvm_unreachable("unknown shape rule");
}

namespace {
/// Fills \p Why, when given, and says no.
std::nullopt_t reject(ShapeFailure *Why, ShapeRule Rule, const Stmt *Where,
                      unsigned Branch = 0) {
  if (Why)
    *Why = {Rule, Where, Branch};
  return std::nullopt;
}

bool isReturn(const Stmt *S) {
  if (const auto *CS = dyn_cast<CompoundStmt>(S))
    return CS->size() == 1 && isa<ReturnStmt>(CS->body_front());
  return isa<ReturnStmt>(S);
}
} // namespace

static std::optional<FailureBranch> recogniseBranch(const IfStmt *If, unsigned Index,
                                                    const RuleIndex &Rules,
                                                    const ASTContext &Ctx,
                                                    ShapeFailure *Why) {
  if (If->getElse())
    return reject(Why, isReturn(If->getElse()) ? ShapeRule::ElseHoldsSuccess
                                               : ShapeRule::BranchHasElse,
                  If->getElse(), Index);
  if (If->getInit() || If->getConditionVariable() || If->isConstexpr() || If->isConsteval())
    return reject(Why, ShapeRule::BranchHasInit, If, Index);
  if (If->getCond()->containsErrors())
    return reject(Why, ShapeRule::ConditionHasErrors, If->getCond(), Index);
  llvm::SmallVector<const Stmt *, 4> Body;
  if (const auto *CS = dyn_cast<CompoundStmt>(If->getThen()))
    Body.append(CS->body_begin(), CS->body_end());
  else
    Body.push_back(If->getThen());
  if (Body.empty())
    return reject(Why, ShapeRule::BranchEmpty, If, Index);
  FailureBranch B{If, If->getCond(), nullptr, 0};
  const Stmt *Last = Body.back();
  if (const auto *Ret = dyn_cast<ReturnStmt>(Last))
    B.Return = Ret;
  else if (!isNoreturnStatement(Last, Rules, Ctx))
    return reject(Why, isa<IfStmt>(Last) ? ShapeRule::NestedIf : ShapeRule::BranchDoesNotLeave,
                  Last, Index);
  else if (isReportingStatement(Last, Rules, Ctx))
    ++B.Reports;
  for (const Stmt *S : llvm::ArrayRef(Body).drop_back()) {
    if (!isReportingStatement(S, Rules, Ctx))
      return reject(Why, isa<IfStmt>(S) ? ShapeRule::NestedIf : ShapeRule::BranchDoesMore, S,
                    Index);
    ++B.Reports;
  }
  return B;
}

static bool isPreambleDecl(const DeclStmt *DS) {
  return llvm::all_of(DS->decls(), [](const Decl *D) {
    const auto *VD = dyn_cast<VarDecl>(D);
    return VD && VD->isLocalVarDecl() && !VD->isStaticLocal() && VD->hasInit() &&
           !VD->getInit()->containsErrors() && !VD->getType()->isReferenceType();
  });
}

/// A local declared for a later assignment: `int n;`.
static bool declaresWithoutInit(const DeclStmt *DS) {
  return llvm::any_of(DS->decls(), [](const Decl *D) {
    const auto *VD = dyn_cast<VarDecl>(D);
    return VD && VD->isLocalVarDecl() && !VD->isStaticLocal() && !VD->hasInit();
  });
}

std::optional<CheckShape> recogniseShape(const FunctionDecl *FD, const RuleIndex &Rules,
                                         const ASTContext &Ctx, ShapeFailure *Why) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(FD->getBody());
  if (!Body)
    return reject(Why, ShapeRule::NoBody, nullptr);
  CheckShape Shape;
  llvm::SmallVector<const Stmt *, 16> Stmts;
  for (const Stmt *S : Body->body())
    if (!isa<NullStmt>(S))
      Stmts.push_back(S);

  size_t I = 0;
  for (; I < Stmts.size(); ++I) {
    if (const auto *DS = dyn_cast<DeclStmt>(Stmts[I])) {
      if (!isPreambleDecl(DS))
        return reject(Why,
                      declaresWithoutInit(DS) ? ShapeRule::DeclaredThenAssigned
                                              : ShapeRule::PreambleDeclaration,
                      DS);
      Shape.Decls.push_back(DS);
      Shape.DeclPosition.push_back(Shape.Branches.size());
      continue;
    }
    const auto *If = dyn_cast<IfStmt>(Stmts[I]);
    if (!If)
      break;
    std::optional<FailureBranch> B =
        recogniseBranch(If, Shape.Branches.size() + 1, Rules, Ctx, Why);
    if (!B)
      return std::nullopt;
    Shape.Reports += B->Reports;
    Shape.Branches.push_back(*B);
  }
  if (Shape.Branches.empty())
    return reject(Why, ShapeRule::NoBranch, I < Stmts.size() ? Stmts[I] : nullptr);
  if (Shape.Reports == 0)
    return reject(Why, ShapeRule::NoReport, Shape.Branches.front().If, 1);

  // The success path: nothing (void), one return, or a little more work
  // followed by a return (reported, but not rewritten).
  llvm::ArrayRef<const Stmt *> Rest = llvm::ArrayRef(Stmts).drop_front(I);
  bool IsVoid = FD->getReturnType()->isVoidType();
  const auto *Ret = Rest.empty() ? nullptr : dyn_cast<ReturnStmt>(Rest.back());
  if (!Ret && !IsVoid)
    return reject(Why, ShapeRule::NoSuccessReturn, Rest.empty() ? nullptr : Rest.back());

  // A branch that reports nothing and returns what success returns is an
  // early success exit ("if (cmd->next) return;"), not a failure: merged into
  // the unlikely condition it would send the common case down the slow path.
  auto SameValue = [&](const Expr *A, const Expr *B) {
    if (!A || !B)
      return !A && !B;
    std::optional<llvm::APSInt> VA = A->getIntegerConstantExpr(Ctx),
                                VB = B->getIntegerConstantExpr(Ctx);
    if (VA && VB)
      return llvm::APSInt::isSameValue(*VA, *VB);
    return exprIdentity(A, Ctx) == exprIdentity(B, Ctx);
  };
  llvm::ArrayRef<const Stmt *> Work = Ret ? Rest.drop_back() : Rest;
  for (size_t K = 0; K < Shape.Branches.size(); ++K) {
    const FailureBranch &B = Shape.Branches[K];
    if (B.Reports == 0 && B.Return &&
        (IsVoid || SameValue(B.Return->getRetValue(), Ret->getRetValue())))
      // "if (ok) return 0; report(...); return -1;": the failure path after
      // the guard reports.
      return reject(Why,
                    llvm::any_of(Work,
                                 [&](const Stmt *S) {
                                   return isReportingStatement(S, Rules, Ctx);
                                 })
                        ? ShapeRule::InvertedGuard
                        : ShapeRule::EarlySuccessExit,
                    B.If, K + 1);
  }
  if (Rest.empty())
    return Shape;
  if (Ret)
    Shape.Success = Ret;
  if (!Work.empty()) {
    if (Work.size() > 3)
      return reject(Why, ShapeRule::SuccessDoesMore, Work.front());
    for (const Stmt *S : Work)
      if (!isa<Expr, DeclStmt>(S)) // More than a check: an ordinary function.
        return reject(Why, ShapeRule::StatementNotAllowed, S);
    Shape.ExtraSuccessWork = Work.front();
  }
  return Shape;
}

} // namespace hotpath
