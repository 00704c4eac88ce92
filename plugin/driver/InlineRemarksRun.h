//===--- driver/InlineRemarksRun.h - --inline-remarks --------- -*- C++ -*-===//
//
// Compiles each translation unit with clang, its own flags plus -O2 and an
// optimization record, and sums what the inliner did with each call
// (InlineRemarks.h) into a summary the checks read (option InlineRemarks).
//
//===----------------------------------------------------------------------===//
#ifndef HOTPATH_DRIVER_INLINEREMARKSRUN_H
#define HOTPATH_DRIVER_INLINEREMARKSRUN_H

#include "Types.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"


namespace hotpath::driver {

class Project;

/// The clang of this LLVM that compiles for the remarks: clang-<major>, or
/// else clang, on PATH.
llvm::Expected<std::string> findRemarksCompiler();

/// The command that compiles a TU for its remarks: \p Compiler, then -O2,
/// -c -o /dev/null, the optimization record \p RecordFile and the
/// serialized diagnostics \p DiagnosticsFile (why it failed, as data), then
/// the TU's own arguments without its compiler (and a ccache-like
/// launcher), output, dependency-file, optimization-level, LTO, -Werror,
/// record and diagnostics-file options.
std::vector<std::string> remarksCommand(llvm::ArrayRef<std::string> DbArgs,
                                        llvm::StringRef Compiler, llvm::StringRef RecordFile,
                                        llvm::StringRef DiagnosticsFile);

/// Compiles \p TUs (in \p Jobs processes at a time) with \p Compiler, reads
/// their optimization records, and writes the summary to \p SummaryPath. A
/// TU that does not compile is added to \p Failures; the others still count.
/// False with Err set when nothing could be written.
bool collectInlineRemarks(Project &P, const std::vector<std::string> &TUs,
                          llvm::StringRef Compiler, unsigned Jobs, llvm::StringRef TmpDir,
                          llvm::StringRef SummaryPath, std::vector<Failure> &Failures,
                          llvm::function_ref<void(size_t Done)> Progress, std::string &Err);

} // namespace hotpath::driver

#endif
