//===--- CheckSplitCheck.cpp - hotpath-check-split ------------------------===//

#include "checks/CheckSplitCheck.h"
#include "rewrite/Edits.h"
#include "rewrite/Spelling.h"
#include "analysis/SideEffects.h"
#include "analysis/Reporting.h"
#include "analysis/CheckShape.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Path.h"

using namespace clang;

namespace hotpath {
/// Where, and with what, the rewrite happens; or why it cannot.
struct CheckSplitCheck::Plan {
  std::optional<NoFix> Refused; // why no fix is offered
  std::vector<FixItHint> Fixes;
  std::vector<std::pair<SourceLocation, std::string>> Notes;
};

namespace {

//===----------------------------------------------------------------------===//
// Proving that a condition is implied by another.
//===----------------------------------------------------------------------===//

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

/// What may be used to prove that one condition implies another, beyond
/// the types: facts about the function's parameters from its call sites, and
/// the assumption the user opted in to.
struct ImplicationContext {
  const ASTContext &Ctx;
  const FunctionDecl *FD;
  bool AssumeNoWrap;
  /// Every call passes a constant for this parameter: from Min to Max.
  llvm::function_ref<std::optional<ConstantParam>(unsigned)> Fact;
};

/// A parameter's fact that makes \p Z a non-negative value narrower than
/// \p SumWidth bits; the note's words for it, or none.
std::optional<std::string> narrowByFact(const Expr *Z, unsigned SumWidth,
                                        const ImplicationContext &IC) {
  const auto *Ref = dyn_cast<DeclRefExpr>(Z->IgnoreParenImpCasts());
  const auto *Param = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
  if (!Param || Param->getDeclContext() != IC.FD || !Param->getType()->isIntegerType())
    return std::nullopt;
  std::optional<ConstantParam> F = IC.Fact(Param->getFunctionScopeIndex());
  if (!F || F->Min < 0 || (SumWidth < 64 && F->Max >= (int64_t(1) << (SumWidth - 1))))
    return std::nullopt;
  std::string Range = F->Min == F->Max ? "the constant " + std::to_string(F->Min)
                                       : "a constant from " + std::to_string(F->Min) + " to " +
                                             std::to_string(F->Max);
  return "every call site " + std::string(F->ProjectWide ? "in the project" : "in this file") +
         " passes " + Range + " for '" + Param->getName().str() + "'";
}

/// When, with the same state, A being true makes B true: A is "X > L" and B
/// is "X + Z > L" where the sum provably cannot wrap (unsigned operands
/// narrower than the unsigned type it is computed in, or a parameter that
/// every call site passes a small non-negative constant), or where the user
/// assumes it does not (AssumeNoWrap). Returns the reason the note gives.
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

//===----------------------------------------------------------------------===//
// The finding and its fix.
//===----------------------------------------------------------------------===//

bool callsItself(const FunctionDecl *FD) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const FunctionDecl *Self;
    bool Found = false;
    bool VisitCallExpr(CallExpr *Call) {
      if (const FunctionDecl *Callee = Call->getDirectCallee())
        Found |= Callee->getCanonicalDecl() == Self;
      return !Found;
    }
  } F;
  F.Self = FD->getCanonicalDecl();
  F.TraverseStmt(FD->getBody());
  return F.Found;
}

bool isBooleanLike(const Expr *E, const ASTContext &Ctx) {
  E = E->IgnoreParenImpCasts();
  if (E->getType()->isBooleanType())
    return true;
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return BO->isComparisonOp() || BO->isLogicalOp();
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return UO->getOpcode() == UO_LNot;
  return false;
}

/// The conditions the original tests on the way to branch \p B, in order.
llvm::SmallVector<const Expr *, 3> conditionsOf(const FailureBranch &B) {
  llvm::SmallVector<const Expr *, 3> Out(B.Guards.begin(), B.Guards.end());
  Out.push_back(B.Cond);
  return Out;
}

/// `if (cond)` as written: what implies() may compare.
bool isPlain(const FailureBranch &B) { return B.Guards.empty() && !B.Negated; }

using Plan = CheckSplitCheck::Plan;

class Rewriter {
public:
  Rewriter(const FunctionDecl *FD, const CheckShape &Shape, const CallSiteStats &Stats,
           const RuleSet &Rules, const RuleIndex &Index, ASTContext &Ctx,
           const Preprocessor &PP, const IncludeGraph &Includes,
           const ImplicationContext &Implication, const SourceLayout &Layout)
      : FD(FD), Shape(Shape), Stats(Stats), Rules(Rules), Index(Index), Ctx(Ctx),
        PP(PP), Includes(Includes), Implication(Implication), Layout(Layout),
        SM(Ctx.getSourceManager()) {}

  Plan plan() {
    Plan P;
    if (!refuse(P))
      build(P);
    return P;
  }

private:
  bool fail(Plan &P, NoFix R) {
    R.Loc = SM.getExpansionLoc(R.Loc.isValid() ? R.Loc : FD->getLocation());
    P.Refused = std::move(R);
    return true;
  }
  bool fail(Plan &P, NoFixReason R, SourceLocation Loc = {}, std::string Detail = "") {
    return fail(P, NoFix{R, Loc, "", "", std::move(Detail)});
  }

  /// Reasons that rule out any rewrite; fills P.NoFix and returns true.
  bool refuse(Plan &P) {
    const auto *Method = dyn_cast<CXXMethodDecl>(FD);
    if (FD->isVariadic())
      return fail(P, NoFixReason::Variadic);
    if (Method && Method->isVirtual())
      return fail(P, NoFixReason::Virtual);
    if (callsItself(FD))
      return fail(P, NoFixReason::Recursive);
    if (Stats.AddressTaken)
      return fail(P, NoFixReason::AddressTaken);
    for (const ParmVarDecl *Param : FD->parameters())
      if (Param->getName().empty())
        return fail(P, NoFixReason::UnnamedParameter, Param->getLocation());
    if (Shape.ExtraSuccessWork)
      return fail(P, NoFixReason::SuccessDoesMore, Shape.ExtraSuccessWork->getBeginLoc());
    if (FD->getLocation().isMacroID() || FD->getBody()->getBeginLoc().isMacroID())
      return fail(P, NoFixReason::FunctionInMacro);
    // The fast path is made from this configuration's body.
    if (std::optional<NoFix> R =
            bodyVariesByConfiguration(FD->getBody(), FD->getName(), Layout, SM))
      return fail(P, *R);
    // The slow path is the body renamed: what it prints as its name stays.
    FunctionNameEdits Names = functionNameLiterals(FD, Ctx);
    if (Names.Refused)
      return fail(P, *Names.Refused);
    NameFixes = std::move(Names.Fixes);

    // Everything the fast path evaluates is evaluated again by the slow path.
    const SideEffectOptions Again = SideEffectOptions::forRepeatedEvaluation();
    for (const PreambleValue &V : Shape.Values)
      if (std::optional<SideEffect> E = findSideEffect(V.Value, Again, Index, Ctx))
        return fail(P, NoFixReason::PreambleEvaluatedAgain, E->Where->getBeginLoc(), describe(*E, Ctx));
    for (const FailureBranch &B : Shape.Branches)
      for (const Expr *Cond : conditionsOf(B))
        if (std::optional<SideEffect> E = findSideEffect(Cond, Again, Index, Ctx))
          return fail(P, NoFixReason::ConditionEvaluatedAgain, E->Where->getBeginLoc(), describe(*E, Ctx));
    if (Shape.Success && Shape.Success->getRetValue())
      if (std::optional<SideEffect> E =
              findSideEffect(Shape.Success->getRetValue(), Again, Index, Ctx))
        return fail(P, NoFixReason::SuccessValueHasEffect, E->Where->getBeginLoc(), describe(*E, Ctx));

    // Every statement must be plain source text the rewrite can copy.
    for (const FailureBranch &B : Shape.Branches)
      if (B.If->getBeginLoc().isMacroID() ||
          llvm::any_of(conditionsOf(B),
                       [&](const Expr *Cond) { return sourceText(Cond, Ctx).empty(); }))
        return fail(P, NoFixReason::ConditionInMacro, B.If->getBeginLoc());
    for (const Stmt *S : Shape.Preamble)
      if (sourceText(S, Ctx).empty())
        return fail(P, NoFixReason::DeclarationInMacro, S->getBeginLoc());
    return false;
  }

  /// Which conditions the fast path tests: those not implied by another.
  void chooseConditions(Plan &P) {
    size_t N = Shape.Branches.size();
    std::vector<bool> Dropped(N, false);
    for (size_t I = 0; I < N; ++I)
      for (size_t J = 0; J < N && !Dropped[I]; ++J)
        if (I == J || Dropped[J] || !isPlain(Shape.Branches[I]) ||
            !isPlain(Shape.Branches[J]))
          continue;
        else if (std::optional<std::string> Why =
                     implies(Shape.Branches[I].Cond, Shape.Branches[J].Cond, Implication)) {
          Dropped[I] = true;
          P.Notes.emplace_back(Shape.Branches[I].Cond->getBeginLoc(),
                               "this condition implies '" +
                                   sourceText(Shape.Branches[J].Cond, Ctx) + "' (" + *Why +
                                   "), so the fast path tests only that one");
        }
    for (size_t I = 0; I < N; ++I)
      if (!Dropped[I])
        Kept.push_back(&Shape.Branches[I]);
  }

  /// Preamble declarations the kept conditions and the success value need.
  void chooseDecls() {
    llvm::SmallPtrSet<const VarDecl *, 8> Needed;
    std::function<void(const Stmt *)> Mark = [&](const Stmt *S) {
      if (!S)
        return;
      if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
        if (const auto *VD = dyn_cast<VarDecl>(Ref->getDecl()))
          if (VD->isLocalVarDecl() && Needed.insert(VD).second)
            if (const PreambleValue *V = Shape.valueOf(VD))
              Mark(V->Value);
      for (const Stmt *Child : S->children())
        Mark(Child);
    };
    for (const FailureBranch *B : Kept)
      for (const Expr *Cond : conditionsOf(*B))
        Mark(Cond);
    if (Shape.Success)
      Mark(Shape.Success->getRetValue());
    // The fast path returns the common failure value itself: written as the
    // first branch returns it ("return err;" needs err).
    if (!FD->getReturnType()->isVoidType() && commonFailureValue())
      Mark(Shape.Branches.front().Return->getRetValue());
    std::vector<bool> Keep(Shape.Preamble.size(), false);
    for (const PreambleValue &V : Shape.Values)
      if (Needed.contains(V.Var)) {
        Keep[V.Decl] = Keep[V.Stmt] = true;
        KeptValues.push_back(&V);
      }
    for (size_t I = 0; I < Keep.size(); ++I)
      if (Keep[I])
        KeptDecls.push_back(I);
  }

  /// Kept code that the original only evaluated after a first condition
  /// failed is now evaluated unconditionally: it must be unable to trap.
  bool checkSpeculation(Plan &P) {
    ExprIdentitySet Safe;
    for (const PreambleValue &V : Shape.Values)
      if (V.Position == 0)
        collectUnconditionalDerefs(V.Value, Ctx, Safe);
    collectUnconditionalDerefs(Shape.Branches.front().firstTested(), Ctx, Safe);

    for (const PreambleValue *V : KeptValues)
      if (V->Position > 0)
        if (std::optional<SpeculationHazard> H = findSpeculationHazard(V->Value, Ctx, Safe))
          return fail(P, NoFixReason::EvaluatedBeforeEarlierConditions, H->Where->getBeginLoc(), describe(*H));
    // The kept conditions are joined with ||: each is evaluated only once
    // the kept ones before it are false, as in the original, unless a
    // dropped condition came before it (which stopped the original first).
    bool AfterDropped = false;
    for (const FailureBranch &B : Shape.Branches) {
      if (!llvm::is_contained(Kept, &B)) {
        AfterDropped = true;
        continue;
      }
      if (AfterDropped)
        for (const Expr *Cond : conditionsOf(B))
          if (std::optional<SpeculationHazard> H = findSpeculationHazard(Cond, Ctx, Safe))
            return fail(P, NoFixReason::EvaluatedAfterEarlierHolds, H->Where->getBeginLoc(), describe(*H));
    }
    return false;
  }

  /// The value every failure branch returns, when it is one constant.
  std::optional<std::string> commonFailureValue() {
    std::optional<std::string> Text;
    std::optional<llvm::APSInt> Value;
    for (const FailureBranch &B : Shape.Branches) {
      if (!B.Return || !B.Return->getRetValue())
        return std::nullopt;
      const Expr *V = B.Return->getRetValue();
      std::optional<llvm::APSInt> This = V->getIntegerConstantExpr(Ctx);
      std::string ThisText = sourceText(V, Ctx);
      if (ThisText.empty())
        return std::nullopt;
      if (!Text) {
        Text = ThisText;
        Value = This;
        continue;
      }
      bool Same = (Value && This) ? llvm::APSInt::isSameValue(*Value, *This)
                                  : ThisText == *Text;
      if (!Same)
        return std::nullopt;
    }
    return Text;
  }

  /// The kept conditions, each without a hint it carries, joined with ||.
  /// Measured (scripts/bench-matrix.sh, callgrind, after/before): where the
  /// caller tests the same bound again (samples/bounds-copy), `|` costs
  /// 1.038 with gcc PGO+LTO and `||` 1.000, and at -O2 gcc `||` keeps
  /// 0.989 of the check's cost off against 0.944; where it does not
  /// (extent-buffer's two conditions), `|` is better with clang (0.902
  /// against 0.822 at -O2) but neither is slower than the original. `||`
  /// is never slower; `|` is not.
  std::string joinedCondition() {
    std::string Out;
    for (const FailureBranch *B : Kept)
      Out += (Out.empty() ? "" : " || ") + branchCondition(*B, Kept.size() == 1);
    return Out;
  }

  /// One test of the joined condition, without the hint it carries.
  struct Test {
    std::string Text;
    bool Boolean; // a truth value already: no "!!" needed
    bool Tight;   // binds tighter than && and ||: no parentheses needed
  };
  Test test(const Expr *Cond, bool Negate) {
    BareCondition C = withoutHint(Cond, Rules, Ctx);
    // Comparisons and unary tests bind tighter than && and ||; a negation
    // only leaves a unary or postfix operand unparenthesised.
    const Expr *Bare = C.E->IgnoreParenImpCasts();
    const auto *BO = dyn_cast<BinaryOperator>(Bare);
    bool Unary = isa<UnaryOperator, DeclRefExpr, MemberExpr, CallExpr>(Bare);
    if (Negate)
      return {Unary ? "!" + C.Text : "!(" + C.Text + ")", true, true};
    return {C.Text, isBooleanLike(C.E, Ctx), (BO && BO->isComparisonOp()) || Unary};
  }

  /// What takes branch \p B: its condition, its guards' before it joined
  /// with && in the order the original tests them, the condition negated for
  /// a guard written the other way round. \p Alone: the only test.
  std::string branchCondition(const FailureBranch &B, bool Alone) {
    if (B.Guards.empty()) {
      Test T = test(B.Cond, B.Negated);
      if (!T.Boolean)
        return "!!(" + T.Text + ")";
      return Alone || T.Tight ? T.Text : "(" + T.Text + ")";
    }
    std::string Out;
    for (const Expr *Cond : conditionsOf(B)) {
      Test T = test(Cond, B.Negated && Cond == B.Cond);
      Out += (Out.empty() ? "" : " && ") + (T.Tight ? T.Text : "(" + T.Text + ")");
    }
    // "a && b || c" draws -Wparentheses.
    return Alone ? Out : "(" + Out + ")";
  }

  std::string fastPath(StringRef Signature, const Spelling &Sp, StringRef ReportName) {
    const SourceManager &SM = Ctx.getSourceManager();
    const auto *Body = cast<CompoundStmt>(FD->getBody());
    // The body's own indentation, one level more for the branch: as the
    // file indents (tabs, or spaces of its width).
    std::string Unit = indentUnit(FD->getLocation(), SM, Layout);
    std::string Ind = indentationAt((*Body->body_begin())->getBeginLoc(), SM);
    if (Ind.empty())
      Ind = Unit;
    std::string Ind2 = Ind + Unit;
    // Keep the original's brace placement: "{" on its own line or not.
    bool BraceOnOwnLine = SM.getExpansionColumnNumber(Body->getLBracLoc()) <=
                          indentationAt(Body->getLBracLoc(), SM).size() + 1;

    std::string Args;
    for (const ParmVarDecl *Param : FD->parameters())
      Args += (Args.empty() ? "" : ", ") + Param->getName().str();
    std::string Call = (ReportName + "(" + Args + ")").str();

    std::string Out = Signature.str() + (BraceOnOwnLine ? "\n{\n" : " {\n");
    for (size_t I : KeptDecls)
      Out += Ind + sourceText(Shape.Preamble[I], Ctx) +
             (isa<Expr>(Shape.Preamble[I]) ? ";" : "") + "\n";
    Out += Ind + Sp.ifUnlikely(joinedCondition());
    if (FD->getReturnType()->isVoidType()) {
      Out += "\n" + Ind2 + Call + ";\n";
    } else if (std::optional<std::string> Failure = commonFailureValue()) {
      // Measured: a void-style call then the constant beats a tail call.
      Out += " {\n" + Ind2 + "(void)" + Call + ";\n" + Ind2 + "return " + *Failure + ";\n" +
             Ind + "}\n";
    } else {
      Out += " {\n" + Ind2 + "return " + Call + ";\n" + Ind + "}\n";
    }
    if (Shape.Success && Shape.Success->getRetValue())
      Out += Ind + "return " + sourceText(Shape.Success->getRetValue(), Ctx) + ";\n";
    Out += "}";
    return Out;
  }

  /// Cold attribute and new name for the original definition; what it
  /// prints as its own name stays the old one.
  void renameOriginal(Plan &P, const Spelling &Sp, StringRef ReportName) {
    P.Fixes.push_back(coldAttributeInsertion(FD, Sp, Ctx));
    P.Fixes.push_back(replaceToken(FD->getLocation(), ReportName, SM));
    llvm::append_range(P.Fixes, NameFixes);
  }

  /// Declaration text of the slow path, from a declaration of the function.
  std::optional<std::string> reportDeclaration(const FunctionDecl *Decl, const Spelling &Sp,
                                               StringRef ReportName) {
    std::optional<std::string> Renamed = renamedSignature(Decl, ReportName, Ctx);
    if (!Renamed)
      return std::nullopt;
    return Sp.ColdAttribute + " " + *Renamed + ";";
  }

  /// Notes on what the spelling did not trust, for the plan.
  void noteSpelling(Plan &P, const Spelling &Sp) {
    if (Sp.Untrusted.empty())
      return;
    std::string List;
    for (size_t I = 0; I < Sp.Untrusted.size(); ++I)
      List += (I == 0 ? "" : I + 1 == Sp.Untrusted.size() ? " and " : ", ") + Sp.Untrusted[I];
    P.Notes.emplace_back(FD->getLocation(),
                         "the fix spells its hints itself: " + List +
                             " here, which does not do what the fix needs");
  }

  void build(Plan &P) {
    chooseConditions(P);
    chooseDecls();
    if (checkSpeculation(P))
      return;

    std::string ReportName = FD->getName().str() + Rules.Spellings.ReportSuffix;
    const auto *Method = dyn_cast<CXXMethodDecl>(FD);
    if (signatureText(FD, Ctx).empty())
      return (void)fail(P, NoFixReason::SignatureInMacro);
    auto Spell = [&](SourceLocation Point) {
      Spelling Sp = spellingAt(Point, Rules, Ctx.getLangOpts(), PP, SM, Includes, Layout);
      noteSpelling(P, Sp);
      return Sp;
    };

    // Redeclarations other than the definition decide the placement.
    llvm::SmallVector<const FunctionDecl *, 2> Others;
    for (const FunctionDecl *R : FD->redecls())
      if (R != FD)
        Others.push_back(R);
    FileID DefFile = SM.getFileID(SM.getExpansionLoc(FD->getLocation()));
    auto InDefFile = [&](const Decl *D) {
      return SM.getFileID(SM.getExpansionLoc(D->getLocation())) == DefFile;
    };
    auto UsableHeaderDecl = [&](const Decl *D) {
      SourceLocation L = D->getLocation();
      return !L.isMacroID() && !SM.isInSystemHeader(L) && !InDefFile(D);
    };

    if (Method) {
      // The class declares the member; the slow path joins it there.
      const FunctionDecl *InClass = FD->getCanonicalDecl();
      const CXXRecordDecl *Class = Method->getParent();
      if (InClass == FD || Others.size() != 1 || InClass->getLocation().isMacroID())
        return (void)fail(P, NoFixReason::MemberNotDeclaredOnce);
      bool ClassInHeader = !InDefFile(Class);
      SourceLocation Point = ClassInHeader
                                 ? Lexer::getLocForEndOfToken(Class->getEndLoc(), 0, SM,
                                                              Ctx.getLangOpts())
                                 : FD->getEndLoc();
      if (ClassInHeader && !UsableHeaderDecl(Class))
        return (void)fail(P, NoFixReason::ClassNotInEditableHeader, Class->getLocation());
      if (!checkVisible(P, Point))
        return;
      Spelling Sp = Spell(Point);
      SourceLocation DeclEnd = Lexer::findLocationAfterToken(
          InClass->getEndLoc(), tok::semi, SM, Ctx.getLangOpts(), false);
      std::optional<std::string> ReportDecl = reportDeclaration(InClass, Sp, ReportName);
      std::optional<std::string> Inline = inlineSignature(FD, false, Ctx);
      if (DeclEnd.isInvalid() || !ReportDecl || !Inline)
        return (void)fail(P, NoFixReason::InClassDeclarationHasNoSemi, InClass->getLocation());
      P.Fixes.push_back(FixItHint::CreateInsertion(
          DeclEnd, "\n" + indentationAt(InClass->getBeginLoc(), SM) + *ReportDecl));
      renameOriginal(P, Sp, ReportName);
      std::string Fast = fastPath(*Inline, Sp, ReportName);
      if (ClassInHeader) {
        SourceLocation AfterClass = Lexer::findLocationAfterToken(
            Class->getEndLoc(), tok::semi, SM, Ctx.getLangOpts(), false);
        if (AfterClass.isInvalid())
          return (void)fail(P, NoFixReason::ClassHasNoSemi, Class->getLocation());
        P.Fixes.push_back(FixItHint::CreateInsertion(AfterClass, "\n\n" + Fast));
      } else {
        P.Fixes.push_back(FixItHint::CreateInsertion(
            Lexer::getLocForEndOfToken(FD->getEndLoc(), 0, SM, Ctx.getLangOpts()),
            "\n\n" + Fast));
      }
      return;
    }

    if (!FD->isExternallyVisible()) {
      // Internal linkage: split in place.
      if (!llvm::all_of(Others, InDefFile))
        return (void)fail(P, NoFixReason::AlsoDeclaredElsewhere, Others.front()->getLocation());
      SourceLocation Point = FD->getEndLoc();
      Spelling Sp = Spell(Point);
      std::optional<std::string> Inline = inlineSignature(FD, false, Ctx);
      if (!Inline)
        return (void)fail(P, NoFixReason::SignatureInMacro);
      std::string Fast = fastPath(*Inline, Sp, ReportName);
      renameOriginal(P, Sp, ReportName);
      P.Fixes.push_back(FixItHint::CreateInsertion(
          Lexer::getLocForEndOfToken(FD->getEndLoc(), 0, SM, Ctx.getLangOpts()),
          "\n\n" + Fast));
      return;
    }

    // External linkage: the fast path goes where every caller sees it.
    if (Others.empty())
      return (void)fail(P, NoFixReason::NoHeaderForFastPath);
    if (Others.size() != 1 || !UsableHeaderDecl(Others.front()))
      return (void)fail(P, NoFixReason::NotDeclaredOnceInHeader, Others.front()->getLocation());
    const FunctionDecl *HeaderDecl = Others.front();
    // "bool" is a macro in C: the declaration starts where it is expanded.
    SourceLocation Point = SM.getExpansionLoc(HeaderDecl->getBeginLoc());
    if (!checkVisible(P, Point))
      return;
    SourceLocation DeclEnd = Lexer::findLocationAfterToken(
        SM.getExpansionLoc(HeaderDecl->getEndLoc()), tok::semi, SM, Ctx.getLangOpts(),
        false);
    Spelling Sp = Spell(Point);
    std::optional<std::string> ReportDecl = reportDeclaration(HeaderDecl, Sp, ReportName);
    std::optional<std::string> Inline =
        inlineSignature(FD, /*MakeStatic=*/!Ctx.getLangOpts().CPlusPlus, Ctx);
    if (DeclEnd.isInvalid() || HeaderDecl->getLocation().isMacroID() || !ReportDecl || !Inline)
      return (void)fail(P, NoFixReason::HeaderDeclarationNotRewritable, HeaderDecl->getLocation());
    std::string Fast = fastPath(*Inline, Sp, ReportName);
    P.Fixes.push_back(FixItHint::CreateReplacement(CharSourceRange::getCharRange(Point, DeclEnd),
                                                   *ReportDecl + "\n\n" + Fast));
    renameOriginal(P, Sp, ReportName);
  }

  /// The fast path may only name what is visible at \p Point.
  bool checkVisible(Plan &P, SourceLocation Point) {
    std::vector<const Stmt *> Code;
    for (size_t I : KeptDecls)
      Code.push_back(Shape.Preamble[I]);
    for (const FailureBranch *B : Kept)
      llvm::append_range(Code, conditionsOf(*B));
    for (const FailureBranch &B : Shape.Branches)
      if (B.Return && B.Return->getRetValue())
        Code.push_back(B.Return->getRetValue());
    if (Shape.Success && Shape.Success->getRetValue())
      Code.push_back(Shape.Success->getRetValue());
    std::vector<QualType> Types{FD->getReturnType()};
    for (const ParmVarDecl *Param : FD->parameters())
      Types.push_back(Param->getType());
    if (std::optional<InvisibleName> Missing =
            findInvisibleName(Code, Types, Point, Ctx, PP, Includes)) {
      fail(P, NoFix{NoFixReason::FastPathNeedsInvisible, Point, fileNameAt(Point, SM), "",
                    Missing->text()});
      return false;
    }
    // ...and only what is compiled wherever \p Point is.
    if (std::optional<NoFix> R = conditionalDependency(namedInCode(Code, Types, Ctx, PP),
                                                         Point, Layout, SM)) {
      fail(P, *R);
      return false;
    }
    return true;
  }

  const FunctionDecl *FD;
  const CheckShape &Shape;
  const CallSiteStats &Stats;
  const RuleSet &Rules;
  const RuleIndex &Index;
  ASTContext &Ctx;
  const Preprocessor &PP;
  const IncludeGraph &Includes;
  const ImplicationContext &Implication;
  const SourceLayout &Layout;
  const SourceManager &SM;
  std::vector<const FailureBranch *> Kept;
  std::vector<size_t> KeptDecls;                // indices into Shape.Preamble
  std::vector<const PreambleValue *> KeptValues; // the values they give
  std::vector<FixItHint> NameFixes; // __func__ in the slow path: the old name
};

/// The parent of \p Target under \p Root, parentheses and implicit casts
/// looked through; null when \p Target is not under \p Root.
const Stmt *parentOf(const Stmt *Root, const Stmt *Target) {
  for (const Stmt *Child : Root->children()) {
    if (!Child)
      continue;
    if (Child == Target)
      return Root;
    if (const Stmt *P = parentOf(Child, Target))
      return isa<ParenExpr, ImplicitCastExpr>(P) && P != Root ? parentOf(Root, P) : P;
  }
  return nullptr;
}

/// A call in this TU that throws away what \p FD returns (a statement, a
/// cast to void, VERIFY(x)): its caller tests the bound itself, if at all.
const CallExpr *discardingCall(const FunctionDecl *FD, const CallSiteIndex &Sites) {
  for (const CallSiteIndex::Site &S : Sites.sites()) {
    const FunctionDecl *Callee = S.Call->getDirectCallee();
    if (!Callee || Callee->getCanonicalDecl() != FD->getCanonicalDecl() || !S.Caller ||
        !S.Caller->getBody())
      continue;
    const Stmt *P = parentOf(S.Caller->getBody(), S.Call);
    const auto *Cast = dyn_cast_or_null<CastExpr>(P);
    if (isa_and_nonnull<CompoundStmt>(P) || (Cast && Cast->getType()->isVoidType()))
      return S.Call;
  }
  return nullptr;
}

/// Why a function is not even looked at. Rendered by describe().
enum class NotCandidate {
  None,
  Declaration,  // no body here
  Inline,       // inline already
  Main,
  Template,     // a template or an instantiation
  Constexpr,
  Unnamed,      // an operator, a conversion, no identifier
  SpecialMember,
  Cold,         // already cold, or always_inline
  Invalid,      // did not compile
  SystemHeader,
};

const char *describe(NotCandidate Why) {
  switch (Why) {
  case NotCandidate::None:
    return "";
  case NotCandidate::Declaration:
    return "this is a declaration; the definition is not in this translation unit";
  case NotCandidate::Inline:
    return "it is inline already";
  case NotCandidate::Main:
    return "it is main";
  case NotCandidate::Template:
    return "it is a template or one's instantiation (not handled)";
  case NotCandidate::Constexpr:
    return "it is constexpr";
  case NotCandidate::Unnamed:
    return "it has no plain name (an operator or a conversion)";
  case NotCandidate::SpecialMember:
    return "it is a constructor, a destructor or a conversion";
  case NotCandidate::Cold:
    return "it is marked cold or always_inline already";
  case NotCandidate::Invalid:
    return "it does not compile";
  case NotCandidate::SystemHeader:
    return "it is in a system header";
  }
  llvm_unreachable("unknown reason");
}

NotCandidate candidacy(const FunctionDecl *FD, const SourceManager &SM) {
  if (!FD->doesThisDeclarationHaveABody())
    return NotCandidate::Declaration;
  if (FD->isInlined())
    return NotCandidate::Inline;
  if (FD->isMain())
    return NotCandidate::Main;
  if (FD->isTemplated() || FD->isTemplateInstantiation())
    return NotCandidate::Template;
  if (FD->isConstexpr())
    return NotCandidate::Constexpr;
  if (isa<CXXConstructorDecl, CXXDestructorDecl, CXXConversionDecl>(FD))
    return NotCandidate::SpecialMember;
  if (!FD->getDeclName().isIdentifier() || FD->getName().empty())
    return NotCandidate::Unnamed;
  if (FD->hasAttr<ColdAttr>() || FD->hasAttr<AlwaysInlineAttr>())
    return NotCandidate::Cold;
  // Code that did not compile gets no rewrite: its AST is a guess.
  if (FD->isInvalidDecl())
    return NotCandidate::Invalid;
  SourceLocation Loc = FD->getLocation();
  if (Loc.isInvalid() || SM.isInSystemHeader(Loc))
    return NotCandidate::SystemHeader;
  return NotCandidate::None;
}

/// What makes a preamble, a condition or the success value "not a check": a
/// call not known to be pure, or a write, evaluated where the check would
/// only test and return (lseek, sscanf, a call that itself checks and
/// reports; e2fsck's ask(), whose success path asks the user). A volatile or
/// atomic read is no such thing: a check of hardware state is still a
/// check, and gets a refusal note. Null when there is none.
struct NotACheck {
  SideEffect Effect;
  const Expr *In;  // the initializer, condition or returned value
  unsigned Branch; // 1-based branch of the condition; 0 otherwise
  bool InSuccess = false;

  std::string where() const {
    if (InSuccess)
      return "the success value";
    return Branch ? "the condition of branch " + std::to_string(Branch)
                  : std::string("the preamble");
  }
};

std::optional<NotACheck> findWorkInTests(const CheckShape &Shape, const RuleIndex &Index,
                                         const ASTContext &Ctx) {
  const SideEffectOptions Again = SideEffectOptions::forRepeatedEvaluation();
  auto Judge = [&](const Expr *E, unsigned Branch) -> std::optional<NotACheck> {
    std::optional<SideEffect> Eff = findSideEffect(E, Again, Index, Ctx);
    if (!Eff || Eff->Kind == EffectKind::ReadsVolatile || Eff->Kind == EffectKind::ReadsAtomic)
      return std::nullopt;
    return NotACheck{*Eff, E, Branch};
  };
  for (const PreambleValue &V : Shape.Values)
    if (std::optional<NotACheck> W = Judge(V.Value, 0))
      return W;
  for (size_t I = 0; I < Shape.Branches.size(); ++I)
    for (const Expr *Cond : conditionsOf(Shape.Branches[I]))
      if (std::optional<NotACheck> W = Judge(Cond, I + 1))
        return W;
  if (Shape.Success && Shape.Success->getRetValue())
    if (std::optional<NotACheck> W = Judge(Shape.Success->getRetValue(), 0)) {
      W->InSuccess = true;
      return W;
    }
  return std::nullopt;
}

} // namespace

CheckSplitCheck::CheckSplitCheck(StringRef Name, tidy::ClangTidyContext *Context)
    : HotpathCheck(Name, Context) {
  OptionReader &O = options();
  RuleSet &R = adjustRules();
  R.Hotness.MultiBranchThreshold =
      O.count("MultiBranchThreshold", R.Hotness.MultiBranchThreshold);
  R.Hotness.SingleBranchThreshold =
      O.count("SingleBranchThreshold", R.Hotness.SingleBranchThreshold);
  R.Spellings.ReportSuffix = O.text("ReportSuffix", R.Spellings.ReportSuffix);
  AssumeNoWrap = O.flag("AssumeNoWrap", false);
}

void CheckSplitCheck::run(TUContext &TU) {
  ASTContext &Ctx = TU.ast();
  const SourceManager &SM = Ctx.getSourceManager();
  HeatModel Heat = heat();
  if (explainRequested())
    explainDeclarations(Ctx);
  for (const FunctionDecl *FD : TU.definitions().Functions) {
    bool Explain = FD->getIdentifier() && explaining(FD->getName());
    if (Explain)
      explainBegin(FD->getLocation(), "a definition of function '" + FD->getName() +
                                          "'; the steps of hotpath-check-split follow");
    if (NotCandidate Why = candidacy(FD, SM); Why != NotCandidate::None) {
      if (Explain)
        explainStep(FD->getLocation(), Twine("not a candidate: ") + describe(Why));
      continue;
    }
    ShapeFailure ShapeWhy;
    std::optional<CheckShape> Shape = recogniseShape(FD, ruleIndex(), Ctx, &ShapeWhy);
    if (!Shape) {
      if (Explain)
        explainStep(ShapeWhy.Where ? ShapeWhy.Where->getBeginLoc() : FD->getLocation(),
                    "not a check function: " + describe(ShapeWhy));
      continue;
    }
    if (std::optional<NotACheck> W = findWorkInTests(*Shape, ruleIndex(), Ctx)) {
      if (Explain)
        explainStep(W->Effect.Where ? W->Effect.Where->getBeginLoc() : W->In->getBeginLoc(),
                    "not a check function: " + W->where() + " does work besides " +
                        (W->InSuccess ? "returning: " : "testing: ") +
                        describe(W->Effect, Ctx));
      continue;
    }
    bool Multi = Shape->Branches.size() > 1;
    if (Explain)
      explainStep(FD->getLocation(),
                  "a check function: " + std::to_string(Shape->Branches.size()) +
                      " branch(es) that report and leave, then the success path");
    // A single-branch finding needs stronger evidence than a multi-branch
    // one (DESIGN.md): small validators with one error branch are called
    // from everywhere, so without a profile a count of plain call sites is
    // not enough.
    HeatPolicy Policy = Multi ? HeatPolicy{rules().Hotness.MultiBranchThreshold,
                                           "MultiBranchThreshold", false}
                              : HeatPolicy{rules().Hotness.SingleBranchThreshold,
                                           "SingleBranchThreshold", true};
    HeatVerdict V = Heat.function(FD, Policy);
    if (Explain)
      explainStep(FD->getLocation(), V.Why);
    if (!V.Hot)
      continue;

    auto Fact = [&](unsigned Param) { return TU.calls().constantParam(FD, Param); };
    ImplicationContext Implication{Ctx, FD, AssumeNoWrap, Fact};
    Plan P = Rewriter(FD, *Shape, V.Stats, rules(), ruleIndex(), Ctx, TU.preprocessor(),
                      TU.includes(), Implication, TU.layout())
                 .plan();
    if (Explain)
      explainStep(P.Refused ? P.Refused->Loc : FD->getLocation(),
                  P.Refused ? "reported; no fix: " + P.Refused->text()
                            : std::string("reported, with a fix"));
    emit(finding(FD, *Shape, V, std::move(P), TU));
  }
}

Finding CheckSplitCheck::finding(const FunctionDecl *FD, const CheckShape &Shape,
                                 const HeatVerdict &V, Plan &&P, TUContext &TU) {
  Finding F;
  bool Multi = Shape.Branches.size() > 1;
  F.Kind = Multi ? kind::CheckFunction : kind::InlineReporting;
  F.Subject = FD->getName().str();
  F.Warning = Multi ? Message{FD->getLocation(),
                              "check function %0 tests %1 conditions on a hot path; merge them "
                              "into one unlikely branch and move the reporting to a cold "
                              "function",
                              {FD, static_cast<unsigned>(Shape.Branches.size())}}
                    : Message{FD->getLocation(),
                              "check function %0 keeps its reporting code inline on a hot "
                              "path; move it to a cold function so the check can be inlined",
                              {FD}};
  F.Notes.push_back(heatNote(FD, V.Stats));
  F.Refused = std::move(P.Refused);
  F.Fixes = std::move(P.Fixes);
  for (auto &[Loc, Text] : P.Notes)
    F.FixNotes.push_back({Loc, "%0", {Text}});
  // The one build mode where no fast path is as fast as the original
  // (scripts/bench-matrix.sh, samples/bounds-copy): clang -flto inlines
  // the original check into a caller that tests the bound again, and then
  // folds that second test; the fast path's call to the slow path, which
  // takes the same pointers, keeps it from doing so.
  if (const CallExpr *Discard =
          FD->getReturnType()->isVoidType() ? nullptr : discardingCall(FD, TU.callSites()))
    F.FixNotes.push_back(
        {Discard->getBeginLoc(),
         "this call throws away what %0 returns, so its caller may test the same bound "
         "again: built with clang -flto, such callers were slower after the fix with every "
         "fast-path shape measured (1.076 of the original with -flto, 1.085 with PGO+LTO, "
         "on samples/bounds-copy); not slower in any other build mode",
         {FD}});
  // What made it hot in other files: a patch that adds a hot call to an
  // old check makes the finding new.
  if (const index::Function *IF = TU.calls().projectFunction(FD))
    for (const index::CallSite &C : IF->Calls)
      F.Evidence.push_back({C.Loc.File, C.Loc.Line, C.Loc.Line});
  F.ProfileShare = V.Stats.ProfilePercent;
  return F;
}

void CheckSplitCheck::explainDeclarations(ASTContext &Ctx) {
  // A function this TU only declares: its body, and so its shape, is
  // elsewhere. Said once, at the first declaration outside system headers.
  const SourceManager &SM = Ctx.getSourceManager();
  for (const Decl *D : Ctx.getTranslationUnitDecl()->lookup(
           DeclarationName(&Ctx.Idents.get(explainName())))) {
    const auto *FD = dyn_cast<FunctionDecl>(D);
    if (!FD || FD->isDefined() || SM.isInSystemHeader(FD->getLocation()))
      continue;
    explainBegin(FD->getLocation(), "a declaration of function '" + FD->getName() +
                                        "'; the steps of hotpath-check-split follow");
    explainStep(FD->getLocation(), describe(NotCandidate::Declaration));
    return;
  }
}

} // namespace hotpath
