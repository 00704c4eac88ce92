//===--- driver/Parallel.h - work on many TUs at once, and its progress ---===//
//
// Every loop of the driver over translation units (scanning includes,
// indexing, compiling for inline remarks, running the checks) goes through
// forEachInParallel: one thread pool, one way to count what is done.
//
//===----------------------------------------------------------------------===//
#ifndef HOTPATH_DRIVER_PARALLEL_H
#define HOTPATH_DRIVER_PARALLEL_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <chrono>
#include <cstddef>
#include <string>
#include <mutex>

namespace hotpath::driver {

/// Calls Work(I) for every I below \p N, \p Jobs at a time, on a thread
/// pool, and returns when all are done. After each, Done(how many are done
/// so far) is called, one call at a time.
void forEachInParallel(size_t N, unsigned Jobs, llvm::function_ref<void(size_t I)> Work,
                       llvm::function_ref<void(size_t Done)> Done = {});

/// "hotpath-tidy: [3/10] checked src/a.c" on standard error. On a terminal
/// one line, rewritten in place. Otherwise one line each, but at most one
/// every RateLimit per step (a CI log of a thousand TUs is not a thousand
/// lines): a step's first line, its last (Done == Total), and between them
/// the first after RateLimit has passed. Nothing when off.
class ProgressLine {
public:
  static constexpr std::chrono::seconds RateLimit{5};

  explicit ProgressLine(bool On);
  void show(llvm::StringRef What, size_t Done, size_t Total, llvm::StringRef Item = "");
  /// On a terminal, takes the line away, so that what is printed next
  /// (findings on standard output) starts a line of its own; the next
  /// show() writes it again.
  void clear();

private:
  bool On, Tty;
  bool Showing = false; // a terminal line is out, without its newline
  std::string Step;     // the What of the last line written
  std::chrono::steady_clock::time_point Last;
  std::mutex M;
};

} // namespace hotpath::driver

#endif
