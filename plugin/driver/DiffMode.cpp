//===--- driver/DiffMode.cpp - hotpath-tidy --diff, --profile, --inline-remarks ===//
//
// Orchestration only (no clang headers): read the diff, pick the TUs it
// affects, run this same binary on each (in parallel, one process per TU,
// so a crash or a broken TU stays in its own process), read back what each
// exported, keep findings on changed lines, print them.
//
// Without --diff (with --profile or --inline-remarks) the TUs are the
// sources named on the command line (all of the database's when none), and
// every finding is kept. --profile and --inline-remarks set the checks'
// Profile and InlineRemarks options in each run's -config; with a profile
// the findings are ordered by the share of samples of their function.
//
//===----------------------------------------------------------------------===//
#include "DiffMode.h"
#include "CheckConfig.h"
#include "CompileDatabase.h"
#include "ExportedFindings.h"
#include "Parallel.h"
#include "Process.h"
#include "IndexRun.h"
#include "InlineRun.h"
#include "Options.h"
#include "ApplyFixes.h"
#include "FixPatch.h"
#include "GithubOutput.h"
#include "Paths.h"
#include "SarifOutput.h"
#include "SourceFiles.h"
#include "TextOutput.h"
#include "PatchFilter.h"
#include "heat/Profile.h"
#include "UnifiedDiff.h"
#include "index/ProjectIndex.h"
#include "core/FindingData.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

namespace hotpath::driver {

namespace {

constexpr int ExitClean = 0, ExitFindings = 1, ExitError = 2;

#define HOTPATH_STRINGIFY2(X) #X
#define HOTPATH_STRINGIFY(X) HOTPATH_STRINGIFY2(X)
#define HOTPATH_LLVM_MAJOR_STRING HOTPATH_STRINGIFY(LLVM_VERSION_MAJOR)

/// The check's data joins each finding it describes (core/FindingData.h):
/// what it is about (offsets, before locate()), its subject, kind and
/// profile share. Tools read this, never the message.
void attachData(std::vector<Finding> &Found,
                const std::map<std::tuple<std::string, std::string, unsigned>,
                               const FindingData *> &ByPlace,
                llvm::StringRef Cwd) {
  for (Finding &F : Found) {
    auto It = ByPlace.find({F.Check, F.Main.File, F.Main.Offset});
    if (It == ByPlace.end())
      continue;
    const FindingData &D = *It->second;
    F.Subject = D.Subject;
    F.Kind = D.Kind;
    F.ProfileShare = D.ProfileShare;
    for (const FindingData::Span &E : D.Extent)
      F.Related.push_back(Range{canonicalPath(E.File, Cwd), E.Offset, E.Length});
  }
}

/// What made a finding a finding in other files (the project index's call
/// sites of a check, a hook's body elsewhere): lines, joined after locate().
void attachEvidence(std::vector<Finding> &Found,
                    const std::map<std::tuple<std::string, std::string, unsigned>,
                                   const FindingData *> &ByPlace,
                    llvm::StringRef Cwd) {
  for (Finding &F : Found) {
    auto It = ByPlace.find({F.Check, F.Main.File, F.Main.Offset});
    if (It == ByPlace.end())
      continue;
    for (const FindingData::Lines &L : It->second->Evidence)
      F.Related.push_back(Range{canonicalPath(L.File, Cwd), 0, 0, L.First, L.Last});
  }
}


int fail(const llvm::Twine &Msg) {
  llvm::errs() << "hotpath-tidy: error: " << Msg << "\n";
  return ExitError;
}

struct TempDir {
  llvm::SmallString<128> Path;
  ~TempDir() {
    if (!Path.empty())
      llvm::sys::fs::remove_directories(Path);
  }
};

bool isCFamilySource(llvm::StringRef Path) {
  llvm::StringRef Ext = llvm::sys::path::extension(Path).ltrim(".");
  static const char *const Exts[] = {"h", "hh", "hpp", "hxx", "h++", "H", "inc", "inl",
                                     "ipp", "tcc", "tpp", "def", "c", "cc", "cpp", "cxx",
                                     "c++", "C", "m", "mm", "cu", "x"};
  for (const char *E : Exts)
    if (Ext == E)
      return true;
  return false;
}

/// The revision to run `git diff <base>` against (the working tree) for
/// --diff=<Rev>. "A...B" is the merge base of A and B (git's meaning: the
/// changes of B since it forked from A), "A..B" is A; either way B (HEAD
/// when empty) must be the checked-out commit, since the files analysed are
/// the working tree's. A plain revision that is not an ancestor of HEAD
/// (the target branch moved on) gets a note: its own later changes show up
/// as changes of the working tree.
bool diffBase(llvm::StringRef Git, llvm::StringRef Root, llvm::StringRef Rev,
              std::string &Base, std::string &Err) {
  auto GitOut = [&](std::vector<llvm::StringRef> Args, std::string &Out) {
    std::vector<llvm::StringRef> Full = {Git, "-C", Root};
    Full.insert(Full.end(), Args.begin(), Args.end());
    ProcessResult R = runProcess(Full);
    Out = llvm::StringRef(R.Status != 0 && R.Status != 1 ? R.Err : R.Out).trim().str();
    return R.Status;
  };
  size_t Dots = Rev.find("..");
  if (Dots == llvm::StringRef::npos) {
    Base = Rev.str();
    std::string Out;
    if (GitOut({"merge-base", "--is-ancestor", Rev, "HEAD"}, Out) == 1)
      llvm::errs() << "hotpath-tidy: note: " << Rev
                   << " is not an ancestor of HEAD: the diff also holds what " << Rev
                   << " changed since HEAD forked from it; --diff=" << Rev
                   << "...HEAD checks only the changes of HEAD\n";
    return true;
  }
  bool Three = Rev.substr(Dots).starts_with("...");
  llvm::StringRef A = Rev.take_front(Dots), B = Rev.drop_front(Dots + (Three ? 3 : 2));
  if (A.empty())
    A = "HEAD";
  if (B.empty())
    B = "HEAD";
  std::string BId, HeadId;
  if (GitOut({"rev-parse", "--verify", "-q", (B + "^{commit}").str()}, BId) != 0 || BId.empty()) {
    Err = "--diff=" + Rev.str() + ": '" + B.str() + "' is not a commit";
    return false;
  }
  if (GitOut({"rev-parse", "--verify", "-q", "HEAD^{commit}"}, HeadId) != 0 || BId != HeadId) {
    Err = "--diff=" + Rev.str() + ": the files checked are the working tree's, so '" + B.str() +
          "' must be the checked-out commit (HEAD)";
    return false;
  }
  if (!Three) {
    Base = A.str();
    return true;
  }
  if (GitOut({"merge-base", A, B}, Base) != 0 || Base.empty()) {
    Err = "--diff=" + Rev.str() + ": no merge base of '" + A.str() + "' and '" + B.str() +
          "'" + (Base.empty() ? "" : ": " + Base);
    return false;
  }
  return true;
}

/// The K-th (1-based) of N slices of \p All, taken round robin so that
/// slices of a sorted list mix directories.
std::vector<std::string> slice(const std::vector<std::string> &All, unsigned K, unsigned N) {
  std::vector<std::string> Out;
  for (size_t I = 0; I < All.size(); ++I)
    if (I % N == K - 1)
      Out.push_back(All[I]);
  return Out;
}

bool changedLine(const ChangedLines &Changed, const std::string &File, unsigned First,
                 unsigned Last) {
  auto It = Changed.find(File);
  if (It == Changed.end())
    return false;
  auto L = It->second.Lines.lower_bound(First);
  return L != It->second.Lines.end() && *L <= Last;
}

/// TUs whose findings may change through what the index knows: those that
/// define a function whose call sites the patch changes, and the TUs
/// (sources of the database) that call a hook whose body it changes.
std::set<std::string> touchedThroughIndex(const index::ProjectIndex &Idx,
                                          const ChangedLines &Changed) {
  std::set<std::string> Out;
  for (const index::Function &Fn : Idx.file().Functions) {
    for (const index::CallSite &C : Fn.Calls)
      if (changedLine(Changed, C.Loc.File, C.Loc.Line, C.Loc.Line)) {
        for (const index::Definition &D : Fn.Definitions)
          Out.insert(D.TU);
        break;
      }
    if (Fn.Hook && llvm::any_of(Fn.Definitions, [&](const index::Definition &D) {
          return changedLine(Changed, D.Loc.File, D.Loc.Line, D.EndLine);
        }))
      for (const index::CallSite &C : Fn.Calls)
        Out.insert(C.Loc.File);
  }
  return Out;
}

} // namespace

int diffMain(int Argc, const char **Argv) {
  RunOptions O;
  std::string Err;
  if (!parseRunOptions(llvm::ArrayRef(Argv + 1, Argc - 1), O, Err)) {
    printUsage(llvm::errs());
    return fail(Err);
  }
  std::string Self = llvm::sys::fs::getMainExecutable(Argv[0], (void *)&diffMain);
  llvm::SmallString<256> CwdBuf;
  if (llvm::sys::fs::current_path(CwdBuf))
    return fail("cannot read the current directory");
  std::string Cwd = canonicalPath(CwdBuf, "/");

  // The top of the git work tree anchors diff paths, the patch and SARIF URIs.
  std::string Root = Cwd;
  auto Git = llvm::sys::findProgramByName("git");
  if (Git) {
    ProcessResult R = runProcess({*Git, "-C", Cwd, "rev-parse", "--show-toplevel"});
    if (R.Status == 0 && !llvm::StringRef(R.Out).trim().empty())
      Root = canonicalPath(llvm::StringRef(R.Out).trim(), Cwd);
  }

  // 1. The profile, read here too, so a bad one stops the run with the
  //    checks' own message before any TU is compiled.
  std::vector<std::pair<std::string, std::string>> CheckOptions;
  if (!O.Profile.empty()) {
    std::string Abs = canonicalPath(O.Profile, Cwd);
    llvm::Expected<hotpath::Profile> Prof = hotpath::Profile::load(Abs);
    if (!Prof)
      return fail(llvm::toString(Prof.takeError()));
    CheckOptions.push_back({"Profile", Abs});
  }

  // 2. The patch.
  const bool FilterLines = !O.Diff.empty();
  ChangedLines Changed;
  if (FilterLines) {
    std::string DiffText;
    if (O.Diff == "-") {
      auto Buf = llvm::MemoryBuffer::getSTDIN();
      if (!Buf)
        return fail("cannot read the diff from standard input");
      DiffText = (*Buf)->getBuffer().str();
    } else {
      if (!Git)
        return fail("--diff=" + O.Diff + " needs git, which is not on PATH");
      std::string Base;
      if (!diffBase(*Git, Root, O.Diff, Base, Err))
        return fail(Err);
      ProcessResult R =
          runProcess({*Git, "-C", Root, "diff", "--no-color", "--no-ext-diff", "--no-textconv",
                      "--src-prefix=a/", "--dst-prefix=b/", "-U0", Base, "--"});
      if (R.Status != 0)
        return fail("git diff " + O.Diff + " failed: " + llvm::StringRef(R.Err).trim());
      DiffText = std::move(R.Out);
    }
    if (!parseUnifiedDiff(DiffText, Root, Changed, Err))
      return fail("cannot read the diff: " + Err);
  }

  auto Emit = [&](std::vector<Finding> &Findings, const std::vector<Failure> &Failures) {
    if (O.Format == "sarif")
      writeSarif(llvm::outs(), Findings, Failures, Root,
                 HOTPATH_VERSION " (LLVM " LLVM_VERSION_STRING ")");
    else if (O.Format == "github")
      writeGithub(llvm::outs(), Findings, Failures, Root);
    else
      writeText(llvm::outs(), Findings, Cwd);
    llvm::outs().flush();
    if (!O.FixPatch.empty()) {
      std::vector<std::string> Dropped;
      std::string PErr;
      if (!writeFixPatch(O.FixPatch, Findings, Root, Dropped, PErr))
        return fail(PErr);
      for (const std::string &D : Dropped)
        llvm::errs() << "hotpath-tidy: warning: " << D << "\n";
    }
    for (const Failure &X : Failures)
      llvm::errs() << "hotpath-tidy: error: " << X.TU << ": could not be analysed: " << X.Reason
                   << "\n";
    if (!Failures.empty())
      return ExitError;
    return Findings.empty() ? ExitClean : ExitFindings;
  };

  if (FilterLines && Changed.empty()) {
    llvm::errs() << "hotpath-tidy: the patch changes no lines; nothing to check\n";
    std::vector<Finding> None;
    return Emit(None, {});
  }

  // 3. The translation units: those the patch affects, or those named.
  if (O.BuildDir.empty())
    return fail(std::string(FilterLines         ? "--diff"
                            : O.in(InlineRemarks)   ? "--inline-remarks"
                            : O.in(IndexOnly)       ? "--index-only"
                            : !O.Profile.empty() ? "--profile"
                                                : "a run over the compile database") +
                " needs -p <build-dir> (the directory of compile_commands.json)");
  std::unique_ptr<Project> P = Project::load(O.BuildDir, Err);
  if (!P)
    return fail("cannot load the compilation database from '" + O.BuildDir + "': " + Err);
  const auto &Files = P->files();
  // Assembly (btrfs-progs' crc32c-pcl-intel-asm_64.S) and other languages
  // sit in compile databases too; clang-tidy cannot check them, and a run
  // on one fails. They are left out, with a note where it matters.
  std::map<std::string, std::string> Uncheckable;
  for (const auto &KV : Files)
    if (std::string L = P->uncheckableLanguage(KV.first); !L.empty())
      Uncheckable[KV.first] = L;
  auto Skip = [&](const std::string &TU) {
    llvm::errs() << "hotpath-tidy: note: skipping " << relativeTo(TU, Cwd) << ": "
                 << Uncheckable.at(TU) << ", which clang-tidy does not check\n";
  };
  std::set<std::string> Selected;
  ProgressLine Progress(O.Progress || llvm::sys::Process::StandardErrIsDisplayed());

  // The project index, of every TU of the database (clang-tidy's kind), so
  // that heat and hooks found in other files count in each TU checked.
  std::shared_ptr<const index::ProjectIndex> ProjIndex;
  if (!O.NoIndex) {
    std::vector<std::string> All;
    for (const auto &KV : Files)
      if (!Uncheckable.count(KV.first))
        All.push_back(KV.first);
    bool SliceOnly = O.in(IndexOnly) && O.SliceN;
    if (SliceOnly)
      All = slice(All, O.SliceK, O.SliceN);
    IndexOptions IO;
    IO.Dir = O.IndexDir.empty() ? canonicalPath(O.BuildDir, Cwd) + "/hotpath-index"
                                : canonicalPath(O.IndexDir, Cwd);
    IO.Jobs = O.Jobs;
    IO.Reindex = O.Reindex;
    IO.Merge = !SliceOnly;
    IndexSummary Sum;
    if (!refreshIndex(*P, All, IO,
                      [&](size_t Done, size_t Total) { Progress.show("indexed", Done, Total); },
                      Sum, Err))
      return fail(Err);
    for (const std::string &N : Sum.Notes)
      llvm::errs() << "hotpath-tidy: note: " << relativeTo(N, Cwd) << "\n";
    llvm::errs() << describe(Sum, relativeTo(IO.Dir, Cwd)) << "\n";
    if (O.in(IndexOnly))
      return ExitClean;
    CheckOptions.push_back({"ProjectIndex", Sum.IndexFile});
    auto Loaded = index::ProjectIndex::load(Sum.IndexFile);
    if (!Loaded)
      return fail(llvm::toString(Loaded.takeError()));
    ProjIndex = std::move(*Loaded);
  }

  if (FilterLines) {
    std::vector<std::string> Headers; // changed, not compiled on their own
    for (const auto &KV : Changed) {
      if (Uncheckable.count(KV.first))
        Skip(KV.first);
      else if (Files.count(KV.first))
        Selected.insert(KV.first);
      else if (isCFamilySource(KV.first))
        Headers.push_back(KV.first);
    }
    size_t Direct = Selected.size(), ViaHeaders = 0;
    if (!Headers.empty()) {
      std::vector<std::string> ToScan;
      for (const auto &KV : Files)
        if (!Selected.count(KV.first) && !Uncheckable.count(KV.first))
          ToScan.push_back(KV.first);
      auto Deps = P->includes(ToScan, O.Jobs, [&](size_t Done) {
        Progress.show("scanning includes", Done, ToScan.size());
      });
      std::set<std::string> HeaderSet(Headers.begin(), Headers.end());
      for (size_t I = 0; I < ToScan.size(); ++I)
        for (const std::string &D : Deps[I])
          if (HeaderSet.count(D)) {
            Selected.insert(ToScan[I]);
            ++ViaHeaders;
            break;
          }
    }
    // The index's evidence: the TUs that define a function whose call
    // sites the patch changes (a new hot call makes an old check hot), and
    // those that call a hook whose body it changes.
    size_t ViaIndex = 0;
    if (ProjIndex)
      for (const std::string &TU : touchedThroughIndex(*ProjIndex, Changed))
        if (Files.count(TU) && !Uncheckable.count(TU) && Selected.insert(TU).second)
          ++ViaIndex;
    llvm::errs() << "hotpath-tidy: " << Changed.size() << " changed file"
                 << (Changed.size() == 1 ? "" : "s") << "; " << Selected.size() << " of "
                 << Files.size() << " translation units to check (" << Direct << " changed, "
                 << ViaHeaders << " through " << Headers.size() << " changed header"
                 << (Headers.size() == 1 ? "" : "s")
                 << (ViaIndex ? ", " + std::to_string(ViaIndex) + " through the project index"
                              : std::string())
                 << ")\n";
  } else if (O.Sources.empty()) {
    for (const auto &KV : Files)
      if (Uncheckable.count(KV.first))
        Skip(KV.first);
      else
        Selected.insert(KV.first);
  } else {
    for (const std::string &S : O.Sources) {
      std::string C = canonicalPath(S, Cwd);
      if (!Files.count(C))
        return fail("'" + S + "' is not in the compilation database in '" + O.BuildDir + "'");
      if (Uncheckable.count(C))
        Skip(C);
      else
        Selected.insert(C);
    }
  }

  if (O.SliceN) {
    std::vector<std::string> Mine =
        slice(std::vector<std::string>(Selected.begin(), Selected.end()), O.SliceK, O.SliceN);
    Selected = std::set<std::string>(Mine.begin(), Mine.end());
  }

  TempDir Tmp;
  if (auto EC = llvm::sys::fs::createUniqueDirectory("hotpath-tidy", Tmp.Path))
    return fail("cannot make a temporary directory: " + EC.message());
  std::vector<Failure> Failures;

  // 4. Inline remarks: every TU of the database is compiled, since the calls
  //    to a check function may be anywhere, not only in the TUs checked.
  if (O.in(InlineRemarks)) {
    std::string Clang;
    for (const char *Name : {"clang-" HOTPATH_LLVM_MAJOR_STRING, "clang"})
      if (auto Found = llvm::sys::findProgramByName(Name)) {
        Clang = *Found;
        break;
      }
    if (Clang.empty())
      return fail("--inline-remarks needs clang (clang-" HOTPATH_LLVM_MAJOR_STRING
                  " or clang on PATH) to compile with -fsave-optimization-record");
    std::vector<std::string> All;
    for (const auto &KV : Files)
      if (!Uncheckable.count(KV.first))
        All.push_back(KV.first);
    std::string RecordDir = (Tmp.Path + "/remarks").str();
    llvm::sys::fs::create_directories(RecordDir);
    std::string Summary = (Tmp.Path + "/inline-summary.txt").str();
    if (!collectInlineRemarks(
            *P, All, Clang, O.Jobs, RecordDir, Summary, Failures,
            [&](size_t Done) { Progress.show("compiled for inline remarks", Done, All.size()); },
            Err))
      return fail(Err);
    CheckOptions.push_back({"InlineRemarks", Summary});
  }

  // The checks' findings as data, one file for every run (each line says
  // where its finding is).
  std::string DataFile = (Tmp.Path + "/findings.jsonl").str();
  CheckOptions.push_back({std::string(FindingsFileOption), DataFile});

  // 5. The configuration of each run: the user's, with the options above.
  std::vector<std::string> ConfigArgs;
  if (!CheckOptions.empty()) {
    std::optional<std::string> User;
    std::string UserName = "-config";
    if (O.Config) {
      User = *O.Config;
    } else if (O.ConfigFile) {
      UserName = "-config-file '" + *O.ConfigFile + "'";
      auto Buf = llvm::MemoryBuffer::getFile(*O.ConfigFile);
      if (!Buf)
        return fail("cannot read " + UserName + ": " + Buf.getError().message());
      User = (*Buf)->getBuffer().str();
    }
    std::string Merged;
    if (!mergeCheckOptions(User, UserName, CheckOptions, Merged, Err))
      return fail(Err);
    ConfigArgs.push_back("--config=" + Merged);
  } else if (O.Config) {
    ConfigArgs.push_back("--config=" + *O.Config);
  } else if (O.ConfigFile) {
    ConfigArgs.push_back("--config-file=" + *O.ConfigFile);
  }

  // 6. Run the checks, one process of this binary per TU.
  std::vector<std::string> TUs(Selected.begin(), Selected.end());
  struct Outcome {
    int RC = 0;
    std::string Log;
  };
  std::vector<Outcome> Outcomes(TUs.size());
  std::string ChecksArg = "--checks=" + O.Checks;
  std::string BuildArg = "-p=" + O.BuildDir;
  std::string HeaderArg = O.HeaderFilter ? "--header-filter=" + *O.HeaderFilter : "";
  forEachInParallel(
      TUs.size(), O.Jobs,
      [&](size_t I) {
        std::string Yaml = (Tmp.Path + "/" + std::to_string(I) + ".yaml").str();
        std::string ExportArg = "--export-fixes=" + Yaml;
        std::vector<llvm::StringRef> Args = {Self, BuildArg, ChecksArg, "--quiet", ExportArg};
        if (!HeaderArg.empty())
          Args.push_back(HeaderArg);
        for (const std::string &A : ConfigArgs)
          Args.push_back(A);
        for (const std::string &A : O.PassThrough)
          Args.push_back(A);
        Args.push_back(Files.at(TUs[I]));
        ProcessResult R = runProcess(Args);
        Outcomes[I].RC = R.Status;
        Outcomes[I].Log = R.Out + R.Err;
      },
      [&](size_t Done) { Progress.show("checked", Done, TUs.size()); });

  // 7. What they found (on the changed lines, with --diff).
  llvm::Expected<std::vector<FindingData>> Data = readFindings(DataFile);
  if (!Data)
    return fail(llvm::toString(Data.takeError()));
  std::map<std::tuple<std::string, std::string, unsigned>, const FindingData *> ByPlace;
  for (const FindingData &D : *Data)
    ByPlace.try_emplace({D.Check, canonicalPath(D.File, Cwd), D.Offset}, &D);
  std::vector<Finding> All;
  for (size_t I = 0; I < TUs.size(); ++I) {
    std::string Yaml = (Tmp.Path + "/" + std::to_string(I) + ".yaml").str();
    std::vector<Finding> Found;
    if (llvm::sys::fs::exists(Yaml) && !readExportedDiagnostics(Yaml, TUs[I], Found, Err)) {
      Failures.push_back({TUs[I], Err});
      continue;
    }
    attachData(Found, ByPlace, Cwd);
    locate(Found);
    attachEvidence(Found, ByPlace, Cwd);
    std::string FirstError;
    for (Finding &F : Found) {
      if (F.Level == "error" && llvm::StringRef(F.Check).starts_with("clang-diagnostic-")) {
        if (FirstError.empty())
          FirstError = (F.Main.File.empty() ? std::string()
                                            : F.Main.File + ":" + std::to_string(F.Main.Line) +
                                                  ":" + std::to_string(F.Main.Col) + ": ") +
                       F.Main.Text;
        continue;
      }
      All.push_back(std::move(F));
    }
    const Outcome &R = Outcomes[I];
    if (!FirstError.empty())
      Failures.push_back({TUs[I], "it does not compile: " + FirstError});
    else if (R.RC == -2)
      Failures.push_back({TUs[I], "the check run crashed: " + lastLines(R.Log, 3)});
    else if (R.RC != 0)
      Failures.push_back({TUs[I], "exit status " + std::to_string(R.RC) + ": " +
                                      lastLines(R.Log, 3)});
  }

  std::set<std::tuple<std::string, std::string, unsigned, std::string>> Seen;
  std::vector<Finding> Findings;
  for (Finding &F : All) {
    if (FilterLines && !patchTouches(F, Changed))
      continue;
    if (!Seen.insert({F.Check, F.Main.File, F.Main.Offset, F.Main.Text}).second)
      continue; // the same finding in a header, from another TU
    Findings.push_back(std::move(F));
  }
  llvm::stable_sort(Findings, [](const Finding &A, const Finding &B) {
    return std::tie(A.Main.File, A.Main.Line, A.Main.Col, A.Check) <
           std::tie(B.Main.File, B.Main.Line, B.Main.Col, B.Check);
  });
  if (!O.Profile.empty()) {
    // Highest share of samples first; findings without one (no function of
    // the profile behind them) after, in file order.
    std::vector<std::pair<double, Finding>> Keyed;
    for (Finding &F : Findings)
      Keyed.push_back({F.ProfileShare.value_or(-1), std::move(F)});
    llvm::stable_sort(Keyed, [](const auto &A, const auto &B) { return A.first > B.first; });
    Findings.clear();
    for (auto &KV : Keyed)
      Findings.push_back(std::move(KV.second));
  }
  llvm::stable_sort(Failures,
                    [](const Failure &A, const Failure &B) { return A.TU < B.TU; });
  if (O.Fix) {
    std::vector<std::string> Dropped;
    unsigned Changed = 0;
    if (!applyFixes(Findings, Root, Dropped, Changed, Err))
      return fail(Err);
    for (const std::string &D : Dropped)
      llvm::errs() << "hotpath-tidy: warning: " << D << "\n";
    size_t Fixed = llvm::count_if(Findings, [](const Finding &F) { return !F.Fix.empty(); });
    llvm::errs() << "hotpath-tidy: applied the fixes of " << Fixed << " finding"
                 << (Fixed == 1 ? "" : "s") << " to " << Changed << " file"
                 << (Changed == 1 ? "" : "s") << "\n";
  }
  return Emit(Findings, Failures);
}

} // namespace hotpath::driver
