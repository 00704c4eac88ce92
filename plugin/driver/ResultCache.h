//===--- driver/ResultCache.h - findings of unchanged TUs, reused -*- C++ -*-===//
//
// A TU whose inputs have not changed takes the results of its last check
// run from the cache instead of being parsed again: clang-tidy's export
// (the YAML of --export-fixes), its lines of the checks' data (FindingsFile)
// and how the run ended. One entry per key, a file in the cache directory
// (by default <build-dir>/hotpath-cache), written atomically.
//
// The key is content only, never a checkout's place or a commit: this binary
// (version, MD5 of the executable); the run (checks, header filter, the
// -config each run gets, the files it names by their content, the
// arguments passed on, a -vfsoverlay's mapping and the content of the files
// it maps, where the run starts); the TU (its compile command, the
// .clang-tidy files above it, every file it read, from its shard of the
// project index). A path below the project root (the directory that holds
// the build directory and every source and command directory) is written
// relative to it, in the key and in the entry, and put back in the new
// root's place when read, so a copy of the project elsewhere reuses it.
//
// An entry holds while every lookup its checks made in the project index
// (index::ProjectIndex::reads) gives the same answer in the index of this
// run: an edit elsewhere that makes the TU's check function hot parses it
// again. docs/project-index.md says the rest.
//
//===----------------------------------------------------------------------===//
#ifndef HOTPATH_DRIVER_RESULTCACHE_H
#define HOTPATH_DRIVER_RESULTCACHE_H

#include "IndexRefresh.h"
#include "Types.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace hotpath::index {
class ProjectIndex;
}

namespace hotpath::driver {

class Project;
struct CheckRunArgs;

/// What the cache of one run needs to know.
struct CacheSetup {
  std::string Dir;      // where the entries are
  std::string Self;     // this binary
  std::string Cwd;      // where the run starts (canonical)
  std::string BuildDir; // canonical
  /// The checks' FindingsFile and IndexReads directory (check options).
  std::string DataFile, ReadsDir;
  /// Paths in the runs' -config that stand for something else in the key,
  /// replaced in this order: a file by its content (the profile, the inline
  /// remarks' summary), a temporary or generated one by a name.
  std::vector<std::pair<std::string, std::string>> StandIns;
  std::shared_ptr<const index::ProjectIndex> Index;
  /// Per TU: every file it read and the MD5 of its content.
  ShardInputs Inputs;
};

class ResultCache {
public:
  /// The cache in S.Dir, made when missing; none, after a warning naming
  /// the directory and why, when it cannot be made (the run goes on
  /// uncached).
  static std::unique_ptr<ResultCache> open(const Project &P, CacheSetup S);

  /// For the runs that follow, when they differ from the setup's (the base
  /// side of --diff): the checks' data file, and the index whose answers
  /// the entries' reads are checked against, with its file as the -config
  /// names it.
  void useFiles(std::string DataFile, std::shared_ptr<const index::ProjectIndex> Index,
                const std::string &IndexFile);
  /// Before the runs of runChecks(): what every TU's key shares, from \p A.
  void beginRun(const CheckRunArgs &A);
  /// The key of \p TU's results in this run; none when they cannot be
  /// cached (no shard in the index says what it read).
  std::optional<std::string> keyOf(const Project &P, const std::string &TU);
  /// True when the entry of \p Key holds: \p R then has its status and log,
  /// its export is written to R.ExportFile and its data is kept for
  /// finishRun(). A missing or outdated entry is a miss; one that does not
  /// read is a miss with a note.
  bool restore(const std::string &Key, TURun &R);
  /// After the runs: stores the results of each run of \p Runs that has a
  /// key and was not restored, and appends the data of those restored to
  /// the data file. A write that fails is a warning (once), never an error.
  /// A restored run whose data cannot be written fails (status -1).
  void finishRun(std::vector<TURun> &Runs,
                 const std::vector<std::optional<std::string>> &Keys);

  /// The project root, as the entries spell it.
  static constexpr llvm::StringLiteral RootName = "@HOTPATH_ROOT@";
  /// \p Text with every path below \p Root written relative to RootName,
  /// and back. No root (""): unchanged.
  static std::string anchor(llvm::StringRef Text, llvm::StringRef Root);
  static std::string reanchor(llvm::StringRef Text, llvm::StringRef Root);

private:
  explicit ResultCache(CacheSetup S) : S(std::move(S)) {}
  std::string entryPath(const std::string &Key) const;
  std::optional<std::string> binaryKey();
  std::optional<std::string> overlayKey(llvm::StringRef Path) const;
  std::string standIns(std::string Text) const;
  std::string clangTidyFilesKey(llvm::StringRef Dir);
  llvm::Error readEntry(const std::string &Path, const std::string &TU, bool &Holds,
                        TURun &R, std::vector<std::string> &Data);
  bool readsHold(llvm::ArrayRef<std::pair<std::string, std::string>> Reads) const;
  std::optional<std::string> digestOf(llvm::StringRef Read) const;
  void store(const std::string &Key, const TURun &R,
             const std::map<std::string, std::vector<std::string>> &DataByTU);
  void warnOnce(const std::string &What);

  CacheSetup S;
  std::string Root;                // the project root, or "" when it is "/"
  std::string SourceRoot;          // the database's (HeaderFilter.h)
  std::optional<std::string> Self; // the binary's part of the key
  std::string RunKey;              // beginRun()'s
  bool Cacheable = false;          // beginRun() found everything the key needs
  std::map<std::string, std::string> ClangTidyFiles; // by directory
  std::vector<std::string> RestoredData;             // data lines of restored TUs
  bool Warned = false;
};

/// The MD5 of a file's content (hex), or "missing".
std::string contentDigest(llvm::StringRef Path);

} // namespace hotpath::driver

#endif
