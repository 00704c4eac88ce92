//===--- driver/Process.cpp - running a child process ---------------------===//
#include "Process.h"
#include "Interrupt.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"

#include <optional>
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

std::string lastLines(llvm::StringRef S, unsigned N) {
  llvm::SmallVector<llvm::StringRef, 16> Lines;
  S.trim().split(Lines, '\n');
  std::string R;
  for (size_t I = Lines.size() > N ? Lines.size() - N : 0; I < Lines.size(); ++I)
    R += (R.empty() ? "" : " | ") + Lines[I].trim().str();
  return R;
}

} // namespace hotpath::driver
