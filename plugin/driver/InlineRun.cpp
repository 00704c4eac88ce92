//===--- driver/InlineRun.cpp - hotpath-tidy --inline-remarks -------------===//
#include "InlineRun.h"
#include "DiffTooling.h"
#include "heat/InlineRemarks.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <mutex>
#include <thread>

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

/// The compiler's first error line, or its last lines when it has none.
std::string firstError(llvm::StringRef Log) {
  llvm::SmallVector<llvm::StringRef, 16> Lines;
  Log.split(Lines, '\n');
  for (llvm::StringRef L : Lines)
    if (L.contains("error:"))
      return L.trim().str();
  return lastLines(Log, 3);
}


} // namespace

std::vector<std::string> remarksCommand(llvm::ArrayRef<std::string> DbArgs,
                                        llvm::StringRef Compiler, llvm::StringRef RecordFile) {
  std::vector<std::string> Out = {Compiler.str(),
                                  "-O2",
                                  "-c",
                                  "-o",
                                  "/dev/null",
                                  "-w",
                                  "-Qunused-arguments",
                                  "-fsave-optimization-record",
                                  "-foptimization-record-passes=inline",
                                  "-foptimization-record-file=" + RecordFile.str()};
  size_t I = 0;
  while (I < DbArgs.size() && isLauncher(DbArgs[I]))
    ++I;
  ++I; // the compiler
  // Their own flags would override ours (output, level) or write beside the
  // build's files (dependency files, records).
  static const char *const Drop[] = {"-c", "-S", "-E", "-fsyntax-only", "-M", "-MM", "-MD",
                                     "-MMD", "-MP", "-MG", "-fsave-optimization-record",
                                     "-emit-llvm", "-pipe"};
  static const char *const DropWithValue[] = {"-o", "-MF", "-MT", "-MQ"};
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
                          const std::function<void(size_t Done)> &Progress, std::string &Err) {
  std::vector<std::string> Problems(TUs.size());
  std::atomic<size_t> Next{0}, Done{0};
  std::mutex ProgressMutex;
  auto Work = [&] {
    for (size_t I; (I = Next++) < TUs.size();) {
      std::string Record = (TmpDir + "/" + llvm::Twine(I) + ".opt.yaml").str();
      std::string Log = (TmpDir + "/" + llvm::Twine(I) + ".opt.log").str();
      std::string Dir;
      std::vector<std::string> DbArgs;
      if (!P.compileCommand(TUs[I], Dir, DbArgs)) {
        Problems[I] = "no compile command for it";
      } else {
        // The compile runs in the command's own directory, as the build does.
        std::vector<std::string> Cmd = {"/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", Dir};
        for (std::string &A : remarksCommand(DbArgs, Compiler, Record))
          Cmd.push_back(std::move(A));
        std::vector<llvm::StringRef> Args(Cmd.begin(), Cmd.end());
        std::optional<llvm::StringRef> Redirects[] = {llvm::StringRef(""), llvm::StringRef(Log),
                                                      llvm::StringRef(Log)};
        std::string Msg;
        int RC = llvm::sys::ExecuteAndWait(Args[0], Args, std::nullopt, Redirects, 0, 0, &Msg);
        if (RC != 0)
          Problems[I] = llvm::sys::path::filename(Compiler).str() +
                        " -O2 for its inline remarks failed (exit " + std::to_string(RC) +
                        "): " + firstError(readAll(Log) + Msg);
      }
      std::lock_guard<std::mutex> Lock(ProgressMutex);
      Progress(++Done);
    }
  };
  {
    std::vector<std::thread> Threads;
    for (unsigned J = 1; J < std::min<size_t>(std::max(1u, Jobs), TUs.size()); ++J)
      Threads.emplace_back(Work);
    Work();
    for (std::thread &T : Threads)
      T.join();
  }

  InlineRemarks Sum;
  for (size_t I = 0; I < TUs.size(); ++I) {
    if (!Problems[I].empty()) {
      Failures.push_back({TUs[I], Problems[I]});
      continue;
    }
    std::string Record = (TmpDir + "/" + llvm::Twine(I) + ".opt.yaml").str();
    if (llvm::Error E = Sum.addOptimizationRecord(readAll(Record), Record))
      Failures.push_back({TUs[I], llvm::toString(std::move(E))});
  }
  std::error_code EC;
  llvm::raw_fd_ostream OS(SummaryPath, EC, llvm::sys::fs::OF_Text);
  if (EC) {
    Err = "cannot write " + SummaryPath.str() + ": " + EC.message();
    return false;
  }
  Sum.writeSummary(OS);
  return true;
}

} // namespace hotpath::driver
