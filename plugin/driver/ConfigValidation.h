//===--- driver/ConfigValidation.h - configurations that do not parse -*- C++ -*-===//
//
// clang-tidy reads a .clang-tidy it cannot parse as if it were not there:
// it prints "Error parsing <file>" on each TU's standard error, goes on to
// the parent directory's file (or its defaults), and exits 0 (clang-tidy
// 19). In a run over the database those lines land in each check run's
// log, which nobody reads when the run succeeds, so the settings were
// dropped without a word. A run reads every configuration that applies to
// one of its TUs first, as clang-tidy would, and stops at the first that
// does not parse, naming its file, line and column.
//
//===----------------------------------------------------------------------===//
#ifndef HOTPATH_DRIVER_CONFIGVALIDATION_H
#define HOTPATH_DRIVER_CONFIGVALIDATION_H

#include "Types.h"
#include "llvm/ADT/StringRef.h"

#include <map>
#include <optional>
#include <string>

namespace hotpath::driver {

/// The user's -config (named "-config" in the note) or the -config-file it
/// names: the error note when it does not parse (or the file cannot be
/// read). \p InheritsFiles is set to whether the .clang-tidy files still
/// apply, as clang-tidy reads them: without either option, or with
/// InheritParentConfig: true in it.
std::optional<ConfigNote> checkUserConfig(const std::optional<std::string> &Config,
                                          const std::optional<std::string> &ConfigFile,
                                          bool &InheritsFiles);

/// The .clang-tidy files that apply to sources, read once per directory.
class ClangTidyFiles {
public:
  /// The first .clang-tidy that does not parse among those clang-tidy
  /// reads for \p Source (absolute): from its directory up, each file
  /// found, up to one without InheritParentConfig: true. Empty files are
  /// skipped, as clang-tidy skips them.
  std::optional<ConfigNote> check(llvm::StringRef Source);

private:
  std::optional<ConfigNote> checkDir(llvm::StringRef Dir);
  /// Directory -> the note for the walk from it up (none: all parse).
  std::map<std::string, std::optional<ConfigNote>> ByDir;
};

} // namespace hotpath::driver

#endif
