//===--- driver/FixJournal.cpp - a fix set applied as one unit ------------===//
#include "FixJournal.h"
#include "IndexRefresh.h"
#include "Interrupt.h"
#include "Paths.h"
#include "support/AtomicFile.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <optional>
#include <thread>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace hotpath::driver {

namespace {

constexpr llvm::StringLiteral JournalFormat = "hotpath-tidy-fix-journal";
constexpr int JournalVersion = 1;
constexpr llvm::StringLiteral JournalName = "journal.json";
constexpr llvm::StringLiteral StagedInfix = ".hotpath-fix-";

llvm::Error error(const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg);
}

/// A test hook, for tests/e2e/fix-faults.sh only:
/// HOTPATH_TIDY_TEST_STOP_AT_WRITE=N:SIG raises SIG (INT, TERM, KILL, or
/// STOP, for the test to change a file meanwhile) just before the Nth write
/// of the fix phase (a copy, the journal, a staged file, a rename, the
/// journal's removal), as a user's Ctrl-C or a CI job's kill would land
/// there. Unset, it costs one getenv a run.
class FaultInjector {
public:
  FaultInjector() {
    const char *Spec = std::getenv("HOTPATH_TIDY_TEST_STOP_AT_WRITE");
    if (!Spec)
      return;
    auto [N, Name] = llvm::StringRef(Spec).split(':');
    if (N.getAsInteger(10, At))
      At = 0;
    Sig = Name == "KILL"   ? SIGKILL
          : Name == "TERM" ? SIGTERM
          : Name == "STOP" ? SIGSTOP
                           : SIGINT;
  }
  void beforeWrite() {
    if (!At || ++Count != At)
      return;
    ::raise(Sig);
    if (Sig == SIGSTOP)
      return; // continued (SIGCONT): the run goes on
    // As if the signal landed here: the interrupt takes over before the
    // write (a thread reads the signal; Interrupt.h).
    while (!interruptRequested())
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }

private:
  unsigned At = 0, Count = 0;
  int Sig = SIGINT;
};

/// An exclusive lock on a set directory while a run applies or recovers
/// it: a run that starts meanwhile waits instead of completing a set that
/// is being applied. The kernel drops it with the process, however it
/// ends.
class SetLock {
public:
  explicit SetLock(llvm::StringRef Dir)
      : FD(::open(Dir.str().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)) {}
  ~SetLock() {
    if (FD >= 0)
      ::close(FD);
  }
  /// False when another process holds it (\p Wait: after waiting for it).
  bool take(bool Wait) {
    if (FD < 0)
      return true;
    while (::flock(FD, LOCK_EX | (Wait ? 0 : LOCK_NB)) != 0)
      if (errno != EINTR)
        return false;
    return true;
  }

private:
  int FD;
};

struct Entry {
  std::string Path, Old, New; // MD5s of the content before and with the fixes
  std::string Staged, Copy;
};

std::string journalText(const std::vector<Entry> &Entries) {
  llvm::json::Array Files;
  for (const Entry &E : Entries)
    Files.push_back(llvm::json::Object{{"path", E.Path},
                                       {"old", E.Old},
                                       {"new", E.New},
                                       {"staged", E.Staged},
                                       {"copy", E.Copy}});
  llvm::json::Object Doc{{"format", JournalFormat},
                         {"version", JournalVersion},
                         {"pid", static_cast<int64_t>(::getpid())},
                         {"files", std::move(Files)}};
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  OS << llvm::formatv("{0:2}", llvm::json::Value(std::move(Doc))) << "\n";
  return Text;
}

llvm::Expected<std::vector<Entry>> readJournal(llvm::StringRef Path) {
  auto Bad = [&](const llvm::Twine &What) { return error(What); };
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buf = llvm::MemoryBuffer::getFile(Path);
  if (!Buf)
    return Bad("cannot read it: " + Buf.getError().message());
  llvm::Expected<llvm::json::Value> V = llvm::json::parse((*Buf)->getBuffer());
  if (!V)
    return Bad("not valid JSON: " + llvm::toString(V.takeError()));
  const llvm::json::Object *O = V->getAsObject();
  if (!O || O->getString("format") != JournalFormat)
    return Bad("its \"format\" is not \"" + JournalFormat + "\"");
  if (O->getInteger("version") != JournalVersion)
    return Bad("not version " + llvm::Twine(JournalVersion));
  const llvm::json::Array *Files = O->getArray("files");
  if (!Files)
    return Bad("no \"files\" list");
  std::vector<Entry> Out;
  for (const llvm::json::Value &F : *Files) {
    const llvm::json::Object *E = F.getAsObject();
    auto Field = [&](llvm::StringRef Key) {
      std::optional<llvm::StringRef> S = E ? E->getString(Key) : std::nullopt;
      return S ? S->str() : std::string();
    };
    Entry X{Field("path"), Field("old"), Field("new"), Field("staged"), Field("copy")};
    if (X.Path.empty() || X.Old.empty() || X.New.empty() || X.Staged.empty() || X.Copy.empty())
      return Bad("file " + llvm::Twine(Out.size() + 1) +
                 " of \"files\" lacks one of path, old, new, staged, copy");
    Out.push_back(std::move(X));
  }
  return Out;
}

/// The MD5 of \p Path's content; none when it cannot be read.
std::optional<std::string> digestOf(llvm::StringRef Path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buf =
      llvm::MemoryBuffer::getFile(Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!Buf)
    return std::nullopt;
  return md5Hex((*Buf)->getBuffer());
}

/// Removes the set directory \p Dir (the journal last: until it is gone
/// the set is still known).
void removeSet(llvm::StringRef Dir) {
  llvm::SmallString<256> Journal(Dir);
  llvm::sys::path::append(Journal, JournalName);
  llvm::sys::fs::remove(Journal);
  (void)syncDirectory(Dir);
  llvm::sys::fs::remove_directories(Dir);
}

/// The state directory, once it holds no set: removed, so that a --fix
/// leaves nothing behind (its .gitignore is there only while a set is).
void removeIfNoSet(llvm::StringRef StateDir) {
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(StateDir, EC), End; It != End && !EC;
       It.increment(EC))
    if (llvm::sys::path::filename(It->path()) != ".gitignore")
      return;
  if (!EC)
    llvm::sys::fs::remove_directories(StateDir);
}

std::string names(const std::vector<Entry> &Files, llvm::StringRef Cwd) {
  std::vector<std::string> Rel;
  for (const Entry &E : Files)
    Rel.push_back(relativeTo(E.Path, Cwd));
  return llvm::join(Rel, ", ");
}

/// Completes or rolls back the set in \p Dir.
llvm::Error recoverSet(llvm::StringRef Dir, llvm::StringRef Cwd) {
  SetLock Lock(Dir);
  if (!Lock.take(/*Wait=*/false)) {
    llvm::errs() << "hotpath-tidy: waiting for another hotpath-tidy --fix to apply its fixes ("
                 << relativeTo(Dir, Cwd) << ")\n";
    Lock.take(/*Wait=*/true);
  }
  llvm::SmallString<256> JournalPath(Dir);
  llvm::sys::path::append(JournalPath, JournalName);
  if (!llvm::sys::fs::exists(Dir))
    return llvm::Error::success(); // the other run finished it
  if (!llvm::sys::fs::exists(JournalPath)) {
    // Stopped before its journal was written: nothing was staged yet.
    llvm::sys::fs::remove_directories(Dir);
    return llvm::Error::success();
  }
  std::string Journal = relativeTo(JournalPath, Cwd);
  llvm::Expected<std::vector<Entry>> Files = readJournal(JournalPath);
  if (!Files)
    return error(Journal + ": an interrupted --fix's journal that does not read (" +
                 llvm::toString(Files.takeError()) +
                 "): the files it names may hold part of its fixes; check them, then "
                 "remove " +
                 relativeTo(Dir, Cwd) + " and the files named *" + StagedInfix.str() +
                 llvm::StringRef(Dir).rsplit('-').second.str() + " beside them");
  enum class At { Old, New, Other };
  std::vector<At> State;
  bool Renamed = false, Completable = true;
  for (const Entry &E : *Files) {
    std::optional<std::string> Now = digestOf(E.Path);
    At A = Now == E.New ? At::New : Now == E.Old ? At::Old : At::Other;
    State.push_back(A);
    Renamed |= A == At::New;
    Completable &= A == At::New || (A == At::Old && digestOf(E.Staged) == E.New);
  }
  // Once a file was renamed the set was being applied: it is completed
  // when every other file's staged content is there. Otherwise (stopped
  // while staging, a staged file removed since) it is rolled back.
  if (Renamed && Completable) {
    for (size_t I = 0; I < Files->size(); ++I) {
      const Entry &E = (*Files)[I];
      if (State[I] != At::Old)
        continue;
      if (std::error_code EC = llvm::sys::fs::rename(E.Staged, E.Path))
        return error("cannot complete the interrupted --fix (" + Journal + "): " +
                     relativeTo(E.Path, Cwd) + ": " + EC.message());
      (void)syncDirectory(llvm::sys::path::parent_path(E.Path));
    }
    removeSet(Dir);
    llvm::errs() << "hotpath-tidy: an interrupted --fix was completed: its "
                 << Files->size() << " file" << (Files->size() == 1 ? "" : "s") << " ("
                 << names(*Files, Cwd) << ") hold its fixes\n";
    return llvm::Error::success();
  }
  size_t Left = 0;
  for (size_t I = 0; I < Files->size(); ++I) {
    const Entry &E = (*Files)[I];
    if (State[I] == At::Other) {
      ++Left;
      llvm::errs() << "hotpath-tidy: warning: " << relativeTo(E.Path, Cwd)
                   << " changed since an interrupted --fix (" << Journal
                   << "): left as it is\n";
    } else if (State[I] == At::New) {
      llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Copy =
          llvm::MemoryBuffer::getFile(E.Copy, /*IsText=*/false, /*RequiresNullTerminator=*/false);
      if (!Copy || md5Hex((*Copy)->getBuffer()) != E.Old)
        return error("cannot roll back the interrupted --fix (" + Journal + "): the copy of " +
                     relativeTo(E.Path, Cwd) + " from before it, " + relativeTo(E.Copy, Cwd) +
                     ", is missing or not what the journal says");
      if (llvm::Error Err =
              writeFileAtomically(E.Path, (*Copy)->getBuffer(), Durability::Power))
        return error("cannot roll back the interrupted --fix (" + Journal + "): " +
                     relativeTo(E.Path, Cwd) + ": " + llvm::toString(std::move(Err)));
    }
    llvm::sys::fs::remove(E.Staged);
  }
  removeSet(Dir);
  size_t Back = Files->size() - Left;
  llvm::errs() << "hotpath-tidy: an interrupted --fix was rolled back: "
               << (Left ? std::to_string(Back) + " of its " : "its ") << Files->size()
               << " file" << (Files->size() == 1 ? "" : "s") << " (" << names(*Files, Cwd)
               << ") hold their text from before it\n";
  return llvm::Error::success();
}

} // namespace

std::string fixStateDir(llvm::StringRef BuildDir) { return (BuildDir + "/hotpath-fix").str(); }

llvm::Error applyFixSet(const std::vector<FixedFile> &Files, llvm::StringRef StateDir) {
  if (Files.empty())
    return llvm::Error::success();
  FaultInjector Fault;
  fixSetStaging(Files.size());
  auto Done = llvm::make_scope_exit([] { fixSetDone(); });
  // Made by this run, the state directory is a temporary too: an
  // interrupt before the renames leaves nothing behind.
  std::error_code EC;
  bool MadeHere = false;
  if (!llvm::sys::fs::exists(StateDir)) {
    makeTemporary([&] {
      EC = llvm::sys::fs::create_directories(StateDir);
      MadeHere = !EC;
      return EC ? std::string() : StateDir.str();
    });
    if (EC)
      return error("cannot make " + StateDir + ": " + EC.message());
  }
  ignoreInGit(StateDir, "journals of --fix while it applies a fix set");
  std::string Dir = makeTemporary([&] {
    llvm::SmallString<256> P;
    EC = llvm::sys::fs::createUniqueDirectory(StateDir + "/set", P);
    return EC ? std::string() : std::string(P);
  });
  if (Dir.empty())
    return error("cannot make a directory in " + StateDir + ": " + EC.message());
  bool Kept = false; // once its renames begin, the set directory is the journal's
  auto Drop = llvm::make_scope_exit([&] {
    if (!Kept) {
      llvm::sys::fs::remove_directories(Dir);
      forgetTemporary(Dir);
      removeIfNoSet(StateDir);
    }
    if (MadeHere)
      forgetTemporary(StateDir);
  });
  SetLock Lock(Dir);
  Lock.take(/*Wait=*/true);
  std::string Token(llvm::StringRef(Dir).rsplit('-').second);

  // 1. The old content's copies, then the journal. Each file by its real
  // path: a symbolic link stays one, and its file's new content is staged
  // in the file's own directory, where the rename is atomic.
  std::vector<Entry> Entries;
  for (size_t I = 0; I < Files.size(); ++I) {
    const FixedFile &F = Files[I];
    llvm::SmallString<256> Real;
    llvm::sys::fs::file_status St;
    if (llvm::sys::fs::real_path(F.Path, Real) || llvm::sys::fs::status(Real, St) ||
        St.type() != llvm::sys::fs::file_type::regular_file)
      return error(F.Path + ": not a regular file that can be read; no file was changed");
    std::string Path(Real);
    Entry E{Path, md5Hex(F.Old), md5Hex(F.New), Path + StagedInfix.str() + Token,
            Dir + "/old-" + std::to_string(I)};
    Fault.beforeWrite();
    if (llvm::Error Err = writeFileAtomically(E.Copy, F.Old, Durability::Power))
      return error("cannot write " + E.Copy + ": " + llvm::toString(std::move(Err)));
    Entries.push_back(std::move(E));
  }
  Fault.beforeWrite();
  if (llvm::Error Err =
          writeFileAtomically(Dir + "/" + JournalName.str(), journalText(Entries), Durability::Power))
    return error("cannot write the fix journal in " + Dir + ": " + llvm::toString(std::move(Err)));

  // 2. The new content, staged beside each file.
  std::vector<PendingFile> Staged;
  for (size_t I = 0; I < Files.size(); ++I) {
    Fault.beforeWrite();
    llvm::Expected<PendingFile> P = PendingFile::create(Entries[I].Path, Entries[I].Staged);
    if (!P)
      return error("cannot write " + Files[I].Path + ": " + llvm::toString(P.takeError()) +
                   "; no file was changed");
    P->os() << Files[I].New;
    if (llvm::Error Err = P->finishWriting(Durability::Power))
      return error("cannot write " + Files[I].Path + ": " + llvm::toString(std::move(Err)) +
                   "; no file was changed");
    Staged.push_back(std::move(*P));
  }

  // 3. Each file as the fixes were made for: an edit since (during the
  // run) would be lost under the fixed text.
  for (const Entry &E : Entries)
    if (digestOf(E.Path) != E.Old)
      return error(E.Path + " changed while the fixes were made; no file was changed");

  // 4. The renames: from the first, the set is applied, whatever happens.
  std::vector<std::string> Journaled{Dir};
  if (MadeHere)
    Journaled.push_back(StateDir.str());
  for (const Entry &E : Entries)
    Journaled.push_back(E.Staged);
  beginFixCommit(Journaled);
  Kept = true;
  for (size_t I = 0; I < Staged.size(); ++I) {
    Fault.beforeWrite();
    if (llvm::Error Err = Staged[I].commit(Durability::Power)) {
      // The journal stays: the next run rolls back what was renamed.
      endFixCommit();
      return error("cannot write " + Files[I].Path + ": " + llvm::toString(std::move(Err)) +
                   "; the next run rolls back the files already changed (" + Dir + ")");
    }
  }
  Fault.beforeWrite();
  removeSet(Dir);
  removeIfNoSet(StateDir);
  endFixCommit();
  return llvm::Error::success();
}

llvm::Error recoverFixSets(llvm::StringRef StateDir, llvm::StringRef Cwd) {
  std::error_code EC;
  std::vector<std::string> Sets;
  for (llvm::sys::fs::directory_iterator It(StateDir, EC), End; It != End && !EC;
       It.increment(EC))
    if (llvm::sys::path::filename(It->path()).starts_with("set-") &&
        It->type() == llvm::sys::fs::file_type::directory_file)
      Sets.push_back(It->path());
  llvm::sort(Sets);
  for (const std::string &Dir : Sets)
    if (llvm::Error E = recoverSet(Dir, Cwd))
      return E;
  removeIfNoSet(StateDir);
  return llvm::Error::success();
}

} // namespace hotpath::driver
