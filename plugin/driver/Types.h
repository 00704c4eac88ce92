//===--- driver/Types.h - data passed between the diff-mode pieces --------===//
//
// Plain structs, no clang headers: the diff parser, the output writers and
// the patch writer only need LLVM Support, so only the files that read the
// compile database, the checks' configuration and clang-tidy's export pay
// for the clang headers.
//
//===----------------------------------------------------------------------===//
#ifndef HOTPATH_DRIVER_TYPES_H
#define HOTPATH_DRIVER_TYPES_H

#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace hotpath::driver {

/// What a patch changes in one file, in new-side line numbers (1-based).
struct FileChanges {
  std::set<unsigned> Lines;         // added or changed
  std::set<unsigned> DeletedBefore; // N: lines removed between lines N-1 and N
};

/// The changes of a patch, per file (absolute, symlink-free path).
using ChangedLines = std::map<std::string, FileChanges>;

/// A byte range of a file; the lines it spans are filled in by locate().
struct Range {
  std::string File; // absolute, symlink-free
  unsigned Offset = 0, Length = 0;
  unsigned FirstLine = 0, LastLine = 0;
};

/// One replacement of a fix-it, in byte offsets of the file as analysed.
struct Edit {
  std::string File; // absolute, symlink-free
  unsigned Offset = 0, Length = 0;
  std::string Text;
  bool operator<(const Edit &O) const {
    return std::tie(File, Offset, Length, Text) < std::tie(O.File, O.Offset, O.Length, O.Text);
  }
  bool operator==(const Edit &O) const {
    return File == O.File && Offset == O.Offset && Length == O.Length && Text == O.Text;
  }
};

/// A position in a file, with its message; Line/Col are filled in from the
/// file's bytes (Col counts bytes, as clang does; CodePointCol for SARIF).
struct Message {
  std::string File; // absolute, symlink-free; empty when not tied to a file
  unsigned Offset = 0;
  std::string Text;
  unsigned Line = 0, Col = 0, CodePointCol = 0;
};

/// One diagnostic of a clang-tidy run, with its notes and fix-it.
struct Finding {
  std::string Check; // e.g. hotpath-check-split, clang-diagnostic-error
  std::string Level; // "warning", "error" or "remark"
  Message Main;
  std::vector<Message> Notes;
  std::vector<Edit> Fix;
  std::string TU; // the translation unit that reported it
  std::string BuildDirectory; // its compile command's directory, as clang-tidy exports it
  /// --warnings-as-errors (or the configuration's WarningsAsErrors)
  /// selects its check: a warning shown and exported as an error, as
  /// clang-tidy does.
  bool WarningAsError = false;
  /// The level the outputs show.
  std::string shownLevel() const { return WarningAsError ? "error" : Level; }
  /// What the check's data says (core/FindingData.h): the function or
  /// macro it is about, the kind of finding, the profile's share.
  std::string Subject, Kind;
  std::optional<double> ProfileShare;
  /// The source the finding is about besides its own line: the extent of
  /// the declaration it reports (sent by the checks, FindingExtent.h) and
  /// the code its fix rewrites. A patch that touches any of them touches
  /// the finding (PatchFilter.h).
  std::vector<Range> Related;
};

/// What a run says about its configuration rather than about the code,
/// once however many TUs read it: a .clang-tidy, -config or -config-file
/// that does not parse (an error, at its line and column: the run stops
/// before checking anything, where clang-tidy would check with its
/// defaults), and what the checks of each TU report about their options
/// ("clang-tidy-config": an option no check has is a warning, a value that
/// does not parse an error).
struct ConfigNote {
  bool Error = false;
  Message Where; // File empty when it has no place (the checks' own)
  bool operator<(const ConfigNote &O) const {
    return std::tie(Error, Where.File, Where.Line, Where.Col, Where.Text) <
           std::tie(O.Error, O.Where.File, O.Where.Line, O.Where.Col, O.Where.Text);
  }
};

/// One clang-tidy run on a translation unit: where it exported its
/// diagnostics, and how it ended.
struct TURun {
  std::string TU;
  std::string ExportFile;
  int Status = 0;  // exit status; -2 when it crashed
  std::string Log; // its output and errors
  bool FromCache = false; // restored from the result cache, not run
};

/// A translation unit that could not be analysed, and why.
struct Failure {
  std::string TU;
  std::string Reason;
  /// Clang cannot compile it: its first errors (located), and how many it
  /// had. Such a TU is skipped, findings and fixes alike, and the others
  /// still decide the exit status (Report.h); any other failure (a crash,
  /// an export that does not read) is the run's.
  std::vector<Message> CompileErrors;
  unsigned ErrorCount = 0;
  bool compileFailure() const { return ErrorCount != 0; }
};

} // namespace hotpath::driver

#endif
