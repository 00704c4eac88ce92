//===--- HookShape.cpp - bodies that make a function a hook ---------------===//

#include "analysis/HookShape.h"
#include "analysis/Reporting.h"
#include "analysis/SideEffects.h"
#include "source/SourceText.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include <functional>

using namespace clang;

namespace hotpath {

namespace {

bool isVoidCastOfParam(const Stmt *S) {
  const auto *Cast = dyn_cast<CStyleCastExpr>(S);
  if (!Cast || !Cast->getType()->isVoidType())
    return false;
  const auto *Ref = dyn_cast<DeclRefExpr>(Cast->getSubExpr()->IgnoreParenImpCasts());
  return Ref && isa<ParmVarDecl>(Ref->getDecl());
}

/// True when \p E reads only globals (variables with static storage and their
/// members), compared with constants: a switch that the hook tests.
bool readsOnlyGlobals(const Expr *E, const ASTContext &Ctx) {
  E = E->IgnoreParenImpCasts();
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(Ref->getDecl());
    return VD && VD->hasGlobalStorage() && !VD->isStaticLocal() &&
           !VD->getType().isVolatileQualified();
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return !ME->isArrow() && readsOnlyGlobals(ME->getBase(), Ctx);
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return UO->getOpcode() == UO_LNot && readsOnlyGlobals(UO->getSubExpr(), Ctx);
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->isLogicalOp())
      return readsOnlyGlobals(BO->getLHS(), Ctx) && readsOnlyGlobals(BO->getRHS(), Ctx);
    if (BO->isEqualityOp() || BO->isRelationalOp())
      return (readsOnlyGlobals(BO->getLHS(), Ctx) &&
              BO->getRHS()->isEvaluatable(Ctx)) ||
             (readsOnlyGlobals(BO->getRHS(), Ctx) && BO->getLHS()->isEvaluatable(Ctx));
  }
  return false;
}

/// True when \p Cond holds while a pointer is null: `!p`, `p == NULL`,
/// `NULL == p`, or such a test among the operands of `&&` and `||`.
bool testsNullPointer(const Expr *Cond, const ASTContext &Ctx) {
  Cond = Cond->IgnoreParenImpCasts();
  auto IsPointer = [](const Expr *E) {
    QualType T = E->IgnoreParenImpCasts()->getType();
    return T->isPointerType() || T->isObjCObjectPointerType();
  };
  auto IsNull = [&](const Expr *E) {
    return E->isNullPointerConstant(const_cast<ASTContext &>(Ctx),
                                    Expr::NPC_ValueDependentIsNotNull) != Expr::NPCK_NotNull;
  };
  if (const auto *UO = dyn_cast<UnaryOperator>(Cond))
    return UO->getOpcode() == UO_LNot && IsPointer(UO->getSubExpr());
  const auto *BO = dyn_cast<BinaryOperator>(Cond);
  if (!BO)
    return false;
  if (BO->isLogicalOp())
    return testsNullPointer(BO->getLHS(), Ctx) || testsNullPointer(BO->getRHS(), Ctx);
  return BO->getOpcode() == BO_EQ &&
         ((IsPointer(BO->getLHS()) && IsNull(BO->getRHS())) ||
          (IsPointer(BO->getRHS()) && IsNull(BO->getLHS())));
}

/// True when \p S holds a call that Reporting.h counts as reporting.
bool reportsIn(const Stmt *S, const RuleIndex &Rules, const ASTContext &Ctx) {
  if (!S)
    return false;
  if (isReportingStatement(S, Rules, Ctx))
    return true;
  return llvm::any_of(S->children(),
                      [&](const Stmt *C) { return reportsIn(C, Rules, Ctx); });
}

/// The value of a constant a function returns, null pointers as 0.
std::optional<llvm::APSInt> returnedConstant(const Expr *E, const ASTContext &Ctx) {
  if (!E)
    return std::nullopt;
  if (E->getType()->isPointerType() &&
      E->isNullPointerConstant(const_cast<ASTContext &>(Ctx),
                               Expr::NPC_ValueDependentIsNotNull) != Expr::NPCK_NotNull)
    return llvm::APSInt::get(0);
  return E->getIntegerConstantExpr(Ctx);
}

/// True when \p S returns a constant other than \p Disabled somewhere.
bool returnsOtherConstant(const Stmt *S, const llvm::APSInt &Disabled, const ASTContext &Ctx) {
  if (!S)
    return false;
  if (const auto *R = dyn_cast<ReturnStmt>(S)) {
    std::optional<llvm::APSInt> V = returnedConstant(R->getRetValue(), Ctx);
    return V && !llvm::APSInt::isSameValue(*V, Disabled);
  }
  return llvm::any_of(S->children(), [&](const Stmt *C) {
    return returnsOtherConstant(C, Disabled, Ctx);
  });
}

/// Why `if (Cond) Then; return Disabled;` is a check function, not a hook.
NotHookReason checkFunctionReason(const IfStmt *If, const ReturnStmt *DisabledRet,
                                  const ASTContext &Ctx, const RuleIndex &Rules) {
  std::optional<llvm::APSInt> Disabled =
      DisabledRet ? returnedConstant(DisabledRet->getRetValue(), Ctx) : std::nullopt;
  if (Disabled && returnsOtherConstant(If->getThen(), *Disabled, Ctx) &&
      reportsIn(If->getThen(), Rules, Ctx))
    return NotHookReason::ReportsAndFails;
  if (testsNullPointer(If->getCond(), Ctx))
    return NotHookReason::ActsOnNull;
  return NotHookReason::None;
}

} // namespace

llvm::StringRef notHookText(NotHookReason R) {
  switch (R) {
  case NotHookReason::None:
    return "";
  case NotHookReason::ReportsAndFails:
    return "it is a check function: while its condition holds it reports and returns a "
           "value other than the one it returns otherwise, which its callers test; gating "
           "its calls would only repeat that test";
  case NotHookReason::ActsOnNull:
    return "it is an error check: it acts while a pointer is null, and a hook acts while "
           "its callback or flag is set";
  case NotHookReason::ReturnsVoidCall:
    return "its body is not empty: in a void function, 'return f(x);' makes the call, "
           "which does the work";
  }
  llvm_unreachable("unknown NotHookReason");
}

std::optional<std::string> constantText(const Expr *E, const ASTContext &Ctx) {
  if (!E)
    return std::nullopt;
  const Expr *Bare = E->IgnoreParenImpCasts();
  std::string Text = sourceText(E, Ctx);
  if (E->isNullPointerConstant(const_cast<ASTContext &>(Ctx),
                               Expr::NPC_ValueDependentIsNotNull) != Expr::NPCK_NotNull)
    return std::string(Ctx.getLangOpts().CPlusPlus11 ? "nullptr" : "0");
  std::optional<llvm::APSInt> V = E->getIntegerConstantExpr(Ctx);
  if (!V)
    return std::nullopt;
  if (isa<IntegerLiteral, CXXBoolLiteralExpr, CharacterLiteral>(Bare) && !Text.empty() &&
      !E->getBeginLoc().isMacroID())
    return Text;
  if (E->getType()->isBooleanType())
    return std::string(V->getBoolValue() ? "1" : "0");
  return llvm::toString(*V, 10);
}

std::string outOfLineMarker(const FunctionDecl *FD, const llvm::StringSet<> &ErrorInjected) {
  // Weak first, whatever else it is: the hook model asks the index for the
  // definitions that replace a weak one, and the index's record says weak.
  if (llvm::any_of(FD->redecls(), [](const FunctionDecl *R) { return R->hasAttr<WeakAttr>(); }))
    return "weak";
  for (const FunctionDecl *R : FD->redecls()) {
    if (R->hasAttr<NoInlineAttr>())
      return "noinline";
    if (R->hasAttr<UsedAttr>())
      return "used";
  }
  if (FD->getIdentifier() && ErrorInjected.contains(FD->getName()))
    return "an error-injection point";
  return "";
}

namespace {

/// The statements of \p Body that do something: `;` and `(void)param;` left
/// out.
llvm::SmallVector<const Stmt *, 4> actingStatements(const CompoundStmt *Body) {
  llvm::SmallVector<const Stmt *, 4> Stmts;
  for (const Stmt *S : Body->body())
    if (!isa<NullStmt>(S) && !isVoidCastOfParam(S))
      Stmts.push_back(S);
  return Stmts;
}

/// What the hook returns while it does nothing, the constant \p R returns,
/// into \p H; false when \p R returns no constant.
bool takeDisabledValue(const ReturnStmt *R, HookBody &H, const ASTContext &Ctx) {
  std::optional<std::string> C;
  if (R && R->getRetValue())
    C = constantText(R->getRetValue(), Ctx);
  if (C) {
    H.KnownDisabled = true;
    H.Disabled = *C;
  }
  return C.has_value();
}

/// True when a void function's `return E;` does something: E calls a
/// function or has another effect. Whether the callee does nothing in turn
/// is not followed: a call returned is work (mm/folio-compat.c's wrappers,
/// each a call to the folio function that does it).
bool voidReturnActs(const ReturnStmt *Ret, const ASTContext &Ctx) {
  const Expr *V = Ret ? Ret->getRetValue() : nullptr;
  return V && V->HasSideEffects(Ctx, /*IncludePossibleEffects=*/true);
}

/// An empty body, or one that only returns a constant.
std::optional<HookBody> emptyOrConstant(bool IsVoid, const ReturnStmt *Ret,
                                        const ASTContext &Ctx, NotHook *WhyNot) {
  HookBody H;
  if (IsVoid && voidReturnActs(Ret, Ctx)) {
    if (WhyNot)
      *WhyNot = {NotHookReason::ReturnsVoidCall, Ret->getRetValue()};
    return std::nullopt;
  }
  if (IsVoid) {
    H.Shape = HookBody::Kind::Empty;
    H.KnownDisabled = true;
    H.Why = "its body is empty";
    return H;
  }
  if (!takeDisabledValue(Ret, H, Ctx))
    return std::nullopt;
  H.Shape = HookBody::Kind::Constant;
  H.Why = "its body only returns " + sourceText(Ret->getRetValue(), Ctx);
  return H;
}

/// A local that \p First declares, initialised by reading only globals,
/// with no side effect: the switch read into a local first.
const VarDecl *switchLocal(const Stmt *First, const ASTContext &Ctx, const RuleIndex &Rules) {
  const auto *DS = dyn_cast<DeclStmt>(First);
  if (!DS || !DS->isSingleDecl())
    return nullptr;
  const auto *VD = dyn_cast<VarDecl>(DS->getSingleDecl());
  if (VD && VD->isLocalVarDecl() && !VD->isStaticLocal() && VD->getInit() &&
      !VD->getType().isVolatileQualified() && readsOnlyGlobals(VD->getInit(), Ctx) &&
      !findSideEffect(VD->getInit(), SideEffectOptions::forRepeatedEvaluation(), Rules, Ctx))
    return VD;
  return nullptr;
}

/// True when \p Cond is `Local`, or `Local != 0`.
bool testsLocal(const Expr *Cond, const VarDecl *Local, const ASTContext &Ctx) {
  Cond = Cond->IgnoreParenImpCasts();
  if (const auto *BO = dyn_cast<BinaryOperator>(Cond);
      BO && BO->getOpcode() == BO_NE && BO->getRHS()->isEvaluatable(Ctx)) {
    std::optional<llvm::APSInt> Zero = returnedConstant(BO->getRHS(), Ctx);
    if (!Zero || !Zero->isZero())
      return false;
    Cond = BO->getLHS()->IgnoreParenImpCasts();
  }
  const auto *Ref = dyn_cast<DeclRefExpr>(Cond);
  return Ref && Ref->getDecl() == Local;
}

/// True when \p If has a plain condition: no else, init, condition
/// variable or constexpr.
bool plainIf(const IfStmt *If) {
  return If && !If->getElse() && !If->getInit() && !If->getConditionVariable() &&
         !If->isConstexpr();
}

/// The switch read into \p Local first (SQLite's sqlite3FaultSim):
///   int (*xCallback)(int) = sqlite3GlobalConfig.xTestCallback;
///   return xCallback ? xCallback(iTest) : SQLITE_OK;
/// or `if (xCallback) return xCallback(iTest); return SQLITE_OK;`, \p Stmts
/// being what follows the local. The switch is the global read: testing it
/// at the call is testing the local.
std::optional<HookBody> switchThroughLocal(const VarDecl *Local,
                                           llvm::ArrayRef<const Stmt *> Stmts,
                                           const ReturnStmt *Ret, bool IsVoid,
                                           const ASTContext &Ctx, const RuleIndex &Rules,
                                           NotHook *WhyNot) {
  HookBody H;
  H.Shape = HookBody::Kind::Switch;
  H.Switch = Local->getInit()->IgnoreParenImpCasts();
  H.Why = "it does something only while '" + sourceText(H.Switch, Ctx) + "' holds";
  const auto *Cond = Stmts.size() == 1 && Ret && Ret->getRetValue()
                         ? dyn_cast<ConditionalOperator>(Ret->getRetValue()->IgnoreParens())
                         : nullptr;
  if (Cond && testsLocal(Cond->getCond(), Local, Ctx)) {
    std::optional<std::string> C = constantText(Cond->getFalseExpr(), Ctx);
    if (!C)
      return std::nullopt;
    H.KnownDisabled = true;
    H.Disabled = *C;
    return H;
  }
  const auto *If = Stmts.empty() ? nullptr : dyn_cast<IfStmt>(Stmts.front());
  if (!plainIf(If) || !testsLocal(If->getCond(), Local, Ctx) ||
      Stmts.size() != (IsVoid ? 1u : 2u) || (!IsVoid && !Ret))
    return std::nullopt;
  if (IsVoid)
    H.KnownDisabled = true;
  else if (!takeDisabledValue(Ret, H, Ctx))
    return std::nullopt;
  if (NotHookReason R = checkFunctionReason(If, IsVoid ? nullptr : Ret, Ctx, Rules);
      R != NotHookReason::None) {
    if (WhyNot)
      *WhyNot = {R, H.Switch};
    return std::nullopt;
  }
  return H;
}

/// `if (global) act; [return constant;]`
std::optional<HookBody> switchTested(llvm::ArrayRef<const Stmt *> Stmts, const ReturnStmt *Ret,
                                     bool IsVoid, const ASTContext &Ctx,
                                     const RuleIndex &Rules, NotHook *WhyNot) {
  const auto *If = dyn_cast<IfStmt>(Stmts.front());
  if (!plainIf(If) || Stmts.size() > 2 || (Stmts.size() == 2 && !Ret) ||
      (IsVoid && Stmts.size() == 2 && Ret->getRetValue()))
    return std::nullopt;
  if (!readsOnlyGlobals(If->getCond(), Ctx) ||
      findSideEffect(If->getCond(), SideEffectOptions::forRepeatedEvaluation(), Rules, Ctx))
    return std::nullopt;
  if (NotHookReason R = checkFunctionReason(If, Ret, Ctx, Rules); R != NotHookReason::None) {
    if (WhyNot)
      *WhyNot = {R, If->getCond()};
    return std::nullopt;
  }
  HookBody H;
  H.Shape = HookBody::Kind::Switch;
  H.Switch = If->getCond();
  if (IsVoid)
    H.KnownDisabled = true;
  else if (!takeDisabledValue(Ret, H, Ctx))
    return std::nullopt;
  H.Why = "it does something only while '" + sourceText(If->getCond(), Ctx) + "' holds";
  return H;
}

} // namespace

std::optional<HookBody> recogniseHookBody(const FunctionDecl *Def, const ASTContext &Ctx,
                                          const RuleIndex &Rules, NotHook *WhyNot) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Def->getBody());
  if (!Body)
    return std::nullopt;
  llvm::SmallVector<const Stmt *, 4> Stmts = actingStatements(Body);
  bool IsVoid = Def->getReturnType()->isVoidType();
  const auto *Ret = dyn_cast_or_null<ReturnStmt>(Stmts.empty() ? nullptr : Stmts.back());
  if (Stmts.empty() || (Stmts.size() == 1 && Ret))
    return emptyOrConstant(IsVoid, Ret, Ctx, WhyNot);
  if (const VarDecl *Local = switchLocal(Stmts.front(), Ctx, Rules))
    return switchThroughLocal(Local, llvm::ArrayRef(Stmts).drop_front(), Ret, IsVoid, Ctx,
                              Rules, WhyNot);
  return switchTested(Stmts, Ret, IsVoid, Ctx, Rules, WhyNot);
}

std::optional<std::vector<std::string>> switchNames(const Expr *Switch, const ASTContext &Ctx) {
  // Copied as written: the text must be one range of a file.
  if (sourceText(Switch, Ctx).empty())
    return std::nullopt;
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<std::string> Names, Macros;
  auto Add = [](std::vector<std::string> &To, std::string N) {
    if (!N.empty() && !llvm::is_contained(To, N))
      To.push_back(std::move(N));
  };
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S)
      return;
    // A macro the text spells (sqlite3GlobalConfig), which the caller must
    // see as the hook's file does.
    if (S->getBeginLoc().isMacroID())
      Add(Macros, outermostMacroName(S->getBeginLoc(), SM, Ctx.getLangOpts()).str());
    if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
      if (isa<VarDecl, EnumConstantDecl>(Ref->getDecl()))
        Add(Names, Ref->getDecl()->getQualifiedNameAsString());
    for (const Stmt *C : S->children())
      Walk(C);
  };
  Walk(Switch);
  llvm::append_range(Names, Macros);
  return Names;
}

} // namespace hotpath
