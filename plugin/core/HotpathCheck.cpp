//===--- HotpathCheck.cpp - base of the hotpath checks --------------------===//

#include "core/HotpathCheck.h"
#include "source/FindingExtent.h"
#include "index/ShardBuilder.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/FormatVariadic.h"
#include <map>

using namespace clang;
using namespace clang::ast_matchers;

namespace hotpath {

namespace {
/// Live shared indexes, by TU context and by the assert macros they count
/// (the only rule the index depends on). Checks are created per TU, so an
/// entry expires when that TU's checks are destroyed.
using IndexKey = std::pair<const tidy::ClangTidyContext *, std::string>;
std::map<IndexKey, std::weak_ptr<SharedTUIndex>> &liveIndexes() {
  static std::map<IndexKey, std::weak_ptr<SharedTUIndex>> Live;
  return Live;
}
std::string &explainFromCommandLine() {
  static std::string Name;
  return Name;
}
} // namespace

void setExplainFromCommandLine(StringRef Name) { explainFromCommandLine() = Name.str(); }

HotpathCheck::HotpathCheck(StringRef Name, tidy::ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context), TidyContext(Context), CheckName(Name.str()),
      // The options every hotpath check reads: one `RuleSet: linux-kernel`
      // in CheckOptions sets all three, `hotpath-<check>.RuleSet` one of
      // them (it wins over the global key given at the same or a lower
      // level of .clang-tidy files, as for clang-tidy's own global options).
      RuleSetName(Options.getLocalOrGlobal("RuleSet", "generic-gnu-c")),
      HotFunctionsOption(Options.getLocalOrGlobal("HotFunctions", "")),
      ProfilePath(Options.getLocalOrGlobal("Profile", "")),
      ProfileThresholdOption(Options.getLocalOrGlobal("ProfileThreshold", "0.5")),
      ProfileMetricOption(Options.getLocalOrGlobal("ProfileMetric", "self")),
      ReportColdOption(Options.getLocalOrGlobal("ReportColdFunctions", "false")),
      InlineRemarksPath(Options.getLocalOrGlobal("InlineRemarks", "")),
      // The command line's --explain wins over a configuration file's.
      ExplainName(explainFromCommandLine().empty()
                      ? Options.getLocalOrGlobal("Explain", "")
                      : explainFromCommandLine()),
      ProjectIndexPath(Options.getLocalOrGlobal("ProjectIndex", "")) {
  llvm::Expected<RuleSet> Loaded = loadRuleSet(RuleSetName);
  if (!Loaded) {
    ConfigError = llvm::toString(Loaded.takeError());
    return;
  }
  Rules = std::move(*Loaded);
  llvm::SmallVector<StringRef, 8> Hot;
  StringRef(HotFunctionsOption).split(Hot, ';', -1, /*KeepEmpty=*/false);
  for (StringRef H : Hot) {
    Rules.HotFunctions.push_back(H.trim().str());
    OptionHotFunctions.insert(H.trim());
  }
  Rules.Hotness.MultiBranchThreshold =
      Options.get("MultiBranchThreshold", Rules.Hotness.MultiBranchThreshold);
  Rules.Hotness.SingleBranchThreshold =
      Options.get("SingleBranchThreshold", Rules.Hotness.SingleBranchThreshold);
  Rules.Spellings.ReportSuffix = Options.get("ReportSuffix", Rules.Spellings.ReportSuffix);
  Index = std::make_unique<RuleIndex>(Rules);

  if (StringRef(ProfileThresholdOption).getAsDouble(ProfileThreshold) ||
      ProfileThreshold < 0 || ProfileThreshold > 100) {
    ConfigError = "ProfileThreshold '" + ProfileThresholdOption +
                  "' is not a percentage between 0 and 100";
    return;
  }
  // Booleans are read as text: the OptionsView::get<bool> specialisation is
  // not exported to plugins by Debian's clang-tidy.
  if (ReportColdOption != "true" && ReportColdOption != "false") {
    ConfigError = "ReportColdFunctions '" + ReportColdOption + "' is not 'true' or 'false'";
    return;
  }
  ReportColdFunctions = ReportColdOption == "true";
  if (ProfileMetricOption != "self" && ProfileMetricOption != "inclusive") {
    ConfigError = "ProfileMetric '" + ProfileMetricOption + "' is not 'self' or 'inclusive'";
    return;
  }
  ProfileMetric = ProfileMetricOption == "self" ? Profile::Metric::Self
                                                : Profile::Metric::Inclusive;
  if (!ProfilePath.empty()) {
    llvm::Expected<Profile> Loaded = Profile::load(ProfilePath);
    if (!Loaded) {
      ConfigError = llvm::toString(Loaded.takeError());
      return;
    }
    Prof = std::move(*Loaded);
  }
  if (!InlineRemarksPath.empty()) {
    llvm::Expected<InlineRemarks> Loaded = InlineRemarks::load(InlineRemarksPath);
    if (!Loaded) {
      ConfigError = llvm::toString(Loaded.takeError());
      return;
    }
    Inline = std::move(*Loaded);
  }
  if (!ProjectIndexPath.empty()) {
    // Loaded once per process: clang-tidy makes the checks anew for every
    // TU, and a run over many files would parse the index for each.
    auto Loaded = index::ProjectIndex::loadCached(ProjectIndexPath);
    if (!Loaded) {
      ConfigError = "ProjectIndex: " + llvm::toString(Loaded.takeError());
      return;
    }
    Project = std::move(*Loaded);
  }
  attachSharedIndex(Context);
}

void HotpathCheck::attachSharedIndex(tidy::ClangTidyContext *Context) {
  std::string Key;
  for (const std::string &M : Rules.AssertMacros)
    Key += M + ";";
  std::weak_ptr<SharedTUIndex> &Slot = liveIndexes()[{Context, Key}];
  Shared = Slot.lock();
  if (!Shared) {
    Shared = std::make_shared<SharedTUIndex>();
    Slot = Shared;
    OwnsIndex = true;
  }
  ++Shared->Attached;
}

DiagnosticBuilder HotpathCheck::diag(SourceLocation Loc, StringRef Description,
                                    DiagnosticIDs::Level Level) {
  DiagnosticBuilder D = ClangTidyCheck::diag(Loc, Description, Level);
  if (Level != DiagnosticIDs::Note && Ctx && findingExtentsRequested())
    for (const CharSourceRange &R : findingExtent(Loc, *Ctx))
      D << R;
  return D;
}

std::string HotpathCheck::displayName(StringRef Path) {
  return llvm::sys::path::filename(Path).str();
}

const index::Function *HotpathCheck::projectFunction(const FunctionDecl *FD) const {
  if (!Project)
    return nullptr;
  // hook-gate asks for a hook and its callers at every call site.
  auto [It, New] = Shared->ProjectFunctions.try_emplace(FD->getCanonicalDecl(), nullptr);
  if (New) {
    std::string USR = index::RecordMaker::usr(FD);
    It->second = USR.empty() ? nullptr : Project->find(USR);
  }
  return It->second;
}

const std::vector<index::CallSite> &HotpathCheck::localSites(const FunctionDecl *FD) const {
  const CallSiteIndex &Sites = callSites();
  FD = FD->getCanonicalDecl();
  auto [It, New] = Shared->LocalSites.try_emplace(FD);
  if (New) {
    // Records of this callee's sites only: making one (its location, its
    // constant arguments) costs more than finding the sites.
    if (!Shared->Records)
      Shared->Records = std::make_shared<index::RecordMaker>(*Ctx);
    for (const CallSiteIndex::Site &S : Sites.sites())
      if (const FunctionDecl *Callee = S.Call->getDirectCallee();
          Callee && Callee->getCanonicalDecl() == FD && !S.Caller->isDependentContext() &&
          Shared->Records->indexedCallee(S))
        It->second.push_back(Shared->Records->callSite(S));
  }
  return It->second;
}

std::vector<index::CallSite> HotpathCheck::remoteSites(const FunctionDecl *FD) const {
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

std::optional<ConstantParam>
HotpathCheck::constantParam(const FunctionDecl *FD, unsigned Param) const {
  const index::Function *F = projectFunction(FD);
  bool AllVisible = F || !FD->isExternallyVisible();
  if (!AllVisible || callSites().statsFor(FD, *Index).AddressTaken || (F && F->AddressTaken))
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

CallSiteStats HotpathCheck::indexHeat(const index::Function &F) const {
  CallSiteStats S;
  addElsewhere(S, F.Calls);
  return S;
}

void HotpathCheck::addElsewhere(CallSiteStats &S, const std::vector<index::CallSite> &Sites) const {
  CallSiteStats::Elsewhere &P = S.Project;
  auto AddFile = [](std::vector<std::string> &Files, std::string Name) {
    if (!llvm::is_contained(Files, Name))
      Files.push_back(std::move(Name));
  };
  for (const index::CallSite &C : Sites) {
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
    if (llvm::any_of(C.Macros, [&](const std::string &M) { return Index->AssertMacros.contains(M); }))
      P.InAssertMacros += C.Count;
  }
}

CallSiteStats HotpathCheck::heatOf(const FunctionDecl *FD) const {
  CallSiteStats S = callSites().statsFor(FD, *Index);
  if (const index::Function *F = projectFunction(FD)) {
    addElsewhere(S, remoteSites(FD));
    // Taken in another file, it still names the function a rewrite changes.
    S.AddressTaken |= F->AddressTaken;
  }
  if (S.NamedHot && FD->getIdentifier())
    S.NamedHotBy = OptionHotFunctions.contains(FD->getName())
                       ? "the HotFunctions option"
                       : "the rule set '" + (Rules.Name.empty() ? RuleSetName : Rules.Name) + "'";
  if (Prof && FD->getIdentifier()) {
    S.ProfilePercent =
        Prof->percentOf(FD->getQualifiedNameAsString(), FD->getName(), ProfileMetric);
    S.ProfileDescription = std::string(ProfileMetric == Profile::Metric::Self
                                           ? "self samples"
                                           : "samples (inclusive)") +
                           " in '" + Prof->name() + "'";
    if (!S.ProfilePercent)
      S.ProfilePercent = 0.0;
  }
  if (Inline && FD->getIdentifier())
    if (std::optional<InlineCount> C =
            Inline->countOf(FD->getQualifiedNameAsString(), FD->getName())) {
      S.InlineSites = C->Sites;
      S.NotInlined = C->NotInlined;
    }
  return S;
}

bool HotpathCheck::staysOutOfLine(const CallSiteStats &S) const {
  return !Inline || (S.InlineSites && S.NotInlined > 0);
}

bool HotpathCheck::isHot(const CallSiteStats &S, unsigned Threshold) const {
  // Calls the compiler inlines cost no call: nothing left to take off.
  if (!staysOutOfLine(S))
    return false;
  if (Prof)
    return ReportColdFunctions || S.NamedHot ||
           (S.ProfilePercent && *S.ProfilePercent >= ProfileThreshold);
  return S.score() > 0 && S.score() >= Threshold;
}

std::string HotpathCheck::describeHeat(const CallSiteStats &S, unsigned Threshold,
                                       StringRef ThresholdOption) const {
  std::string Evidence = S.describe();
  if (Evidence.empty())
    Evidence = "no call site in this translation unit";
  if (!staysOutOfLine(S))
    return "not hot: the inline remarks show no call to it left out of line (" + Evidence +
           ")";
  bool Hot = isHot(S, Threshold);
  if (Prof) {
    std::string Share = S.ProfilePercent ? llvm::formatv("{0:f1}%", *S.ProfilePercent).str()
                                         : std::string("no sample");
    if (S.NamedHot)
      return "hot: " + Evidence;
    if (ReportColdFunctions)
      return "reported whatever its heat (ReportColdFunctions): " + Evidence;
    return std::string(Hot ? "hot" : "not hot") + ": " + Share + " of " +
           S.ProfileDescription + ", against ProfileThreshold " +
           llvm::formatv("{0}", ProfileThreshold).str() + "%";
  }
  return std::string(Hot ? "hot" : "not hot") + ": heat score " + std::to_string(S.score()) +
         " (" + Evidence + ") against " + ThresholdOption.str() + " " +
         std::to_string(Threshold) +
         "; a call site scores 1, in a loop 2 more, from a macro-generated accessor 4 "
         "more, in an assert-like macro 1 more";
}

// Steps are about code as written where it is expanded: a location in a
// macro would add clang's "expanded from macro" notes to the story.
void HotpathCheck::explainBegin(SourceLocation Loc, const Twine &What) {
  Shared->ExplainFound = true;
  ClangTidyCheck::diag(Ctx->getSourceManager().getExpansionLoc(Loc), "explain '%0': %1",
                       DiagnosticIDs::Remark)
      << ExplainName << What.str();
}

void HotpathCheck::explainStep(SourceLocation Loc, const Twine &Text) {
  ClangTidyCheck::diag(Ctx->getSourceManager().getExpansionLoc(Loc), "%0",
                       DiagnosticIDs::Note)
      << Text.str();
}

void HotpathCheck::storeOptions(tidy::ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "RuleSet", RuleSetName);
  Options.store(Opts, "HotFunctions", HotFunctionsOption);
  Options.store(Opts, "Profile", ProfilePath);
  Options.store(Opts, "ProfileThreshold", ProfileThresholdOption);
  Options.store(Opts, "ProfileMetric", ProfileMetricOption);
  Options.store(Opts, "ReportColdFunctions", ReportColdOption);
  Options.store(Opts, "InlineRemarks", InlineRemarksPath);
  Options.store(Opts, "ProjectIndex", ProjectIndexPath);
  Options.store(Opts, "Explain", ExplainName);
  Options.store(Opts, "MultiBranchThreshold", Rules.Hotness.MultiBranchThreshold);
  Options.store(Opts, "SingleBranchThreshold", Rules.Hotness.SingleBranchThreshold);
  Options.store(Opts, "ReportSuffix", Rules.Spellings.ReportSuffix);
}

void HotpathCheck::warnUnknownOptions() {
  // The keys this check knows are the ones it stores: one list, kept by
  // storeOptions(), which `clang-tidy --dump-config` shows as well.
  tidy::ClangTidyOptions::OptionMap Known;
  storeOptions(Known);
  // Keys of no hotpath check at all ("hotpath-chek-split.RuleSet",
  // "hotpath.RuleSet") are reported once, by the first enabled check.
  static const char *const CheckNames[] = {"hotpath-check-split", "hotpath-hook-gate",
                                           "hotpath-noop-assert"};
  StringRef Reporter;
  for (const char *N : CheckNames)
    if (Reporter.empty() && TidyContext->isCheckEnabled(N))
      Reporter = N;
  for (const auto &KV : TidyContext->getOptions().CheckOptions) {
    StringRef Key = KV.getKey();
    if (!Key.starts_with("hotpath"))
      continue;
    auto [Check, Option] = Key.split('.');
    if (Check == CheckName) {
      if (Known.count(Key))
        continue;
      std::string Nearest;
      unsigned Best = 3; // at most two edits away, or no suggestion
      for (const auto &K : Known) {
        StringRef Name = StringRef(K.getKey()).split('.').second;
        unsigned D = Option.edit_distance(Name, /*AllowReplacements=*/true, Best);
        if (D < Best) {
          Best = D;
          Nearest = Name.str();
        }
      }
      configurationDiag("unknown option '%0' is ignored: %1 has no option '%2'%3",
                        DiagnosticIDs::Warning)
          << Key << CheckName << Option
          << (Nearest.empty() ? "" : " (did you mean '" + Nearest + "'?)");
    } else if (CheckName == Reporter && !llvm::is_contained(CheckNames, Check)) {
      configurationDiag("unknown option '%0' is ignored: there is no check '%1'; an option "
                        "for every hotpath check has no prefix ('%2'), one for a single "
                        "check has its name ('hotpath-check-split.%2')",
                        DiagnosticIDs::Warning)
          << Key << Check << (Option.empty() ? Key : Option);
    }
  }
}

void HotpathCheck::registerMatchers(MatchFinder *Finder) {
  warnUnknownOptions();
  if (!ConfigError.empty()) {
    // A broken rule set is an error, never a silent fallback to defaults.
    configurationDiag("%0: %1", clang::DiagnosticIDs::Error) << CheckName << ConfigError;
    return;
  }
  // The only matcher: it hands over the ASTContext. Everything else walks
  // the definitions once (SharedTUIndex), which costs a fraction of matching
  // every declaration of the TU against a pattern.
  Finder->addMatcher(translationUnitDecl(), this);
}

void HotpathCheck::registerPPCallbacks(const SourceManager &SM, Preprocessor *PP,
                                       Preprocessor *) {
  this->PP = PP;
  if (ConfigError.empty()) {
    if (OwnsIndex) {
      PP->addPPCallbacks(makePreprocessorRecorder(Shared->CallSites, Shared->Includes, SM));
      Shared->Layout.clear();
      PP->addPPCallbacks(Shared->Layout.makeRecorder(SM));
    }
    registerCheckPPCallbacks(SM, PP);
  }
}

void HotpathCheck::check(const MatchFinder::MatchResult &Result) {
  Ctx = Result.Context;
}

const TUDefinitions &HotpathCheck::definitions() const {
  assert(Ctx && "definitions asked for before the TU was seen");
  // Checks, and so the shared index, live for one TU; should a driver ever
  // keep them for the next, never hand out pointers into a freed AST.
  if (Shared->Definitions && Shared->DefinitionsOf != Ctx) {
    Shared->Definitions.reset();
    Shared->CallSites.clear(); // keyed by declarations of that AST
    Shared->BodiesIndexed = false;
    Shared->LocalSites.clear();
    Shared->ProjectFunctions.clear();
    Shared->Records.reset();
  }
  if (!Shared->Definitions) {
    Shared->Definitions = collectDefinitions(*Ctx);
    Shared->DefinitionsOf = Ctx;
  }
  return *Shared->Definitions;
}

const CallSiteIndex &HotpathCheck::callSites() const {
  if (!Shared->BodiesIndexed) {
    Shared->CallSites.indexDefinitions(definitions(), *Ctx, *Index);
    Shared->BodiesIndexed = true;
  }
  return Shared->CallSites;
}

void HotpathCheck::onEndOfTranslationUnit() {
  if (Ctx && ConfigError.empty()) {
    reportFindings(*Ctx);
    if (++Shared->Finished == Shared->Attached) {
      if (!ExplainName.empty() && !Shared->ExplainFound)
        ClangTidyCheck::diag("explain '%0': no function or macro of that name is defined "
                             "or declared in this translation unit",
                             DiagnosticIDs::Remark)
            << ExplainName;
      Shared->Finished = 0;
      Shared->ExplainFound = false;
    }
  }
  // The shared index is left alone: other checks of this TU may still read
  // it, and it goes away with them.
  reset();
  Ctx = nullptr;
}

} // namespace hotpath
