//===--- driver/CheckRuns.cpp - the checks on each TU, a process each -----===//
#include "CheckRuns.h"
#include "CompileDatabase.h"
#include "Parallel.h"
#include "Process.h"
#include "ResultCache.h"

#include "llvm/ADT/Twine.h"

namespace hotpath::driver {

namespace {

/// This binary as plain clang-tidy on the TU of \p R.
void runOne(const Project &P, const CheckRunArgs &A, TURun &R) {
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
  ProcessResult Child = runProcess(Args);
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
  forEachInParallel(
      ToRun.size(), Jobs,
      [&](size_t K) {
        runOne(P, A, Runs[ToRun[K]]);
        if (A.Finished)
          A.Finished(Runs[ToRun[K]]);
      },
      [&](size_t Done) {
        if (!A.Finished)
          Progress.show("checked", Restored + Done, TUs.size());
      });
  if (A.Cache)
    A.Cache->finishRun(Runs, Keys);
  return Runs;
}

} // namespace hotpath::driver
