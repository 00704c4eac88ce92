//===--- driver/ApplyFixes.h - hotpath-tidy --fix over many TUs -*- C++ -*-===//
#ifndef HOTPATH_DRIVER_APPLYFIXES_H
#define HOTPATH_DRIVER_APPLYFIXES_H

#include "Types.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace hotpath::driver {

/// hotpath-tidy --fix over several TUs: the fix-its of \p Findings applied to
/// the files, each edit once however many TUs propose it (a shared header's);
/// fixes that overlap differently are left out (named in Dropped). The
/// files are written as one set, journaled in \p StateDir (FixJournal.h).
/// FilesChanged counts the files written. False on an I/O error, when no
/// file was changed.
bool applyFixes(const std::vector<Finding> &Findings, llvm::StringRef Root,
                llvm::StringRef StateDir, std::vector<std::string> &Dropped,
                unsigned &FilesChanged, std::string &Err);

} // namespace hotpath::driver

#endif
