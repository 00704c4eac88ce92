//===--- driver/Report.h - what a run reports ----------------- -*- C++ -*-===//
#ifndef HOTPATH_DRIVER_REPORT_H
#define HOTPATH_DRIVER_REPORT_H

#include "Types.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace hotpath::driver {

struct RunOptions;

/// The exit status of a run over the database.
constexpr int ExitClean = 0, ExitFindings = 1, ExitError = 2;

/// "hotpath-tidy: error: <Msg>" on standard error; ExitError.
int fail(const llvm::Twine &Msg);

/// The findings a run reports, of \p All: with \p Patch, those it touches
/// (PatchFilter.h); each once, however many TUs reported it (a header's);
/// in file order, or with \p ByProfile, highest share of samples first.
std::vector<Finding> keepFindings(std::vector<Finding> All, const ChangedLines *Patch,
                                  bool ByProfile);

/// --fix: applies the fixes of \p Findings and says what it did.
llvm::Error applyAndTell(const std::vector<Finding> &Findings, llvm::StringRef Root);

/// Writes \p Findings in the format \p O asks for (and the fix patch), says
/// which of the \p Checked TUs could not be analysed and what \p Config
/// says (on standard error, and in the format's own place: SARIF's
/// toolConfigurationNotifications, GitHub annotations), and returns the
/// exit status.
int report(const RunOptions &O, const std::vector<Finding> &Findings,
           const std::vector<Failure> &Failures, const std::vector<ConfigNote> &Config,
           size_t Checked, llvm::StringRef Root, llvm::StringRef Cwd);

/// The exit status of a run that checked \p Checked TUs: ExitFindings when
/// a finding (not an --explain remark) is reported, else ExitClean. TUs
/// clang cannot compile are skipped and do not change it, as long as some
/// TU was checked; any other failure (a crash, an export that does not
/// read) is ExitError, as is a run where every TU was skipped, and a
/// configuration error (or, with \p Strict, a configuration warning).
int exitStatus(const std::vector<Finding> &Findings, const std::vector<Failure> &Failures,
               const std::vector<ConfigNote> &Config, size_t Checked, bool Strict);

} // namespace hotpath::driver

#endif
