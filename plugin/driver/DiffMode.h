//===--- driver/DiffMode.h - hotpath-tidy --diff ---------------------------===//
#ifndef HOTPATH_DRIVER_DIFFMODE_H
#define HOTPATH_DRIVER_DIFFMODE_H

namespace hotpath::driver {

/// True when the command line asks for diff mode (--diff=...).
bool wantsDiffMode(int Argc, const char **Argv);

/// Runs the checks on the translation units a patch affects and reports
/// findings on the lines it adds or changes. Exit status: 0 nothing found,
/// 1 findings, 2 could not run (or some TU could not be analysed).
int diffMain(int Argc, const char **Argv);

} // namespace hotpath::driver

#endif
