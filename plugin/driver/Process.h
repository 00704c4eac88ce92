//===--- driver/Process.h - running a child process -------------*- C++ -*-===//
//
// Every child the driver starts (git, clang for inline remarks, this binary
// on each TU) runs through runProcess: its standard input empty, its
// output and errors captured, its working directory its own when asked.
//
//===----------------------------------------------------------------------===//
#ifndef HOTPATH_DRIVER_PROCESS_H
#define HOTPATH_DRIVER_PROCESS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace hotpath::driver {

struct ProcessResult {
  /// The exit status; -1 when it could not start, -2 when it crashed
  /// (llvm::sys::ExecuteAndWait's).
  int Status = 0;
  std::string Out, Err; // standard output and error (and why it did not start)
};

/// Runs \p Args (the program first) and waits for it; in \p Dir when given
/// (through /bin/sh: LLVM's ExecuteAndWait cannot set a directory).
ProcessResult runProcess(llvm::ArrayRef<llvm::StringRef> Args, llvm::StringRef Dir = "");

/// Runs \p Main on \p Args (the program first) in a fork of this process,
/// without exec, and waits for it: as runProcess, but the child has this
/// binary's libraries loaded and relocated already. An exec'd hotpath-tidy
/// spends 0.07 s of CPU loading libLLVM and libclang-cpp before it reads a
/// line, a tenth of clang -fsyntax-only on a kernel TU. The child takes no
/// lock of the driver's and must not need one another thread of the parent
/// held at the fork: callers use it only while the parent does nothing else
/// (CheckRuns.cpp: one TU at a time).
ProcessResult runForked(llvm::ArrayRef<llvm::StringRef> Args, int (*Main)(int, const char **));

/// Runs \p Main on \p Args in this process, its standard input empty and
/// its output and errors captured, as a child's are: no second process at
/// all. A fork costs the kernel a copy of the driver's page tables and a
/// fault for every page either side writes after it, 0.09 s of system time
/// on a kernel TU (0.21 s against clang -fsyntax-only's 0.11 s), where the
/// check in this process costs none. Once per process: \p Main parses
/// LLVM's command-line options into globals, which a later run here, or in
/// a fork of here, would find set; and a crash in it ends the driver too. Falls back to runForked when the
/// output cannot be redirected.
ProcessResult runInProcess(llvm::ArrayRef<llvm::StringRef> Args,
                           int (*Main)(int, const char **));

/// The last \p N lines of a child's output on one line, " | "-separated:
/// why it failed, short enough for a summary.
std::string lastLines(llvm::StringRef Log, unsigned N);

} // namespace hotpath::driver

#endif
