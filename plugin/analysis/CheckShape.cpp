//===--- CheckShape.cpp - recognising a check function --------------------===//

#include "analysis/CheckShape.h"
#include "analysis/Reporting.h"
#include "analysis/SideEffects.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace hotpath {

const PreambleValue *CheckShape::valueOf(const VarDecl *VD) const {
  for (const PreambleValue &V : Values)
    if (V.Var == VD)
      return &V;
  return nullptr;
}

std::string describe(const ShapeFailure &F) {
  std::string B = "branch " + std::to_string(F.Branch);
  switch (F.Rule) {
  case ShapeRule::NoBody:
    return "it has no body of braces to read";
  case ShapeRule::PreambleDeclaration:
    return "a declaration before the branches is not a plain local variable with an "
           "initializer or a scalar assigned later (static, a reference, or not a variable)";
  case ShapeRule::DeclaredThenAssigned:
    return "a local declared without an initializer is used before, or without, one plain "
           "assignment statement giving it its value";
  case ShapeRule::StatementNotAllowed:
    return "a statement before the success path is not a declaration, an assignment, an "
           "'if' or a return";
  case ShapeRule::BranchHasElse:
    return B + " has an 'else' that follows a path that does not leave, or that declares "
               "something";
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
    return B + " holds an 'if' after statements that are not nested branches";
  case ShapeRule::NoBranch:
    return "no 'if' that reports and leaves comes before the success path";
  case ShapeRule::NoReport:
    return "no branch reports anything";
  case ShapeRule::EarlySuccessExit:
    return B + " reports nothing and returns what success returns: an early exit, not a "
               "failure";
  case ShapeRule::InvertedGuard:
    return "the guard is written the other way round: " + B +
           " returns on success, and the failure path after it does more than report "
           "and leave";
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

/// reject(), for the functions that say no with false.
bool rejectBranch(ShapeFailure *Why, ShapeRule Rule, const Stmt *Where, unsigned Branch) {
  reject(Why, Rule, Where, Branch);
  return false;
}

/// The statements of \p S: its own, for a compound statement.
llvm::SmallVector<const Stmt *, 8> statementsOf(const Stmt *S) {
  llvm::SmallVector<const Stmt *, 8> Out;
  if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
    for (const Stmt *Child : CS->body())
      if (!isa<NullStmt>(Child))
        Out.push_back(Child);
  } else if (!isa<NullStmt>(S)) {
    Out.push_back(S);
  }
  return Out;
}

/// Whether \p S names one of \p Vars.
bool refersTo(const Stmt *S, const llvm::SmallPtrSetImpl<const VarDecl *> &Vars) {
  if (!S || Vars.empty())
    return false;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
    if (const auto *VD = dyn_cast<VarDecl>(Ref->getDecl()); VD && Vars.contains(VD))
      return true;
  return llvm::any_of(S->children(), [&](const Stmt *C) { return refersTo(C, Vars); });
}

/// `(void)name;`: a statement that only marks a parameter or a local used.
bool isVoidedName(const Stmt *S) {
  const auto *Cast = dyn_cast<CStyleCastExpr>(S);
  if (!Cast || !Cast->getType()->isVoidType())
    return false;
  const auto *Ref = dyn_cast<DeclRefExpr>(Cast->getSubExpr()->IgnoreParenImpCasts());
  const auto *VD = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  return VD && !VD->getType().isVolatileQualified() &&
         (isa<ParmVarDecl>(VD) || VD->isLocalVarDecl());
}
} // namespace

/// Appends to \p Out the failure branches \p If stands for: one for
/// `if (c) { report...; leave; }`; for `if (a) { if (b) {...} if (c) {...}
/// report...; leave; }` one per nested leaf under the guard `a`, in the order
/// the original tests them, then, if the body ends in reporting and leaving,
/// one for `a` itself. Sets \p Leaves when every path through \p If leaves
/// (it always does but for nested branches with no such tail). The caller
/// reads an 'else' of the outermost if; a nested one has none.
static bool recogniseBranch(const IfStmt *If, llvm::ArrayRef<const Expr *> Guards,
                            const RuleIndex &Rules, const ASTContext &Ctx, ShapeFailure *Why,
                            std::vector<FailureBranch> &Out, bool &Leaves) {
  unsigned Index = Out.size() + 1;
  if (!Guards.empty() && If->getElse())
    return rejectBranch(Why, ShapeRule::BranchHasElse, If->getElse(), Index);
  if (If->getInit() || If->getConditionVariable() || If->isConstexpr() || If->isConsteval())
    return rejectBranch(Why, ShapeRule::BranchHasInit, If, Index);
  if (If->getCond()->containsErrors())
    return rejectBranch(Why, ShapeRule::ConditionHasErrors, If->getCond(), Index);
  llvm::SmallVector<const Stmt *, 8> Body = statementsOf(If->getThen());
  if (Body.empty())
    return rejectBranch(Why, ShapeRule::BranchEmpty, If, Index);

  // Leading nested branches, each under this condition.
  llvm::ArrayRef<const Stmt *> Tail(Body);
  if (isa<IfStmt>(Body.front())) {
    llvm::SmallVector<const Expr *, 2> Inner(Guards.begin(), Guards.end());
    Inner.push_back(If->getCond());
    while (!Tail.empty() && isa<IfStmt>(Tail.front())) {
      bool InnerLeaves = false;
      if (!recogniseBranch(cast<IfStmt>(Tail.front()), Inner, Rules, Ctx, Why, Out,
                           InnerLeaves))
        return false;
      Tail = Tail.drop_front();
    }
    Leaves = false;
    if (Tail.empty()) // "if (a) { if (b) {...} }": a && !b goes on.
      return true;
  }

  FailureBranch B{If, If->getCond(), nullptr, 0};
  B.Guards.assign(Guards.begin(), Guards.end());
  Index = Out.size() + 1;
  const Stmt *Last = Tail.back();
  if (const auto *Ret = dyn_cast<ReturnStmt>(Last))
    B.Return = Ret;
  else if (!isNoreturnStatement(Last, Rules, Ctx))
    return rejectBranch(Why, isa<IfStmt>(Last) ? ShapeRule::NestedIf : ShapeRule::BranchDoesNotLeave,
                  Last, Index);
  else if (isReportingStatement(Last, Rules, Ctx))
    ++B.Reports;
  for (const Stmt *S : Tail.drop_back()) {
    if (!isReportingStatement(S, Rules, Ctx))
      return rejectBranch(Why, isa<IfStmt>(S) ? ShapeRule::NestedIf : ShapeRule::BranchDoesMore, S,
                    Index);
    ++B.Reports;
  }
  Out.push_back(std::move(B));
  Leaves = true;
  return true;
}

static bool isPreambleDecl(const DeclStmt *DS) {
  return llvm::all_of(DS->decls(), [](const Decl *D) {
    const auto *VD = dyn_cast<VarDecl>(D);
    if (!VD || !VD->isLocalVarDecl() || VD->isStaticLocal() ||
        VD->getType()->isReferenceType())
      return false;
    // Without an initializer: a scalar, given its value by an assignment.
    return VD->hasInit() ? !VD->getInit()->containsErrors()
                         : VD->getType()->isScalarType() &&
                               !VD->getType().isVolatileQualified();
  });
}

/// `r = value` for a local \p Pending holds (declared, not yet assigned).
static const BinaryOperator *
assignmentTo(const Stmt *S, const llvm::SmallPtrSetImpl<const VarDecl *> &Pending) {
  const auto *BO = dyn_cast<BinaryOperator>(S);
  if (!BO || BO->getOpcode() != BO_Assign || BO->getRHS()->containsErrors())
    return nullptr;
  const auto *Ref = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParens());
  const auto *VD = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  return VD && Pending.contains(VD) && !refersTo(BO->getRHS(), Pending) ? BO : nullptr;
}

namespace {
/// Locals declared without an initializer and not yet assigned.
using PendingSet = llvm::SmallPtrSet<const VarDecl *, 4>;

/// Reads the preamble and the failure branches into \p Shape: the
/// statements of \p Stmts up to the first that is no declaration, no
/// assignment of a pending local and no if (what an if's else holds is
/// spliced in after it). Returns that statement's index, or none when the
/// body breaks the shape.
std::optional<size_t> recogniseBranches(llvm::SmallVectorImpl<const Stmt *> &Stmts,
                                        CheckShape &Shape, PendingSet &Pending,
                                        const RuleIndex &Rules, const ASTContext &Ctx,
                                        ShapeFailure *Why) {
  // Statements spliced in from an else: one scope further in, so a
  // declaration there would change what its name means after it.
  llvm::SmallPtrSet<const Stmt *, 8> FromElse;
  size_t I = 0;
  for (; I < Stmts.size(); ++I) {
    const Stmt *S = Stmts[I];
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      if (FromElse.contains(DS))
        return reject(Why, ShapeRule::BranchHasElse, DS, Shape.Branches.size());
      if (!isPreambleDecl(DS))
        return reject(Why, ShapeRule::PreambleDeclaration, DS);
      if (refersTo(DS, Pending))
        return reject(Why, ShapeRule::DeclaredThenAssigned, DS);
      size_t Index = Shape.Preamble.size();
      Shape.Preamble.push_back(DS);
      for (const Decl *D : DS->decls()) {
        const auto *VD = cast<VarDecl>(D);
        if (VD->hasInit())
          Shape.Values.push_back({VD, VD->getInit(), Shape.Branches.size(), Index, Index});
        else
          Pending.insert(VD);
      }
      continue;
    }
    if (const BinaryOperator *Assign = assignmentTo(S, Pending)) {
      const auto *VD = cast<VarDecl>(cast<DeclRefExpr>(Assign->getLHS()->IgnoreParens())->getDecl());
      size_t Decl = llvm::find_if(Shape.Preamble, [&](const Stmt *P) {
                      const auto *DS = dyn_cast<DeclStmt>(P);
                      return DS && llvm::is_contained(DS->decls(), VD);
                    }) - Shape.Preamble.begin();
      Pending.erase(VD);
      Shape.Values.push_back(
          {VD, Assign->getRHS(), Shape.Branches.size(), Decl, Shape.Preamble.size()});
      Shape.Preamble.push_back(Assign);
      continue;
    }
    const auto *If = dyn_cast<IfStmt>(S);
    if (!If)
      break;
    bool Leaves = false;
    if (!recogniseBranch(If, {}, Rules, Ctx, Why, Shape.Branches, Leaves))
      return std::nullopt;
    // After the shape test, which rejects most ifs at once, so that not
    // every if of every function with an uninitialised local is walked.
    // (bench.cost-sqlite, instructions: 1.103 of clang with or without this
    // order, 1.101 with main f8f008a's module in the same build.)
    if (refersTo(If, Pending))
      return reject(Why, ShapeRule::DeclaredThenAssigned, If);
    if (const Stmt *Else = If->getElse()) {
      // The branch leaves, so what its else holds comes after it as if
      // written after the if: "else { return 0; }" is the success path,
      // "else if" the next branch.
      if (!Leaves)
        return reject(Why, ShapeRule::BranchHasElse, Else, Shape.Branches.size());
      llvm::SmallVector<const Stmt *, 8> Inner = statementsOf(Else);
      FromElse.insert(Inner.begin(), Inner.end());
      Stmts.insert(Stmts.begin() + I + 1, Inner.begin(), Inner.end());
    }
  }
  return I;
}

/// The guard the other way round, "if (ok) return 0; report(...); return 1;":
/// the last branch returns unreported, and what follows it (\p Rest) only
/// reports and leaves. That is the failure branch "!ok"; the guard's return
/// is success, and \p Rest is emptied. False when the body breaks the shape.
bool recogniseInvertedGuard(CheckShape &Shape, llvm::ArrayRef<const Stmt *> &Rest,
                            bool IsVoid, const RuleIndex &Rules, const ASTContext &Ctx,
                            ShapeFailure *Why) {
  FailureBranch &LastB = Shape.Branches.back();
  if (Rest.empty() || LastB.Reports != 0 || !LastB.Return || !LastB.Guards.empty())
    return true;
  const Stmt *Last = Rest.back();
  const auto *TailRet = dyn_cast<ReturnStmt>(Last);
  llvm::ArrayRef<const Stmt *> Reporting = TailRet ? Rest.drop_back() : Rest;
  bool EndsInNoreturn = !TailRet && isNoreturnStatement(Last, Rules, Ctx);
  if (EndsInNoreturn)
    Reporting = Reporting.drop_back();
  unsigned Reports = EndsInNoreturn && isReportingStatement(Last, Rules, Ctx);
  bool OnlyReports = llvm::all_of(Reporting, [&](const Stmt *S) {
    return isReportingStatement(S, Rules, Ctx);
  });
  Reports += Reporting.size();
  if (OnlyReports && Reports > 0 && (TailRet || EndsInNoreturn || IsVoid)) {
    Shape.Success = LastB.Return;
    LastB.Return = TailRet;
    LastB.Negated = true;
    LastB.Reports = Reports;
    Shape.Reports += Reports;
    Rest = {};
  } else if (Shape.Reports == 0 && llvm::any_of(Rest, [&](const Stmt *S) {
               return isReportingStatement(S, Rules, Ctx);
             })) {
    reject(Why, ShapeRule::InvertedGuard, LastB.If, Shape.Branches.size());
    return false;
  }
  return true;
}

/// Whether two returns give the same value: equal constants, or the same
/// expression; none for both in a void function.
bool sameValue(const Expr *A, const Expr *B, const ASTContext &Ctx) {
  if (!A || !B)
    return !A && !B;
  std::optional<llvm::APSInt> VA = A->getIntegerConstantExpr(Ctx),
                              VB = B->getIntegerConstantExpr(Ctx);
  if (VA && VB)
    return llvm::APSInt::isSameValue(*VA, *VB);
  return exprIdentity(A, Ctx) == exprIdentity(B, Ctx);
}

/// The success path \p Rest, after the branches: nothing (void), one
/// return, or a little more work followed by a return (reported, but not
/// rewritten). Completes \p Shape, or says how the body breaks the shape.
std::optional<CheckShape> recogniseSuccess(CheckShape Shape, llvm::ArrayRef<const Stmt *> Rest,
                                           const PendingSet &Pending, bool IsVoid,
                                           const RuleIndex &Rules, const ASTContext &Ctx,
                                           ShapeFailure *Why) {
  const auto *Ret = Rest.empty() ? Shape.Success : dyn_cast<ReturnStmt>(Rest.back());
  if (!Ret && !IsVoid)
    return reject(Why, ShapeRule::NoSuccessReturn, Rest.empty() ? nullptr : Rest.back());

  // A branch that reports nothing and returns what success returns is an
  // early success exit ("if (cmd->next) return;"), not a failure: merged into
  // the unlikely condition it would send the common case down the slow path.
  // "(void)param;" marks a parameter used and does nothing.
  llvm::SmallVector<const Stmt *, 4> Work;
  for (const Stmt *S : Ret && !Rest.empty() ? Rest.drop_back() : Rest)
    if (!isVoidedName(S))
      Work.push_back(S);
  for (size_t K = 0; K < Shape.Branches.size(); ++K) {
    const FailureBranch &B = Shape.Branches[K];
    if (B.Reports == 0 && B.Return &&
        (IsVoid || sameValue(B.Return->getRetValue(), Ret->getRetValue(), Ctx)))
      // "if (ok) return 0; report(...); x = 1; return -1;": the failure
      // path after the guard reports, but does more.
      return reject(Why,
                    llvm::any_of(Work,
                                 [&](const Stmt *S) {
                                   return isReportingStatement(S, Rules, Ctx);
                                 })
                        ? ShapeRule::InvertedGuard
                        : ShapeRule::EarlySuccessExit,
                    B.If, K + 1);
  }
  // Last, as the costliest test: the success path must not read a local
  // that was never assigned.
  for (const Stmt *S : Rest)
    if (refersTo(S, Pending))
      return reject(Why, ShapeRule::DeclaredThenAssigned, S);
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
} // namespace

std::optional<CheckShape> recogniseShape(const FunctionDecl *FD, const RuleIndex &Rules,
                                         const ASTContext &Ctx, ShapeFailure *Why) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(FD->getBody());
  if (!Body)
    return reject(Why, ShapeRule::NoBody, nullptr);
  CheckShape Shape;
  llvm::SmallVector<const Stmt *, 16> Stmts = statementsOf(Body);
  PendingSet Pending; // declared, not yet assigned
  std::optional<size_t> I = recogniseBranches(Stmts, Shape, Pending, Rules, Ctx, Why);
  if (!I)
    return std::nullopt;
  for (const FailureBranch &B : Shape.Branches)
    Shape.Reports += B.Reports;
  if (Shape.Branches.empty())
    return reject(Why, ShapeRule::NoBranch, *I < Stmts.size() ? Stmts[*I] : nullptr);

  llvm::ArrayRef<const Stmt *> Rest = llvm::ArrayRef(Stmts).drop_front(*I);
  bool IsVoid = FD->getReturnType()->isVoidType();
  if (!recogniseInvertedGuard(Shape, Rest, IsVoid, Rules, Ctx, Why))
    return std::nullopt;
  if (Shape.Reports == 0)
    return reject(Why, ShapeRule::NoReport, Shape.Branches.front().If, 1);
  return recogniseSuccess(std::move(Shape), Rest, Pending, IsVoid, Rules, Ctx, Why);
}

} // namespace hotpath
