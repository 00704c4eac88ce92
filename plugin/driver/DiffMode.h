//===--- driver/DiffMode.h - hotpath-tidy --diff ---------------------------===//
#ifndef HOTPATH_DRIVER_DIFFMODE_H
#define HOTPATH_DRIVER_DIFFMODE_H

namespace llvm {
class raw_ostream;
}

namespace hotpath::driver {

/// hotpath-tidy's own modes and options, printed by --help before
/// clang-tidy's.
void printUsage(llvm::raw_ostream &OS);

/// True when the command line asks for the driver (--diff=..., --profile=...
/// or --inline-remarks).
bool wantsDiffMode(int Argc, const char **Argv);

/// With --diff: runs the checks on the translation units a patch affects and
/// reports findings on the lines it adds or changes. Without (--profile,
/// --inline-remarks): runs them on the sources named (or all of the compile
/// database) and reports every finding. With --profile, findings are ordered
/// by their function's share of samples. Exit status: 0 nothing found,
/// 1 findings, 2 could not run (or some TU could not be analysed).
int diffMain(int Argc, const char **Argv);

} // namespace hotpath::driver

#endif
