//===--- driver/TextStream.h - the text as the TUs are checked -*- C++ -*-===//
//
// A run over many TUs prints clang-tidy's text as it goes, not all at the
// end: each TU's findings as soon as it and every TU before it (in the
// run's order, by path) are checked. The order is the TUs', whatever -j
// and whichever child ends first, so a log is the same from run to run.
// It also says the progress, "[3/10] checked src/a.c" (Parallel.h).
//
// What it prints is what the end of the run would: the findings clang-tidy
// exported (the text needs none of the checks' data), less those the run
// does not report (a TU skipped, --explain's remarks of other TUs), each
// once however many TUs report it (a header's), warnings marked by
// --warnings-as-errors. Runs that choose or order findings from all TUs
// (--diff, --profile) do not stream (RunOutputs::streamText).
//
//===----------------------------------------------------------------------===//
#ifndef HOTPATH_DRIVER_TEXTSTREAM_H
#define HOTPATH_DRIVER_TEXTSTREAM_H

#include "Types.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace hotpath::driver {

class ProgressLine;

class TextStream {
public:
  /// Keep(F): whether the run reports \p F (before the patch or profile).
  using KeepFn = std::function<bool(const Finding &F)>;

  /// Writes to each of \p Outs (none: only the progress) the findings of
  /// \p TUs, in that order; paths relative to \p Cwd.
  TextStream(std::vector<llvm::raw_ostream *> Outs, ProgressLine &Progress,
             const std::vector<std::string> &TUs, llvm::StringRef Cwd, KeepFn Keep,
             std::optional<std::string> WarningsAsErrors);

  /// \p R's run has ended: says so, and prints what is ready. Safe to call
  /// from several threads.
  void finished(const TURun &R);

private:
  std::vector<Finding> findingsOf(const TURun &R);
  void printReady();

  std::vector<llvm::raw_ostream *> Outs;
  ProgressLine &Progress;
  std::string Cwd;
  KeepFn Keep;
  std::optional<std::string> WarningsAsErrors;
  std::map<std::string, size_t> Position;               // TU -> its place
  std::vector<std::optional<std::vector<Finding>>> Ready; // by place
  size_t Next = 0, Done = 0;
  std::set<std::tuple<std::string, std::string, unsigned, std::string>> Printed;
  std::mutex M;
};

} // namespace hotpath::driver

#endif
