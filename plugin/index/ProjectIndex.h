//===--- index/ProjectIndex.h - the whole-project index ---------*- C++ -*-===//
//
// What the checks know about the rest of the project: per function, where it
// is defined and declared, every call site (its caller, in a loop, in a
// macro-generated accessor, the macros around it, its constant arguments),
// whether its address is taken, and, for a hook candidate (empty body,
// constant return, or acting only while a global is set), that shape, its
// switch and its disabled value.
//
// A *shard* is what one translation unit contributes (JSON, written and read
// with LLVM's JSON library), its *key* (when the shard is stale) a small JSON
// file beside it, so that the driver can tell which shards hold without
// reading their records. The *index*, the merge of every shard, is a store
// (SQLite) queried per function: a TU's checks read only the records they
// look up, never the whole index. docs/project-index.md is the schema. This
// header needs LLVM Support only, so the driver and the unit tests use it
// without clang.
//
//===----------------------------------------------------------------------===//

#ifndef HOTPATH_TIDY_INDEX_PROJECTINDEX_H
#define HOTPATH_TIDY_INDEX_PROJECTINDEX_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace hotpath::index {

/// The value of "format" in every index file.
inline constexpr const char FormatName[] = "hotpath-project-index";
/// The version this build writes and reads; any other is an error. Bump it
/// whenever a field changes meaning or a reader would miss a new one.
inline constexpr unsigned FormatVersion = 7;

/// A place in a file: absolute, symlink-free path; 1-based line and
/// (byte) column of the expansion, as clang reports them.
struct Location {
  std::string File;
  unsigned Line = 0, Col = 0;
  bool operator<(const Location &O) const;
  bool operator==(const Location &O) const {
    return Line == O.Line && Col == O.Col && File == O.File;
  }
};

/// A function's definition: where its name is, the line its body ends on,
/// and the translation unit that compiles it.
struct Definition {
  Location Loc;
  unsigned EndLine = 0;
  std::string TU;
};

/// A body that makes the function a hook candidate (HookShape.h).
struct HookShape {
  enum class Kind { Empty, Constant, Switch };
  Kind Shape = Kind::Empty;
  /// What it returns while it does nothing; "" for a void function.
  std::string Disabled;
  /// Kind::Switch: the condition it tests, as written, and the globals it
  /// reads (which must be visible where a caller tests it).
  std::string Switch;
  std::vector<std::string> Globals;
  /// For each of Globals, a declaration a header can carry so that callers
  /// test the switch through an inline accessor (`extern int (*cb)(int);`),
  /// or "" when it has internal linkage or a type a header may not know.
  std::vector<std::string> Declarations;
  /// Why it is out of line on purpose ("noinline", "weak", ...), or "".
  std::string Marker;
  bool operator==(const HookShape &O) const {
    return Shape == O.Shape && Disabled == O.Disabled && Switch == O.Switch &&
           Globals == O.Globals && Declarations == O.Declarations && Marker == O.Marker;
  }
  bool operator!=(const HookShape &O) const { return !(*this == O); }
};

/// One call site (or several the same macro expansion writes alike).
struct CallSite {
  Location Loc;              // expansion location of the call
  std::string Caller;        // the function whose body holds it
  std::string CallerUSR;     // its USR: the call graph's edge
  unsigned Count = 1;        // calls with this key
  bool InLoop = false;
  /// The loops around the call (InLoop: at least one); loops that print
  /// every iteration or walk the command line are not counted.
  unsigned Loops = 0;
  std::string Accessor;      // the macro that wrote the caller, or ""
  /// In a branch that handles a failure (CallSiteIndex::Site::Cold): no
  /// loops counted, and heat does not flow through it.
  bool Cold = false;
  /// The branches around the call in its function (CallSiteIndex::Site).
  unsigned Branches = 0;
  std::vector<std::string> Macros; // macros whose expansion holds the call
  /// Arguments that are integer constants: parameter index -> value, as
  /// the parameter receives it (sizeof(u32) passed to an int: 4).
  std::vector<std::pair<unsigned, int64_t>> ConstantArgs;

  /// Two records with the same key are the same call seen twice (a header
  /// compiled in several TUs): merged by taking the larger count.
  std::string key() const;
};

struct Function {
  std::string USR;  // clang's USR: the key across translation units
  std::string Name; // qualified, for messages
  std::vector<Definition> Definitions;
  std::vector<Location> Declarations; // other than definitions
  bool AddressTaken = false;
  /// Set when the definition is a hook candidate. In the merged index only
  /// when every definition agrees; NotHook marks a definition that is not
  /// one, so a merge can tell "no body here" from "a body that is no hook".
  std::optional<HookShape> Hook;
  bool NotHook = false;
  /// Whether its body only reads (analysis/Purity.h), judged where it is
  /// defined: Pure, or why not in Impure ("assigns to 'total'"); neither
  /// when no definition was seen. In the merged index Pure only when every
  /// definition is.
  bool Pure = false;
  std::string Impure;
  std::vector<CallSite> Calls;
};

/// A use of a disabled assert whose argument must stay evaluated
/// (analysis/AssertUses.h): the macro's rewrite is refused in every TU that
/// offers it, not only in the one that has the use.
struct AssertUse {
  std::string Macro;
  Location Definition; // the macro's name in the #define the use expands
  Location Use;        // the macro's name at the use
  std::string Why;     // the side effect, described
  bool operator<(const AssertUse &O) const {
    return std::tie(Definition, Use) < std::tie(O.Definition, O.Use);
  }
  bool operator==(const AssertUse &O) const {
    return Definition == O.Definition && Use == O.Use;
  }
};

/// A file a shard was built from, as it was then.
struct InputFile {
  std::string File;
  uint64_t Size = 0;
  int64_t MTime = 0; // nanoseconds since the epoch
  std::string Hash;  // MD5 of the content, hex
  bool operator==(const InputFile &O) const {
    return File == O.File && Size == O.Size && MTime == O.MTime && Hash == O.Hash;
  }
};

/// When a shard is stale: its TU's compile command or any file it read
/// changed.
struct ShardKey {
  std::string Command; // MD5 of the directory, the arguments, the tool
  std::vector<InputFile> Inputs;
};



/// A shard (one TU) or the merged index.
struct IndexFile {
  enum class Kind { Shard, Index };
  Kind K = Kind::Shard;
  /// The shard's TU, or every TU the index merges, sorted.
  std::vector<std::string> TUs;
  std::optional<ShardKey> Key; // shards only
  unsigned Errors = 0;         // shards: compile errors met while indexing
  std::vector<Function> Functions; // sorted by USR
  std::vector<AssertUse> AssertUses; // sorted by definition, then use
};

/// The JSON text of \p F (docs/project-index.md).
std::string toJSON(const IndexFile &F);

/// The head of a shard file: its first line, the key, which the index
/// refresh reads to tell whether the shard holds without its records (the
/// second line).
struct KeyFile {
  std::string TU;
  ShardKey Key;
  std::string Records; // MD5 of the records line: which records the store merged
};
std::string toJSON(const KeyFile &K);
llvm::Expected<KeyFile> parseKeyFile(llvm::StringRef Text, llvm::StringRef Name);
/// Reads the key of the shard file \p Path, not its records.
llvm::Expected<KeyFile> readShardKey(llvm::StringRef Path);
/// A shard file: its key (\p Shard's Key, its one TU) on the first line, its
/// records on the second; written atomically. \p Records gets the MD5 of
/// the records line.
llvm::Error writeShardFile(llvm::StringRef Path, const IndexFile &Shard,
                           std::string *Records = nullptr);
/// Writes \p K over the key of the shard file \p Path, its records unchanged.
llvm::Error rewriteShardKey(llvm::StringRef Path, const KeyFile &K);
/// Reads a whole shard file, its key in Key.
llvm::Expected<IndexFile> readShardFile(llvm::StringRef Path);
/// The error of an index file an older hotpath-tidy wrote. A shard is a
/// cache of its TU, so the index refresh parses that TU again; anyone else
/// reading it reports the error, which says how to rebuild.
class OlderVersionError : public llvm::ErrorInfo<OlderVersionError> {
public:
  static char ID;
  OlderVersionError(std::string Msg, int64_t Version) : Msg(std::move(Msg)), Version(Version) {}
  void log(llvm::raw_ostream &OS) const override { OS << Msg; }
  std::error_code convertToErrorCode() const override { return llvm::inconvertibleErrorCode(); }
  int64_t version() const { return Version; }

private:
  std::string Msg;
  int64_t Version;
};

/// Parses index JSON. Errors say what is wrong and where, prefixed by
/// \p Name (the file): not JSON, not an index, another version, a field
/// of the wrong type.
llvm::Expected<IndexFile> parseIndexFile(llvm::StringRef Text, llvm::StringRef Name);
llvm::Expected<IndexFile> readIndexFile(llvm::StringRef Path);
/// Writes atomically (support/AtomicFile.h: a temporary file renamed over
/// \p Path), so a reader never sees half a file and an interrupted run
/// leaves the old one.
llvm::Error writeIndexFile(llvm::StringRef Path, const IndexFile &F);

/// The name of the store in an index directory.
inline constexpr const char StoreName[] = "index.db";
/// Writes the merged index \p F as a store (docs/project-index.md), atomically;
/// \p Shards, the MD5 of each TU's shard file merged (KeyFile::Records), is
/// kept in it so that a later refresh knows whether it must merge again.
llvm::Error writeStore(llvm::StringRef Path, const IndexFile &F,
                       const std::map<std::string, std::string> &Shards = {});
/// The MD5 of each TU's shard that the store at \p Path merged; none when
/// there is no store there of this version.
std::optional<std::map<std::string, std::string>> storedShards(llvm::StringRef Path);

/// Merges shards into an index: functions by USR; definitions and
/// declarations by location; call sites by key (CallSite::key), the larger
/// count winning, since every TU that compiles a header sees its calls.
IndexFile mergeShards(llvm::ArrayRef<IndexFile> Shards);
/// Puts one file's records in canonical order, in place (what a shard
/// builder calls before writing): its functions and, per function, its call
/// sites must already be unique.
void normalise(IndexFile &F);

/// The merged index, loaded for lookups: held in memory (a JSON index, or
/// one made by mergeShards), or a store queried per lookup, each record
/// read once and kept.
class ProjectIndex {
public:
  explicit ProjectIndex(IndexFile F);
  ~ProjectIndex();
  /// Loads \p Path: the store, a directory holding it (index.db), or a
  /// JSON index file (read whole).
  static llvm::Expected<std::shared_ptr<const ProjectIndex>> load(llvm::StringRef Path);
  /// load(), once per file and modification time for the whole process:
  /// clang-tidy makes new checks for every TU it checks.
  static llvm::Expected<std::shared_ptr<const ProjectIndex>> loadCached(llvm::StringRef Path);
  /// The file load() reads for \p Path: `index.db` in it when it is a
  /// directory, else \p Path.
  static std::string fileOf(llvm::StringRef Path);

  const Function *find(llvm::StringRef USR) const;
  /// Whether the function \p USR only reads: "" when it does, why not when
  /// it does more, none when no definition of it was indexed.
  std::optional<std::string> purity(llvm::StringRef USR) const;
  /// Whether the function \p USR has a hook shape (Function::Hook), without
  /// reading its whole record from a store.
  bool hasHook(llvm::StringRef USR) const;
  /// The function defined (or declared) with its name at \p Loc.
  const Function *findByDefinition(const Location &Loc) const;
  const Function *findByDeclaration(const Location &Loc) const;
  /// The uses, in every TU, of the disabled assert defined at \p Definition
  /// that need their argument evaluated.
  llvm::ArrayRef<AssertUse> assertUsesOf(const Location &Definition) const;
  /// Every record (the driver's whole-index walks): a store is read whole
  /// on the first call. The checks use the lookups above only.
  const IndexFile &file() const;
  const std::string &path() const { return Path; }

  /// Recording (the result cache, docs/project-index.md): from now on every
  /// lookup above is kept as a read ("find\t<usr>", "assert-uses\t<file>\t
  /// <line>\t<col>", ...), so that a run's results can be reused while the
  /// same reads of a later index give the same answers.
  void recordReads() const;
  /// The reads recorded so far, sorted; none when not recording.
  std::vector<std::string> reads() const;
  /// The answer to \p Read (as reads() gives it) in this index, as text
  /// (the records it returns, as JSON); none when \p Read is not a read.
  std::optional<std::string> answer(llvm::StringRef Read) const;

  struct Store;

private:
  ProjectIndex(std::unique_ptr<Store> S, std::string Path);
  const Function *lookup(llvm::StringRef USR) const;
  const Function *lookupAt(bool Definition, const Location &L) const;
  std::optional<std::string> purityOf(llvm::StringRef USR) const;
  bool hookOf(llvm::StringRef USR) const;
  llvm::ArrayRef<AssertUse> usesOf(const Location &Definition) const;
  void record(llvm::StringRef Kind, llvm::StringRef What) const;
  void record(llvm::StringRef Kind, const Location &L) const;

  mutable IndexFile F; // in memory; a store's, once file() read it whole
  std::string Path;
  mutable std::unique_ptr<std::set<std::string>> Reads; // while recording
  llvm::StringMap<size_t> ByUSR;
  std::map<Location, size_t> ByDefinition, ByDeclaration;
  /// A store, and what was read from it so far (records never move).
  std::unique_ptr<Store> S;
};

/// Where the checks of the TU \p MainFile (canonical path) write their
/// reads in the directory \p Dir (check option IndexReads).
std::string readsFileOf(llvm::StringRef Dir, llvm::StringRef MainFile);

/// Writes \p Reads to \p Path, one a line, atomically.
llvm::Error writeReads(llvm::StringRef Path, llvm::ArrayRef<std::string> Reads);

} // namespace hotpath::index

#endif // HOTPATH_TIDY_INDEX_PROJECTINDEX_H
