//===--- HotpathCheck.cpp - base of the hotpath checks --------------------===//

#include "core/HotpathCheck.h"
#include "core/CheckRegistry.h"
#include "source/FindingExtent.h"
#include "support/Compat.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Basic/FileManager.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace hotpath {

HotpathCheck::HotpathCheck(StringRef Name, tidy::ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context), TidyContext(Context), CheckName(Name.str()),
      Reader(Options, Name, [this](const std::string &E) { configurationError(E); }, Context) {
  loadShared();
}

HotpathCheck::~HotpathCheck() = default;

// The options every hotpath check reads: one `RuleSet: linux-kernel` in
// CheckOptions sets all three, `hotpath-<check>.RuleSet` one of them (it
// wins over the global key given at the same or a lower level of
// .clang-tidy files, as for clang-tidy's own global options).
void HotpathCheck::loadShared() {
  RuleSetName = Reader.text("RuleSet", "generic-gnu-c");
  std::vector<std::string> Hot = Reader.list("HotFunctions");
  OptionPath ProfilePath = Reader.path("Profile");
  Heat.ProfileThreshold = Reader.percent("ProfileThreshold", 0.5);
  Heat.ChainHeatThreshold = static_cast<int>(
      Reader.count("ChainHeatThreshold", HeatSettings::DefaultChainHeatThreshold));
  Heat.Metric = Reader.choice<Profile::Metric>(
      "ProfileMetric",
      {{"self", Profile::Metric::Self},
       {"inclusive", Profile::Metric::Inclusive},
       {"removable", Profile::Metric::Removable}},
      "removable");
  Heat.ReportCold = Reader.flag("ReportColdFunctions", false);
  OptionPath InlinePath = Reader.pathList("InlineRemarks");
  ExplainName = Reader.text("Explain");
  OptionPath IndexPath = Reader.path("ProjectIndex");
  OptionPath Findings = Reader.path(FindingsFileOption);
  FindingsFile = Findings.Path;
  FindingsFileOrigin = Findings.origin(FindingsFileOption);
  IndexReads = Reader.path("IndexReads").Path;
  if (Reader.failed())
    return;

  // A preset's name is no path; a file's is resolved like the others.
  OptionPath RulePath = Reader.resolvePath(
      "RuleSet", namesRuleSetFile(RuleSetName) ? llvm::StringRef(RuleSetName) : "");
  llvm::Expected<RuleSet> Loaded =
      loadRuleSet(RulePath.Written.empty() ? RuleSetName : RulePath.Path);
  if (!Loaded)
    return configurationError(llvm::toString(Loaded.takeError()) + RulePath.origin("RuleSet"));
  Rules = std::move(*Loaded);
  for (const std::string &H : Hot) {
    Rules.HotFunctions.push_back(H);
    Heat.OptionHotFunctions.insert(H);
  }
  Heat.RuleSetName = Rules.Name.empty() ? RuleSetName : Rules.Name;
  Index = std::make_unique<RuleIndex>(Rules);
  if (!ProfilePath.Path.empty()) {
    llvm::Expected<Profile> P = Profile::load(ProfilePath.Path);
    if (!P)
      return configurationError(llvm::toString(P.takeError()) + ProfilePath.origin("Profile"));
    Heat.Prof = std::move(*P);
  }
  if (!InlinePath.Path.empty()) {
    llvm::Expected<InlineRemarks> R = InlineRemarks::load(InlinePath.Path);
    if (!R)
      return configurationError(llvm::toString(R.takeError()) +
                                InlinePath.origin("InlineRemarks"));
    Heat.Inline = std::move(*R);
  }
  if (!IndexPath.Path.empty()) {
    // Loaded once per process: clang-tidy makes the checks anew for every
    // TU, and a run over many files would parse the index for each.
    auto P = index::ProjectIndex::loadCached(IndexPath.Path);
    if (!P)
      return configurationError("ProjectIndex: " + llvm::toString(P.takeError()) +
                                IndexPath.origin("ProjectIndex"));
    Project = std::move(*P);
    // A function defined in another file is pure when the index says its
    // body is (analysis/Purity.h).
    Index->ProjectPurity = [Project = Project](StringRef USR) { return Project->purity(USR); };
    if (!IndexReads.empty())
      Project->recordReads();
  }
}

void HotpathCheck::configurationError(std::string Message) {
  // A broken option or rule set is an error, never a silent default.
  configurationDiag("%0: %1", DiagnosticIDs::Error) << CheckName << Message;
  ConfigFailed = true;
}

void HotpathCheck::storeOptions(tidy::ClangTidyOptions::OptionMap &Opts) {
  Reader.store(Opts, Options);
}

void HotpathCheck::registerMatchers(MatchFinder *Finder) {
  tidy::ClangTidyContext *Ctx = TidyContext;
  warnUnknownOptions(
      Ctx->getOptions().CheckOptions, CheckName, hotpathCheckNames(),
      [&](StringRef N) { return Ctx->isCheckEnabled(N); },
      [&](const std::string &W) { configurationDiag("%0", DiagnosticIDs::Warning) << W; });
  if (ConfigFailed)
    return;
  // The checks of this TU share one context (TUContext.h); joining here,
  // once the options are known good, counts only checks that will run.
  TU = TUContext::join(Ctx, Rules, Project);
  // The only matcher: it hands over the ASTContext. Everything else walks
  // the definitions once (TUContext), which costs a fraction of matching
  // every declaration of the TU against a pattern.
  Finder->addMatcher(translationUnitDecl(), this);
}

void HotpathCheck::registerPPCallbacks(const SourceManager &SM, Preprocessor *PP,
                                       Preprocessor *) {
  if (!TU)
    return;
  TU->recordPreprocessor(SM, *PP);
  if (std::unique_ptr<compat::IncludeCallbacks> Own = ppCallbacks(SM, *PP))
    TU->addPPCallbacks(std::move(Own));
}

void HotpathCheck::check(const MatchFinder::MatchResult &Result) {
  TU->setAST(*Result.Context);
}

void HotpathCheck::onEndOfTranslationUnit() {
  if (!TU)
    return;
  run(*TU);
  if (!FindingsFile.empty() && !Recorded.empty())
    if (llvm::Error E = appendFindings(FindingsFile, Recorded))
      configurationDiag("%0: %1", DiagnosticIDs::Error)
          << CheckName << llvm::toString(std::move(E)) + FindingsFileOrigin;
  Recorded.clear();
  writeIndexReads();
  bool NobodyExplained = false;
  if (TU->checkFinished(NobodyExplained) && NobodyExplained && !ExplainName.empty())
    ClangTidyCheck::diag("explain '%0': no function or macro of that name is defined or "
                         "declared in this translation unit",
                         DiagnosticIDs::Remark)
        << ExplainName;
  reset();
}

/// What the checks of this TU have read of the project index so far, for
/// the result cache (option IndexReads): each check that ends rewrites the
/// file, so the last one leaves every read.
void HotpathCheck::writeIndexReads() {
  if (IndexReads.empty() || !Project)
    return;
  const SourceManager &SM = TU->sourceManager();
  OptionalFileEntryRef Main = SM.getFileEntryRefForID(SM.getMainFileID());
  if (!Main)
    return;
  llvm::SmallString<256> Real(Main->getFileEntry().tryGetRealPathName());
  if (Real.empty() && llvm::sys::fs::real_path(Main->getName(), Real))
    return;
  if (llvm::Error E = index::writeReads(index::readsFileOf(IndexReads, Real), Project->reads()))
    configurationDiag("%0: IndexReads: %1", DiagnosticIDs::Error)
        << CheckName << llvm::toString(std::move(E));
}

bool HotpathCheck::fixesKeptIn(SourceLocation Loc) const {
  if (Loc.isInvalid())
    return false;
  const SourceManager &SM = TU->sourceManager();
  SourceLocation E = SM.getExpansionLoc(Loc);
  if (SM.isInMainFile(E))
    return true;
  if (SM.isInSystemHeader(E))
    return false;
  OptionalFileEntryRef File = SM.getFileEntryRefForID(SM.getFileID(E));
  return File && fixesKeptInHeader(File->getName());
}

bool HotpathCheck::fixesKeptInHeader(StringRef Path) const {
  // As ClangTidyDiagnosticConsumer::checkFilters: an empty filter does not
  // compile, and a regex that does not compile matches nothing.
  const tidy::ClangTidyOptions &O = TidyContext->getOptions();
  if (!HeaderFilter)
    HeaderFilter = std::make_unique<llvm::Regex>(O.HeaderFilterRegex.value_or(""));
  if (!HeaderFilter->match(Path))
    return false;
  if (!ExcludeHeaderFilter)
    ExcludeHeaderFilter =
        std::make_unique<llvm::Regex>(compat::excludeHeaderFilterRegex(O).value_or(""));
  return !ExcludeHeaderFilter->match(Path);
}

bool HotpathCheck::mayBeReported(llvm::ArrayRef<SourceLocation> Locs) const {
  // As ClangTidyDiagnosticConsumer::checkFilters, over the warning and its
  // notes: a place with no file (a command-line macro) counts as user code.
  const SourceManager &SM = TU->sourceManager();
  bool SystemHeaders = TidyContext->getOptions().SystemHeaders.value_or(false);
  return llvm::any_of(Locs, [&](SourceLocation Loc) {
    if (Loc.isInvalid())
      return true;
    SourceLocation E = SM.getExpansionLoc(Loc);
    if (!SM.getFileEntryRefForID(SM.getFileID(E)))
      return true;
    if (SystemHeaders && SM.isInSystemHeader(E)) {
      OptionalFileEntryRef File = SM.getFileEntryRefForID(SM.getFileID(E));
      return fixesKeptInHeader(File->getName());
    }
    return fixesKeptIn(Loc);
  });
}

void HotpathCheck::diagMessage(const Message &M, DiagnosticIDs::Level Level,
                               llvm::ArrayRef<FixItHint> Fixes) {
  DiagnosticBuilder D = diag(M.Loc, M.Format, Level);
  for (const DiagArg &A : M.Args) {
    if (const auto *S = std::get_if<std::string>(&A))
      D << *S;
    else if (const auto *N = std::get_if<unsigned>(&A))
      D << *N;
    else
      D << std::get<const NamedDecl *>(A);
  }
  for (const FixItHint &F : Fixes)
    D << F;
}

void HotpathCheck::emit(Finding F) {
  llvm::SmallVector<SourceLocation, 8> Places = {F.Warning.Loc};
  for (const Message &N : F.Notes)
    Places.push_back(N.Loc);
  for (const Message &N : F.FixNotes)
    Places.push_back(N.Loc);
  if (F.Refused && F.Refused->Loc.isValid())
    Places.push_back(F.Refused->Loc);
  if (!explainRequested() && !mayBeReported(Places))
    return;
  // Decided here, for every check: a TU with compile errors is reported but
  // offers no edit on any route (NoFix.cpp says why). A finding with a
  // reason of its own keeps it. Warnings made errors by -Werror do not
  // count: the code compiles without them.
  if (!F.Refused && !F.Fixes.empty() &&
      tu().ast().getDiagnostics().hasUncompilableErrorOccurred())
    F.Refused = NoFix(NoFixReason::TranslationUnitHasErrors);
  diagMessage(F.Warning, DiagnosticIDs::Warning,
              F.Refused ? llvm::ArrayRef<FixItHint>() : llvm::ArrayRef<FixItHint>(F.Fixes));
  for (const Message &N : F.Notes)
    diagMessage(N, DiagnosticIDs::Note);
  if (F.Refused)
    // A reason that names no place of its own is about the warning's.
    diag(F.Refused->Loc.isValid() ? F.Refused->Loc : F.Warning.Loc, "no fix: %0",
         DiagnosticIDs::Note)
        << F.Refused->text();
  else
    for (const Message &N : F.FixNotes)
      diagMessage(N, DiagnosticIDs::Note);
  if (!FindingsFile.empty())
    Recorded.push_back(dataOf(F));
}

Message HotpathCheck::heatNote(const NamedDecl *D, const CallSiteStats &S) const {
  return {D->getLocation(), "%0 is hot: %1", {D, S.describe()}};
}

Message HotpathCheck::heatNote(const NamedDecl *D, const HeatVerdict &V) const {
  if (!V.ByChain)
    return heatNote(D, V.Stats);
  return {D->getLocation(), "%0 is hot: %1", {D, V.Chain.text()}};
}

namespace {
/// The absolute path of the file \p Loc is in, and the offset there.
std::pair<std::string, unsigned> fileOffset(SourceLocation Loc, const SourceManager &SM) {
  Loc = SM.getFileLoc(Loc);
  FileID FID = SM.getFileID(Loc);
  OptionalFileEntryRef Entry = SM.getFileEntryRefForID(FID);
  if (!Entry)
    return {"", 0};
  StringRef Real = Entry->getFileEntry().tryGetRealPathName();
  return {Real.empty() ? Entry->getName().str() : Real.str(), SM.getFileOffset(Loc)};
}
} // namespace

FindingData HotpathCheck::dataOf(const Finding &F) const {
  const SourceManager &SM = TU->sourceManager();
  FindingData D;
  D.Check = CheckName;
  D.Kind = F.Kind.str();
  D.Subject = F.Subject;
  std::tie(D.File, D.Offset) = fileOffset(F.Warning.Loc, SM);
  llvm::SmallVector<CharSourceRange, 2> Extent(F.Extent.begin(), F.Extent.end());
  if (Extent.empty())
    Extent = findingExtent(F.Warning.Loc, TU->ast());
  for (const CharSourceRange &R : Extent) {
    auto [File, Begin] = fileOffset(R.getBegin(), SM);
    unsigned End = fileOffset(R.getEnd(), SM).second;
    if (!File.empty() && End >= Begin)
      D.Extent.push_back({File, Begin, End - Begin});
  }
  D.Evidence = F.Evidence;
  D.ProfileShare = F.ProfileShare;
  if (F.Refused)
    D.NoFix = F.Refused->id().str();
  return D;
}

// Steps are about code as written where it is expanded: a location in a
// macro would add clang's "expanded from macro" notes to the story.
void HotpathCheck::explainBegin(SourceLocation Loc, const Twine &What) {
  TU->explainFound();
  ClangTidyCheck::diag(TU->sourceManager().getExpansionLoc(Loc), "explain '%0': %1",
                       DiagnosticIDs::Remark)
      << ExplainName << What.str();
}

void HotpathCheck::explainStep(SourceLocation Loc, const Twine &Text) {
  ClangTidyCheck::diag(TU->sourceManager().getExpansionLoc(Loc), "%0", DiagnosticIDs::Note)
      << Text.str();
}

} // namespace hotpath
