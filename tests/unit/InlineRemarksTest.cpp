//===--- InlineRemarksTest.cpp - clang's inline remarks, counted per callee ===//

#include "checks/CheckSplitCheck.h"
#include "heat/InlineRemarks.h"
#include "TestHelpers.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using hotpath::InlineCount;
using hotpath::InlineRemarks;
using hotpath::test::Diag;
using hotpath::test::RunResult;

namespace {

// What clang-19 -O2 -fsave-optimization-record wrote for a TU with a static
// check inlined at one site and an external one left out of line at two
// (trimmed: the gvn remark shows other passes are ignored).
const char Record[] = R"y(--- !Passed
Pass:            inline
Name:            Inlined
DebugLoc:        { File: access.c, Line: 12, Column: 7 }
Function:        get_u8
Args:
  - String:          ''''
  - Callee:          check_index
    DebugLoc:        { File: access.c, Line: 3, Column: 0 }
  - String:          ''' inlined into '''
  - Caller:          get_u8
    DebugLoc:        { File: access.c, Line: 11, Column: 0 }
  - String:          ''''
...
--- !Missed
Pass:            inline
Name:            NoDefinition
DebugLoc:        { File: access.c, Line: 17, Column: 7 }
Function:        get_u16
Args:
  - Callee:          check_range
  - String:          ' will not be inlined into '
  - Caller:          get_u16
    DebugLoc:        { File: access.c, Line: 16, Column: 0 }
  - String:          ' because its definition is unavailable'
...
--- !Missed
Pass:            gvn
Name:            LoadClobbered
DebugLoc:        { File: access.c, Line: 18, Column: 9 }
Function:        get_u16
Args:
  - String:          'load of type '
  - Type:            i8
...
--- !Missed
Pass:            inline
Name:            NoDefinition
DebugLoc:        { File: access.c, Line: 22, Column: 7 }
Function:        get_u32
Args:
  - Callee:          check_range
  - String:          ' will not be inlined into '
  - Caller:          get_u32
  - String:          ' because its definition is unavailable'
...
)y";

InlineRemarks fromRecord(llvm::StringRef Yaml) {
  InlineRemarks R;
  llvm::Error E = R.addOptimizationRecord(Yaml, "t.opt.yaml");
  EXPECT_FALSE(static_cast<bool>(E)) << llvm::toString(std::move(E));
  return R;
}

std::string count(const InlineRemarks &R, llvm::StringRef Name) {
  std::optional<InlineCount> C = R.countOf(Name, Name);
  return C ? std::to_string(C->NotInlined) + "/" + std::to_string(C->Sites) : "none";
}

std::string remark(llvm::StringRef Type, llvm::StringRef Name, unsigned Line,
                   llvm::StringRef Caller, llvm::StringRef Callee = "chk") {
  return ("--- !" + Type + "\nPass: inline\nName: " + Name +
          "\nDebugLoc: { File: a.c, Line: " + llvm::Twine(Line) +
          ", Column: 3 }\nFunction: " + Caller + "\nArgs:\n  - Callee: " + Callee +
          "\n  - Caller: " + Caller + "\n...\n")
      .str();
}

TEST(InlineRemarks, CountsInlinedAndOutOfLineSitesPerCallee) {
  InlineRemarks R = fromRecord(Record);
  EXPECT_EQ(count(R, "check_index"), "0/1");
  EXPECT_EQ(count(R, "check_range"), "2/2");
  EXPECT_EQ(count(R, "other"), "none");
  EXPECT_EQ(R.counts().size(), 2u); // the gvn remark is not a call
}

TEST(InlineRemarks, ASiteLeftOutOfLineInOneCopyIsNotInlined) {
  // The call at line 5 was copied into 'outer' when 'inner' was inlined
  // there: inlined in 'inner', not in 'outer'.
  InlineRemarks R = fromRecord(remark("Passed", "Inlined", 5, "inner") +
                               remark("Missed", "TooCostly", 5, "outer"));
  EXPECT_EQ(count(R, "chk"), "1/1");
  // Missed first and inlined later, in the same function: inlined.
  R = fromRecord(remark("Missed", "TooCostly", 7, "f") + remark("Passed", "Inlined", 7, "f"));
  EXPECT_EQ(count(R, "chk"), "0/1");
  // Two records (two TUs) add up.
  llvm::cantFail(R.addOptimizationRecord(remark("Missed", "NeverInline", 9, "g"), "b.yaml"));
  EXPECT_EQ(count(R, "chk"), "1/2");
}

TEST(InlineRemarks, CxxCalleesAreDemangled) {
  InlineRemarks R = fromRecord(remark("Missed", "NoDefinition", 3, "_Z1gv", "_ZN2ns4Page5checkEmm"));
  std::optional<InlineCount> C = R.countOf("ns::Page::check", "check");
  ASSERT_TRUE(C);
  EXPECT_EQ(C->NotInlined, 1u);
  EXPECT_EQ(InlineRemarks::calleeName("check_range.constprop.0"), "check_range");
}

TEST(InlineRemarks, SummaryRoundTripsAndErrorsNameTheLine) {
  InlineRemarks R = fromRecord(Record);
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  R.writeSummary(OS);
  OS.flush();
  EXPECT_EQ(Text, "# hotpath-tidy inline summary: function, call sites not inlined, call sites\n"
                  "check_index 0 1\ncheck_range 2 2\n");
  InlineRemarks Back;
  llvm::cantFail(Back.addSummary(Text, "s.txt"));
  EXPECT_EQ(count(Back, "check_range"), "2/2");
  llvm::cantFail(Back.addSummary("operator new 1 3\n", "s.txt"));
  EXPECT_EQ(count(Back, "operator new"), "1/3");

  InlineRemarks Bad;
  EXPECT_EQ(llvm::toString(Bad.addSummary("# c\nf 1 2\ng 3\n", "s.txt")),
            "s.txt:3: expected 'function not_inlined call_sites' (an inline summary) or an "
            "optimization record (YAML from -fsave-optimization-record)");
  EXPECT_NE(llvm::toString(Bad.addSummary("f 3 2\n", "s.txt")).find("s.txt:1:"),
            std::string::npos);
}

TEST(InlineRemarks, LoadReadsRecordsAndSummariesAndNamesBadFiles) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("inline-remarks-test", Dir));
  auto Write = [&](llvm::StringRef Name, llvm::StringRef Text) {
    std::string Path = (Dir + "/" + Name).str();
    std::error_code EC;
    llvm::raw_fd_ostream(Path, EC) << Text;
    return Path;
  };
  std::string Rec = Write("a.opt.yaml", Record);
  std::string Sum = Write("s.txt", "check_range 1 1\n");
  llvm::Expected<InlineRemarks> Both = InlineRemarks::load(Rec + ";" + Sum);
  ASSERT_TRUE(static_cast<bool>(Both)) << llvm::toString(Both.takeError());
  EXPECT_EQ(count(*Both, "check_range"), "3/3");

  std::string Bin = Write("bin", llvm::StringRef("ab\0cd", 5));
  EXPECT_EQ(llvm::toString(InlineRemarks::load(Bin).takeError()),
            "inline remarks '" + Bin +
                "' is a binary file, not a YAML optimization record or a summary");
  EXPECT_EQ(llvm::toString(InlineRemarks::load((Dir + "/nope").str()).takeError()),
            "cannot read inline remarks '" + (Dir + "/nope").str() +
                "': No such file or directory");
  std::string Broken = Write("broken.yaml", "--- !Passed\nPass: [inline\n");
  EXPECT_NE(llvm::toString(InlineRemarks::load(Broken).takeError())
                .find("cannot read optimization record '" + Broken + "'"),
            std::string::npos);
  llvm::sys::fs::remove_directories(Dir);
}

// The checks: a function whose calls are all inlined is not reported; one
// left out of line is, with the count in the hot note.
const char CheckCode[] = R"c(#include <stdio.h>
int check_idx(unsigned i, unsigned n)
{
	if (i >= n) {
		fprintf(stderr, "bad %u\n", i);
		return 0;
	}
	if (i + 1 > n) {
		fprintf(stderr, "bad end %u\n", i);
		return 0;
	}
	return 1;
}
)c";

const hotpath::test::CheckTester<hotpath::CheckSplitCheck> Split("hotpath-check-split");

RunResult runSplit(const std::string &Summary) {
  llvm::SmallString<128> Path;
  EXPECT_FALSE(llvm::sys::fs::createTemporaryFile("inline-summary", "txt", Path));
  {
    std::error_code EC;
    llvm::raw_fd_ostream(Path, EC) << Summary;
  }
  RunResult R = Split.run(CheckCode, "input.c",
                          {{"HotFunctions", "check_idx"}, {"InlineRemarks", std::string(Path)}});
  llvm::sys::fs::remove(Path);
  return R;
}

TEST(InlineRemarks, CheckSplitReportsOnlyCallsLeftOutOfLine) {
  RunResult R = runSplit("check_idx 3 12\n");
  EXPECT_TRUE(R.errors().empty()) << R.dump();
  ASSERT_EQ(R.diagsOfLevel("warning").size(), 1u) << R.dump();
  std::vector<Diag> N = R.diagsOfLevel("note");
  ASSERT_FALSE(N.empty()) << R.dump();
  EXPECT_EQ(N[0].Message, "'check_idx' is hot: 3 of 12 call sites not inlined, named hot by "
                          "the HotFunctions option");
  // Every call inlined: nothing at all, not even a configuration error
  // (which "no warning" would let pass).
  EXPECT_EQ(runSplit("check_idx 0 12\n").dump(), "");
  // No call to it compiled at all: nothing to report either.
  EXPECT_EQ(runSplit("other 1 1\n").dump(), "");
}

// Negative control of the "nothing emitted" assertions above: the same
// negative case with a summary that does not parse emits a configuration
// error and nothing else, so dump() == "" fails where "no warning" passed.
TEST(InlineRemarks, NothingEmittedFailsOnAConfigurationError) {
  RunResult R = runSplit("check_idx zero 12\n");
  EXPECT_TRUE(R.diagsOfLevel("warning").empty()) << R.dump();
  ASSERT_EQ(R.Diags.size(), 1u) << R.dump();
  EXPECT_EQ(R.Diags[0].Level, "error");
  EXPECT_EQ(R.Diags[0].CheckName, "clang-tidy-config");
  EXPECT_NE(R.dump(), "");
}

TEST(InlineRemarks, BadFileIsAConfigurationError) {
  RunResult R = Split.run(CheckCode, "input.c", {{"InlineRemarks", "/nonexistent/s.txt"}});
  ASSERT_FALSE(R.errors().empty()) << R.dump();
  EXPECT_NE(R.errors()[0].Message.find(
                "cannot read inline remarks '/nonexistent/s.txt': No such file or directory"),
            std::string::npos)
      << R.dump();
}

} // namespace
