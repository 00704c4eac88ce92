//===--- HookGateCandidates.cpp - hotpath-hook-gate's hooks and hot calls -===//

#include "checks/HookGateCandidates.h"
#include "index/ShardBuilder.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace hotpath {

namespace {

bool inMainFile(const SourceManager &SM, SourceLocation L) {
  return SM.isInMainFile(SM.getExpansionLoc(L));
}

/// What every TU's run decides alike of a hook's calls, whatever the call
/// and wherever it is; none when it depends on the call. With inline
/// remarks, a hook whose every call is inlined has no call to gate. A hook
/// the rule set names needs no heat but a profile's. With a profile, the
/// hook's own share decides each call (HeatModel::callIsHot), the same in
/// every TU. A hook known from the index alone is as hot as the TU
/// defining its gate judges it (by the index's score, the same in every
/// TU), never more.
std::optional<bool> hotEverywhere(const HeatModel &Heat, const Hook &H, unsigned Threshold) {
  if (Heat.hasInlineRemarks() && !Heat.staysOutOfLine(Heat.stats(H.FD)))
    return false;
  if (H.Named && !Heat.hasProfile())
    return true;
  if (Heat.hasProfile())
    return Heat.isHot(Heat.stats(H.FD), 0) &&
           (!H.IndexHeatOnly || Heat.indexScore(H.FD) >= Threshold);
  return std::nullopt;
}

/// The heat of hook calls, all of it asked of the heat model.
bool hookCallIsHot(const HeatModel &Heat, const CallSiteIndex::Site &S, const Hook &H,
                   unsigned Threshold) {
  if (std::optional<bool> Alike = hotEverywhere(Heat, H, Threshold))
    return *Alike;
  bool Hot = Heat.callIsHot(S, H.FD, Threshold);
  if (H.IndexHeatOnly)
    Hot = Hot && Heat.indexScore(H.FD) >= Threshold;
  return Hot;
}

/// What the index knows of \p FD beyond this TU, for the hook model.
std::optional<std::string> hotCallsElsewhere(const HookGateInputs &In, const FunctionDecl *FD) {
  if (In.Heat.indexScore(FD) < In.Settings.Gate.Threshold)
    return std::nullopt;
  std::vector<index::CallSite> Sites = In.TU.calls().remoteSites(FD);
  if (Sites.empty())
    return std::nullopt;
  return ProjectCalls::displayName(Sites.front().Loc.File);
}

std::optional<RemoteHook> definedElsewhere(const HookGateInputs &In, const FunctionDecl *FD) {
  // Asked of every function the TU calls: the store answers whether one is
  // a hook without reading its record (all its call sites) for the others.
  const index::ProjectIndex *Project = In.TU.projectIndex();
  std::string USR = Project ? index::RecordMaker::usr(FD) : std::string();
  if (USR.empty() || !Project->hasHook(USR))
    return std::nullopt;
  const index::Function *F = In.TU.calls().projectFunction(FD);
  if (!F || !F->Hook || F->Definitions.empty())
    return std::nullopt;
  RemoteHook R;
  R.Shape = index::portableOf(*F->Hook);
  R.File = ProjectCalls::displayName(F->Definitions.front().Loc.File);
  for (const index::Definition &D : F->Definitions)
    R.Definitions.push_back({D.Loc.File, D.Loc.Line, D.EndLine});
  return R;
}

/// Whether the run of the TU that holds the index call site \p S edits its
/// file: the TU's own file (the caller is defined there), or a header the
/// header filter keeps (the same in every run of the project). A call in
/// another file is gated by that file's run, never by this one.
bool editedByItsRun(const HookGateInputs &In, const index::CallSite &S) {
  if (const index::Function *Caller = In.TU.projectIndex()->find(S.CallerUSR))
    if (llvm::any_of(Caller->Definitions, [&](const index::Definition &D) {
          return D.TU == S.Loc.File && D.Loc.File == S.Loc.File;
        }))
      return true;
  return In.FixesKeptInHeader(S.Loc.File);
}

/// What other translation units' runs do with the calls of \p H (defined
/// here): a fix whose parts live in several TUs (the gate defined here, the
/// gated calls there) is made only when every part is, or the gate gates
/// nothing, or is tested and never defined. The callers' runs judge each
/// call by hookCallIsHot(): what it decides alike everywhere (a name, a
/// profile) is decided here the same way; otherwise only the project index
/// shows the calls, judged by the index's heat, which is the same in every
/// TU. Issue 41: with a profile this TU asked the index's call-site score
/// instead, so a profile that made should_failslab() hot had its calls
/// gated and its gate declared, but not defined (no link).
RemoteGating remoteGating(const HookGateInputs &In, const Hook &H) {
  const index::ProjectIndex *Project = In.TU.projectIndex();
  unsigned Threshold = In.Settings.Gate.Threshold;
  std::optional<bool> Alike = hotEverywhere(In.Heat, H, Threshold);
  if (Alike && !*Alike)
    return RemoteGating::None;
  // Without an index the calls in other files are unknown; a named hook's
  // are gated by their TUs' runs (every TU knows the name), whose fixes
  // need the gate defined here.
  if (!Project)
    return H.Named && Alike ? RemoteGating::Gated : RemoteGating::None;
  if (!Alike && In.Heat.indexScore(H.FD) < Threshold)
    return RemoteGating::None;
  std::vector<index::CallSite> Sites = In.TU.calls().remoteSites(H.FD);
  std::string Self = index::RecordMaker::usr(H.FD);
  llvm::erase_if(Sites, [&](const index::CallSite &S) {
    return S.CallerUSR == Self || (!Alike && !In.Heat.indexCallIsHot(S, H.FD, Threshold));
  });
  if (Sites.empty())
    return RemoteGating::None;
  return llvm::any_of(Sites, [&](const index::CallSite &S) { return editedByItsRun(In, S); })
             ? RemoteGating::Gated
             : RemoteGating::NotGatable;
}

} // namespace

const Hook *HookRecogniser::hookFor(const FunctionDecl *FD) {
  FD = FD->getCanonicalDecl();
  if (auto It = Hooks.find(FD); It != Hooks.end())
    return &It->second;
  if (NotHooks.count(FD))
    return nullptr;
  // Named: a function_ref outlives no temporary.
  auto HotElsewhere = [&](const FunctionDecl *F) { return hotCallsElsewhere(In, F); };
  auto Elsewhere = [&](const FunctionDecl *F) { return definedElsewhere(In, F); };
  HookSources Sources{In.RuleIdx, In.Settings.NamedHooks, In.ErrorInjected, HotElsewhere,
                      Elsewhere};
  std::optional<Hook> H = recogniseHook(FD, In.TU.ast(), Sources);
  if (!H) {
    NotHooks.insert(FD);
    return nullptr;
  }
  return &Hooks.emplace(FD, std::move(*H)).first->second;
}

bool HookRecogniser::anyHook() {
  ASTContext &Ctx = In.TU.ast();
  if (llvm::any_of(In.Settings.NamedHooks, [&](const auto &Named) {
        return Ctx.Idents.find(Named.getKey()) != Ctx.Idents.end();
      }))
    return true;
  if (llvm::any_of(In.TU.definitions().Functions,
                   [&](const FunctionDecl *Def) { return hookFor(Def); }))
    return true;
  // Hooks defined elsewhere are known by their calls here.
  return In.TU.projectIndex() &&
         llvm::any_of(In.TU.callSites().sites(), [&](const CallSiteIndex::Site &S) {
           return hookFor(S.Call->getDirectCallee());
         });
}

HookCandidates findCandidates(const HookGateInputs &In, HookRecogniser &Hooks) {
  const SourceManager &SM = In.TU.sourceManager();
  HookCandidates C;
  llvm::DenseMap<const FunctionDecl *, size_t> Position; // hook -> index in C.Hooks
  for (const CallSiteIndex::Site &S : In.TU.callSites().sites()) {
    const Hook *H = Hooks.hookFor(S.Call->getDirectCallee());
    if (!H || !In.FixesKeptIn(S.Call->getBeginLoc()))
      continue;
    const FunctionDecl *Caller = S.Caller->getCanonicalDecl();
    // A caller that is a hook itself is skipped, as far as it was
    // recognised by now (anyHook stops at the first hook; earlier sites):
    // the order of the old check, kept so that findings do not move.
    if (S.Caller->hasAttr<ColdAttr>() || Hooks.known(Caller) || Caller == H->FD)
      continue;
    if (!hookCallIsHot(In.Heat, S, *H, In.Settings.Gate.Threshold))
      continue;
    auto [P, New] = Position.try_emplace(H->FD, C.Hooks.size());
    if (New)
      C.Hooks.push_back({H, {}});
    std::vector<CallerCalls> &G = C.Hooks[P->second].Callers;
    auto It = llvm::find_if(G, [&](const CallerCalls &CC) { return CC.Caller == Caller; });
    if (It == G.end()) {
      G.push_back({Caller, {}});
      It = std::prev(G.end());
      ++C.HooksPerCaller[Caller];
    }
    It->Calls.push_back(S.Call);
  }
  // Hooks defined here get their gate defined here when other TUs gate
  // their calls, though none here is hot (or none here can be gated).
  for (const FunctionDecl *Def : In.TU.definitions().Functions) {
    if (!inMainFile(SM, Def->getLocation()))
      continue;
    const Hook *H = Hooks.hookFor(Def);
    if (!H || H->hasSwitch())
      continue;
    RemoteGating E = remoteGating(In, *H);
    if (auto P = Position.find(H->FD); P != Position.end())
      C.Hooks[P->second].Elsewhere = E;
    else if (E != RemoteGating::None)
      C.Hooks.push_back({H, {}, E});
  }
  return C;
}

} // namespace hotpath
