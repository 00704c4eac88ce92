//===--- driver/TextOutput.h - clang-tidy's text -------------- -*- C++ -*-===//
#ifndef HOTPATH_DRIVER_TEXTOUTPUT_H
#define HOTPATH_DRIVER_TEXTOUTPUT_H

#include "Types.h"
#include "llvm/Support/raw_ostream.h"

namespace hotpath::driver {

/// clang-tidy's text: "file:line:col: warning: message [check]", the source
/// line and a caret, then the notes; "error: ... [check,-warnings-as-errors]"
/// for a warning --warnings-as-errors selects. Paths relative to Cwd when
/// below it.
void writeText(llvm::raw_ostream &OS, const std::vector<Finding> &Findings,
               llvm::StringRef Cwd);

/// A compile error as clang says it: "src/a.c:1:24: error: <text>", its
/// path relative to \p Base.
std::string errorLine(const Message &E, llvm::StringRef Base);

/// A TU that could not be analysed, in one line: why, and for one clang
/// cannot compile, its first errors ("file:line:col: error: ..."), paths
/// relative to \p Base. What SARIF's and GitHub's notifications say.
std::string failureText(const Failure &X, llvm::StringRef Base);

} // namespace hotpath::driver

#endif
