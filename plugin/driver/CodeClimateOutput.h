//===--- driver/CodeClimateOutput.h - GitLab Code Quality JSON -*- C++ -*-===//
//
// --format=codeclimate: the report GitLab's merge requests show
// (artifacts:reports:codequality), the subset of the Code Climate issue
// format GitLab's documentation tables ("Code Quality report format"):
// an array of {description, check_name, fingerprint, severity,
// location{path, lines{begin}}}. GitLab displays no SARIF.
//
//===----------------------------------------------------------------------===//
#ifndef HOTPATH_DRIVER_CODECLIMATEOUTPUT_H
#define HOTPATH_DRIVER_CODECLIMATEOUTPUT_H

#include "Types.h"
#include "llvm/Support/raw_ostream.h"

namespace hotpath::driver {

/// One issue per finding that has a file: its message, its check, SARIF's
/// fingerprint (so that GitLab tracks a finding as code scanning does),
/// the severity (an error "major", a warning "minor", a remark "info"),
/// the path relative to \p Root (the repository) and the line.
/// TUs that could not be analysed are on standard error, not here: the
/// format has no place for what is not a finding in the code.
void writeCodeClimate(llvm::raw_ostream &OS, const std::vector<Finding> &Findings,
                      llvm::StringRef Root);

} // namespace hotpath::driver

#endif
