//===--- driver/FixJournal.h - a fix set applied as one unit ----*- C++ -*-===//
//
// hotpath-tidy --fix writes every file a run's fixes change as one set: a
// hook gate's declaration in a header, its definition in one .c and its
// test at the call in another; a check split's fast path in a header and
// the slow path in a .c. Half of such a set does not build (issue 41: a
// SIGINT left one source at 0 bytes and 17 of 50 modules fixed). So:
//
//  1. A set directory in the tool's state directory (<build-dir>/hotpath-fix),
//     never in the user's tree, gets a copy of each file's old content, then
//     the journal: every file, the MD5 of its old and of its new content,
//     where the new content is staged and where the copy is.
//  2. Each file's new content is staged beside it (FILE.hotpath-fix-XXXXXX),
//     fsync'ed.
//  3. Each file is checked to be as the fixes were made for.
//  4. The staged files are renamed over the files, the set directory
//     removed.
//
// SIGINT, SIGTERM and SIGHUP (driver/Interrupt.h) before step 4 remove what
// was staged; once step 4 has begun they wait for it to end. SIGKILL or a
// power loss can stop it anywhere: each file is then its old or its new
// content (a rename is atomic), and the next run over the same build
// directory finds the journal and completes the set (once a file was
// renamed and every other still has its staged content) or rolls it back
// (from the copies), and says which on one line. A file that is neither
// (edited since) is left as it is, and named.
//
//===----------------------------------------------------------------------===//
#ifndef HOTPATH_DRIVER_FIXJOURNAL_H
#define HOTPATH_DRIVER_FIXJOURNAL_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace hotpath::driver {

/// One file of a fix set: its content as the fixes were made for it, and
/// with them.
struct FixedFile {
  std::string Path; // absolute
  std::string Old, New;
};

/// The directory of the journals of runs over \p BuildDir (canonical).
std::string fixStateDir(llvm::StringRef BuildDir);

/// Applies \p Files as one set, journaled in \p StateDir. An error (a file
/// changed since the fixes were made for it, a directory that cannot be
/// written) leaves every file as it was, and says why.
llvm::Error applyFixSet(const std::vector<FixedFile> &Files, llvm::StringRef StateDir);

/// Completes or rolls back each set an interrupted run left in
/// \p StateDir, saying which on standard error (paths relative to
/// \p Cwd). An error when a journal does not read: its files are then
/// not known to be whole, and nothing should read them.
llvm::Error recoverFixSets(llvm::StringRef StateDir, llvm::StringRef Cwd);

} // namespace hotpath::driver

#endif
