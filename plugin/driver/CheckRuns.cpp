//===--- driver/CheckRuns.cpp - the checks on each TU, a process each -----===//
#include "CheckRuns.h"
#include "CompileDatabase.h"
#include "Parallel.h"
#include "PlainRun.h"
#include "Process.h"
#include "ResultCache.h"

#include "llvm/ADT/Twine.h"

namespace hotpath::driver {

namespace {

/// This binary as plain clang-tidy on the TU of \p R; \p Fork: in a fork
/// of this process rather than a new one (runForked).
void runOne(const Project &P, const CheckRunArgs &A, TURun &R, bool Fork) {
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
  ProcessResult Child = Fork ? runForked(Args, runClangTidy) : runProcess(Args);
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
  // One run at a time: the child can be a fork of this process, which
  // saves it loading the libraries (on a kernel TU, 0.07 s of the 0.76 s
  // clang -fsyntax-only takes). Several at once stay exec'd: a fork from
  // one thread while another holds a lock of LLVM's could hang the child.
  // The fork is made from this thread, not a pool's: the child's clang-tidy
  // then allocates from the main heap, as an exec'd one does, not from a
  // thread's arena that grows a page at a time (4,000 mprotect calls).
  auto RunOne = [&](size_t K, bool Fork) {
    runOne(P, A, Runs[ToRun[K]], Fork);
    if (A.Finished)
      A.Finished(Runs[ToRun[K]]);
  };
  if (Jobs <= 1 || ToRun.size() == 1) {
    for (size_t K = 0; K < ToRun.size(); ++K) {
      RunOne(K, /*Fork=*/true);
      if (!A.Finished)
        Progress.show("checked", Restored + K + 1, TUs.size());
    }
  } else {
    forEachInParallel(
        ToRun.size(), Jobs, [&](size_t K) { RunOne(K, /*Fork=*/false); },
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
