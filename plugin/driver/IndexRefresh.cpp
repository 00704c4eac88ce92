//===--- driver/IndexRefresh.cpp - the project index, up to date ----------===//
#include "IndexRefresh.h"
#include "CompileDatabase.h"
#include "Paths.h"
#include "index/ProjectIndex.h"
#include "support/AtomicFile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MD5.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <map>
#include <set>

namespace hotpath::driver {

namespace {

/// A file's size and time stamp (nanoseconds since the epoch).
struct Stamp {
  uint64_t Size = 0;
  int64_t MTime = 0;
  bool operator==(const Stamp &O) const { return Size == O.Size && MTime == O.MTime; }
};

std::optional<Stamp> stampOf(const std::string &Path) {
  llvm::sys::fs::file_status St;
  if (llvm::sys::fs::status(Path, St) || !llvm::sys::fs::is_regular_file(St))
    return std::nullopt;
  return Stamp{St.getSize(), std::chrono::duration_cast<std::chrono::nanoseconds>(
                                 St.getLastModificationTime().time_since_epoch())
                                 .count()};
}

/// The state of each file, stat()ed once and hashed only when its time
/// stamp or size says it may have changed.
class FileStates {
public:
  struct State {
    bool Exists = false;
    uint64_t Size = 0;
    int64_t MTime = 0;
    std::optional<std::string> Hash;
  };

  State &get(const std::string &Path) {
    auto [It, New] = States.try_emplace(Path);
    if (New)
      if (std::optional<Stamp> S = stampOf(Path))
        It->second = {true, S->Size, S->MTime, std::nullopt};
    return It->second;
  }

  /// True when \p Path exists with size \p Size and time stamp \p MTime.
  bool same(const std::string &Path, uint64_t Size, int64_t MTime) {
    State &S = get(Path);
    return S.Exists && S.Size == Size && S.MTime == MTime;
  }

  const std::string &hash(const std::string &Path) {
    State &S = get(Path);
    if (!S.Hash) {
      auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                             /*RequiresNullTerminator=*/false);
      S.Hash = Buf ? md5Hex((*Buf)->getBuffer()) : std::string();
    }
    return *S.Hash;
  }

  /// True when \p I still describes the file; Refreshed when only its time
  /// stamp moved (the key is then rewritten, so the next run need not hash).
  bool unchanged(const index::InputFile &I, bool &Refreshed) {
    State &S = get(I.File);
    if (!S.Exists)
      return false;
    if (same(I.File, I.Size, I.MTime))
      return true;
    if (S.Size != I.Size || hash(I.File) != I.Hash)
      return false;
    Refreshed = true;
    return true;
  }

  index::InputFile input(const std::string &Path) {
    State &S = get(Path);
    index::InputFile I;
    I.File = Path;
    I.Size = S.Size;
    I.MTime = S.MTime;
    I.Hash = hash(Path);
    return I;
  }

private:
  std::map<std::string, State> States;
};

/// What a command's hash takes besides the command: the index format and
/// this tool's version, before it; the run's extra arguments, after it.
std::string hashPrefix() {
  return std::string(index::FormatName) + "\n" + std::to_string(index::FormatVersion) +
         "\n" HOTPATH_VERSION "\n";
}
std::string extraArgsText(const Project &P) {
  // A -D given with -extra-arg changes what the TU is: its shard too.
  std::string Text;
  for (const std::string &A : P.extraArgs().Before)
    Text += std::string(1, '\0') + "extra-arg-before=" + A;
  for (const std::string &A : P.extraArgs().After)
    Text += std::string(1, '\0') + "extra-arg=" + A;
  return Text;
}

/// The compile command's part of the key: what the database says, the
/// extra arguments of the run, and the format and tool that read it.
std::string commandHash(Project &P, const std::string &TU) {
  std::string Dir;
  std::vector<std::string> Args;
  P.compileCommand(TU, Dir, Args);
  std::string Text = hashPrefix() + Dir;
  for (const std::string &A : Args)
    Text += '\0' + A;
  return md5Hex(Text + extraArgsText(P));
}

/// What every command's hash depends on besides the TU: the database
/// file, by path and stamp, and commandHash's other parts; "" when the
/// database's file is not known.
std::string commandsKey(Project &P) {
  std::optional<Stamp> Db;
  if (!P.databaseFile().empty())
    Db = stampOf(P.databaseFile());
  if (!Db)
    return "";
  return md5Hex(hashPrefix() + P.databaseFile() + "\n" + std::to_string(Db->Size) + " " +
                std::to_string(Db->MTime) + extraArgsText(P));
}

} // namespace

std::string shardCommandKey(Project &P, const std::string &TU) { return commandHash(P, TU); }

std::string shardPath(llvm::StringRef Dir, const std::string &TU) {
  llvm::SmallString<256> P(Dir);
  llvm::sys::path::append(P, "shards",
                          llvm::sys::path::filename(TU) + "." + md5Hex(TU).substr(0, 16) + ".json");
  return std::string(P);
}

namespace {

llvm::Error error(const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg);
}

/// What the last refresh of the whole database left, in index-state: each
/// TU's command and records hashes with its shard file's stamp, and every
/// file any shard read with its stamp, one line each:
///   hotpath-index-state <format version> <tool version>
///   commands <what the commands were read from>
///   uncheckable <path>       (a TU of the database clang-tidy cannot check)
///   tu <command> <records> <size> <mtime> <path>
///   file <size> <mtime> <path>
/// It holds only while every file it names has its stamp, as a shard's key
/// holds while its inputs do; a state that does not read is no state (the
/// keys are read, and a new one written).
struct IndexState {
  struct Shard {
    std::string Command, Records;
    Stamp File;
  };
  std::map<std::string, Shard> TUs;
  std::map<std::string, Stamp> Files;
  /// The database file's path and stamp, and all else a command's hash
  /// takes (commandsKey): while it is the same, so is every TU's command.
  std::string Commands;
  /// The database's TUs that were not indexed for their language, while
  /// Commands holds.
  std::set<std::string> Uncheckable;

  static std::string path(llvm::StringRef Dir) {
    llvm::SmallString<256> P(Dir);
    llvm::sys::path::append(P, "index-state");
    return std::string(P);
  }

  static std::string header() {
    return "hotpath-index-state " + std::to_string(index::FormatVersion) + " " HOTPATH_VERSION;
  }

  static std::optional<IndexState> read(llvm::StringRef Dir) {
    auto Buf = llvm::MemoryBuffer::getFile(path(Dir), /*IsText=*/false,
                                           /*RequiresNullTerminator=*/false);
    if (!Buf)
      return std::nullopt;
    llvm::SmallVector<llvm::StringRef, 0> Lines;
    (*Buf)->getBuffer().split(Lines, '\n', -1, /*KeepEmpty=*/false);
    if (Lines.empty() || Lines.front() != header())
      return std::nullopt;
    IndexState St;
    for (llvm::StringRef L : llvm::ArrayRef(Lines).drop_front()) {
      auto Field = [&L]() {
        auto [F, Rest] = L.split(' ');
        L = Rest;
        return F;
      };
      llvm::StringRef Kind = Field();
      if (Kind == "commands") {
        St.Commands = L.str();
        continue;
      }
      if (Kind == "uncheckable") {
        St.Uncheckable.insert(L.str());
        continue;
      }
      Shard Sh;
      if (Kind == "tu") {
        Sh.Command = Field().str();
        Sh.Records = Field().str();
      } else if (Kind != "file") {
        return std::nullopt;
      }
      Stamp &S = Sh.File;
      if (Field().getAsInteger(10, S.Size) || Field().getAsInteger(10, S.MTime) || L.empty())
        return std::nullopt;
      if (Kind == "tu")
        St.TUs[L.str()] = std::move(Sh);
      else
        St.Files[L.str()] = S;
    }
    return St;
  }

  /// Written atomically. A path that cannot be written on one line leaves
  /// no state (the keys are read next time).
  llvm::Error write(llvm::StringRef Dir) const {
    auto OnOneLine = [](llvm::StringRef Path) { return !Path.contains('\n'); };
    if (!llvm::all_of(llvm::make_first_range(TUs), OnOneLine) ||
        !llvm::all_of(llvm::make_first_range(Files), OnOneLine)) {
      llvm::sys::fs::remove(path(Dir));
      return llvm::Error::success();
    }
    std::string Text = header() + "\n";
    llvm::raw_string_ostream OS(Text);
    if (!Commands.empty()) {
      OS << "commands " << Commands << '\n';
      for (const std::string &TU : Uncheckable)
        OS << "uncheckable " << TU << '\n';
    }
    for (const auto &[TU, Sh] : TUs)
      OS << "tu " << Sh.Command << ' ' << Sh.Records << ' ' << Sh.File.Size << ' '
         << Sh.File.MTime << ' ' << TU << '\n';
    for (const auto &[File, S] : Files)
      OS << "file " << S.Size << ' ' << S.MTime << ' ' << File << '\n';
    return writeFileAtomically(path(Dir), OS.str());
  }
};

/// One refresh: which shards still hold (by their keys alone), the TUs
/// parsed anew, the store merged again when any shard changed.
class Refresh {
public:
  Refresh(Project &P, const std::vector<std::string> &TUs, const IndexOptions &O)
      : P(P), TUs(TUs), O(O), Shards(TUs.size()), Keys(TUs.size()), Records(TUs.size()),
        Commands(TUs.size()) {
    S.TUs = TUs.size();
  }

  llvm::Error makeDirectory();
  llvm::Error reuseShards();
  llvm::Error parseStale(llvm::function_ref<void(size_t, size_t)> Progress);
  llvm::Error merge();
  llvm::Error writeState();
  /// The summary, with the TUs that have a shard.
  IndexSummary &summary() {
    for (size_t I = 0; I < TUs.size(); ++I)
      if (Records[I])
        S.WithShard.insert(TUs[I]);
    return S;
  }

private:
  bool heldByState(size_t I, const std::string &Path);
  llvm::Expected<bool> holds(size_t I, const std::string &Path);
  llvm::Error keep(size_t I, Project::IndexedTU &R);
  std::string shardDir() const {
    llvm::SmallString<256> Dir(O.Dir);
    llvm::sys::path::append(Dir, "shards");
    return std::string(Dir);
  }

  Project &P;
  const std::vector<std::string> &TUs;
  const IndexOptions &O;
  FileStates Files;
  std::vector<std::optional<index::IndexFile>> Shards; // by TU: the records parsed anew
  std::vector<std::optional<index::KeyFile>> Keys;     // by TU: its shard's key, once read
  std::vector<std::optional<std::string>> Records;     // by TU with a shard: its records' MD5
  std::vector<std::string> Commands;                   // by TU: its command's hash
  std::vector<size_t> Stale;                           // TUs to parse
  std::optional<IndexState> Last;                      // while all its files hold
  std::string CommandsKey;                             // commandsKey() of this refresh
  size_t ByState = 0;                                  // TUs the state says are fresh
  IndexSummary S;
};

llvm::Error Refresh::makeDirectory() {
  if (std::error_code EC = llvm::sys::fs::create_directories(shardDir()))
    return error("cannot make the index directory " + shardDir() + ": " + EC.message());
  ignoreInGit(O.Dir, "project index");
  return llvm::Error::success();
}

/// Whether the shard of TU \p I at \p Path still holds, by its key alone
/// (the first line; its records are read only if the store must be merged
/// again). An older hotpath-tidy's shard is stale, its TU parsed again; any
/// other key that does not read is an error, never silently rebuilt: it may
/// be another tool's, or a newer hotpath-tidy's.
llvm::Expected<bool> Refresh::holds(size_t I, const std::string &Path) {
  llvm::Expected<index::KeyFile> K = index::readShardKey(Path);
  if (!K) {
    bool Older = false;
    llvm::Error E = llvm::handleErrors(K.takeError(), [&](const index::OlderVersionError &) {
      Older = true;
    });
    if (E)
      return std::move(E);
    if (Older)
      ++S.Upgraded;
    return false;
  }
  bool Refreshed = false;
  bool Holds = K->TU == TUs[I] && K->Key.Command == Commands[I] &&
               llvm::all_of(K->Key.Inputs, [&](const index::InputFile &In) {
                 return Files.unchanged(In, Refreshed);
               });
  if (!Holds)
    return false;
  if (Refreshed) {
    for (index::InputFile &In : K->Key.Inputs)
      In = Files.input(In.File);
    if (llvm::Error E = index::rewriteShardKey(Path, *K))
      return std::move(E);
  }
  Records[I] = K->Records;
  Keys[I] = std::move(*K);
  return true;
}

/// Whether the index state says TU \p I's shard at \p Path holds: the
/// state's files all hold, and it has this TU with the same command and
/// this very shard file.
bool Refresh::heldByState(size_t I, const std::string &Path) {
  if (!Last)
    return false;
  auto It = Last->TUs.find(TUs[I]);
  if (It == Last->TUs.end() || It->second.Command != Commands[I] ||
      !(stampOf(Path) == std::optional(It->second.File)))
    return false;
  Records[I] = It->second.Records;
  ++ByState;
  return true;
}

llvm::Error Refresh::reuseShards() {
  if (O.Merge && !O.Reindex)
    Last = IndexState::read(O.Dir);
  // The commands' hashes as the state has them, while the database file is
  // unchanged: on one kernel TU, hashing all 120 commands was 30 M of the
  // driver's 112 M instructions (and the whole kernel has 30,000).
  CommandsKey = commandsKey(P);
  std::map<std::string, std::string> Known;
  if (Last && !CommandsKey.empty() && Last->Commands == CommandsKey)
    for (const auto &[TU, Sh] : Last->TUs)
      Known[TU] = Sh.Command;
  if (Last && !llvm::all_of(Last->Files, [&](const auto &F) {
        return Files.same(F.first, F.second.Size, F.second.MTime);
      }))
    Last.reset();
  for (size_t I = 0; I < TUs.size(); ++I) {
    auto K = Known.find(TUs[I]);
    Commands[I] = K != Known.end() ? K->second : commandHash(P, TUs[I]);
    std::string Path = shardPath(O.Dir, TUs[I]);
    if (heldByState(I, Path)) {
      ++S.UpToDate;
      continue;
    }
    if (O.Reindex || !llvm::sys::fs::exists(Path)) {
      Stale.push_back(I);
      continue;
    }
    llvm::Expected<bool> Holds = holds(I, Path);
    if (!Holds)
      return Holds.takeError();
    if (*Holds)
      ++S.UpToDate;
    else
      Stale.push_back(I);
  }
  return llvm::Error::success();
}

/// The shard of TU \p I as parsed into \p R, keyed and written.
llvm::Error Refresh::keep(size_t I, Project::IndexedTU &R) {
  std::string Path = shardPath(O.Dir, TUs[I]);
  if (!R.Parsed) {
    S.Notes.push_back({TUs[I], "not indexed, it could not be parsed", R.FirstError});
    llvm::sys::fs::remove(Path);
    return llvm::Error::success();
  }
  // Its records are kept: what they hold still counts (a use of an assert
  // macro with a side effect must block the macro's rewrite, whichever
  // compiler the project is built with).
  if (R.Errors)
    S.Notes.push_back({TUs[I],
                       "indexed with " + std::to_string(R.Errors) + " compile error" +
                           (R.Errors == 1 ? "" : "s") + ", its calls may be missing",
                       R.FirstError});
  index::KeyFile K;
  K.TU = TUs[I];
  K.Key.Command = Commands[I];
  for (const std::string &In : R.Inputs)
    K.Key.Inputs.push_back(Files.input(In));
  R.Shard.Key = K.Key;
  R.Shard.Errors = R.Errors;
  if (llvm::Error E = index::writeShardFile(Path, R.Shard, &K.Records))
    return E;
  R.Shard.Key.reset();
  Shards[I] = std::move(R.Shard);
  Records[I] = K.Records;
  Keys[I] = std::move(K);
  ++S.Indexed;
  return llvm::Error::success();
}

llvm::Error Refresh::parseStale(llvm::function_ref<void(size_t, size_t)> Progress) {
  if (Stale.empty())
    return llvm::Error::success();
  std::vector<std::string> Names;
  for (size_t I : Stale)
    Names.push_back(TUs[I]);
  std::vector<Project::IndexedTU> Results =
      P.index(Names, O.Jobs, [&](size_t Done) { Progress(Done, Names.size()); });
  for (size_t K = 0; K < Stale.size(); ++K)
    if (llvm::Error E = keep(Stale[K], Results[K]))
      return E;
  return llvm::Error::success();
}

/// The store from every shard, merged again when the shards it merged are
/// not the shards there are now (by each key's MD5 of its records); the
/// shards of TUs the database no longer has are removed.
llvm::Error Refresh::merge() {
  std::set<std::string> Expected;
  for (const std::string &TU : TUs)
    Expected.insert(shardPath(O.Dir, TU));
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(shardDir(), EC), End; It != End && !EC;
       It.increment(EC))
    if (llvm::StringRef(It->path()).ends_with(".json") && !Expected.count(It->path())) {
      llvm::sys::fs::remove(It->path());
      ++S.Removed;
    }
  // What an older hotpath-tidy merged into; the store replaces it.
  llvm::SmallString<256> Old(O.Dir);
  llvm::sys::path::append(Old, "index.json");
  llvm::sys::fs::remove(Old);
  llvm::SmallString<256> StorePath(O.Dir);
  llvm::sys::path::append(StorePath, index::StoreName);
  S.IndexFile = std::string(StorePath);
  std::map<std::string, std::string> Now;
  for (size_t I = 0; I < TUs.size(); ++I)
    if (Records[I])
      Now[TUs[I]] = *Records[I];
  if (!O.Reindex && index::storedShards(StorePath) == std::optional(Now))
    return llvm::Error::success();
  std::vector<index::IndexFile> All;
  for (size_t I = 0; I < TUs.size(); ++I) {
    if (Shards[I]) {
      All.push_back(std::move(*Shards[I]));
    } else if (Records[I]) {
      llvm::Expected<index::IndexFile> F = index::readShardFile(shardPath(O.Dir, TUs[I]));
      if (!F)
        return F.takeError();
      All.push_back(std::move(*F));
    }
  }
  return index::writeStore(StorePath, index::mergeShards(All), Now);
}

/// The index state of this refresh, unless the last one still says it all
/// (every TU held by it, and no other TU in it). Keys the state vouched
/// for are read now: something changed, and a TU was parsed or a key read.
llvm::Error Refresh::writeState() {
  if (Last && ByState == TUs.size() && Last->TUs.size() == TUs.size() &&
      Last->Commands == CommandsKey)
    return llvm::Error::success();
  IndexState St;
  St.Commands = CommandsKey;
  std::set<std::string> Checkable(TUs.begin(), TUs.end());
  for (const auto &KV : P.files())
    if (!Checkable.count(KV.first))
      St.Uncheckable.insert(KV.first);
  for (size_t I = 0; I < TUs.size(); ++I) {
    if (!Records[I])
      continue;
    std::string Path = shardPath(O.Dir, TUs[I]);
    if (!Keys[I]) {
      llvm::Expected<index::KeyFile> K = index::readShardKey(Path);
      if (!K)
        return K.takeError();
      Keys[I] = std::move(*K);
    }
    std::optional<Stamp> Shard = stampOf(Path);
    if (!Shard)
      return error("the index shard " + Path + " went away while the index was refreshed");
    St.TUs[TUs[I]] = {Commands[I], *Records[I], *Shard};
    for (const index::InputFile &In : Keys[I]->Key.Inputs)
      St.Files[In.File] = {In.Size, In.MTime};
  }
  return St.write(O.Dir);
}

} // namespace

std::optional<std::set<std::string>> uncheckableByState(Project &P, llvm::StringRef Dir) {
  std::optional<IndexState> St = IndexState::read(Dir);
  std::string Key = commandsKey(P);
  if (!St || Key.empty() || St->Commands != Key)
    return std::nullopt;
  return std::move(St->Uncheckable);
}

const ShardInputs::Files *ShardInputs::of(const std::string &TU) {
  if (!WithShard.count(TU))
    return nullptr;
  auto [It, New] = Read.try_emplace(TU);
  if (New) {
    llvm::Expected<index::KeyFile> K = index::readShardKey(shardPath(Dir, TU));
    if (!K) {
      // Read a moment ago by the refresh: gone since, so not cached.
      llvm::consumeError(K.takeError());
    } else if (K->TU == TU) {
      Files F;
      for (const index::InputFile &In : K->Key.Inputs)
        F.push_back({In.File, In.Hash});
      It->second = std::move(F);
    }
  }
  return It->second ? &*It->second : nullptr;
}

llvm::Expected<IndexSummary>
refreshIndex(Project &P, const std::vector<std::string> &TUs, const IndexOptions &O,
             llvm::function_ref<void(size_t Done, size_t Total)> Progress) {
  auto Start = std::chrono::steady_clock::now();
  Refresh R(P, TUs, O);
  if (llvm::Error E = R.makeDirectory())
    return std::move(E);
  if (llvm::Error E = R.reuseShards())
    return std::move(E);
  if (llvm::Error E = R.parseStale(Progress))
    return std::move(E);
  if (llvm::Error E = O.Merge ? R.merge() : llvm::Error::success())
    return std::move(E);
  if (llvm::Error E = O.Merge ? R.writeState() : llvm::Error::success())
    return std::move(E);
  IndexSummary &Sum = R.summary();
  Sum.Seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
  return std::move(Sum);
}

std::string describe(const IndexSummary &S, llvm::StringRef Dir) {
  std::string Out = llvm::formatv("hotpath-tidy: project index {0}: {1} of {2} translation "
                                  "unit{3} indexed, {4} up to date",
                                  Dir, S.Indexed, S.TUs, S.TUs == 1 ? "" : "s", S.UpToDate);
  if (S.Removed)
    Out += llvm::formatv(", {0} removed", S.Removed);
  if (S.Upgraded)
    Out += llvm::formatv(", {0} rebuilt from an older hotpath-tidy", S.Upgraded);
  Out += llvm::formatv(" ({0:f1} s)", S.Seconds);
  return Out;
}

std::string md5Hex(llvm::StringRef Data) {
  llvm::MD5 H;
  H.update(Data);
  llvm::MD5::MD5Result R;
  H.final(R);
  return std::string(R.digest());
}

} // namespace hotpath::driver
