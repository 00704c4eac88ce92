//===--- SideEffects.cpp - what evaluating an expression does -------------===//

#include "analysis/SideEffects.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/Builtins.h"

using namespace clang;

namespace hotpath {

bool isKnownPureFunction(const FunctionDecl *FD, const RuleIndex &Rules,
                         const ASTContext &Ctx) {
  if (!FD)
    return false;
  if (FD->hasAttr<ConstAttr>() || FD->hasAttr<PureAttr>() || FD->isConstexpr())
    return true;
  if (unsigned ID = FD->getBuiltinID()) {
    if (Ctx.BuiltinInfo.isConst(ID) || Ctx.BuiltinInfo.isPure(ID))
      return true;
    if (ID == Builtin::BI__builtin_expect || ID == Builtin::BI__builtin_constant_p)
      return true;
  }
  if (const IdentifierInfo *II = FD->getIdentifier())
    return Rules.PureFunctions.contains(II->getName());
  return false;
}

namespace {
std::string quoted(const NamedDecl *D) {
  return "'" + D->getQualifiedNameAsString() + "'";
}

/// Lvalue-to-rvalue reads of volatile or atomic objects are the reads whose
/// value can change between the fast path and the slow path.
std::optional<Impurity> volatileOrAtomicRead(const Expr *E) {
  QualType T = E->getType();
  if (!E->isGLValue())
    return std::nullopt;
  if (T.isVolatileQualified())
    return Impurity{E, "it reads volatile storage"};
  if (T->isAtomicType())
    return Impurity{E, "it reads atomic storage"};
  return std::nullopt;
}

class ImpurityFinder {
public:
  ImpurityFinder(const RuleIndex &Rules, const ASTContext &Ctx)
      : Rules(Rules), Ctx(Ctx) {}

  std::optional<Impurity> visit(const Stmt *S) {
    if (!S)
      return std::nullopt;
    if (const auto *E = dyn_cast<Expr>(S)) {
      if (std::optional<Impurity> R = visitExpr(E))
        return R;
      // Operands of sizeof, alignof, _Generic's unselected arms: unevaluated.
      if (isa<UnaryExprOrTypeTraitExpr>(E))
        return std::nullopt;
      if (const auto *G = dyn_cast<GenericSelectionExpr>(E))
        return G->isResultDependent() ? std::nullopt : visit(G->getResultExpr());
    }
    for (const Stmt *Child : S->children())
      if (std::optional<Impurity> R = visit(Child))
        return R;
    return std::nullopt;
  }

private:
  std::optional<Impurity> visitExpr(const Expr *E) {
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      if (BO->isAssignmentOp())
        return Impurity{E, "it assigns"};
    } else if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      if (UO->isIncrementDecrementOp())
        return Impurity{E, UO->isIncrementOp() ? "it increments" : "it decrements"};
    } else if (const auto *Call = dyn_cast<CallExpr>(E)) {
      const FunctionDecl *Callee = Call->getDirectCallee();
      if (!Callee)
        return Impurity{E, "it calls through a pointer"};
      if (!isKnownPureFunction(Callee, Rules, Ctx))
        return Impurity{E, "it calls " + quoted(Callee) + ", which is not known to be pure"};
    } else if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
      const CXXConstructorDecl *Ctor = Construct->getConstructor();
      if (!Ctor->isTrivial() && !Ctor->isConstexpr())
        return Impurity{E, "it calls constructor " + quoted(Ctor) +
                               ", which is not known to be pure"};
    } else if (isa<StmtExpr, CXXNewExpr, CXXDeleteExpr, CXXThrowExpr, VAArgExpr,
                   AtomicExpr>(E)) {
      return Impurity{E, "it has an expression with side effects"};
    } else if (const auto *Cast = dyn_cast<ImplicitCastExpr>(E)) {
      if (Cast->getCastKind() == CK_LValueToRValue ||
          Cast->getCastKind() == CK_AtomicToNonAtomic)
        return volatileOrAtomicRead(Cast->getSubExpr());
    }
    return std::nullopt;
  }

  const RuleIndex &Rules;
  const ASTContext &Ctx;
};
} // namespace

std::optional<Impurity> findImpurity(const Expr *E, const RuleIndex &Rules,
                                     const ASTContext &Ctx) {
  return ImpurityFinder(Rules, Ctx).visit(E);
}

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

std::optional<Impurity>
findSpeculationHazard(const Expr *E, const ASTContext &Ctx,
                      const ExprIdentitySet &SafeDerefs) {
  if (!E)
    return std::nullopt;
  E = E->IgnoreParens();
  if (isa<UnaryExprOrTypeTraitExpr>(E) || E->isIntegerConstantExpr(Ctx))
    return std::nullopt;
  if (const Expr *Ptr = dereferencedPointer(E)) {
    if (!SafeDerefs.count(exprIdentity(Ptr, Ctx)))
      return Impurity{E, "it dereferences a pointer that an earlier condition may guard"};
  } else if (isa<ArraySubscriptExpr>(E)) {
    return Impurity{E, "it indexes memory that an earlier condition may guard"};
  } else if (isa<CallExpr>(E)) {
    const auto *Call = cast<CallExpr>(E);
    unsigned ID = Call->getBuiltinCallee();
    if (ID != Builtin::BI__builtin_expect && ID != Builtin::BI__builtin_constant_p)
      return Impurity{E, "it makes a call that an earlier condition may guard"};
  } else if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    BinaryOperatorKind Op = BO->getOpcode();
    bool ConstantRHS = BO->getRHS()->isIntegerConstantExpr(Ctx);
    if ((Op == BO_Div || Op == BO_Rem) && !ConstantRHS)
      return Impurity{E, "it divides by a value that an earlier condition may guard"};
    if ((Op == BO_Shl || Op == BO_Shr) && !ConstantRHS)
      return Impurity{E, "it shifts by an amount that an earlier condition may guard"};
    if ((Op == BO_Add || Op == BO_Sub || Op == BO_Mul || Op == BO_Shl) &&
        BO->getType()->isSignedIntegerType())
      return Impurity{E, "its signed arithmetic may overflow where an earlier "
                         "condition would have stopped it"};
  } else if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() == UO_Minus && UO->getType()->isSignedIntegerType())
      return Impurity{E, "its signed negation may overflow where an earlier "
                         "condition would have stopped it"};
  }
  for (const Stmt *Child : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(Child))
      if (std::optional<Impurity> R = findSpeculationHazard(CE, Ctx, SafeDerefs))
        return R;
  return std::nullopt;
}

} // namespace hotpath
