//===--- driver/DiffTooling.h - the parts of diff mode that need clang ----===//
//
// The only driver translation unit that includes clang headers: the compile
// database, dependency scanning by running the preprocessor on each TU, and
// reading the diagnostics clang-tidy exported as YAML.
//
//===----------------------------------------------------------------------===//
#ifndef HOTPATH_DRIVER_DIFFTOOLING_H
#define HOTPATH_DRIVER_DIFFTOOLING_H

#include "Types.h"
#include "llvm/ADT/StringRef.h"

#include <functional>
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
};

/// Reads a clang-tidy --export-fixes file; paths made canonical.
bool readExportedDiagnostics(llvm::StringRef YamlPath, llvm::StringRef TU,
                             std::vector<Finding> &Out, std::string &Err);

} // namespace hotpath::driver

#endif
