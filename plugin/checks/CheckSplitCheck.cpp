//===--- CheckSplitCheck.cpp - hotpath-check-split ------------------------===//
//
// The pipeline: candidates (the TU's definitions), shape (analysis/
// CheckShape.h, and no work in what the fast path would test), heat (the
// heat model, by branch count), plan (CheckSplitPlanner.h), emit (the
// rewrite layer writes the plan: rewrite/FastPath.h).
//
//===----------------------------------------------------------------------===//

#include "checks/CheckSplitCheck.h"
#include "checks/CheckSplitPlanner.h"
#include "analysis/Implication.h"
#include "analysis/Reporting.h"
#include "analysis/SideEffects.h"
#include "rewrite/FastPath.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/Basic/Builtins.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace hotpath {

namespace {

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

/// Every place a finding on \p FD may name: its warning, heat note and plan
/// are in its definition; its other notes at the calls of it and at the
/// functions it calls (a helper the plan cannot move).
llvm::SmallVector<SourceLocation, 16> placesOf(const FunctionDecl *FD,
                                               const CallSiteIndex &Sites) {
  llvm::SmallVector<SourceLocation, 16> Places = {FD->getLocation(), FD->getBeginLoc(),
                                                  FD->getEndLoc()};
  for (const CallSiteIndex::Site *S : Sites.callersOf(FD))
    Places.push_back(S->Call->getBeginLoc());
  llvm::SmallVector<const Stmt *, 32> Work = {FD->getBody()};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *Call = dyn_cast<CallExpr>(S))
      if (const FunctionDecl *Callee = Call->getDirectCallee())
        for (const FunctionDecl *R : Callee->redecls())
          Places.push_back(R->getLocation());
    llvm::append_range(Work, S->children());
  }
  return Places;
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
  Formatter,    // variadic, and reads its arguments with va_start
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
  case NotCandidate::Formatter:
    return "it is variadic and reads its arguments with va_start: a function that formats "
           "a message, whose printing is its work, not a check's failure path";
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
  // pr_verbose(), dbprintf(), __btrfs_warning_on(): `if (quiet) return;`
  // then the printing the function exists for.
  if (FD->isVariadic() && readsVariadicArguments(FD->getBody()))
    return NotCandidate::Formatter;
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
  unsigned Branch; // 1-based branch (or early exit) of the condition; 0 otherwise
  bool InSuccess = false;
  bool InExit = false;

  std::string where() const {
    if (InSuccess)
      return "the success value";
    if (InExit)
      return "the condition of early exit " + std::to_string(Branch);
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
    for (const Expr *Cond : Shape.Branches[I].conditions())
      if (std::optional<NotACheck> W = Judge(Cond, I + 1))
        return W;
  for (size_t I = 0; I < Shape.Exits.size(); ++I)
    if (std::optional<NotACheck> W = Judge(Shape.Exits[I].Cond, I + 1)) {
      W->InExit = true;
      return W;
    }
  if (Shape.Success && Shape.Success->getRetValue())
    if (std::optional<NotACheck> W = Judge(Shape.Success->getRetValue(), 0)) {
      W->InSuccess = true;
      return W;
    }
  return std::nullopt;
}

/// \p If's branch is hinted unlikely: `if (unlikely(c))` (a
/// `__builtin_expect(c, 0)` after expansion) or `if (c) [[unlikely]]`.
bool markedUnlikely(const IfStmt *If, const ASTContext &Ctx) {
  if (const auto *A = dyn_cast<AttributedStmt>(If->getThen()))
    if (llvm::any_of(A->getAttrs(), [](const Attr *At) { return isa<UnlikelyAttr>(At); }))
      return true;
  const auto *Call = dyn_cast<CallExpr>(If->getCond()->IgnoreParenImpCasts());
  if (!Call || Call->getBuiltinCallee() != Builtin::BI__builtin_expect ||
      Call->getNumArgs() != 2 || Call->getArg(1)->isValueDependent())
    return false;
  Expr::EvalResult R;
  return Call->getArg(1)->EvaluateAsInt(R, Ctx) && R.Val.getInt().isZero();
}

/// \p S is one call to a cold function (`__cold`, or a printf-format
/// logger marked cold such as btrfs_printk), as written or as a reporting
/// macro expands it (btrfs_warn -> btrfs_printk(...)).
bool isOneColdCall(const Stmt *S) {
  const auto *E = dyn_cast_or_null<Expr>(S);
  if (!E)
    return false;
  E = E->IgnoreParenImpCasts();
  if (const auto *Cast = dyn_cast<CStyleCastExpr>(E); Cast && Cast->getType()->isVoidType())
    E = Cast->getSubExpr()->IgnoreParenImpCasts();
  const auto *Call = dyn_cast<CallExpr>(E);
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  return Callee && Callee->hasAttr<ColdAttr>();
}

/// \p If is in the form the fix gives a failure branch: no else, hinted
/// unlikely, and its reporting one call to a cold function before it
/// returns.
bool fastPathIf(const IfStmt *If, const ASTContext &Ctx) {
  if (If->getElse() || !markedUnlikely(If, Ctx))
    return false;
  const Stmt *Then = If->getThen();
  if (const auto *A = dyn_cast<AttributedStmt>(Then))
    Then = A->getSubStmt();
  const auto *CS = dyn_cast<CompoundStmt>(Then);
  return CS && CS->size() == 2 && isa<ReturnStmt>(CS->body_back()) &&
         isOneColdCall(CS->body_front());
}

/// Whether \p A and \p B return the same constant.
bool sameConstant(const Expr *A, const Expr *B, const ASTContext &Ctx) {
  Expr::EvalResult RA, RB;
  return A && B && A->EvaluateAsInt(RA, Ctx) && B->EvaluateAsInt(RB, Ctx) &&
         llvm::APSInt::isSameValue(RA.Val.getInt(), RB.Val.getInt());
}

/// \p B is in the fast-path form: the branch itself (one cold call, then
/// it leaves), or a guard whose block holds only such branches and then
/// returns what the success path returns (`if (!is_subvol) { if
/// (unlikely(...)) { btrfs_crit(...); return -EUCLEAN; } return 0; }`).
bool fastPathBranch(const FailureBranch &B, const CheckShape &Shape, const ASTContext &Ctx) {
  if (B.Negated || !B.Return)
    return false;
  if (!B.DoesMore)
    return B.Reports == 1 && fastPathIf(B.If, Ctx);
  const Stmt *Then = B.If->getThen();
  const auto *CS = dyn_cast<CompoundStmt>(Then);
  if (B.If->getElse() || !CS || CS->size() < 2 || !Shape.Success)
    return false;
  const auto *Last = dyn_cast<ReturnStmt>(CS->body_back());
  if (!Last || !sameConstant(Last->getRetValue(), Shape.Success->getRetValue(), Ctx))
    return false;
  return llvm::all_of(llvm::drop_end(CS->body()), [&](const Stmt *S) {
    const auto *Inner = dyn_cast<IfStmt>(S);
    return Inner && fastPathIf(Inner, Ctx);
  });
}

/// Already in the fast-path form the fix would write (the 2022 btrfs
/// check_setget_bounds()): one branch, unguarded, in that form. The
/// compiler keeps the call out of line and inlines the rest: nothing left
/// to move. With more branches (btrfs_check_eb_owner, fs/btrfs/
/// tree-checker.c), every one in that form, under any guards: merging
/// them would test the same conditions, and no reporting is left inline.
bool inFastPathForm(const CheckShape &Shape, const ASTContext &Ctx) {
  if (Shape.Branches.size() == 1 && !Shape.Branches.front().Guards.empty())
    return false;
  return llvm::all_of(Shape.Branches,
                      [&](const FailureBranch &B) { return fastPathBranch(B, Shape, Ctx); });
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
  HeatModel Heat = heat();
  if (explainRequested())
    explainDeclarations(Ctx);
  for (const FunctionDecl *FD : TU.definitions().Functions) {
    bool Explain = FD->getIdentifier() && explaining(FD->getName());
    if (Explain)
      explainBegin(FD->getLocation(), "a definition of function '" + FD->getName() +
                                          "'; the steps of hotpath-check-split follow");
    std::optional<CheckShape> Shape = shapeOf(FD, Explain, Ctx);
    if (!Shape)
      continue;
    // A single-branch finding needs stronger evidence than a multi-branch
    // one (DESIGN.md): small validators with one error branch are called
    // from everywhere, so one loop on the chain of calls that reaches it is
    // not enough. For every finding, call-site counts alone never are.
    HeatPolicy Policy = Shape->Branches.size() > 1
                            ? HeatPolicy{rules().Hotness.MultiBranchThreshold,
                                         "MultiBranchThreshold", /*ChainLoops=*/1}
                            : HeatPolicy{rules().Hotness.SingleBranchThreshold,
                                         "SingleBranchThreshold", /*ChainLoops=*/2};
    HeatVerdict V = Heat.function(FD, Policy);
    if (Explain)
      explainStep(FD->getLocation(), V.Why);
    if (!V.Hot)
      continue;
    // Planned only when clang-tidy may keep it (the fix is the cost).
    if (!explainRequested() && !mayBeReported(placesOf(FD, TU.callSites())))
      continue;
    Finding F = finding(FD, *Shape, V, TU);
    if (Explain)
      explainStep(F.Refused ? F.Refused->Loc : FD->getLocation(),
                  F.Refused ? "reported; no fix: " + F.Refused->text()
                            : std::string("reported, with a fix"));
    emit(std::move(F));
  }
}

std::optional<CheckShape> CheckSplitCheck::shapeOf(const FunctionDecl *FD, bool Explain,
                                                   const ASTContext &Ctx) {
  if (NotCandidate Why = candidacy(FD, Ctx.getSourceManager()); Why != NotCandidate::None) {
    if (Explain)
      explainStep(FD->getLocation(), Twine("not a candidate: ") + describe(Why));
    return std::nullopt;
  }
  // Most definitions end here, before a ShapeReader is set up; explain
  // mode reads on, for recogniseShape's reason.
  if (!Explain && !mayHaveCheckShape(FD))
    return std::nullopt;
  ShapeFailure ShapeWhy;
  // The slow path is the original body: only what the fast path
  // evaluates must be pure and exact, so failure paths may do anything.
  std::optional<CheckShape> Shape =
      recogniseShape(FD, ruleIndex(), Ctx, &ShapeWhy, FailurePaths::Anything);
  if (!Shape) {
    if (Explain)
      explainStep(ShapeWhy.Where ? ShapeWhy.Where->getBeginLoc() : FD->getLocation(),
                  "not a check function: " + describe(ShapeWhy));
    return std::nullopt;
  }
  // print_tree_block_error(fs_info, eb, err): `if (!err) return;`, then
  // the report. It tests nothing of its own: its caller found the error.
  llvm::SmallVector<const Expr *, 8> Tested;
  for (const FailureBranch &B : Shape->Branches)
    llvm::append_range(Tested, B.conditions());
  for (const SuccessExit &E : Shape->Exits)
    Tested.push_back(E.Cond);
  if (llvm::all_of(Tested, testsAnErrorParameter)) {
    if (Explain)
      explainStep(FD->getLocation(), "not a check function: every condition it tests is an "
                                     "error its caller passes in; it reports that error");
    return std::nullopt;
  }
  if (std::optional<NotACheck> W = findWorkInTests(*Shape, ruleIndex(), Ctx)) {
    if (Explain)
      explainStep(W->Effect.Where ? W->Effect.Where->getBeginLoc() : W->In->getBeginLoc(),
                  "not a check function: " + W->where() + " does work besides " +
                      (W->InSuccess ? "returning: " : "testing: ") +
                      describe(W->Effect, Ctx));
    return std::nullopt;
  }
  if (inFastPathForm(*Shape, Ctx)) {
    if (Explain)
      explainStep(FD->getLocation(),
                  "not reported: already in the fast-path form (every branch hinted "
                  "unlikely, its reporting one call to a cold function)");
    return std::nullopt;
  }
  if (Explain)
    explainStep(FD->getLocation(),
                "a check function: " + std::to_string(Shape->Branches.size()) +
                    " branch(es) that report and leave, then the success path");
  return Shape;
}

Finding CheckSplitCheck::finding(const FunctionDecl *FD, const CheckShape &Shape,
                                 const HeatVerdict &V, TUContext &TU) {
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
  F.Notes.push_back(heatNote(FD, V));
  fix(F, FD, Shape, V, TU);
  // What made it hot in other files: a patch that adds a hot call to an
  // old check makes the finding new.
  if (const index::Function *IF = TU.calls().projectFunction(FD))
    for (const index::CallSite &C : IF->Calls)
      F.Evidence.push_back({C.Loc.File, C.Loc.Line, C.Loc.Line});
  F.ProfileShare = V.Stats.ProfilePercent;
  return F;
}

void CheckSplitCheck::fix(Finding &F, const FunctionDecl *FD, const CheckShape &Shape,
                          const HeatVerdict &V, TUContext &TU) {
  auto Fact = [&](unsigned Param) -> std::optional<ParameterRange> {
    if (std::optional<ConstantParam> C = TU.calls().constantParam(FD, Param))
      return ParameterRange{C->Min, C->Max, C->ProjectWide};
    return std::nullopt;
  };
  ImplicationContext Implication{TU.ast(), FD, AssumeNoWrap, Fact};
  CheckSplitPlan Plan =
      planCheckSplit(FD, Shape, {V.Stats, rules(), ruleIndex(), Implication, TU});
  const CallExpr *Discard =
      FD->getReturnType()->isVoidType() ? nullptr : discardingCall(FD, TU.callSites());
  if (!Plan.Refused)
    Plan.Refused = refuseForBuildMode(FD, Discard, TU);
  if (!Plan.Refused) {
    FastPathEdits Edits = writeFastPath(Plan.Fix, rules(), TU.layout(), TU.ast());
    Plan.Refused = std::move(Edits.Refused);
    F.Fixes = std::move(Edits.Fixes);
  }
  bool RefusedAtDiscard = Plan.Refused && Plan.Refused->Reason == NoFixReason::LTOResultDiscarded;
  F.Refused = std::move(Plan.Refused);
  for (auto &[Loc, Text] : Plan.Notes)
    F.FixNotes.push_back({Loc, "%0", {Text}});
  // The one build mode where no fast path is as fast as the original
  // (scripts/bench-matrix.sh, samples/bounds-copy): clang -flto inlines
  // the original check into a caller that tests the bound again, and then
  // folds that second test; the fast path's call to the slow path, which
  // takes the same pointers, keeps it from doing so. Said where such a
  // call is, whatever this TU's build mode: the fix lands in source that
  // other builds compile too.
  if (Discard && !RefusedAtDiscard)
    F.FixNotes.push_back(
        {Discard->getBeginLoc(),
         "this call throws away what %0 returns, so its caller may test the same bound "
         "again: built with clang -flto, such callers were slower after the fix with every "
         "fast-path shape measured (1.076 of the original with -flto, 1.085 with PGO+LTO, "
         "on samples/bounds-copy), and there is no fix where the compile command says so; "
         "not slower in any other build mode",
         {FD}});
}

/// With clang -flto, no fix for a function callers in other files see:
/// LTO inlines the original into them at link time, and one that throws the
/// result away and tests the bound again is slower after the fix (NoFix.cpp
/// has the figures). A function of internal linkage is inlined, or not, as
/// at -O2, where the fix is measured faster.
std::optional<NoFix> CheckSplitCheck::refuseForBuildMode(const FunctionDecl *FD,
                                                         const CallExpr *Discard,
                                                         TUContext &TU) {
  const BuildMode &Mode = TU.buildMode();
  if (!Mode.clangLTO() || !FD->isExternallyVisible())
    return std::nullopt;
  std::string Name = FD->getName().str();
  if (Discard)
    return NoFix{NoFixReason::LTOResultDiscarded, Discard->getBeginLoc(), Name, "",
                 Mode.describe()};
  return NoFix{NoFixReason::LTOCallersUnseen, FD->getLocation(), Name, "", Mode.describe()};
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
