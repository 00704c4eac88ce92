//===--- HotpathCheck.cpp - base of the hotpath checks --------------------===//

#include "HotpathCheck.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Preprocessor.h"
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
} // namespace

HotpathCheck::HotpathCheck(StringRef Name, tidy::ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context), CheckName(Name.str()),
      RuleSetName(Options.get("RuleSet", "generic-gnu-c")),
      HotFunctionsOption(Options.get("HotFunctions", "")),
      ProfilePath(Options.get("Profile", "")),
      ProfileThresholdOption(Options.get("ProfileThreshold", "0.5")),
      ProfileMetricOption(Options.get("ProfileMetric", "self")),
      ReportColdOption(Options.get("ReportColdFunctions", "false")),
      InlineRemarksPath(Options.get("InlineRemarks", "")) {
  llvm::Expected<RuleSet> Loaded = loadRuleSet(RuleSetName);
  if (!Loaded) {
    ConfigError = llvm::toString(Loaded.takeError());
    return;
  }
  Rules = std::move(*Loaded);
  llvm::SmallVector<StringRef, 8> Hot;
  StringRef(HotFunctionsOption).split(Hot, ';', -1, /*KeepEmpty=*/false);
  for (StringRef H : Hot)
    Rules.HotFunctions.push_back(H.trim().str());
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
}

CallSiteStats HotpathCheck::heatOf(const FunctionDecl *FD) const {
  CallSiteStats S = callSites().statsFor(FD, *Index);
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

void HotpathCheck::storeOptions(tidy::ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "RuleSet", RuleSetName);
  Options.store(Opts, "HotFunctions", HotFunctionsOption);
  Options.store(Opts, "Profile", ProfilePath);
  Options.store(Opts, "ProfileThreshold", ProfileThresholdOption);
  Options.store(Opts, "ProfileMetric", ProfileMetricOption);
  Options.store(Opts, "ReportColdFunctions", ReportColdOption);
  Options.store(Opts, "InlineRemarks", InlineRemarksPath);
  Options.store(Opts, "MultiBranchThreshold", Rules.Hotness.MultiBranchThreshold);
  Options.store(Opts, "SingleBranchThreshold", Rules.Hotness.SingleBranchThreshold);
  Options.store(Opts, "ReportSuffix", Rules.Spellings.ReportSuffix);
}

void HotpathCheck::registerMatchers(MatchFinder *Finder) {
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
    if (OwnsIndex)
      PP->addPPCallbacks(makePreprocessorRecorder(Shared->CallSites, Shared->Includes, SM));
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
  if (Ctx && ConfigError.empty())
    reportFindings(*Ctx);
  // The shared index is left alone: other checks of this TU may still read
  // it, and it goes away with them.
  reset();
  Ctx = nullptr;
}

} // namespace hotpath
