//===--- ProjectCalls.cpp - a function's calls in the whole project -------===//

#include "heat/ProjectCalls.h"
#include "index/ShardBuilder.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Path.h"

using namespace clang;

namespace hotpath {

ProjectCalls::ProjectCalls(const ASTContext &Ctx, const index::ProjectIndex *Project,
                           const CallSiteIndex &Sites)
    : Ctx(Ctx), Project(Project), Sites(Sites) {}

ProjectCalls::~ProjectCalls() = default;

const CallGraph &ProjectCalls::graph(const CallGraph::EntryPoints &Entries) const {
  std::string Key = Entries.By + "\n" + std::to_string(Entries.Score);
  for (const std::string &P : Entries.Patterns)
    Key += "\n" + P;
  std::unique_ptr<CallGraph> &G = Graphs[Key];
  if (!G)
    G = std::make_unique<CallGraph>(Project, Sites, Entries);
  return *G;
}

std::string ProjectCalls::displayName(StringRef Path) {
  return llvm::sys::path::filename(Path).str();
}

const index::Function *ProjectCalls::projectFunction(const FunctionDecl *FD) const {
  if (!Project)
    return nullptr;
  // hook-gate asks for a hook and its callers at every call site.
  auto [It, New] = Functions.try_emplace(FD->getCanonicalDecl(), nullptr);
  if (New) {
    std::string USR = index::RecordMaker::usr(FD);
    It->second = USR.empty() ? nullptr : Project->find(USR);
  }
  return It->second;
}

const std::vector<index::CallSite> &ProjectCalls::localSites(const FunctionDecl *FD) const {
  FD = FD->getCanonicalDecl();
  auto [It, New] = Local.try_emplace(FD);
  if (New) {
    // Records of this callee's sites only: making one (its location, its
    // constant arguments) costs more than finding the sites.
    if (!Records)
      Records = std::make_unique<index::RecordMaker>(Ctx);
    for (const CallSiteIndex::Site *S : Sites.callersOf(FD))
      if (!S->Caller->isDependentContext() && Records->indexedCallee(*S))
        It->second.push_back(Records->callSite(*S));
  }
  return It->second;
}

std::vector<index::CallSite> ProjectCalls::remoteSites(const FunctionDecl *FD) const {
  std::vector<index::CallSite> Out;
  const index::Function *F = projectFunction(FD);
  if (!F)
    return Out;
  // The index holds this TU's sites too (it was built from every TU):
  // those seen here count once, by their key.
  llvm::StringMap<unsigned> Here;
  for (const index::CallSite &C : localSites(FD))
    ++Here[C.key()];
  for (const index::CallSite &C : F->Calls) {
    unsigned Seen = Here.lookup(C.key());
    if (C.Count <= Seen)
      continue;
    Out.push_back(C);
    Out.back().Count = C.Count - Seen;
  }
  return Out;
}

std::optional<ConstantParam> ProjectCalls::constantParam(const FunctionDecl *FD,
                                                         unsigned Param) const {
  const index::Function *F = projectFunction(FD);
  bool AllVisible = F || !FD->isExternallyVisible();
  if (!AllVisible || Sites.addressTaken(FD) || (F && F->AddressTaken))
    return std::nullopt;
  std::optional<ConstantParam> Fact;
  auto Take = [&](const index::CallSite &C) {
    auto It = llvm::find_if(C.ConstantArgs, [&](const auto &A) { return A.first == Param; });
    if (It == C.ConstantArgs.end())
      return false;
    if (!Fact)
      Fact = ConstantParam{It->second, It->second, 0, F != nullptr};
    Fact->Min = std::min(Fact->Min, It->second);
    Fact->Max = std::max(Fact->Max, It->second);
    Fact->Sites += C.Count;
    return true;
  };
  for (const index::CallSite &C : localSites(FD))
    if (!Take(C))
      return std::nullopt;
  if (F)
    for (const index::CallSite &C : remoteSites(FD))
      if (!Take(C))
        return std::nullopt;
  return Fact;
}

CallSiteStats ProjectCalls::indexStats(const index::Function &F, const RuleIndex &Rules) const {
  CallSiteStats S;
  addElsewhere(S, F.Calls, Rules);
  return S;
}

CallSiteStats ProjectCalls::stats(const FunctionDecl *FD, const RuleIndex &Rules) const {
  CallSiteStats S = Sites.statsFor(FD, Rules);
  if (const index::Function *F = projectFunction(FD)) {
    addElsewhere(S, remoteSites(FD), Rules);
    // Taken in another file, it still names the function a rewrite changes.
    S.AddressTaken |= F->AddressTaken;
  }
  return S;
}

void ProjectCalls::addElsewhere(CallSiteStats &S, const std::vector<index::CallSite> &Calls,
                                const RuleIndex &Rules) const {
  CallSiteStats::Elsewhere &P = S.Project;
  auto AddFile = [](std::vector<std::string> &Files, std::string Name) {
    if (!llvm::is_contained(Files, Name))
      Files.push_back(std::move(Name));
  };
  for (const index::CallSite &C : Calls) {
    std::string File = displayName(C.Loc.File);
    P.Calls += C.Count;
    if (C.InLoop) {
      P.InLoops += C.Count;
      P.LoopSites.push_back(File + ":" + std::to_string(C.Loc.Line));
    }
    if (!C.Accessor.empty()) {
      P.FromMacroAccessors += C.Count;
      AddFile(P.AccessorFiles, File);
      // The accessor macro's expansions are counted: the macro no longer
      // stands in for them.
      llvm::erase_if(S.CallingMacros, [&](const std::string &M) { return M == C.Accessor; });
    }
    if (!C.InLoop && C.Accessor.empty()) {
      P.Others += C.Count;
      AddFile(P.OtherFiles, File);
    }
    if (llvm::any_of(C.Macros, [&](const std::string &M) { return Rules.AssertMacros.contains(M); }))
      P.InAssertMacros += C.Count;
  }
}

} // namespace hotpath
