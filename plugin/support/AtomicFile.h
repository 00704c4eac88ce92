//===--- support/AtomicFile.h - files that appear whole or not at all -*- C++ -*-===//
//
// Every file hotpath-tidy and its checks write goes through here: fixed
// sources, the run's outputs (SARIF, JSON, GitHub, Code Quality, the fix
// patch, the exported fixes), the project index, the result cache and the
// findings data. The new content is written to a temporary file beside the
// target (the same directory, so the same file system), then renamed over
// it, which POSIX makes atomic: whatever stops the process (SIGINT, SIGKILL,
// a full disk), the target is its old content or its new one, never a
// prefix. Issue 41: a SIGINT while --fix rewrote files in place (O_TRUNC)
// left a source file at 0 bytes, and a run that stopped on an error left a
// 0-byte SARIF file.
//
// A target that exists keeps its permissions (and, for root, its owner); a
// symbolic link stays a link (the file it names is replaced); a target that
// is no regular file (/dev/stdout, a FIFO) is written in place, since there
// is nothing to rename over.
//
//===----------------------------------------------------------------------===//

#ifndef HOTPATH_TIDY_SUPPORT_ATOMICFILE_H
#define HOTPATH_TIDY_SUPPORT_ATOMICFILE_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <optional>
#include <string>

namespace hotpath {

/// What a write must survive. Process: a killed process (the rename is
/// atomic). Power: a power loss too: the data is fsync'ed before the rename
/// and the directory after it. Power for what the user keeps (their
/// sources, the fix journal, a run's outputs); Process for what a run
/// rebuilds (the index, the cache, the findings data), where an fsync a
/// TU would cost more than the rebuild it saves.
enum class Durability { Process, Power };

/// A file being written beside its target, which appears only at commit();
/// discarded (the temporary removed, the target untouched) unless
/// committed.
class PendingFile {
public:
  /// Creates the temporary file beside \p Path: an error naming \p Path
  /// when its directory cannot be written. With \p TempPath, that exact
  /// name, which must not exist (the fix journal names its staged files
  /// before they are made).
  static llvm::Expected<PendingFile> create(llvm::StringRef Path,
                                            std::optional<std::string> TempPath = std::nullopt);
  PendingFile(PendingFile &&O);
  PendingFile &operator=(PendingFile &&O);
  ~PendingFile();

  llvm::raw_fd_ostream &os() { return *OS; }
  /// The target.
  const std::string &path() const { return Target; }
  /// Where the content is written until commit(); the target itself when
  /// it is no regular file.
  const std::string &tempPath() const { return Temp; }

  /// Closes the temporary file (fsync'ed with Power), which stays pending:
  /// for another writer to fill by its name (SQLite), or until the fix
  /// journal renames a set of files together. An error (the write failed:
  /// a full disk) discards it.
  llvm::Error finishWriting(Durability D = Durability::Process);
  /// Closes the temporary file, if still open, and renames it over the
  /// target. An error removes the temporary file and leaves the target as
  /// it was.
  llvm::Error commit(Durability D = Durability::Process);
  /// Removes the temporary file; the target is left as it was.
  void discard();

private:
  PendingFile() = default;
  std::string Target, Temp;
  std::unique_ptr<llvm::raw_fd_ostream> OS; // null once closed
  int FD = -1;                              // OS's, for fsync
  bool InPlace = false; // the target is no regular file
  bool Done = true;     // committed or discarded
};

/// Writes \p Path whole with what \p Write writes, or leaves it as it was.
llvm::Error writeFileAtomically(llvm::StringRef Path,
                                llvm::function_ref<void(llvm::raw_ostream &)> Write,
                                Durability D = Durability::Process);
llvm::Error writeFileAtomically(llvm::StringRef Path, llvm::StringRef Text,
                                Durability D = Durability::Process);

/// Appends \p Text to \p Path (made when missing): the file is copied with
/// \p Text added and renamed over, under an exclusive lock (flock) on its
/// directory, so that processes appending to one file (check runs in
/// parallel) lose no line and a reader never sees part of one.
llvm::Error appendAtomically(llvm::StringRef Path, llvm::StringRef Text);

/// fsync of directory \p Dir, so that a rename in it survives a power loss.
std::error_code syncDirectory(llvm::StringRef Dir);

/// How a process that removes its temporary files when interrupted (the
/// driver, driver/Interrupt.h) learns of those made here: \p Register makes
/// the file through its argument, registered; \p Forget is told it is gone
/// (renamed or removed). Null (the default, and in a check run) registers
/// nothing.
using RegisterTemporary = std::string (*)(llvm::function_ref<std::string()> Create);
using ForgetTemporary = void (*)(llvm::StringRef Path);
void trackTemporaries(RegisterTemporary Register, ForgetTemporary Forget);

} // namespace hotpath

#endif // HOTPATH_TIDY_SUPPORT_ATOMICFILE_H
