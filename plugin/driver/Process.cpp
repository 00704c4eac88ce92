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

namespace {

void flushAll() {
  llvm::outs().flush();
  llvm::errs().flush();
  std::fflush(nullptr);
}

/// A run of a main function in this process image, forked or not: its
/// arguments as an argv, and the files its output and errors go to.
class MainRun {
public:
  explicit MainRun(llvm::ArrayRef<llvm::StringRef> Args)
      : Owned(Args.begin(), Args.end()), Out("out"), Err("err") {
    for (const std::string &A : Owned)
      Argv.push_back(A.c_str());
    Argv.push_back(nullptr);
    OutPath = Out.path().str();
    ErrPath = Err.path().str();
  }
  /// Standard input empty, output and errors into the capture files.
  bool redirect() const {
    int Fds[3] = {::open("/dev/null", O_RDONLY | O_CLOEXEC),
                  ::open(OutPath.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC),
                  ::open(ErrPath.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC)};
    bool Ok = true;
    for (int Fd = 0; Fd < 3; ++Fd)
      Ok = Ok && Fds[Fd] >= 0 && ::dup2(Fds[Fd], Fd) >= 0;
    for (int Fd : Fds)
      if (Fd > 2)
        ::close(Fd);
    return Ok;
  }
  int run(int (*Main)(int, const char **)) {
    int Status = Main(static_cast<int>(Owned.size()), Argv.data());
    flushAll();
    return Status;
  }
  ProcessResult result(int Status, llvm::StringRef Why) const {
    return {Status, Out.take(), Err.take() + Why.str()};
  }

private:
  std::vector<std::string> Owned;
  std::vector<const char *> Argv;
  CaptureFile Out, Err;
  std::string OutPath, ErrPath;
};

} // namespace

ProcessResult runForked(llvm::ArrayRef<llvm::StringRef> Args, int (*Main)(int, const char **)) {
  MainRun Run(Args); // everything the child needs, made before the fork
  flushAll();        // what this process has buffered would be written twice
  std::string Why;
  int Status = runChild(
      [&] {
        llvm::sys::ProcessInfo PI;
        pid_t Pid = ::fork();
        if (Pid < 0) {
          Why = "cannot fork: " + std::string(std::strerror(errno));
          return PI;
        }
        if (Pid == 0) {
          leaveInterruptsToChild();
          ::_exit(Run.redirect() ? Run.run(Main) : 127);
        }
        PI.Pid = Pid;
        PI.Process = Pid;
        return PI;
      },
      [&](const llvm::sys::ProcessInfo &PI) {
        return llvm::sys::Wait(PI, std::nullopt, &Why).ReturnCode;
      });
  return Run.result(Status, Why);
}

ProcessResult runInProcess(llvm::ArrayRef<llvm::StringRef> Args,
                           int (*Main)(int, const char **)) {
  MainRun Run(Args);
  flushAll();
  int Saved[3] = {::fcntl(0, F_DUPFD_CLOEXEC, 3), ::fcntl(1, F_DUPFD_CLOEXEC, 3),
                  ::fcntl(2, F_DUPFD_CLOEXEC, 3)};
  bool Redirected = Run.redirect();
  int Status = Redirected ? Run.run(Main) : 0;
  // The driver's own descriptors back; one it did not have is closed again.
  for (int Fd = 0; Fd < 3; ++Fd) {
    if (Saved[Fd] >= 0) {
      ::dup2(Saved[Fd], Fd);
      ::close(Saved[Fd]);
    } else {
      ::close(Fd);
    }
  }
  if (!Redirected)
    return runForked(Args, Main); // the output could not be captured here
  return Run.result(Status, "");
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
