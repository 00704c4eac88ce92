//===--- driver/ExportedFindings.h - what each run found ------ -*- C++ -*-===//
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
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace hotpath::driver {

/// What the check runs found: the diagnostics each exported, joined with
/// the checks' data in \p DataFile, located in their files. A TU with a
/// compile error is skipped: a failure that names its first errors, and
/// none of its findings (so none of its fixes) is kept. A run that crashed
/// or failed is a failure too. What the checks say about their options
/// ("clang-tidy-config") is no finding: it goes to \p Config, once however
/// many TUs said it, and a run that failed for a configuration error alone
/// is no failure of its TU (the note says why). An error when the data
/// does not read.
llvm::Error collectFindings(const std::vector<TURun> &Runs, llvm::StringRef DataFile,
                            llvm::StringRef Cwd, std::vector<Finding> &Found,
                            std::vector<Failure> &Failures, std::vector<ConfigNote> &Config);

/// True for the compiler's own diagnostics, which clang-tidy names
/// "clang-diagnostic-<flag>" (or clang-diagnostic-error): a check's name,
/// not a message.
bool isCompilerDiagnostic(llvm::StringRef Check);

/// Reads a clang-tidy --export-fixes file; paths made canonical.
bool readExportedDiagnostics(llvm::StringRef YamlPath, llvm::StringRef TU,
                             std::vector<Finding> &Out, std::string &Err);

} // namespace hotpath::driver

#endif
