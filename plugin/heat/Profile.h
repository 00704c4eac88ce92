//===--- Profile.h - sample profiles as evidence of heat -------*- C++ -*-===//
//
// Reads the profiles users already have: `perf report --stdio` output (with or
// without --children, call graphs and all), folded stacks ("a;b;c 123", as
// stackcollapse writes them) and callgrind output files (instructions and
// call counts), and says what share of the samples or instructions a
// function took: by itself, with what it calls, or as the cost a rewrite
// can remove (Metric::Removable).
//
//===----------------------------------------------------------------------===//

#ifndef HOTPATH_TIDY_PROFILE_H
#define HOTPATH_TIDY_PROFILE_H

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <optional>
#include <string>

namespace hotpath {

class Profile {
public:
  enum class Metric {
    Self,      // in the function itself
    Inclusive, // with it on the stack
    /// What taking the function off the hot path can save: its inclusive
    /// cost plus the call overhead its callers pay (callgrind, which counts
    /// the calls); the inclusive share where calls are not counted (perf
    /// --children, folded stacks), the self share where nothing more is
    /// known (perf without --children). A perf report's shares are of the
    /// samples in the function's own space, user or kernel.
    Removable,
  };
  /// What the profile counts.
  enum class Source { PerfReport, Folded, Callgrind };
  /// Instructions a call costs its caller besides the callee's own: the
  /// call and the return, and moving arguments and saved registers around
  /// them. Measured as (before - no check) / calls - the check's inclusive
  /// count, with the check deleted by hand: xfs_repair's check_nsec 6.6
  /// (566,744 calls in the binary), libarchive's __archive_check_magic 11.1
  /// (880,005 calls through the PLT) (docs/profile.md). The lower one, so
  /// that the share is not overstated.
  static constexpr unsigned CallOverhead = 6;

  /// Reads a profile file; errors name the file and the line.
  static llvm::Expected<Profile> load(llvm::StringRef Path);
  /// Parses profile text; \p Name appears in error messages.
  static llvm::Expected<Profile> parse(llvm::StringRef Text, llvm::StringRef Name);

  /// Percentage of all samples (0-100) that \p Function took, looked up by its
  /// qualified name, then by its plain name; none when it has no samples.
  std::optional<double> percentOf(llvm::StringRef QualifiedName, llvm::StringRef Name,
                                  Metric M) const;

  /// "perf.txt": for messages.
  const std::string &name() const { return Name; }
  Source source() const { return From; }
  /// "self samples", "instructions removable"... the unit \p M counts in.
  std::string describe(Metric M) const;
  /// Calls of \p Name the profile counted (callgrind), if it counts them.
  std::optional<uint64_t> callsOf(llvm::StringRef QualifiedName, llvm::StringRef Name) const;

  /// Compiler clones and parameter lists removed: "f.constprop.0" -> "f",
  /// "ns::C::f(int) const" -> "ns::C::f".
  static std::string normalizeSymbol(llvm::StringRef Symbol);

private:
  static llvm::Expected<Profile> parseCallgrind(llvm::StringRef Text, llvm::StringRef Name);
  static llvm::Expected<Profile> parseFolded(llvm::StringRef Text, llvm::StringRef Name);
  static llvm::Expected<Profile> parsePerfReport(llvm::StringRef Text, llvm::StringRef Name);
  std::string Name;
  Source From = Source::PerfReport;
  bool HasChildren = false; // a perf report with --children
  llvm::StringMap<double> Self, Inclusive, Removable; // percentages
  llvm::StringMap<uint64_t> Calls;
};

} // namespace hotpath

#endif // HOTPATH_TIDY_PROFILE_H
