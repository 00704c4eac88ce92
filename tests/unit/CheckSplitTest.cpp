//===--- CheckSplitTest.cpp - hotpath-check-split in process --------------===//
//
// Each test runs the check on a small program and asserts the exact
// diagnostics (line, column, message) and the exact fixed text; fixed code is
// run through the check again to prove it compiles and is left alone.
//
//===----------------------------------------------------------------------===//

#include "checks/CheckSplitCheck.h"
#include "TestHelpers.h"
#include "gtest/gtest.h"

using hotpath::CheckSplitCheck;
using hotpath::test::CheckTester;
using hotpath::test::Diag;
using hotpath::test::expectStable;
using hotpath::test::RunResult;

namespace {

const CheckTester<CheckSplitCheck> Split("hotpath-check-split");

std::string multiMessage(const std::string &Name, unsigned N) {
  return "check function '" + Name + "' tests " + std::to_string(N) +
         " conditions on a hot path; merge them into one unlikely branch and "
         "move the reporting to a cold function";
}

const char *const Accessors = R"c(
unsigned get8(const struct buf *b, unsigned int off) { return check_bounds(b, off, 1) ? b->data[off] : 0; }
unsigned get16(const struct buf *b, unsigned int off) { return check_bounds(b, off, 2) ? b->data[off] : 0; }
unsigned get32(const struct buf *b, unsigned int off) { return check_bounds(b, off, 4) ? b->data[off] : 0; }
unsigned sum8(const struct buf *b) { unsigned s = 0; for (unsigned i = 0; i < 8; i++) s += get8(b, i); return s; }
)c";

TEST(CheckSplit, StaticTwoBranchWithImpliedCondition) {
  std::string Code = R"c(#include <stdbool.h>
#include <stdio.h>
struct buf { unsigned long len; unsigned char *data; };
static bool check_bounds(const struct buf *b, unsigned int off, unsigned int size)
{
	const unsigned long end = (unsigned long)off + size;
	unsigned long unused_in_fast_path = b->len - off;

	if (off > b->len) {
		fprintf(stderr, "start %u %lu\n", off, unused_in_fast_path);
		return false;
	}
	if (end > b->len) {
		fprintf(stderr, "end %lu\n", end);
		return false;
	}
	return true;
}
)c" + std::string(Accessors);
  RunResult R = Split.run(Code);
  ASSERT_EQ(R.Diags, (std::vector<Diag>{
                         Split.warning(4, 13, multiMessage("check_bounds", 2)),
                         Split.note(4, 13, "'check_bounds' is hot: called by get8 (input.c:20), which is "
                                    "called in a loop in sum8 (input.c:23)"),
                         Split.note(9, 6, "this condition implies 'end > b->len' (the sum cannot "
                                    "wrap), so the fast path tests only that one"),
                     }))
      << R.dump();
  std::string Expected = R"c(#include <stdbool.h>
#include <stdio.h>
struct buf { unsigned long len; unsigned char *data; };
static __attribute__((noinline, cold)) bool check_bounds_report(const struct buf *b, unsigned int off, unsigned int size)
{
	const unsigned long end = (unsigned long)off + size;
	unsigned long unused_in_fast_path = b->len - off;

	if (off > b->len) {
		fprintf(stderr, "start %u %lu\n", off, unused_in_fast_path);
		return false;
	}
	if (end > b->len) {
		fprintf(stderr, "end %lu\n", end);
		return false;
	}
	return true;
}

static inline bool check_bounds(const struct buf *b, unsigned int off, unsigned int size)
{
	const unsigned long end = (unsigned long)off + size;
	if (__builtin_expect(end > b->len, 0)) {
		(void)check_bounds_report(b, off, size);
		return false;
	}
	return true;
}
)c" + std::string(Accessors);
  EXPECT_EQ(R.fixed(), Expected);
  expectStable(Split.run(R.fixed()));
}

TEST(CheckSplit, SignedSizeKeepsBothConditionsJoinedWithOr) {
  std::string Code = R"c(#include <stdbool.h>
#include <stdio.h>
struct buf { unsigned long len; unsigned char *data; };
static bool check_bounds(const struct buf *b, unsigned long off, int size)
{
	unsigned long end = off + size;
	if (off > b->len) { fprintf(stderr, "start\n"); return false; }
	if (end > b->len) { fprintf(stderr, "end\n"); return false; }
	return true;
}
unsigned get(const struct buf *b, unsigned n) { unsigned s = 0; for (unsigned i = 0; i < n; i++) s += check_bounds(b, i, 4); return s; }
)c";
  RunResult R = Split.run(Code);
  ASSERT_EQ(R.Diags.size(), 2u) << R.dump();
  EXPECT_EQ(R.Diags[1], Split.note(4, 13, "'check_bounds' is hot: 1 call site, 1 in loops"));
  EXPECT_NE(R.fixed().find("\tunsigned long end = off + size;\n"
                           "\tif (__builtin_expect(off > b->len || end > b->len, 0)) {\n"
                           "\t\t(void)check_bounds_report(b, off, size);\n"
                           "\t\treturn false;\n"),
            std::string::npos)
      << R.fixed();
  expectStable(Split.run(R.fixed()));
}

TEST(CheckSplit, HeaderDeclarationGetsTheFastPath) {
  std::map<std::string, std::string> Extra = {{"eb.h", R"c(#pragma once
#include <stdbool.h>
#define unlikely(x) __builtin_expect(!!(x), 0)
struct eb { unsigned long len; };
bool check_eb(const struct eb *eb, unsigned int off, unsigned int size);
#define GETTER(n) int get##n(const struct eb *eb, unsigned int off) { return check_eb(eb, off, n); }
)c"}};
  std::string Code = R"c(#include <stdio.h>
#include "eb.h"
bool check_eb(const struct eb *eb, unsigned int off, unsigned int size)
{
	const unsigned long end = (unsigned long)off + size;
	if (off > eb->len) { fprintf(stderr, "start %u\n", off); return false; }
	if (end > eb->len) { fprintf(stderr, "end %lu\n", end); return false; }
	return true;
}
)c";
  RunResult R = Split.run(Code, "input.c", {}, Extra);
  ASSERT_EQ(R.Diags.size(), 3u) << R.dump();
  EXPECT_EQ(R.Diags[0], Split.warning(3, 6, multiMessage("check_eb", 2)));
  EXPECT_EQ(R.Diags[1], Split.note(3, 6, "'check_eb' is hot: called by accessor macro 'GETTER'"));
  EXPECT_EQ(R.Files["eb.h"], R"c(#pragma once
#include <stdbool.h>
#define unlikely(x) __builtin_expect(!!(x), 0)
struct eb { unsigned long len; };
__attribute__((noinline, cold)) bool check_eb_report(const struct eb *eb, unsigned int off, unsigned int size);

static inline bool check_eb(const struct eb *eb, unsigned int off, unsigned int size)
{
	const unsigned long end = (unsigned long)off + size;
	if (unlikely(end > eb->len)) {
		(void)check_eb_report(eb, off, size);
		return false;
	}
	return true;
}
#define GETTER(n) int get##n(const struct eb *eb, unsigned int off) { return check_eb(eb, off, n); }
)c");
  EXPECT_NE(R.fixed().find("__attribute__((noinline, cold)) bool check_eb_report(const "
                           "struct eb *eb, unsigned int off, unsigned int size)\n{"),
            std::string::npos)
      << R.fixed();
  expectStable(Split.run(R.fixed(), "input.c", {}, {{"eb.h", R.Files["eb.h"]}}));
}

TEST(CheckSplit, ExternalWithoutHeaderHasNoFix) {
  std::string Code = R"c(#include <stdio.h>
int check_len(unsigned long len, unsigned long max)
{
	if (len == 0) { puts("empty"); return -1; }
	if (len > max) { puts("long"); return -1; }
	return 0;
}
int f(unsigned long n) { int r = 0; while (n--) r += check_len(n, 64); return r; }
)c";
  RunResult R = Split.run(Code);
  ASSERT_EQ(R.Diags.size(), 3u) << R.dump();
  EXPECT_EQ(R.Diags[2], Split.note(2, 5, "no fix: it has external linkage and no declaration in "
                                   "a header to put the inline fast path in"));
  EXPECT_EQ(R.fixed(), Code);
}

TEST(CheckSplit, SingleBranchNeedsMoreHeat) {
  std::string Check1 = R"c(#include <stdio.h>
static int check_slot(unsigned slot, unsigned mask)
{
	if (slot > mask) {
		fprintf(stderr, "slot %u\n", slot);
		return -1;
	}
	return 0;
}
)c";
  // Three plain calls: enough for a multi-branch check, not for one branch.
  std::string Cold = Check1 + "int f(unsigned a) { return check_slot(a, 1) + "
                              "check_slot(a, 2) + check_slot(a, 3); }\n";
  EXPECT_TRUE(Split.run(Cold).Diags.empty()) << Split.run(Cold).dump();
  // In loops: 3 + 2*3 = 9 points.
  std::string Hot = Check1 + "int f(unsigned n) { int r = 0; for (unsigned i = 0; i < n; i++) "
                             "r += check_slot(i, 1) + check_slot(i, 2) + check_slot(i, 3); "
                             "return r; }\n";
  RunResult R = Split.run(Hot);
  ASSERT_EQ(R.Diags.size(), 2u) << R.dump();
  EXPECT_EQ(R.Diags[0],
            Split.warning(2, 12, "check function 'check_slot' keeps its reporting code inline on "
                           "a hot path; move it to a cold function so the check can be "
                           "inlined"));
  EXPECT_NE(R.fixed().find("static inline int check_slot(unsigned slot, unsigned mask)\n{\n"
                           "\tif (__builtin_expect(slot > mask, 0)) {\n"
                           "\t\t(void)check_slot_report(slot, mask);\n\t\treturn -1;\n\t}\n"
                           "\treturn 0;\n}"),
            std::string::npos)
      << R.fixed();
  // The thresholds are options: one call in a loop is 3 points.
  std::string Warm = Check1 + "int f(unsigned n) { int r = 0; for (unsigned i = 0; i < n; i++) "
                              "r += check_slot(i, 1); return r; }\n";
  EXPECT_TRUE(Split.run(Warm).Diags.empty()) << Split.run(Warm).dump();
  EXPECT_EQ(Split.run(Warm, "input.c", {{"SingleBranchThreshold", "3"}}).Diags.size(), 2u);
  // Plain call sites alone never make a single-branch check hot, whatever
  // the threshold: they may all run once per command (debugfs).
  RunResult Plain = Split.run(Cold, "input.c", {{"SingleBranchThreshold", "3"}});
  EXPECT_TRUE(Plain.Diags.empty()) << Plain.dump();
  EXPECT_TRUE(Split.run(Hot, "input.c", {{"SingleBranchThreshold", "10"}}).Diags.empty());
  RunResult Named = Split.run(Check1 + "int f(unsigned a) { return check_slot(a, 1); }\n", "input.c",
                        {{"HotFunctions", "other; check_slot"}});
  ASSERT_EQ(Named.Diags.size(), 2u) << Named.dump();
  EXPECT_EQ(Named.Diags[1].Message,
            "'check_slot' is hot: 1 call site, named hot by the HotFunctions option");
  // Named by a rule set, the note names the rule set.
  hotpath::test::TempFile Rules("name: my-project\nhot_functions: [check_slot]\n");
  RunResult ByRules = Split.run(Check1 + "int f(unsigned a) { return check_slot(a, 1); }\n",
                                "input.c", {{"RuleSet", Rules.path()}});
  ASSERT_EQ(ByRules.Diags.size(), 2u) << ByRules.dump();
  EXPECT_EQ(ByRules.Diags[1].Message,
            "'check_slot' is hot: 1 call site, named hot by the rule set 'my-project'");
}

TEST(CheckSplit, CallsInsideAssertMacrosCountAsHeat) {
  std::string Code = R"c(#include <stdbool.h>
#include <stdio.h>
#define ASSERT(e) ((void)(e))
static bool ok(unsigned long off, unsigned long len)
{
	if (off > len) { printf("start\n"); return false; }
	if (off + 4 > len) { printf("end\n"); return false; }
	return true;
}
void a(unsigned long o) { ASSERT(ok(o, 8)); }
void b(unsigned long o) { ASSERT(ok(o, 16)); }
)c";
  RunResult R = Split.run(Code);
  // The assert casts the result to void: the third note says the caller
  // may test the bound itself (issue 11's build-mode finding).
  ASSERT_EQ(R.Diags.size(), 3u) << R.dump();
  EXPECT_EQ(R.Diags[1].Message, "'ok' is hot: 2 call sites, 2 inside assert-like macros");
  EXPECT_EQ(R.Diags[2].Message.rfind("this call throws away what 'ok' returns", 0), 0u)
      << R.dump();
}

struct Refusal {
  const char *Name;
  std::string Code;
  unsigned Line, Col;
  const char *Why;
};

void PrintTo(const Refusal &R, std::ostream *OS) { *OS << R.Name; }

class CheckSplitRefuses : public ::testing::TestWithParam<Refusal> {};

/// \p Body (which defines f(unsigned long, unsigned long)) with the headers
/// it needs and a caller that calls f in a loop: hot enough to report.
std::string calledInALoop(const std::string &Body) {
  return "#include <stdbool.h>\n#include <stdio.h>\n" + Body +
         "int use(unsigned long n) { int r = 0; for (unsigned long i = 0; i < n; "
         "i++) r += f(i, n); return r; }\n";
}

TEST_P(CheckSplitRefuses, ExplainsWhyThereIsNoFix) {
  const Refusal &P = GetParam();
  std::string Code = calledInALoop(P.Code);
  RunResult R = Split.run(Code);
  ASSERT_EQ(R.Diags.size(), 3u) << R.dump();
  EXPECT_EQ(R.Diags[0].Level, "warning");
  EXPECT_EQ(R.Diags[2], Split.note(P.Line, P.Col, std::string("no fix: ") + P.Why)) << R.dump();
  EXPECT_EQ(R.fixed(), Code);
  EXPECT_TRUE(R.errors().empty()) << R.dump();
}

INSTANTIATE_TEST_SUITE_P(
    Cases, CheckSplitRefuses,
    ::testing::Values(
        Refusal{"VolatileRead",
                "volatile unsigned long hw;\n"
                "static int f(unsigned long a, unsigned long b) {\n"
                "  if (a > b) { puts(\"a\"); return 1; }\n"
                "  if (a > hw) { puts(\"b\"); return 1; }\n  return 0;\n}\n",
                6, 11, "the slow path evaluates this condition again, and it reads volatile storage"},
        Refusal{"AtomicRead",
                "_Atomic unsigned long lim;\n"
                "static int f(unsigned long a, unsigned long b) {\n"
                "  if (a > b) { puts(\"a\"); return 1; }\n"
                "  if (a > lim) { puts(\"b\"); return 1; }\n  return 0;\n}\n",
                6, 11, "the slow path evaluates this condition again, and it reads atomic storage"},
        Refusal{"SuccessDoesMore",
                "static unsigned long hits;\n"
                "static int f(unsigned long a, unsigned long b) {\n"
                "  if (a > b) { puts(\"a\"); return 1; }\n"
                "  if (a == 0) { puts(\"b\"); return 1; }\n  hits++;\n  return 0;\n}\n",
                7, 3, "the success path does more than return"},
        Refusal{"Recursive",
                "static int f(unsigned long a, unsigned long b) {\n"
                "  if (a > b) { puts(\"a\"); return f(b, a); }\n"
                "  if (a == 0) { puts(\"b\"); return 1; }\n  return 0;\n}\n",
                3, 12, "it is recursive"},
        Refusal{"AddressTaken",
                "static int f(unsigned long a, unsigned long b) {\n"
                "  if (a > b) { puts(\"a\"); return 1; }\n"
                "  if (a == 0) { puts(\"b\"); return 1; }\n  return 0;\n}\n"
                "int (*fp)(unsigned long, unsigned long) = f;\n",
                3, 12, "its address is taken, and the rewrite would change the function that address names"},
        Refusal{"GuardedDereference",
                "struct n { unsigned long len; };\nstatic struct n *nodes[4];\n"
                "static int f(unsigned long a, unsigned long b) {\n"
                "  const struct n *p = nodes[a & 3];\n"
                "  if (!p) { puts(\"a\"); return 1; }\n"
                "  unsigned long len = p->len;\n"
                "  if (b > len) { puts(\"b\"); return 1; }\n  return 0;\n}\n",
                8, 23,
                "the fast path would evaluate this before the earlier conditions, "
                "and it dereferences a pointer that an earlier condition may guard"},
        Refusal{"GuardedDivision",
                "static int f(unsigned long a, unsigned long b) {\n"
                "  if (b == 0) { puts(\"a\"); return 1; }\n"
                "  unsigned long q = a / b;\n"
                "  if (q > 8) { puts(\"b\"); return 1; }\n  return 0;\n}\n",
                5, 21,
                "the fast path would evaluate this before the earlier conditions, "
                "and it divides by a value that an earlier condition may guard"},
        Refusal{"GuardedSignedOverflow",
                "static int f(unsigned long a, unsigned long b) {\n"
                "  int x = (int)a, y = (int)b;\n"
                "  if (x > 1000) { puts(\"a\"); return 1; }\n"
                "  int z = x * 1000;\n"
                "  if (z > y) { puts(\"b\"); return 1; }\n  return 0;\n}\n",
                6, 11,
                "the fast path would evaluate this before the earlier conditions, "
                "and its signed arithmetic may overflow where an earlier condition would "
                "have stopped it"}),
    [](const ::testing::TestParamInfo<Refusal> &Info) { return Info.param.Name; });

// The fast path joins the conditions with ||: one that an earlier one
// guards is still evaluated only after it, as in the original.
TEST(CheckSplit, JoinedWithOrKeepsTheGuards) {
  std::string Code = R"c(#include <stdbool.h>
#include <stdio.h>
struct n { unsigned long len; };
static struct n *nodes[4];
static int f(unsigned long a, unsigned long b) {
  const struct n *p = nodes[a & 3];
  if (!p) { puts("a"); return 1; }
  if (b > p->len) { puts("b"); return 1; }
  if (b == 0) { puts("c"); return 1; }
  if (a / b > 8) { puts("d"); return 1; }
  return 0;
}
int use(unsigned long n) { int r = 0; for (unsigned long i = 0; i < n; i++) r += f(i, n); return r; }
)c";
  RunResult R = Split.run(Code);
  ASSERT_EQ(R.Diags.size(), 2u) << R.dump();
  EXPECT_NE(R.fixed().find("  const struct n *p = nodes[a & 3];\n"
                           "  if (__builtin_expect(!p || b > p->len || b == 0 || a / b > 8, 0)) {\n"
                           "    (void)f_report(a, b);\n"
                           "    return 1;\n"),
            std::string::npos)
      << R.fixed();
  EXPECT_TRUE(R.errors().empty()) << R.dump();
  expectStable(Split.run(R.fixed()));
}

// Tests that do work (a call not known to be pure, a write) make no check
// function at all: nothing is reported, and explain mode says why.
struct NotACheck {
  const char *Name;
  std::string Code;
  unsigned Line, Col;
  const char *Why;
};

void PrintTo(const NotACheck &N, std::ostream *OS) { *OS << N.Name; }

class CheckSplitNotACheck : public ::testing::TestWithParam<NotACheck> {};

TEST_P(CheckSplitNotACheck, NothingReportedAndExplainSaysWhy) {
  const NotACheck &P = GetParam();
  std::string Code = calledInALoop(P.Code);
  RunResult Quiet = Split.run(Code);
  EXPECT_TRUE(Quiet.Diags.empty()) << Quiet.dump();
  RunResult R = Split.run(Code, "input.c", {{"Explain", "f"}});
  ASSERT_EQ(R.Diags.size(), 2u) << R.dump();
  EXPECT_EQ(R.Diags[0].Level, "remark");
  EXPECT_EQ(R.Diags[1], Split.note(P.Line, P.Col, std::string("not a check function: ") + P.Why))
      << R.dump();
}

INSTANTIATE_TEST_SUITE_P(
    Cases, CheckSplitNotACheck,
    ::testing::Values(
        NotACheck{"ImpureCallInCondition",
                  "unsigned long limit(void);\n"
                  "static int f(unsigned long a, unsigned long b) {\n"
                  "  if (a > b) { puts(\"a\"); return 1; }\n"
                  "  if (a > limit()) { puts(\"b\"); return 1; }\n  return 0;\n}\n",
                  6, 11,
                  "the condition of branch 2 does work besides testing: it calls 'limit', "
                  "which is not known to be pure"},
        NotACheck{"AssignmentInPreamble",
                  "static unsigned long seen;\n"
                  "static int f(unsigned long a, unsigned long b) {\n"
                  "  unsigned long c = (seen = a);\n"
                  "  if (c > b) { puts(\"a\"); return 1; }\n"
                  "  if (a == 0) { puts(\"b\"); return 1; }\n  return 0;\n}\n",
                  5, 22, "the preamble does work besides testing: it assigns"}),
    [](const ::testing::TestParamInfo<NotACheck> &Info) { return Info.param.Name; });

TEST(CheckSplit, VariadicHasNoFix) {
  std::string Code = R"c(#include <stdio.h>
static int f(unsigned long a, unsigned long b, ...)
{
	if (a > b) { puts("a"); return 1; }
	if (a == 0) { puts("b"); return 1; }
	return 0;
}
int use(unsigned long n) { int r = 0; for (unsigned long i = 0; i < n; i++) r += f(i, n); return r; }
)c";
  RunResult R = Split.run(Code);
  ASSERT_EQ(R.Diags.size(), 3u) << R.dump();
  EXPECT_EQ(R.Diags[2], Split.note(2, 12, "no fix: it is variadic"));
}

TEST(CheckSplit, VirtualMemberHasNoFix) {
  std::string Code = R"cc(#include <cstdio>
struct V {
  virtual bool check(unsigned a, unsigned b) const;
};
bool V::check(unsigned a, unsigned b) const {
  if (a > b) { std::puts("a"); return false; }
  if (a == 0) { std::puts("b"); return false; }
  return true;
}
int use(const V &v, unsigned n) { int r = 0; for (unsigned i = 0; i < n; i++) r += v.check(i, n); return r; }
)cc";
  RunResult R = Split.run(Code, "input.cpp");
  ASSERT_EQ(R.Diags.size(), 3u) << R.dump();
  EXPECT_EQ(R.Diags[2],
            Split.note(5, 9, "no fix: it is virtual; calls through the vtable would keep paying for it"));
}

TEST(CheckSplit, AlreadyFastAndColdFunctionsAreNotReported) {
  std::string Code = R"c(#include <stdbool.h>
#include <stdio.h>
__attribute__((cold)) static bool slow(unsigned long a, unsigned long b)
{
	if (a > b) { puts("a"); return false; }
	if (a == 0) { puts("b"); return false; }
	return true;
}
static inline bool fast(unsigned long a, unsigned long b)
{
	if (__builtin_expect((a > b) | (a == 0), 0)) { (void)slow(a, b); return false; }
	return true;
}
int use(unsigned long n) { int r = 0; for (unsigned long i = 0; i < n; i++) r += fast(i, n); return r; }
)c";
  EXPECT_TRUE(Split.run(Code).Diags.empty());
}

TEST(CheckSplit, Cxx20SpellsAttributes) {
  std::string Code = R"cc(#include <cstdio>
static bool inRange(unsigned i, unsigned n) {
  if (i >= n) { std::printf("index\n"); return false; }
  if (n > 64) { std::printf("size\n"); return false; }
  return true;
}
int use(unsigned n) { int r = 0; for (unsigned i = 0; i < n; i++) r += inRange(i, n); return r; }
)cc";
  RunResult R = Split.run(Code, "input.cpp", {}, {}, {"-std=c++20"});
  ASSERT_EQ(R.Diags.size(), 2u) << R.dump();
  EXPECT_NE(R.fixed().find("[[gnu::noinline, gnu::cold]] static bool inRange_report("),
            std::string::npos) << R.fixed();
  EXPECT_NE(R.fixed().find("  if (i >= n || n > 64) [[unlikely]] {\n"
                           "    (void)inRange_report(i, n);\n"),
            std::string::npos)
      << R.fixed();
  expectStable(Split.run(R.fixed(), "input.cpp", {}, {}, {"-std=c++20"}));
}

TEST(CheckSplit, BadRuleSetIsAConfigurationError) {
  RunResult R = Split.run("int x;\n", "input.c", {{"RuleSet", "no-such-preset"}});
  ASSERT_EQ(R.Diags.size(), 1u) << R.dump();
  EXPECT_EQ(R.Diags[0].Level, "error");
  EXPECT_EQ(R.Diags[0].CheckName, "clang-tidy-config");
  EXPECT_EQ(R.Diags[0].Message,
            "hotpath-check-split: unknown rule set 'no-such-preset': give a preset "
            "(generic-gnu-c, linux-kernel, cxx20) or a path to a .yaml file");
}

TEST(CheckSplit, OptionsRoundTrip) {
  std::map<std::string, std::string> Opts = hotpath::test::dumpOptions<CheckSplitCheck>(
      Split.name(), {{"hotpath-check-split.RuleSet", "linux-kernel"}});
  EXPECT_EQ(Opts["hotpath-check-split.RuleSet"], "linux-kernel");
  EXPECT_EQ(Opts["hotpath-check-split.MultiBranchThreshold"], "3");
  EXPECT_EQ(Opts["hotpath-check-split.SingleBranchThreshold"], "8");
  EXPECT_EQ(Opts["hotpath-check-split.ReportSuffix"], "_report");
}

} // namespace

namespace {
TEST(CheckSplit, CodeThatDoesNotCompileGetsNoFinding) {
  std::string Code = R"c(#include <stdio.h>
static int check(unsigned long a, unsigned long b)
{
	if (a > b) { puts("a"); return 1; }
	if (a > undefined_limit) { puts("b"); return 1; }
	return 0;
}
int use(unsigned long n) { int r = 0; for (unsigned long i = 0; i < n; i++) r += check(i, n); return r; }
)c";
  RunResult R = Split.run(Code);
  ASSERT_EQ(R.errors().size(), 1u) << R.dump();
  EXPECT_EQ(R.errors()[0].Message, "use of undeclared identifier 'undefined_limit'");
  EXPECT_TRUE(R.diagsOfLevel("warning").empty()) << R.dump();
  EXPECT_EQ(R.fixed(), Code);
}
} // namespace
