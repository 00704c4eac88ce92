//===--- CheckSplitPlanner.cpp - what hotpath-check-split fixes -----------===//

#include "checks/CheckSplitPlanner.h"
#include "analysis/SideEffects.h"
#include "analysis/Visibility.h"
#include "rewrite/Edits.h"
#include "rewrite/Spelling.h"
#include "source/SourceText.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <functional>

using namespace clang;

namespace hotpath {

namespace {

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

/// `if (cond)` as written: what implies() may compare.
bool isPlain(const FailureBranch &B) { return B.Guards.empty() && !B.Negated; }

class Planner {
public:
  Planner(const FunctionDecl *FD, const CheckShape &Shape, const CheckSplitInputs &In)
      : FD(FD), Shape(Shape), In(In), Ctx(In.TU.ast()), SM(Ctx.getSourceManager()) {
    P.Fix.FD = FD;
    P.Fix.Shape = &Shape;
  }

  CheckSplitPlan plan() {
    if (refuse())
      return std::move(P);
    chooseConditions();
    P.Fix.FailureValue = FD->getReturnType()->isVoidType() ? nullptr : commonFailureValue();
    chooseDecls();
    if (checkSpeculation())
      return std::move(P);
    if (signatureText(FD, Ctx).empty()) {
      fail(NoFixReason::SignatureInMacro);
      return std::move(P);
    }
    place();
    return std::move(P);
  }

private:
  bool fail(NoFix R) {
    R.Loc = SM.getExpansionLoc(R.Loc.isValid() ? R.Loc : FD->getLocation());
    P.Refused = std::move(R);
    return true;
  }
  bool fail(NoFixReason R, SourceLocation Loc = {}, std::string Detail = "") {
    return fail(NoFix{R, Loc, "", "", std::move(Detail)});
  }

  bool refuse();
  bool refuseEvaluatedAgain();
  void chooseConditions();
  void chooseDecls();
  bool checkSpeculation();
  const Expr *commonFailureValue() const;
  void place();
  void placeMember(ArrayRef<const FunctionDecl *> Others);
  void placeInPlace(ArrayRef<const FunctionDecl *> Others);
  void placeInHeader(ArrayRef<const FunctionDecl *> Others);
  bool checkVisible(SourceLocation Point);
  std::vector<const Stmt *> withoutMovedHelpers(llvm::ArrayRef<const Stmt *> Code);
  void chooseHelpersToMove(llvm::ArrayRef<const Stmt *> Code, SourceLocation Point);
  std::optional<std::string> whyNotMovable(const FunctionDecl *Helper, SourceLocation Point);
  void spellAt(SourceLocation Point);

  bool inDefFile(const Decl *D) const {
    return SM.getFileID(SM.getExpansionLoc(D->getLocation())) ==
           SM.getFileID(SM.getExpansionLoc(FD->getLocation()));
  }
  bool usableHeaderDecl(const Decl *D) const {
    SourceLocation L = D->getLocation();
    return !L.isMacroID() && !SM.isInSystemHeader(L) && !inDefFile(D);
  }

  const FunctionDecl *FD;
  const CheckShape &Shape;
  const CheckSplitInputs &In;
  ASTContext &Ctx;
  const SourceManager &SM;
  CheckSplitPlan P;
  std::vector<const PreambleValue *> KeptValues; // the values KeptDecls give
};

/// Reasons that rule out any rewrite; fills P.Refused and returns true.
bool Planner::refuse() {
  const auto *Method = dyn_cast<CXXMethodDecl>(FD);
  if (FD->isVariadic())
    return fail(NoFixReason::Variadic);
  if (Method && Method->isVirtual())
    return fail(NoFixReason::Virtual);
  if (callsItself(FD))
    return fail(NoFixReason::Recursive);
  if (In.Stats.AddressTaken)
    return fail(NoFixReason::AddressTaken);
  for (const ParmVarDecl *Param : FD->parameters())
    if (Param->getName().empty())
      return fail(NoFixReason::UnnamedParameter, Param->getLocation());
  if (Shape.ExtraSuccessWork)
    return fail(NoFixReason::SuccessDoesMore, Shape.ExtraSuccessWork->getBeginLoc());
  if (FD->getLocation().isMacroID() || FD->getBody()->getBeginLoc().isMacroID())
    return fail(NoFixReason::FunctionInMacro);
  // The fast path is made from this configuration's body.
  if (std::optional<NoFix> R =
          bodyVariesByConfiguration(FD->getBody(), FD->getName(), In.TU.layout(), SM))
    return fail(*R);
  // The slow path is the body renamed: what it prints as its name stays.
  if (std::optional<NoFix> R = functionNameLiterals(FD, Ctx).Refused)
    return fail(*R);
  if (refuseEvaluatedAgain())
    return true;

  // Every statement must be plain source text the rewrite can copy.
  for (const FailureBranch &B : Shape.Branches)
    if (B.If->getBeginLoc().isMacroID() ||
        llvm::any_of(B.conditions(),
                     [&](const Expr *Cond) { return sourceText(Cond, Ctx).empty(); }))
      return fail(NoFixReason::ConditionInMacro, B.If->getBeginLoc());
  for (const SuccessExit &E : Shape.Exits)
    if (E.If->getBeginLoc().isMacroID() || sourceText(E.Cond, Ctx).empty())
      return fail(NoFixReason::ConditionInMacro, E.If->getBeginLoc());
  for (const Stmt *S : Shape.Preamble)
    if (sourceText(S, Ctx).empty())
      return fail(NoFixReason::DeclarationInMacro, S->getBeginLoc());
  return false;
}

/// Everything the fast path evaluates is evaluated again by the slow path:
/// none of it may have a side effect.
bool Planner::refuseEvaluatedAgain() {
  const SideEffectOptions Again = SideEffectOptions::forRepeatedEvaluation();
  for (const PreambleValue &V : Shape.Values)
    if (std::optional<SideEffect> E = findSideEffect(V.Value, Again, In.Index, Ctx))
      return fail(NoFixReason::PreambleEvaluatedAgain, E->Where->getBeginLoc(),
                  describe(*E, Ctx));
  llvm::SmallVector<const Expr *, 8> Conds;
  for (const FailureBranch &B : Shape.Branches)
    llvm::append_range(Conds, B.conditions());
  for (const SuccessExit &X : Shape.Exits)
    Conds.push_back(X.Cond);
  for (const Expr *Cond : Conds)
    if (std::optional<SideEffect> E = findSideEffect(Cond, Again, In.Index, Ctx))
      return fail(NoFixReason::ConditionEvaluatedAgain, E->Where->getBeginLoc(),
                  describe(*E, Ctx));
  if (Shape.Success && Shape.Success->getRetValue())
    if (std::optional<SideEffect> E =
            findSideEffect(Shape.Success->getRetValue(), Again, In.Index, Ctx))
      return fail(NoFixReason::SuccessValueHasEffect, E->Where->getBeginLoc(),
                  describe(*E, Ctx));
  return false;
}

/// Which conditions the fast path tests: those not implied by another, and
/// the early exits before them.
void Planner::chooseConditions() {
  size_t N = Shape.Branches.size();
  std::vector<bool> Dropped(N, false);
  // An early exit between them lets only the later be dropped: in "a;
  // if (ok) return; b" the original takes b only when ok is false.
  auto MayDrop = [&](size_t I, size_t J) {
    return Shape.Branches[J].ExitsBefore <= Shape.Branches[I].ExitsBefore;
  };
  for (size_t I = 0; I < N; ++I)
    for (size_t J = 0; J < N && !Dropped[I]; ++J)
      if (I == J || Dropped[J] || !isPlain(Shape.Branches[I]) ||
          !isPlain(Shape.Branches[J]) || !MayDrop(I, J))
        continue;
      else if (std::optional<std::string> Why =
                   implies(Shape.Branches[I].Cond, Shape.Branches[J].Cond, In.Implication)) {
        Dropped[I] = true;
        P.Notes.emplace_back(Shape.Branches[I].Cond->getBeginLoc(),
                             "this condition implies '" +
                                 sourceText(Shape.Branches[J].Cond, Ctx) + "' (" + *Why +
                                 "), so the fast path tests only that one");
      }
  for (size_t I = 0; I < N; ++I)
    if (!Dropped[I])
      P.Fix.Kept.push_back(&Shape.Branches[I]);
  // An exit after the last kept branch decides nothing.
  unsigned Needed = P.Fix.Kept.back()->ExitsBefore;
  for (unsigned I = 0; I < Needed; ++I)
    P.Fix.KeptExits.push_back(&Shape.Exits[I]);
}

/// Preamble declarations the kept conditions and the success value need.
void Planner::chooseDecls() {
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
  for (const FailureBranch *B : P.Fix.Kept)
    for (const Expr *Cond : B->conditions())
      Mark(Cond);
  for (const SuccessExit *E : P.Fix.KeptExits)
    Mark(E->Cond);
  if (Shape.Success)
    Mark(Shape.Success->getRetValue());
  // The fast path returns the common failure value itself: written as the
  // first branch returns it ("return err;" needs err).
  Mark(P.Fix.FailureValue);
  std::vector<bool> Keep(Shape.Preamble.size(), false);
  for (const PreambleValue &V : Shape.Values)
    if (Needed.contains(V.Var)) {
      Keep[V.Decl] = Keep[V.Stmt] = true;
      KeptValues.push_back(&V);
    }
  for (size_t I = 0; I < Keep.size(); ++I)
    if (Keep[I])
      P.Fix.KeptDecls.push_back(I);
}

/// Kept code that the original only evaluated after a first condition
/// failed is now evaluated unconditionally: it must be unable to trap.
bool Planner::checkSpeculation() {
  ExprIdentitySet Safe;
  for (const PreambleValue &V : Shape.Values)
    if (V.Position == 0)
      collectUnconditionalDerefs(V.Value, Ctx, Safe);
  collectUnconditionalDerefs(Shape.firstTested(), Ctx, Safe);

  for (const PreambleValue *V : KeptValues)
    if (V->Position > 0)
      if (std::optional<SpeculationHazard> H = findSpeculationHazard(V->Value, Ctx, Safe))
        return fail(NoFixReason::EvaluatedBeforeEarlierConditions, H->Where->getBeginLoc(),
                    describe(*H));
  // The kept conditions are joined with ||: each is evaluated only once
  // the kept ones before it are false, as in the original, unless a
  // dropped condition came before it (which stopped the original first).
  bool AfterDropped = false;
  for (const FailureBranch &B : Shape.Branches) {
    if (!llvm::is_contained(P.Fix.Kept, &B)) {
      AfterDropped = true;
      continue;
    }
    if (AfterDropped)
      for (const Expr *Cond : B.conditions())
        if (std::optional<SpeculationHazard> H = findSpeculationHazard(Cond, Ctx, Safe))
          return fail(NoFixReason::EvaluatedAfterEarlierHolds, H->Where->getBeginLoc(),
                      describe(*H));
  }
  return false;
}

/// The value every failure branch returns, when it is one: as the first
/// return writes it. A branch that leaves only by noreturn calls returns
/// nothing the fast path could differ on. Where a branch does more than
/// report, only a constant: its work may change what an expression gives.
const Expr *Planner::commonFailureValue() const {
  const Expr *First = nullptr;
  std::optional<llvm::APSInt> Value;
  bool DoesMore = llvm::any_of(Shape.Branches, [](const FailureBranch &B) { return B.DoesMore; });
  for (const FailureBranch &B : Shape.Branches)
    for (const ReturnStmt *R : B.Returns) {
      const Expr *V = R->getRetValue();
      if (!V || sourceText(V, Ctx).empty())
        return nullptr;
      std::optional<llvm::APSInt> This = V->getIntegerConstantExpr(Ctx);
      if (DoesMore && !This)
        return nullptr;
      if (!First) {
        First = V;
        Value = This;
        continue;
      }
      bool Same = (Value && This) ? llvm::APSInt::isSameValue(*Value, *This)
                                  : sourceText(V, Ctx) == sourceText(First, Ctx);
      if (!Same)
        return nullptr;
    }
  return First;
}

/// Where the function lives decides the edit: a member joins its class, a
/// function of internal linkage is split in place, one of external linkage
/// puts its fast path in the header that declares it.
void Planner::place() {
  // Redeclarations other than the definition decide the placement.
  llvm::SmallVector<const FunctionDecl *, 2> Others;
  for (const FunctionDecl *R : FD->redecls())
    if (R != FD)
      Others.push_back(R);
  if (isa<CXXMethodDecl>(FD))
    placeMember(Others);
  else if (!FD->isExternallyVisible())
    placeInPlace(Others);
  else
    placeInHeader(Others);
}

void Planner::placeMember(ArrayRef<const FunctionDecl *> Others) {
  // The class declares the member; the slow path joins it there.
  const FunctionDecl *InClass = FD->getCanonicalDecl();
  const CXXRecordDecl *Class = cast<CXXMethodDecl>(FD)->getParent();
  if (InClass == FD || Others.size() != 1 || InClass->getLocation().isMacroID()) {
    fail(NoFixReason::MemberNotDeclaredOnce);
    return;
  }
  bool ClassInHeader = !inDefFile(Class);
  if (ClassInHeader && !usableHeaderDecl(Class)) {
    fail(NoFixReason::ClassNotInEditableHeader, Class->getLocation());
    return;
  }
  P.Fix.Placement =
      ClassInHeader ? FastPathPlacement::MemberOfHeaderClass : FastPathPlacement::Member;
  P.Fix.Declaration = InClass;
  P.Fix.Class = Class;
  SourceLocation Point = fastPathPoint(P.Fix.Placement, FD, InClass, Class, Ctx);
  if (checkVisible(Point))
    spellAt(Point);
}

void Planner::placeInPlace(ArrayRef<const FunctionDecl *> Others) {
  // Internal linkage: split in place.
  if (!llvm::all_of(Others, [&](const FunctionDecl *D) { return inDefFile(D); })) {
    fail(NoFixReason::AlsoDeclaredElsewhere, Others.front()->getLocation());
    return;
  }
  P.Fix.Placement = FastPathPlacement::InPlace;
  spellAt(fastPathPoint(P.Fix.Placement, FD, nullptr, nullptr, Ctx));
}

void Planner::placeInHeader(ArrayRef<const FunctionDecl *> Others) {
  // External linkage: the fast path goes where every caller sees it.
  if (Others.empty()) {
    fail(NoFixReason::NoHeaderForFastPath);
    return;
  }
  if (Others.size() != 1 || !usableHeaderDecl(Others.front())) {
    fail(NoFixReason::NotDeclaredOnceInHeader, Others.front()->getLocation());
    return;
  }
  P.Fix.Placement = FastPathPlacement::Header;
  P.Fix.Declaration = Others.front();
  SourceLocation Point = fastPathPoint(P.Fix.Placement, FD, Others.front(), nullptr, Ctx);
  if (checkVisible(Point))
    spellAt(Point);
}

/// The fast path may only name what is visible at \p Point; in a header,
/// a static function of the definition's file that it calls goes there too
/// when it can (chooseHelpersToMove).
bool Planner::checkVisible(SourceLocation Point) {
  std::vector<const Stmt *> Code;
  for (size_t I : P.Fix.KeptDecls)
    Code.push_back(Shape.Preamble[I]);
  for (const FailureBranch *B : P.Fix.Kept)
    llvm::append_range(Code, B->conditions());
  for (const SuccessExit *E : P.Fix.KeptExits)
    Code.push_back(E->Cond);
  if (P.Fix.FailureValue)
    Code.push_back(P.Fix.FailureValue);
  if (Shape.Success && Shape.Success->getRetValue())
    Code.push_back(Shape.Success->getRetValue());
  std::vector<QualType> Types{FD->getReturnType()};
  for (const ParmVarDecl *Param : FD->parameters())
    Types.push_back(Param->getType());
  const Preprocessor &PP = In.TU.preprocessor();
  if (P.Fix.Placement == FastPathPlacement::Header) {
    chooseHelpersToMove(Code, Point);
    if (P.Refused)
      return false;
    Code = withoutMovedHelpers(Code);
  }
  if (std::optional<InvisibleName> Missing =
          findInvisibleName(Code, Types, Point, Ctx, PP, In.TU.includes())) {
    fail(NoFix{NoFixReason::FastPathNeedsInvisible, Point, fileNameAt(Point, SM), "",
               Missing->text()});
    return false;
  }
  // ...and only what is compiled wherever \p Point is.
  if (std::optional<NoFix> R = conditionalDependency(namedInCode(Code, Types, Ctx, PP), Point,
                                                     In.TU.layout(), SM)) {
    fail(*R);
    return false;
  }
  return true;
}

/// \p Code without the names of the helpers that move with the fast path:
/// the parts of each statement that do not name one.
std::vector<const Stmt *> Planner::withoutMovedHelpers(llvm::ArrayRef<const Stmt *> Code) {
  auto Moved = [&](const Stmt *S) {
    const auto *Ref = dyn_cast_or_null<DeclRefExpr>(S);
    return Ref && llvm::is_contained(P.Fix.MovedHelpers, Ref->getDecl());
  };
  std::function<bool(const Stmt *)> Names = [&](const Stmt *S) {
    return S && (Moved(S) || llvm::any_of(S->children(), Names));
  };
  std::vector<const Stmt *> Out;
  std::function<void(const Stmt *)> Add = [&](const Stmt *S) {
    if (!S || Moved(S))
      return;
    if (!Names(S))
      Out.push_back(S);
    else
      llvm::for_each(S->children(), Add);
  };
  llvm::for_each(Code, Add);
  return Out;
}

/// The static functions of the definition's file that \p Code calls, to
/// move into the header before the fast path, as static inline: those that
/// only compute from what the header sees. One that cannot move is this
/// fix's refusal.
void Planner::chooseHelpersToMove(llvm::ArrayRef<const Stmt *> Code, SourceLocation Point) {
  NamedInCode Named = namedInCode(Code, {}, Ctx, In.TU.preprocessor());
  for (const Decl *D : Named.Decls) {
    const auto *Helper = dyn_cast<FunctionDecl>(D);
    if (!Helper || Helper->getStorageClass() != SC_Static || !inDefFile(Helper) ||
        llvm::is_contained(P.Fix.MovedHelpers, Helper))
      continue;
    if (std::optional<std::string> Why = whyNotMovable(Helper, Point)) {
      fail(NoFix{NoFixReason::HelperNotMovable, Helper->getLocation(),
                 Helper->getName().str(), fileNameAt(Point, SM), *Why});
      return;
    }
    P.Fix.MovedHelpers.push_back(Helper);
  }
}

/// Why \p Helper cannot go into the header at \p Point as it is written;
/// none when it can.
std::optional<std::string> Planner::whyNotMovable(const FunctionDecl *Helper,
                                                  SourceLocation Point) {
  const FunctionDecl *Def = Helper->getDefinition();
  if (!Def || Def != Helper->getCanonicalDecl() || Def->getLocation().isMacroID() ||
      Def->getBeginLoc().isMacroID() || !StringRef(sourceText(Def->getSourceRange(), Ctx))
                                              .starts_with("static"))
    return "it is not defined once, in plain text starting with 'static'";
  if (!SM.isBeforeInTranslationUnit(P.Fix.Declaration->getLocation(), Def->getBeginLoc()))
    return "the header is not included before it";
  const SideEffectOptions Again = SideEffectOptions::forRepeatedEvaluation();
  if (std::optional<SideEffect> E = findSideEffect(Def->getBody(), Again, In.Index, Ctx))
    return "its body " + describe(*E, Ctx);
  std::vector<QualType> Types{Def->getReturnType()};
  for (const ParmVarDecl *Param : Def->parameters())
    Types.push_back(Param->getType());
  if (std::optional<InvisibleName> Missing =
          findInvisibleName({Def->getBody()}, Types, Point, Ctx, In.TU.preprocessor(),
                            In.TU.includes()))
    return "it needs " + Missing->text() + ", which is not visible there";
  return std::nullopt;
}

/// The spelling for code at \p Point, and a note on what it did not trust.
void Planner::spellAt(SourceLocation Point) {
  const Spelling &Sp = P.Fix.Sp =
      spellingAt(Point, In.Rules, Ctx.getLangOpts(), In.TU.preprocessor(), SM,
                 In.TU.includes(), In.TU.layout());
  if (Sp.Untrusted.empty())
    return;
  std::string List;
  for (size_t I = 0; I < Sp.Untrusted.size(); ++I)
    List += (I == 0 ? "" : I + 1 == Sp.Untrusted.size() ? " and " : ", ") + Sp.Untrusted[I];
  P.Notes.emplace_back(FD->getLocation(), "the fix spells its hints itself: " + List +
                                              " here, which does not do what the fix needs");
}

} // namespace

CheckSplitPlan planCheckSplit(const FunctionDecl *FD, const CheckShape &Shape,
                              const CheckSplitInputs &In) {
  return Planner(FD, Shape, In).plan();
}

} // namespace hotpath
