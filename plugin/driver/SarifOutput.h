//===--- driver/SarifOutput.h - findings as SARIF 2.1.0 ---------*- C++ -*-===//
#ifndef HOTPATH_DRIVER_SARIFOUTPUT_H
#define HOTPATH_DRIVER_SARIFOUTPUT_H

#include "Types.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <string>
#include <vector>

namespace hotpath::driver {

/// Each finding's fingerprint (SARIF's partialFingerprints, GitLab Code
/// Quality's fingerprint), by which code scanning matches a result across
/// pushes: the same for the same finding after edits elsewhere in
/// the file, so no line or column goes in. What does: the check, the file
/// (relative to \p Root), the declaration the finding is about (its data's
/// subject), the text of the line with its whitespace collapsed, and which
/// of equal ones it is. --diff matches a finding with its base side's by it
/// (PatchFilter.h); \p ReadFrom names, by a file's path, the file that holds
/// the text its findings were located in when that is not the file itself
/// (the base content of a file the patch changes).
std::vector<std::string> fingerprints(const std::vector<Finding> &Findings, llvm::StringRef Root,
                                      const std::map<std::string, std::string> &ReadFrom = {});

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
