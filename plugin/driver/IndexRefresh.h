//===--- driver/IndexRefresh.h - the project index, up to date  -*- C++ -*-===//
//
// The index lives in a directory (by default <build-dir>/hotpath-index):
// shards/<tu>.<hash>.json, one per translation unit (its key on the first
// line, its records on the second), and index.db, their merge, a store the
// checks query per function (option ProjectIndex). A shard is reused while
// its key holds, read without its records: the TU's compile command is the same and every file
// it read has the size and modification time it had, or else the same
// content (a fresh checkout changes every time stamp and nothing else). So
// an unchanged second run parses no TU, and a CI job that restores the
// directory from a cache, or from the artifacts of jobs that each indexed a
// slice of the database (--shard), only merges. index-state, written by
// each refresh of the whole database, records what the keys said at once
// (every file any shard read, with its size and time stamp, and each shard
// file's): while all of it holds, no key is read at all. A one-file run on
// the kernel read 120 keys (48,000 inputs) to learn that nothing changed.
//
//===----------------------------------------------------------------------===//
#ifndef HOTPATH_DRIVER_INDEXREFRESH_H
#define HOTPATH_DRIVER_INDEXREFRESH_H

#include "Types.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace hotpath::driver {

class Project;

struct IndexOptions {
  std::string Dir;      // the index directory
  unsigned Jobs = 1;
  bool Reindex = false; // parse every TU, whatever the shards say
  bool Merge = true;    // write index.db (not for a slice of the TUs)
};

struct IndexSummary {
  size_t TUs = 0;        // translation units considered
  size_t Indexed = 0;    // parsed anew
  size_t UpToDate = 0;   // shard reused
  size_t Upgraded = 0;   // shard of an older index version, parsed again
  size_t Removed = 0;    // shards of TUs no longer in the database
  /// A TU that indexed with errors or not at all: what became of it, and
  /// clang's first error.
  struct Note {
    std::string TU, What;
    Message FirstError;
  };
  std::vector<Note> Notes;
  std::string IndexFile; // index.db, when merged
  /// The TUs with a shard in the index (ShardInputs).
  std::set<std::string> WithShard;
  double Seconds = 0;
};

/// What a TU's shard says it read: every file, with the MD5 of its content
/// (the shard's key), which the result cache keys on (ResultCache.h). A
/// key is read when first asked for, so a run of one TU reads one key.
class ShardInputs {
public:
  using Files = std::vector<std::pair<std::string, std::string>>;
  ShardInputs() = default;
  ShardInputs(std::string Dir, std::set<std::string> WithShard)
      : Dir(std::move(Dir)), WithShard(std::move(WithShard)) {}
  /// None when \p TU has no shard or its key does not read.
  const Files *of(const std::string &TU);

private:
  std::string Dir;
  std::set<std::string> WithShard;
  std::map<std::string, std::optional<Files>> Read;
};

/// Brings the shards of \p TUs (canonical paths of the database's TUs) up to
/// date in O.Dir, then, with O.Merge, merges every shard into index.db (when
/// the shards it merged are not those there are now) and
/// removes the shards of TUs not in \p TUs. An error on a malformed or
/// foreign-version shard (named) or an I/O error.
llvm::Expected<IndexSummary>
refreshIndex(Project &P, const std::vector<std::string> &TUs, const IndexOptions &O,
             llvm::function_ref<void(size_t Done, size_t Total)> Progress);

/// The TUs of \p P's database that clang-tidy cannot check, as the index
/// state in \p Dir (refreshed with O.Merge) recorded them, while it was
/// written from the database file as it is now; none when it was not, or
/// there is no state. Knowing them reads no compile command: on one kernel
/// TU, asking each of 120 commands its language was a fifth of the driver.
std::optional<std::set<std::string>> uncheckableByState(Project &P, llvm::StringRef Dir);

/// The shard of \p TU in the index directory \p Dir (the base side of
/// --diff reuses the shards of the TUs a patch leaves alone, BaseSide.h).
std::string shardPath(llvm::StringRef Dir, const std::string &TU);

/// The MD5 of \p Data, in hex: the index's and the result cache's keys.
std::string md5Hex(llvm::StringRef Data);
/// The compile command's part of a shard's key (its command, the extra
/// arguments, the index format and this tool's version).
std::string shardCommandKey(Project &P, const std::string &TU);

/// "hotpath-tidy: project index build/hotpath-index: 2 of 5 translation units
/// indexed, 3 up to date (1.4 s)".
std::string describe(const IndexSummary &S, llvm::StringRef Dir);

} // namespace hotpath::driver

#endif
