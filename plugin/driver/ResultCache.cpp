//===--- driver/ResultCache.cpp - findings of unchanged TUs, reused -------===//
#include "ResultCache.h"
#include "CheckRuns.h"
#include "CompileDatabase.h"
#include "ExportedFindings.h"
#include "IndexRefresh.h"
#include "Paths.h"

#include "core/FindingData.h"
#include "index/ProjectIndex.h"
#include "support/AtomicFile.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Chrono.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MD5.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <set>
#include <tuple>

namespace hotpath::driver {

namespace {

constexpr llvm::StringLiteral EntryFormat = "hotpath-result-cache";
/// Bump when an entry's fields or the key's parts change meaning.
constexpr int64_t EntryVersion = 1;

llvm::Error error(const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg);
}


std::optional<std::string> fileText(llvm::StringRef Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                         /*RequiresNullTerminator=*/false);
  if (!Buf)
    return std::nullopt;
  return (*Buf)->getBuffer().str();
}

/// The deepest directory holding both \p A and \p B (absolute paths).
std::string commonAncestor(llvm::StringRef A, llvm::StringRef B) {
  auto IA = llvm::sys::path::begin(A), EA = llvm::sys::path::end(A);
  auto IB = llvm::sys::path::begin(B), EB = llvm::sys::path::end(B);
  llvm::SmallString<256> Out;
  for (; IA != EA && IB != EB && *IA == *IB; ++IA, ++IB)
    llvm::sys::path::append(Out, *IA);
  return std::string(Out);
}

/// The directory that holds every source and every directory a compile
/// command runs in: the per-TU runs' default header filter
/// (HeaderFilter.h) is made from it.
std::string sourceRoot(const Project &P, const std::string &BuildDir) {
  std::optional<std::string> Root;
  for (const auto &[TU, Name] : P.files()) {
    llvm::StringRef Parent = llvm::sys::path::parent_path(TU);
    Root = Root ? commonAncestor(*Root, Parent) : Parent.str();
    std::string Dir;
    std::vector<std::string> Args;
    if (P.compileCommand(TU, Dir, Args))
      Root = commonAncestor(*Root, canonicalPath(Dir, BuildDir));
  }
  return Root.value_or("");
}

/// The files a -vfsoverlay maps (its "external-contents"), in order.
void overlayTargets(const llvm::json::Value &V, std::vector<std::string> &Out) {
  if (const llvm::json::Object *O = V.getAsObject()) {
    for (const auto &KV : *O)
      if (KV.first == "external-contents" && KV.second.getAsString())
        Out.push_back(KV.second.getAsString()->str());
      else
        overlayTargets(KV.second, Out);
  } else if (const llvm::json::Array *A = V.getAsArray()) {
    for (const llvm::json::Value &E : *A)
      overlayTargets(E, Out);
  }
}

std::string replaceAll(llvm::StringRef Text, llvm::StringRef From, llvm::StringRef To) {
  if (From.empty())
    return Text.str();
  std::string Out;
  for (size_t At = 0;;) {
    size_t Hit = Text.find(From, At);
    if (Hit == llvm::StringRef::npos)
      return Out + Text.substr(At).str();
    Out += Text.slice(At, Hit);
    Out += To;
    At = Hit + From.size();
  }
}

bool isPathChar(char C) {
  return llvm::isAlnum(C) || C == '_' || C == '-' || C == '.' || C == '+' || C == '~';
}

void touch(llvm::StringRef Path) {
  int FD;
  if (llvm::sys::fs::openFileForWrite(Path, FD, llvm::sys::fs::CD_OpenExisting,
                                      llvm::sys::fs::OF_Append))
    return;
  (void)llvm::sys::fs::setLastAccessAndModificationTime(FD, std::chrono::system_clock::now());
  llvm::sys::fs::closeFile(FD);
}

/// The checks' data lines by the finding they describe: check, file, offset
/// (as ExportedFindings.cpp joins them).
using DataKey = std::tuple<std::string, std::string, unsigned>;

std::map<DataKey, std::vector<std::string>> dataLines(llvm::StringRef DataFile,
                                                      llvm::StringRef Cwd) {
  std::map<DataKey, std::vector<std::string>> Out;
  std::optional<std::string> Text = fileText(DataFile);
  if (!Text)
    return Out;
  llvm::SmallVector<llvm::StringRef, 64> Lines;
  llvm::StringRef(*Text).split(Lines, '\n', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef Line : Lines) {
    llvm::Expected<FindingData> D = fromJSONLine(Line);
    if (!D) {
      llvm::consumeError(D.takeError());
      continue;
    }
    Out[{D->Check, canonicalPath(D->File, Cwd), D->Offset}].push_back(Line.str());
  }
  return Out;
}

} // namespace

std::string contentDigest(llvm::StringRef Path) {
  std::optional<std::string> Text = fileText(Path);
  return Text ? md5Hex(*Text) : "missing";
}

std::string ResultCache::anchor(llvm::StringRef Text, llvm::StringRef Root) {
  if (Root.empty())
    return Text.str();
  std::string Out;
  for (size_t At = 0;;) {
    size_t Hit = Text.find(Root, At);
    for (; Hit != llvm::StringRef::npos; Hit = Text.find(Root, Hit + 1)) {
      // Not the tail of a longer path ("/var/tmp/p" for "/tmp/p"), but
      // after an option ("-I/tmp/p/include") or a quote.
      size_t Token = Hit;
      while (Token > 0 && (isPathChar(Text[Token - 1]) || Text[Token - 1] == '/'))
        --Token;
      size_t End = Hit + Root.size();
      if ((Token == Hit || Text[Token] != '/') &&
          (End == Text.size() || !isPathChar(Text[End])))
        break;
    }
    if (Hit == llvm::StringRef::npos)
      return Out + Text.substr(At).str();
    Out += Text.slice(At, Hit);
    Out += RootName;
    At = Hit + Root.size();
  }
}

std::string ResultCache::reanchor(llvm::StringRef Text, llvm::StringRef Root) {
  return Root.empty() ? Text.str() : replaceAll(Text, RootName, Root);
}

std::unique_ptr<ResultCache> ResultCache::open(const Project &P, CacheSetup S) {
  if (std::error_code EC = llvm::sys::fs::create_directories(S.Dir)) {
    llvm::errs() << "hotpath-tidy: warning: result cache " << relativeTo(S.Dir, S.Cwd)
                 << ": cannot make the directory: " << EC.message()
                 << "; the results of this run are not cached\n";
    return nullptr;
  }
  ignoreInGit(S.Dir, "result cache");
  std::unique_ptr<ResultCache> C(new ResultCache(std::move(S)));
  // The project root: that and the build directory; none when only "/".
  C->SourceRoot = sourceRoot(P, C->S.BuildDir);
  C->Root = C->SourceRoot.empty() ? C->S.BuildDir
                                  : commonAncestor(C->SourceRoot, C->S.BuildDir);
  if (C->Root == "/")
    C->Root.clear();
  return C;
}

void ResultCache::useFiles(std::string DataFile,
                           std::shared_ptr<const index::ProjectIndex> Index,
                           const std::string &IndexFile) {
  S.DataFile = std::move(DataFile);
  S.Index = std::move(Index);
  S.StandIns.insert(S.StandIns.begin(), {IndexFile, "(the project index)"});
}

void ResultCache::beginRun(const CheckRunArgs &A) {
  std::vector<std::string> Overlays;
  std::string Config = standIns(A.Config);
  std::string K = "checks " + A.Checks + "\nheader-filter " +
                  (A.HeaderFilter ? anchor(*A.HeaderFilter, Root) : "(none)") + "\nconfig " +
                  anchor(Config, Root) + "\nbuild-dir " + anchor(S.BuildDir, Root) +
                  "\nsource-root " + anchor(SourceRoot, Root) + "\ncwd " + anchor(S.Cwd, Root) +
                  "\n";
  for (const std::string &Arg : A.PassThrough) {
    K += "arg " + anchor(Arg, Root) + "\n";
    // What the files they name hold: a user's overlay, a plugin's checks.
    llvm::StringRef Value = Arg;
    if (Value.consume_front("--vfsoverlay="))
      Overlays.push_back(Value.str());
    else if (Value.consume_front("--load="))
      K += "loads " + contentDigest(Value) + "\n";
  }
  if (!A.Overlay.empty())
    Overlays.push_back(A.Overlay);
  Cacheable = true;
  for (const std::string &O : Overlays) {
    std::optional<std::string> OK = overlayKey(O);
    Cacheable &= OK.has_value();
    K += OK.value_or("");
  }
  RunKey = std::move(K);
  RestoredData.clear();
  // Each run's checks write their reads afresh.
  llvm::sys::fs::remove_directories(S.ReadsDir);
  llvm::sys::fs::create_directories(S.ReadsDir);
}

/// A -vfsoverlay's part of the key: its text, and what each file it maps
/// holds.
std::string ResultCache::standIns(std::string Text) const {
  for (const auto &[Path, Stand] : S.StandIns)
    Text = replaceAll(Text, Path, Stand);
  return Text;
}

/// None when it is not JSON (YAML beyond JSON): its files are unknown, so
/// the run is not cached.
std::optional<std::string> ResultCache::overlayKey(llvm::StringRef Path) const {
  std::optional<std::string> Text = fileText(Path);
  if (!Text)
    return std::nullopt;
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(*Text);
  if (!V) {
    llvm::consumeError(V.takeError());
    return std::nullopt;
  }
  std::string K = "overlay " + anchor(standIns(*Text), Root) + "\n";
  std::vector<std::string> Targets;
  overlayTargets(*V, Targets);
  for (const std::string &T : Targets)
    K += "maps " + anchor(standIns(T), Root) + " " + contentDigest(T) + "\n";
  return K;
}

std::optional<std::string> ResultCache::binaryKey() {
  if (!Self) {
    std::optional<std::string> Text = fileText(S.Self);
    if (!Text)
      return std::nullopt;
    Self = "binary " HOTPATH_VERSION " LLVM " LLVM_VERSION_STRING " " + md5Hex(*Text) + "\n";
  }
  return Self;
}

/// The .clang-tidy files clang-tidy reads for a TU in \p Dir: every one
/// from there up.
std::string ResultCache::clangTidyFilesKey(llvm::StringRef Dir) {
  if (Dir.empty())
    return "";
  auto [It, New] = ClangTidyFiles.try_emplace(Dir.str());
  if (!New)
    return It->second;
  llvm::SmallString<256> File(Dir);
  llvm::sys::path::append(File, ".clang-tidy");
  std::string K;
  if (llvm::sys::fs::exists(File))
    K = "clang-tidy " + anchor(File, Root) + " " + contentDigest(File) + "\n";
  llvm::StringRef Parent = llvm::sys::path::parent_path(Dir);
  K += Parent == Dir ? "" : clangTidyFilesKey(Parent);
  return ClangTidyFiles[Dir.str()] = K;
}

std::optional<std::string> ResultCache::keyOf(const Project &P, const std::string &TU) {
  const ShardInputs::Files *In = Cacheable ? S.Inputs.of(TU) : nullptr;
  std::optional<std::string> Binary = binaryKey();
  std::string Dir;
  std::vector<std::string> Args;
  if (!In || !Binary || !P.compileCommand(TU, Dir, Args))
    return std::nullopt;
  std::string K = "format " + EntryFormat.str() + " " + std::to_string(EntryVersion) + "\n" +
                  *Binary + RunKey + "tu " + anchor(TU, Root) + "\ndir " + anchor(Dir, Root) +
                  "\n";
  for (const std::string &A : Args)
    K += "command " + anchor(A, Root) + "\n";
  for (const std::string &A : P.extraArgs().Before)
    K += "extra-arg-before " + anchor(A, Root) + "\n";
  for (const std::string &A : P.extraArgs().After)
    K += "extra-arg " + anchor(A, Root) + "\n";
  K += clangTidyFilesKey(llvm::sys::path::parent_path(TU));
  for (const auto &[File, Hash] : *In)
    K += "input " + anchor(File, Root) + " " + Hash + "\n";
  return md5Hex(K);
}

std::string ResultCache::entryPath(const std::string &Key) const {
  llvm::SmallString<256> P(S.Dir);
  llvm::sys::path::append(P, Key + ".entry");
  return std::string(P);
}

std::optional<std::string> ResultCache::digestOf(llvm::StringRef Read) const {
  if (!S.Index)
    return std::nullopt;
  std::optional<std::string> Answer = S.Index->answer(Read);
  if (!Answer)
    return std::nullopt;
  return md5Hex(anchor(*Answer, Root));
}

bool ResultCache::readsHold(llvm::ArrayRef<std::pair<std::string, std::string>> Reads) const {
  return llvm::all_of(Reads, [&](const std::pair<std::string, std::string> &R) {
    return digestOf(reanchor(R.first, Root)) == R.second;
  });
}

/// Reads the entry at \p Path for \p TU: Holds when its index reads still
/// hold, with \p R and \p Data filled; an error says why it does not read.
llvm::Error ResultCache::readEntry(const std::string &Path, const std::string &TU, bool &Holds,
                                   TURun &R, std::vector<std::string> &Data) {
  std::optional<std::string> Text = fileText(Path);
  if (!Text)
    return error("cannot read it");
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(*Text);
  if (!V)
    return error("not JSON: " + llvm::toString(V.takeError()));
  const llvm::json::Object *O = V->getAsObject();
  const llvm::json::Array *Reads = O ? O->getArray("reads") : nullptr;
  const llvm::json::Array *Lines = O ? O->getArray("data") : nullptr;
  std::optional<int64_t> Status = O ? O->getInteger("status") : std::nullopt;
  std::optional<llvm::StringRef> Log = O ? O->getString("log") : std::nullopt;
  if (!O || O->getString("format") != EntryFormat || O->getInteger("version") != EntryVersion)
    return error("not an entry of this hotpath-tidy's result cache");
  if (!Reads || !Lines || !Status || !Log || O->getString("tu") != anchor(TU, Root))
    return error("a field is missing or of the wrong type");
  std::vector<std::pair<std::string, std::string>> Pairs;
  for (const llvm::json::Value &E : *Reads) {
    const llvm::json::Array *Pair = E.getAsArray();
    if (!Pair || Pair->size() != 2 || !(*Pair)[0].getAsString() || !(*Pair)[1].getAsString())
      return error("reads: not a list of [read, digest]");
    Pairs.push_back({(*Pair)[0].getAsString()->str(), (*Pair)[1].getAsString()->str()});
  }
  for (const llvm::json::Value &E : *Lines) {
    if (!E.getAsString())
      return error("data: not a list of strings");
    Data.push_back(reanchor(*E.getAsString(), Root));
  }
  Holds = readsHold(Pairs);
  if (!Holds)
    return llvm::Error::success();
  R.Status = static_cast<int>(*Status);
  R.Log = reanchor(*Log, Root);
  if (std::optional<llvm::StringRef> Export = O->getString("export"))
    if (llvm::Error E = writeFileAtomically(R.ExportFile, reanchor(*Export, Root)))
      return error("cannot write " + R.ExportFile + ": " + llvm::toString(std::move(E)));
  return llvm::Error::success();
}

bool ResultCache::restore(const std::string &Key, TURun &R) {
  std::string Path = entryPath(Key);
  if (!llvm::sys::fs::exists(Path))
    return false;
  bool Holds = false;
  std::vector<std::string> Data;
  if (llvm::Error E = readEntry(Path, R.TU, Holds, R, Data)) {
    llvm::errs() << "hotpath-tidy: note: result cache: " << relativeTo(Path, S.Cwd) << ": "
                 << llvm::toString(std::move(E)) << "; " << relativeTo(R.TU, S.Cwd)
                 << " is checked again\n";
    return false;
  }
  if (!Holds)
    return false;
  llvm::append_range(RestoredData, Data);
  R.FromCache = true;
  touch(Path); // pruning by age keeps what is used (docs/project-index.md)
  return true;
}

void ResultCache::warnOnce(const std::string &What) {
  if (Warned)
    return;
  Warned = true;
  llvm::errs() << "hotpath-tidy: warning: result cache " << relativeTo(S.Dir, S.Cwd) << ": "
               << What << "; the results of this run are not cached\n";
}

void ResultCache::store(const std::string &Key, const TURun &R,
                        const std::map<std::string, std::vector<std::string>> &DataByTU) {
  std::vector<std::string> Reads;
  if (std::optional<std::string> Text = fileText(index::readsFileOf(S.ReadsDir, R.TU))) {
    llvm::SmallVector<llvm::StringRef, 64> Lines;
    llvm::StringRef(*Text).split(Lines, '\n', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef L : Lines)
      Reads.push_back(L.str());
  }
  llvm::json::Array ReadPairs, Data;
  for (const std::string &Read : Reads) {
    std::optional<std::string> Digest = digestOf(Read);
    if (!Digest)
      return; // a read this index cannot answer again: never reused
    ReadPairs.push_back(llvm::json::Array{anchor(Read, Root), *Digest});
  }
  auto It = DataByTU.find(R.TU);
  if (It != DataByTU.end())
    for (const std::string &L : It->second)
      Data.push_back(anchor(L, Root));
  llvm::json::Object O{{"format", EntryFormat}, {"version", EntryVersion},
                       {"tu", anchor(R.TU, Root)}, {"status", R.Status},
                       {"log", anchor(R.Log, Root)}, {"reads", std::move(ReadPairs)},
                       {"data", std::move(Data)}};
  if (std::optional<std::string> Export = fileText(R.ExportFile))
    O["export"] = anchor(*Export, Root);
  std::string Path = entryPath(Key);
  if (llvm::Error E = writeFileAtomically(Path, [&](llvm::raw_ostream &OS) {
        OS << llvm::json::Value(std::move(O)) << "\n";
      }))
    warnOnce("cannot write " + relativeTo(Path, S.Cwd) + ": " + llvm::toString(std::move(E)));
}

void ResultCache::finishRun(std::vector<TURun> &Runs,
                            const std::vector<std::optional<std::string>> &Keys) {
  // A run that crashed or did not start says nothing about its TU.
  auto Storable = [&](size_t I) {
    return Keys[I] && !Runs[I].FromCache && (Runs[I].Status == 0 || Runs[I].Status == 1);
  };
  std::map<std::string, std::vector<std::string>> DataByTU;
  if (llvm::any_of(llvm::seq<size_t>(0, Runs.size()), Storable)) {
    std::map<DataKey, std::vector<std::string>> ByPlace = dataLines(S.DataFile, S.Cwd);
    for (size_t I = 0; I < Runs.size(); ++I) {
      std::vector<Finding> Found;
      std::string Err;
      if (!Storable(I) || !llvm::sys::fs::exists(Runs[I].ExportFile))
        continue;
      if (!readExportedDiagnostics(Runs[I].ExportFile, Runs[I].TU, Found, Err))
        continue;
      std::set<std::string> Seen;
      for (const Finding &F : Found) {
        auto It = ByPlace.find({F.Check, F.Main.File, F.Main.Offset});
        if (It != ByPlace.end())
          for (const std::string &L : It->second)
            if (Seen.insert(L).second)
              DataByTU[Runs[I].TU].push_back(L);
      }
    }
  }
  for (size_t I = 0; I < Runs.size(); ++I)
    if (Storable(I))
      store(*Keys[I], Runs[I], DataByTU);
  if (RestoredData.empty())
    return;
  std::string Lines;
  for (const std::string &L : RestoredData)
    Lines += L + "\n";
  llvm::Error E = appendAtomically(S.DataFile, Lines);
  if (!E)
    return;
  // Without their data the restored findings would be wrong: they fail.
  llvm::consumeError(std::move(E));
  for (TURun &R : Runs)
    if (R.FromCache) {
      R.Status = -1;
      R.Log = "cannot write " + S.DataFile + " from the result cache";
    }
}

} // namespace hotpath::driver
