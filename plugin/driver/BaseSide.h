//===--- driver/BaseSide.h - a --diff run's files at its base --*- C++ -*-===//
//
// --diff reports what is new in the working tree: its findings minus the
// same findings at the base revision (PatchFilter.h). The base side runs the
// same checks on the same TUs without a second checkout: each file the
// patch changes or deletes is written as it was (git cat-file) to a
// temporary directory, and a clang VFS overlay maps the file's own path to
// that copy, so clang reads the base content under the real name (the
// findings, the index and the fingerprints name the real path).
//
// An overlay cannot hide a file: a TU the patch adds has no base side (all
// its findings are new), and a TU that still reads a file the patch adds
// when it is compiled through the overlay (the added header shadows
// another on the include path, or __has_include finds it) has no base side
// we can trust: its findings are all reported, with a note.
//
//===----------------------------------------------------------------------===//
#ifndef HOTPATH_DRIVER_BASESIDE_H
#define HOTPATH_DRIVER_BASESIDE_H

#include "Types.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace hotpath::driver {

class Project;

struct BaseSide {
  std::string Rev;     // the base commit
  std::string Overlay; // the overlay file; "" when the patch only adds files
  /// The copy of each file the patch changes or deletes, by its real path.
  std::map<std::string, std::string> Content;
  std::set<std::string> Added; // the real paths of the files the patch adds
};

/// The files of the working tree of \p Root that differ from revision \p Rev
/// (git diff --no-renames: a rename is a deletion and an addition), their
/// base copies under \p Dir, and the overlay that maps them.
llvm::Expected<BaseSide> writeBaseSide(llvm::StringRef Git, llvm::StringRef Root,
                                       llvm::StringRef Rev, llvm::StringRef Dir);

/// The project index as it is at the base, written to \p OutFile: the
/// shards in \p IndexDir of the TUs of \p All that read no file the patch
/// changes, adds or deletes, and those that do, and the TUs \p Checked,
/// parsed again through the overlay; a TU the patch adds is left out. (The
/// TUs checked are those the patch affects by a fresh preprocessor run: a
/// shard's key does not see a new header that shadows one it read.) Heat
/// read from the head's index would make an old check hot at the base when
/// the patch adds its hot call in another TU, and its finding would not
/// count as new. The shards parsed through the overlay are kept in
/// <IndexDir>/base/shards, keyed by the content of what they read as the
/// base side sees it, and reused while that holds (not when the patch adds
/// a file no TU is: a new header may shadow one they read). \p ReadsAdded
/// gets the TUs that still read an added file through the overlay.
llvm::Error writeBaseIndex(Project &P, const std::vector<std::string> &All,
                           const std::vector<std::string> &Checked, llvm::StringRef IndexDir,
                           const BaseSide &B, unsigned Jobs, llvm::StringRef OutFile,
                           std::set<std::string> &ReadsAdded);

/// Without an index: the TUs of \p TUs that read an added file through the
/// overlay (their includes scanned by the preprocessor).
std::set<std::string> readingAdded(Project &P, const std::vector<std::string> &TUs,
                                   const BaseSide &B, unsigned Jobs);

/// Fills the lines of \p Base's findings (found through the overlay, at
/// offsets of the base content) from the base copies.
void locateAtBase(std::vector<Finding> &Base, const BaseSide &B);

} // namespace hotpath::driver

#endif
