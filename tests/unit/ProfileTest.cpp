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

} // namespace
