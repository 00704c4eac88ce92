//===--- driver/Report.h - what a run reports ----------------- -*- C++ -*-===//
#ifndef HOTPATH_DRIVER_REPORT_H
#define HOTPATH_DRIVER_REPORT_H

#include "Types.h"
#include "support/AtomicFile.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>


namespace hotpath::driver {

struct RunOptions;
struct OutputFormat;

/// Where a run's outputs go: each --format (its file, or standard output),
/// --export-fixes and --fix-patch. Opened before anything is indexed or
/// checked, so that a file that cannot be written stops the run at once,
/// not after an hour of checking: each is a temporary file beside its
/// target (support/AtomicFile.h), renamed over it when report() has
/// written it whole. A run that stops before (an error, an interrupt)
/// leaves each target as it was: never a 0-byte or half-written report.
class RunOutputs {
public:
  /// Creates the temporary file of every file the run writes
  /// (--format=<f>:<file>, --export-fixes, --fix-patch); an error naming
  /// the option and why its file cannot be written.
  llvm::Error open(const RunOptions &O);
  /// The text outputs, when the run streams its text (TextStream.h): not
  /// with --diff or --profile, whose findings are known only at the end.
  /// They are the stream's then: report() writes them no more.
  std::vector<llvm::raw_ostream *> streamText(const RunOptions &O);

  struct Output {
    std::string Name;                // text, github, sarif, codeclimate
    std::string Option;              // "--format=sarif:x.sarif", for errors
    std::optional<PendingFile> File; // none: standard output
    bool Streamed = false;
    llvm::raw_ostream &stream();
  };
  std::vector<Output> Outputs;
  std::optional<PendingFile> ExportFixes, FixPatch;
};

/// --warnings-as-errors: marks the warnings whose check \p Globs selects
/// (clang-tidy's globs: comma- or newline-separated, '*' any text, '-'
/// excludes, the last that matches decides).
void markWarningsAsErrors(std::vector<Finding> &Findings,
                          const std::optional<std::string> &Globs);

/// Whether clang-tidy's glob list \p Globs selects \p Name.
bool globsSelect(llvm::StringRef Globs, llvm::StringRef Name);

/// The exit status of a run over the database.
constexpr int ExitClean = 0, ExitFindings = 1, ExitError = 2;

/// "hotpath-tidy: error: <Msg>" on standard error; ExitError.
int fail(const llvm::Twine &Msg);

/// The findings a run reports, of \p All: with \p Patch, those it touches
/// (PatchFilter.h); each once, however many TUs reported it (a header's);
/// in file order, or with \p ByProfile, highest share of samples first.
std::vector<Finding> keepFindings(std::vector<Finding> All, const ChangedLines *Patch,
                                  bool ByProfile);

/// --fix: applies the fixes of \p Findings as one set, journaled in
/// \p StateDir (FixJournal.h), and says what it did.
llvm::Error applyAndTell(const std::vector<Finding> &Findings, llvm::StringRef Root,
                         llvm::StringRef StateDir);

/// Writes \p Findings in every format \p O asks for to \p Out (but the
/// text already streamed), the fix patch and the exported fixes, says
/// which of the \p Checked TUs could not be analysed and what \p Config
/// says (on standard error, and in the format's own place: SARIF's
/// toolConfigurationNotifications, GitHub annotations), and returns the
/// exit status.
int report(const RunOptions &O, RunOutputs &Out, const std::vector<Finding> &Findings,
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
