//===--- driver/Process.cpp - running a child process ---------------------===//
#include "Process.h"
#include "Interrupt.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"

#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <optional>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace hotpath::driver {

namespace {

/// A temporary file, removed with this object (or by an interrupt); its
/// text read by take().
class CaptureFile {
public:
  explicit CaptureFile(llvm::StringRef Suffix) {
    Path = makeTemporary([&] {
      llvm::SmallString<128> P;
      return llvm::sys::fs::createTemporaryFile("hotpath-tidy", Suffix, P) ? std::string()
                                                                           : std::string(P);
    });
  }
  ~CaptureFile() {
    llvm::sys::fs::remove(Path);
    forgetTemporary(Path);
  }
  llvm::StringRef path() const { return Path; }
  std::string take() const {
    auto Buf = llvm::MemoryBuffer::getFile(Path);
    return Buf ? (*Buf)->getBuffer().str() : std::string();
  }

private:
  std::string Path;
};

} // namespace

ProcessResult runProcess(llvm::ArrayRef<llvm::StringRef> Args, llvm::StringRef Dir) {
  std::vector<llvm::StringRef> Argv;
  if (!Dir.empty())
    Argv = {"/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", Dir};
  Argv.insert(Argv.end(), Args.begin(), Args.end());
  CaptureFile Out("out"), Err("err");
  // Nothing to read: a child that waits for input would wait forever.
  std::optional<llvm::StringRef> Redirects[] = {llvm::StringRef(""), Out.path(), Err.path()};
  std::string Why;
  ProcessResult R;
  // As llvm::sys::ExecuteAndWait, with the child known to the interrupt.
  R.Status = runChild(
      [&] {
        return llvm::sys::ExecuteNoWait(Argv[0], Argv, std::nullopt, Redirects, 0, &Why);
      },
      [&](const llvm::sys::ProcessInfo &PI) {
        return llvm::sys::Wait(PI, std::nullopt, &Why).ReturnCode;
      });
  R.Out = Out.take();
  R.Err = Err.take() + Why;
  return R;
}

ProcessResult runForked(llvm::ArrayRef<llvm::StringRef> Args, int (*Main)(int, const char **)) {
  // Everything the child needs, made before the fork.
  std::vector<std::string> Owned(Args.begin(), Args.end());
  std::vector<const char *> Argv;
  for (const std::string &A : Owned)
    Argv.push_back(A.c_str());
  Argv.push_back(nullptr);
  CaptureFile Out("out"), Err("err");
  std::string OutPath = Out.path().str(), ErrPath = Err.path().str();
  // What this process has buffered would be written twice.
  llvm::outs().flush();
  llvm::errs().flush();
  std::fflush(nullptr);
  ProcessResult R;
  std::string Why;
  R.Status = runChild(
      [&] {
        llvm::sys::ProcessInfo PI;
        pid_t Pid = ::fork();
        if (Pid < 0) {
          Why = "cannot fork: " + std::string(std::strerror(errno));
          return PI;
        }
        if (Pid == 0) {
          leaveInterruptsToChild();
          int In = ::open("/dev/null", O_RDONLY);
          int O = ::open(OutPath.c_str(), O_WRONLY | O_TRUNC);
          int E = ::open(ErrPath.c_str(), O_WRONLY | O_TRUNC);
          if (In < 0 || O < 0 || E < 0 || ::dup2(In, 0) < 0 || ::dup2(O, 1) < 0 ||
              ::dup2(E, 2) < 0)
            ::_exit(127);
          int Status = Main(static_cast<int>(Owned.size()), Argv.data());
          llvm::outs().flush();
          llvm::errs().flush();
          std::fflush(nullptr);
          ::_exit(Status);
        }
        PI.Pid = Pid;
        PI.Process = Pid;
        return PI;
      },
      [&](const llvm::sys::ProcessInfo &PI) {
        return llvm::sys::Wait(PI, std::nullopt, &Why).ReturnCode;
      });
  R.Out = Out.take();
  R.Err = Err.take() + Why;
  return R;
}

ProcessResult runInProcess(llvm::ArrayRef<llvm::StringRef> Args,
                           int (*Main)(int, const char **)) {
  std::vector<std::string> Owned(Args.begin(), Args.end());
  std::vector<const char *> Argv;
  for (const std::string &A : Owned)
    Argv.push_back(A.c_str());
  Argv.push_back(nullptr);
  CaptureFile Out("out"), Err("err");
  int In = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  int O = ::open(Out.path().str().c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
  int E = ::open(Err.path().str().c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
  int Saved[3] = {::fcntl(0, F_DUPFD_CLOEXEC, 3), ::fcntl(1, F_DUPFD_CLOEXEC, 3),
                  ::fcntl(2, F_DUPFD_CLOEXEC, 3)};
  int Redirect[3] = {In, O, E};
  llvm::outs().flush();
  llvm::errs().flush();
  std::fflush(nullptr);
  bool Redirected = In >= 0 && O >= 0 && E >= 0;
  for (int Fd = 0; Redirected && Fd < 3; ++Fd)
    Redirected = ::dup2(Redirect[Fd], Fd) >= 0;
  ProcessResult R;
  if (Redirected) {
    R.Status = Main(static_cast<int>(Owned.size()), Argv.data());
    llvm::outs().flush();
    llvm::errs().flush();
    std::fflush(nullptr);
  }
  // The driver's own descriptors back; one it did not have is closed again.
  for (int Fd = 0; Fd < 3; ++Fd)
    if (Saved[Fd] >= 0)
      ::dup2(Saved[Fd], Fd);
    else
      ::close(Fd);
  for (int Fd : {In, O, E, Saved[0], Saved[1], Saved[2]})
    if (Fd >= 0)
      ::close(Fd);
  if (!Redirected)
    return runForked(Args, Main); // the output could not be captured here
  R.Out = Out.take();
  R.Err = Err.take();
  return R;
}

std::string lastLines(llvm::StringRef S, unsigned N) {
  llvm::SmallVector<llvm::StringRef, 16> Lines;
  S.trim().split(Lines, '\n');
  std::string R;
  for (size_t I = Lines.size() > N ? Lines.size() - N : 0; I < Lines.size(); ++I)
    R += (R.empty() ? "" : " | ") + Lines[I].trim().str();
  return R;
}

} // namespace hotpath::driver
