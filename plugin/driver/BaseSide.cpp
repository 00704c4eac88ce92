//===--- driver/BaseSide.cpp - a --diff run's files at its base -----------===//
#include "BaseSide.h"
#include "CompileDatabase.h"
#include "IndexRefresh.h"
#include "Paths.h"
#include "Process.h"
#include "SourceFiles.h"

#include "index/ProjectIndex.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

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
  std::error_code EC;
  llvm::raw_fd_ostream OS(To, EC);
  if (EC)
    return error("cannot write " + To + ": " + EC.message());
  OS << R.Out;
  OS.close();
  if (OS.has_error()) {
    EC = OS.error();
    OS.clear_error();
    return error("cannot write " + To + ": " + EC.message());
  }
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
  std::error_code EC;
  llvm::raw_fd_ostream OS(File, EC);
  if (EC)
    return error("cannot write " + File + ": " + EC.message());
  OS << llvm::json::Value(std::move(Doc)) << '\n';
  return llvm::Error::success();
}

bool readsAny(const std::vector<index::InputFile> &Inputs, const std::set<std::string> &Files) {
  return llvm::any_of(Inputs, [&](const index::InputFile &I) { return Files.count(I.File); });
}

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
  std::vector<index::IndexFile> Shards;
  std::vector<std::string> Again;
  for (const std::string &TU : All) {
    if (B.Added.count(TU))
      continue;
    std::string Path = shardPath(IndexDir, TU);
    if (!llvm::sys::fs::exists(Path))
      continue; // not indexed at the head either (it does not parse)
    llvm::Expected<index::IndexFile> F = index::readIndexFile(Path);
    if (!F)
      return F.takeError();
    if (Parse.count(TU) || (F->Key && readsAny(F->Key->Inputs, Touched)))
      Again.push_back(TU);
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
    if (Parsed[I].Parsed)
      Shards.push_back(std::move(Parsed[I].Shard));
  }
  return index::writeIndexFile(OutFile, index::mergeShards(Shards));
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
