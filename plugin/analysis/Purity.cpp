//===--- Purity.cpp - which calls only read -------------------------------===//

#include "analysis/Purity.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/Builtins.h"
#include "clang/Index/USRGeneration.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include <map>
#include <memory>
#include <mutex>

using namespace clang;

namespace hotpath {

//===----------------------------------------------------------------------===//
// The standard library's observers (docs/purity.md).
//===----------------------------------------------------------------------===//

bool isStandardLibrary(const Decl *D) {
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent()) {
    const auto *NS = dyn_cast<NamespaceDecl>(DC);
    if (!NS || !NS->getIdentifier())
      continue;
    const DeclContext *Up = NS->getParent();
    while (Up && isa<LinkageSpecDecl>(Up))
      Up = Up->getParent();
    if (Up && Up->isTranslationUnit() &&
        (NS->getName() == "std" || NS->getName() == "__gnu_cxx"))
      return true;
  }
  return false;
}

namespace {

const llvm::StringSet<> &containers() {
  static const llvm::StringSet<> S = {
      "vector", "array", "basic_string", "basic_string_view", "deque", "list",
      "forward_list", "map", "multimap", "set", "multiset", "unordered_map",
      "unordered_multimap", "unordered_set", "unordered_multiset", "span", "bitset",
      "optional"};
  return S;
}

/// Containers whose operator[] only looks (map's inserts).
const llvm::StringSet<> &indexedContainers() {
  static const llvm::StringSet<> S = {"vector", "array", "basic_string", "basic_string_view",
                                      "deque", "span", "bitset"};
  return S;
}

const llvm::StringSet<> &containerObservers() {
  static const llvm::StringSet<> S = {
      "size", "empty", "max_size", "capacity", "length", "data", "c_str", "front", "back",
      "begin", "end", "cbegin", "cend", "rbegin", "rend", "crbegin", "crend", "at", "find",
      "rfind", "count", "contains", "lower_bound", "upper_bound", "equal_range", "compare",
      "starts_with", "ends_with", "bucket_count", "test", "all", "any", "none",
      "has_value", "value", "value_or"};
  return S;
}

/// libstdc++'s and libc++'s iterator classes.
const llvm::StringSet<> &iterators() {
  static const llvm::StringSet<> S = {
      "__normal_iterator", "_List_iterator", "_List_const_iterator", "_Rb_tree_iterator",
      "_Rb_tree_const_iterator", "_Deque_iterator", "_Node_iterator", "_Node_const_iterator",
      "_Fwd_list_iterator", "_Fwd_list_const_iterator", "_Bit_iterator", "_Bit_const_iterator",
      "reverse_iterator", "move_iterator", "__wrap_iter", "__list_iterator",
      "__list_const_iterator", "__tree_iterator", "__tree_const_iterator", "__map_iterator",
      "__map_const_iterator", "__hash_iterator", "__hash_const_iterator",
      "__hash_map_iterator", "__hash_map_const_iterator", "__deque_iterator", "__bit_iterator"};
  return S;
}

bool isIteratorType(QualType T) {
  const auto *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  return RD && RD->getIdentifier() && iterators().contains(RD->getName()) &&
         isStandardLibrary(RD);
}

bool isStep(OverloadedOperatorKind K) {
  return K == OO_PlusPlus || K == OO_MinusMinus || K == OO_PlusEqual || K == OO_MinusEqual;
}

bool isIteratorOperator(OverloadedOperatorKind K) {
  switch (K) {
  case OO_Star: case OO_Arrow: case OO_EqualEqual: case OO_ExclaimEqual: case OO_Less:
  case OO_LessEqual: case OO_Greater: case OO_GreaterEqual: case OO_Spaceship: case OO_Plus:
  case OO_Minus: case OO_Subscript:
    return true;
  default:
    return isStep(K);
  }
}

/// Members of std's containers and iterators, as the list says.
bool isStandardMember(const CXXMethodDecl *M, bool OnLocalObject) {
  const CXXRecordDecl *RD = M->getParent();
  if (!RD->getIdentifier())
    return false;
  StringRef Class = RD->getName();
  OverloadedOperatorKind Op = M->getOverloadedOperator();
  if (iterators().contains(Class)) {
    // A step writes the iterator: only a local copy's.
    if (isStep(Op))
      return OnLocalObject;
    return isIteratorOperator(Op) || (M->getIdentifier() && M->getName() == "base");
  }
  if (!containers().contains(Class))
    return false;
  if (Op == OO_Subscript)
    return indexedContainers().contains(Class);
  if (Op == OO_Star || Op == OO_Arrow)
    return Class == "optional";
  return M->getIdentifier() && containerObservers().contains(M->getName());
}
} // namespace

bool isStandardObserver(const FunctionDecl *FD) {
  if (!isStandardLibrary(FD))
    return false;
  if (const auto *M = dyn_cast<CXXMethodDecl>(FD))
    return isStandardMember(M, /*OnLocalObject=*/false);
  OverloadedOperatorKind Op = FD->getOverloadedOperator();
  if (Op != OO_None)
    return !isStep(Op) && isIteratorOperator(Op) && FD->getNumParams() > 0 &&
           isIteratorType(FD->getParamDecl(0)->getType());
  static const llvm::StringSet<> Free = {"min", "max", "clamp", "distance", "next", "prev",
                                         "addressof"};
  return FD->getIdentifier() && Free.contains(FD->getName());
}

//===----------------------------------------------------------------------===//
// Declared purity.
//===----------------------------------------------------------------------===//

namespace {
bool isComputingBuiltin(unsigned ID, const ASTContext &Ctx) {
  if (Ctx.BuiltinInfo.isConst(ID) || Ctx.BuiltinInfo.isPure(ID))
    return true;
  switch (ID) {
  case Builtin::BI__builtin_expect:
  case Builtin::BI__builtin_expect_with_probability:
  case Builtin::BI__builtin_constant_p:
  case Builtin::BI__builtin_assume:
  case Builtin::BI__builtin_unreachable:
  case Builtin::BI__builtin_object_size:
  case Builtin::BI__builtin_dynamic_object_size:
  case Builtin::BI__builtin_bswap16:
  case Builtin::BI__builtin_bswap32:
  case Builtin::BI__builtin_bswap64:
    return true;
  default:
    return false;
  }
}
} // namespace

PurityAnalysis::PurityAnalysis(const RuleIndex &Rules, const ASTContext &Ctx)
    : Rules(Rules), Ctx(Ctx) {}

bool PurityAnalysis::isDeclaredPure(const FunctionDecl *FD) const {
  if (FD->hasAttr<ConstAttr>() || FD->hasAttr<PureAttr>())
    return true;
  if (unsigned ID = FD->getBuiltinID(); ID && isComputingBuiltin(ID, Ctx))
    return true;
  if (isStandardObserver(FD))
    return true;
  const IdentifierInfo *II = FD->getIdentifier();
  return II && Rules.PureFunctions.contains(II->getName());
}

PurityVerdict PurityAnalysis::judgeWithoutBody(const FunctionDecl *FD) const {
  PurityVerdict V;
  if (Rules.ProjectPurity) {
    llvm::SmallString<128> USR;
    if (!index::generateUSRForDecl(FD->getCanonicalDecl(), USR))
      if (std::optional<std::string> Why = Rules.ProjectPurity(USR)) {
        if (Why->empty())
          return V;
        V.Impurity = SideEffect(EffectKind::CallsImpureElsewhere);
        V.Impurity->Callee = FD;
        V.Impurity->Spelling = *Why;
        return V;
      }
  }
  V.Impurity = SideEffect(EffectKind::CallsInvisible);
  V.Impurity->Callee = FD;
  return V;
}

//===----------------------------------------------------------------------===//
// Bodies.
//===----------------------------------------------------------------------===//

/// One walk of a body, stopping at the first thing that is not a read.
class PurityAnalysis::BodyWalker {
public:
  BodyWalker(PurityAnalysis &P, const FunctionDecl *Fn, bool OnLocalObject, unsigned Depth)
      : P(P), Fn(Fn), OnLocalObject(OnLocalObject), Depth(Depth) {}

  PurityVerdict run() {
    PurityVerdict V;
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Fn))
      for (const CXXCtorInitializer *Init : Ctor->inits())
        if (!V.Impurity)
          V.Impurity = visit(Init->getInit());
    if (!V.Impurity)
      V.Impurity = visit(Fn->getBody());
    V.Loops = Loops;
    return V;
  }

private:
  static SideEffect effect(EffectKind K, const Stmt *Where, const Expr *Target = nullptr,
                           const FunctionDecl *Callee = nullptr) {
    SideEffect E(K, Where);
    E.Target = Target;
    E.Callee = Callee;
    E.Reasons = SideEffectOptions::Wording::Detailed;
    return E;
  }

  /// Storage of this call: the function's own locals (parameters passed by
  /// value included) and, for a member called on a local object, `*this`;
  /// through members and the elements of arrays, never through a pointer.
  bool isOwn(const Expr *Target) const {
    const Expr *T = Target->IgnoreParenImpCasts();
    while (true) {
      if (const auto *ME = dyn_cast<MemberExpr>(T)) {
        if (ME->isArrow())
          return OnLocalObject && isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts());
        T = ME->getBase()->IgnoreParenImpCasts();
      } else if (const auto *AS = dyn_cast<ArraySubscriptExpr>(T)) {
        T = AS->getBase()->IgnoreParenImpCasts();
        if (!T->getType()->isArrayType())
          return false;
      } else if (const auto *UO = dyn_cast<UnaryOperator>(T)) {
        return UO->getOpcode() == UO_Deref && OnLocalObject &&
               isa<CXXThisExpr>(UO->getSubExpr()->IgnoreParenImpCasts());
      } else if (const auto *Ref = dyn_cast<DeclRefExpr>(T)) {
        const auto *VD = dyn_cast<VarDecl>(Ref->getDecl());
        return VD && VD->hasLocalStorage() && !VD->getType()->isReferenceType() &&
               VD->getParentFunctionOrMethod() == Fn;
      } else {
        return false;
      }
    }
  }

  std::optional<SideEffect> visit(const Stmt *S) {
    if (!S)
      return std::nullopt;
    if (isa<GCCAsmStmt, MSAsmStmt>(S))
      return effect(EffectKind::Asm, S);
    if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S))
      Loops = Loops || isLoop(S);
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      if (std::optional<SideEffect> R = declarations(DS))
        return R;
    if (const auto *E = dyn_cast<Expr>(S)) {
      if (isa<UnaryExprOrTypeTraitExpr, CXXNoexceptExpr>(E))
        return std::nullopt;
      if (const auto *Typeid = dyn_cast<CXXTypeidExpr>(E);
          Typeid && !Typeid->isPotentiallyEvaluated())
        return std::nullopt;
      if (const auto *G = dyn_cast<GenericSelectionExpr>(E))
        return G->isResultDependent() ? std::nullopt : visit(G->getResultExpr());
      if (const auto *L = dyn_cast<LambdaExpr>(E)) {
        // Its body runs when it is called, and is judged then.
        for (const Expr *Init : L->capture_inits())
          if (std::optional<SideEffect> R = visit(Init))
            return R;
        return std::nullopt;
      }
      if (std::optional<SideEffect> R = node(E))
        return R;
    }
    for (const Stmt *Child : S->children())
      if (std::optional<SideEffect> R = visit(Child))
        return R;
    return std::nullopt;
  }

  bool isLoop(const Stmt *S) const {
    if (const auto *Do = dyn_cast<DoStmt>(S)) {
      std::optional<llvm::APSInt> Cond = Do->getCond()->getIntegerConstantExpr(P.Ctx);
      return !Cond || !Cond->isZero();
    }
    return true;
  }

  /// Static locals keep state between calls; a local object's destructor
  /// runs at the end of the body.
  std::optional<SideEffect> declarations(const DeclStmt *DS) {
    for (const Decl *D : DS->decls()) {
      const auto *VD = dyn_cast<VarDecl>(D);
      if (!VD)
        continue;
      if (VD->isStaticLocal() &&
          !(VD->getType().isConstQualified() && (!VD->hasInit() || VD->hasConstantInitialization()))) {
        SideEffect E = effect(EffectKind::StaticLocal, DS);
        E.Spelling = VD->getName().str();
        return E;
      }
      if (const CXXRecordDecl *RD = VD->getType()->getAsCXXRecordDecl();
          RD && VD->hasLocalStorage() && RD->hasDefinition() && !RD->hasTrivialDestructor())
        if (const CXXDestructorDecl *Dtor = RD->getDestructor())
          if (std::optional<SideEffect> R = callee(DS, Dtor, /*OnLocal=*/true))
            return R;
    }
    return std::nullopt;
  }

  /// The effect of \p E itself, not of its operands.
  std::optional<SideEffect> node(const Expr *E) {
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      if (BO->isAssignmentOp() && !isOwn(BO->getLHS()))
        return effect(EffectKind::Assigns, E, BO->getLHS());
    } else if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      if (UO->isIncrementDecrementOp() && !isOwn(UO->getSubExpr()))
        return effect(UO->isIncrementOp() ? EffectKind::Increments : EffectKind::Decrements, E,
                      UO->getSubExpr());
    } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E)) {
      OverloadedOperatorKind K = Op->getOperator();
      bool Writes = Op->isAssignmentOp() || K == OO_PlusPlus || K == OO_MinusMinus;
      if (!Writes)
        return call(Op);
      if (Op->getNumArgs() > 0 && !isOwn(Op->getArg(0)))
        return effect(Op->isAssignmentOp() ? EffectKind::Assigns : EffectKind::Steps, E,
                      Op->getArg(0));
      return callee(E, Op->getDirectCallee(), /*OnLocal=*/true);
    } else if (const auto *Call = dyn_cast<CallExpr>(E)) {
      return call(Call);
    } else if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
      if (!Construct->getConstructor()->isTrivial())
        return callee(E, Construct->getConstructor(), /*OnLocal=*/true);
    } else if (const auto *Bind = dyn_cast<CXXBindTemporaryExpr>(E)) {
      if (const CXXDestructorDecl *Dtor = Bind->getTemporary()->getDestructor())
        return callee(E, Dtor, /*OnLocal=*/true);
    } else if (isa<CXXNewExpr>(E)) {
      return effect(EffectKind::Allocates, E);
    } else if (isa<CXXDeleteExpr>(E)) {
      return effect(EffectKind::Deletes, E);
    } else if (isa<CXXThrowExpr>(E)) {
      return effect(EffectKind::Throws, E);
    } else if (isa<VAArgExpr, AtomicExpr>(E)) {
      return effect(EffectKind::OtherExpression, E);
    } else if (const auto *Cast = dyn_cast<ImplicitCastExpr>(E)) {
      const Expr *Read = Cast->getSubExpr();
      if (Read->isGLValue() && (Cast->getCastKind() == CK_LValueToRValue ||
                                Cast->getCastKind() == CK_AtomicToNonAtomic)) {
        if (Read->getType().isVolatileQualified())
          return effect(EffectKind::ReadsVolatile, Read);
        if (Read->getType()->isAtomicType())
          return effect(EffectKind::ReadsAtomic, Read);
      }
    }
    return std::nullopt;
  }

  std::optional<SideEffect> call(const CallExpr *Call) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee)
      return effect(EffectKind::CallsThroughPointer, Call);
    bool OnLocal = false;
    if (const auto *M = dyn_cast<CXXMethodDecl>(Callee); M && M->isInstance()) {
      const Expr *Object = nullptr;
      if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call)) {
        Object = MC->getImplicitObjectArgument();
        const auto *ME = dyn_cast<MemberExpr>(MC->getCallee()->IgnoreParens());
        if (M->isVirtual() && !M->hasAttr<FinalAttr>() && !M->getParent()->hasAttr<FinalAttr>() &&
            !(ME && ME->hasQualifier()))
          return effect(EffectKind::CallsVirtual, Call, nullptr, Callee);
      } else if (Call->getNumArgs() > 0) {
        Object = Call->getArg(0);
      }
      OnLocal = Object && !Object->getType()->isPointerType() && isOwn(Object);
      if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call);
          MC && Object && Object->getType()->isPointerType())
        OnLocal = OnLocalObject && isa<CXXThisExpr>(Object->IgnoreParenImpCasts());
    }
    return callee(Call, Callee, OnLocal);
  }

  /// The impurity of calling \p Callee at \p At, said from this body.
  std::optional<SideEffect> callee(const Stmt *At, const FunctionDecl *Callee, bool OnLocal) {
    if (!Callee)
      return effect(EffectKind::CallsThroughPointer, At);
    PurityVerdict V = P.judgeAt(Callee, OnLocal, Depth + 1);
    Loops = Loops || V.Loops;
    if (!V.Impurity)
      return std::nullopt;
    SideEffect E = std::move(*V.Impurity);
    if (!E.Where) // the callee itself: no body to judge
      E.Where = At;
    else
      E.Via.insert(E.Via.begin(), Callee);
    return E;
  }

  PurityAnalysis &P;
  const FunctionDecl *Fn;
  const bool OnLocalObject;
  const unsigned Depth;
  bool Loops = false;
};

namespace {
using TUKey = std::pair<const ASTContext *, const RuleIndex *>;
std::mutex LiveMutex;
std::map<TUKey, std::unique_ptr<PurityAnalysis>> &live() {
  static std::map<TUKey, std::unique_ptr<PurityAnalysis>> Live;
  return Live;
}
void forgetTU(void *Ctx) {
  std::lock_guard<std::mutex> Lock(LiveMutex);
  auto &Live = live();
  auto It = Live.lower_bound({static_cast<const ASTContext *>(Ctx), nullptr});
  while (It != Live.end() && It->first.first == Ctx)
    It = Live.erase(It);
}
} // namespace

PurityAnalysis &PurityAnalysis::forTU(const RuleIndex &Rules, const ASTContext &Ctx) {
  std::lock_guard<std::mutex> Lock(LiveMutex);
  auto &Live = live();
  auto Here = Live.lower_bound({&Ctx, nullptr});
  bool FirstOfTU = Here == Live.end() || Here->first.first != &Ctx;
  std::unique_ptr<PurityAnalysis> &Slot = Live[{&Ctx, &Rules}];
  if (!Slot)
    Slot = std::make_unique<PurityAnalysis>(Rules, Ctx);
  if (FirstOfTU)
    Ctx.AddDeallocation(forgetTU, const_cast<ASTContext *>(&Ctx));
  return *Slot;
}

PurityVerdict PurityAnalysis::judge(const FunctionDecl *FD, bool OnLocalObject) {
  return judgeAt(FD, OnLocalObject, 0);
}

PurityVerdict PurityAnalysis::judgeAt(const FunctionDecl *FD, bool OnLocalObject,
                                      unsigned Depth) {
  std::pair<const FunctionDecl *, unsigned> Key{FD->getCanonicalDecl(), OnLocalObject ? 1u : 0u};
  if (auto It = Memo.find(Key); It != Memo.end())
    return It->second;
  auto Final = [&](PurityVerdict V) { return Memo.try_emplace(Key, std::move(V)).first->second; };
  if (isDeclaredPure(FD))
    return Final({});
  if (const auto *M = dyn_cast<CXXMethodDecl>(FD);
      M && isStandardLibrary(FD) && isStandardMember(M, OnLocalObject))
    return Final({});
  const FunctionDecl *Def = nullptr;
  if (!FD->hasBody(Def) || !Def->getBody() || Def->isInvalidDecl())
    return Final(judgeWithoutBody(FD));
  // The standard library goes by its contract (the list), not its bodies.
  if (isStandardLibrary(FD) || Def->isDependentContext()) {
    PurityVerdict V;
    V.Impurity = SideEffect(EffectKind::CallsNotKnownPure);
    V.Impurity->Callee = FD;
    return Final(std::move(V));
  }
  if (auto It = InProgress.find(Key); It != InProgress.end()) {
    LowLink = std::min(LowLink, It->second);
    return {}; // recursion: pure unless something else says otherwise
  }
  if (Depth > MaxDepth) {
    PurityVerdict V;
    V.Impurity = SideEffect(EffectKind::CallsTooDeep);
    V.Impurity->Callee = FD;
    return V; // depends on where it was met from: not memoised
  }
  InProgress[Key] = Depth;
  unsigned Outer = LowLink;
  LowLink = ~0u;
  PurityVerdict V = BodyWalker(*this, Def, OnLocalObject, Depth).run();
  InProgress.erase(Key);
  unsigned Assumed = LowLink;
  LowLink = std::min(Outer, Assumed < Depth ? Assumed : ~0u);
  // Impure for what the body does is final; pure only when it rested on no
  // caller still being judged; too deep depends on the way in.
  bool IsFinal = V.Impurity ? V.Impurity->Kind != EffectKind::CallsTooDeep : Assumed >= Depth;
  return IsFinal ? Final(std::move(V)) : V;
}

} // namespace hotpath
