//===--- driver/CompileDatabase.h - the compile database ------ -*- C++ -*-===//
//
// The translation units of a compile database and what the driver does
// with each through clang itself: their include closure (preprocessing
// only), their shards of the project index (syntax only), their language
// and command. The only driver file, with ExportedFindings.cpp and
// CheckConfig.cpp, that includes clang headers.
//
//===----------------------------------------------------------------------===//
#ifndef HOTPATH_DRIVER_COMPILEDATABASE_H
#define HOTPATH_DRIVER_COMPILEDATABASE_H

#include "Types.h"
#include "index/ProjectIndex.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

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
           llvm::function_ref<void(size_t Done)> Progress) = 0;

  /// What parsing one TU for the project index gave.
  struct IndexedTU {
    bool Parsed = false;             // an AST was built (maybe with errors)
    index::IndexFile Shard;          // its records, without the key
    std::set<std::string> Inputs;    // canonical paths of every file it read
    unsigned Errors = 0;             // compile errors
    Message FirstError;              // where (canonical path) and what
  };
  /// Parses each TU (its own compile command, syntax only, in Jobs threads)
  /// and makes its shard (index/ShardBuilder.h). Done is called after each.
  virtual std::vector<IndexedTU> index(const std::vector<std::string> &TUs, unsigned Jobs,
                                       llvm::function_ref<void(size_t Done)> Progress) = 0;

  /// Empty when clang-tidy can check the TU (C, C++, Objective-C, CUDA);
  /// otherwise what it is ("assembly", "language 'f95'"), from the compile
  /// command's -x or else the file's extension.
  virtual std::string uncheckableLanguage(const std::string &TU) const = 0;

  /// The compile command of a TU (canonical path): its directory and argv,
  /// as the database lists them. False when it has none.
  virtual bool compileCommand(const std::string &TU, std::string &Directory,
                              std::vector<std::string> &Args) const = 0;

  /// What -extra-arg-before and -extra-arg add to every compile command,
  /// where clang-tidy adds them: right after the compiler, and at the end.
  /// The index pass and the preprocessor runs above take them, so that a
  /// -D given there selects the same code in the index as in the checks.
  struct ExtraArgs {
    std::vector<std::string> Before, After;
  };
  void setExtraArgs(ExtraArgs E) { Extra = std::move(E); }
  const ExtraArgs &extraArgs() const { return Extra; }

  /// A clang VFS overlay (YAML file) the preprocessor runs and the index
  /// pass read files through, as clang-tidy's --vfsoverlay; "" for none.
  /// The base side of --diff (BaseSide.h). False, with \p Err, when the
  /// file does not read as an overlay.
  bool setOverlay(llvm::StringRef YamlFile, std::string &Err);

  /// The file the database was read from (compile_commands.json or
  /// compile_flags.txt in the build directory), "" when not known: while it
  /// is unchanged, so is every command (the index state keeps their hashes).
  const std::string &databaseFile() const { return DatabaseFile; }

protected:
  std::string DatabaseFile;
  ExtraArgs Extra;
  std::string Overlay; // its text, "" for none
  std::string OverlayFile;
};

} // namespace hotpath::driver

#endif
