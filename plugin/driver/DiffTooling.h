//===--- driver/DiffTooling.h - the parts of diff mode that need clang ----===//
//
// The only driver translation unit that includes clang headers: the compile
// database, dependency scanning by running the preprocessor on each TU,
// parsing each TU for the project index, and reading the diagnostics
// clang-tidy exported as YAML.
//
//===----------------------------------------------------------------------===//
#ifndef HOTPATH_DRIVER_DIFFTOOLING_H
#define HOTPATH_DRIVER_DIFFTOOLING_H

#include "Types.h"
#include "index/ProjectIndex.h"
#include "llvm/ADT/StringRef.h"

#include <functional>
#include <optional>
#include <memory>

namespace hotpath::driver {

class Project {
public:
  /// Loads BuildDir/compile_commands.json (or whatever clang finds there).
  static std::unique_ptr<Project> load(llvm::StringRef BuildDir, std::string &Err);
  virtual ~Project() = default;

  /// Every source file of the database: canonical path -> name as listed.
  virtual const std::map<std::string, std::string> &files() const = 0;

  /// Runs the preprocessor of each TU (its own compile command, in Jobs
  /// threads) and returns the canonical paths of every file it includes,
  /// directly or not, system headers left out. Done is called after each TU.
  virtual std::vector<std::set<std::string>>
  includes(const std::vector<std::string> &TUs, unsigned Jobs,
           const std::function<void(size_t Done)> &Progress) = 0;

  /// What parsing one TU for the project index gave.
  struct IndexedTU {
    bool Parsed = false;             // an AST was built (maybe with errors)
    index::IndexFile Shard;          // its records, without the key
    std::set<std::string> Inputs;    // canonical paths of every file it read
    unsigned Errors = 0;             // compile errors
    std::string FirstError;          // "file:line:col: message"
  };
  /// Parses each TU (its own compile command, syntax only, in Jobs threads)
  /// and makes its shard (index/ShardBuilder.h). Done is called after each.
  virtual std::vector<IndexedTU> index(const std::vector<std::string> &TUs, unsigned Jobs,
                                       const std::function<void(size_t Done)> &Progress) = 0;

  /// Empty when clang-tidy can check the TU (C, C++, Objective-C, CUDA);
  /// otherwise what it is ("assembly", "language 'f95'"), from the compile
  /// command's -x or else the file's extension.
  virtual std::string uncheckableLanguage(const std::string &TU) const = 0;

  /// The compile command of a TU (canonical path): its directory and argv,
  /// as the database lists them. False when it has none.
  virtual bool compileCommand(const std::string &TU, std::string &Directory,
                              std::vector<std::string> &Args) const = 0;
};

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

/// Sets check option \p Name to \p Value on a clang-tidy command line: in
/// the -config or -config-file it has (merged as mergeCheckOptions does, the
/// argument replaced by "--config=<merged>"), or in a new "--config=" that
/// inherits the .clang-tidy files. \p Storage keeps the new argument's text
/// (\p Args points into it). False with Err set when the user's config
/// cannot be read or sets the option to something else.
bool setCheckOptionInArgs(std::vector<const char *> &Args, llvm::StringRef Name,
                          llvm::StringRef Value, std::string &Storage, std::string &Err);

/// The last \p N lines of a child's log on one line, " | "-separated: why a
/// TU failed, short enough for a summary.
std::string lastLines(llvm::StringRef Log, unsigned N);

/// Reads a clang-tidy --export-fixes file; paths made canonical.
bool readExportedDiagnostics(llvm::StringRef YamlPath, llvm::StringRef TU,
                             std::vector<Finding> &Out, std::string &Err);

} // namespace hotpath::driver

#endif
