//===--- Implication.cpp - one condition implied by another ---------------===//

#include "analysis/Implication.h"
#include "analysis/SideEffects.h"
#include "llvm/ADT/APSInt.h"

using namespace clang;

namespace hotpath {

namespace {

unsigned widthOf(QualType T, const ASTContext &Ctx) {
  return static_cast<unsigned>(Ctx.getTypeSize(T));
}

bool isUnsigned(QualType T) {
  return T->isUnsignedIntegerType() && !T->isBooleanType();
}

/// Strips parentheses, reads and value-preserving unsigned widenings.
const Expr *stripWidening(const Expr *E, const ASTContext &Ctx) {
  while (true) {
    E = E->IgnoreParens();
    const auto *Cast = dyn_cast<CastExpr>(E);
    if (!Cast)
      return E;
    CastKind K = Cast->getCastKind();
    const Expr *Sub = Cast->getSubExpr();
    if (K == CK_LValueToRValue || K == CK_NoOp) {
      E = Sub;
      continue;
    }
    if (K == CK_IntegralCast && isUnsigned(Sub->getType()) && isUnsigned(Cast->getType()) &&
        widthOf(Cast->getType(), Ctx) >= widthOf(Sub->getType(), Ctx)) {
      E = Sub;
      continue;
    }
    return E;
  }
}

struct Comparison {
  const Expr *Value;  // X in "X > L" (as converted for the comparison)
  const Expr *Limit;  // L
  bool Strict;        // > rather than >=
};

std::optional<Comparison> asGreaterThan(const Expr *E) {
  const auto *BO = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
  if (!BO || !isUnsigned(BO->getLHS()->getType()) ||
      BO->getLHS()->getType().getCanonicalType() !=
          BO->getRHS()->getType().getCanonicalType())
    return std::nullopt;
  switch (BO->getOpcode()) {
  case BO_GT: return Comparison{BO->getLHS(), BO->getRHS(), true};
  case BO_GE: return Comparison{BO->getLHS(), BO->getRHS(), false};
  case BO_LT: return Comparison{BO->getRHS(), BO->getLHS(), true};
  case BO_LE: return Comparison{BO->getRHS(), BO->getLHS(), false};
  default: return std::nullopt;
  }
}

/// A parameter's fact that makes \p Z a non-negative value narrower than
/// \p SumWidth bits; the note's words for it, or none.
std::optional<std::string> narrowByFact(const Expr *Z, unsigned SumWidth,
                                        const ImplicationContext &IC) {
  const auto *Ref = dyn_cast<DeclRefExpr>(Z->IgnoreParenImpCasts());
  const auto *Param = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
  if (!Param || Param->getDeclContext() != IC.FD || !Param->getType()->isIntegerType())
    return std::nullopt;
  std::optional<ParameterRange> F = IC.Fact(Param->getFunctionScopeIndex());
  if (!F || F->Min < 0 || (SumWidth < 64 && F->Max >= (int64_t(1) << (SumWidth - 1))))
    return std::nullopt;
  std::string Range = F->Min == F->Max ? "the constant " + std::to_string(F->Min)
                                       : "a constant from " + std::to_string(F->Min) + " to " +
                                             std::to_string(F->Max);
  return "every call site " + std::string(F->ProjectWide ? "in the project" : "in this file") +
         " passes " + Range + " for '" + Param->getName().str() + "'";
}

} // namespace

std::optional<std::string> implies(const Expr *A, const Expr *B, const ImplicationContext &IC) {
  const ASTContext &Ctx = IC.Ctx;
  std::optional<Comparison> CA = asGreaterThan(A), CB = asGreaterThan(B);
  if (!CA || !CB || (!CA->Strict && CB->Strict))
    return std::nullopt;
  QualType CmpType = CA->Value->getType();
  if (CmpType.getCanonicalType() != CB->Value->getType().getCanonicalType() ||
      exprIdentity(CA->Limit, Ctx) != exprIdentity(CB->Limit, Ctx))
    return std::nullopt;

  const Expr *Sum = stripWidening(CB->Value, Ctx);
  if (const auto *Ref = dyn_cast<DeclRefExpr>(Sum)) {
    // A preamble local: never assigned, since the preamble is pure.
    const auto *VD = dyn_cast<VarDecl>(Ref->getDecl());
    if (!VD || !VD->isLocalVarDecl() || !VD->hasInit() || !isUnsigned(VD->getType()))
      return std::nullopt;
    Sum = VD->getInit()->IgnoreParenImpCasts();
    if (const auto *Add = dyn_cast<BinaryOperator>(Sum);
        !Add || widthOf(VD->getType(), Ctx) < widthOf(Add->getType(), Ctx))
      return std::nullopt;
  }
  const auto *Add = dyn_cast<BinaryOperator>(Sum);
  if (!Add || Add->getOpcode() != BO_Add || !isUnsigned(Add->getType()) ||
      widthOf(CmpType, Ctx) < widthOf(Add->getType(), Ctx))
    return std::nullopt;
  unsigned SumWidth = widthOf(Add->getType(), Ctx);
  const Expr *X = stripWidening(CA->Value, Ctx);
  if (!isUnsigned(X->getType()))
    return std::nullopt;
  llvm::FoldingSetNodeID XId = exprIdentity(X, Ctx);
  // Z in "X + Z" or "Z + X".
  const Expr *Z = nullptr;
  if (exprIdentity(stripWidening(Add->getLHS(), Ctx), Ctx) == XId)
    Z = Add->getRHS();
  else if (exprIdentity(stripWidening(Add->getRHS(), Ctx), Ctx) == XId)
    Z = Add->getLHS();
  if (!Z)
    return std::nullopt;

  // Proved: X and Z both below 2^(SumWidth-1), so X + Z < 2^SumWidth.
  if (widthOf(X->getType(), Ctx) < SumWidth) {
    const Expr *Bare = stripWidening(Z, Ctx);
    if (isUnsigned(Bare->getType()) && widthOf(Bare->getType(), Ctx) < SumWidth)
      return std::string("the sum cannot wrap");
    std::optional<llvm::APSInt> V = Bare->getIntegerConstantExpr(Ctx);
    if (V && V->isNonNegative() && V->getActiveBits() < SumWidth - 1)
      return std::string("the sum cannot wrap");
    if (std::optional<std::string> Fact = narrowByFact(Z, SumWidth, IC))
      return "the sum cannot wrap: " + *Fact;
  }
  // Assumed: an unsigned X + Z that does not wrap is at least X.
  if (IC.AssumeNoWrap)
    return std::string("assuming, as option AssumeNoWrap says, that the sum does not wrap");
  return std::nullopt;
}

} // namespace hotpath
