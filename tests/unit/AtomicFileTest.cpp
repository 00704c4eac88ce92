//===--- AtomicFileTest.cpp - files that appear whole or not at all ------===//
//
// support/AtomicFile.h: a target is its old content until commit(), its
// new one after; it keeps its mode and stays behind its symbolic link; a
// discarded or failed write leaves it and no temporary file; a device is
// written in place; appends from several processes lose no line.
//
//===----------------------------------------------------------------------===//

#include "support/AtomicFile.h"
#include "gtest/gtest.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <set>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace hotpath;

namespace {

class AtomicFileTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("atomic-file-test", Dir));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }
  std::string path(llvm::StringRef Name) const { return (Dir + "/" + Name).str(); }
  std::string read(llvm::StringRef Name) const {
    auto Buf = llvm::MemoryBuffer::getFile(path(Name));
    return Buf ? (*Buf)->getBuffer().str() : "<missing>";
  }
  void write(llvm::StringRef Name, llvm::StringRef Text) const {
    ASSERT_FALSE(static_cast<bool>(writeFileAtomically(path(Name), Text)));
  }
  /// The names in the directory, sorted.
  std::vector<std::string> names() const {
    std::vector<std::string> Out;
    std::error_code EC;
    for (llvm::sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC; It.increment(EC))
      Out.push_back(llvm::sys::path::filename(It->path()).str());
    llvm::sort(Out);
    return Out;
  }
  llvm::SmallString<128> Dir;
};

TEST_F(AtomicFileTest, TheTargetIsOldUntilCommitAndNewAfter) {
  write("a.c", "old\n");
  llvm::Expected<PendingFile> P = PendingFile::create(path("a.c"));
  ASSERT_TRUE(static_cast<bool>(P));
  P->os() << "new\n";
  P->os().flush();
  EXPECT_EQ(read("a.c"), "old\n");
  EXPECT_EQ(names().size(), 2u); // a.c and its temporary file beside it
  EXPECT_TRUE(llvm::StringRef(P->tempPath()).starts_with(path("a.c.hotpath-tmp-")));
  ASSERT_FALSE(static_cast<bool>(P->commit(Durability::Power)));
  EXPECT_EQ(read("a.c"), "new\n");
  EXPECT_EQ(names(), std::vector<std::string>{"a.c"});
}

TEST_F(AtomicFileTest, DiscardedOrDestroyedLeavesTheTargetAndNoTemporary) {
  write("a.c", "old\n");
  {
    llvm::Expected<PendingFile> P = PendingFile::create(path("a.c"));
    ASSERT_TRUE(static_cast<bool>(P));
    P->os() << "half";
  } // a run that stops on an error
  EXPECT_EQ(read("a.c"), "old\n");
  EXPECT_EQ(names(), std::vector<std::string>{"a.c"});
  // Never made: no file at all, not one of 0 bytes.
  {
    llvm::Expected<PendingFile> P = PendingFile::create(path("new.sarif"));
    ASSERT_TRUE(static_cast<bool>(P));
    P->discard();
  }
  EXPECT_EQ(names(), std::vector<std::string>{"a.c"});
}

TEST_F(AtomicFileTest, KeepsTheModeAndTheSymbolicLink) {
  write("run.sh", "old\n");
  ::chmod(path("run.sh").c_str(), 0751);
  ASSERT_FALSE(llvm::sys::fs::create_link("run.sh", path("link.sh")));
  write("link.sh", "new\n");
  struct stat St;
  ASSERT_EQ(::lstat(path("run.sh").c_str(), &St), 0);
  EXPECT_EQ(St.st_mode & 07777, 0751u);
  ASSERT_EQ(::lstat(path("link.sh").c_str(), &St), 0);
  EXPECT_TRUE(S_ISLNK(St.st_mode));
  EXPECT_EQ(read("run.sh"), "new\n");
}

TEST_F(AtomicFileTest, AnUnwritableDirectoryIsAnErrorAtCreate) {
  // A file where the directory should be: ENOTDIR, as root too.
  write("file", "x");
  llvm::Expected<PendingFile> P = PendingFile::create(path("file") + "/out.sarif");
  ASSERT_FALSE(static_cast<bool>(P));
  EXPECT_EQ(llvm::toString(P.takeError()), "Not a directory");
  EXPECT_EQ(names(), std::vector<std::string>{"file"});
}

TEST_F(AtomicFileTest, ADeviceIsWrittenInPlace) {
  // /dev/full takes no byte: the error comes at commit, and nothing is
  // made beside it (there is no directory of ours to make it in).
  llvm::Expected<PendingFile> P = PendingFile::create("/dev/full");
  ASSERT_TRUE(static_cast<bool>(P));
  EXPECT_EQ(P->tempPath(), "/dev/full");
  P->os() << std::string(1 << 16, 'x');
  llvm::Error E = P->commit();
  ASSERT_TRUE(static_cast<bool>(E));
  EXPECT_EQ(llvm::toString(std::move(E)), "No space left on device");
}

TEST_F(AtomicFileTest, AppendsFromSeveralProcessesLoseNoLine) {
  // 4 processes append 50 lines each, one append a line: all 200 lines
  // are there, whole (a lost update would drop some).
  constexpr int Procs = 4, Lines = 50;
  std::string File = path("findings.jsonl");
  std::vector<pid_t> Pids;
  for (int P = 0; P < Procs; ++P) {
    pid_t Pid = ::fork();
    ASSERT_GE(Pid, 0);
    if (Pid == 0) {
      for (int L = 0; L < Lines; ++L)
        if (appendAtomically(File, "{\"proc\": " + std::to_string(P) + ", \"line\": " +
                                       std::to_string(L) + "}\n"))
          ::_exit(1);
      ::_exit(0);
    }
    Pids.push_back(Pid);
  }
  for (pid_t Pid : Pids) {
    int Status = 0;
    ASSERT_EQ(::waitpid(Pid, &Status, 0), Pid);
    EXPECT_TRUE(WIFEXITED(Status) && WEXITSTATUS(Status) == 0);
  }
  llvm::SmallVector<llvm::StringRef, 256> Got;
  std::string Text = read("findings.jsonl");
  llvm::StringRef(Text).split(Got, '\n', -1, /*KeepEmpty=*/false);
  EXPECT_EQ(Got.size(), size_t(Procs * Lines));
  std::set<std::string> Unique(Got.begin(), Got.end());
  EXPECT_EQ(Unique.size(), size_t(Procs * Lines));
  EXPECT_EQ(names(), std::vector<std::string>{"findings.jsonl"});
}

} // namespace
