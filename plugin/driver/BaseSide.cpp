//===--- driver/BaseSide.cpp - a --diff run's files at its base -----------===//
#include "BaseSide.h"
#include "CompileDatabase.h"
#include "IndexRefresh.h"
#include "Paths.h"
#include "Process.h"
#include "SourceFiles.h"

#include "index/ProjectIndex.h"
#include "support/AtomicFile.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MD5.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

namespace hotpath::driver {

namespace {

llvm::Error error(const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg);
}

/// `git diff --name-status -z` of the working tree against \p Rev: status
/// letter and path (relative to \p Root), in git's order.
llvm::Expected<std::vector<std::pair<char, std::string>>>
changedFiles(llvm::StringRef Git, llvm::StringRef Root, llvm::StringRef Rev) {
  ProcessResult R = runProcess({Git, "-C", Root, "diff", "--name-status", "--no-renames",
                                "--no-ext-diff", "-z", Rev, "--"});
  if (R.Status != 0)
    return error("git diff --name-status " + Rev + " failed: " + llvm::StringRef(R.Err).trim());
  std::vector<std::pair<char, std::string>> Out;
  llvm::SmallVector<llvm::StringRef, 16> Fields;
  llvm::StringRef(R.Out).split(Fields, '\0', -1, /*KeepEmpty=*/false);
  for (size_t I = 0; I + 1 < Fields.size(); I += 2)
    Out.push_back({Fields[I].front(), Fields[I + 1].str()});
  return Out;
}

/// Writes \p Rev's blob of \p Path (relative to the work tree) to \p To.
llvm::Error writeBlob(llvm::StringRef Git, llvm::StringRef Root, llvm::StringRef Rev,
                      llvm::StringRef Path, llvm::StringRef To) {
  ProcessResult R = runProcess({Git, "-C", Root, "cat-file", "blob", (Rev + ":" + Path).str()});
  if (R.Status != 0)
    return error("git cat-file blob " + Rev + ":" + Path + " failed: " +
                 llvm::StringRef(R.Err).trim());
  if (std::error_code EC = llvm::sys::fs::create_directories(llvm::sys::path::parent_path(To)))
    return error("cannot make a directory for " + To + ": " + EC.message());
  if (llvm::Error E = writeFileAtomically(To, R.Out))
    return error("cannot write " + To + ": " + llvm::toString(std::move(E)));
  return llvm::Error::success();
}

/// The overlay: every real path to its copy, under its own name (clang
/// reports the real path, 'use-external-names': false).
llvm::Error writeOverlay(const std::map<std::string, std::string> &Content,
                         llvm::StringRef File) {
  llvm::json::Array Roots;
  for (const auto &[Real, Copy] : Content)
    Roots.push_back(
        llvm::json::Object{{"type", "file"}, {"name", Real}, {"external-contents", Copy}});
  llvm::json::Object Doc{{"version", 0},
                         {"case-sensitive", true},
                         {"use-external-names", false},
                         {"roots", std::move(Roots)}};
  if (llvm::Error E = writeFileAtomically(File, [&](llvm::raw_ostream &OS) {
        OS << llvm::json::Value(std::move(Doc)) << '\n';
      }))
    return error("cannot write " + File + ": " + llvm::toString(std::move(E)));
  return llvm::Error::success();
}

bool readsAny(const std::vector<index::InputFile> &Inputs, const std::set<std::string> &Files) {
  return llvm::any_of(Inputs, [&](const index::InputFile &I) { return Files.count(I.File); });
}

/// The base side's shards, kept in <index>/base/shards (one per TU, like the
/// index's own): the key is the TU's command and the MD5 of every file it
/// read as the base side sees it (the copy of a file the patch changes), so
/// the next push of a pull request parses again only what its base changed.
class BaseShards {
public:
  BaseShards(Project &P, llvm::StringRef IndexDir, const BaseSide &B)
      : P(P), Dir((IndexDir + "/base").str()), B(B) {}

  /// TU's shard when its key holds.
  std::optional<index::IndexFile> reuse(const std::string &TU) {
    std::string Path = shardPath(Dir, TU);
    if (!llvm::sys::fs::exists(Path))
      return std::nullopt;
    llvm::Expected<index::IndexFile> F = index::readShardFile(Path);
    if (!F) {
      llvm::consumeError(F.takeError()); // a cache: parsed again
      return std::nullopt;
    }
    if (!F->Key || F->Key->Command != shardCommandKey(P, TU) ||
        !llvm::all_of(F->Key->Inputs,
                      [&](const index::InputFile &I) { return I.Hash == hash(I.File); }))
      return std::nullopt;
    return std::move(*F);
  }

  /// Writes TU's shard as parsed through the overlay, keyed; a shard that
  /// cannot be written is only not reused.
  void keep(const std::string &TU, Project::IndexedTU &R) {
    index::ShardKey Key;
    Key.Command = shardCommandKey(P, TU);
    for (const std::string &In : R.Inputs)
      Key.Inputs.push_back({In, 0, 0, hash(In)});
    R.Shard.Key = std::move(Key);
    R.Shard.Errors = R.Errors;
    std::string Path = shardPath(Dir, TU);
    if (!llvm::sys::fs::create_directories(llvm::sys::path::parent_path(Path)))
      llvm::consumeError(index::writeShardFile(Path, R.Shard));
  }

private:
  /// MD5 of \p File as the base side reads it; "" when it cannot be read.
  const std::string &hash(const std::string &File) {
    auto [It, New] = Hashes.try_emplace(File);
    if (New) {
      auto Copy = B.Content.find(File);
      auto Buf = llvm::MemoryBuffer::getFile(Copy == B.Content.end() ? File : Copy->second,
                                             /*IsText=*/false, /*RequiresNullTerminator=*/false);
      if (Buf) {
        llvm::MD5 H;
        H.update((*Buf)->getBuffer());
        llvm::MD5::MD5Result R;
        H.final(R);
        It->second = std::string(R.digest());
      }
    }
    return It->second;
  }

  Project &P;
  std::string Dir;
  const BaseSide &B;
  std::map<std::string, std::string> Hashes;
};

} // namespace

llvm::Expected<BaseSide> writeBaseSide(llvm::StringRef Git, llvm::StringRef Root,
                                       llvm::StringRef Rev, llvm::StringRef Dir) {
  auto Files = changedFiles(Git, Root, Rev);
  if (!Files)
    return Files.takeError();
  BaseSide B;
  B.Rev = Rev.str();
  for (const auto &[Status, Path] : *Files) {
    std::string Real = canonicalPath(Path, Root);
    if (Status == 'A') {
      B.Added.insert(Real);
      continue;
    }
    llvm::SmallString<256> Copy(Dir);
    llvm::sys::path::append(Copy, "files", Path);
    if (llvm::Error E = writeBlob(Git, Root, Rev, Path, Copy))
      return std::move(E);
    B.Content[Real] = std::string(Copy);
  }
  if (B.Content.empty())
    return B;
  llvm::SmallString<256> Overlay(Dir);
  llvm::sys::path::append(Overlay, "overlay.yaml");
  if (llvm::Error E = writeOverlay(B.Content, Overlay))
    return std::move(E);
  B.Overlay = std::string(Overlay);
  return B;
}

llvm::Error writeBaseIndex(Project &P, const std::vector<std::string> &All,
                           const std::vector<std::string> &Checked, llvm::StringRef IndexDir,
                           const BaseSide &B, unsigned Jobs, llvm::StringRef OutFile,
                           std::set<std::string> &ReadsAdded) {
  std::set<std::string> Touched = B.Added;
  for (const auto &KV : B.Content)
    Touched.insert(KV.first);
  std::set<std::string> Parse(Checked.begin(), Checked.end());
  BaseShards Cache(P, IndexDir, B);
  // A file the patch adds that no TU is (a header) may shadow one a kept
  // shard read, or be found by __has_include, and the overlay cannot hide
  // it: no kept shard is trusted then.
  bool Trust = llvm::all_of(B.Added, [&](const std::string &F) { return P.files().count(F); });
  std::vector<index::IndexFile> Shards;
  std::vector<std::string> Again;
  size_t Reused = 0;
  auto AtBase = [&](const std::string &TU) {
    std::optional<index::IndexFile> F = Trust ? Cache.reuse(TU) : std::nullopt;
    if (!F)
      return Again.push_back(TU);
    if (F->Key && readsAny(F->Key->Inputs, B.Added))
      ReadsAdded.insert(TU);
    Shards.push_back(std::move(*F));
    ++Reused;
  };
  for (const std::string &TU : All) {
    if (B.Added.count(TU))
      continue;
    std::string Path = shardPath(IndexDir, TU);
    if (!llvm::sys::fs::exists(Path))
      continue; // not indexed at the head either (it does not parse)
    llvm::Expected<index::IndexFile> F = index::readShardFile(Path);
    if (!F)
      return F.takeError();
    if (Parse.count(TU) || (F->Key && readsAny(F->Key->Inputs, Touched)))
      AtBase(TU);
    else
      Shards.push_back(std::move(*F));
  }
  std::string Err;
  if (!P.setOverlay(B.Overlay, Err))
    return error(Err);
  std::vector<Project::IndexedTU> Parsed = P.index(Again, Jobs, [](size_t) {});
  (void)P.setOverlay("", Err);
  for (size_t I = 0; I < Again.size(); ++I) {
    if (llvm::any_of(Parsed[I].Inputs, [&](const std::string &F) { return B.Added.count(F); }))
      ReadsAdded.insert(Again[I]);
    if (!Parsed[I].Parsed)
      continue;
    if (!Parsed[I].Errors)
      Cache.keep(Again[I], Parsed[I]);
    Shards.push_back(std::move(Parsed[I].Shard));
  }
  llvm::errs() << "hotpath-tidy: the index at the base: " << Again.size() << " of "
               << Again.size() + Reused << " translation unit"
               << (Again.size() + Reused == 1 ? "" : "s")
               << " the patch affects parsed through the overlay, " << Reused << " reused\n";
  return index::writeStore(OutFile, index::mergeShards(Shards));
}

std::set<std::string> readingAdded(Project &P, const std::vector<std::string> &TUs,
                                   const BaseSide &B, unsigned Jobs) {
  std::set<std::string> Out;
  std::string Err;
  if (B.Added.empty() || !P.setOverlay(B.Overlay, Err))
    return Out;
  std::vector<std::set<std::string>> Deps = P.includes(TUs, Jobs, [](size_t) {});
  (void)P.setOverlay("", Err);
  for (size_t I = 0; I < TUs.size(); ++I)
    if (llvm::any_of(Deps[I], [&](const std::string &F) { return B.Added.count(F); }))
      Out.insert(TUs[I]);
  return Out;
}

void locateAtBase(std::vector<Finding> &Base, const BaseSide &B) {
  std::map<std::string, std::string> Back; // copy -> real path
  for (const auto &[Real, Copy] : B.Content)
    Back[Copy] = Real;
  auto Rename = [](std::vector<Finding> &Fs, const std::map<std::string, std::string> &To) {
    auto One = [&](std::string &File) {
      auto It = To.find(File);
      if (It != To.end())
        File = It->second;
    };
    for (Finding &F : Fs) {
      One(F.Main.File);
      for (Message &N : F.Notes)
        One(N.File);
      for (Range &R : F.Related)
        One(R.File);
    }
  };
  Rename(Base, B.Content); // lines counted in the base copies
  locate(Base);
  Rename(Base, Back);
}

} // namespace hotpath::driver
