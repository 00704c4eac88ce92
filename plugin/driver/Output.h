//===--- driver/Output.h - text, SARIF, GitHub annotations, fix patch -----===//
#ifndef HOTPATH_DRIVER_OUTPUT_H
#define HOTPATH_DRIVER_OUTPUT_H

#include "Types.h"
#include "llvm/Support/raw_ostream.h"

namespace hotpath::driver {

/// \p Path relative to \p Dir when it is below it, else unchanged.
std::string relativeTo(llvm::StringRef Path, llvm::StringRef Dir);

/// Fills Line/Col/CodePointCol of every message, and the lines of every
/// related range, from the files' bytes.
void locate(std::vector<Finding> &Findings);

/// clang-tidy's text: "file:line:col: warning: message [check]", the source
/// line and a caret, then the notes. Paths relative to Cwd when below it.
void writeText(llvm::raw_ostream &OS, const std::vector<Finding> &Findings,
               llvm::StringRef Cwd);

/// GitHub workflow commands: ::warning file=...,line=...,col=...,title=check::message
/// (notes appended to the message); paths relative to Root.
void writeGithub(llvm::raw_ostream &OS, const std::vector<Finding> &Findings,
                 const std::vector<Failure> &Failures, llvm::StringRef Root);

/// SARIF 2.1.0: one run, rules by id, results with locations relative to
/// the SRCROOT base (Root), notes as related locations, fix-its as fixes,
/// TUs that could not be analysed as tool execution notifications.
void writeSarif(llvm::raw_ostream &OS, const std::vector<Finding> &Findings,
                const std::vector<Failure> &Failures, llvm::StringRef Root,
                llvm::StringRef ToolVersion);

/// The fix-its of Findings as one unified diff against the files as they are
/// (paths a/ b/ relative to Root, for `git apply`). Identical edits from
/// several TUs appear once; a finding whose edits overlap another's
/// differently loses its fix (named in Dropped). Returns false on an I/O error.
bool writeFixPatch(llvm::StringRef Path, const std::vector<Finding> &Findings,
                   llvm::StringRef Root, std::vector<std::string> &Dropped,
                   std::string &Err);

/// hotpath-tidy --fix over several TUs: the fix-its of \p Findings applied to
/// the files, each edit once however many TUs propose it (a shared header's);
/// fixes that overlap differently are left out (named in Dropped).
/// FilesChanged counts the files written. False on an I/O error.
bool applyFixes(const std::vector<Finding> &Findings, llvm::StringRef Root,
                std::vector<std::string> &Dropped, unsigned &FilesChanged, std::string &Err);

} // namespace hotpath::driver

#endif
