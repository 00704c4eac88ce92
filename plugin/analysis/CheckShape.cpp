//===--- CheckShape.cpp - recognising a check function --------------------===//

#include "analysis/CheckShape.h"
#include "analysis/Reporting.h"
#include "analysis/SideEffects.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace hotpath {

static std::optional<FailureBranch> recogniseBranch(const IfStmt *If, const RuleIndex &Rules,
                                             const ASTContext &Ctx) {
  if (If->getElse() || If->getInit() || If->getConditionVariable() ||
      If->isConstexpr() || If->isConsteval() || If->getCond()->containsErrors())
    return std::nullopt;
  llvm::SmallVector<const Stmt *, 4> Body;
  if (const auto *CS = dyn_cast<CompoundStmt>(If->getThen()))
    Body.append(CS->body_begin(), CS->body_end());
  else
    Body.push_back(If->getThen());
  if (Body.empty())
    return std::nullopt;
  FailureBranch B{If, If->getCond(), nullptr, 0};
  const Stmt *Last = Body.back();
  if (const auto *Ret = dyn_cast<ReturnStmt>(Last))
    B.Return = Ret;
  else if (!isNoreturnStatement(Last, Rules, Ctx))
    return std::nullopt;
  else if (isReportingStatement(Last, Rules, Ctx))
    ++B.Reports;
  for (const Stmt *S : llvm::ArrayRef(Body).drop_back()) {
    if (!isReportingStatement(S, Rules, Ctx))
      return std::nullopt;
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

std::optional<CheckShape> recogniseShape(const FunctionDecl *FD, const RuleIndex &Rules,
                                         const ASTContext &Ctx) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(FD->getBody());
  if (!Body)
    return std::nullopt;
  CheckShape Shape;
  llvm::SmallVector<const Stmt *, 16> Stmts;
  for (const Stmt *S : Body->body())
    if (!isa<NullStmt>(S))
      Stmts.push_back(S);

  size_t I = 0;
  for (; I < Stmts.size(); ++I) {
    if (const auto *DS = dyn_cast<DeclStmt>(Stmts[I])) {
      if (!isPreambleDecl(DS))
        return std::nullopt;
      Shape.Decls.push_back(DS);
      Shape.DeclPosition.push_back(Shape.Branches.size());
      continue;
    }
    const auto *If = dyn_cast<IfStmt>(Stmts[I]);
    if (!If)
      break;
    std::optional<FailureBranch> B = recogniseBranch(If, Rules, Ctx);
    if (!B)
      return std::nullopt;
    Shape.Reports += B->Reports;
    Shape.Branches.push_back(*B);
  }
  if (Shape.Branches.empty() || Shape.Reports == 0)
    return std::nullopt;

  // The success path: nothing (void), one return, or a little more work
  // followed by a return (reported, but not rewritten).
  llvm::ArrayRef<const Stmt *> Rest = llvm::ArrayRef(Stmts).drop_front(I);
  bool IsVoid = FD->getReturnType()->isVoidType();
  const auto *Ret = Rest.empty() ? nullptr : dyn_cast<ReturnStmt>(Rest.back());
  if (!Ret && !IsVoid)
    return std::nullopt;

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
  for (const FailureBranch &B : Shape.Branches)
    if (B.Reports == 0 && B.Return &&
        (IsVoid || SameValue(B.Return->getRetValue(), Ret->getRetValue())))
      return std::nullopt;
  if (Rest.empty())
    return Shape;
  if (Ret)
    Shape.Success = Ret;
  llvm::ArrayRef<const Stmt *> Work = Ret ? Rest.drop_back() : Rest;
  if (!Work.empty()) {
    if (Work.size() > 3 || llvm::any_of(Work, [](const Stmt *S) {
          return !isa<Expr, DeclStmt>(S);
        }))
      return std::nullopt; // More than a check: an ordinary function.
    Shape.ExtraSuccessWork = Work.front();
  }
  return Shape;
}

} // namespace hotpath
