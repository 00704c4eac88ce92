//===--- driver/FixEdits.h - each edit once ------------------- -*- C++ -*-===//
#ifndef HOTPATH_DRIVER_FIXEDITS_H
#define HOTPATH_DRIVER_FIXEDITS_H

#include "Types.h"
#include "llvm/ADT/StringRef.h"

#include <map>
#include <string>
#include <vector>

namespace hotpath::driver {

/// The edits of \p Findings, once each however many TUs propose them (a
/// shared header's), by file and in order. A finding whose edit overlaps a
/// different edit loses its whole fix, and so does the other side: which
/// one is right is not ours to guess. Each loss is named in \p Dropped
/// (paths relative to \p Root).
std::map<std::string, std::vector<Edit>> chooseEdits(const std::vector<Finding> &Findings,
                                                     llvm::StringRef Root,
                                                     std::vector<std::string> &Dropped);

} // namespace hotpath::driver

#endif
