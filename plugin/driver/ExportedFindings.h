//===--- driver/ExportedFindings.h - what each clang-tidy run found -*- C++ -*-===//
//
// A run's findings are the diagnostics clang-tidy exported (--export-fixes:
// messages, notes, fix-its, ranges) joined with what the checks wrote as
// data (core/FindingData.h: subject, kind, extent, evidence, profile
// share), by check, file and offset. Nothing is read from a message's words.
//
//===----------------------------------------------------------------------===//
#ifndef HOTPATH_DRIVER_EXPORTEDFINDINGS_H
#define HOTPATH_DRIVER_EXPORTEDFINDINGS_H

#include "Types.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace hotpath::driver {

/// Reads a clang-tidy --export-fixes file; paths made canonical.
bool readExportedDiagnostics(llvm::StringRef YamlPath, llvm::StringRef TU,
                             std::vector<Finding> &Out, std::string &Err);

} // namespace hotpath::driver

#endif
