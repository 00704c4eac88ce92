//===--- driver/Paths.h - the driver's one spelling of a path ---*- C++ -*-===//
#ifndef HOTPATH_DRIVER_PATHS_H
#define HOTPATH_DRIVER_PATHS_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace hotpath::driver {

/// Absolute path without symlinks or "..": the key every piece agrees on.
std::string canonicalPath(llvm::StringRef Path, llvm::StringRef RelativeTo);

/// \p Path relative to \p Dir when it is below it, else unchanged.
std::string relativeTo(llvm::StringRef Path, llvm::StringRef Dir);

/// A `.gitignore` of "*" in \p Dir, once, headed by "# hotpath-tidy's
/// \p What": a directory of ours ignores itself in a git work tree (a build
/// directory may be the source tree). A file that cannot be written is
/// left out: nothing depends on it.
void ignoreInGit(llvm::StringRef Dir, llvm::StringRef What);

} // namespace hotpath::driver

#endif
