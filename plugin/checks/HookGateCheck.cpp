//===--- HookGateCheck.cpp - hotpath-hook-gate ----------------------------===//
//
// Shapes, measured on samples/slab-alloc (callgrind, -O2, gcc 12 and
// clang 19; share of the hook's cost removed):
//   a. `gate() && hook(...)` at the call site          gcc 0.625, clang 0.125
//   b. a. with the call in a cold noinline helper      gcc 0.625, clang 0.250
//   c. the caller tests the gate on entry and tail-calls a cold clone of
//      itself that calls the hook; its own fast path has no call left
//                                                      gcc 0.625, clang 0.500
//   d. c. with a hidden gate variable (no GOT load)    gcc 0.625, clang 0.625
//   e. d. with a plain bool gate, not an atomic one    gcc 0.750, clang 0.750
// Clang keeps the stack frame that a call needs on the fast path unless the
// function has no call at all, so a clone of the caller (shape e) is the
// fastest; but it duplicates the caller's source, which every later edit
// must change twice, and the mm patch this check generalises is one line at
// the call site. So the default is shape a with a plain bool (the figures
// for both are in docs/checks/hotpath-hook-gate.md), and cloning is opt-in
// (CloneCallers). a. to d. are atomic gates; GateWriter (rewrite/Gate.h)
// says why the gate is a plain bool.
//
//===----------------------------------------------------------------------===//

#include "checks/HookGateCheck.h"
#include "checks/HookGatePlanner.h"
#include "rewrite/Edits.h"
#include "rewrite/Gate.h"
#include "rewrite/GatedCall.h"
#include "rewrite/Spelling.h"
#include "clang/AST/ASTContext.h"
#include "clang/Lex/MacroArgs.h"
#include "clang/Lex/Preprocessor.h"

using namespace clang;

namespace hotpath {

HookGateCheck::HookGateCheck(StringRef Name, tidy::ClangTidyContext *Context)
    : HotpathCheck(Name, Context) {
  OptionReader &O = options();
  RuleSet::HookGateRules &Gate = Settings.Gate;
  Gate = rules().HookGate;
  Gate.Style = O.choice<std::string>(
      "GateStyle", {{"plain", "plain"}, {"atomic", "atomic"}, {"static_key", "static_key"}},
      Gate.Style);
  Gate.Visibility = O.choice<std::string>(
      "GateVisibility", {{"hidden", "hidden"}, {"default", "default"}}, Gate.Visibility);
  Gate.Threshold = O.count("HookThreshold", Gate.Threshold);
  Gate.CloneMaxLines = O.count("CloneMaxLines", Gate.CloneMaxLines);
  Gate.CloneCallers = O.flag("CloneCallers", Gate.CloneCallers);
  Gate.NewGateWithSetters = O.flag("NewGateWithSetters", Gate.NewGateWithSetters);
  for (const RuleSet::HookFunction &H : rules().HookFunctions) {
    Settings.NamedHooks[H.Name] = H.Disabled;
    if (!H.EnabledBy.empty())
      Settings.Enablers[H.Name] = H.EnabledBy;
  }
  for (StringRef Item : O.list("HookFunctions")) {
    auto [HookName, Disabled] = Item.split('=');
    if (!HookName.trim().empty())
      Settings.NamedHooks[HookName.trim()] = Disabled.trim().str();
  }
  for (StringRef Item : O.list("HookEnablers")) {
    auto [HookName, By] = Item.split('=');
    if (HookName.trim().empty() || By.trim().empty())
      O.fail("HookEnablers", Item, "a list of 'hook=what switches it on'");
    else
      Settings.Enablers[HookName.trim()] = By.trim().str();
  }
}

namespace {
class ErrorInjectionRecorder : public compat::IncludeCallbacks {
public:
  ErrorInjectionRecorder(const std::vector<std::string> &Macros, Preprocessor &PP,
                         llvm::StringSet<> &Out)
      : Out(Out) {
    for (const std::string &M : Macros)
      this->Macros.insert(PP.getIdentifierInfo(M));
  }
  const llvm::SmallPtrSetImpl<const IdentifierInfo *> *watchedMacros() const override {
    return &Macros;
  }
  // Only the function-like expansions of Macros come here.
  void MacroExpands(const Token &Name, const MacroDefinition &, SourceRange,
                    const MacroArgs *Args) override {
    if (Args->getNumMacroArguments() == 0)
      return;
    const Token *First = Args->getUnexpArgument(0);
    if (First && First->is(tok::identifier))
      Out.insert(First->getIdentifierInfo()->getName());
  }

private:
  // Identifiers, not names: this runs on every macro expansion.
  llvm::SmallPtrSet<const IdentifierInfo *, 4> Macros;
  llvm::StringSet<> &Out;
};
} // namespace

std::unique_ptr<compat::IncludeCallbacks> HookGateCheck::ppCallbacks(const SourceManager &,
                                                                     Preprocessor &PP) {
  return std::make_unique<ErrorInjectionRecorder>(Settings.Gate.ErrorInjectionMacros, PP,
                                                  ErrorInjected);
}

void HookGateCheck::reset() { ErrorInjected.clear(); }

//===----------------------------------------------------------------------===//
// The pipeline: candidates, the gate, each caller's calls, emit.
//===----------------------------------------------------------------------===//

void HookGateCheck::run(TUContext &TU) {
  HeatModel Heat = heat();
  auto KeptIn = [this](SourceLocation L) { return fixesKeptIn(L); };
  auto KeptInHeader = [this](StringRef Path) { return fixesKeptInHeader(Path); };
  HookGateInputs In{TU, Settings, rules(), ruleIndex(), Heat, ErrorInjected, KeptIn, KeptInHeader};
  HookRecogniser Hooks(In);
  if (explainRequested())
    explainHooks(TU.ast(), Hooks);
  if (!Hooks.anyHook())
    return;
  HookCandidates C = findCandidates(In, Hooks);
  IncludeInserter Includes(TU.layout(), TU.sourceManager()); // each header once per file
  for (const HookCalls &HC : C.Hooks)
    gateHook(In, HC, C, Includes);
}

namespace {

/// The edits of a caller's plan: none when it is refused, the clone of the
/// caller, or each call gated in place.
CallEdits writeCalls(const HookGateInputs &In, const GatePlan &G, const CallPlan &P) {
  if (P.Refused)
    return {{}, P.Refused};
  TUContext &TU = In.TU;
  const SourceManager &SM = TU.sourceManager();
  Spelling Sp = spellingAt(P.Caller->getBeginLoc(), In.Rules, TU.ast().getLangOpts(),
                           TU.preprocessor(), SM, TU.includes(), TU.layout());
  std::string Unit = indentUnit(P.Caller->getLocation(), SM, TU.layout());
  if (P.Clone)
    return cloneCaller(P.Caller, P.EntryBefore, P.Test, Sp, Unit, P.Calls, G.H->Disabled,
                       TU.ast());
  CallEdits E;
  std::string Test = gateTestText(P.Test, Sp);
  for (const GatedCall &C : P.Calls)
    if (std::optional<FixItHint> F = gateCall(C, Test, G.H->Disabled, Unit, TU.ast()))
      E.Fixes.push_back(*F);
  return E;
}

} // namespace

void HookGateCheck::gateHook(const HookGateInputs &In, const HookCalls &HC,
                             const HookCandidates &C, IncludeInserter &Includes) {
  const SourceManager &SM = In.TU.sourceManager();
  GatePlan G = planGate(In, *HC.H);
  // The calls first: a new gate is made only with a call it gates, here
  // or, where the gate is defined here, in another TU's run (issue 26).
  std::vector<std::pair<CallPlan, CallEdits>> Planned;
  bool GatesHere = false;
  for (const CallerCalls &CC : HC.Callers) {
    std::optional<CallPlan> P = planCalls(In, G, CC, C.HooksPerCaller.lookup(CC.Caller));
    if (!P)
      continue;
    CallEdits E = writeCalls(In, G, *P);
    GatesHere |= !E.Refused;
    Planned.emplace_back(std::move(*P), std::move(E));
  }
  bool GatesElsewhere = HC.Elsewhere == RemoteGating::Gated;
  GateEdits Edits;
  if (G.Spec)
    Edits = writeGate(GateWriter(*G.Spec), G.Placement, In.TU.layout(), SM, Includes);
  std::vector<FixItHint> AccessorFixes;
  if (G.NewAccessor)
    AccessorFixes = writeSwitchAccessor(*G.NewAccessor, In.TU.layout(), SM);
  emitGate(G, Edits, HC, GatesHere || GatesElsewhere);
  // A gate made in this file goes with the first caller's fix; the
  // accessor is said once, at the first caller that tests it.
  std::vector<FixItHint> GateFixes = std::move(Edits.OneFile);
  bool AccessorSaid = false;
  for (auto &[P, E] : Planned) {
    bool Fixed = !E.Refused;
    if (Fixed) {
      E.Fixes.insert(E.Fixes.begin(), GateFixes.begin(), GateFixes.end());
      GateFixes.clear();
    }
    emitCalls(G, P, std::move(E));
    if (Fixed && P.ThroughAccessor && !AccessorSaid) {
      AccessorSaid = true;
      emitAccessor(G, AccessorFixes);
    }
  }
}

//===----------------------------------------------------------------------===//
// Emit.
//===----------------------------------------------------------------------===//

namespace {

/// "'hook' is a hook: <why>", at \p Loc (the hook's first declaration
/// when none).
Message hookNote(const Hook &H, SourceLocation Loc = {}) {
  return {Loc.isValid() ? Loc : H.FD->getLocation(), "%0 is a hook: %1", {H.FD, H.Why}};
}

} // namespace

void HookGateCheck::emitGate(const GatePlan &G, const GateEdits &E, const HookCalls &HC,
                             bool GatesCalls) {
  // The header part of the gate is one diagnostic at the header
  // declaration, the same in every file that needs it, so a run over
  // several files applies it once (clang-tidy merges equal diagnostics,
  // clang-apply-replacements equal replacements).
  const Hook &H = *G.H;
  if (G.Refused || (E.Declaration.empty() && E.Definition.empty()))
    return;
  if (!GatesCalls) {
    // No call of this TU is gated, and none elsewhere is known to be: the
    // gate, its setters and its declaration would cost and test nothing
    // (issue 26). Said once, where the first of them would go.
    Finding F;
    F.Subject = G.Name;
    F.Refused = NoFix{NoFixReason::GateGatesNoCall, {}, G.Name};
    if (!E.Definition.empty()) {
      F.Kind = kind::HookGateDefinition;
      F.Warning = {H.Def->getLocation(),
                   "hook %0 is called out of line even while it does nothing; define its "
                   "gate here, next to it",
                   {H.FD}};
    } else {
      F.Kind = kind::HookGateDeclaration;
      F.Warning = {G.HeaderDecl->getLocation(),
                   "hook %0 has no inline gate; declare one next to it, off by default, with "
                   "setters to switch the hook on at run time",
                   {H.FD}};
    }
    F.Notes.push_back(hookNote(H, H.Def ? H.Def->getLocation() : SourceLocation()));
    if (HC.Elsewhere == RemoteGating::NotGatable)
      F.Notes.push_back({H.FD->getLocation(),
                         "its hot calls in other files (project index) are in files no run "
                         "edits",
                         {}});
    emit(std::move(F));
    return;
  }
  bool HasHotCalls = !HC.Callers.empty();
  if (!E.Declaration.empty()) {
    Finding F;
    F.Kind = kind::HookGateDeclaration;
    F.Subject = G.Name;
    F.Warning = {G.HeaderDecl->getLocation(),
                 "hook %0 has no inline gate; declare one next to it, off by default, with "
                 "setters to switch the hook on at run time",
                 {H.FD}};
    F.Fixes = E.Declaration;
    F.Notes.push_back({HasHotCalls ? HC.Callers.front().Calls.front()->getBeginLoc()
                                   : H.Def->getLocation(),
                       HasHotCalls ? "the gate is for this hot call and the others in this file"
                                   : "the hook is defined here",
                       {}});
    emit(std::move(F));
  }
  if (!E.Definition.empty()) {
    Finding F;
    F.Kind = kind::HookGateDefinition;
    F.Subject = G.Name;
    F.Warning = {H.Def->getLocation(),
                 "hook %0 is called out of line even while it does nothing; define its gate "
                 "here, next to it",
                 {H.FD}};
    F.Fixes = E.Definition;
    F.Notes.push_back(hookNote(H, H.Def->getLocation()));
    emit(std::move(F));
  }
}

namespace {

/// The notes about a caller's fix: how it is gated, and what must switch a
/// new gate on.
std::vector<Message> fixNotes(const GatePlan &G, const CallPlan &P, unsigned CloneMaxLines) {
  std::vector<Message> Notes;
  std::string Caller = P.Caller->getName().str();
  if (P.Clone)
    Notes.push_back({P.Caller->getLocation(), "%0",
                     {"the gate is tested on entry to '" + Caller +
                      "', which tail-calls a cold copy of itself, '" + cloneName(P.Caller) +
                      "', while the hook is on, so its fast path makes no call"}});
  else if (P.NotCloned)
    Notes.push_back({P.Caller->getLocation(), "%0",
                     {"the call is gated in place: " +
                      NoFix{*P.NotCloned, {}, "", "", "", CloneMaxLines}.text() + ", so '" +
                      Caller + "' is not cloned"}});
  if (G.NewGate) {
    std::string Setter = GateWriter(*G.Spec).enabler() + "()";
    Notes.push_back({G.H->FD->getLocation(), "%0",
                     {"the new gate starts off: " +
                      (G.Enabler ? *G.Enabler + " must call " + Setter
                                 : "nothing in the program calls " + Setter +
                                       " yet; whatever switches the hook on must") +
                      ", or the hook stays quiet"}});
  }
  return Notes;
}

} // namespace

void HookGateCheck::emitCalls(const GatePlan &G, const CallPlan &P, CallEdits E) {
  const Hook &H = *G.H;
  Finding F;
  F.Kind = kind::HookCall;
  F.Subject = G.Name;
  F.Warning = {P.Calls.front().Call->getBeginLoc(),
               "hot call to hook %0, which does nothing unless switched on; test an inline "
               "gate first so the disabled case makes no call",
               {H.FD}};
  F.Refused = E.Refused;
  if (!E.Refused) {
    F.Fixes = std::move(E.Fixes);
    F.FixNotes = fixNotes(G, P, Settings.Gate.CloneMaxLines);
  }
  F.Notes.push_back(hookNote(H));
  HeatModel Heat = heat();
  CallSiteStats Stats = Heat.stats(H.FD);
  if (Heat.hasProfile() || Heat.hasInlineRemarks())
    F.Notes.push_back(heatNote(H.FD, Stats));
  // A caller hot because a hot entry point of the rule set reaches it:
  // which one, and through which calls (the call itself need not be in a
  // loop, nor the hook named hot).
  for (const CallSiteIndex::Site *S : tu().callSites().callersOf(H.FD))
    if (S->Call == P.Calls.front().Call) {
      if (std::optional<HeatChain> C = Heat.entryChainOf(*S)) {
        HeatVerdict V;
        V.ByChain = true;
        V.Chain = std::move(*C);
        F.Notes.push_back(heatNote(P.Caller, V));
      }
      break;
    }
  if (Heat.hasProfile())
    F.ProfileShare = Stats.ProfilePercent;
  if (H.GlobalGate)
    F.Notes.push_back(
        {H.GlobalGate->getBeginLoc(), "its gate is this switch, tested at the call site", {}});
  else if (!H.RemoteSwitch.empty())
    F.Notes.push_back({H.FD->getLocation(),
                       "its gate is the switch '%0' it tests in %1, tested at the call "
                       "site%select{| through %3}2",
                       {H.RemoteSwitch, H.SwitchFile, unsigned(P.ThroughAccessor),
                        G.SwitchAccessor}});
  for (const GatedCall &C : llvm::ArrayRef(P.Calls).drop_front())
    F.Notes.push_back({C.Call->getBeginLoc(), "another call to %0 in '%1', gated by the same fix",
                       {H.FD, P.Caller->getName().str()}});
  // A hook whose body the index describes: a patch to that body changes
  // the finding.
  for (const RemoteHook::Lines &D : H.DefinedElsewhere)
    F.Evidence.push_back({D.File, D.First, D.Last});
  emit(std::move(F));
}

void HookGateCheck::emitAccessor(const GatePlan &G, std::vector<FixItHint> Fixes) {
  if (Fixes.empty())
    return;
  Finding A;
  A.Kind = kind::HookSwitchAccessor;
  A.Subject = G.Name;
  A.Warning = {G.HeaderDecl->getLocation(),
               G.SwitchAccessorIsMacro
                   ? "hook %0 is declared under an #if and its switch may not exist "
                     "elsewhere; define an accessor macro for it next to the hook, 0 in the "
                     "other branches"
                   : "hook %0 tests a switch its callers cannot see; declare an inline "
                     "accessor for it next to the hook",
               {G.H->FD}};
  A.Fixes = std::move(Fixes);
  emit(std::move(A));
}

//===----------------------------------------------------------------------===//
// Explain mode.
//===----------------------------------------------------------------------===//

void HookGateCheck::explainHooks(ASTContext &Ctx, HookRecogniser &Hooks) {
  // The first declaration of the name outside system headers, and whether
  // it is a hook; why not, in the order the check decides.
  const SourceManager &SM = Ctx.getSourceManager();
  for (const Decl *D :
       Ctx.getTranslationUnitDecl()->lookup(DeclarationName(&Ctx.Idents.get(explainName())))) {
    const auto *FD = dyn_cast<FunctionDecl>(D);
    if (!FD || SM.isInSystemHeader(FD->getLocation()))
      continue;
    const FunctionDecl *Def = FD->getDefinition();
    SourceLocation Loc = (Def ? Def : FD)->getLocation();
    explainBegin(Loc, "a function '" + explainName().str() +
                          "'; the steps of hotpath-hook-gate follow");
    if (Hooks.hookFor(FD)) {
      CallSiteStats S = heat().stats(FD);
      explainStep(Loc, "a hook; each call site is gated when the hook's heat and its "
                       "caller's reach HookThreshold " +
                           std::to_string(Settings.Gate.Threshold) +
                           " and the call is in a loop or a macro-generated accessor, or "
                           "its caller is called so (the hook's: " +
                           (S.describe().empty() ? "no call site here" : S.describe()) + ")");
      return;
    }
    CallsElsewhere Elsewhere;
    Elsewhere.IndexGiven = tu().projectIndex() != nullptr;
    std::vector<index::CallSite> Remote = tu().calls().remoteSites(FD);
    Elsewhere.Sites = Remote.size();
    if (!Remote.empty())
      Elsewhere.FirstFile = ProjectCalls::displayName(Remote.front().Loc.File);
    explainStep(Loc,
                "not a hook: " + whyNotAHook(FD, Ctx, ruleIndex(), ErrorInjected, Elsewhere));
    return;
  }
}

} // namespace hotpath
