//===--- HeatModel.h - how hot a function or a call is ----------*- C++ -*-===//
//
// The one place heat is decided. Evidence comes from the call sites of the
// whole project (ProjectCalls.h), names in the options or the rule set, a
// profile (Profile.h) and the compiler's inline remarks (InlineRemarks.h);
// each check states what it needs as a HeatPolicy and asks here. Notes and
// explain mode say the evidence and the verdict in words made here too.
//
//===----------------------------------------------------------------------===//

#ifndef HOTPATH_TIDY_HEAT_HEATMODEL_H
#define HOTPATH_TIDY_HEAT_HEATMODEL_H

#include "heat/InlineRemarks.h"
#include "heat/Profile.h"
#include "heat/ProjectCalls.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include <optional>
#include <string>

namespace hotpath {

/// What the options say about heat, read once per check.
struct HeatSettings {
  std::optional<Profile> Prof;
  Profile::Metric Metric = Profile::Metric::Removable;
  double ProfileThreshold = 0.5;
  /// With the whole program in view, the estimate a chain of calls must
  /// reach, as a power of two of runs per program run (CallGraph.h): a
  /// million runs, at which a check's few instructions of call overhead
  /// come to a percent of a run of a billion instructions. check_nsec()
  /// in xfs_repair scores 23 (5 loops, 2 branches); btrfs check's repair
  /// calls and e2fsck's fix_problem() chains score 14-19.
  static constexpr unsigned DefaultChainHeatThreshold = 20;
  int ChainHeatThreshold = DefaultChainHeatThreshold;
  /// With a profile, report whatever the profile says (ReportColdFunctions).
  bool ReportCold = false;
  std::optional<InlineRemarks> Inline;
  /// Named hot by the HotFunctions option (the rule set's are in RuleIndex).
  llvm::StringSet<> OptionHotFunctions;
  std::string RuleSetName; // for "named hot by the rule set '...'"
};

/// How much evidence a kind of finding needs: each check's policy, as data.
struct HeatPolicy {
  /// The heat score to reach without a profile, and the option that sets it.
  /// A score is never enough alone: some call must also repeat (in a loop,
  /// from an accessor or an assert, a macro, a name). Thirty-four call sites
  /// of a once-per-command validator run once per command.
  unsigned Threshold = 0;
  llvm::StringRef ThresholdOption;
  /// Or: this many loops on some chain of calls that reaches it
  /// (CallGraph.h), wherever in the program they are. Small validators with
  /// one error branch are called from everywhere: they ask for 2.
  unsigned ChainLoops = 1;
};

/// The decision on one function, with its evidence and the words for it.
struct HeatVerdict {
  CallSiteStats Stats;
  /// The chain of calls that puts it under the most loops.
  HeatChain Chain;
  bool Hot = false;
  /// Hot by the chain of calls, not by its own call sites: the notes say
  /// the chain.
  bool ByChain = false;
  /// "hot: heat score 12 (...) against MultiBranchThreshold 3; ...", for
  /// explain mode.
  std::string Why;
};

class HeatModel {
public:
  HeatModel(const HeatSettings &Settings, const ProjectCalls &Calls, const RuleIndex &Rules)
      : Settings(Settings), Calls(Calls), Rules(Rules) {}

  /// The evidence for \p FD: its call sites here and elsewhere, a name, its
  /// share of the profile, the inline remarks' count of its calls.
  CallSiteStats stats(const clang::FunctionDecl *FD) const;
  /// \p FD judged by \p Policy.
  HeatVerdict function(const clang::FunctionDecl *FD, const HeatPolicy &Policy) const;
  /// Whether the call \p Site to the hook \p Hook is hot: with a profile,
  /// the hook takes enough samples; without one, hook and
  /// caller together reach \p Threshold and the call is in a loop or an
  /// accessor, or some chain of calls to its caller has a loop on it.
  /// btrfs-progs' fmt_print_start_group(), called once per command, met a
  /// threshold of 2 on call counts alone (docs/precision.md).
  bool callIsHot(const CallSiteIndex::Site &Site, const clang::FunctionDecl *Hook,
                 unsigned Threshold) const;
  /// callIsHot() for a call site the project index holds, in a TU not at
  /// hand: what the TU that defines a hook's gate asks of the calls other
  /// TUs gate, judged as those TUs judge them.
  bool indexCallIsHot(const index::CallSite &Site, const clang::FunctionDecl *Hook,
                      unsigned Threshold) const;
  /// The chain of calls from a hot entry point (RuleSet::HotEntryPoints)
  /// to the caller of \p Site, when it makes the call hot by itself
  /// (entryChainIsHot()): what a note about the call says. None when no
  /// chain from an entry point reaches the caller, or the branches on it
  /// and at the call are not paid for.
  std::optional<HeatChain> entryChainOf(const CallSiteIndex::Site &Site) const;
  /// The heat score of \p FD from every call site the project index holds:
  /// the same in every TU (0 without an index).
  unsigned indexScore(const clang::FunctionDecl *FD) const;

  bool hasProfile() const { return Settings.Prof.has_value(); }
  bool hasInlineRemarks() const { return Settings.Inline.has_value(); }
  /// False only when inline remarks are given and show no call to the
  /// function left out of line (all inlined, or no call compiled at all).
  bool staysOutOfLine(const CallSiteStats &S) const;
  /// Hot enough to report: with a profile, its share of samples reaches
  /// ProfileThreshold (or ReportColdFunctions asks for all); without one,
  /// the call-site score reaches \p Threshold.
  bool isHot(const CallSiteStats &S, unsigned Threshold) const;
  /// The decision in words: the evidence, what it is weighed against
  /// (\p Threshold, named \p ThresholdOption), and the outcome.
  std::string describe(const CallSiteStats &S, unsigned Threshold,
                       llvm::StringRef ThresholdOption) const;

  /// A call site scores 1, in a loop 2 more, from a macro-generated
  /// accessor 4 more, in an assert-like macro 1 more; a name 1000.
  static unsigned score(const CallSiteStats &S);
  /// Heat beyond a count of plain call sites: a call in a loop, from a
  /// macro-generated accessor or inside an assert-like macro (here or
  /// elsewhere in the project), a macro calling it, or a name in the options
  /// or rule set. Thirty-four calls at the top of debugfs' command handlers
  /// (e2fsprogs' check_fs_open) run once per typed command: many call sites
  /// alone do not make a validator hot.
  /// \p CountLoops: whether a call in a loop counts (not with the whole
  /// program in view, where the chains of calls count loops).
  static bool repeats(const CallSiteStats &S, bool CountLoops = true);
  /// The loops a chain of calls needs to make a function hot by \p P,
  /// without the whole program in view.
  static unsigned chainLoopsNeeded(const HeatPolicy &P);
  /// Whether \p C makes a function hot by \p P. A chain from a hot entry
  /// point (RuleSet::HotEntryPoints) counts the entry point as running as
  /// often as the threshold asks, with or without the whole program in
  /// view: the branches below it must be paid for by loops
  /// (entryChainIsHot()).
  bool chainIsHot(const HeatChain &C, const HeatPolicy &P) const;
  /// Whether \p C starts at a hot entry point and, with \p Loops more loops
  /// and \p Branches more branches (those around a call in the last
  /// function), still reaches ChainHeatThreshold. The whole chain from the
  /// entry point down is in view, so its branches count even without the
  /// project index: a call the entry point makes only on some path (a slow
  /// path, a debug option) is not hot by it.
  bool entryChainIsHot(const HeatChain &C, unsigned Loops = 0, unsigned Branches = 0) const;
  /// "a chain of calls estimated to run 2^20 times", "a chain of calls
  /// with 2 loop(s) on it".
  std::string chainNeed(const HeatPolicy &P) const;
  /// "2^23 runs estimated: 5 loop(s), 2 branch(es) on the chain"; "2^20
  /// runs estimated: the hot entry point kmem_cache_alloc counted as 2^20
  /// runs, 0 loop(s), 0 branch(es) on the chain".
  std::string chainEstimate(const HeatChain &C) const;
  /// Whether the project index shows the whole program, every caller of a
  /// function: then one loop in a function that runs once is one loop, and
  /// heat needs two on some chain of calls (an estimate of how often the
  /// function runs, not of how its call sites look). Without it, a
  /// function's callers are unknown and one loop around a call counts.
  bool wholeProgram() const { return Calls.projectIndex() != nullptr; }

  /// The rule set's hot entry points, as the call graph takes them.
  CallGraph::EntryPoints entryPoints() const;

private:
  /// The program's call graph, with the rule set's hot entry points.
  const CallGraph &graph() const;
  /// What callIsHot() reads of a call site.
  struct SiteFacts {
    bool Cold, InAccessor;
    unsigned Loops, Branches;
  };
  bool siteIsHot(const SiteFacts &Site, const clang::FunctionDecl *Hook,
                 llvm::function_ref<CallSiteStats()> CallerStats,
                 llvm::function_ref<HeatChain()> CallerChain, unsigned Threshold) const;

  const HeatSettings &Settings;
  const ProjectCalls &Calls;
  const RuleIndex &Rules;
};

} // namespace hotpath

#endif // HOTPATH_TIDY_HEAT_HEATMODEL_H
