//===--- driver/Run.h - a run over the compile database ---------*- C++ -*-===//
//
// hotpath-tidy's modes (-p and no source, --diff, --profile,
// --inline-remarks, --index-only) are one run over the compile database,
// each mode a choice within its steps: bring the project index up to date,
// choose the TUs (those a patch touches, those named, or all), run the
// checks on each in its own process, read back what each found as data,
// keep what the patch touches, report.
//
//===----------------------------------------------------------------------===//
#ifndef HOTPATH_DRIVER_RUN_H
#define HOTPATH_DRIVER_RUN_H

namespace hotpath::driver {

/// Runs the checks over the compile database as the command line (argv)
/// asks. With --diff, on the TUs a patch affects, reporting the findings it
/// touches; otherwise on the sources named (or every TU) reporting every
/// finding, ordered by their function's share of samples with --profile.
/// Exit status: 0 nothing found, 1 findings, 2 could not run (or some TU
/// could not be analysed).
int runOverDatabase(int Argc, const char **Argv);

} // namespace hotpath::driver

#endif
