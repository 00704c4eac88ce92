//===--- driver/ExportedFindings.cpp - what each clang-tidy run found -----===//
#include "ExportedFindings.h"
#include "Paths.h"
#include "Process.h"
#include "SourceFiles.h"

#include "core/FindingData.h"

#include "clang/Tooling/DiagnosticsYaml.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <map>
#include <tuple>

namespace hotpath::driver {

namespace {

using namespace clang;

const char *levelName(tooling::Diagnostic::Level L) {
  switch (L) {
  case tooling::Diagnostic::Error:
    return "error";
  case tooling::Diagnostic::Remark:
    return "remark";
  default:
    return "warning";
  }
}

/// The checks' data by where its finding is: check, file, offset.
using DataByPlace =
    std::map<std::tuple<std::string, std::string, unsigned>, const FindingData *>;

/// The check's data joins each finding it describes (core/FindingData.h):
/// what it is about (offsets, before locate()), its subject, kind and
/// profile share. Tools read this, never the message.
void attachData(std::vector<Finding> &Found, const DataByPlace &ByPlace, llvm::StringRef Cwd) {
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
void attachEvidence(std::vector<Finding> &Found, const DataByPlace &ByPlace,
                    llvm::StringRef Cwd) {
  for (Finding &F : Found) {
    auto It = ByPlace.find({F.Check, F.Main.File, F.Main.Offset});
    if (It == ByPlace.end())
      continue;
    for (const FindingData::Lines &L : It->second->Evidence)
      F.Related.push_back(Range{canonicalPath(L.File, Cwd), 0, 0, L.First, L.Last});
  }
}


/// The errors a TU skipped for them shows: clang's first few, enough to
/// see what it trips on (an implicit declaration gcc accepts) without the
/// cascade that follows.
constexpr size_t ShownCompileErrors = 3;

/// The compile errors among \p Found, in the order clang gave them.
std::vector<Message> compileErrors(const std::vector<Finding> &Found) {
  std::vector<Message> Errors;
  for (const Finding &F : Found)
    if (F.Level == "error" && isCompilerDiagnostic(F.Check))
      Errors.push_back(F.Main);
  return Errors;
}

/// Why a run that exported no compile error (or nothing) failed, or "".
std::string runFailure(const TURun &R) {
  if (R.Status == -2)
    return "the check run crashed: " + lastLines(R.Log, 3);
  if (R.Status != 0)
    return "exit status " + std::to_string(R.Status) + ": " + lastLines(R.Log, 3);
  return "";
}

/// A TU clang cannot compile: skipped, its findings and fixes (header
/// edits included) dropped, as clang-tidy applies nothing of such a TU.
Failure skipped(const TURun &R, std::vector<Message> Errors) {
  Failure X;
  X.TU = R.TU;
  X.Reason = "skipped: clang cannot compile it";
  X.ErrorCount = Errors.size();
  if (Errors.size() > ShownCompileErrors)
    Errors.resize(ShownCompileErrors);
  X.CompileErrors = std::move(Errors);
  return X;
}

/// clang-tidy's name for what checks say about their configuration
/// (ClangTidyCheck::configurationDiag).
constexpr llvm::StringLiteral ConfigCheck = "clang-tidy-config";

/// Moves the configuration notes out of \p Found into \p Config (each once);
/// true when one of them is an error.
bool takeConfigNotes(std::vector<Finding> &Found, std::vector<ConfigNote> &Config) {
  bool Error = false;
  for (const Finding &F : Found) {
    if (F.Check != ConfigCheck)
      continue;
    ConfigNote N{F.Level == "error", F.Main};
    N.Where.Text += " [" + ConfigCheck.str() + "]";
    Error |= N.Error;
    if (llvm::none_of(Config, [&](const ConfigNote &C) {
          return !(C < N) && !(N < C);
        }))
      Config.push_back(std::move(N));
  }
  llvm::erase_if(Found, [](const Finding &F) { return F.Check == ConfigCheck; });
  return Error;
}

/// A check's warning that the configuration's WarningsAsErrors made an
/// error (clang-tidy exports it so, and exits 1 for it): the warning it is,
/// marked as --warnings-as-errors marks it (Report.h). True when there was
/// one. The checks themselves report no errors: what they say about their
/// configuration is taken out before.
bool takeWarningsAsErrors(std::vector<Finding> &Found) {
  bool Any = false;
  for (Finding &F : Found)
    if (F.Level == "error" && !isCompilerDiagnostic(F.Check)) {
      F.Level = "warning";
      F.WarningAsError = Any = true;
    }
  return Any;
}

} // namespace

bool isCompilerDiagnostic(llvm::StringRef Check) {
  return Check.starts_with("clang-diagnostic-");
}

llvm::Error collectFindings(const std::vector<TURun> &Runs, llvm::StringRef DataFile,
                            llvm::StringRef Cwd, std::vector<Finding> &All,
                            std::vector<Failure> &Failures, std::vector<ConfigNote> &Config) {
  llvm::Expected<std::vector<FindingData>> Data = readFindings(DataFile);
  if (!Data)
    return Data.takeError();
  DataByPlace ByPlace;
  for (const FindingData &D : *Data)
    ByPlace.try_emplace({D.Check, canonicalPath(D.File, Cwd), D.Offset}, &D);
  for (const TURun &R : Runs) {
    std::vector<Finding> Found;
    std::string Err;
    if (llvm::sys::fs::exists(R.ExportFile) &&
        !readExportedDiagnostics(R.ExportFile, R.TU, Found, Err)) {
      Failures.push_back({R.TU, Err});
      continue;
    }
    bool ConfigError = takeConfigNotes(Found, Config);
    bool AsErrors = takeWarningsAsErrors(Found);
    attachData(Found, ByPlace, Cwd);
    locate(Found);
    attachEvidence(Found, ByPlace, Cwd);
    if (std::vector<Message> Errors = compileErrors(Found); !Errors.empty()) {
      Failures.push_back(skipped(R, std::move(Errors)));
      continue;
    }
    std::move(Found.begin(), Found.end(), std::back_inserter(All));
    if (std::string Why = runFailure(R);
        !Why.empty() && !((ConfigError || AsErrors) && R.Status == 1))
      Failures.push_back({R.TU, Why});
  }
  return llvm::Error::success();
}

bool readExportedDiagnostics(llvm::StringRef YamlPath, llvm::StringRef TU,
                             std::vector<Finding> &Out, std::string &Err) {
  auto Buf = llvm::MemoryBuffer::getFile(YamlPath);
  if (!Buf) {
    Err = "cannot read " + YamlPath.str() + ": " + Buf.getError().message();
    return false;
  }
  tooling::TranslationUnitDiagnostics Doc;
  llvm::yaml::Input YIn((*Buf)->getBuffer());
  YIn >> Doc;
  if (YIn.error()) {
    Err = "cannot parse " + YamlPath.str() + ": " + YIn.error().message();
    return false;
  }
  for (const tooling::Diagnostic &D : Doc.Diagnostics) {
    auto Msg = [&](const tooling::DiagnosticMessage &M) {
      Message R;
      if (!M.FilePath.empty())
        R.File = canonicalPath(M.FilePath, D.BuildDirectory);
      R.Offset = M.FileOffset;
      R.Text = M.Message;
      return R;
    };
    Finding F;
    F.Check = D.DiagnosticName;
    F.Level = levelName(D.DiagLevel);
    F.Main = Msg(D.Message);
    F.TU = TU.str();
    F.BuildDirectory = D.BuildDirectory;
    for (const tooling::DiagnosticMessage &N : D.Notes)
      F.Notes.push_back(Msg(N));
    for (const auto &KV : D.Message.Fix)
      for (const tooling::Replacement &R : KV.second)
        F.Fix.push_back(Edit{canonicalPath(R.getFilePath(), D.BuildDirectory), R.getOffset(),
                             R.getLength(), std::string(R.getReplacementText())});
    for (const tooling::FileByteRange &R : D.Message.Ranges)
      if (!R.FilePath.empty())
        F.Related.push_back(
            Range{canonicalPath(R.FilePath, D.BuildDirectory), R.FileOffset, R.Length});
    // The code the fix rewrites is part of what the finding is about
    // (every call site a gate covers, the header a fast path goes into);
    // a pure insertion is not: it lands next to code, not in it.
    for (const Edit &E : F.Fix)
      if (E.Length)
        F.Related.push_back(Range{E.File, E.Offset, E.Length});
    Out.push_back(std::move(F));
  }
  return true;
}

} // namespace hotpath::driver
