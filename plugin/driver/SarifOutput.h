//===--- driver/SarifOutput.h - findings as SARIF 2.1.0 ---------*- C++ -*-===//
#ifndef HOTPATH_DRIVER_SARIFOUTPUT_H
#define HOTPATH_DRIVER_SARIFOUTPUT_H

#include "Types.h"
#include "llvm/Support/raw_ostream.h"

namespace hotpath::driver {

/// SARIF 2.1.0: one run, rules by id, results with locations relative to
/// the SRCROOT base (Root), notes as related locations, fix-its as fixes,
/// TUs that could not be analysed as tool execution notifications (the run
/// \p Successful when they did not stop it: TUs clang cannot compile were
/// skipped and the others checked).
void writeSarif(llvm::raw_ostream &OS, const std::vector<Finding> &Findings,
                const std::vector<Failure> &Failures, const std::vector<ConfigNote> &Config,
                bool Successful, llvm::StringRef Root,
                llvm::StringRef ToolVersion);

} // namespace hotpath::driver

#endif
