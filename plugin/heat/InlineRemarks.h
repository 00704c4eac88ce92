//===--- InlineRemarks.h - which calls the compiler left out of line -*- C++ -*-===//
//
// Reads clang's optimization records (-fsave-optimization-record, YAML) and
// counts, per callee, the call sites the inliner inlined and those it left
// out of line; or a summary of those counts that hotpath-tidy
// --inline-remarks writes. LLVM Support and Remarks only, no clang headers.
//
//===----------------------------------------------------------------------===//

#ifndef HOTPATH_TIDY_INLINEREMARKS_H
#define HOTPATH_TIDY_INLINEREMARKS_H

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>
#include <string>

namespace hotpath {

struct InlineCount {
  unsigned Sites = 0;      // call sites the inliner looked at
  unsigned NotInlined = 0; // of those, left out of line
};

class InlineRemarks {
public:
  /// Reads ';'-separated files, each an optimization record (YAML, as
  /// -fsave-optimization-record writes it) or a summary (writeSummary).
  /// Errors name the file (and the line, for a summary).
  static llvm::Expected<InlineRemarks> load(llvm::StringRef Paths);

  /// Adds the inliner's remarks (passes 'inline' and 'always-inline') of one
  /// optimization record. A call site is one source location of a call
  /// (file:line:column; the caller where there is no location); it counts as
  /// not inlined when some copy of it (the call, in each function it ended
  /// up in) got only "missed" remarks.
  llvm::Error addOptimizationRecord(llvm::StringRef Yaml, llvm::StringRef Name);
  /// Adds a summary's counts.
  llvm::Error addSummary(llvm::StringRef Text, llvm::StringRef Name);

  /// "# hotpath-tidy inline summary" then "callee not_inlined sites" lines.
  void writeSummary(llvm::raw_ostream &OS) const;

  /// Counts for a function, by its qualified name, then its plain name.
  std::optional<InlineCount> countOf(llvm::StringRef QualifiedName,
                                     llvm::StringRef Name) const;

  const llvm::StringMap<InlineCount> &counts() const { return Counts; }
  const std::string &name() const { return Name; }

  /// Mangled or not, clones and parameters removed: "_ZN2ns1fEi" -> "ns::f".
  static std::string calleeName(llvm::StringRef Symbol);

private:
  std::string Name;
  llvm::StringMap<InlineCount> Counts;
};

} // namespace hotpath

#endif // HOTPATH_TIDY_INLINEREMARKS_H
