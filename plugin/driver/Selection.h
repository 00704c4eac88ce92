//===--- driver/Selection.h - which TUs a run checks ---------- -*- C++ -*-===//
//
// A run checks the TUs a patch affects (--diff), the sources named, or every
// TU of the database; --shard=K/N keeps one slice of them. Assembly and
// other languages clang-tidy cannot check sit in compile databases too
// (btrfs-progs' crc32c-pcl-intel-asm_64.S), and a run on one fails: they are
// left out, with a note where it matters.
//
//===----------------------------------------------------------------------===//
#ifndef HOTPATH_DRIVER_SELECTION_H
#define HOTPATH_DRIVER_SELECTION_H

#include "Types.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace hotpath::index {
class ProjectIndex;
}

namespace hotpath::driver {

class Project;
class ProgressLine;

class TUSelection {
public:
  /// The TUs of \p P; notes name files relative to \p Cwd.
  TUSelection(Project &P, llvm::StringRef Cwd, ProgressLine &Progress);

  /// Every TU clang-tidy can check, sorted: what the project index and the
  /// inline remarks cover, whichever TUs are checked.
  std::vector<std::string> checkable() const;

  /// The TUs \p Changed touches: those it changes, those that include a
  /// header it changes (their includes scanned in \p Jobs threads), and,
  /// with \p Index, those whose findings may change through the index. Says
  /// how many of each on standard error.
  std::set<std::string> touchedBy(const ChangedLines &Changed, const index::ProjectIndex *Index,
                                  unsigned Jobs);

  /// The TUs \p Sources name; an error for one the database does not have.
  llvm::Expected<std::set<std::string>> named(const std::vector<std::string> &Sources,
                                              llvm::StringRef BuildDir);

  /// Every TU of the database, uncheckable ones noted and left out.
  std::set<std::string> all();

private:
  /// "skipping src/crc.S: assembly, which clang-tidy does not check"
  void skip(const std::string &TU) const;
  std::set<std::string> throughHeaders(const std::set<std::string> &Headers,
                                       const std::set<std::string> &Selected, unsigned Jobs);

  /// What \p TU is when clang-tidy cannot check it (its language), else
  /// null. Asked per TU as needed: reading a command from the database costs
  /// 0.2 M instructions, and a run on one kernel TU asked for all 120 (24 M,
  /// a fifth of the driver).
  const std::string *uncheckable(const std::string &TU) const;

  Project &P;
  std::string Cwd;
  ProgressLine &Progress;
  mutable std::map<std::string, std::string> Languages; // TU -> "" or its language
};

/// The K-th (1-based) of N slices of \p All, taken round robin so that
/// slices of a sorted list mix directories (--shard=K/N).
std::vector<std::string> slice(const std::vector<std::string> &All, unsigned K, unsigned N);

} // namespace hotpath::driver

#endif
