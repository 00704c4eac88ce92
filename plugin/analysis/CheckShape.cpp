//===--- CheckShape.cpp - recognising a check function --------------------===//

#include "analysis/CheckShape.h"
#include "analysis/Reporting.h"
#include "analysis/SideEffects.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
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

const Expr *CheckShape::firstTested() const {
  if (!Exits.empty() && Exits.front().BranchesBefore == 0)
    return Exits.front().Cond;
  return Branches.empty() ? nullptr : Branches.front().firstTested();
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
  case ShapeRule::BranchNotAFailure:
    return B + " does work, reports nothing and returns what success returns: not a "
               "failure";
  case ShapeRule::LocalNotCopyable:
    return "the fast path would read a local it cannot copy (static, volatile, or "
           "declared without an initializer and not a scalar)";
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

/// Calls \p Visit on each statement that \p S runs as a statement: \p S
/// itself when an expression, those of its blocks, branches, loop bodies
/// and labels otherwise (not the conditions).
void forEachStatement(const Stmt *S, llvm::function_ref<void(const Stmt *)> Visit) {
  if (!S)
    return;
  if (isa<Expr>(S))
    Visit(S);
  else if (const auto *CS = dyn_cast<CompoundStmt>(S))
    for (const Stmt *Child : CS->body())
      forEachStatement(Child, Visit);
  else if (const auto *If = dyn_cast<IfStmt>(S)) {
    forEachStatement(If->getThen(), Visit);
    forEachStatement(If->getElse(), Visit);
  } else if (const auto *W = dyn_cast<WhileStmt>(S))
    forEachStatement(W->getBody(), Visit);
  else if (const auto *D = dyn_cast<DoStmt>(S))
    forEachStatement(D->getBody(), Visit);
  else if (const auto *F = dyn_cast<ForStmt>(S))
    forEachStatement(F->getBody(), Visit);
  else if (const auto *Sw = dyn_cast<SwitchStmt>(S))
    forEachStatement(Sw->getBody(), Visit);
  else if (const auto *C = dyn_cast<SwitchCase>(S))
    forEachStatement(C->getSubStmt(), Visit);
  else if (const auto *L = dyn_cast<LabelStmt>(S))
    forEachStatement(L->getSubStmt(), Visit);
  else if (const auto *A = dyn_cast<AttributedStmt>(S))
    forEachStatement(A->getSubStmt(), Visit);
}

/// Whether \p S is or holds a loop (`do ... while (0)` is none).
bool holdsLoop(const Stmt *S, const ASTContext &Ctx) {
  if (!S || isa<LambdaExpr, BlockExpr>(S))
    return false;
  if (isa<ForStmt, WhileStmt, CXXForRangeStmt>(S))
    return true;
  if (const auto *Do = dyn_cast<DoStmt>(S)) {
    std::optional<llvm::APSInt> Cond = Do->getCond()->getIntegerConstantExpr(Ctx);
    if (!Cond || !Cond->isZero())
      return true;
  }
  return llvm::any_of(S->children(), [&](const Stmt *C) { return holdsLoop(C, Ctx); });
}

/// How many statements under \p S only report.
unsigned countReports(const Stmt *S, const RuleIndex &Rules, const ASTContext &Ctx) {
  unsigned N = 0;
  forEachStatement(S, [&](const Stmt *E) { N += isReportingStatement(E, Rules, Ctx); });
  return N;
}

/// Whether some statement under \p S is a noreturn call.
bool callsNoreturn(const Stmt *S, const RuleIndex &Rules, const ASTContext &Ctx) {
  bool Found = false;
  forEachStatement(S, [&](const Stmt *E) { Found |= isNoreturnStatement(E, Rules, Ctx); });
  return Found;
}

/// Whether control never goes on after \p S: a return, a noreturn call, a
/// block that ends in one, an if whose both sides leave.
bool leaves(const Stmt *S, const RuleIndex &Rules, const ASTContext &Ctx) {
  if (!S)
    return false;
  if (isa<ReturnStmt>(S))
    return true;
  if (isa<CompoundStmt>(S)) {
    llvm::SmallVector<const Stmt *, 8> Body = statementsOf(S);
    return !Body.empty() && leaves(Body.back(), Rules, Ctx);
  }
  if (const auto *If = dyn_cast<IfStmt>(S))
    return If->getElse() && leaves(If->getThen(), Rules, Ctx) &&
           leaves(If->getElse(), Rules, Ctx);
  return isa<Expr>(S) && isNoreturnStatement(S, Rules, Ctx);
}

/// The returns under \p S that return from the function (not a lambda's).
void collectReturns(const Stmt *S, llvm::SmallVectorImpl<const ReturnStmt *> &Out) {
  if (!S || isa<LambdaExpr, BlockExpr, CapturedStmt>(S))
    return;
  if (const auto *Ret = dyn_cast<ReturnStmt>(S))
    Out.push_back(Ret);
  for (const Stmt *Child : S->children())
    collectReturns(Child, Out);
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
} // namespace

/// The rules an if breaks in itself, in either reading: an else under a
/// guard, an init or condition variable, a condition that did not compile,
/// an empty body. False, with \p Why filled, when it breaks one.
static bool checkIfItself(const IfStmt *If, llvm::ArrayRef<const Expr *> Guards,
                          unsigned Index, ShapeFailure *Why) {
  if (!Guards.empty() && If->getElse())
    return rejectBranch(Why, ShapeRule::BranchHasElse, If->getElse(), Index);
  if (If->getInit() || If->getConditionVariable() || If->isConstexpr() || If->isConsteval())
    return rejectBranch(Why, ShapeRule::BranchHasInit, If, Index);
  if (If->getCond()->containsErrors())
    return rejectBranch(Why, ShapeRule::ConditionHasErrors, If->getCond(), Index);
  if (statementsOf(If->getThen()).empty())
    return rejectBranch(Why, ShapeRule::BranchEmpty, If, Index);
  return true;
}

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
  if (!checkIfItself(If, Guards, Index, Why))
    return false;
  llvm::SmallVector<const Stmt *, 8> Body = statementsOf(If->getThen());

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
  if (B.Return)
    B.Returns.push_back(B.Return);
  Out.push_back(std::move(B));
  Leaves = true;
  return true;
}

/// The branch `if (c) { anything; leave; }`, whose body runs in the slow
/// path only.
static FailureBranch wholeBranch(const IfStmt *If, llvm::ArrayRef<const Expr *> Guards,
                                 const RuleIndex &Rules, const ASTContext &Ctx) {
  llvm::SmallVector<const Stmt *, 8> Body = statementsOf(If->getThen());
  FailureBranch B{If, If->getCond(), dyn_cast<ReturnStmt>(Body.back()),
                  countReports(If->getThen(), Rules, Ctx)};
  B.Guards.assign(Guards.begin(), Guards.end());
  collectReturns(If->getThen(), B.Returns);
  B.DoesMore = true;
  return B;
}

/// recogniseBranch() for FailurePaths::Anything: the strict reading when
/// it holds; otherwise a body that leaves on every path is one branch that
/// may do anything, and a body of nested ifs alone is read if by if.
static bool readBranch(const IfStmt *If, llvm::ArrayRef<const Expr *> Guards,
                       const RuleIndex &Rules, const ASTContext &Ctx, ShapeFailure *Why,
                       std::vector<FailureBranch> &Out, bool &Leaves) {
  size_t Mark = Out.size();
  if (!checkIfItself(If, Guards, Mark + 1, Why))
    return false;
  ShapeFailure Strict;
  if (recogniseBranch(If, Guards, Rules, Ctx, &Strict, Out, Leaves))
    return true;
  Out.resize(Mark, FailureBranch{nullptr, nullptr, nullptr, 0});
  if (leaves(If->getThen(), Rules, Ctx)) {
    Out.push_back(wholeBranch(If, Guards, Rules, Ctx));
    Leaves = true;
    return true;
  }
  llvm::SmallVector<const Stmt *, 8> Body = statementsOf(If->getThen());
  if (!llvm::all_of(Body, [](const Stmt *S) { return isa<IfStmt>(S); })) {
    if (Why)
      *Why = Strict;
    return false;
  }
  llvm::SmallVector<const Expr *, 2> Inner(Guards.begin(), Guards.end());
  Inner.push_back(If->getCond());
  for (const Stmt *S : Body) {
    bool InnerLeaves = false;
    if (!readBranch(cast<IfStmt>(S), Inner, Rules, Ctx, Why, Out, InnerLeaves))
      return false;
  }
  Leaves = false;
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

/// FailurePaths::Anything: local variables of any type, whose initializers
/// compiled, and the types they declare ("struct { int a; } s;").
static bool isAnyLocalDecl(const DeclStmt *DS) {
  return llvm::all_of(DS->decls(), [](const Decl *D) {
    if (isa<TagDecl, TypedefNameDecl>(D))
      return true;
    const auto *VD = dyn_cast<VarDecl>(D);
    return VD && VD->isLocalVarDecl() && !(VD->hasInit() && VD->getInit()->containsErrors());
  });
}

namespace {
/// Locals declared without an initializer and not yet assigned.
using PendingSet = llvm::SmallPtrSet<const VarDecl *, 4>;

/// `r = value` for a local \p Pending holds (declared, not yet assigned).
const BinaryOperator *assignmentTo(const Stmt *S, const PendingSet &Pending) {
  const auto *BO = dyn_cast<BinaryOperator>(S);
  if (!BO || BO->getOpcode() != BO_Assign || BO->getRHS()->containsErrors())
    return nullptr;
  const auto *Ref = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParens());
  const auto *VD = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  return VD && Pending.contains(VD) && !refersTo(BO->getRHS(), Pending) ? BO : nullptr;
}

/// Reads a function's body as a check function, in one of the two
/// readings (FailurePaths).
class ShapeReader {
public:
  ShapeReader(const FunctionDecl *FD, const RuleIndex &Rules, const ASTContext &Ctx,
              ShapeFailure *Why, FailurePaths Paths)
      : Rules(Rules), Ctx(Ctx), Why(Why), Anything(Paths == FailurePaths::Anything),
        IsVoid(FD->getReturnType()->isVoidType()) {}

  std::optional<CheckShape> read(const CompoundStmt *Body);

private:
  /// One if at the top of the body: its branches are Shape.Branches[First,
  /// End) until foldExits() reads them again.
  struct TopIf {
    const IfStmt *If;
    size_t First, End;
    bool BodyLeaves;
  };

  std::optional<size_t> readStatements(llvm::SmallVectorImpl<const Stmt *> &Stmts);
  bool readDecl(const DeclStmt *DS);
  void readAssignment(const BinaryOperator *Assign);
  bool readIf(const IfStmt *If, bool &Leaves);
  bool readInvertedGuard(llvm::ArrayRef<const Stmt *> &Rest);
  bool rejectEarlyExits(const ReturnStmt *Ret, llvm::ArrayRef<const Stmt *> Work);
  bool foldExits(const ReturnStmt *Ret);
  bool isSilentSuccess(const FailureBranch &B, const ReturnStmt *Ret) const;
  bool checkNotCopyable();
  std::optional<CheckShape> readSuccess(llvm::ArrayRef<const Stmt *> Rest);

  std::nullopt_t fail(ShapeRule Rule, const Stmt *Where, unsigned Branch = 0) {
    return reject(Why, Rule, Where, Branch);
  }

  const RuleIndex &Rules;
  const ASTContext &Ctx;
  ShapeFailure *Why;
  const bool Anything;
  const bool IsVoid;
  CheckShape Shape;
  PendingSet Pending; // declared, not yet assigned
  /// Anything: locals only failure paths may use (static, volatile, not
  /// scalars and declared without an initializer).
  llvm::SmallPtrSet<const VarDecl *, 4> FailureOnly;
  std::vector<TopIf> Tops;
};

bool ShapeReader::readDecl(const DeclStmt *DS) {
  if (!(Anything ? isAnyLocalDecl(DS) : isPreambleDecl(DS)))
    return reject(Why, ShapeRule::PreambleDeclaration, DS), false;
  if (refersTo(DS, Pending))
    return reject(Why, ShapeRule::DeclaredThenAssigned, DS), false;
  size_t Index = Shape.Preamble.size();
  Shape.Preamble.push_back(DS);
  for (const Decl *D : DS->decls()) {
    const auto *VD = dyn_cast<VarDecl>(D);
    if (!VD)
      continue;
    QualType T = VD->getType();
    // A static's initializer is not run by the call; a volatile is read
    // where the original reads it.
    if (VD->isStaticLocal() || T.isVolatileQualified() ||
        (!VD->hasInit() && !T->isScalarType()))
      FailureOnly.insert(VD);
    if (VD->isStaticLocal())
      continue;
    if (VD->hasInit())
      Shape.Values.push_back({VD, VD->getInit(), Shape.Branches.size(), Index, Index});
    else if (T->isScalarType() && !T.isVolatileQualified())
      Pending.insert(VD);
  }
  return true;
}

void ShapeReader::readAssignment(const BinaryOperator *Assign) {
  const auto *VD = cast<VarDecl>(cast<DeclRefExpr>(Assign->getLHS()->IgnoreParens())->getDecl());
  size_t Decl = llvm::find_if(Shape.Preamble, [&](const Stmt *P) {
                  const auto *DS = dyn_cast<DeclStmt>(P);
                  return DS && llvm::is_contained(DS->decls(), VD);
                }) - Shape.Preamble.begin();
  Pending.erase(VD);
  Shape.Values.push_back(
      {VD, Assign->getRHS(), Shape.Branches.size(), Decl, Shape.Preamble.size()});
  Shape.Preamble.push_back(Assign);
}

bool ShapeReader::readIf(const IfStmt *If, bool &Leaves) {
  size_t First = Shape.Branches.size();
  if (!(Anything ? readBranch : recogniseBranch)(If, {}, Rules, Ctx, Why, Shape.Branches,
                                                 Leaves))
    return false;
  Tops.push_back({If, First, Shape.Branches.size(), leaves(If->getThen(), Rules, Ctx)});
  // After the shape test, which rejects most ifs at once, so that not
  // every if of every function with an uninitialised local is walked.
  // (bench.cost-sqlite, instructions: 1.103 of clang with or without this
  // order, 1.101 with main f8f008a's module in the same build.)
  if (Pending.empty())
    return true;
  // Read before any value is given: in the reading for a split only what
  // the fast path evaluates (the conditions, an exit's value), since the
  // rest runs in the slow path, which is the original.
  const Stmt *Reads = If;
  if (Anything) {
    Reads = nullptr;
    for (size_t I = First; I < Shape.Branches.size() && !Reads; ++I) {
      const FailureBranch &B = Shape.Branches[I];
      for (const Expr *Cond : B.conditions())
        if (refersTo(Cond, Pending))
          Reads = Cond;
      if (!B.DoesMore && B.Return && refersTo(B.Return, Pending))
        Reads = B.Return;
    }
  }
  if (Reads && refersTo(Reads, Pending))
    return reject(Why, ShapeRule::DeclaredThenAssigned, If), false;
  return true;
}

/// Reads the preamble and the ifs of \p Stmts: the statements up to the
/// first that is no declaration, no assignment of a pending local and no if
/// (what an if's else holds is spliced in after it). Returns that
/// statement's index, or none when the body breaks the shape.
std::optional<size_t>
ShapeReader::readStatements(llvm::SmallVectorImpl<const Stmt *> &Stmts) {
  // Statements spliced in from an else: one scope further in, so a
  // declaration there would change what its name means after it.
  llvm::SmallPtrSet<const Stmt *, 8> FromElse;
  size_t I = 0;
  for (; I < Stmts.size(); ++I) {
    const Stmt *S = Stmts[I];
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      if (FromElse.contains(DS))
        return fail(ShapeRule::BranchHasElse, DS, Shape.Branches.size());
      if (!readDecl(DS))
        return std::nullopt;
      continue;
    }
    if (const BinaryOperator *Assign = assignmentTo(S, Pending)) {
      readAssignment(Assign);
      continue;
    }
    const auto *If = dyn_cast<IfStmt>(S);
    if (!If)
      break;
    bool Leaves = false;
    if (!readIf(If, Leaves))
      return std::nullopt;
    if (const Stmt *Else = If->getElse()) {
      // The branch leaves, so what its else holds comes after it as if
      // written after the if: "else { return 0; }" is the success path,
      // "else if" the next branch.
      if (!Leaves)
        return fail(ShapeRule::BranchHasElse, Else, Shape.Branches.size());
      llvm::SmallVector<const Stmt *, 8> Inner = statementsOf(Else);
      FromElse.insert(Inner.begin(), Inner.end());
      Stmts.insert(Stmts.begin() + I + 1, Inner.begin(), Inner.end());
    }
  }
  return I;
}

/// The guard the other way round, "if (ok) return 0; report(...); return 1;":
/// the last branch returns unreported, and what follows it (\p Rest)
/// reports and leaves (only that, but in the reading for a split). That is
/// the failure branch "!ok"; the guard's return is success, and \p Rest is
/// emptied. False when the body breaks the shape.
bool ShapeReader::readInvertedGuard(llvm::ArrayRef<const Stmt *> &Rest) {
  FailureBranch &LastB = Shape.Branches.back();
  if (Rest.empty() || LastB.Reports != 0 || !LastB.Return || !LastB.Guards.empty() ||
      LastB.DoesMore)
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
  bool Leaves = TailRet || EndsInNoreturn || IsVoid;
  if (Anything && !OnlyReports) {
    Reports = 0;
    for (const Stmt *S : Rest)
      Reports += countReports(S, Rules, Ctx);
    Leaves = IsVoid || leaves(Last, Rules, Ctx);
  }
  // A void function's "if (nothing to do) return;" followed by work that
  // reports on the way (btrfs-progs' free_extent_buffer_internal(): drop a
  // reference, BUG_ON, free) is the function's work, not a failure path. A
  // failure path says what is wrong first, then repairs (xfs_repair's
  // check_nsec(): do_warn, then reset the field).
  // The same holds whatever the function returns, and a failure path runs
  // no loop (issue 26, Linux 6.1: verify_parent_transid()'s `if (atomic)
  // return -EAGAIN;` then lock_extent(), add_block_group_free_space()'s
  // mutex_lock(), check_leaf()'s `if (nritems == 0) return 0;` then its loop
  // over the items, btrfs_print_leaf()'s report then loop: each was read as
  // an unlikely failure that sent the common case down the slow path).
  bool GuardsWork = Anything && !OnlyReports && !EndsInNoreturn &&
                    (!isReportingStatement(Rest.front(), Rules, Ctx) ||
                     llvm::any_of(Rest, [&](const Stmt *S) { return holdsLoop(S, Ctx); }));
  if ((OnlyReports || Anything) && Reports > 0 && Leaves && !GuardsWork) {
    Shape.Success = LastB.Return;
    LastB.Return = TailRet;
    LastB.Negated = true;
    LastB.Reports = Reports;
    LastB.DoesMore = !OnlyReports;
    Shape.Reports += Reports;
    LastB.Returns.clear();
    for (const Stmt *S : Rest)
      collectReturns(S, LastB.Returns);
    Rest = {};
  } else if (Shape.Reports == 0 && llvm::any_of(Rest, [&](const Stmt *S) {
               return isReportingStatement(S, Rules, Ctx);
             })) {
    reject(Why, ShapeRule::InvertedGuard, LastB.If, Shape.Branches.size());
    return false;
  }
  return true;
}

/// A branch that reports nothing and returns what success returns.
bool ShapeReader::isSilentSuccess(const FailureBranch &B, const ReturnStmt *Ret) const {
  return B.Reports == 0 && B.Return && !B.Negated && !B.DoesMore &&
         (IsVoid || sameValue(B.Return->getRetValue(), Ret->getRetValue(), Ctx));
}

/// FailurePaths::OnlyReport: a branch that reports nothing and returns what
/// success returns is an early success exit ("if (cmd->next) return;"), not
/// a failure, and not read. Merged into the unlikely condition it would send
/// the common case down the slow path.
bool ShapeReader::rejectEarlyExits(const ReturnStmt *Ret, llvm::ArrayRef<const Stmt *> Work) {
  for (size_t K = 0; K < Shape.Branches.size(); ++K) {
    const FailureBranch &B = Shape.Branches[K];
    if (!isSilentSuccess(B, Ret))
      continue;
    // "if (ok) return 0; report(...); x = 1; return -1;": the failure
    // path after the guard reports, but does more.
    bool Reports = llvm::any_of(
        Work, [&](const Stmt *S) { return isReportingStatement(S, Rules, Ctx); });
    reject(Why, Reports ? ShapeRule::InvertedGuard : ShapeRule::EarlySuccessExit, B.If, K + 1);
    return false;
  }
  return true;
}

/// FailurePaths::Anything: an if that only returns what success returns is
/// an early success exit, a guard of the tests after it. An if with such a
/// return among others under it is one branch, when it leaves; a branch that
/// does work must show it fails (a report, a noreturn call, another value).
bool ShapeReader::foldExits(const ReturnStmt *Ret) {
  std::vector<FailureBranch> Branches;
  for (const TopIf &T : Tops) {
    llvm::ArrayRef<FailureBranch> Read =
        llvm::ArrayRef(Shape.Branches).slice(T.First, T.End - T.First);
    if (Read.size() == 1 && Read.front().Guards.empty() && isSilentSuccess(Read.front(), Ret)) {
      Shape.Exits.push_back({T.If, T.If->getCond(), Read.front().Return,
                             static_cast<unsigned>(Branches.size())});
      continue;
    }
    size_t First = Branches.size();
    if (llvm::any_of(Read, [&](const FailureBranch &B) { return isSilentSuccess(B, Ret); })) {
      if (!T.BodyLeaves)
        return reject(Why, ShapeRule::EarlySuccessExit, T.If, First + 1), false;
      Branches.push_back(wholeBranch(T.If, {}, Rules, Ctx));
    } else {
      Branches.insert(Branches.end(), Read.begin(), Read.end());
    }
    for (size_t I = First; I < Branches.size(); ++I) {
      FailureBranch &B = Branches[I];
      B.ExitsBefore = Shape.Exits.size();
      bool Fails = B.Reports > 0 || !B.DoesMore ||
                   callsNoreturn(B.Negated ? nullptr : B.If->getThen(), Rules, Ctx) ||
                   llvm::any_of(B.Returns, [&](const ReturnStmt *R) {
                     return Ret && !sameValue(R->getRetValue(), Ret->getRetValue(), Ctx);
                   });
      if (!Fails)
        return reject(Why, ShapeRule::BranchNotAFailure, B.If, I + 1), false;
    }
  }
  Shape.Branches = std::move(Branches);
  return true;
}

/// FailurePaths::Anything: what the fast path evaluates must not read a
/// local that only failure paths may use.
bool ShapeReader::checkNotCopyable() {
  llvm::SmallVector<const Stmt *, 16> Read;
  for (const FailureBranch &B : Shape.Branches)
    llvm::append_range(Read, B.conditions());
  for (const SuccessExit &E : Shape.Exits)
    Read.append({E.Cond, E.Return});
  for (const PreambleValue &V : Shape.Values)
    Read.push_back(V.Value);
  if (Shape.Success)
    Read.push_back(Shape.Success);
  for (const Stmt *S : Read)
    if (refersTo(S, FailureOnly))
      return reject(Why, ShapeRule::LocalNotCopyable, S), false;
  return true;
}

/// The success path \p Rest, after the branches: nothing (void), one
/// return, or a little more work followed by a return (reported, but not
/// rewritten). Completes the shape, or says how the body breaks it.
std::optional<CheckShape> ShapeReader::readSuccess(llvm::ArrayRef<const Stmt *> Rest) {
  const auto *Ret = Rest.empty() ? Shape.Success : dyn_cast<ReturnStmt>(Rest.back());
  if (!Ret && !IsVoid)
    return fail(ShapeRule::NoSuccessReturn, Rest.empty() ? nullptr : Rest.back());

  // "(void)param;" marks a parameter used and does nothing.
  llvm::SmallVector<const Stmt *, 4> Work;
  for (const Stmt *S : Ret && !Rest.empty() ? Rest.drop_back() : Rest)
    if (!isVoidedName(S))
      Work.push_back(S);
  if (!(Anything ? foldExits(Ret) : rejectEarlyExits(Ret, Work)))
    return std::nullopt;
  Shape.Reports = 0;
  for (const FailureBranch &B : Shape.Branches)
    Shape.Reports += B.Reports;
  if (Shape.Reports == 0)
    return fail(ShapeRule::NoReport, Shape.Branches.empty() ? nullptr : Shape.Branches.front().If,
                1);
  // Last, as the costliest test: the success path must not read a local
  // that was never assigned.
  for (const Stmt *S : Rest)
    if (refersTo(S, Pending))
      return fail(ShapeRule::DeclaredThenAssigned, S);
  if (!Rest.empty() && Ret)
    Shape.Success = Ret;
  if (Anything && !checkNotCopyable())
    return std::nullopt;
  if (!Work.empty()) {
    if (Work.size() > 3)
      return fail(ShapeRule::SuccessDoesMore, Work.front());
    for (const Stmt *S : Work)
      if (!isa<Expr, DeclStmt>(S)) // More than a check: an ordinary function.
        return fail(ShapeRule::StatementNotAllowed, S);
    Shape.ExtraSuccessWork = Work.front();
  }
  return std::move(Shape);
}

std::optional<CheckShape> ShapeReader::read(const CompoundStmt *Body) {
  llvm::SmallVector<const Stmt *, 16> Stmts = statementsOf(Body);
  std::optional<size_t> I = readStatements(Stmts);
  if (!I)
    return std::nullopt;
  for (const FailureBranch &B : Shape.Branches)
    Shape.Reports += B.Reports;
  if (Shape.Branches.empty())
    return fail(ShapeRule::NoBranch, *I < Stmts.size() ? Stmts[*I] : nullptr);

  llvm::ArrayRef<const Stmt *> Rest = llvm::ArrayRef(Stmts).drop_front(*I);
  if (!readInvertedGuard(Rest))
    return std::nullopt;
  // The exits of the reading for a split report nothing: said once they
  // are known.
  if (!Anything && Shape.Reports == 0)
    return fail(ShapeRule::NoReport, Shape.Branches.front().If, 1);
  return readSuccess(Rest);
}
} // namespace

bool mayHaveCheckShape(const FunctionDecl *FD) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(FD->getBody());
  if (!Body)
    return false;
  for (const Stmt *S : Body->body()) {
    if (isa<IfStmt>(S))
      return true;
    // readStatements goes on past these (an assignment only to a local
    // declared without a value: a superset here).
    const auto *Op = dyn_cast<BinaryOperator>(S);
    if (!isa<DeclStmt, NullStmt>(S) && !(Op && Op->isAssignmentOp()))
      return false;
  }
  return false;
}

std::optional<CheckShape> recogniseShape(const FunctionDecl *FD, const RuleIndex &Rules,
                                         const ASTContext &Ctx, ShapeFailure *Why,
                                         FailurePaths Paths) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(FD->getBody());
  if (!Body)
    return reject(Why, ShapeRule::NoBody, nullptr);
  return ShapeReader(FD, Rules, Ctx, Why, Paths).read(Body);
}

} // namespace hotpath
