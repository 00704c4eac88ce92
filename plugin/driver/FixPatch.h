//===--- driver/FixPatch.h - the fixes as one unified diff ------*- C++ -*-===//
#ifndef HOTPATH_DRIVER_FIXPATCH_H
#define HOTPATH_DRIVER_FIXPATCH_H

#include "Types.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace hotpath::driver {

/// The fix-its of Findings as one unified diff against the files as they are
/// (paths a/ b/ relative to Root, for `git apply`). Identical edits from
/// several TUs appear once; a finding whose edits overlap another's
/// differently loses its fix (named in Dropped). Written to \p OS (the
/// --fix-patch file, which appears whole when the run ends: Report.h);
/// false when a file cannot be read.
bool writeFixPatch(llvm::raw_ostream &OS, const std::vector<Finding> &Findings,
                   llvm::StringRef Root, std::vector<std::string> &Dropped,
                   std::string &Err);

} // namespace hotpath::driver

#endif
