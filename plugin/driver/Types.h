//===--- driver/Types.h - data passed between the diff-mode pieces --------===//
//
// Plain structs, no clang headers: the diff parser, the output writers and
// the patch writer only need LLVM Support, so only DiffTooling.cpp pays for
// the clang headers.
//
//===----------------------------------------------------------------------===//
#ifndef HOTPATH_DRIVER_TYPES_H
#define HOTPATH_DRIVER_TYPES_H

#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace hotpath::driver {

/// New-side line numbers (1-based) the patch added or changed, per file
/// (absolute, symlink-free path).
using ChangedLines = std::map<std::string, std::set<unsigned>>;

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
};

/// A translation unit that could not be analysed, and why.
struct Failure {
  std::string TU;
  std::string Reason;
};

} // namespace hotpath::driver

#endif
