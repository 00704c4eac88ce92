//===--- driver/Report.cpp - what a run reports, and its exit status ------===//
#include "Report.h"
#include "ApplyFixes.h"
#include "CodeClimateOutput.h"
#include "ExportFixes.h"
#include "FixPatch.h"
#include "GithubOutput.h"
#include "Options.h"
#include "PatchFilter.h"
#include "SarifOutput.h"
#include "TextOutput.h"
#include "Paths.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/raw_ostream.h"

#include <set>
#include <tuple>

namespace hotpath::driver {

namespace {

llvm::Error error(const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg);
}

/// Highest share of samples first; findings without one (no function of
/// the profile behind them) after, in file order.
void orderByProfile(std::vector<Finding> &Findings) {
  std::vector<std::pair<double, Finding>> Keyed;
  for (Finding &F : Findings)
    Keyed.push_back({F.ProfileShare.value_or(-1), std::move(F)});
  llvm::stable_sort(Keyed, [](const auto &A, const auto &B) { return A.first > B.first; });
  Findings.clear();
  for (auto &KV : Keyed)
    Findings.push_back(std::move(KV.second));
}

void warn(const std::vector<std::string> &Dropped) {
  std::set<std::string> Said; // the fix patch and the export drop the same
  for (const std::string &D : Dropped)
    if (Said.insert(D).second)
      llvm::errs() << "hotpath-tidy: warning: " << D << "\n";
}

/// clang-tidy's glob, '*' any text: true when \p Glob matches all of
/// \p Name.
bool globMatches(llvm::StringRef Glob, llvm::StringRef Name) {
  size_t Star = Glob.find('*');
  if (Star == llvm::StringRef::npos)
    return Glob == Name;
  if (!Name.starts_with(Glob.take_front(Star)))
    return false;
  llvm::StringRef Rest = Glob.drop_front(Star + 1);
  for (size_t From = Star; From <= Name.size(); ++From)
    if (globMatches(Rest, Name.drop_front(From)))
      return true;
  return false;
}

/// A file the run writes, its temporary file made now, beside it: an
/// error naming \p Option.
llvm::Expected<PendingFile> create(llvm::StringRef File, llvm::StringRef Option) {
  llvm::Expected<PendingFile> P = PendingFile::create(File);
  if (!P)
    return error("cannot write " + Option + ": " + llvm::toString(P.takeError()));
  return P;
}

/// Puts a file the run wrote in place, whole: false, with the error said,
/// when writing it failed (a full disk); the file is then as it was.
bool closed(PendingFile &File, llvm::StringRef Option) {
  if (llvm::Error E = File.commit(Durability::Power)) {
    fail("cannot write " + Option + ": " + llvm::toString(std::move(E)));
    return false;
  }
  return true;
}

/// One format of the run, whole.
void writeFormat(llvm::StringRef Name, llvm::raw_ostream &OS, const std::vector<Finding> &Findings,
                 const std::vector<Failure> &Failures, const std::vector<ConfigNote> &Config,
                 bool Successful, llvm::StringRef Root, llvm::StringRef Cwd) {
  if (Name == "sarif")
    writeSarif(OS, Findings, Failures, Config, Successful, Root,
               HOTPATH_VERSION " (LLVM " LLVM_VERSION_STRING ")");
  else if (Name == "github")
    writeGithub(OS, Findings, Failures, Config, Root);
  else if (Name == "codeclimate")
    writeCodeClimate(OS, Findings, Root);
  else
    writeText(OS, Findings, Cwd);
  OS.flush();
}

/// The fix patch and the exported fixes, each edit once.
bool writeFixes(const RunOptions &O, RunOutputs &Out, const std::vector<Finding> &Findings,
                llvm::StringRef Root) {
  std::vector<std::string> Dropped;
  std::string Err;
  if (Out.FixPatch) {
    if (!writeFixPatch(Out.FixPatch->os(), Findings, Root, Dropped, Err)) {
      fail(Err);
      return false;
    }
    if (!closed(*Out.FixPatch, "--fix-patch=" + O.FixPatch))
      return false;
  }
  if (Out.ExportFixes) {
    writeExportFixes(Out.ExportFixes->os(), Findings, Root, Dropped);
    if (!closed(*Out.ExportFixes, "--export-fixes=" + O.ExportFixes))
      return false;
  }
  warn(Dropped);
  return true;
}

/// clang-tidy's last line when warnings were errors.
void tellWarningsAsErrors(const std::vector<Finding> &Findings) {
  size_t N = llvm::count_if(Findings, [](const Finding &F) { return F.WarningAsError; });
  if (N)
    llvm::errs() << "hotpath-tidy: " << N << " warning" << (N == 1 ? "" : "s")
                 << " treated as error" << (N == 1 ? "" : "s") << "\n";
}

/// Each TU that could not be analysed, with why; for those clang cannot
/// compile, their first errors as clang says them, and the summary line.
void tellFailures(const std::vector<Failure> &Failures, size_t Checked, llvm::StringRef Cwd) {
  std::vector<std::string> Skipped;
  for (const Failure &X : Failures) {
    std::string TU = relativeTo(X.TU, Cwd);
    llvm::errs() << "hotpath-tidy: error: " << TU << ": "
                 << (X.compileFailure() ? X.Reason : "could not be analysed: " + X.Reason) << "\n";
    if (!X.compileFailure())
      continue;
    Skipped.push_back(TU);
    for (const Message &E : X.CompileErrors)
      llvm::errs() << errorLine(E, Cwd) << "\n";
    if (size_t More = X.ErrorCount - X.CompileErrors.size())
      llvm::errs() << "hotpath-tidy: note: " << TU << ": " << More << " more error"
                   << (More == 1 ? "" : "s") << "\n";
  }
  if (Skipped.empty())
    return;
  llvm::errs() << "hotpath-tidy: " << Skipped.size() << " of " << Checked
               << " translation unit" << (Checked == 1 ? "" : "s")
               << " skipped, clang cannot compile " << (Skipped.size() == 1 ? "it" : "them")
               << ": " << llvm::join(Skipped, ", ") << "\n";
}

/// What the configuration says, each note once, on standard error: where
/// CI logs show what went wrong whatever the format of standard output.
void tellConfig(const std::vector<ConfigNote> &Config, llvm::StringRef Cwd) {
  for (const ConfigNote &N : Config) {
    llvm::errs() << "hotpath-tidy: " << (N.Error ? "error: " : "warning: ");
    if (!N.Where.File.empty()) {
      llvm::errs() << relativeTo(N.Where.File, Cwd);
      if (N.Where.Line)
        llvm::errs() << ":" << N.Where.Line << ":" << N.Where.Col;
      llvm::errs() << ": ";
    }
    llvm::errs() << N.Where.Text << "\n";
  }
}

} // namespace

int fail(const llvm::Twine &Msg) {
  llvm::errs() << "hotpath-tidy: error: " << Msg << "\n";
  return ExitError;
}

std::vector<Finding> keepFindings(std::vector<Finding> All, const ChangedLines *Patch,
                                  bool ByProfile) {
  std::set<std::tuple<std::string, std::string, unsigned, std::string>> Seen;
  std::vector<Finding> Findings;
  for (Finding &F : All) {
    if (Patch && !patchTouches(F, *Patch))
      continue;
    if (!Seen.insert({F.Check, F.Main.File, F.Main.Offset, F.Main.Text}).second)
      continue; // the same finding in a header, from another TU
    Findings.push_back(std::move(F));
  }
  llvm::stable_sort(Findings, [](const Finding &A, const Finding &B) {
    return std::tie(A.Main.File, A.Main.Line, A.Main.Col, A.Check) <
           std::tie(B.Main.File, B.Main.Line, B.Main.Col, B.Check);
  });
  if (ByProfile)
    orderByProfile(Findings);
  return Findings;
}

llvm::Error applyAndTell(const std::vector<Finding> &Findings, llvm::StringRef Root,
                         llvm::StringRef StateDir) {
  std::vector<std::string> Dropped;
  unsigned Changed = 0;
  std::string Err;
  if (!applyFixes(Findings, Root, StateDir, Dropped, Changed, Err))
    return error(Err);
  warn(Dropped);
  size_t Fixed = llvm::count_if(Findings, [](const Finding &F) { return !F.Fix.empty(); });
  llvm::errs() << "hotpath-tidy: applied the fixes of " << Fixed << " finding"
               << (Fixed == 1 ? "" : "s") << " to " << Changed << " file"
               << (Changed == 1 ? "" : "s") << "\n";
  return llvm::Error::success();
}

llvm::raw_ostream &RunOutputs::Output::stream() { return File ? File->os() : llvm::outs(); }

llvm::Error RunOutputs::open(const RunOptions &O) {
  bool Stdout = false;
  for (const OutputFormat &F : O.Formats) {
    Output Out{F.Name, "--format=" + F.Name + ":" + F.File, std::nullopt};
    if (!F.File.empty()) {
      auto File = create(F.File, Out.Option);
      if (!File)
        return File.takeError();
      Out.File = std::move(*File);
    }
    Stdout |= F.File.empty();
    Outputs.push_back(std::move(Out));
  }
  if (!Stdout) // clang-tidy's text, unless a format takes standard output
    Outputs.push_back(Output{"text", "", std::nullopt});
  if (!O.ExportFixes.empty()) {
    auto File = create(O.ExportFixes, "--export-fixes=" + O.ExportFixes);
    if (!File)
      return File.takeError();
    ExportFixes = std::move(*File);
  }
  if (!O.FixPatch.empty()) {
    auto File = create(O.FixPatch, "--fix-patch=" + O.FixPatch);
    if (!File)
      return File.takeError();
    FixPatch = std::move(*File);
  }
  return llvm::Error::success();
}

std::vector<llvm::raw_ostream *> RunOutputs::streamText(const RunOptions &O) {
  std::vector<llvm::raw_ostream *> Streams;
  if (O.in(Diff) || O.in(Profile))
    return Streams;
  for (Output &Out : Outputs)
    if (Out.Name == "text") {
      Out.Streamed = true;
      Streams.push_back(&Out.stream());
    }
  return Streams;
}

bool globsSelect(llvm::StringRef Globs, llvm::StringRef Name) {
  llvm::SmallVector<llvm::StringRef, 8> Items;
  Globs.split(Items, ',');
  bool Selected = false;
  for (llvm::StringRef Item : Items)
    for (llvm::StringRef Line : llvm::split(Item, '\n')) {
      llvm::StringRef G = Line.trim(" \t\r");
      bool Negative = G.consume_front("-");
      if (!G.empty() && globMatches(G, Name))
        Selected = !Negative; // the last that matches decides
    }
  return Selected;
}

void markWarningsAsErrors(std::vector<Finding> &Findings,
                          const std::optional<std::string> &Globs) {
  if (!Globs)
    return;
  // Or'ed: the configuration's WarningsAsErrors marked some already
  // (ExportedFindings.h), as clang-tidy adds the option to it.
  for (Finding &F : Findings)
    F.WarningAsError |= F.Level == "warning" && globsSelect(*Globs, F.Check);
}

int report(const RunOptions &O, RunOutputs &Out, const std::vector<Finding> &Reported,
           const std::vector<Failure> &Failures, const std::vector<ConfigNote> &Given,
           size_t Checked, llvm::StringRef Root, llvm::StringRef Cwd) {
  std::vector<Finding> Findings = Reported;
  markWarningsAsErrors(Findings, O.WarningsAsErrors);
  int Status = exitStatus(Findings, Failures, Given, Checked, O.Strict);
  // With --strict a warning is an error, and says so in every format.
  std::vector<ConfigNote> Config = Given;
  for (ConfigNote &N : Config)
    N.Error |= O.Strict;
  bool Written = true;
  for (RunOutputs::Output &Output : Out.Outputs) {
    if (!Output.Streamed)
      writeFormat(Output.Name, Output.stream(), Findings, Failures, Config,
                  Status != ExitError, Root, Cwd);
    Written &= !Output.File || closed(*Output.File, Output.Option);
  }
  if (!writeFixes(O, Out, Findings, Root) || !Written)
    return ExitError;
  tellConfig(Config, Cwd);
  tellFailures(Failures, Checked, Cwd);
  tellWarningsAsErrors(Findings);
  return Status;
}

int exitStatus(const std::vector<Finding> &Findings, const std::vector<Failure> &Failures,
               const std::vector<ConfigNote> &Config, size_t Checked, bool Strict) {
  // A setting the run could not take is no clean run; with --strict
  // neither is one it ignored (an option no check has).
  if (llvm::any_of(Config, [&](const ConfigNote &N) { return N.Error || Strict; }))
    return ExitError;
  bool RunFailed = llvm::any_of(Failures, [](const Failure &X) { return !X.compileFailure(); });
  size_t Skipped = llvm::count_if(Failures, [](const Failure &X) { return X.compileFailure(); });
  // Nothing checked at all is no clean run.
  if (RunFailed || (Skipped && Skipped >= Checked))
    return ExitError;
  bool Found = llvm::any_of(Findings, [](const Finding &F) { return F.Level != "remark"; });
  return Found ? ExitFindings : ExitClean;
}

} // namespace hotpath::driver
