//===--- HookGateCallPlanner.cpp - hotpath-hook-gate's call plans ---------===//
//
// What each hot call of one caller becomes (HookGatePlanner.h's CallPlan):
// which calls are left to gate, whether every one allows it, the test they
// make, whether the caller is cloned (CloneCallers), and the form each
// gated call takes by the way its value is used.
//
//===----------------------------------------------------------------------===//

#include "checks/HookGatePlanner.h"
#include "analysis/SideEffects.h"
#include "analysis/Visibility.h"
#include "rewrite/Edits.h"
#include "source/SourceText.h"
#include "source/Tokens.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Lex/Preprocessor.h"

#include "clang/AST/ParentMap.h"

using namespace clang;

namespace hotpath {

namespace {

//===----------------------------------------------------------------------===//
// How a call's value is used.
//===----------------------------------------------------------------------===//

enum class UseKind { Statement, Condition, Value };

/// The statement \p S is in, within the caller's body \p PM maps (not
/// ASTContext::getParents, whose first use maps the whole TU: 375 M
/// instructions on Debian linux 6.1's mm/slub.c, a tenth of the run), or null.
const Stmt *parentOf(const Stmt *S, const ParentMap &PM) {
  return PM.getParent(const_cast<Stmt *>(S));
}

/// How the call's value is used, by the statement \p Child (the call, or
/// the parentheses and implicit casts around it) is in \p P.
std::optional<UseKind> useIn(const Stmt *P, const Stmt *Child) {
  if (isa<CompoundStmt>(P))
    return UseKind::Statement;
  if (const auto *Cast = dyn_cast<CStyleCastExpr>(P); Cast && Cast->getType()->isVoidType())
    return UseKind::Statement;
  if (const auto *If = dyn_cast<IfStmt>(P))
    return If->getCond() == Child ? UseKind::Condition
                                  : UseKind::Statement; // the then/else branch itself
  if (const auto *W = dyn_cast<WhileStmt>(P); W && W->getCond() == Child)
    return UseKind::Condition;
  if (const auto *Loop = dyn_cast<ForStmt>(P)) {
    if (Loop->getCond() == Child)
      return UseKind::Condition;
    if (Loop->getBody() == Child || Loop->getInc() == Child)
      return UseKind::Statement;
  }
  if (const auto *W = dyn_cast<WhileStmt>(P); W && W->getBody() == Child)
    return UseKind::Statement;
  if (const auto *D = dyn_cast<DoStmt>(P); D && D->getBody() == Child)
    return UseKind::Statement;
  if (isa<LabelStmt, CaseStmt, DefaultStmt>(P))
    return UseKind::Statement;
  return std::nullopt;
}

/// How the call's value is used, and the statement that says so.
UseKind contextOf(const CallExpr *Call, const ParentMap &PM, const Stmt **Parent) {
  const Stmt *Child = Call;
  while (true) {
    const Stmt *P = parentOf(Child, PM);
    *Parent = P;
    if (!P)
      return UseKind::Value;
    if (isa<ParenExpr, ImplicitCastExpr>(P)) {
      Child = P;
      continue;
    }
    return useIn(P, Child).value_or(UseKind::Value);
  }
}

/// True when a value use reads the call only as a truth value (under !, &&,
/// || or as the condition of ?:, as `unlikely(hook(a))` expands), so that
/// `gate && hook(a)` reads the same as `gate ? hook(a) : 0`; \p InParens
/// when the call is already written in parentheses of its own.
bool usedAsTruth(const CallExpr *Call, const ParentMap &PM, bool &InParens) {
  const Stmt *Child = Call;
  InParens = false;
  while (true) {
    const Stmt *P = parentOf(Child, PM);
    if (!P)
      return false;
    if (isa<ParenExpr>(P))
      InParens = true;
    if (isa<ImplicitCastExpr, ParenExpr>(P)) {
      Child = P;
      continue;
    }
    if (const auto *U = dyn_cast<UnaryOperator>(P))
      return U->getOpcode() == UO_LNot;
    if (const auto *B = dyn_cast<BinaryOperator>(P))
      return B->isLogicalOp();
    if (const auto *C = dyn_cast<ConditionalOperator>(P))
      return C->getCond() == Child;
    return false;
  }
}

/// True when the call is already behind a test of \p Gate: the right of an
/// && whose left mentions it, an arm of ?: whose condition does, or the body
/// of an if whose condition does.
bool alreadyGated(const CallExpr *Call, StringRef Gate, const ParentMap &PM,
                  ASTContext &Ctx) {
  auto Mentions = [&](const Stmt *S) {
    return S && StringRef(sourceText(S, Ctx)).contains(Gate);
  };
  const Stmt *Child = Call;
  for (int Depth = 0; Depth < 6; ++Depth) {
    const Stmt *P = parentOf(Child, PM);
    if (!P)
      return false;
    if (const auto *BO = dyn_cast<BinaryOperator>(P);
        BO && BO->getOpcode() == BO_LAnd && BO->getRHS() == Child && Mentions(BO->getLHS()))
      return true;
    if (const auto *CO = dyn_cast<ConditionalOperator>(P);
        CO && CO->getCond() != Child && Mentions(CO->getCond()))
      return true;
    if (const auto *If = dyn_cast<IfStmt>(P); If && If->getCond() != Child && Mentions(If->getCond()))
      return true;
    Child = P;
  }
  return false;
}

/// The form of a gated call used as \p K (\p Parent: the statement that
/// says so), \p Mirrored when the hook may be a macro elsewhere.
GatedCall formOf(const CallExpr *Call, UseKind K, const Stmt *Parent, bool Mirrored,
                 StringRef Disabled, const ParentMap &PM, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  GatedCall C;
  C.Call = Call;
  if (K == UseKind::Statement) {
    bool InBlock = Parent && isa<CompoundStmt>(Parent);
    C.Whole = Call;
    if (const auto *Cast = dyn_cast_or_null<CStyleCastExpr>(Parent))
      C.Whole = Cast;
    C.StatementEnd = afterNextToken(tok::semi, SM.getExpansionLoc(C.Whole->getEndLoc()), SM,
                                    Ctx.getLangOpts());
    if (Mirrored && C.StatementEnd.isValid())
      C.Form = InBlock ? GatedForm::BracedIf : GatedForm::BracedBlock;
    else if (C.StatementEnd.isInvalid() || !InBlock)
      C.Form = Call->getType()->isVoidType() ? GatedForm::VoidConditional
                                             : GatedForm::DiscardedAnd;
    else
      C.Form = GatedForm::IfStatement;
    return C;
  }
  bool ZeroOff = Disabled == "0" || Disabled == "false";
  bool InParens = false;
  bool Truth = usedAsTruth(Call, PM, InParens);
  if (K == UseKind::Condition && ZeroOff)
    C.Form = GatedForm::And;
  else if (ZeroOff && (Truth || Call->getType()->isBooleanType()))
    C.Form = InParens ? GatedForm::And : GatedForm::ParenthesisedAnd;
  else
    C.Form = GatedForm::Conditional;
  return C;
}

//===----------------------------------------------------------------------===//
// Whether the calls can be gated.
//===----------------------------------------------------------------------===//

/// The first argument whose evaluation has a side effect the gate would skip.
std::optional<SideEffect> argumentSideEffect(const CallExpr *Call, const RuleIndex &Rules,
                                             const ASTContext &Ctx) {
  for (const Expr *Arg : Call->arguments())
    if (std::optional<SideEffect> E =
            findSideEffect(Arg, SideEffectOptions::forRepeatedEvaluation(), Rules, Ctx))
      return E;
  return std::nullopt;
}

/// Why the call \p C, used as \p K, cannot be gated, if so.
std::optional<NoFix> callRefusal(const HookGateInputs &In, const Hook &H, const CallExpr *C,
                                 UseKind K) {
  ASTContext &Ctx = In.TU.ast();
  if (!isOneFileRange(C->getSourceRange(), Ctx.getSourceManager(), Ctx.getLangOpts()))
    return NoFix{NoFixReason::CallInMacro, C->getBeginLoc()};
  if (std::optional<SideEffect> E = argumentSideEffect(C, In.RuleIdx, Ctx))
    return NoFix{NoFixReason::ArgumentSideEffect, E->Where->getBeginLoc(), "", "",
                 describe(*E, Ctx)};
  if (K != UseKind::Statement && !H.KnownDisabled)
    return NoFix{NoFixReason::UnknownDisabled, C->getBeginLoc()};
  return std::nullopt;
}

/// Why the hook's global switch cannot be tested at \p Point, if so.
std::optional<NoFix> globalSwitchRefusal(const HookGateInputs &In, const Hook &H,
                                         SourceLocation Point) {
  TUContext &TU = In.TU;
  std::vector<const Stmt *> Code{H.GlobalGate};
  if (std::optional<InvisibleName> Missing =
          findInvisibleName(Code, {}, Point, TU.ast(), TU.preprocessor(), TU.includes()))
    return NoFix{NoFixReason::SwitchNotVisible, Point, "", "", Missing->text()};
  return conditionalDependency(namedInCode(Code, {}, TU.ast(), TU.preprocessor()), Point,
                               TU.layout(), TU.sourceManager());
}

/// The test the calls make, and why they cannot, if so: the switch, or its
/// accessor where the switch is not visible.
std::optional<NoFix> chooseTest(const HookGateInputs &In, const GatePlan &G,
                                const FunctionDecl *Caller, SourceLocation Point, CallPlan &P) {
  const Hook &H = *G.H;
  if (G.SwitchAccessorIsMacro) {
    P.Test.Text = G.SwitchAccessor;
    P.ThroughAccessor = true;
  }
  if (H.RemoteSwitch.empty())
    return std::nullopt;
  for (const std::string &N : H.SwitchNames)
    if (!switchNameVisibleAt(N, Caller->getBeginLoc(), In.TU.ast(), In.TU.preprocessor(),
                             In.TU.includes())) {
      if (!G.SwitchAccessor.empty() && !G.SwitchAccessorIsMacro) {
        P.Test.Text = G.SwitchAccessor;
        P.ThroughAccessor = true;
        return std::nullopt;
      }
      return NoFix{NoFixReason::SwitchNotVisible, Point, "", "", "'" + N + "'"};
    }
  return std::nullopt;
}

/// Why a caller cannot be cloned, if it cannot: the clone is its body,
/// unchanged, so nothing in it may depend on which copy runs.
std::optional<NoFixReason> cloneRefusal(const FunctionDecl *F, const ASTContext &Ctx,
                                        unsigned MaxLines) {
  const SourceManager &SM = Ctx.getSourceManager();
  const auto *Body = dyn_cast_or_null<CompoundStmt>(F->getBody());
  if (!Body || isa<CXXMethodDecl>(F) || F->isVariadic() || F->isMain() ||
      F->isTemplated() || F->isTemplateInstantiation() || F->isConstexpr() ||
      !F->getDeclName().isIdentifier() || F->getBeginLoc().isMacroID() ||
      F->getLocation().isMacroID() || Body->getBeginLoc().isMacroID() ||
      Body->getEndLoc().isMacroID())
    return NoFixReason::CloneNotPlainFunction;
  for (const ParmVarDecl *P : F->parameters())
    if (P->getName().empty())
      return NoFixReason::CloneUnnamedParameter;
  // A cold noinline copy of an inline caller (the kernel's
  // __fastpath_inline) conflicts with its attributes: gcc warns.
  for (const FunctionDecl *R : F->redecls())
    if (R->isInlineSpecified() || R->hasAttr<AlwaysInlineAttr>() || R->hasAttr<HotAttr>() ||
        R->hasAttr<FlattenAttr>())
      return NoFixReason::CloneInlineOrHot;
  unsigned Lines = SM.getExpansionLineNumber(Body->getEndLoc()) -
                   SM.getExpansionLineNumber(Body->getBeginLoc()) + 1;
  if (Lines > MaxLines)
    return NoFixReason::CloneTooLong;
  struct Finder : RecursiveASTVisitor<Finder> {
    std::optional<NoFixReason> Why;
    const FunctionDecl *F;
    bool VisitVarDecl(VarDecl *VD) {
      if (VD->isStaticLocal())
        Why = NoFixReason::CloneStaticLocal;
      return !Why;
    }
    bool VisitPredefinedExpr(PredefinedExpr *) {
      Why = NoFixReason::CloneNamesItself;
      return false;
    }
    bool VisitAddrLabelExpr(AddrLabelExpr *) {
      Why = NoFixReason::CloneLabelAddress;
      return false;
    }
    bool VisitDeclRefExpr(DeclRefExpr *Ref) {
      if (Ref->getDecl() == F && F->getPreviousDecl() == nullptr)
        Why = NoFixReason::CloneRecursive;
      return !Why;
    }
  } V;
  V.F = F;
  V.TraverseStmt(const_cast<CompoundStmt *>(Body));
  return V.Why;
}

/// Where a cloned caller tests the gate on entry: before its first
/// statement that is not a declaration a second evaluation (in the clone)
/// cannot tell apart; null: at its closing brace.
const Stmt *entryPoint(const FunctionDecl *Caller, const RuleIndex &Rules,
                       const ASTContext &Ctx) {
  for (const Stmt *S : cast<CompoundStmt>(Caller->getBody())->body()) {
    const auto *DS = dyn_cast<DeclStmt>(S);
    bool PureDecl = DS && llvm::all_of(DS->decls(), [&](const Decl *D) {
      const auto *VD = dyn_cast<VarDecl>(D);
      return VD && (!VD->getInit() ||
                    !findSideEffect(VD->getInit(), SideEffectOptions::forRepeatedEvaluation(),
                                    Rules, Ctx));
    });
    if (!PureDecl)
      return S;
  }
  return nullptr;
}

/// The calls of \p CC not behind the gate yet (a second run), in source
/// order.
std::vector<const CallExpr *> callsToGate(const GatePlan &G, const CallerCalls &CC,
                                          const ParentMap &PM, ASTContext &Ctx) {
  std::vector<const CallExpr *> Calls;
  for (const CallExpr *C : CC.Calls)
    if (!alreadyGated(C, G.GatedMark, PM, Ctx) &&
        (G.SwitchAccessor.empty() || !alreadyGated(C, G.SwitchAccessor, PM, Ctx)))
      Calls.push_back(C);
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::sort(Calls, [&](const CallExpr *A, const CallExpr *B) {
    return SM.isBeforeInTranslationUnit(A->getBeginLoc(), B->getBeginLoc());
  });
  return Calls;
}

/// Why the calls cannot be gated, the first reason in the order the check
/// looks: the gate, each call, the switch's visibility, the test, the
/// conditions the gate is declared under. Sets the test on the way.
std::optional<NoFix> refusal(const HookGateInputs &In, const GatePlan &G,
                             llvm::ArrayRef<const CallExpr *> Calls,
                             llvm::ArrayRef<UseKind> Kinds, CallPlan &P) {
  const Hook &H = *G.H;
  SourceLocation First = Calls.front()->getBeginLoc();
  if (G.Refused)
    return G.Refused;
  // A new gate in one file goes after the hook's first declaration there,
  // after any header the file includes.
  const SourceManager &SM = In.TU.sourceManager();
  if (G.Spec && !G.HeaderMode)
    for (const CallExpr *C : Calls)
      if (!SM.isInMainFile(SM.getExpansionLoc(C->getBeginLoc())))
        return NoFix{NoFixReason::GateAfterCall, C->getBeginLoc()};
  for (size_t I = 0; I < Calls.size(); ++I)
    if (std::optional<NoFix> R = callRefusal(In, H, Calls[I], Kinds[I]))
      return R;
  if (H.GlobalGate)
    if (std::optional<NoFix> R = globalSwitchRefusal(In, H, First))
      return R;
  if (std::optional<NoFix> R = chooseTest(In, G, P.Caller, First, P))
    return R;
  // Each call must be compiled only where the gate is declared (or
  // mirrored): conditions from another file no mirror covers.
  for (const CallExpr *C : Calls) {
    std::vector<ConditionLiteral> Missing = missingConditions(
        G.GateNeeds, In.TU.layout().conditionsAt(C->getBeginLoc(), In.TU.sourceManager()));
    if (!Missing.empty())
      return NoFix{NoFixReason::ConditionElsewhere, C->getBeginLoc(), G.Name,
                   guardDirective(Missing)};
  }
  return std::nullopt;
}

/// CloneCallers: why the caller is gated in place rather than cloned, if so.
std::optional<NoFixReason> notCloned(const HookGateInputs &In, const CallPlan &P,
                                     const CallerCalls &CC, unsigned HooksOfCaller) {
  if (HooksOfCaller > 1)
    return NoFixReason::CloneSeveralHooks;
  if (std::optional<NoFixReason> R =
          cloneRefusal(P.Caller, In.TU.ast(), In.Settings.Gate.CloneMaxLines))
    return R;
  if (P.Calls.size() != CC.Calls.size())
    return NoFixReason::ClonePartlyGated;
  return std::nullopt;
}

} // namespace

std::optional<CallPlan> planCalls(const HookGateInputs &In, const GatePlan &G,
                                  const CallerCalls &CC, unsigned HooksOfCaller) {
  ASTContext &Ctx = In.TU.ast();
  const Hook &H = *G.H;
  CallPlan P;
  if (!(P.Caller = CC.Caller->getDefinition()) || !P.Caller->getBody())
    return std::nullopt;
  ParentMap PM(P.Caller->getBody());
  std::vector<const CallExpr *> Calls = callsToGate(G, CC, PM, Ctx);
  if (Calls.empty())
    return std::nullopt;
  std::vector<UseKind> Kinds;
  std::vector<const Stmt *> Parents;
  for (const CallExpr *C : Calls) {
    const Stmt *Parent = nullptr;
    Kinds.push_back(contextOf(C, PM, &Parent));
    Parents.push_back(Parent);
  }
  P.Test = GateTest{G.Test, false, H.hasSwitch()};
  P.Refused = refusal(In, G, Calls, Kinds, P);
  // The accessor hints itself; a switch is hinted at the call.
  P.Test.HintHere = H.hasSwitch() && !P.ThroughAccessor;
  for (size_t I = 0; I < Calls.size(); ++I)
    P.Calls.push_back(formOf(Calls[I], Kinds[I], Parents[I], G.Mirrored, H.Disabled, PM, Ctx));
  if (!P.Refused && In.Settings.Gate.CloneCallers) {
    P.NotCloned = notCloned(In, P, CC, HooksOfCaller);
    P.Clone = !P.NotCloned;
    if (P.Clone)
      P.EntryBefore = entryPoint(P.Caller, In.RuleIdx, Ctx);
  }
  return P;
}

} // namespace hotpath
