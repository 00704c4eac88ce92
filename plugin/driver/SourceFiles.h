//===--- driver/SourceFiles.h - the files findings point into ---*- C++ -*-===//
//
// Each file is read once, as it is when the findings are reported; its
// lines and columns are counted from its bytes (columns in bytes, as clang
// counts them, and in code points, as SARIF does).
//
//===----------------------------------------------------------------------===//
#ifndef HOTPATH_DRIVER_SOURCEFILES_H
#define HOTPATH_DRIVER_SOURCEFILES_H

#include "Types.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace hotpath::driver {

/// The bytes of a file, with its line starts.
struct SourceFile {
  std::string Text;
  std::vector<unsigned> LineStarts; // offset of each line's first byte
  bool Ok = false;                  // it could be read
};

/// \p Path's bytes, read the first time it is asked for (not thread-safe:
/// the outputs run on the main thread).
SourceFile &source(llvm::StringRef Path);

struct Pos {
  unsigned Line = 0, Col = 0, CodePointCol = 0;
};

/// The line and columns of byte \p Offset of \p Path; zeros when the file
/// cannot be read.
Pos position(llvm::StringRef Path, unsigned Offset);

/// Line \p Line of \p Path, without its line break.
llvm::StringRef lineText(llvm::StringRef Path, unsigned Line);

/// Fills Line/Col/CodePointCol of every message, and the lines of every
/// related range, from the files' bytes.
void locate(std::vector<Finding> &Findings);

} // namespace hotpath::driver

#endif
