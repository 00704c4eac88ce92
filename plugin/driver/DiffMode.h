//===--- driver/DiffMode.h - hotpath-tidy --diff ---------------------------===//
#ifndef HOTPATH_DRIVER_DIFFMODE_H
#define HOTPATH_DRIVER_DIFFMODE_H

namespace llvm {
class raw_ostream;
}

namespace hotpath::driver {

/// With --diff: runs the checks on the translation units a patch affects and
/// reports findings on the lines it adds or changes. Without (--profile,
/// --inline-remarks): runs them on the sources named (or all of the compile
/// database) and reports every finding. With --profile, findings are ordered
/// by their function's share of samples. Exit status: 0 nothing found,
/// 1 findings, 2 could not run (or some TU could not be analysed).
int diffMain(int Argc, const char **Argv);

} // namespace hotpath::driver

#endif
