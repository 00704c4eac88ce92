//===--- ProfileTest.cpp - reading perf and folded-stack profiles ---------===//

#include "heat/Profile.h"
#include "gtest/gtest.h"

using hotpath::Profile;

namespace {

Profile parse(llvm::StringRef Text) {
  llvm::Expected<Profile> P = Profile::parse(Text, "test.txt");
  EXPECT_TRUE(static_cast<bool>(P)) << llvm::toString(P.takeError());
  return std::move(*P);
}

std::string error(llvm::StringRef Text) {
  llvm::Expected<Profile> P = Profile::parse(Text, "test.txt");
  return P ? std::string("no error") : llvm::toString(P.takeError());
}

TEST(Profile, PerfReportWithChildren) {
  Profile P = parse("# Children      Self  Command  Shared Object  Symbol\n"
                    "    45.00%     5.10%  bench  bench  [.] check_bounds\n"
                    "    12.00%     0.61%  bench  [kernel.kallsyms]  [k] should_failslab.constprop.0\n");
  EXPECT_DOUBLE_EQ(*P.percentOf("check_bounds", "check_bounds", Profile::Metric::Self), 5.10);
  EXPECT_DOUBLE_EQ(*P.percentOf("check_bounds", "check_bounds", Profile::Metric::Inclusive), 45.0);
  EXPECT_DOUBLE_EQ(*P.percentOf("should_failslab", "should_failslab", Profile::Metric::Self), 0.61);
  EXPECT_FALSE(P.percentOf("other", "other", Profile::Metric::Self));
}

TEST(Profile, PerfReportCallGraphLinesAreSkipped) {
  Profile P = parse("    13.47%  eb  eb  [.] check_setget_bounds\n"
                    "            |\n"
                    "            ---check_setget_bounds\n"
                    "               |--7.38%--main\n"
                    "               |          __libc_start_call_main\n"
                    "               __libc_start_call_main\n"
                    "     5.54%  eb  eb  [.] do_set\n");
  EXPECT_DOUBLE_EQ(*P.percentOf("", "check_setget_bounds", Profile::Metric::Self), 13.47);
  EXPECT_DOUBLE_EQ(*P.percentOf("", "do_set", Profile::Metric::Self), 5.54);
}

TEST(Profile, FoldedStacksSelfAndInclusive) {
  Profile P = parse("main;load;parse_key 30\nmain;load;parse_key;memcmp 10\n"
                    "main;load 50\nmain;rec;rec;rec 10\n");
  EXPECT_DOUBLE_EQ(*P.percentOf("", "parse_key", Profile::Metric::Self), 30.0);
  EXPECT_DOUBLE_EQ(*P.percentOf("", "parse_key", Profile::Metric::Inclusive), 40.0);
  // A recursive frame counts once per stack.
  EXPECT_DOUBLE_EQ(*P.percentOf("", "rec", Profile::Metric::Inclusive), 10.0);
  EXPECT_DOUBLE_EQ(*P.percentOf("", "main", Profile::Metric::Inclusive), 100.0);
}

TEST(Profile, CxxNamesMatchQualifiedThenPlain) {
  Profile P = parse("    9.00%  db  db  [.] store::Page::checkRange(unsigned long, unsigned long) const\n");
  EXPECT_DOUBLE_EQ(*P.percentOf("store::Page::checkRange", "checkRange", Profile::Metric::Self), 9.0);
  EXPECT_EQ(Profile::normalizeSymbol("f.isra.0"), "f");
  EXPECT_EQ(Profile::normalizeSymbol("ns::C::f(int) const"), "ns::C::f");
}

TEST(Profile, ErrorsNameTheLine) {
  EXPECT_EQ(error("    5.10%  b  b  [.] f\nnot a line\n"),
            "profile 'test.txt': line 2: expected a perf report line ('5.10%  command  object  "
            "[.] symbol') or folded stacks ('a;b;c 123')");
  EXPECT_EQ(error("a;b 3\na;b\n"),
            "profile 'test.txt': line 2: expected 'frame;frame;... COUNT' (folded stacks)");
  EXPECT_EQ(error("    5.10%  b  b  f\n"), "profile 'test.txt': line 1: no '[.] symbol' or '[k] symbol' column");
  EXPECT_EQ(error("# nothing\n\n"), "profile 'test.txt': no samples in it");
  EXPECT_EQ(error(llvm::StringRef("a 1\n\0\1", 6)),
            "profile 'test.txt': not a text profile (NUL byte at offset 4)");
}

TEST(Profile, PerfCallGraphsWithUnnamedFrames) {
  // perf report --stdio --no-children -g of a program without frame
  // pointers: frames perf could not name are bare addresses, indented.
  Profile P = parse("# Overhead  Command  Shared Object  Symbol\n"
                    "     1.25%  xfs_repair  xfs_repair  [.] check_nsec\n"
                    "            |\n"
                    "            ---check_nsec\n"
                    "               process_inode_chunk\n"
                    "               0\n"
                    "               0x7f3a2c41d249\n"
                    "     0.40%  xfs_repair  libc.so.6  [.] __memset_avx2_unaligned_erms\n"
                    "    48.00%  xfs_repair  [kernel.kallsyms]  [k] clear_page_erms\n");
  EXPECT_DOUBLE_EQ(*P.percentOf("", "clear_page_erms", Profile::Metric::Removable), 100.0);
  EXPECT_DOUBLE_EQ(*P.percentOf("", "check_nsec", Profile::Metric::Self), 1.25);
  // Removable: of user space's samples (1.25 + 0.40).
  EXPECT_DOUBLE_EQ(*P.percentOf("", "check_nsec", Profile::Metric::Removable),
                   100.0 * 1.25 / 1.65);
  EXPECT_FALSE(P.callsOf("", "check_nsec"));
  // Unindented, a line that is no entry is still an error.
  EXPECT_EQ(error("     1.25%  x  x  [.] f\n0x7f3a\n"),
            "profile 'test.txt': line 2: expected a perf report line ('5.10%  command  object  "
            "[.] symbol') or folded stacks ('a;b;c 123')");
}

// A callgrind output file, name-compressed as valgrind writes it: main
// calls check (2 calls, 40 instructions in all) and report (once, 500).
const char Callgrind[] = "# callgrind format\n"
                         "version: 1\n"
                         "creator: callgrind-3.19.0\n"
                         "cmd: ./prog\n"
                         "positions: line\n"
                         "events: Ir\n"
                         "summary: 1000\n"
                         "\n"
                         "fl=(1) /src/prog.c\n"
                         "fn=(1) main\n"
                         "10 300\n"
                         "cfn=(2) check\n"
                         "calls=2 20\n"
                         "+1 40\n"
                         "cfn=(3) report'2\n"
                         "calls=1 30\n"
                         "12 500\n"
                         "\n"
                         "fn=(2)\n"
                         "20 40\n"
                         "\n"
                         "fn=(3)\n"
                         "30 160\n"
                         "* 0\n"
                         "totals: 1000\n";

TEST(Profile, CallgrindInstructionsAndCalls) {
  Profile P = parse(Callgrind);
  EXPECT_EQ(P.source(), Profile::Source::Callgrind);
  EXPECT_DOUBLE_EQ(*P.percentOf("", "check", Profile::Metric::Self), 4.0);
  EXPECT_DOUBLE_EQ(*P.percentOf("", "main", Profile::Metric::Self), 30.0);
  EXPECT_DOUBLE_EQ(*P.percentOf("", "main", Profile::Metric::Inclusive), 84.0);
  EXPECT_DOUBLE_EQ(*P.percentOf("", "report", Profile::Metric::Inclusive), 16.0);
  EXPECT_EQ(*P.callsOf("", "check"), 2u);
  EXPECT_EQ(*P.callsOf("", "report"), 1u);
  // Removable: the inclusive 40 instructions and the 2 calls' overhead.
  EXPECT_DOUBLE_EQ(*P.percentOf("", "check", Profile::Metric::Removable),
                   4.0 + 100.0 * 2 * Profile::CallOverhead / 1000);
  EXPECT_EQ(P.describe(Profile::Metric::Removable),
            "instructions removable (inclusive, and 6 per call its callers make)");
  EXPECT_EQ(P.describe(Profile::Metric::Self), "self instructions");
}

TEST(Profile, CallgrindErrors) {
  EXPECT_EQ(error("# callgrind format\nevents: Ir\nfn=f\n10 x\n"),
            "profile 'test.txt': line 4: expected a cost line ('POSITION COST...')");
  EXPECT_EQ(error("# callgrind format\nfn=f\n10 3\n"),
            "profile 'test.txt': a callgrind file with no 'events:' line");
  EXPECT_EQ(error("# callgrind format\nevents: Ir\nfn=f\ncalls=x 3\n"),
            "profile 'test.txt': line 4: expected 'calls=COUNT TARGET'");
}

} // namespace
