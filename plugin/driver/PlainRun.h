//===--- driver/PlainRun.h - hotpath-tidy as plain clang-tidy ---*- C++ -*-===//
#ifndef HOTPATH_DRIVER_PLAINRUN_H
#define HOTPATH_DRIVER_PLAINRUN_H

namespace hotpath::driver {

/// clang-tidy on the sources named, with three additions: the hotpath-*
/// checks unless -checks is given, --explain=<name> (the checks' Explain
/// option, merged into the -config given or made), and the project's own
/// headers checked when nothing says which headers to check
/// (HeaderFilter.h).
int runClangTidy(int Argc, const char **Argv);

} // namespace hotpath::driver

#endif
