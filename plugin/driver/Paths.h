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

} // namespace hotpath::driver

#endif
