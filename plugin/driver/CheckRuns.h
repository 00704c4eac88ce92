//===--- driver/CheckRuns.h - the checks on each TU ----------- -*- C++ -*-===//
//
// A run over the database runs this same binary, as plain clang-tidy, on
// each translation unit, in parallel: a crash or a broken TU stays in its
// own process (a run that checks one TU checks it in the driver's process,
// which costs no second process; CheckRuns.cpp). Each exports its diagnostics (--export-fixes) to a file of
// its own; the checks append their data to the one FindingsFile named in
// the -config (ExportedFindings.h reads both back).
//
//===----------------------------------------------------------------------===//
#ifndef HOTPATH_DRIVER_CHECKRUNS_H
#define HOTPATH_DRIVER_CHECKRUNS_H

#include "Types.h"
#include "llvm/ADT/StringRef.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace hotpath::driver {

class Project;
class ProgressLine;
class ResultCache;

/// What every run is given besides its TU.
struct CheckRunArgs {
  std::string Self;     // this binary
  std::string BuildDir; // -p
  std::string Checks;   // -checks
  std::optional<std::string> HeaderFilter;
  std::string Config;   // "--config=..." (CheckConfig.h)
  std::vector<std::string> PassThrough; // "--extra-arg=...", ...
  /// When set, told of each TU as its run ends or its results come from
  /// the cache (from the thread that ran it: several may call at once), and
  /// it shows the progress instead of runChecks (TextStream.h streams the
  /// findings from here).
  std::function<void(const TURun &)> Finished;
  /// A clang VFS overlay (YAML) each run is given as --vfsoverlay=<file>
  /// when not empty: the base side of --diff sees the files a patch
  /// changes as they were (BaseSide.h); the files it maps are part of the
  /// result cache's key.
  std::string Overlay;
  /// The result cache (ResultCache.h), or none.
  ResultCache *Cache = nullptr;
};

/// Runs the checks on each of \p TUs (canonical paths of \p P), \p Jobs at
/// a time, each exporting to <TmpDir>/<i>.yaml; with a cache, a TU whose
/// entry holds is restored there instead (TURun::FromCache), and the
/// results of the others are stored.
std::vector<TURun> runChecks(const Project &P, const std::vector<std::string> &TUs,
                             const CheckRunArgs &Args, llvm::StringRef TmpDir, unsigned Jobs,
                             ProgressLine &Progress);

} // namespace hotpath::driver

#endif
