//===--- driver/CheckConfig.h - the checks' options in -config  -*- C++ -*-===//
//
// The driver hands the checks what they need (the profile, the project
// index, the inline remarks, the file for their findings as data, the name
// to explain) as check options in the -config of each clang-tidy run,
// merged with the user's own configuration: never through the environment.
//
//===----------------------------------------------------------------------===//
#ifndef HOTPATH_DRIVER_CHECKCONFIG_H
#define HOTPATH_DRIVER_CHECKCONFIG_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace hotpath::driver {

/// The -config text for each per-TU run: \p UserConfig (the text of the
/// user's -config or -config-file, named \p UserName in errors; none when not
/// given) with \p CheckOptions ("Profile" -> path) set for every hotpath-*
/// check. Without a user config the result inherits the .clang-tidy files
/// (InheritParentConfig), as a run without -config would. False with Err set
/// when the user's config does not parse, or sets one of the options to
/// something else.
bool mergeCheckOptions(const std::optional<std::string> &UserConfig, llvm::StringRef UserName,
                       const std::vector<std::pair<std::string, std::string>> &CheckOptions,
                       std::string &Out, std::string &Err);

/// The "--config=..." of each per-TU run: the user's -config, or the text
/// of the -config-file, with \p CheckOptions merged (mergeCheckOptions).
/// False with Err set when the file cannot be read or the merge fails.
bool runConfigArg(const std::optional<std::string> &Config,
                  const std::optional<std::string> &ConfigFile,
                  const std::vector<std::pair<std::string, std::string>> &CheckOptions,
                  std::string &Out, std::string &Err);

/// Sets check option \p Name to \p Value on a clang-tidy command line: in
/// the -config or -config-file it has (merged as mergeCheckOptions does, the
/// argument replaced by "--config=<merged>"), or in a new "--config=" that
/// inherits the .clang-tidy files. \p Storage keeps the new argument's text
/// (\p Args points into it). False with Err set when the user's config
/// cannot be read or sets the option to something else.
bool setCheckOptionInArgs(std::vector<const char *> &Args, llvm::StringRef Name,
                          llvm::StringRef Value, std::string &Storage, std::string &Err);

} // namespace hotpath::driver

#endif
