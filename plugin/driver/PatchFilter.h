//===--- driver/PatchFilter.h - which findings a patch touches ------------===//
//
// hotpath-tidy --diff reports a finding when the patch changes what the
// finding is about, not only the line it points at: a check function is
// reported on its name, and a branch added to its body changes it as much.
//
//===----------------------------------------------------------------------===//
#ifndef HOTPATH_DRIVER_PATCHFILTER_H
#define HOTPATH_DRIVER_PATCHFILTER_H

#include "Types.h"

namespace hotpath::driver {

/// True when \p Changed adds, changes or removes a line of \p F: its own
/// line, or any line of its related ranges (the declaration it reports, the
/// code its fix rewrites). Evidence found elsewhere (a project index's call
/// sites that make a function hot) joins the finding as more related
/// ranges, and counts the same way.
bool patchTouches(const Finding &F, const ChangedLines &Changed);

} // namespace hotpath::driver

#endif
