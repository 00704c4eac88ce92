//===--- support/AtomicFile.cpp - files that appear whole or not at all --===//

#include "support/AtomicFile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <atomic>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/file.h>
#include <unistd.h>

namespace hotpath {

namespace {

std::atomic<RegisterTemporary> Registrar{nullptr};
std::atomic<ForgetTemporary> Forgetter{nullptr};

void forget(llvm::StringRef Path) {
  if (ForgetTemporary F = Forgetter.load())
    F(Path);
}

llvm::Error error(std::error_code EC) { return llvm::errorCodeToError(EC); }

/// The directory of \p File, "." for a bare name.
std::string directoryOf(llvm::StringRef File) {
  llvm::StringRef Dir = llvm::sys::path::parent_path(File);
  return Dir.empty() ? std::string(".") : Dir.str();
}

/// What a target is before it is replaced.
struct TargetInfo {
  std::string Path; // symbolic links followed
  std::optional<llvm::sys::fs::file_status> Existing;
  bool Regular = true;
};

TargetInfo resolve(llvm::StringRef Path) {
  TargetInfo T{Path.str(), std::nullopt, true};
  llvm::sys::fs::file_status St;
  if (llvm::sys::fs::status(Path, St))
    return T; // missing (or a dangling link, replaced as a file would be)
  llvm::SmallString<256> Real;
  if (!llvm::sys::fs::real_path(Path, Real))
    T.Path = std::string(Real);
  T.Existing = St;
  T.Regular = St.type() == llvm::sys::fs::file_type::regular_file;
  return T;
}

} // namespace

void trackTemporaries(RegisterTemporary Register, ForgetTemporary Forget) {
  Registrar.store(Register);
  Forgetter.store(Forget);
}

std::error_code syncDirectory(llvm::StringRef Dir) {
  int FD = ::open(Dir.str().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (FD < 0)
    return std::error_code(errno, std::generic_category());
  std::error_code EC;
  if (::fsync(FD) != 0)
    EC = std::error_code(errno, std::generic_category());
  ::close(FD);
  return EC;
}

llvm::Expected<PendingFile> PendingFile::create(llvm::StringRef Path,
                                                std::optional<std::string> TempPath) {
  TargetInfo T = resolve(Path);
  PendingFile P;
  P.Target = T.Path;
  int FD = -1;
  std::error_code EC;
  if (!T.Regular) {
    // /dev/stdout, a FIFO: nothing to rename over, written as it is.
    P.InPlace = true;
    P.Temp = P.Target;
    EC = llvm::sys::fs::openFileForWrite(P.Target, FD, llvm::sys::fs::CD_OpenAlways);
    if (EC)
      return error(EC);
    P.OS = std::make_unique<llvm::raw_fd_ostream>(FD, /*shouldClose=*/true);
    P.FD = FD;
    P.Done = false;
    return P;
  }
  auto Create = [&]() -> std::string {
    if (TempPath) {
      EC = llvm::sys::fs::openFileForWrite(*TempPath, FD, llvm::sys::fs::CD_CreateNew);
      return EC ? std::string() : *TempPath;
    }
    llvm::SmallString<256> Made;
    EC = llvm::sys::fs::createUniqueFile(P.Target + ".hotpath-tmp-%%%%%%", FD, Made);
    return EC ? std::string() : std::string(Made);
  };
  RegisterTemporary Register = Registrar.load();
  P.Temp = Register ? Register(Create) : Create();
  if (EC || P.Temp.empty())
    return error(EC ? EC : std::make_error_code(std::errc::io_error));
  if (T.Existing) {
    // The file keeps what it was: a script its execute bits, a file root
    // fixes its owner (ignored when not root: the owner is then ours).
    (void)::fchmod(FD, T.Existing->permissions());
    if (::geteuid() == 0)
      (void)!::fchown(FD, T.Existing->getUser(), T.Existing->getGroup());
  }
  P.OS = std::make_unique<llvm::raw_fd_ostream>(FD, /*shouldClose=*/true);
  P.FD = FD;
  P.Done = false;
  return P;
}

PendingFile::PendingFile(PendingFile &&O)
    : Target(std::move(O.Target)), Temp(std::move(O.Temp)), OS(std::move(O.OS)), FD(O.FD),
      InPlace(O.InPlace), Done(O.Done) {
  O.Done = true;
}

PendingFile &PendingFile::operator=(PendingFile &&O) {
  if (this != &O) {
    discard();
    Target = std::move(O.Target);
    Temp = std::move(O.Temp);
    OS = std::move(O.OS);
    FD = O.FD;
    InPlace = O.InPlace;
    Done = O.Done;
    O.Done = true;
  }
  return *this;
}

PendingFile::~PendingFile() { discard(); }

llvm::Error PendingFile::finishWriting(Durability D) {
  if (Done || !OS)
    return llvm::Error::success();
  OS->flush();
  std::error_code EC;
  if (D == Durability::Power && !InPlace && !OS->has_error() && ::fsync(FD) != 0)
    EC = std::error_code(errno, std::generic_category());
  OS->close();
  if (OS->has_error()) {
    EC = OS->error();
    OS->clear_error();
  }
  OS.reset();
  if (!EC)
    return llvm::Error::success();
  discard();
  return error(EC);
}

llvm::Error PendingFile::commit(Durability D) {
  if (Done)
    return llvm::Error::success();
  if (llvm::Error E = finishWriting(D))
    return E;
  Done = true;
  if (InPlace)
    return llvm::Error::success();
  if (std::error_code EC = llvm::sys::fs::rename(Temp, Target)) {
    llvm::sys::fs::remove(Temp);
    forget(Temp);
    return error(EC);
  }
  forget(Temp);
  if (D == Durability::Power)
    (void)syncDirectory(directoryOf(Target));
  return llvm::Error::success();
}

void PendingFile::discard() {
  if (Done)
    return;
  Done = true;
  if (OS) {
    OS->close();
    OS->clear_error();
    OS.reset();
  }
  if (InPlace)
    return;
  llvm::sys::fs::remove(Temp);
  forget(Temp);
}

llvm::Error writeFileAtomically(llvm::StringRef Path,
                                llvm::function_ref<void(llvm::raw_ostream &)> Write,
                                Durability D) {
  llvm::Expected<PendingFile> P = PendingFile::create(Path);
  if (!P)
    return P.takeError();
  Write(P->os());
  return P->commit(D);
}

llvm::Error writeFileAtomically(llvm::StringRef Path, llvm::StringRef Text, Durability D) {
  return writeFileAtomically(Path, [&](llvm::raw_ostream &OS) { OS << Text; }, D);
}

llvm::Error appendAtomically(llvm::StringRef Path, llvm::StringRef Text) {
  TargetInfo T = resolve(Path);
  if (!T.Regular) {
    std::error_code EC;
    llvm::raw_fd_ostream OS(T.Path, EC, llvm::sys::fs::OF_Append);
    if (EC)
      return error(EC);
    OS << Text;
    OS.close();
    if (!OS.has_error())
      return llvm::Error::success();
    EC = OS.error();
    OS.clear_error();
    return error(EC);
  }
  // The lock is the directory's: the file itself is replaced by each
  // append, so a lock on it would be on a file the next appender no
  // longer opens.
  int Dir = ::open(directoryOf(T.Path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (Dir < 0)
    return error(std::error_code(errno, std::generic_category()));
  while (::flock(Dir, LOCK_EX) != 0)
    if (errno != EINTR) {
      std::error_code EC(errno, std::generic_category());
      ::close(Dir);
      return error(EC);
    }
  // Read under the lock: another appender may have made the file since.
  std::string Old;
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buf =
      llvm::MemoryBuffer::getFile(T.Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (Buf) {
    Old = (*Buf)->getBuffer().str();
  } else if (Buf.getError() != std::errc::no_such_file_or_directory) {
    ::close(Dir);
    return error(Buf.getError());
  }
  llvm::Error E = writeFileAtomically(T.Path, [&](llvm::raw_ostream &OS) { OS << Old << Text; });
  ::close(Dir); // and the lock with it
  return E;
}

} // namespace hotpath
