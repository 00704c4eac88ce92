//===--- driver/Options.cpp - hotpath-tidy's command line, one table ------===//
#include "Options.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <thread>

namespace hotpath::driver {

namespace {

using Spec = OptionSpec;

bool setString(std::string &Field, llvm::StringRef V) {
  Field = V.str();
  return true;
}

bool nonEmpty(std::string &Field, llvm::StringRef V, const char *Why, std::string &Err) {
  if (V.empty()) {
    Err = Why;
    return false;
  }
  Field = V.str();
  return true;
}

bool passOn(RunOptions &O, llvm::StringRef Name, llvm::StringRef V) {
  O.PassThrough.push_back(("--" + Name + "=" + V).str());
  return true;
}

constexpr unsigned NotDiff = AnyRun & ~Diff;
constexpr Role Opt = Role::Option;
constexpr Mode None = Mode(0);

// The table. Rows with help are the modes' own options, in --help's order;
// those without are clang-tidy's, which clang-tidy's --help describes.
const Spec Table[] = {
    // MODES
    {"diff", "", Spec::Value, "<rev>", AnyRun, Role::Selects, Diff, Section::Modes,
     "the changes from <rev> to the working tree (git diff <rev>): only the TUs they "
     "affect, only the findings that are new (not at <rev>; --diff-filter)\n"
     "A...B\tthe changes since the merge base of A and B (B: HEAD, the checked-out "
     "commit); in CI: --diff=origin/main...HEAD\n"
     "-\ta unified diff on standard input (paths relative to the top of the git work "
     "tree, or to the current directory outside one)",
     "",
     [](RunOptions &O, llvm::StringRef V, std::string &Err) {
       return nonEmpty(O.Diff, V, "--diff needs a git revision or '-'", Err);
     },
     "-p <build-dir> [options]"},
    {"diff-filter", "", Spec::Value, "new|touched", Diff, Opt, None, Section::Modes,
     "which findings of the TUs the patch affects are reported\n"
     "new\t(default) those not found at the base revision (--diff=<rev>: <rev>; A...B: "
     "the merge base): the same checks on the same TUs with the files the patch changes "
     "as they were, matched by SARIF's fingerprints (check, file, subject, the line's "
     "text), so an old finding whose line moved or whose evidence changed is not new\n"
     "touched\tthose whose line, declaration, evidence or fix the patch adds, changes or "
     "removes, new or not (the default with --diff=-, which has no base revision)",
     "it filters a --diff run's findings",
     [](RunOptions &O, llvm::StringRef V, std::string &Err) {
       if (V == "new" || V == "touched")
         return setString(O.DiffFilter, V);
       Err = "--diff-filter must be new or touched, not '" + V.str() + "'";
       return false;
     }},
    {"strip", "", Spec::Value, "N", AnyRun & ~IndexOnly, Opt, None, Section::Modes,
     "with --diff, remove N leading components from the diff's paths, as patch -pN does "
     "(default: git's a/ and b/ when the diff has them; --strip=0 keeps the paths whole)",
     "",
     [](RunOptions &O, llvm::StringRef V, std::string &Err) {
       unsigned N;
       if (V.getAsInteger(10, N)) {
         Err = "--strip must be a number of path components, not '" + V.str() + "'";
         return false;
       }
       O.Strip = N;
       return true;
     }},
    {"profile", "", Spec::Value, "<file>", AnyRun, Role::Selects, Profile, Section::Modes,
     "a perf report --stdio or folded-stacks profile: the checks' Profile option, "
     "findings ordered by their share of samples",
     "",
     [](RunOptions &O, llvm::StringRef V, std::string &Err) {
       return nonEmpty(O.Profile, V, "--profile needs a file", Err);
     },
     "-p <build-dir> [options] [<source>...]"},
    {"inline-remarks", "", Spec::Flag, "", AnyRun, Role::Selects, InlineRemarks,
     Section::Modes,
     "compile every TU of the database with clang -O2 and its optimization record; "
     "report a check or hook only where calls to it stay out of line",
     "", [](RunOptions &, llvm::StringRef, std::string &) { return true; },
     "-p <build-dir> [options] [<source>...]"},
    {"index-only", "", Spec::Flag, "", AnyRun, Role::Selects, IndexOnly, Section::Modes,
     "build or refresh the project index, check nothing", "",
     [](RunOptions &, llvm::StringRef, std::string &) { return true; },
     "-p <build-dir> [--shard=K/N] [--reindex]"},
    {"explain", "", Spec::Value, "<name>", ClangTidy | (AnyRun & ~IndexOnly), Opt, None,
     Section::Modes,
     "each step of the checks' analysis of that function or macro (found, shape rule, "
     "heat and threshold, fix), as remarks and notes (the checks' Explain option); in a "
     "run over the database, by the TUs that define or declare it, with the project index",
     "it explains, it does not build the index",
     [](RunOptions &O, llvm::StringRef V, std::string &Err) {
       if (V.empty() || V.starts_with("-")) {
         Err = "--explain needs the name of a function or macro "
               "(--explain=check_setget_bounds)";
         return false;
       }
       return setString(O.Explain, V);
     }},

    // OPTIONS of the modes
    {"p", "", Spec::Value, "<build-dir>", ClangTidy | AnyRun, Opt, None, Section::Run,
     "where compile_commands.json is (required)", "",
     [](RunOptions &O, llvm::StringRef V, std::string &) { return setString(O.BuildDir, V); }},
    {"jobs", "j", Spec::Value, "N", AnyRun, Opt, None, Section::Run,
     "TUs checked at once (default: the number of cores)", "",
     [](RunOptions &O, llvm::StringRef V, std::string &Err) {
       if (!V.getAsInteger(10, O.Jobs))
         return true;
       Err = "bad -j value '" + V.str() + "'";
       return false;
     }},
    {"format", "", Spec::Value, "<format>[:<file>]", AnyRun, Opt, None, Section::Run,
     "the findings in <format>, to <file> or standard output; repeatable: one run writes "
     "every format asked for, at most one of them to standard output (which carries "
     "clang-tidy's text when every --format names a file). Every file is created before "
     "anything is checked. The text streams: each TU's findings as soon as it and the TUs "
     "before it (by path) are checked, the same for any -j; with --diff or --profile, and "
     "in the other formats, at the end of the run\n"
     "text\tclang-tidy's text (the default)\n"
     "github\tGitHub workflow annotations\n"
     "sarif\tSARIF 2.1.0 for code scanning\n"
     "codeclimate\tGitLab Code Quality JSON (a Code Climate subset), for "
     "artifacts:reports:codequality",
     "",
     [](RunOptions &O, llvm::StringRef V, std::string &Err) {
       auto [Name, File] = V.split(':');
       if (Name != "text" && Name != "sarif" && Name != "github" && Name != "codeclimate") {
         Err = "--format must be text, github, sarif or codeclimate, optionally with "
               ":<file>, not '" + V.str() + "'";
         return false;
       }
       if (V.contains(':') && File.empty()) {
         Err = "--format=" + V.str() + " needs a file after ':'";
         return false;
       }
       O.Formats.push_back({Name.str(), File.str()});
       return true;
     }},
    {"fix-patch", "", Spec::Value, "<file>", AnyRun, Opt, None, Section::Run,
     "the fixes of the findings reported, as one unified diff (git apply, patch -p1); "
     "the working tree is left alone",
     "",
     [](RunOptions &O, llvm::StringRef V, std::string &Err) {
       return nonEmpty(O.FixPatch, V, "--fix-patch needs a file", Err);
     }},
    {"export-fixes", "", Spec::Value, "<file>", ClangTidy | AnyRun, Opt, None, Section::Run,
     "the findings reported and their fixes as clang-tidy's YAML, each edit once however "
     "many TUs propose it: clang-apply-replacements <dir-of-file> applies what --fix would",
     "",
     [](RunOptions &O, llvm::StringRef V, std::string &Err) {
       return nonEmpty(O.ExportFixes, V, "--export-fixes needs a file", Err);
     }},
    {"warnings-as-errors", "", Spec::Value, "<globs>", ClangTidy | AnyRun, Opt, None,
     Section::Run,
     "as clang-tidy's: the warnings of the checks the globs select (-*,hotpath-hook-gate) "
     "are errors, in every format (text: 'error: ... [check,-warnings-as-errors]'), and "
     "'N warnings treated as errors' ends standard error; the exit status is 1, as for any "
     "finding",
     "",
     [](RunOptions &O, llvm::StringRef V, std::string &) {
       O.WarningsAsErrors = V.str();
       return true;
     }},
    {"progress", "", Spec::Flag, "", AnyRun, Opt, None, Section::Run,
     "'hotpath-tidy: [3/10] checked src/a.c' on standard error: on a terminal always "
     "(one line rewritten in place); otherwise only with --progress: each step's "
     "(indexing, checking) first and last line, and between them at most one each 5 s",
     "", [](RunOptions &O, llvm::StringRef, std::string &) { return O.Progress = true; }},
    {"strict", "", Spec::Flag, "", AnyRun, Opt, None, Section::Run,
     "warnings about the run's input are errors (exit 2): an option no check has, a "
     "path of the --diff that matches no file",
     "", [](RunOptions &O, llvm::StringRef, std::string &) { return O.Strict = true; }},
    {"fix", "", Spec::Flag, "", ClangTidy | NotDiff, Opt, None, Section::Run,
     "apply the fixes of every finding (not with --diff), each edit once however many "
     "TUs propose it (shared headers)",
     "--fix-patch=<file> writes the fixes as a diff",
     [](RunOptions &O, llvm::StringRef, std::string &) { return O.Fix = true; }},
    {"shard", "", Spec::Value, "K/N", AnyRun, Opt, None, Section::Run,
     "the K-th of N slices of the TUs (sorted): with --index-only the TUs indexed, "
     "otherwise the TUs checked (the index still covers the whole database); for CI "
     "matrices (docs/ci.md)",
     "",
     [](RunOptions &O, llvm::StringRef V, std::string &Err) {
       auto [K, N] = V.split('/');
       if (!K.getAsInteger(10, O.SliceK) && !N.getAsInteger(10, O.SliceN) && O.SliceN &&
           O.SliceK && O.SliceK <= O.SliceN)
         return true;
       Err = "--shard must be K/N with 1 <= K <= N, not '" + V.str() + "'";
       return false;
     }},
    {"", "", Spec::Sources, "<source>...", ClangTidy | NotDiff, Opt, None, Section::Run,
     "without --diff, the TUs to check (default: all in the database)",
     "the patch chooses the files",
     [](RunOptions &O, llvm::StringRef V, std::string &) {
       O.Sources.push_back(V.str());
       return true;
     }},

    // PROJECT INDEX
    {"index-dir", "", Spec::Value, "<dir>", AnyRun, Opt, None, Section::Index,
     "where it is (default: <build-dir>/hotpath-index)", "",
     [](RunOptions &O, llvm::StringRef V, std::string &Err) {
       return nonEmpty(O.IndexDir, V, "--index-dir needs a directory", Err);
     }},
    {"reindex", "", Spec::Flag, "", AnyRun, Opt, None, Section::Index,
     "parse every TU again, whatever the index holds", "",
     [](RunOptions &O, llvm::StringRef, std::string &) { return O.Reindex = true; }},
    {"no-index", "", Spec::Flag, "", AnyRun, Opt, None, Section::Index,
     "no index: each TU is checked on its own", "",
     [](RunOptions &O, llvm::StringRef, std::string &) { return O.NoIndex = true; }},
    {"cache-dir", "", Spec::Value, "<dir>", AnyRun & ~IndexOnly, Opt, None, Section::Index,
     "the result cache: a TU whose compile command, files read and index facts are "
     "unchanged reuses its findings and fixes without parsing (default: "
     "<build-dir>/hotpath-cache; docs/project-index.md)",
     "--index-only checks nothing",
     [](RunOptions &O, llvm::StringRef V, std::string &Err) {
       return nonEmpty(O.CacheDir, V, "--cache-dir needs a directory", Err);
     }},
    {"no-cache", "", Spec::Flag, "", AnyRun & ~IndexOnly, Opt, None, Section::Index,
     "no result cache: every TU is parsed and checked, and nothing is stored",
     "--index-only checks nothing",
     [](RunOptions &O, llvm::StringRef, std::string &) { return O.NoCache = true; }},

    // clang-tidy's, passed to each run
    {"checks", "", Spec::Value, "", ClangTidy | AnyRun, Opt, None, Section::PassedToRuns,
     "default -*,hotpath-*", "",
     [](RunOptions &O, llvm::StringRef V, std::string &) { return setString(O.Checks, V); }},
    {"config", "", Spec::Value, "", ClangTidy | AnyRun, Opt, None, Section::PassedToRuns, "",
     "",
     [](RunOptions &O, llvm::StringRef V, std::string &) {
       O.Config = V.str();
       return true;
     }},
    {"config-file", "", Spec::Value, "", ClangTidy | AnyRun, Opt, None, Section::PassedToRuns,
     "", "",
     [](RunOptions &O, llvm::StringRef V, std::string &) {
       O.ConfigFile = V.str();
       return true;
     }},
    {"header-filter", "", Spec::Value, "", ClangTidy | AnyRun, Opt, None,
     Section::PassedToRuns, "", "",
     [](RunOptions &O, llvm::StringRef V, std::string &) {
       O.HeaderFilter = V.str();
       return true;
     }},
    {"extra-arg", "", Spec::Value, "", ClangTidy | AnyRun, Opt, None, Section::PassedToRuns,
     "", "",
     [](RunOptions &O, llvm::StringRef V, std::string &) {
       O.ExtraArgs.push_back(V.str());
       return passOn(O, "extra-arg", V);
     }},
    {"extra-arg-before", "", Spec::Value, "", ClangTidy | AnyRun, Opt, None,
     Section::PassedToRuns, "", "",
     [](RunOptions &O, llvm::StringRef V, std::string &) {
       O.ExtraArgsBefore.push_back(V.str());
       return passOn(O, "extra-arg-before", V);
     }},
    {"load", "", Spec::Value, "", ClangTidy | AnyRun, Opt, None, Section::PassedToRuns, "",
     "", [](RunOptions &O, llvm::StringRef V, std::string &) { return passOn(O, "load", V); }},
    {"vfsoverlay", "", Spec::Value, "", ClangTidy | AnyRun, Opt, None, Section::PassedToRuns,
     "", "",
     [](RunOptions &O, llvm::StringRef V, std::string &) {
       return passOn(O, "vfsoverlay", V);
     }},
    // Each run is quiet; accepted for symmetry with clang-tidy.
    {"quiet", "", Spec::Flag, "", ClangTidy | AnyRun, Opt, None, Section::Hidden, "", "",
     [](RunOptions &, llvm::StringRef, std::string &) { return true; }},

    // clang-tidy's alone.
    {"fix-errors", "", Spec::Flag, "", ClangTidy, Opt, None, Section::Hidden, "",
     "a TU that does not compile is not fixed", nullptr},
    {"exclude-header-filter", "", Spec::Value, "", ClangTidy, Opt, None, Section::Hidden, "",
     "", nullptr},
    {"line-filter", "", Spec::Value, "", ClangTidy, Opt, None, Section::Hidden, "", "",
     nullptr},
    {"format-style", "", Spec::Value, "", ClangTidy, Opt, None, Section::Hidden, "", "",
     nullptr},
    {"store-check-profile", "", Spec::Value, "", ClangTidy, Opt, None, Section::Hidden, "",
     "", nullptr},
    {"removed-arg", "", Spec::Value, "", ClangTidy, Opt, None, Section::Hidden, "", "",
     nullptr},
    // Queries: they need no source and check nothing.
    {"list-checks", "", Spec::Flag, "", ClangTidy, Role::Query, None, Section::Hidden, "", "",
     nullptr},
    {"dump-config", "", Spec::Flag, "", ClangTidy, Role::Query, None, Section::Hidden, "", "",
     nullptr},
    {"explain-config", "", Spec::Flag, "", ClangTidy, Role::Query, None, Section::Hidden, "",
     "", nullptr},
    {"verify-config", "", Spec::Flag, "", ClangTidy, Role::Query, None, Section::Hidden, "",
     "", nullptr},
    {"help", "h", Spec::Flag, "", ClangTidy, Role::Help, None, Section::Hidden, "", "",
     nullptr},
    {"help-hidden", "", Spec::Flag, "", ClangTidy, Role::HelpHidden, None, Section::Hidden,
     "", "", nullptr},
    {"version", "", Spec::Flag, "", ClangTidy, Role::Version, None, Section::Hidden, "", "",
     nullptr},
};

const Spec *find(llvm::StringRef Name) {
  if (Name.empty())
    return nullptr;
  for (const Spec &S : Table)
    if (S.Name == Name || S.Alias == Name)
      return &S;
  return nullptr;
}

const Spec &sourcesSpec() {
  return *llvm::find_if(Table, [](const Spec &S) { return S.Kind == Spec::Sources; });
}

/// "-j8": a number written against a one-letter alias (digits only, so
/// that no longer name is cut).
const Spec *withAttachedValue(llvm::StringRef Bare, llvm::StringRef &Value) {
  for (const Spec &S : Table)
    if (S.Alias.size() == 1 && S.Kind == Spec::Value && Bare.size() > 1 &&
        Bare.starts_with(S.Alias) && llvm::isDigit(Bare[1])) {
      Value = Bare.drop_front();
      return &S;
    }
  return nullptr;
}

/// The option \p A names, with its value, from \p Args[I] on.
Argument readOption(llvm::ArrayRef<const char *> Args, size_t I) {
  Argument A;
  A.Text = Args[I];
  A.Index = I;
  llvm::StringRef Bare = A.Text.drop_front(A.Text.starts_with("--") ? 2 : 1);
  auto [Name, Inline] = Bare.split('=');
  A.Spec = find(Name);
  if (!A.Spec) {
    A.Spec = withAttachedValue(Bare, A.Value);
    return A;
  }
  if (A.Spec->Kind != Spec::Value || Bare.contains('=')) {
    A.Value = Inline;
    return A;
  }
  if (I + 1 < Args.size()) {
    A.Value = Args[I + 1];
    A.Count = 2;
  } else {
    A.MissingValue = true;
  }
  return A;
}

/// The error for \p A given in a run whose modes it does not belong to
/// (an option the table does not know belongs to none).
std::string refusal(const Argument &A, unsigned Modes) {
  const Spec *S = A.Spec;
  unsigned Outside = Modes & ~(S ? S->Modes : 0u);
  if (S && S->Kind == Spec::Sources)
    return modeOption(Outside) + " takes no file names: " + S->Refusal.str() + " ('" +
           A.Text.str() + "')";
  if (S && (S->Modes & AnyRun))
    return "--" + S->Name.str() + " is not supported with " + modeOption(Outside) + ": " +
           S->Refusal.str();
  if (S && !S->Refusal.empty())
    return "option '" + A.Text.str() + "' is not supported here: " + S->Refusal.str();
  return "option '" + A.Text.str() +
         "' is not supported in a run over the compile database (-p, --diff, --profile, "
         "--inline-remarks; see --help)";
}

/// The file \p Path names, for comparing what two options name.
std::string samePathKey(llvm::StringRef Path) {
  llvm::SmallString<256> P(Path);
  llvm::sys::fs::make_absolute(P);
  llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  return std::string(P);
}

/// At most one output on standard output, and no file named by two
/// outputs (one would overwrite the other).
bool checkOutputs(const RunOptions &O, std::string &Err) {
  std::vector<std::pair<std::string, std::string>> Files; // option, file
  std::string OnStdout;
  for (const OutputFormat &F : O.Formats) {
    std::string Option = "--format=" + F.Name;
    if (!F.File.empty()) {
      Files.push_back({Option + ":" + F.File, F.File});
    } else if (OnStdout.empty()) {
      OnStdout = Option;
    } else {
      Err = OnStdout + " and " + Option + " both write to standard output: give all but "
            "one of them a file (" + Option + ":<file>)";
      return false;
    }
  }
  if (!O.FixPatch.empty())
    Files.push_back({"--fix-patch=" + O.FixPatch, O.FixPatch});
  if (!O.ExportFixes.empty())
    Files.push_back({"--export-fixes=" + O.ExportFixes, O.ExportFixes});
  for (size_t I = 0; I < Files.size(); ++I)
    for (size_t J = I + 1; J < Files.size(); ++J)
      if (samePathKey(Files[I].second) == samePathKey(Files[J].second)) {
        Err = Files[I].first + " and " + Files[J].first + " name the same file: each "
              "output needs a file of its own";
        return false;
      }
  return true;
}

/// What the options given say together.
bool checkTogether(const RunOptions &O, std::string &Err) {
  if (!checkOutputs(O, Err))
    return false;
  if (O.Config && O.ConfigFile)
    Err = "-config and -config-file are mutually exclusive";
  else if (O.Strip && O.Diff != "-")
    Err = "--strip applies to a diff read from standard input (--diff=-): the paths of "
          "git's own diff are known";
  else if (O.DiffFilter == "new" && O.Diff == "-")
    Err = "--diff-filter=new needs a base revision, and a diff on standard input (--diff=-) "
          "has none: --diff=<rev> or --diff=A...B, or --diff-filter=touched";
  else if (O.NoIndex && (O.in(IndexOnly) || O.Reindex || !O.IndexDir.empty()))
    Err = "--no-index and --index-only, --reindex or --index-dir contradict each other";
  else if (!O.CacheDir.empty() && (O.NoCache || O.NoIndex))
    Err = O.NoCache ? "--no-cache and --cache-dir contradict each other"
                    : "--cache-dir needs the project index (it keys on what each TU read), "
                      "not --no-index";
  return Err.empty();
}

} // namespace

llvm::ArrayRef<OptionSpec> optionTable() { return Table; }

std::string modeOption(unsigned Modes) {
  for (const Spec &S : Table)
    if (S.Is == Role::Selects && (Modes & S.Selects))
      return "--" + S.Name.str();
  return "a run over the compile database";
}

std::vector<Argument> scanArguments(llvm::ArrayRef<const char *> Args) {
  std::vector<Argument> Out;
  for (size_t I = 0; I < Args.size(); I += Out.back().Count) {
    llvm::StringRef Text = Args[I];
    if (Text == "--") {
      Argument End;
      End.Text = Text;
      End.Index = I;
      End.EndOfOptions = true;
      Out.push_back(End);
      break;
    }
    if (Text.starts_with("-")) {
      Out.push_back(readOption(Args, I));
      continue;
    }
    Argument Source;
    Source.Spec = &sourcesSpec();
    Source.Text = Source.Value = Text;
    Source.Index = I;
    Out.push_back(Source);
  }
  return Out;
}

bool takesValue(llvm::StringRef Name) {
  const Spec *S = find(Name);
  return S && S->Kind == Spec::Value;
}

Request classify(llvm::ArrayRef<const char *> Args) {
  std::vector<Argument> Scanned = scanArguments(Args);
  for (const Argument &A : Scanned)
    if (A.Spec && A.Spec->Is == Role::Help)
      return Request::Help;
    else if (A.Spec && A.Spec->Is == Role::HelpHidden)
      return Request::HelpHidden;
    else if (A.Spec && A.Spec->Is == Role::Version)
      return Request::Version;
  bool BuildDir = false, Source = false, RunOnly = true;
  for (const Argument &A : Scanned) {
    if (A.EndOfOptions || (A.Spec && A.Spec->Is == Role::Query))
      return Request::ClangTidy;
    if (A.Spec && A.Spec->Is == Role::Selects)
      return Request::Run;
    Source |= A.Spec && A.Spec->Kind == Spec::Sources;
    BuildDir |= A.Spec && A.Spec->Name == "p";
    // With sources, --export-fixes keeps clang-tidy's own run, which
    // exports those TUs the same way: each check run of a run over the
    // database is one (CheckRuns.h), and must not become a run itself.
    RunOnly &= A.Spec && (A.Spec->Modes & AnyRun) && A.Spec->Name != "export-fixes";
  }
  // -p and no source: the whole compile database. -p and sources, with
  // only options a run takes: a run over those TUs of the database, so that
  // they are checked as the whole-database run checks them (the hotpath
  // checks by default, the project index, -j). An option only clang-tidy
  // knows (-export-fixes, -line-filter, ...) keeps clang-tidy's own run.
  if (BuildDir && !Source)
    return Request::Run;
  return BuildDir && RunOnly ? Request::Run : Request::ClangTidy;
}

bool parseRunOptions(llvm::ArrayRef<const char *> Args, RunOptions &O, std::string &Err) {
  std::vector<Argument> Scanned = scanArguments(Args);
  for (const Argument &A : Scanned)
    if (A.Spec && A.Spec->Is == Role::Selects)
      O.Modes |= A.Spec->Selects;
  if (!O.Modes)
    O.Modes = Database;
  for (const Argument &A : Scanned) {
    if (A.EndOfOptions)
      Err = "'--' (compile flags on the command line) is not supported here: the compile "
            "commands come from -p <build-dir>";
    else if (!A.Spec || !A.Spec->Apply || (O.Modes & ~A.Spec->Modes))
      Err = refusal(A, O.Modes);
    else if (A.MissingValue)
      Err = "option '" + A.Text.str() + "' needs a value";
    else if (A.Spec->Kind == Spec::Flag && A.Text.contains('='))
      Err = "option '" + A.Text.str() + "' takes no value";
    else
      A.Spec->Apply(O, A.Value, Err);
    if (!Err.empty())
      return false;
  }
  if (O.Jobs == 0)
    O.Jobs = std::max(1u, std::thread::hardware_concurrency());
  return checkTogether(O, Err);
}

bool takeExplain(std::vector<const char *> &Args, std::string &Name, std::string &Err) {
  std::vector<Argument> Scanned = scanArguments(llvm::ArrayRef(Args).drop_front());
  RunOptions O;
  for (auto It = Scanned.rbegin(); It != Scanned.rend(); ++It) {
    if (!It->Spec || It->Spec->Name != "explain")
      continue;
    if (!It->Spec->Apply(O, It->Value, Err))
      return false;
    if (Name.empty())
      Name = O.Explain; // the last one given
    Args.erase(Args.begin() + 1 + It->Index, Args.begin() + 1 + It->Index + It->Count);
  }
  return true;
}

} // namespace hotpath::driver
