//===--- driver/CheckRuns.cpp - the checks on each TU, a process each -----===//
#include "CheckRuns.h"
#include "CompileDatabase.h"
#include "Parallel.h"
#include "Process.h"

#include "llvm/ADT/Twine.h"

namespace hotpath::driver {

std::vector<TURun> runChecks(const Project &P, const std::vector<std::string> &TUs,
                             const CheckRunArgs &A, llvm::StringRef TmpDir, unsigned Jobs,
                             ProgressLine &Progress) {
  std::vector<TURun> Runs(TUs.size());
  std::string ChecksArg = "--checks=" + A.Checks;
  std::string BuildArg = "-p=" + A.BuildDir;
  forEachInParallel(
      TUs.size(), Jobs,
      [&](size_t I) {
        TURun &R = Runs[I];
        R.TU = TUs[I];
        R.ExportFile = (TmpDir + "/" + llvm::Twine(I) + ".yaml").str();
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
        Args.push_back(P.files().at(TUs[I]));
        ProcessResult Child = runProcess(Args);
        R.Status = Child.Status;
        R.Log = Child.Out + Child.Err;
        if (A.Finished)
          A.Finished(R);
      },
      [&](size_t Done) {
        if (!A.Finished)
          Progress.show("checked", Done, TUs.size());
      });
  return Runs;
}

} // namespace hotpath::driver
