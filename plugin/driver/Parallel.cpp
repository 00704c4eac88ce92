//===--- driver/Parallel.cpp - work on many TUs at once, and its progress -===//
#include "Parallel.h"
#include "ThreadPoolCompat.h"

#include "llvm/Support/Process.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

namespace hotpath::driver {

void forEachInParallel(size_t N, unsigned Jobs, llvm::function_ref<void(size_t)> Work,
                       llvm::function_ref<void(size_t)> Done) {
  if (N == 0)
    return;
  // As many threads as asked for, even beyond the cores: a TU's work is
  // mostly a child process or a parse, and -j is the user's to choose.
  unsigned Threads = static_cast<unsigned>(std::min<size_t>(std::max(1u, Jobs), N));
  compat::ThreadPool Pool(llvm::hardware_concurrency(Threads));
  std::mutex DoneMutex;
  size_t Finished = 0;
  for (size_t I = 0; I < N; ++I)
    Pool.async([&, I] {
      Work(I);
      std::lock_guard<std::mutex> Lock(DoneMutex);
      ++Finished;
      if (Done)
        Done(Finished);
    });
  Pool.wait();
}

ProgressLine::ProgressLine(bool On)
    : On(On), Tty(llvm::sys::Process::StandardErrIsDisplayed()) {}

void ProgressLine::show(llvm::StringRef What, size_t Done, size_t Total,
                        llvm::StringRef Item) {
  if (!On)
    return;
  std::lock_guard<std::mutex> Lock(M);
  auto Now = std::chrono::steady_clock::now();
  bool NewStep = What != Step, Final = Done == Total;
  if (!Tty && !NewStep && !Final && Now - Last < RateLimit)
    return;
  Step = What.str();
  Last = Now;
  llvm::errs() << (Tty ? "\r" : "") << "hotpath-tidy: [" << Done << "/" << Total << "] "
               << What;
  if (!Item.empty())
    llvm::errs() << " " << Item;
  // On a terminal: clear what a longer line left, and end the step's line.
  if (Tty)
    llvm::errs() << "\x1b[K";
  Showing = Tty && !Final;
  if (!Showing)
    llvm::errs() << "\n";
}

void ProgressLine::clear() {
  std::lock_guard<std::mutex> Lock(M);
  if (Showing)
    llvm::errs() << "\r\x1b[K";
  Showing = false;
}

} // namespace hotpath::driver
