//===--- driver/GithubOutput.h - findings as GitHub annotations -*- C++ -*-===//
#ifndef HOTPATH_DRIVER_GITHUBOUTPUT_H
#define HOTPATH_DRIVER_GITHUBOUTPUT_H

#include "Types.h"
#include "llvm/Support/raw_ostream.h"

namespace hotpath::driver {

/// GitHub workflow commands: ::warning file=...,line=...,col=...,title=check::message
/// (notes appended to the message); paths relative to Root. A TU that could
/// not be analysed is an ::error on its file.
void writeGithub(llvm::raw_ostream &OS, const std::vector<Finding> &Findings,
                 const std::vector<Failure> &Failures, const std::vector<ConfigNote> &Config,
                 llvm::StringRef Root);

} // namespace hotpath::driver

#endif
