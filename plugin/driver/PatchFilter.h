//===--- driver/PatchFilter.h - which findings a patch reports ------------===//
//
// hotpath-tidy --diff reports, by default, the findings that are new: found
// in the working tree and not at the base revision (the same checks on the
// same TUs through an overlay, BaseSide.h), matched by SARIF's fingerprints.
// So an old finding whose line moved, whose hot call or body the patch
// edits, or whose message changed (3 conditions instead of 2) is not new;
// a check the patch adds, or makes hot with a new call, is.
//
// --diff-filter=touched (and a diff on standard input, which has no base)
// reports a finding when the patch changes what the finding is about, not
// only the line it points at: a check function is reported on its name,
// and a branch added to its body changes it as much.
//
//===----------------------------------------------------------------------===//
#ifndef HOTPATH_DRIVER_PATCHFILTER_H
#define HOTPATH_DRIVER_PATCHFILTER_H

#include "Types.h"
#include "llvm/ADT/StringRef.h"

#include <map>
#include <string>
#include <vector>

namespace hotpath::driver {

/// True when \p Changed adds, changes or removes a line of \p F: its own
/// line, or any line of its related ranges (the declaration it reports, the
/// code its fix rewrites). Evidence found elsewhere (a project index's call
/// sites that make a function hot) joins the finding as more related
/// ranges, and counts the same way.
bool patchTouches(const Finding &F, const ChangedLines &Changed);

/// The findings of \p Head that \p Base does not have: their fingerprints
/// (SarifOutput.h, with files relative to \p Root) compared, each as many
/// times as it occurs. Both lists as keepFindings leaves them (one each, in
/// order); \p BaseText: the copies holding the base content of the files
/// the patch changes, by real path, where the base findings' lines are read.
std::vector<Finding> newFindings(std::vector<Finding> Head, const std::vector<Finding> &Base,
                                 llvm::StringRef Root,
                                 const std::map<std::string, std::string> &BaseText);

} // namespace hotpath::driver

#endif
