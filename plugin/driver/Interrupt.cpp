//===--- driver/Interrupt.cpp - a run stopped by SIGINT or SIGTERM --------===//
#include "Interrupt.h"
#include "support/AtomicFile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <condition_variable>
#include <csignal>
#include <mutex>
#include <set>
#include <thread>

#include <unistd.h>

namespace hotpath::driver {

namespace {

/// How long the children get to end after SIGTERM before SIGKILL: a check
/// run ends within milliseconds (clang-tidy removes its own files first).
constexpr auto TermGrace = std::chrono::seconds(5);

struct State {
  std::mutex M;
  std::condition_variable ChildEnded;
  bool Interrupted = false;
  std::set<std::string> Temporaries;
  std::set<llvm::sys::procid_t> Children;
  /// The fix set being applied (FixJournal.h): its files, and whether its
  /// renames have begun; the interrupt waits for them to end.
  size_t FixFiles = 0;
  bool Committing = false, Committed = false;
};

State &state() {
  static State S;
  return S;
}

int Pipe[2] = {-1, -1};

/// The only work in the signal handler: write(2) is async-signal-safe.
void onSignal(int Sig) {
  unsigned char C = static_cast<unsigned char>(Sig);
  (void)!::write(Pipe[1], &C, 1);
}

/// LLVM's own handler, should something register it, calls this one for
/// the same signals, without their number.
void onLLVMInterrupt() { onSignal(SIGINT); }

/// A thread that waits for a signal never returns once interrupted: the
/// interrupt thread ends the process.
[[noreturn]] void waitForExit() {
  for (;;)
    std::this_thread::sleep_for(std::chrono::hours(1));
}

void signalAll(State &S, int Sig) {
  for (llvm::sys::procid_t Pid : S.Children)
    ::kill(Pid, Sig);
}

[[noreturn]] void stopRun(int Sig) {
  State &S = state();
  std::unique_lock<std::mutex> Lock(S.M);
  S.Interrupted = true;
  size_t Stopped = S.Children.size();
  signalAll(S, SIGTERM);
  if (!S.ChildEnded.wait_for(Lock, TermGrace, [&] { return S.Children.empty(); })) {
    signalAll(S, SIGKILL);
    S.ChildEnded.wait_for(Lock, TermGrace, [&] { return S.Children.empty(); });
  }
  // A fix set whose renames have begun is finished first (a few renames):
  // every file of it is then new. One still being staged is dropped with
  // the other temporary files (its staged files, its journal): every file
  // of it is old.
  S.ChildEnded.wait(Lock, [&] { return !S.Committing; });
  for (const std::string &P : S.Temporaries)
    if (llvm::sys::fs::is_directory(P))
      llvm::sys::fs::remove_directories(P);
    else
      llvm::sys::fs::remove(P);
  std::string Fixes;
  if (S.FixFiles)
    Fixes = S.Committed ? "; --fix had applied its fixes to all " + std::to_string(S.FixFiles) +
                              " file" + (S.FixFiles == 1 ? "" : "s")
                        : "; --fix changed no file (the fixes of " + std::to_string(S.FixFiles) +
                              " file" + (S.FixFiles == 1 ? " were" : "s were") + " not applied)";
  llvm::errs() << "hotpath-tidy: interrupted by " << (Sig == SIGTERM ? "SIGTERM" : Sig == SIGHUP ? "SIGHUP" : "SIGINT")
               << ": " << Stopped << " child process" << (Stopped == 1 ? "" : "es")
               << " stopped, temporary files removed" << Fixes << "\n";
  llvm::errs().flush();
  ::_exit(128 + Sig);
}

/// \p Handler for the signals that stop a run.
void handleStopSignals(void (*Handler)(int)) {
  struct sigaction SA = {};
  SA.sa_handler = Handler;
  sigemptyset(&SA.sa_mask);
  for (int Sig : {SIGINT, SIGTERM, SIGHUP})
    ::sigaction(Sig, &SA, nullptr);
}

} // namespace

void catchInterrupts() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    if (::pipe(Pipe) != 0)
      return;
    // LLVM's handlers first (they are installed once, by whatever asks
    // first), then ours over them for the signals that stop a run.
    llvm::sys::SetInterruptFunction(onLLVMInterrupt);
    handleStopSignals(onSignal);
    // Every file written beside its target (support/AtomicFile.h) is a
    // temporary until it is renamed.
    trackTemporaries(makeTemporary, forgetTemporary);
    std::thread([] {
      unsigned char C;
      while (::read(Pipe[0], &C, 1) != 1)
        ;
      stopRun(C);
    }).detach();
  });
}

void leaveInterruptsToChild() {
  llvm::sys::SetInterruptFunction(nullptr);
  handleStopSignals(SIG_DFL);
  // The parent's registry is not the child's (and its lock may have been
  // held by another thread of the parent when it forked).
  trackTemporaries(nullptr, nullptr);
}

std::string makeTemporary(llvm::function_ref<std::string()> Create) {
  State &S = state();
  std::unique_lock<std::mutex> Lock(S.M);
  if (S.Interrupted) {
    Lock.unlock();
    waitForExit();
  }
  std::string Path = Create();
  if (!Path.empty())
    S.Temporaries.insert(Path);
  return Path;
}

void forgetTemporary(llvm::StringRef Path) {
  State &S = state();
  std::lock_guard<std::mutex> Lock(S.M);
  S.Temporaries.erase(Path.str());
}

void fixSetStaging(size_t Files) {
  State &S = state();
  std::lock_guard<std::mutex> Lock(S.M);
  S.FixFiles = Files;
  S.Committing = S.Committed = false;
}

void beginFixCommit(llvm::ArrayRef<std::string> Kept) {
  State &S = state();
  std::unique_lock<std::mutex> Lock(S.M);
  if (S.Interrupted) {
    Lock.unlock();
    waitForExit();
  }
  for (const std::string &P : Kept)
    S.Temporaries.erase(P);
  S.Committing = true;
}

void endFixCommit() {
  State &S = state();
  std::unique_lock<std::mutex> Lock(S.M);
  S.Committing = false;
  S.Committed = true;
  S.ChildEnded.notify_all();
  if (S.Interrupted) {
    Lock.unlock();
    waitForExit();
  }
}

void fixSetDone() {
  State &S = state();
  std::lock_guard<std::mutex> Lock(S.M);
  S.FixFiles = 0;
  S.Committing = S.Committed = false;
}

bool interruptRequested() {
  State &S = state();
  std::lock_guard<std::mutex> Lock(S.M);
  return S.Interrupted;
}

int runChild(llvm::function_ref<llvm::sys::ProcessInfo()> Start,
             llvm::function_ref<int(const llvm::sys::ProcessInfo &)> Wait) {
  State &S = state();
  llvm::sys::ProcessInfo PI;
  {
    std::unique_lock<std::mutex> Lock(S.M);
    if (S.Interrupted) {
      Lock.unlock();
      waitForExit();
    }
    PI = Start();
    if (PI.Pid != llvm::sys::ProcessInfo::InvalidPid)
      S.Children.insert(PI.Pid);
  }
  int Status = PI.Pid == llvm::sys::ProcessInfo::InvalidPid ? -1 : Wait(PI);
  std::unique_lock<std::mutex> Lock(S.M);
  S.Children.erase(PI.Pid);
  S.ChildEnded.notify_all();
  if (S.Interrupted) {
    Lock.unlock();
    waitForExit();
  }
  return Status;
}

} // namespace hotpath::driver
