//===--- driver/TextOutput.h - clang-tidy's text -------------- -*- C++ -*-===//
#ifndef HOTPATH_DRIVER_TEXTOUTPUT_H
#define HOTPATH_DRIVER_TEXTOUTPUT_H

#include "Types.h"
#include "llvm/Support/raw_ostream.h"

namespace hotpath::driver {

/// clang-tidy's text: "file:line:col: warning: message [check]", the source
/// line and a caret, then the notes. Paths relative to Cwd when below it.
void writeText(llvm::raw_ostream &OS, const std::vector<Finding> &Findings,
               llvm::StringRef Cwd);

} // namespace hotpath::driver

#endif
