//===--- driver/InlineRemarksRun.cpp - hotpath-tidy --inline-remarks ------===//
#include "InlineRemarksRun.h"
#include "CompileDatabase.h"
#include "Parallel.h"
#include "Paths.h"
#include "Process.h"
#include "heat/InlineRemarks.h"
#include "support/AtomicFile.h"

#include "clang/Frontend/SerializedDiagnosticReader.h"
#include "clang/Frontend/SerializedDiagnostics.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <optional>

namespace hotpath::driver {

namespace {

bool isLauncher(llvm::StringRef Arg) {
  llvm::StringRef Base = llvm::sys::path::filename(Arg);
  return Base == "ccache" || Base == "sccache" || Base == "distcc" || Base == "icecc";
}

std::string readAll(llvm::StringRef Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path);
  return Buf ? (*Buf)->getBuffer().str() : std::string();
}

/// The errors of a compile, read from the diagnostics clang serialized
/// (--serialize-diagnostics): where each is and what it says. Data, not
/// its printed text: an error in a header comes after "In file included
/// from" lines, which a search of the output would have to know to skip.
class CompileErrors : public clang::serialized_diags::SerializedDiagnosticReader {
public:
  CompileErrors(std::string Dir) : Dir(std::move(Dir)) {}
  std::vector<Message> First; // the first few
  unsigned Count = 0;

protected:
  std::error_code visitFilenameRecord(unsigned ID, unsigned, unsigned,
                                      llvm::StringRef Name) override {
    Files[ID] = Name.str();
    return {};
  }
  std::error_code visitDiagnosticRecord(unsigned Severity,
                                        const clang::serialized_diags::Location &Loc, unsigned,
                                        unsigned, llvm::StringRef Text) override {
    using namespace clang::serialized_diags;
    if (Severity != Error && Severity != Fatal)
      return {};
    if (++Count > 3)
      return {};
    Message M;
    if (auto File = Files.find(Loc.FileID); File != Files.end()) {
      M.File = canonicalPath(File->second, Dir);
      M.Line = Loc.Line;
      M.Col = M.CodePointCol = Loc.Col;
    }
    M.Text = Text.str();
    First.push_back(std::move(M));
    return {};
  }

private:
  std::string Dir;
  std::map<unsigned, std::string> Files;
};

/// Why the compile of a TU for its remarks failed: its errors (then the TU
/// is skipped, as one clang-tidy cannot compile is), or the last lines of
/// its output when it serialized none (it did not start, or crashed).
Failure compileFailure(const std::string &TU, llvm::StringRef Compiler, const ProcessResult &R,
                       llvm::StringRef DiagnosticsFile, const std::string &Dir) {
  CompileErrors Errors(Dir);
  if (llvm::sys::fs::exists(DiagnosticsFile))
    (void)Errors.readDiagnostics(DiagnosticsFile);
  Failure X;
  X.TU = TU;
  std::string Compile = llvm::sys::path::filename(Compiler).str() + " -O2, exit " +
                        std::to_string(R.Status);
  if (Errors.Count) {
    X.Reason = "skipped: clang cannot compile it for its inline remarks (" + Compile + ")";
    X.CompileErrors = std::move(Errors.First);
    X.ErrorCount = Errors.Count;
  } else {
    X.Reason = "the compile for its inline remarks failed (" + Compile +
               "): " + lastLines(R.Out + R.Err, 3);
  }
  return X;
}

/// \p DbArgs with the run's -extra-arg-before after the compiler (and its
/// launcher) and -extra-arg at the end, where clang-tidy puts them for the
/// checks, so that the remarks are of the code the checks see.
std::vector<std::string> withExtraArgs(std::vector<std::string> DbArgs,
                                       const Project::ExtraArgs &Extra) {
  size_t I = 0;
  while (I < DbArgs.size() && isLauncher(DbArgs[I]))
    ++I;
  I = std::min(I + 1, DbArgs.size());
  DbArgs.insert(DbArgs.begin() + I, Extra.Before.begin(), Extra.Before.end());
  DbArgs.insert(DbArgs.end(), Extra.After.begin(), Extra.After.end());
  return DbArgs;
}

#define HOTPATH_STRINGIFY2(X) #X
#define HOTPATH_STRINGIFY(X) HOTPATH_STRINGIFY2(X)
#define HOTPATH_LLVM_MAJOR_STRING HOTPATH_STRINGIFY(LLVM_VERSION_MAJOR)

} // namespace

llvm::Expected<std::string> findRemarksCompiler() {
  for (const char *Name : {"clang-" HOTPATH_LLVM_MAJOR_STRING, "clang"})
    if (auto Found = llvm::sys::findProgramByName(Name))
      return *Found;
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "--inline-remarks needs clang (clang-" HOTPATH_LLVM_MAJOR_STRING
                                 " or clang on PATH) to compile with "
                                 "-fsave-optimization-record");
}

std::vector<std::string> remarksCommand(llvm::ArrayRef<std::string> DbArgs,
                                        llvm::StringRef Compiler, llvm::StringRef RecordFile,
                                        llvm::StringRef DiagnosticsFile) {
  std::vector<std::string> Out = {Compiler.str(),
                                  "-O2",
                                  "-c",
                                  "-o",
                                  "/dev/null",
                                  "-w",
                                  "-Qunused-arguments",
                                  "-fsave-optimization-record",
                                  "-foptimization-record-passes=inline",
                                  "-foptimization-record-file=" + RecordFile.str(),
                                  "--serialize-diagnostics",
                                  DiagnosticsFile.str()};
  size_t I = 0;
  while (I < DbArgs.size() && isLauncher(DbArgs[I]))
    ++I;
  ++I; // the compiler
  // Their own flags would override ours (output, level) or write beside the
  // build's files (dependency files, records).
  static const char *const Drop[] = {"-c", "-S", "-E", "-fsyntax-only", "-M", "-MM", "-MD",
                                     "-MMD", "-MP", "-MG", "-fsave-optimization-record",
                                     "-emit-llvm", "-pipe"};
  static const char *const DropWithValue[] = {"-o", "-MF", "-MT", "-MQ",
                                              "--serialize-diagnostics"};
  static const char *const DropPrefix[] = {"-O", "-flto", "-fsave-optimization-record=",
                                           "-foptimization-record-", "-Werror", "-Wp,-MD",
                                           "-Wp,-MMD", "-save-temps", "-MF", "-MT", "-MQ"};
  for (; I < DbArgs.size(); ++I) {
    llvm::StringRef A = DbArgs[I];
    if (llvm::is_contained(Drop, A))
      continue;
    if (llvm::any_of(DropWithValue, [&](const char *D) { return A == D; })) {
      ++I;
      continue;
    }
    if (A.starts_with("-o") ||
        llvm::any_of(DropPrefix, [&](const char *P) { return A.starts_with(P); }))
      continue;
    Out.push_back(A.str());
  }
  return Out;
}

bool collectInlineRemarks(Project &P, const std::vector<std::string> &TUs,
                          llvm::StringRef Compiler, unsigned Jobs, llvm::StringRef TmpDir,
                          llvm::StringRef SummaryPath, std::vector<Failure> &Failures,
                          llvm::function_ref<void(size_t Done)> Progress, std::string &Err) {
  std::vector<std::optional<Failure>> Problems(TUs.size());
  forEachInParallel(
      TUs.size(), Jobs,
      [&](size_t I) {
        std::string Record = (TmpDir + "/" + llvm::Twine(I) + ".opt.yaml").str();
        std::string Diags = (TmpDir + "/" + llvm::Twine(I) + ".dia").str();
        std::string Dir;
        std::vector<std::string> DbArgs;
        if (!P.compileCommand(TUs[I], Dir, DbArgs)) {
          Problems[I] = Failure{TUs[I], "no compile command for it"};
          return;
        }
        // The compile runs in the command's own directory, as the build does.
        std::vector<std::string> Cmd =
            remarksCommand(withExtraArgs(std::move(DbArgs), P.extraArgs()), Compiler, Record,
                           Diags);
        ProcessResult R = runProcess(std::vector<llvm::StringRef>(Cmd.begin(), Cmd.end()), Dir);
        if (R.Status != 0)
          Problems[I] = compileFailure(TUs[I], Compiler, R, Diags, Dir);
      },
      Progress);

  InlineRemarks Sum;
  for (size_t I = 0; I < TUs.size(); ++I) {
    if (Problems[I]) {
      Failures.push_back(std::move(*Problems[I]));
      continue;
    }
    std::string Record = (TmpDir + "/" + llvm::Twine(I) + ".opt.yaml").str();
    if (llvm::Error E = Sum.addOptimizationRecord(readAll(Record), Record))
      Failures.push_back({TUs[I], llvm::toString(std::move(E))});
  }
  if (llvm::Error E = writeFileAtomically(SummaryPath,
                                          [&](llvm::raw_ostream &OS) { Sum.writeSummary(OS); })) {
    Err = "cannot write " + SummaryPath.str() + ": " + llvm::toString(std::move(E));
    return false;
  }
  return true;
}

} // namespace hotpath::driver
