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

#include <cstddef>
#include <mutex>

namespace hotpath::driver {

/// Calls Work(I) for every I below \p N, \p Jobs at a time, on a thread
/// pool, and returns when all are done. After each, Done(how many are done
/// so far) is called, one call at a time.
void forEachInParallel(size_t N, unsigned Jobs, llvm::function_ref<void(size_t I)> Work,
                       llvm::function_ref<void(size_t Done)> Done = {});

/// "hotpath-tidy: checked 3/10" on standard error: rewritten in place on a
/// terminal, one line each otherwise; nothing when off.
class ProgressLine {
public:
  explicit ProgressLine(bool On);
  void show(llvm::StringRef What, size_t Done, size_t Total);

private:
  bool On, Tty;
  std::mutex M;
};

} // namespace hotpath::driver

#endif
