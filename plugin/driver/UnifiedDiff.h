//===--- driver/UnifiedDiff.h - added lines of a unified diff -------------===//
#ifndef HOTPATH_DRIVER_UNIFIEDDIFF_H
#define HOTPATH_DRIVER_UNIFIEDDIFF_H

#include "Types.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace hotpath::driver {

/// Reads a unified diff (git diff, diff -u, a patch file) and records, per
/// new-side file, the lines it adds or changes and where it removes lines.
/// Paths are taken relative to Root, after \p Strip leading components are
/// removed from them (patch -pN); without \p Strip, a git-style diff
/// ("--- a/x", "+++ b/x") has its prefixes removed. Deleted files add
/// nothing. Returns false with Err set when the text is not a unified diff
/// it can follow, or \p Strip removes a whole path.
bool parseUnifiedDiff(llvm::StringRef Text, llvm::StringRef Root, std::optional<unsigned> Strip,
                      ChangedLines &Out, std::string &Err);

} // namespace hotpath::driver

#endif
