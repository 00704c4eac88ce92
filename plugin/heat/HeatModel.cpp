//===--- HeatModel.cpp - how hot a function or a call is ------------------===//

#include "heat/HeatModel.h"
#include "llvm/Support/FormatVariadic.h"

using namespace clang;

namespace hotpath {

unsigned HeatModel::chainLoopsNeeded(const HeatPolicy &P) { return std::max(P.ChainLoops, 1u); }

CallGraph::EntryPoints HeatModel::entryPoints() const {
  return {Rules.HotEntryPoints, "the rule set '" + Settings.RuleSetName + "'",
          Settings.ChainHeatThreshold};
}

const CallGraph &HeatModel::graph() const { return Calls.graph(entryPoints()); }

namespace {
/// The chain of calls to judge a function by, \p Of the graph. With the
/// whole program in view the best chain is the one estimated to run most,
/// from an entry point or not. Without it, a chain is hot by its loops or
/// from an entry point, two measures no one best chain serves: the best
/// from an entry point when it is hot by it (\p EntryHot), else the best by
/// loops alone, as without entry points (a call an entry point makes behind
/// two branches hides no loop another caller puts it in).
HeatChain judgedChain(const ProjectCalls &Calls, const CallGraph::EntryPoints &Entries,
                      bool WholeProgram, llvm::function_ref<bool(const HeatChain &)> EntryHot,
                      llvm::function_ref<HeatChain(const CallGraph &)> Of) {
  HeatChain C = Of(Calls.graph(Entries));
  if (WholeProgram || Entries.Patterns.empty() || EntryHot(C))
    return C;
  return Of(Calls.graph(CallGraph::EntryPoints()));
}
} // namespace

bool HeatModel::chainIsHot(const HeatChain &C, const HeatPolicy &P) const {
  // Without the whole program in view branches are not counted for a
  // loop's chain (the loops that matter may be in callers not in view),
  // but they are for an entry point's: the chain down from it is in view.
  return wholeProgram() ? C.Score >= Settings.ChainHeatThreshold
                        : C.Loops >= chainLoopsNeeded(P) || entryChainIsHot(C);
}

bool HeatModel::entryChainIsHot(const HeatChain &C, unsigned Loops, unsigned Branches) const {
  return !C.Entry.empty() && 5 * static_cast<int>(Loops) - static_cast<int>(Branches) +
                                     C.Score >=
                                 Settings.ChainHeatThreshold;
}

std::string HeatModel::chainNeed(const HeatPolicy &P) const {
  return wholeProgram() ? "a chain of calls estimated to run 2^" +
                              std::to_string(Settings.ChainHeatThreshold) + " times"
                        : "a chain of calls with " + std::to_string(chainLoopsNeeded(P)) +
                              " loop(s) on it";
}

std::string HeatModel::chainEstimate(const HeatChain &C) const {
  // An entry point's chain is estimated in runs, with or without the whole
  // program in view (chainIsHot()).
  bool Runs = wholeProgram() || entryChainIsHot(C);
  std::string Counts = std::to_string(C.Loops) + " loop(s)" +
                       (Runs ? ", " + std::to_string(C.Branches) + " branch(es)" : "") +
                       " on the chain";
  if (!C.Entry.empty())
    Counts = (Runs ? "the hot entry point " + C.Entry + " counted as 2^" +
                         std::to_string(Settings.ChainHeatThreshold) + " runs, "
                   : "from the hot entry point " + C.Entry + ", ") +
             Counts;
  return Runs ? "2^" + std::to_string(C.Score) + " runs estimated: " + Counts : Counts;
}

unsigned HeatModel::score(const CallSiteStats &S) {
  return S.Calls - S.OncePerRun + 2 * S.InLoops + 4 * S.FromMacroAccessors + S.InAssertMacros +
         4 * static_cast<unsigned>(S.CallingMacros.size()) + (S.NamedHot ? 1000 : 0) +
         S.Project.Calls + 2 * S.Project.InLoops + 4 * S.Project.FromMacroAccessors +
         S.Project.InAssertMacros;
}

bool HeatModel::repeats(const CallSiteStats &S, bool CountLoops) {
  return (CountLoops && (S.InLoops || S.Project.InLoops)) || S.FromMacroAccessors ||
         S.InAssertMacros || !S.CallingMacros.empty() || S.NamedHot ||
         S.Project.FromMacroAccessors || S.Project.InAssertMacros;
}

CallSiteStats HeatModel::stats(const FunctionDecl *FD) const {
  CallSiteStats S = Calls.stats(FD, Rules);
  if (S.NamedHot && FD->getIdentifier())
    S.NamedHotBy = Settings.OptionHotFunctions.contains(FD->getName())
                       ? "the HotFunctions option"
                       : "the rule set '" + Settings.RuleSetName + "'";
  if (Settings.Prof && FD->getIdentifier()) {
    S.ProfilePercent = Settings.Prof->percentOf(FD->getQualifiedNameAsString(), FD->getName(),
                                                Settings.Metric);
    S.ProfileDescription =
        Settings.Prof->describe(Settings.Metric) + " in '" + Settings.Prof->name() + "'";
    if (!S.ProfilePercent)
      S.ProfilePercent = 0.0;
  }
  if (Settings.Inline && FD->getIdentifier())
    if (std::optional<InlineCount> C =
            Settings.Inline->countOf(FD->getQualifiedNameAsString(), FD->getName())) {
      S.InlineSites = C->Sites;
      S.NotInlined = C->NotInlined;
    }
  return S;
}

bool HeatModel::staysOutOfLine(const CallSiteStats &S) const {
  return !Settings.Inline || (S.InlineSites && S.NotInlined > 0);
}

bool HeatModel::isHot(const CallSiteStats &S, unsigned Threshold) const {
  // Calls the compiler inlines cost no call: nothing left to take off.
  if (!staysOutOfLine(S))
    return false;
  if (Settings.Prof)
    return Settings.ReportCold || S.NamedHot ||
           (S.ProfilePercent && *S.ProfilePercent >= Settings.ProfileThreshold);
  return score(S) > 0 && score(S) >= Threshold;
}

HeatVerdict HeatModel::function(const FunctionDecl *FD, const HeatPolicy &Policy) const {
  HeatVerdict V;
  V.Stats = stats(FD);
  // A static function called once, its address never taken, is inlined
  // into its caller at -O2 (GCC's -finline-functions-called-once, clang's
  // last-call bonus): no call is left to save. Said with the whole program
  // in view, which judges the program as its compiler builds it.
  if (wholeProgram() && !hasProfile() && !FD->isExternallyVisible() &&
      V.Stats.Calls + V.Stats.Project.Calls == 1 && !V.Stats.AddressTaken) {
    V.Why = "not hot: it is static and called once, so the compiler inlines it into its "
            "caller; no call is left to save";
    return V;
  }
  // Call-site counts alone never make a function hot. With the whole
  // program in view, loops count by the chains of calls only: a loop in a
  // function that runs once is one loop, whatever its call sites say.
  bool CountOnly = !hasProfile() && !repeats(V.Stats, !wholeProgram());
  bool Hot = isHot(V.Stats, Policy.Threshold);
  V.Hot = Hot && !CountOnly;
  if (!V.Hot && !hasProfile() && staysOutOfLine(V.Stats)) {
    // Its own call sites are not enough: the program's chains of calls.
    V.Chain = judgedChain(
        Calls, entryPoints(), wholeProgram(),
        [&](const HeatChain &C) { return entryChainIsHot(C); },
        [&](const CallGraph &G) { return G.chainOf(FD); });
    V.ByChain = V.Hot = chainIsHot(V.Chain, Policy);
  }
  if (V.ByChain)
    V.Why = "hot: " + V.Chain.text() + " (" + chainEstimate(V.Chain) +
            (wholeProgram() || entryChainIsHot(V.Chain)
                 ? "; 2^" + std::to_string(Settings.ChainHeatThreshold) + " needed"
                 : ", " + std::to_string(chainLoopsNeeded(Policy)) + " needed") +
            ")";
  else
    V.Why = CountOnly && Hot
                ? "not hot: call sites alone never make a function hot; it needs " +
                      std::string(wholeProgram() ? "a call " : "a call in a loop, ") +
                      "from a macro-generated accessor or in an assert-like macro, " +
                      chainNeed(Policy) +
                      (wholeProgram() ? " (the best: " + chainEstimate(V.Chain) +
                                            "; the project index shows every caller)"
                                      : "") +
                      ", a profile, or a name in HotFunctions or the rule set (" +
                      V.Stats.describe() + ")"
                : describe(V.Stats, Policy.Threshold, Policy.ThresholdOption);
  return V;
}

unsigned HeatModel::indexScore(const FunctionDecl *FD) const {
  const index::Function *F = Calls.projectFunction(FD);
  return F ? score(Calls.indexStats(*F, Rules)) : 0;
}

bool HeatModel::callIsHot(const CallSiteIndex::Site &Site, const FunctionDecl *Hook,
                          unsigned Threshold) const {
  return siteIsHot({Site.Cold, Site.InAccessor, Site.Loops, Site.Branches}, Hook,
                   [&] { return stats(Site.Caller); },
                   [&] {
                     return judgedChain(
                         Calls, entryPoints(), wholeProgram(),
                         [&](const HeatChain &C) {
                           return entryChainIsHot(C, Site.Loops, Site.Branches);
                         },
                         [&](const CallGraph &G) { return G.chainOf(Site.Caller); });
                   },
                   Threshold);
}

bool HeatModel::indexCallIsHot(const index::CallSite &Site, const FunctionDecl *Hook,
                               unsigned Threshold) const {
  const index::ProjectIndex *P = Calls.projectIndex();
  const index::Function *Caller = P ? P->find(Site.CallerUSR) : nullptr;
  return siteIsHot(
      {Site.Cold, !Site.Accessor.empty(), Site.Loops, Site.Branches}, Hook,
      [&] { return Caller ? Calls.indexStats(*Caller, Rules) : CallSiteStats(); },
      [&] { return graph().chainOfIndexed(Site.CallerUSR); }, Threshold);
}

bool HeatModel::siteIsHot(const SiteFacts &Site, const FunctionDecl *Hook,
                          llvm::function_ref<CallSiteStats()> CallerStats,
                          llvm::function_ref<HeatChain()> CallerChain,
                          unsigned Threshold) const {
  CallSiteStats HS = stats(Hook);
  // With a profile, the hook's own share: what gating its call takes off is
  // the call, which the profile counts in the hook. Its caller's share says
  // nothing of how often it calls: libarchive's tar reader, 0.5% of a
  // listing, calls a shim returning 0 once per header (0.0%).
  if (hasProfile())
    return isHot(HS, 0);
  if (Site.Cold)
    return false;
  CallSiteStats CS = CallerStats();
  bool Evidence = score(HS) + score(CS) >= Threshold;
  if (Evidence && (Site.InAccessor || repeats(CS, !wholeProgram())))
    return true;
  // The loops (and branches) around the call and on the chains of calls
  // to its caller. A chain from a hot entry point is evidence enough, as a
  // name is: an allocator's hook has one caller, inline, called by a few
  // allocators that everything calls. Its branches count in every mode.
  HeatChain C = CallerChain();
  if (entryChainIsHot(C, Site.Loops, Site.Branches))
    return true;
  if (!Evidence)
    return false;
  if (!wholeProgram())
    return Site.Loops + C.Loops > 0;
  return 5 * static_cast<int>(Site.Loops) - static_cast<int>(Site.Branches) + C.Score >=
         Settings.ChainHeatThreshold;
}

std::optional<HeatChain> HeatModel::entryChainOf(const CallSiteIndex::Site &Site) const {
  if (Site.Cold || hasProfile())
    return std::nullopt;
  HeatChain C = graph().chainOf(Site.Caller);
  if (!entryChainIsHot(C, Site.Loops, Site.Branches))
    return std::nullopt;
  return C;
}

std::string HeatModel::describe(const CallSiteStats &S, unsigned Threshold,
                                StringRef ThresholdOption) const {
  std::string Evidence = S.describe();
  if (Evidence.empty())
    Evidence = "no call site in this translation unit";
  if (!staysOutOfLine(S))
    return "not hot: the inline remarks show no call to it left out of line (" + Evidence +
           ")";
  bool Hot = isHot(S, Threshold);
  if (Settings.Prof) {
    std::string Share = S.ProfilePercent ? llvm::formatv("{0:f1}%", *S.ProfilePercent).str()
                                         : std::string("no sample");
    if (S.NamedHot)
      return "hot: " + Evidence;
    if (Settings.ReportCold)
      return "reported whatever its heat (ReportColdFunctions): " + Evidence;
    return std::string(Hot ? "hot" : "not hot") + ": " + Share + " of " +
           S.ProfileDescription + ", against ProfileThreshold " +
           llvm::formatv("{0}", Settings.ProfileThreshold).str() + "%";
  }
  return std::string(Hot ? "hot" : "not hot") + ": heat score " + std::to_string(score(S)) +
         " (" + Evidence + ") against " + ThresholdOption.str() + " " +
         std::to_string(Threshold) +
         "; a call site scores 1, in a loop 2 more, from a macro-generated accessor 4 "
         "more, in an assert-like macro 1 more";
}

} // namespace hotpath
