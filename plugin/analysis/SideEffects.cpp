//===--- SideEffects.cpp - what evaluating an expression does -------------===//

#include "analysis/SideEffects.h"
#include "analysis/CheckShape.h"
#include "analysis/Purity.h"
#include "analysis/Reporting.h"
#include "source/SourceText.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/Builtins.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"

using namespace clang;

namespace hotpath {

//===----------------------------------------------------------------------===//
// Side effects.
//===----------------------------------------------------------------------===//

SideEffectOptions SideEffectOptions::forRepeatedEvaluation() { return {}; }

SideEffectOptions SideEffectOptions::forDroppedEvaluation(bool InvisibleCallsAreEffects) {
  SideEffectOptions O;
  O.Calls = CallPolicy::VisibleBodies;
  O.InvisibleCallsAreEffects = InvisibleCallsAreEffects;
  O.ReportingIsEffect = false;
  O.VolatileReadsAreEffects = false;
  O.Reasons = Wording::Detailed;
  return O;
}

SideEffectOptions SideEffectOptions::forKeptWork() {
  SideEffectOptions O;
  O.Calls = CallPolicy::VisibleBodies;
  O.LoopsAreEffects = true;
  // A read is a load, however it is qualified: the kernel's inline
  // accessors read through READ_ONCE() (a volatile access), and a disabled
  // lockdep_assert_held(&slab_node(slab)->list_lock) costs a load, no call.
  O.VolatileReadsAreEffects = false;
  O.Reasons = Wording::Detailed;
  return O;
}

bool isKnownPureFunction(const FunctionDecl *FD, const RuleIndex &Rules,
                         const ASTContext &Ctx) {
  return FD && (FD->isConstexpr() || PurityAnalysis(Rules, Ctx).isDeclaredPure(FD));
}

namespace {
/// Calls that only report or leave, by declaration.
bool onlyReportsOrLeaves(const FunctionDecl *Callee, const RuleIndex &Rules) {
  if (Callee->isNoReturn())
    return true;
  const IdentifierInfo *II = Callee->getIdentifier();
  return II && (Rules.ReportingFunctions.contains(II->getName()) ||
                Rules.NoreturnFunctions.contains(II->getName()));
}

bool isAssignmentOperator(OverloadedOperatorKind K) {
  return K == OO_Equal || K == OO_PlusEqual || K == OO_MinusEqual || K == OO_StarEqual ||
         K == OO_SlashEqual || K == OO_PercentEqual || K == OO_AmpEqual ||
         K == OO_PipeEqual || K == OO_CaretEqual || K == OO_LessLessEqual ||
         K == OO_GreaterGreaterEqual;
}

/// One walk, depth first in evaluation-tree order, stopping at the first
/// effect. Every callee is asked of Purity.h first: a pure one is no effect
/// under any policy. Under PureCallees an impure one is the effect, said at
/// the call; with VisibleBodies the walk follows it into its body, where
/// writes to the callee's own locals do not count and, for dropped code,
/// reporting does not either.
///
/// Where the two analyses this one replaced disagreed, each policy keeps its
/// answer for now (SideEffectsTest pins every such case, "Disagreement"):
/// VisibleBodies does not count constructors, va_arg or atomic builtins, and
/// lets type-dependent calls through; PureCallees looks into the operands
/// of noexcept and of an unevaluated typeid. Both take an overloaded
/// assignment or ++/-- for the write it is.
class SideEffectFinder {
public:
  SideEffectFinder(const SideEffectOptions &Opts, const RuleIndex &Rules,
                   const ASTContext &Ctx)
      : Opts(Opts), Rules(Rules), Ctx(Ctx),
        FollowBodies(Opts.Calls == SideEffectOptions::CallPolicy::VisibleBodies),
        Purity(PurityAnalysis::forTU(Rules, Ctx)) {}

  SideEffectReport run(const Stmt *S) {
    SideEffectReport R;
    Report = &R;
    R.Effect = visit(S, nullptr, 0);
    if (R.Effect)
      R.Effect->Reasons = Opts.Reasons;
    return R;
  }

private:
  static constexpr unsigned MaxCallDepth = 4;

  static SideEffect effect(EffectKind K, const Stmt *Where, const Expr *Target = nullptr,
                           const FunctionDecl *Callee = nullptr) {
    SideEffect E(K, Where);
    E.Target = Target;
    E.Callee = Callee;
    return E;
  }

  /// Writes through \p Target are a change of state unless it names a
  /// variable local to \p Fn (the callee being followed), or, in the code
  /// itself (\p Fn null), one the code declares: a statement expression's
  /// own local, as the kernel's RELOC_HIDE() (behind per_cpu_ptr()) gives
  /// `__ptr` its value. Nothing outlives it.
  bool isLocalTarget(const Expr *Target, const FunctionDecl *Fn) const {
    const auto *Ref = dyn_cast<DeclRefExpr>(Target->IgnoreParenImpCasts());
    if (!Ref)
      return false;
    const auto *VD = dyn_cast<VarDecl>(Ref->getDecl());
    if (!VD || !VD->hasLocalStorage() || VD->getType()->isReferenceType())
      return false;
    return Fn ? VD->getParentFunctionOrMethod() == Fn : OwnLocals.contains(VD);
  }

  std::optional<SideEffect> visit(const Stmt *S, const FunctionDecl *Fn, unsigned Depth) {
    if (!S)
      return std::nullopt;
    // Reporting macros in a callee only report.
    if (Fn && !Opts.ReportingIsEffect && S->getBeginLoc().isMacroID() &&
        isInsideMacroNamed(S->getBeginLoc(), Rules.ReportingMacros, Ctx.getSourceManager(),
                           Ctx.getLangOpts()))
      return std::nullopt;
    if (Fn && Opts.LoopsAreEffects && isLoop(S))
      return effect(EffectKind::Loops, S);
    // Met before the statements that write them (isLocalTarget).
    if (const auto *DS = dyn_cast<DeclStmt>(S); DS && !Fn)
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D))
          OwnLocals.insert(VD);
    if (const auto *E = dyn_cast<Expr>(S)) {
      // Operands of sizeof, alignof, noexcept, typeid and _Generic's
      // unselected arms are not evaluated.
      if (isa<UnaryExprOrTypeTraitExpr>(E))
        return std::nullopt;
      if (FollowBodies) {
        if (isa<CXXNoexceptExpr>(E))
          return std::nullopt;
        if (const auto *Typeid = dyn_cast<CXXTypeidExpr>(E);
            Typeid && !Typeid->isPotentiallyEvaluated())
          return std::nullopt;
      }
      if (const auto *G = dyn_cast<GenericSelectionExpr>(E))
        return G->isResultDependent() ? std::nullopt : visit(G->getResultExpr(), Fn, Depth);
      if (const auto *L = dyn_cast<LambdaExpr>(E); L && FollowBodies) {
        // Its body runs when it is called, and is followed then. (Declared
        // purity says nothing about a lambda, implicitly constexpr since
        // C++17: under DeclaredPure its body is judged where it is written.)
        for (const Expr *Init : L->capture_inits())
          if (std::optional<SideEffect> R = visit(Init, Fn, Depth))
            return R;
        return std::nullopt;
      }
      if (std::optional<SideEffect> R = visitNode(E, Fn, Depth))
        return R;
    }
    for (const Stmt *Child : S->children())
      if (std::optional<SideEffect> R = visit(Child, Fn, Depth))
        return R;
    return std::nullopt;
  }

  /// A statement that may repeat: `do ... while (0)` from a macro is none.
  bool isLoop(const Stmt *S) const {
    if (const auto *Do = dyn_cast<DoStmt>(S)) {
      std::optional<llvm::APSInt> Cond = Do->getCond()->getIntegerConstantExpr(Ctx);
      return !Cond || !Cond->isZero();
    }
    return isa<ForStmt, WhileStmt, CXXForRangeStmt>(S);
  }

  /// The effect of \p E itself, not of its operands.
  std::optional<SideEffect> visitNode(const Expr *E, const FunctionDecl *Fn, unsigned Depth) {
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      if (BO->isAssignmentOp() && !isLocalTarget(BO->getLHS(), Fn))
        return effect(EffectKind::Assigns, E, BO->getLHS());
    } else if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      if (UO->isIncrementDecrementOp() && !isLocalTarget(UO->getSubExpr(), Fn))
        return effect(UO->isIncrementOp() ? EffectKind::Increments : EffectKind::Decrements, E,
                      UO->getSubExpr());
    } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E)) {
      OverloadedOperatorKind K = Op->getOperator();
      bool Assigns = isAssignmentOperator(K);
      bool Steps = K == OO_PlusPlus || K == OO_MinusMinus;
      if (!Assigns && !Steps)
        return call(E, Op->getDirectCallee(), Fn, Depth);
      if (Op->getNumArgs() > 0 && !isLocalTarget(Op->getArg(0), Fn))
        return effect(Assigns ? EffectKind::Assigns : EffectKind::Steps, E, Op->getArg(0));
      // A write to a callee's local object: and what the operator does besides.
      if (const FunctionDecl *Callee = Op->getDirectCallee())
        return impurityAt(E, Callee, Purity.judge(Callee, /*OnLocalObject=*/true));
    } else if (const auto *Call = dyn_cast<CallExpr>(E)) {
      // A call in a template whose callee depends on the arguments.
      if (FollowBodies && Call->isTypeDependent() && !Call->getDirectCallee())
        return std::nullopt;
      return call(E, Call->getDirectCallee(), Fn, Depth);
    } else if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
      const CXXConstructorDecl *Ctor = Construct->getConstructor();
      if (!FollowBodies && !Ctor->isTrivial()) {
        std::optional<SideEffect> R =
            impurityAt(E, Ctor, Purity.judge(Ctor, /*OnLocalObject=*/true));
        if (R && R->Callee == Ctor && R->Via.empty())
          R->Kind = EffectKind::CallsConstructor;
        return R;
      }
    } else if (isa<CXXNewExpr>(E)) {
      return effect(EffectKind::Allocates, E);
    } else if (isa<CXXDeleteExpr>(E)) {
      return effect(EffectKind::Deletes, E);
    } else if (isa<CXXThrowExpr>(E)) {
      return effect(EffectKind::Throws, E);
    } else if (isa<StmtExpr, VAArgExpr, AtomicExpr>(E)) {
      // Followed bodies are statements: a statement expression is walked.
      if (!FollowBodies)
        return effect(EffectKind::OtherExpression, E);
    } else if (const auto *Cast = dyn_cast<ImplicitCastExpr>(E)) {
      // Lvalue-to-rvalue reads of volatile or atomic objects are the reads
      // whose value can change between two evaluations.
      const Expr *Read = Cast->getSubExpr();
      if (Opts.VolatileReadsAreEffects && Read->isGLValue() &&
          (Cast->getCastKind() == CK_LValueToRValue ||
           Cast->getCastKind() == CK_AtomicToNonAtomic)) {
        if (Read->getType().isVolatileQualified())
          return effect(EffectKind::ReadsVolatile, Read);
        if (Read->getType()->isAtomicType())
          return effect(EffectKind::ReadsAtomic, Read);
      }
    }
    return std::nullopt;
  }

  std::optional<SideEffect> call(const Expr *E, const FunctionDecl *Callee,
                                 const FunctionDecl *Fn, unsigned Depth) {
    if (!Callee) {
      if (Opts.InvisibleCallsAreEffects)
        return effect(EffectKind::CallsThroughPointer, E);
      return std::nullopt;
    }
    if (!Opts.ReportingIsEffect && onlyReportsOrLeaves(Callee, Rules))
      return std::nullopt;
    PurityVerdict V = Purity.judge(Callee);
    // Work the compiler must keep (LoopsAreEffects): a body only the
    // project index calls pure is one the compiler cannot see, so it keeps
    // the call.
    bool CompilerSeesIt = Callee->hasBody() || isKnownPureFunction(Callee, Rules, Ctx);
    if (V.pure() && Opts.LoopsAreEffects && !CompilerSeesIt)
      return effect(EffectKind::CallsOutOfSight, E, nullptr, Callee);
    if (V.pure() && !(Opts.LoopsAreEffects && V.Loops))
      return std::nullopt;
    if (!FollowBodies) {
      if (!Opts.InvisibleCallsAreEffects)
        return std::nullopt;
      std::optional<SideEffect> R = impurityAt(E, Callee, V);
      // A body it cannot judge: said as before, "not known to be pure".
      if (R && R->Kind == EffectKind::CallsInvisible && R->Via.empty())
        R->Kind = EffectKind::CallsNotKnownPure;
      return R;
    }
    // What dropped code may do besides reading (report, leave) is judged by
    // following the body. constexpr says nothing about writes (a C++17
    // lambda that increments a capture is constexpr): it only counts when
    // the body is not visible.
    const FunctionDecl *Def = nullptr;
    if (!Callee->hasBody(Def) || !Def->getBody() || Def->isInvalidDecl()) {
      if (isKnownPureFunction(Callee, Rules, Ctx) || !Opts.InvisibleCallsAreEffects)
        return std::nullopt; // Counts as a check, like bugprone-assert-side-effect.
      return effect(EffectKind::CallsInvisible, E, nullptr, Callee);
    }
    if (!Opts.ReportingIsEffect && isEffectFreeCheckFunction(Def, Depth)) {
      if (const auto *Call = dyn_cast<CallExpr>(E); Call && !Fn)
        Report->CheckFunctionCalls.push_back({Def, Call});
      return std::nullopt;
    }
    if (Depth >= MaxCallDepth || !Visiting.insert(Def).second)
      return std::nullopt; // Deep or recursive: judged like an invisible body.
    std::optional<SideEffect> Inner = visit(Def->getBody(), Def, Depth + 1);
    Visiting.erase(Def);
    if (Inner)
      Inner->Via.insert(Inner->Via.begin(), Callee);
    return Inner;
  }

  /// \p V's impurity said at the call \p E of \p Callee in the code judged:
  /// where the call is, the callee first on the way to what it does.
  std::optional<SideEffect> impurityAt(const Expr *E, const FunctionDecl *Callee,
                                       const PurityVerdict &V) const {
    if (V.pure())
      return std::nullopt;
    SideEffect R = *V.Impurity;
    if (R.Where)
      R.Via.insert(R.Via.begin(), Callee);
    if (!FollowBodies || !R.Where)
      R.Where = E;
    return R;
  }

  /// A check function (it only reports) whose preamble and conditions have
  /// no effect, and whose success path does no more than return.
  bool isEffectFreeCheckFunction(const FunctionDecl *Def, unsigned Depth) {
    // A check whose condition calls itself: met again while its conditions
    // are judged, it is taken for one (the first judgement decides).
    if (!Judging.insert(Def).second)
      return true;
    std::optional<CheckShape> Shape = recogniseShape(Def, Rules, Ctx);
    bool Free = Shape && !Shape->ExtraSuccessWork;
    if (Free) {
      for (const FailureBranch &B : Shape->Branches) {
        for (const Expr *G : B.Guards)
          Free = Free && !visit(G, Def, Depth + 1);
        Free = Free && !visit(B.Cond, Def, Depth + 1);
      }
      for (const PreambleValue &V : Shape->Values)
        Free = Free && !visit(V.Value, Def, Depth + 1);
    }
    Judging.erase(Def);
    return Free;
  }

  const SideEffectOptions &Opts;
  const RuleIndex &Rules;
  const ASTContext &Ctx;
  const bool FollowBodies;
  SideEffectReport *Report = nullptr;
  llvm::SmallPtrSet<const FunctionDecl *, 8> Visiting; // bodies being followed
  llvm::SmallPtrSet<const FunctionDecl *, 8> Judging;  // check shapes being judged
  /// Variables the code judged declares itself (statement expressions).
  llvm::SmallPtrSet<const VarDecl *, 4> OwnLocals;
  PurityAnalysis &Purity; // the TU's, memoised
};

/// 'name' of a function, "a lambda" for a lambda's call operator.
std::string calleeName(const FunctionDecl *FD, SideEffectOptions::Wording W) {
  if (const auto *M = dyn_cast<CXXMethodDecl>(FD);
      W == SideEffectOptions::Wording::Detailed && M && M->getParent()->isLambda())
    return "a lambda";
  return "'" + FD->getQualifiedNameAsString() + "'";
}
} // namespace

SideEffectReport analyseSideEffects(const Stmt *S, const SideEffectOptions &Opts,
                                    const RuleIndex &Rules, const ASTContext &Ctx) {
  return SideEffectFinder(Opts, Rules, Ctx).run(S);
}

std::optional<SideEffect> findSideEffect(const Stmt *S, const SideEffectOptions &Opts,
                                         const RuleIndex &Rules, const ASTContext &Ctx) {
  return analyseSideEffects(S, Opts, Rules, Ctx).Effect;
}

std::optional<SideEffect> findSideEffectInTokens(ArrayRef<std::string> Tokens,
                                                 const SideEffectOptions &Opts,
                                                 const RuleIndex &Rules) {
  static const llvm::StringSet<> Writes = {"=",  "+=", "-=", "*=",  "/=",  "%=", "&=",
                                           "|=", "^=", "<<=", ">>=", "++", "--"};
  auto FromTokens = [&](EffectKind K, const std::string &Spelling) {
    SideEffect E(K);
    E.Spelling = Spelling;
    E.Reasons = Opts.Reasons;
    return E;
  };
  for (size_t I = 0; I < Tokens.size(); ++I) {
    if (Writes.contains(Tokens[I]))
      return FromTokens(EffectKind::WritesWithOperator, Tokens[I]);
    if (Opts.InvisibleCallsAreEffects && I + 1 < Tokens.size() && Tokens[I + 1] == "(" &&
        isAsciiIdentifierStart(Tokens[I][0]) && Tokens[I] != "sizeof" &&
        !Rules.PureFunctions.contains(Tokens[I]))
      return FromTokens(EffectKind::CallsNotKnownPure, Tokens[I]);
  }
  return std::nullopt;
}

namespace {
/// The name \p E reads through, outermost first: 'p' for `p->a[i].b`.
const NamedDecl *baseName(const Expr *E) {
  while (E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
      return Ref->getDecl();
    if (const auto *M = dyn_cast<MemberExpr>(E))
      E = M->getBase();
    else if (const auto *A = dyn_cast<ArraySubscriptExpr>(E))
      E = A->getBase();
    else if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_Deref)
      E = U->getSubExpr();
    else
      return nullptr;
  }
  return nullptr;
}
} // namespace

std::string describeTarget(const Expr *Target, const ASTContext &Ctx) {
  if (!Target)
    return "something it cannot name";
  Target = Target->IgnoreParenImpCasts();
  // As written, when it is short and written in one place (not in a macro's
  // body): 'l->items[l->len++]'.
  std::string T = sourceText(Target, Ctx);
  if (!T.empty() && T.size() <= 40)
    return "'" + T + "'";
  // Otherwise by its name and kind: per_cpu_ptr()'s `__ptr = ...` is in
  // RELOC_HIDE's body, where no text of the use's own says it.
  auto Named = [](const NamedDecl *D) {
    return D && D->getIdentifier() ? "'" + D->getName().str() + "'" : std::string();
  };
  if (const auto *Ref = dyn_cast<DeclRefExpr>(Target)) {
    std::string N = Named(Ref->getDecl());
    if (!N.empty())
      return N;
  }
  const NamedDecl *Base = baseName(Target);
  std::string Of = Base && Base->getIdentifier() ? " of " + Named(Base) : std::string();
  if (const auto *M = dyn_cast<MemberExpr>(Target)) {
    std::string N = Named(M->getMemberDecl());
    if (!N.empty())
      return "member " + N + Of;
  }
  if (isa<ArraySubscriptExpr>(Target))
    return Base ? "an element" + Of : std::string("an array element");
  if (const auto *U = dyn_cast<UnaryOperator>(Target); U && U->getOpcode() == UO_Deref)
    return Base ? "what " + Named(Base) + " points to" : std::string("what a pointer points to");
  return "an expression of type '" + Target->getType().getAsString() + "'";
}

std::string describe(const SideEffect &E, const ASTContext &Ctx) {
  using Wording = SideEffectOptions::Wording;
  // In a callee the reader cannot see from the code judged: always what is
  // written.
  bool Detailed = E.Reasons == Wording::Detailed || !E.Via.empty();
  auto Callee = [&] {
    return E.Callee ? calleeName(E.Callee, Detailed ? Wording::Detailed : E.Reasons)
                    : "'" + E.Spelling + "'";
  };
  // Detailed: what is written after the verb, always.
  auto Written = [&](const char *Verb) {
    std::string S = std::string("it ") + Verb;
    if (!Detailed)
      return S;
    return S + " " + describeTarget(E.Target, Ctx);
  };
  const char *const Generic = "it has an expression with side effects";
  std::string Why;
  switch (E.Kind) {
  case EffectKind::Assigns:
    Why = Written(Detailed ? "assigns to" : "assigns");
    break;
  case EffectKind::Increments:
    Why = Written("increments");
    break;
  case EffectKind::Decrements:
    Why = Written("decrements");
    break;
  case EffectKind::Steps:
    Why = Written("steps");
    break;
  case EffectKind::WritesWithOperator:
    Why = "it writes with '" + E.Spelling + "'";
    break;
  case EffectKind::CallsThroughPointer:
    Why = "it calls through a pointer";
    break;
  case EffectKind::CallsNotKnownPure:
    Why = "it calls " + Callee() + ", which is not known to be pure";
    break;
  case EffectKind::CallsInvisible:
    Why = "it calls " + Callee() + ", whose body is not visible and which is not known to be pure";
    break;
  case EffectKind::CallsOutOfSight:
    Why = "it calls " + Callee() +
          ", defined in another file: pure by the project index, but a call the compiler keeps";
    break;
  case EffectKind::CallsConstructor:
    Why = "it calls constructor " + Callee() + ", which is not known to be pure";
    break;
  case EffectKind::CallsVirtual:
    Why = "it calls virtual " + Callee() + ", which an override may replace";
    break;
  case EffectKind::CallsTooDeep:
    Why = "it calls " + Callee() + ", more calls deep than are followed (" +
          std::to_string(PurityAnalysis::MaxDepth) + ")";
    break;
  case EffectKind::CallsImpureElsewhere:
    Why = "it calls " + Callee() + ", whose body in another file " + E.Spelling;
    break;
  case EffectKind::Asm:
    Why = "it runs inline assembly";
    break;
  case EffectKind::StaticLocal:
    Why = "it keeps state in static local '" + E.Spelling + "'";
    break;
  case EffectKind::Allocates:
    Why = Detailed ? "it allocates with new" : Generic;
    break;
  case EffectKind::Deletes:
    Why = Detailed ? "it deletes" : Generic;
    break;
  case EffectKind::Throws:
    Why = Detailed ? "it throws" : Generic;
    break;
  case EffectKind::OtherExpression:
    Why = Generic;
    break;
  case EffectKind::ReadsVolatile:
    Why = "it reads volatile storage";
    break;
  case EffectKind::ReadsAtomic:
    Why = "it reads atomic storage";
    break;
  case EffectKind::Loops:
    Why = "it runs a loop";
    break;
  }
  // "it calls 'a', which calls 'b', which increments 'n'".
  for (auto It = E.Via.rbegin(); It != E.Via.rend(); ++It) {
    llvm::StringRef Rest = Why;
    Rest.consume_front("it ");
    Why = "it calls " + calleeName(*It, Detailed ? Wording::Detailed : E.Reasons) + ", which " +
          Rest.str();
  }
  return Why;
}

//===----------------------------------------------------------------------===//
// Speculation.
//===----------------------------------------------------------------------===//

llvm::FoldingSetNodeID exprIdentity(const Expr *E, const ASTContext &Ctx) {
  llvm::FoldingSetNodeID ID;
  E->IgnoreParenImpCasts()->Profile(ID, Ctx, /*Canonical=*/true);
  return ID;
}

static const Expr *dereferencedPointer(const Expr *E) {
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return ME->isArrow() ? ME->getBase() : nullptr;
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return UO->getOpcode() == UO_Deref ? UO->getSubExpr() : nullptr;
  return nullptr;
}

void collectUnconditionalDerefs(const Expr *E, const ASTContext &Ctx,
                                ExprIdentitySet &Out) {
  if (!E)
    return;
  E = E->IgnoreParens();
  if (const Expr *Ptr = dereferencedPointer(E))
    Out.insert(exprIdentity(Ptr, Ctx));
  if (const auto *BO = dyn_cast<BinaryOperator>(E); BO && BO->isLogicalOp()) {
    collectUnconditionalDerefs(BO->getLHS(), Ctx, Out);
    return;
  }
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E)) {
    collectUnconditionalDerefs(CO->getCond(), Ctx, Out);
    return;
  }
  if (isa<UnaryExprOrTypeTraitExpr>(E))
    return;
  for (const Stmt *Child : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(Child))
      collectUnconditionalDerefs(CE, Ctx, Out);
}

std::optional<SpeculationHazard>
findSpeculationHazard(const Expr *E, const ASTContext &Ctx,
                      const ExprIdentitySet &SafeDerefs) {
  if (!E)
    return std::nullopt;
  E = E->IgnoreParens();
  if (isa<UnaryExprOrTypeTraitExpr>(E) || E->isIntegerConstantExpr(Ctx))
    return std::nullopt;
  if (const Expr *Ptr = dereferencedPointer(E)) {
    if (!SafeDerefs.count(exprIdentity(Ptr, Ctx)))
      return SpeculationHazard{HazardKind::Dereference, E};
  } else if (isa<ArraySubscriptExpr>(E)) {
    return SpeculationHazard{HazardKind::Index, E};
  } else if (isa<CallExpr>(E)) {
    const auto *Call = cast<CallExpr>(E);
    unsigned ID = Call->getBuiltinCallee();
    if (ID != Builtin::BI__builtin_expect && ID != Builtin::BI__builtin_constant_p)
      return SpeculationHazard{HazardKind::Call, E};
  } else if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    BinaryOperatorKind Op = BO->getOpcode();
    bool ConstantRHS = BO->getRHS()->isIntegerConstantExpr(Ctx);
    if ((Op == BO_Div || Op == BO_Rem) && !ConstantRHS)
      return SpeculationHazard{HazardKind::Division, E};
    if ((Op == BO_Shl || Op == BO_Shr) && !ConstantRHS)
      return SpeculationHazard{HazardKind::Shift, E};
    if ((Op == BO_Add || Op == BO_Sub || Op == BO_Mul || Op == BO_Shl) &&
        BO->getType()->isSignedIntegerType())
      return SpeculationHazard{HazardKind::SignedOverflow, E};
  } else if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() == UO_Minus && UO->getType()->isSignedIntegerType())
      return SpeculationHazard{HazardKind::SignedNegation, E};
  }
  for (const Stmt *Child : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(Child))
      if (std::optional<SpeculationHazard> R = findSpeculationHazard(CE, Ctx, SafeDerefs))
        return R;
  return std::nullopt;
}

std::string describe(const SpeculationHazard &H) {
  switch (H.Kind) {
  case HazardKind::Dereference:
    return "it dereferences a pointer that an earlier condition may guard";
  case HazardKind::Index:
    return "it indexes memory that an earlier condition may guard";
  case HazardKind::Call:
    return "it makes a call that an earlier condition may guard";
  case HazardKind::Division:
    return "it divides by a value that an earlier condition may guard";
  case HazardKind::Shift:
    return "it shifts by an amount that an earlier condition may guard";
  case HazardKind::SignedOverflow:
    return "its signed arithmetic may overflow where an earlier condition would have "
           "stopped it";
  case HazardKind::SignedNegation:
    return "its signed negation may overflow where an earlier condition would have "
           "stopped it";
  }
  llvm_unreachable("unknown speculation hazard");
}

} // namespace hotpath
