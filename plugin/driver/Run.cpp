//===--- driver/Run.cpp - a run over the compile database -----------------===//
//
// Orchestration only (no clang headers): each step below is one call into
// the file that owns it, in the order a run takes them.
//
//===----------------------------------------------------------------------===//
#include "Run.h"
#include "BaseSide.h"
#include "CheckConfig.h"
#include "CheckRuns.h"
#include "ConfigValidation.h"
#include "CompileDatabase.h"
#include "ExportedFindings.h"
#include "FixJournal.h"
#include "IndexRefresh.h"
#include "Interrupt.h"
#include "InlineRemarksRun.h"
#include "Options.h"
#include "Parallel.h"
#include "Patch.h"
#include "PatchFilter.h"
#include "Paths.h"
#include "PlainRun.h"
#include "Report.h"
#include "ResultCache.h"
#include "Selection.h"
#include "TextOutput.h"
#include "TextStream.h"

#include "core/FindingData.h"
#include "heat/Profile.h"
#include "index/ProjectIndex.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <set>

namespace hotpath::driver {

namespace {

llvm::Error error(const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg);
}

/// A directory removed with this object (or by an interrupt).
struct TempDir {
  std::string Path;
  std::error_code make() {
    std::error_code EC;
    Path = makeTemporary([&] {
      llvm::SmallString<128> P;
      EC = llvm::sys::fs::createUniqueDirectory("hotpath-tidy", P);
      return EC ? std::string() : std::string(P);
    });
    return EC;
  }
  ~TempDir() {
    if (Path.empty())
      return;
    llvm::sys::fs::remove_directories(Path);
    forgetTemporary(Path);
  }
};

bool explainedSomewhere(std::vector<Finding> &Found, llvm::StringRef Name,
                        const index::ProjectIndex *Index);
std::set<std::string> definingTUs(llvm::StringRef Name, const index::ProjectIndex *Index);
bool explainDropped(const Finding &F, const std::set<std::string> &Defining);

class DatabaseRun {
public:
  explicit DatabaseRun(const RunOptions &O)
      : O(O), Progress(O.Progress || llvm::sys::Process::StandardErrIsDisplayed()) {}

  /// The run's exit status, or why it could not run.
  llvm::Expected<int> run(const char *Argv0);

private:
  llvm::Error findPlaces(const char *Argv0);
  llvm::Error useProfile();
  llvm::Error loadDatabase();
  llvm::Error useIndex();
  std::string buildDir() const { return canonicalPath(O.BuildDir, Cwd); }
  std::string indexDir() const {
    return O.IndexDir.empty() ? canonicalPath(O.BuildDir, Cwd) + "/hotpath-index"
                              : canonicalPath(O.IndexDir, Cwd);
  }
  llvm::Expected<std::vector<std::string>> chooseTUs();
  llvm::Error useInlineRemarks();
  void checkDiffPaths();
  bool configParses(const std::vector<std::string> &TUs);
  using CheckOptionList = std::vector<std::pair<std::string, std::string>>;
  llvm::Expected<std::vector<TURun>> runChecksOn(const std::vector<std::string> &TUs,
                                                 const CheckOptionList &More,
                                                 const std::string &RunDir,
                                                 const BaseSide *Base = nullptr);
  llvm::Expected<std::vector<Finding>> newInTree(std::vector<Finding> Found);
  llvm::Expected<std::vector<Finding>> baseFindings(const BaseSide &B,
                                                    const std::vector<std::string> &TUs,
                                                    std::set<std::string> &Unknown);
  void openCache(const std::string &DataFile);
  void tellCacheUse(const std::vector<TURun> &Runs) const;
  size_t mergeFailures(const std::vector<std::string> &TUs, std::vector<Finding> &Found);

  const RunOptions &O;
  std::string Self, Cwd, Root;     // this binary, where it runs, the top of the work tree
  std::optional<std::string> Git;
  /// What the checks of each run are given (their -config).
  std::vector<std::pair<std::string, std::string>> CheckOptions;
  ChangedLines Changed; // with --diff
  std::string BaseRev;  // what --diff=<rev> compares with; "" for --diff=-
  std::unique_ptr<Project> P;
  std::unique_ptr<TUSelection> Selection;
  std::shared_ptr<const index::ProjectIndex> Index;
  std::string IndexFile; // its store, index.db
  /// Per TU, the files its shard says it read.
  ShardInputs Inputs;
  std::unique_ptr<ResultCache> Cache;
  TempDir Tmp;
  std::vector<Failure> Failures;
  /// What the run says about its configuration and input (Types.h).
  std::vector<ConfigNote> Notes;
  bool ReadsClangTidyFiles = true; // no -config that stops them applying
  ProgressLine Progress;
  RunOutputs Out; // every --format, --export-fixes: opened first
};

llvm::Expected<int> DatabaseRun::run(const char *Argv0) {
  if (llvm::Error E = findPlaces(Argv0))
    return std::move(E);
  // A fix set an interrupted run left half written is made whole before
  // anything reads the tree (FixJournal.h).
  if (llvm::Error E = O.BuildDir.empty() ? llvm::Error::success()
                                         : recoverFixSets(fixStateDir(buildDir()), Cwd))
    return std::move(E);
  if (llvm::Error E = O.in(IndexOnly) ? llvm::Error::success() : Out.open(O))
    return std::move(E);
  if (std::optional<ConfigNote> Bad =
          checkUserConfig(O.Config, O.ConfigFile, ReadsClangTidyFiles))
    return report(O, Out, {}, {}, {*Bad}, 0, Root, Cwd);
  if (llvm::Error E = useProfile())
    return std::move(E);
  if (!O.Explain.empty())
    CheckOptions.push_back({"Explain", O.Explain});
  if (O.in(Diff)) {
    llvm::Expected<ChangedLines> Patch =
        readPatch(O.Diff, Git, Root, O.Diff != "-" && inWorkTree(Git, Cwd), O.Strip, &BaseRev);
    if (!Patch)
      return Patch.takeError();
    Changed = std::move(*Patch);
    if (Changed.empty()) {
      llvm::errs() << "hotpath-tidy: the patch changes no lines; nothing to check\n";
      return report(O, Out, {}, {}, {}, 0, Root, Cwd);
    }
  }
  if (llvm::Error E = loadDatabase())
    return std::move(E);
  if (O.in(Diff))
    checkDiffPaths();
  if (llvm::Error E = O.NoIndex ? llvm::Error::success() : useIndex())
    return std::move(E);
  if (O.in(IndexOnly))
    return ExitClean;
  llvm::Expected<std::vector<std::string>> TUs = chooseTUs();
  if (!TUs)
    return TUs.takeError();
  if (!configParses(*TUs))
    return report(O, Out, {}, {}, Notes, 0, Root, Cwd);
  if (auto EC = Tmp.make())
    return error("cannot make a temporary directory: " + EC.message());
  if (llvm::Error E = O.in(InlineRemarks) ? useInlineRemarks() : llvm::Error::success())
    return std::move(E);
  // The checks' findings as data, one file for every run (each line says
  // where its finding is).
  std::string DataFile = Tmp.Path + "/findings.jsonl";
  openCache(DataFile);
  llvm::Expected<std::vector<TURun>> Runs =
      runChecksOn(*TUs, {{std::string(FindingsFileOption), DataFile}}, Tmp.Path);
  if (!Runs)
    return Runs.takeError();
  std::vector<Finding> Found;
  if (llvm::Error E = collectFindings(*Runs, DataFile, Cwd, Found, Failures, Notes))
    return std::move(E);
  size_t Considered = mergeFailures(*TUs, Found);
  if (!O.Explain.empty() && !explainedSomewhere(Found, O.Explain, Index.get())) {
    size_t Checked = Considered - Failures.size();
    llvm::errs() << "hotpath-tidy: explain '" << O.Explain
                 << "': no function or macro of that name is defined or declared in any of the "
                 << Checked << " translation unit" << (Checked == 1 ? "" : "s") << " checked\n";
  }
  std::vector<Finding> Findings;
  if (O.onlyNew()) {
    llvm::Expected<std::vector<Finding>> New = newInTree(std::move(Found));
    if (!New)
      return New.takeError();
    Findings = std::move(*New);
  } else {
    Findings = keepFindings(std::move(Found), O.in(Diff) ? &Changed : nullptr, O.in(Profile));
  }
  if (llvm::Error E = O.Fix ? applyAndTell(Findings, Root, fixStateDir(buildDir()))
                            : llvm::Error::success())
    return std::move(E);
  // Before the report, whose last line is clang-tidy's "N warnings treated
  // as errors" when there are some.
  tellCacheUse(*Runs);
  return report(O, Out, Findings, Failures, Notes, Considered, Root, Cwd);
}

/// "hotpath-tidy: 3 TUs checked: 1 parsed, 2 from the result cache", said
/// before the report (with --diff, of the tree's side: the base side's runs
/// are not counted).
void DatabaseRun::tellCacheUse(const std::vector<TURun> &Runs) const {
  size_t Cached = llvm::count_if(Runs, [](const TURun &R) { return R.FromCache; });
  llvm::errs() << "hotpath-tidy: " << Runs.size() << " TU" << (Runs.size() == 1 ? "" : "s")
               << " checked: " << Runs.size() - Cached << " parsed, " << Cached
               << " from the result cache\n";
}

/// A diff whose paths name no file here (a patch made in another
/// directory, or with a prefix --strip should remove) selects no TU and
/// reports nothing, which reads as a clean patch: say which paths matched
/// nothing, an error with --strict.
void DatabaseRun::checkDiffPaths() {
  std::vector<std::string> Unmatched;
  for (const auto &[File, Lines] : Changed)
    if (!llvm::sys::fs::exists(File) && !P->files().count(File))
      Unmatched.push_back(relativeTo(File, Root));
  if (Unmatched.empty())
    return;
  ConfigNote N;
  N.Error = O.Strict;
  std::string Where = " no file under " + Root + " nor in the compile database";
  if (Unmatched.size() == 1)
    N.Where.Text = "--diff: the diff's path '" + Unmatched.front() + "' matches" + Where;
  else
    N.Where.Text = "--diff: " + std::to_string(Unmatched.size()) + " of the diff's " +
                   std::to_string(Changed.size()) + " paths match" + Where + ": '" +
                   llvm::join(Unmatched, "', '") + "'";
  if (O.Diff == "-")
    N.Where.Text += " (--strip=N removes N leading components)";
  Notes.push_back(std::move(N));
}

/// The .clang-tidy files clang-tidy would read for each TU (unless a
/// -config without InheritParentConfig stands in for them): false, with
/// the note, at the first that does not parse, before anything is checked.
bool DatabaseRun::configParses(const std::vector<std::string> &TUs) {
  if (!ReadsClangTidyFiles)
    return true;
  ClangTidyFiles Files;
  for (const std::string &TU : TUs)
    if (std::optional<ConfigNote> Bad = Files.check(TU)) {
      Notes.push_back(std::move(*Bad));
      return false;
    }
  return true;
}

/// The TUs that define a function named \p Name, by the index.
std::set<std::string> definingTUs(llvm::StringRef Name, const index::ProjectIndex *Index) {
  std::set<std::string> Defining;
  if (Index)
    for (const index::Function &F : Index->file().Functions)
      if (F.Name == Name)
        for (const index::Definition &D : F.Definitions)
          Defining.insert(D.TU);
  return Defining;
}

/// An --explain remark the run does not report (explainedSomewhere).
bool explainDropped(const Finding &F, const std::set<std::string> &Defining) {
  return F.Level == "remark" &&
         (F.Main.File.empty() || (!Defining.empty() && !Defining.count(F.TU)));
}

/// --explain: each TU that knows the name explains it (a remark at its
/// definition or declaration, then notes); each that does not says so in a
/// remark of no place, dropped here: in a run over many TUs only their sum
/// means anything. Where the project index knows TUs that define a
/// function of that name, only they explain it (the others would only say
/// "this is a declaration"). False when no TU knew the name.
bool explainedSomewhere(std::vector<Finding> &Found, llvm::StringRef Name,
                        const index::ProjectIndex *Index) {
  std::set<std::string> Defining = definingTUs(Name, Index);
  auto Dropped = [&](const Finding &F) { return explainDropped(F, Defining); };
  bool Known = llvm::any_of(Found, [](const Finding &F) {
    return F.Level == "remark" && !F.Main.File.empty();
  });
  llvm::erase_if(Found, Dropped);
  return Known;
}

/// One failure per TU, in path order: the check run's when the inline
/// remarks' compile failed too (its errors are the same, said once). A TU
/// clang cannot compile contributes nothing, whichever compile said so.
/// Returns how many TUs the run considered: those checked, and those it
/// compiled for their remarks and could not.
size_t DatabaseRun::mergeFailures(const std::vector<std::string> &TUs,
                                  std::vector<Finding> &Found) {
  std::map<std::string, Failure> ByTU;
  for (Failure &X : Failures) { // the remarks' first, then the checks'
    auto [It, New] = ByTU.try_emplace(X.TU, X);
    if (!New && (X.compileFailure() || !It->second.compileFailure()))
      It->second = std::move(X);
  }
  Failures.clear();
  std::set<std::string> Considered(TUs.begin(), TUs.end()), Skipped;
  for (auto &[TU, X] : ByTU) {
    Considered.insert(TU);
    if (X.compileFailure())
      Skipped.insert(TU);
    Failures.push_back(std::move(X));
  }
  llvm::erase_if(Found, [&](const Finding &F) { return Skipped.count(F.TU); });
  return Considered.size();
}

/// This binary, the current directory, git, and the top of the git work
/// tree, which anchors diff paths, the patch and SARIF URIs.
llvm::Error DatabaseRun::findPlaces(const char *Argv0) {
  Self = llvm::sys::fs::getMainExecutable(Argv0, (void *)&runOverDatabase);
  llvm::SmallString<256> CwdBuf;
  if (llvm::sys::fs::current_path(CwdBuf))
    return error("cannot read the current directory");
  Cwd = canonicalPath(CwdBuf, "/");
  if (auto Found = llvm::sys::findProgramByName("git"))
    Git = *Found;
  Root = workTreeRoot(Git, Cwd);
  return llvm::Error::success();
}

/// The profile, read here too, so that a bad one stops the run with the
/// checks' own message before any TU is compiled.
llvm::Error DatabaseRun::useProfile() {
  if (O.Profile.empty())
    return llvm::Error::success();
  std::string Abs = canonicalPath(O.Profile, Cwd);
  llvm::Expected<hotpath::Profile> Prof = hotpath::Profile::load(Abs);
  if (!Prof)
    return Prof.takeError();
  CheckOptions.push_back({"Profile", Abs});
  return llvm::Error::success();
}

llvm::Error DatabaseRun::loadDatabase() {
  if (O.BuildDir.empty())
    return error(modeOption(O.Modes) +
                 " needs -p <build-dir> (the directory of compile_commands.json)");
  std::string Err;
  P = Project::load(O.BuildDir, Err);
  if (!P)
    return error("cannot load the compilation database from '" + O.BuildDir + "': " + Err);
  P->setExtraArgs({O.ExtraArgsBefore, O.ExtraArgs});
  Selection = std::make_unique<TUSelection>(*P, Cwd, Progress);
  return llvm::Error::success();
}

/// The project index, of every TU of the database (clang-tidy's kind), so
/// that heat and hooks found in other files count in each TU checked.
/// --index-only --shard=K/N indexes its slice and merges nothing.
llvm::Error DatabaseRun::useIndex() {
  std::vector<std::string> All;
  if (std::optional<std::set<std::string>> Known =
          O.Reindex ? std::nullopt : uncheckableByState(*P, indexDir())) {
    for (const auto &KV : P->files())
      if (!Known->count(KV.first))
        All.push_back(KV.first);
  } else {
    All = Selection->checkable();
  }
  bool SliceOnly = O.in(IndexOnly) && O.SliceN;
  if (SliceOnly)
    All = slice(All, O.SliceK, O.SliceN);
  IndexOptions IO;
  IO.Dir = indexDir();
  IO.Jobs = O.Jobs;
  IO.Reindex = O.Reindex;
  IO.Merge = !SliceOnly;
  llvm::Expected<IndexSummary> Sum = refreshIndex(
      *P, All, IO, [&](size_t Done, size_t Total) { Progress.show("indexed", Done, Total); });
  if (!Sum)
    return Sum.takeError();
  for (const IndexSummary::Note &N : Sum->Notes)
    llvm::errs() << "hotpath-tidy: note: " << relativeTo(N.TU, Cwd) << ": " << N.What
                 << (N.FirstError.Text.empty() ? "" : ": " + errorLine(N.FirstError, Cwd))
                 << "\n";
  llvm::errs() << describe(*Sum, relativeTo(IO.Dir, Cwd)) << "\n";
  if (O.in(IndexOnly))
    return llvm::Error::success();
  CheckOptions.push_back({"ProjectIndex", Sum->IndexFile});
  IndexFile = Sum->IndexFile;
  Inputs = ShardInputs(IO.Dir, std::move(Sum->WithShard));
  auto Loaded = index::ProjectIndex::load(Sum->IndexFile);
  if (!Loaded)
    return Loaded.takeError();
  Index = std::move(*Loaded);
  return llvm::Error::success();
}

/// Those the patch affects, those named, or all; then the slice of --shard.
llvm::Expected<std::vector<std::string>> DatabaseRun::chooseTUs() {
  std::set<std::string> Chosen;
  if (O.in(Diff)) {
    Chosen = Selection->touchedBy(Changed, Index.get(), O.Jobs);
  } else if (O.Sources.empty()) {
    Chosen = Selection->all();
  } else {
    llvm::Expected<std::set<std::string>> Named = Selection->named(O.Sources, O.BuildDir);
    if (!Named)
      return Named.takeError();
    Chosen = std::move(*Named);
  }
  std::vector<std::string> TUs(Chosen.begin(), Chosen.end());
  return O.SliceN ? slice(TUs, O.SliceK, O.SliceN) : TUs;
}

/// Every TU of the database is compiled, since the calls to a check
/// function may be anywhere, not only in the TUs checked.
llvm::Error DatabaseRun::useInlineRemarks() {
  llvm::Expected<std::string> Clang = findRemarksCompiler();
  if (!Clang)
    return Clang.takeError();
  std::vector<std::string> All = Selection->checkable();
  std::string RecordDir = Tmp.Path + "/remarks";
  llvm::sys::fs::create_directories(RecordDir);
  std::string Summary = Tmp.Path + "/inline-summary.txt", Err;
  if (!collectInlineRemarks(
          *P, All, *Clang, O.Jobs, RecordDir, Summary, Failures,
          [&](size_t Done) { Progress.show("compiled for inline remarks", Done, All.size()); },
          Err))
    return error(Err);
  CheckOptions.push_back({"InlineRemarks", Summary});
  return llvm::Error::success();
}

/// The checks on each TU, with the user's configuration, the options above
/// and \p More (the file for their findings as data; the base side's
/// index in place of the head's), exporting to \p RunDir; for \p Base,
/// through its overlay.
llvm::Expected<std::vector<TURun>> DatabaseRun::runChecksOn(const std::vector<std::string> &TUs,
                                                           const CheckOptionList &More,
                                                           const std::string &RunDir,
                                                           const BaseSide *Base) {
  CheckOptionList Options = CheckOptions;
  for (const auto &[Key, Value] : More) {
    auto Same = llvm::find_if(Options, [&](const auto &KV) { return KV.first == Key; });
    if (Same != Options.end())
      Same->second = Value;
    else
      Options.push_back({Key, Value});
  }
  CheckRunArgs Args{Self, O.BuildDir, O.Checks, O.HeaderFilter, "", O.PassThrough};
  if (Base)
    Args.Overlay = Base->Overlay;
  Args.Cache = Cache.get();
  std::string Err;
  if (!runConfigArg(O.Config, O.ConfigFile, Options, Args.Config, Err))
    return error(Err);
  // The base side of --diff streams nothing and shows its progress as
  // runChecks does.
  if (Base)
    return runChecks(*P, TUs, Args, RunDir, O.Jobs, Progress);
  // The text as the TUs end, less what the end of the run leaves out: the
  // findings of a TU whose compile for inline remarks failed
  // (mergeFailures), --explain's remarks of other TUs.
  std::set<std::string> Failed, Defining;
  for (const Failure &X : Failures)
    if (X.compileFailure())
      Failed.insert(X.TU);
  if (!O.Explain.empty())
    Defining = definingTUs(O.Explain, Index.get());
  TextStream Stream(
      Out.streamText(O), Progress, TUs, Cwd,
      [&](const Finding &F) {
        return !Failed.count(F.TU) && (O.Explain.empty() || !explainDropped(F, Defining));
      },
      O.WarningsAsErrors);
  Args.Finished = [&](const TURun &R) { Stream.finished(R); };
  return runChecks(*P, TUs, Args, RunDir, O.Jobs, Progress);
}

/// --diff's default: the findings of the working tree that are not at the
/// base revision (PatchFilter.h). Only the TUs that found something are
/// checked at the base: a patch with no finding costs no more than before.
/// The TUs whose base side is not known (a TU the patch adds, one that does
/// not compile at the base or still reads a file the patch adds) keep every
/// finding.
llvm::Expected<std::vector<Finding>> DatabaseRun::newInTree(std::vector<Finding> Found) {
  std::set<std::string> Reporting;
  for (const Finding &F : Found)
    Reporting.insert(F.TU);
  std::vector<std::string> TUs(Reporting.begin(), Reporting.end());
  std::vector<Finding> Head = keepFindings(std::move(Found), nullptr, false);
  if (Head.empty())
    return Head;
  llvm::Expected<BaseSide> B = writeBaseSide(*Git, Root, BaseRev, Tmp.Path + "/base");
  if (!B)
    return B.takeError();
  std::set<std::string> Unknown;
  llvm::Expected<std::vector<Finding>> Base = baseFindings(*B, TUs, Unknown);
  if (!Base)
    return Base.takeError();
  size_t All = Head.size();
  std::vector<Finding> New = newFindings(std::move(Head), *Base, Root, B->Content);
  llvm::errs() << "hotpath-tidy: " << New.size() << " of " << All << " finding"
               << (All == 1 ? "" : "s") << " new since " << llvm::StringRef(BaseRev).take_front(12)
               << ", the others there already (--diff-filter=touched reports any the patch "
                  "touches)\n";
  return keepFindings(std::move(New), nullptr, O.in(Profile));
}

/// The findings of \p TUs at the base: the same checks through the overlay,
/// with the index as it was there. \p Unknown gets the TUs with no base
/// side, each said in a note.
llvm::Expected<std::vector<Finding>> DatabaseRun::baseFindings(const BaseSide &B,
                                                             const std::vector<std::string> &TUs,
                                                             std::set<std::string> &Unknown) {
  std::string RunDir = Tmp.Path + "/base/runs";
  if (std::error_code EC = llvm::sys::fs::create_directories(RunDir))
    return error("cannot make " + RunDir + ": " + EC.message());
  CheckOptionList More = {{std::string(FindingsFileOption), Tmp.Path + "/base/findings.jsonl"}};
  if (Index) {
    std::string File = Tmp.Path + "/base/" + index::StoreName;
    if (llvm::Error E = writeBaseIndex(*P, Selection->checkable(), TUs, indexDir(), B, O.Jobs,
                                       File, Unknown))
      return std::move(E);
    More.push_back({"ProjectIndex", File});
    if (Cache) {
      // The base side's entries: its own data file, and the reads of each
      // checked against the index as it was at the base.
      auto BaseIndex = index::ProjectIndex::load(File);
      if (!BaseIndex)
        return BaseIndex.takeError();
      Cache->useFiles(More.front().second, std::move(*BaseIndex), File);
    }
  } else {
    Unknown = readingAdded(*P, TUs, B, O.Jobs);
  }
  auto Note = [&](const std::string &TU, llvm::StringRef Why) {
    llvm::errs() << "hotpath-tidy: note: --diff: " << relativeTo(TU, Cwd) << " " << Why
                 << ": its findings are all reported as new\n";
  };
  std::vector<std::string> AtBase;
  for (const std::string &TU : TUs)
    if (B.Added.count(TU))
      continue; // the patch adds it: everything in it is new
    else if (Unknown.count(TU))
      Note(TU, "still reads a file the patch adds when compiled as at the base (the overlay "
               "cannot hide it)");
    else
      AtBase.push_back(TU);
  llvm::Expected<std::vector<TURun>> Runs = runChecksOn(AtBase, More, RunDir, &B);
  if (!Runs)
    return Runs.takeError();
  std::vector<Finding> Found;
  std::vector<Failure> Failed;
  std::vector<ConfigNote> Said; // the head's run said them already
  if (llvm::Error E = collectFindings(*Runs, More.front().second, Cwd, Found, Failed, Said))
    return std::move(E);
  for (const Failure &X : Failed)
    if (llvm::none_of(Failures, [&](const Failure &H) { return H.TU == X.TU; }))
      Note(X.TU, X.compileFailure() ? "does not compile at the base" : "failed at the base");
  locateAtBase(Found, B);
  return keepFindings(std::move(Found), nullptr, false);
}

/// The result cache, unless --no-cache, or --no-index (it keys on what the
/// index says each TU read): the checks then record their index reads.
/// The files the checks' options name go into its key by content (the
/// profile, the inline remarks' summary), or as what they stand for.
void DatabaseRun::openCache(const std::string &DataFile) {
  if (O.NoCache || !Index)
    return;
  CacheSetup S;
  S.Dir = O.CacheDir.empty() ? canonicalPath(O.BuildDir, Cwd) + "/hotpath-cache"
                             : canonicalPath(O.CacheDir, Cwd);
  S.Self = Self;
  S.Cwd = Cwd;
  S.BuildDir = canonicalPath(O.BuildDir, Cwd);
  S.DataFile = DataFile;
  S.ReadsDir = Tmp.Path + "/index-reads";
  for (const auto &[Name, Value] : CheckOptions)
    if (Name == "Profile" || Name == "InlineRemarks")
      S.StandIns.push_back({Value, "(" + Name + " with MD5 " + contentDigest(Value) + ")"});
  S.StandIns.push_back({IndexFile, "(the project index)"});
  S.StandIns.push_back({Tmp.Path, "(the run's temporary directory)"});
  S.Index = Index;
  S.Inputs = std::move(Inputs);
  Cache = ResultCache::open(*P, std::move(S));
  if (Cache)
    CheckOptions.push_back({"IndexReads", Tmp.Path + "/index-reads"});
}

/// The first source of \p O the compile database does not list (all of
/// them when it does not load), or none.
std::optional<std::string> unlistedSource(const RunOptions &O) {
  std::string Err;
  std::unique_ptr<Project> P = Project::load(O.BuildDir, Err);
  llvm::SmallString<256> Cwd;
  if (!P || llvm::sys::fs::current_path(Cwd))
    return O.Sources.front();
  for (const std::string &S : O.Sources)
    if (!P->files().count(canonicalPath(S, Cwd)))
      return S;
  return std::nullopt;
}

/// Whether clang-tidy's own run of sources the database does not list
/// takes every option of \p Argv: any option of the runs but -j and
/// --progress (which runClangTidy drops) would be dropped, so it is an
/// error naming \p Unlisted.
bool plainRunTakes(int Argc, const char **Argv, llvm::StringRef Unlisted, std::string &Err) {
  for (const Argument &A : scanArguments(llvm::ArrayRef(Argv + 1, Argc - 1)))
    if (A.Spec && !(A.Spec->Modes & ClangTidy) && A.Spec->Name != "jobs" &&
        A.Spec->Name != "progress") {
      Err = "'" + Unlisted.str() + "' is not in the compile database, so clang-tidy checks it "
            "on its own, and " + A.Text.str() + " needs a run over the database";
      return false;
    }
  return true;
}

} // namespace

int runOverDatabase(int Argc, const char **Argv) {
  RunOptions O;
  std::string Err;
  // One line, the error: --help has the rest.
  if (!parseRunOptions(llvm::ArrayRef(Argv + 1, Argc - 1), O, Err))
    return fail(llvm::StringRef(Err).contains("see --help") ? Err : Err + " (see --help)");
  // -p and sources, no mode option: a run over those TUs when the database
  // lists them all; otherwise clang-tidy's own run, which checks a source
  // the database does not list with flags inferred from its neighbours (or
  // none, without a database).
  if (O.Modes == Database && !O.Sources.empty())
    if (std::optional<std::string> Unlisted = unlistedSource(O)) {
      if (!plainRunTakes(Argc, Argv, *Unlisted, Err))
        return fail(Err);
      return runClangTidy(Argc, Argv);
    }
  catchInterrupts();
  llvm::Expected<int> Status = DatabaseRun(O).run(Argv[0]);
  if (!Status)
    return fail(llvm::toString(Status.takeError()));
  return *Status;
}

} // namespace hotpath::driver
