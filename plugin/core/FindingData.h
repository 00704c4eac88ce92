//===--- FindingData.h - a finding as data, for tools -----------*- C++ -*-===//
//
// What a hotpath check found, as data rather than as English: the check,
// the kind of finding, its subject, where it is, the code it is about, the
// evidence found in other files, its share of a profile, and why no fix was
// offered. The checks write it when option FindingsFile names a file (one
// JSON object per line, appended, so that one file can take a run over many
// translation units); hotpath-tidy's driver reads it beside the diagnostics
// clang-tidy exports, so that patch mode, SARIF and profile order never
// parse a message (docs/architecture.md).
//
// No clang types: the driver's orchestration reads this with LLVM Support
// only.
//
//===----------------------------------------------------------------------===//

#ifndef HOTPATH_TIDY_CORE_FINDINGDATA_H
#define HOTPATH_TIDY_CORE_FINDINGDATA_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <vector>

namespace hotpath {

/// The check option (read globally, as `FindingsFile`) that names the file
/// the checks append their findings to.
inline constexpr llvm::StringLiteral FindingsFileOption = "FindingsFile";

struct FindingData {
  /// A byte range of a file: the code a finding is about.
  struct Span {
    std::string File; // absolute, as the file system names it
    unsigned Offset = 0, Length = 0;
  };
  /// Lines of a file: evidence the project index holds (it keeps lines,
  /// not offsets).
  struct Lines {
    std::string File; // as the index names it
    unsigned First = 0, Last = 0;
  };

  std::string Check;   // "hotpath-check-split"
  std::string Kind;    // the kind of finding, a stable id (FindingKind.h)
  std::string Subject; // the function or macro the finding is about
  /// Where the warning is: its file and byte offset, as the diagnostic
  /// clang-tidy exports has them (the file made absolute).
  std::string File;
  unsigned Offset = 0;
  /// The code the finding is about: the declaration it reports (a check
  /// function's definition, a macro's #define), the statement of a call.
  std::vector<Span> Extent;
  /// What made it a finding, found in other files: the call sites that make
  /// a function hot, the body of a hook defined elsewhere.
  std::vector<Lines> Evidence;
  /// The share of the profile's samples (percent) its function took, when a
  /// profile was given and named it.
  std::optional<double> ProfileShare;
  /// Why no fix was offered (a NoFix id), "" when one was.
  std::string NoFix;

  bool operator==(const FindingData &O) const;
};

/// \p F as one line of JSON (no newline).
std::string toJSONLine(const FindingData &F);

/// Parses one line written by toJSONLine().
llvm::Expected<FindingData> fromJSONLine(llvm::StringRef Line);

/// Appends \p Findings to \p Path, one line each, creating it if needed;
/// atomically (support/AtomicFile.h): check runs in parallel share the
/// file, and one stopped at any point leaves whole lines.
llvm::Error appendFindings(llvm::StringRef Path, llvm::ArrayRef<FindingData> Findings);

/// Every finding in \p Path; an error names the file and the line that does
/// not parse. A file that does not exist holds none.
llvm::Expected<std::vector<FindingData>> readFindings(llvm::StringRef Path);

} // namespace hotpath

#endif // HOTPATH_TIDY_CORE_FINDINGDATA_H
