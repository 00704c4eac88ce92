//===--- driver/CheckRuns.cpp - the checks on each TU, a process each -----===//
#include "CheckRuns.h"
#include "CompileDatabase.h"
#include "Parallel.h"
#include "PlainRun.h"
#include "Process.h"
#include "ResultCache.h"

#include "llvm/ADT/Twine.h"

#include <atomic>

namespace hotpath::driver {

namespace {

/// How a check run is started.
enum class RunIn { NewProcess, Fork, ThisProcess };

/// This binary as plain clang-tidy on the TU of \p R, started as \p How.
void runOne(const Project &P, const CheckRunArgs &A, TURun &R, RunIn How) {
  std::string ChecksArg = "--checks=" + A.Checks;
  std::string BuildArg = "-p=" + A.BuildDir;
  std::string ExportArg = "--export-fixes=" + R.ExportFile;
  std::string HeaderArg = A.HeaderFilter ? "--header-filter=" + *A.HeaderFilter : "";
  std::string OverlayArg = A.Overlay.empty() ? "" : "--vfsoverlay=" + A.Overlay;
  std::vector<llvm::StringRef> Args = {A.Self, BuildArg, ChecksArg, "--quiet", ExportArg};
  if (!HeaderArg.empty())
    Args.push_back(HeaderArg);
  if (!OverlayArg.empty())
    Args.push_back(OverlayArg);
  Args.push_back(A.Config);
  Args.insert(Args.end(), A.PassThrough.begin(), A.PassThrough.end());
  Args.push_back(P.files().at(R.TU));
  ProcessResult Child = How == RunIn::ThisProcess ? runInProcess(Args, runClangTidy)
                        : How == RunIn::Fork      ? runForked(Args, runClangTidy)
                                                  : runProcess(Args);
  R.Status = Child.Status;
  R.Log = Child.Out + Child.Err;
}

} // namespace

std::vector<TURun> runChecks(const Project &P, const std::vector<std::string> &TUs,
                             const CheckRunArgs &A, llvm::StringRef TmpDir, unsigned Jobs,
                             ProgressLine &Progress) {
  std::vector<TURun> Runs(TUs.size());
  std::vector<std::optional<std::string>> Keys(TUs.size());
  std::vector<size_t> ToRun;
  if (A.Cache)
    A.Cache->beginRun(A);
  for (size_t I = 0; I < TUs.size(); ++I) {
    TURun &R = Runs[I];
    R.TU = TUs[I];
    R.ExportFile = (TmpDir + "/" + llvm::Twine(I) + ".yaml").str();
    if (A.Cache && (Keys[I] = A.Cache->keyOf(P, R.TU)) && A.Cache->restore(*Keys[I], R))
      continue;
    ToRun.push_back(I);
  }
  size_t Restored = TUs.size() - ToRun.size();
  if (A.Finished)
    for (size_t I = 0; I < TUs.size(); ++I)
      if (Runs[I].FromCache)
        A.Finished(Runs[I]);
  // One run at a time: a fork of this process, which does not load the
  // libraries again (on a kernel TU, 0.07 s of the 0.66 s clang
  // -fsyntax-only takes), or, for a run of one TU, this process itself (no
  // fork either: 0.09 s of system time). clang-tidy parses its options
  // into globals once per process, so once it has run here every later
  // run (the base side of --diff) is a new process: a fork would inherit
  // what the first run's options set. Several at once stay
  // exec'd: a fork from one thread while another holds a lock of LLVM's
  // could hang the child. The fork is made from this thread, not a pool's:
  // the child then allocates from the main heap, as an exec'd one does, not
  // from a thread's arena that grows a page at a time (4,000 mprotect calls).
  static std::atomic<bool> InProcessUsed{false};
  auto RunOne = [&](size_t K, RunIn How) {
    runOne(P, A, Runs[ToRun[K]], How);
    if (A.Finished)
      A.Finished(Runs[ToRun[K]]);
  };
  if (Jobs <= 1 || ToRun.size() == 1) {
    for (size_t K = 0; K < ToRun.size(); ++K) {
      RunIn How = InProcessUsed ? RunIn::NewProcess : RunIn::Fork;
      if (ToRun.size() == 1 && !InProcessUsed.exchange(true))
        How = RunIn::ThisProcess;
      RunOne(K, How);
      if (!A.Finished)
        Progress.show("checked", Restored + K + 1, TUs.size());
    }
  } else {
    forEachInParallel(
        ToRun.size(), Jobs, [&](size_t K) { RunOne(K, RunIn::NewProcess); },
        [&](size_t Done) {
          if (!A.Finished)
            Progress.show("checked", Restored + Done, TUs.size());
        });
  }
  if (A.Cache)
    A.Cache->finishRun(Runs, Keys);
  return Runs;
}

} // namespace hotpath::driver
