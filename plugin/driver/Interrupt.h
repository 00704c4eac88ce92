//===--- driver/Interrupt.h - a run stopped by SIGINT or SIGTERM -*- C++ -*-===//
//
// A run over the database leaves temporary files (each TU's export, the
// findings data, captured output) and child processes (a check run per TU,
// git, clang). Killed by Ctrl-C or a CI job's timeout, it used to leave
// both: the files in $TMPDIR, the children running on. Once catchInterrupts()
// is called, SIGINT, SIGTERM and SIGHUP stop the run in one place: a thread
// that is told of the signal (the handler only writes its number to a pipe)
// stops the children and waits for them, removes every temporary path
// registered here (also every file still pending beside its target,
// support/AtomicFile.h: an output never appears half written), says so,
// and exits 128 + the signal (130, 143), as a shell reports a process the
// signal killed. During --fix (FixJournal.h) it never stops between two
// renames of a fix set, and its line says whether the set was applied.
//
//===----------------------------------------------------------------------===//
#ifndef HOTPATH_DRIVER_INTERRUPT_H
#define HOTPATH_DRIVER_INTERRUPT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Program.h"

#include <string>

namespace hotpath::driver {

/// Starts catching SIGINT, SIGTERM and SIGHUP for the rest of the process.
void catchInterrupts();

/// Runs \p Create, which makes a temporary file or directory and returns
/// its path ("" when it could not), and registers the path for removal on
/// an interrupt. Both happen under the lock the interrupt takes, so no
/// path is made after the interrupt has removed the others: once
/// interrupted, this never returns.
std::string makeTemporary(llvm::function_ref<std::string()> Create);

/// \p Path was removed by its owner: nothing to do for it on an interrupt.
void forgetTemporary(llvm::StringRef Path);

/// Starts a child with \p Start and waits for it with \p Wait, registered
/// so that an interrupt stops it and waits for it to end. Once
/// interrupted, this never returns (the interrupt ends the process).
int runChild(llvm::function_ref<llvm::sys::ProcessInfo()> Start,
             llvm::function_ref<int(const llvm::sys::ProcessInfo &)> Wait);

/// The fix phase (FixJournal.h) applies a set of \p Files: until
/// beginFixCommit() an interrupt removes what it staged (every file stays
/// old) and says the fixes were not applied.
void fixSetStaging(size_t Files);
/// The set's renames begin: \p Kept (its journal, its staged files) are no
/// temporaries any more. An interrupt from now on waits for
/// endFixCommit() (every file new) and says the fixes were applied. Once
/// interrupted before, this never returns (the interrupt removes them).
void beginFixCommit(llvm::ArrayRef<std::string> Kept);
void endFixCommit();
/// The fix phase is over: an interrupt says nothing of fixes.
void fixSetDone();
/// Whether an interrupt has begun to stop the run.
bool interruptRequested();

/// In a child forked without exec: the signals back to their defaults and
/// LLVM's interrupt function unset, so that a signal to the child ends the
/// child, as in an exec'd one, instead of telling the parent's interrupt
/// thread.
void leaveInterruptsToChild();

} // namespace hotpath::driver

#endif
