//===--- driver/ExportFixes.h - the findings as clang-tidy's YAML -*- C++ -*-===//
//
// --export-fixes in a run over the compile database: one document in the
// format clang-tidy --export-fixes writes (MainSourceFile, then each
// diagnostic with its message, notes, replacements, level and build
// directory), so that clang-apply-replacements applies it as it applies
// clang-tidy's own. The edits are those --fix and --fix-patch make: each
// once however many TUs propose it (a shared header's), none of a fix that
// overlaps another differently (FixEdits.h).
//
//===----------------------------------------------------------------------===//
#ifndef HOTPATH_DRIVER_EXPORTFIXES_H
#define HOTPATH_DRIVER_EXPORTFIXES_H

#include "Types.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace hotpath::driver {

/// Writes \p Findings to \p OS as clang-tidy's export: each edit under the
/// first finding that proposes it; the fixes left out are named in
/// \p Dropped (paths relative to \p Root). A warning --warnings-as-errors
/// selected is exported as an error, as clang-tidy does.
void writeExportFixes(llvm::raw_ostream &OS, const std::vector<Finding> &Findings,
                      llvm::StringRef Root, std::vector<std::string> &Dropped);

} // namespace hotpath::driver

#endif
