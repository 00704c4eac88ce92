//===--- HeatTest.cpp - heat that follows the program ---------------------===//
//
// A check or hook call is hot when the program runs it often: some chain of
// calls that reaches it has loops on it (heat/CallGraph.h), in this TU or,
// with a project index, across files. Each case has a control that differs
// only in the loop.
//
//===----------------------------------------------------------------------===//

#include "checks/CheckSplitCheck.h"
#include "checks/HookGateCheck.h"
#include "index/ProjectIndex.h"
#include "TestHelpers.h"
#include "gtest/gtest.h"
#include "llvm/Support/FileSystem.h"

using namespace hotpath;
using hotpath::test::CheckTester;
using hotpath::test::Diag;
using hotpath::test::RunResult;

namespace {

const CheckTester<CheckSplitCheck> Split("hotpath-check-split");
const CheckTester<HookGateCheck> Gate("hotpath-hook-gate");

const char TwoBranch[] = R"c(#include <stdbool.h>
#include <stdio.h>
struct buf { unsigned long len; };
static bool check_two(const struct buf *b, unsigned long off, unsigned long n)
{
	if (off > b->len) {
		fprintf(stderr, "start %lu\n", off);
		return false;
	}
	if (n > b->len - off) {
		fprintf(stderr, "end %lu\n", n);
		return false;
	}
	return true;
}
)c";

/// Messages of the warnings of \p R.
std::vector<std::string> warnings(const RunResult &R) {
  std::vector<std::string> Out;
  for (const Diag &D : R.diagsOfLevel("warning"))
    Out.push_back(D.Message);
  return Out;
}

/// The notes of \p R that start with \p Prefix.
std::vector<std::string> notesStarting(const RunResult &R, llvm::StringRef Prefix) {
  std::vector<std::string> Out;
  for (const Diag &D : R.diagsOfLevel("note"))
    if (llvm::StringRef(D.Message).starts_with(Prefix))
      Out.push_back(D.Message);
  return Out;
}

TEST(Heat, ACheckReachedThroughAHelperCalledInALoopIsHot) {
  // check_two has one plain call site: its own call sites say nothing. Its
  // caller get() is called in a loop: that makes it hot.
  std::string Hot = std::string(TwoBranch) +
                    "static int get(const struct buf *b, unsigned long off)\n"
                    "{\n\treturn check_two(b, off, 1) ? 1 : 0;\n}\n"
                    "int walk(const struct buf *b, int n)\n{\n\tint s = 0;\n"
                    "\tfor (int i = 0; i < n; i++)\n\t\ts += get(b, (unsigned long)i);\n"
                    "\treturn s;\n}\n";
  RunResult R = Split.run(Hot, "input.c", {{"Explain", "check_two"}});
  EXPECT_EQ(warnings(R).size(), 1u) << R.dump();
  EXPECT_EQ(notesStarting(R, "'check_two' is hot"),
            std::vector<std::string>{"'check_two' is hot: called by get (input.c:18), which is "
                                     "called in a loop in walk (input.c:24)"})
      << R.dump();
  EXPECT_EQ(notesStarting(R, "hot:"),
            std::vector<std::string>{"hot: called by get (input.c:18), which is called in a "
                                     "loop in walk (input.c:24) (1 loop(s) on the chain, 1 "
                                     "needed)"})
      << R.dump();
  // Control: the same helper called once, outside any loop.
  std::string Cold = Hot;
  Cold.replace(Cold.find("\tfor (int i = 0; i < n; i++)\n\t\t"), 31, "\t");
  ASSERT_EQ(Cold.find("for ("), std::string::npos);
  RunResult C = Split.run(Cold, "input.c", {{"Explain", "check_two"}});
  EXPECT_TRUE(warnings(C).empty()) << C.dump();
  EXPECT_EQ(notesStarting(C, "not hot:").size(), 1u) << C.dump();
}

const char OneBranch[] = R"c(#include <stdbool.h>
#include <stdio.h>
struct buf { unsigned long len; };
static bool check_one(const struct buf *b, unsigned long off)
{
	if (off > b->len) {
		fprintf(stderr, "bad %lu\n", off);
		return false;
	}
	return true;
}
static int get(const struct buf *b, unsigned long off)
{
	return check_one(b, off) ? 1 : 0;
}
)c";

TEST(Heat, ACheckWithOneBranchNeedsNestedLoopsOnItsChain) {
  // Small validators are called from everywhere: one loop on the chain is
  // not enough for a check with one branch, two are.
  std::string One = std::string(OneBranch) +
                    "int walk(const struct buf *b, int n)\n{\n\tint s = 0;\n"
                    "\tfor (int i = 0; i < n; i++)\n\t\ts += get(b, (unsigned long)i);\n"
                    "\treturn s;\n}\n";
  EXPECT_TRUE(warnings(Split.run(One)).empty());
  std::string Two = std::string(OneBranch) +
                    "int walk(const struct buf *b, int n)\n{\n\tint s = 0;\n"
                    "\tfor (int i = 0; i < n; i++)\n\t\tfor (int j = 0; j < n; j++)\n"
                    "\t\t\ts += get(b, (unsigned long)(i * j));\n"
                    "\treturn s;\n}\n";
  RunResult R = Split.run(Two, "input.c", {{"Explain", "check_one"}});
  EXPECT_EQ(warnings(R).size(), 1u) << R.dump();
  EXPECT_EQ(notesStarting(R, "hot:"),
            std::vector<std::string>{"hot: called by get (input.c:14), which is called in 2 "
                                     "nested loops in walk (input.c:21) (2 loop(s) on the "
                                     "chain, 2 needed)"})
      << R.dump();
}

/// A temporary index file, removed with the test.
class IndexOnDisk {
public:
  explicit IndexOnDisk(std::vector<index::Function> Functions) {
    llvm::sys::fs::createUniqueDirectory("hotpath-heat-test", Dir);
    index::IndexFile F;
    F.K = index::IndexFile::Kind::Index;
    F.Functions = std::move(Functions);
    Path = (Dir + "/index.json").str();
    EXPECT_FALSE(static_cast<bool>(index::writeIndexFile(Path, F)));
  }
  ~IndexOnDisk() { llvm::sys::fs::remove_directories(Dir); }
  const std::string &path() const { return Path; }

private:
  llvm::SmallString<128> Dir;
  std::string Path;
};

index::CallSite call(std::string File, unsigned Line, std::string Caller, unsigned Loops) {
  index::CallSite C;
  C.Loc = {std::move(File), Line, 9};
  C.CallerUSR = "c:@F@" + Caller;
  C.Caller = std::move(Caller);
  C.Loops = Loops;
  C.InLoop = Loops > 0;
  return C;
}

index::Function function(std::string Name, std::vector<index::CallSite> Calls) {
  index::Function F;
  F.USR = "c:@F@" + Name;
  F.Name = std::move(Name);
  F.Calls = std::move(Calls);
  return F;
}

/// A two-branch check defined here; the index says who calls it.
const char *const CheckLen = R"c(#include <stdbool.h>
#include <stdio.h>
struct rec { unsigned long len; };
bool check_len(const struct rec *r, unsigned long off, unsigned long n)
{
	if (off > r->len) {
		fprintf(stderr, "start\n");
		return false;
	}
	if (n > r->len - off) {
		fprintf(stderr, "end\n");
		return false;
	}
	return true;
}
)c";

TEST(Heat, TheChainCrossesFilesThroughTheIndex) {
  // check_len is defined here and called only in another file, once, by
  // item_get(), which a third file calls in a loop, in a function called in
  // a loop, itself called in two nested loops: 4 loops, 2^20 runs.
  const char *Code = CheckLen;
  IndexOnDisk Hot({function("check_len", {call("/p/items.c", 38, "item_get", 0)}),
                   function("item_get", {call("/p/tree.c", 64, "walk_leaf", 1)}),
                   function("walk_leaf", {call("/p/tree.c", 90, "walk_tree", 1)}),
                   function("walk_tree", {call("/p/check.c", 120, "fsck", 2)})});
  RunResult R =
      Split.run(Code, "index-chain.c", {{"ProjectIndex", Hot.path()}, {"Explain", "check_len"}});
  EXPECT_EQ(warnings(R).size(), 1u) << R.dump();
  EXPECT_EQ(notesStarting(R, "hot:"),
            std::vector<std::string>{"hot: called by item_get (items.c:38), which is called "
                                     "in a loop in walk_leaf (tree.c:64), which is called in "
                                     "a loop in walk_tree (tree.c:90), which is called in 2 "
                                     "nested loops in fsck (check.c:120) (2^20 runs "
                                     "estimated: 4 loop(s), 0 branch(es) on the chain; 2^20 "
                                     "needed)"})
      << R.dump();
  // Controls: item_get called once; walk_tree called in one loop (3 loops,
  // 2^15 runs: the index shows every caller, and fsck runs once).
  IndexOnDisk Cold({function("check_len", {call("/p/items.c", 38, "item_get", 0)}),
                    function("item_get", {call("/p/tree.c", 64, "walk_leaf", 0)})});
  EXPECT_TRUE(warnings(Split.run(Code, "index-chain.c", {{"ProjectIndex", Cold.path()}})).empty());
  IndexOnDisk OneLoop({function("check_len", {call("/p/items.c", 38, "item_get", 0)}),
                       function("item_get", {call("/p/tree.c", 64, "walk_leaf", 1)}),
                       function("walk_leaf", {call("/p/tree.c", 90, "walk_tree", 1)}),
                       function("walk_tree", {call("/p/check.c", 120, "fsck", 1)})});
  RunResult One = Split.run(Code, "index-chain.c",
                            {{"ProjectIndex", OneLoop.path()}, {"Explain", "check_len"}});
  EXPECT_TRUE(warnings(One).empty()) << One.dump();
  EXPECT_EQ(notesStarting(One, "not hot: heat score"),
            std::vector<std::string>{
                "not hot: heat score 1 (called from 1 call site in items.c) against "
                "MultiBranchThreshold 3; a call site scores 1, in a loop 2 more, from a "
                "macro-generated accessor 4 more, in an assert-like macro 1 more"})
      << One.dump();
}

TEST(Heat, NeitherAFailureBranchNorRecursionAddsLoops) {
  // The same loops, but the call to item_get handles a failure (cold): heat
  // does not flow through it. And a recursive walk in a loop over children
  // (a tree walk) visits each node once: its self-call adds no loop.
  const char *Code = CheckLen;
  index::CallSite Cold = call("/p/tree.c", 64, "walk_leaf", 1);
  Cold.Cold = true;
  IndexOnDisk Failure({function("check_len", {call("/p/items.c", 38, "item_get", 0)}),
                       function("item_get", {Cold}),
                       function("walk_leaf", {call("/p/tree.c", 90, "walk_tree", 3)})});
  EXPECT_TRUE(warnings(Split.run(Code, "index-chain.c", {{"ProjectIndex", Failure.path()}}))
                  .empty());
  // Control: the same call not in a failure branch.
  IndexOnDisk Plain({function("check_len", {call("/p/items.c", 38, "item_get", 0)}),
                     function("item_get", {call("/p/tree.c", 64, "walk_leaf", 1)}),
                     function("walk_leaf", {call("/p/tree.c", 90, "walk_tree", 3)})});
  EXPECT_EQ(warnings(Split.run(Code, "index-chain.c", {{"ProjectIndex", Plain.path()}})).size(),
            1u);
  IndexOnDisk Recursive({function("check_len", {call("/p/tree.c", 38, "walk_tree", 1)}),
                         function("walk_tree", {call("/p/tree.c", 50, "walk_tree", 3),
                                                call("/p/main.c", 9, "main", 0)})});
  EXPECT_TRUE(warnings(Split.run(Code, "index-chain.c", {{"ProjectIndex", Recursive.path()}}))
                  .empty());
  // Control: the same tree walk called in 3 nested loops.
  IndexOnDisk Trees({function("check_len", {call("/p/tree.c", 38, "walk_tree", 1)}),
                     function("walk_tree", {call("/p/tree.c", 50, "walk_tree", 3),
                                            call("/p/main.c", 9, "walk_all", 3)})});
  EXPECT_EQ(warnings(Split.run(Code, "index-chain.c", {{"ProjectIndex", Trees.path()}})).size(),
            1u);
}

TEST(Heat, AnEstimateFollowsAtMostTenCalls) {
  // Four loops, but the last two are 11 calls away: each call hides early
  // returns the walk does not count, so the estimate stops at 10 calls.
  // Control: the same loops 10 calls away.
  const char *Code = CheckLen;
  auto Chain = [](unsigned Calls) {
    // check_len <- f1 (2 loops) <- f2 <- ... <- f<Calls-1> <- top (2 loops)
    std::vector<index::Function> Fs;
    Fs.push_back(function("check_len", {call("/p/a.c", 1, "f1", 2)}));
    for (unsigned I = 1; I + 1 < Calls; ++I)
      Fs.push_back(function("f" + std::to_string(I),
                            {call("/p/a.c", 10 + I, "f" + std::to_string(I + 1), 0)}));
    Fs.push_back(function("f" + std::to_string(Calls - 1), {call("/p/a.c", 99, "top", 2)}));
    return Fs;
  };
  IndexOnDisk Far(Chain(11));
  EXPECT_TRUE(warnings(Split.run(Code, "index-chain.c", {{"ProjectIndex", Far.path()}})).empty());
  IndexOnDisk Near(Chain(10));
  EXPECT_EQ(warnings(Split.run(Code, "index-chain.c", {{"ProjectIndex", Near.path()}})).size(),
            1u);
}

TEST(Heat, AHookCallIsHotWhenItsCallerRunsInALoop) {
  // The hook call is in alloc(), outside any loop; so is alloc()'s call in
  // one_slot(), whose caller loops: two calls away, as a slab allocator's
  // hook is from the loops that allocate.
  std::string Code = R"c(#include <stdbool.h>
__attribute__((noinline)) bool should_fail(unsigned long n)
{
	(void)n;
	return false;
}
static void *alloc(unsigned long n)
{
	if (should_fail(n))
		return 0;
	return (void *)n;
}
static int one_slot(void **slot, unsigned long n)
{
	return (*slot = alloc(n)) != 0;
}
int fill(void **slots, int count)
{
	int made = 0;
	for (int i = 0; i < count; i++)
		made += one_slot(&slots[i], (unsigned long)i + 1);
	return made;
}
)c";
  RunResult R = Gate.run(Code, "input.c", {{"NewGateWithSetters", "true"}});
  std::vector<std::string> W = warnings(R);
  EXPECT_NE(std::find(W.begin(), W.end(),
                      "hot call to hook 'should_fail', which does nothing unless switched on; "
                      "test an inline gate first so the disabled case makes no call"),
            W.end())
      << R.dump();
  // Control: fill() calls alloc() once.
  std::string Once = Code;
  Once.replace(Once.find("\tfor (int i = 0; i < count; i++)\n\t\t"), 34, "\t");
  ASSERT_EQ(Once.find("for ("), std::string::npos);
  EXPECT_TRUE(warnings(Gate.run(Once, "input.c", {{"NewGateWithSetters", "true"}})).empty());
}

/// A slab allocator's path, reduced: the entry point kmem_cache_alloc_node()
/// calls the always-inline slab_alloc_node(), which calls the static inline
/// slab_pre_alloc_hook(), which calls the hook should_failslab() with no
/// branch on the way; no loop anywhere. drain() calls the hook too, from
/// no entry point; kmem_cache_alloc_node() calls refill() only on a slow
/// path.
const char SlabPath[] = R"c(#include <stdbool.h>
struct kmem_cache { unsigned long size; };
__attribute__((noinline)) bool should_failslab(struct kmem_cache *s)
{
	(void)s;
	return false;
}
static inline struct kmem_cache *slab_pre_alloc_hook(struct kmem_cache *s)
{
	if (should_failslab(s))
		return 0;
	return s;
}
static __attribute__((always_inline)) inline void *slab_alloc_node(struct kmem_cache *s)
{
	s = slab_pre_alloc_hook(s);
	if (!s)
		return 0;
	return (void *)s->size;
}
static void refill(struct kmem_cache *s)
{
	if (should_failslab(s))
		s->size = 0;
}
void *kmem_cache_alloc_node(struct kmem_cache *s, int node)
{
	if (node > 64)
		refill(s);
	return slab_alloc_node(s);
}
int drain(struct kmem_cache *s)
{
	return should_failslab(s) ? 0 : 1;
}
)c";

const char HotCall[] = "hot call to hook 'should_failslab', which does nothing unless switched "
                       "on; test an inline gate first so the disabled case makes no call";

/// The lines of \p R's hot calls to should_failslab, in order.
std::vector<unsigned> hotCallLines(const RunResult &R) {
  std::vector<unsigned> Out;
  for (const Diag &D : R.diagsOfLevel("warning"))
    if (D.Message == HotCall)
      Out.push_back(D.Line);
  return Out;
}

TEST(Heat, AHookCallBelowAHotEntryPointThroughInlineHelpersIsHot) {
  // The rule set's glob names kmem_cache_alloc_node: the hook's call two
  // inline functions below it is hot, and the note says the chain. The
  // call in drain(), on no chain from an entry point, and the one in
  // refill(), behind a branch in the entry point, stay cold.
  hotpath::test::TempFile Rules("name: slab\nhot_entry_points: ['kmem_cache_alloc*']\n");
  RunResult R = Gate.run(SlabPath, "input.c",
                         {{"RuleSet", Rules.path()}, {"NewGateWithSetters", "true"}});
  EXPECT_EQ(hotCallLines(R), std::vector<unsigned>{10}) << R.dump();
  EXPECT_EQ(notesStarting(R, "'slab_pre_alloc_hook' is hot"),
            std::vector<std::string>{
                "'slab_pre_alloc_hook' is hot: called by slab_alloc_node (input.c:16), which "
                "is called by kmem_cache_alloc_node (input.c:30), a hot entry point of the "
                "rule set 'slab'"})
      << R.dump();
  EXPECT_TRUE(notesStarting(R, "'refill' is hot").empty()) << R.dump();
  EXPECT_TRUE(notesStarting(R, "'drain' is hot").empty()) << R.dump();

  // Controls: no hot entry points (the rule set before them), and a glob
  // that matches none of these functions: no call is hot.
  hotpath::test::TempFile None("name: slab\n");
  EXPECT_TRUE(hotCallLines(Gate.run(SlabPath, "input.c",
                                    {{"RuleSet", None.path()}, {"NewGateWithSetters", "true"}}))
                  .empty());
  hotpath::test::TempFile Other("name: slab\nhot_entry_points: ['kmalloc*', '__alloc_pages']\n");
  EXPECT_TRUE(hotCallLines(Gate.run(SlabPath, "input.c",
                                    {{"RuleSet", Other.path()}, {"NewGateWithSetters", "true"}}))
                  .empty());
  // The glob matches the whole name only: 'kmem_cache_alloc' is not
  // 'kmem_cache_alloc_node'.
  hotpath::test::TempFile Exact("name: slab\nhot_entry_points: [kmem_cache_alloc]\n");
  EXPECT_TRUE(hotCallLines(Gate.run(SlabPath, "input.c",
                                    {{"RuleSet", Exact.path()}, {"NewGateWithSetters", "true"}}))
                  .empty());
}

TEST(Heat, AHookCallInAHotEntryPointItselfIsHot) {
  // drain() named as an entry point: its own call is hot, and the note says
  // so; the slab path's call is no longer.
  hotpath::test::TempFile Rules("name: slab\nhot_entry_points: [drain]\n");
  RunResult R = Gate.run(SlabPath, "input.c",
                         {{"RuleSet", Rules.path()}, {"NewGateWithSetters", "true"}});
  EXPECT_EQ(hotCallLines(R), std::vector<unsigned>{34}) << R.dump();
  EXPECT_EQ(notesStarting(R, "'drain' is hot"),
            std::vector<std::string>{
                "'drain' is hot: it is a hot entry point of the rule set 'slab'"})
      << R.dump();
}

TEST(Heat, ABranchBelowAHotEntryPointMustBePaidForByALoop) {
  // The entry point counts as 2^20 runs, the threshold: a branch around a
  // call on the chain halves it. The branch in kmem_cache_alloc_node()
  // that calls refill() is not paid for; with refill()'s call in a loop it
  // is (2^24), without the project index as with it.
  std::string Loop = SlabPath;
  Loop.replace(Loop.find("\tif (node > 64)\n\t\trefill(s);"), 28,
               "\tif (node > 64)\n\t\tfor (int i = 0; i < node; i++)\n\t\t\trefill(s);");
  hotpath::test::TempFile Rules("name: slab\nhot_entry_points: ['kmem_cache_alloc*']\n");
  RunResult R =
      Gate.run(Loop, "input.c", {{"RuleSet", Rules.path()}, {"NewGateWithSetters", "true"}});
  EXPECT_EQ(hotCallLines(R), (std::vector<unsigned>{10, 23})) << R.dump();
  EXPECT_EQ(notesStarting(R, "'refill' is hot"),
            std::vector<std::string>{
                "'refill' is hot: called in a loop in kmem_cache_alloc_node (input.c:30), a "
                "hot entry point of the rule set 'slab'"})
      << R.dump();
}

TEST(Heat, AnEntryPointNeverHidesALoop) {
  // Without the project index, refill()'s call is hot by the loop in
  // refill_all(), with or without entry points: the chain from the entry
  // point scores more (2^19, one branch) but is not hot, and does not stand
  // in for the loop's. No note names the entry point.
  std::string Code = std::string(SlabPath) +
                     "void refill_all(struct kmem_cache *s, int n)\n{\n"
                     "\tfor (int i = 0; i < n; i++)\n\t\trefill(s + i);\n}\n";
  hotpath::test::TempFile None("name: slab\n");
  EXPECT_EQ(hotCallLines(Gate.run(Code, "input.c",
                                  {{"RuleSet", None.path()}, {"NewGateWithSetters", "true"}})),
            std::vector<unsigned>{23});
  hotpath::test::TempFile Rules("name: slab\nhot_entry_points: ['kmem_cache_alloc*']\n");
  RunResult R =
      Gate.run(Code, "input.c", {{"RuleSet", Rules.path()}, {"NewGateWithSetters", "true"}});
  EXPECT_EQ(hotCallLines(R), (std::vector<unsigned>{10, 23})) << R.dump();
  EXPECT_TRUE(notesStarting(R, "'refill' is hot").empty()) << R.dump();
}

TEST(Heat, WithTheIndexAnEntryPointsChainStopsAtIt) {
  // check_len is called by slab_alloc_node, which the entry point
  // kmem_cache_alloc calls, itself called in 2 nested loops by fill():
  // the chain stops at the entry point (2^20), what calls it is not
  // followed. Controls: a branch around the call in the entry point
  // (2^19); no entry points (the loops in fill() are 3 calls up: 2^10);
  // a caller of check_len that no entry point reaches.
  const char *Code = CheckLen;
  auto Index = [](unsigned Branches, std::string Entry) {
    index::CallSite Mid = call("/p/slub.c", 3422, Entry, 0);
    Mid.Branches = Branches;
    return std::vector<index::Function>{
        function("check_len", {call("/p/slub.c", 3318, "slab_alloc_node", 0)}),
        function("slab_alloc_node", {Mid}),
        function(Entry, {call("/p/fill.c", 12, "fill", 2)})};
  };
  hotpath::test::TempFile Rules("name: slab\nhot_entry_points: ['kmem_cache_alloc*']\n");
  IndexOnDisk Hot(Index(0, "kmem_cache_alloc"));
  RunResult R = Split.run(Code, "index-chain.c",
                          {{"ProjectIndex", Hot.path()},
                           {"RuleSet", Rules.path()},
                           {"Explain", "check_len"}});
  EXPECT_EQ(warnings(R).size(), 1u) << R.dump();
  EXPECT_EQ(notesStarting(R, "hot:"),
            std::vector<std::string>{
                "hot: called by slab_alloc_node (slub.c:3318), which is called by "
                "kmem_cache_alloc (slub.c:3422), a hot entry point of the rule set 'slab' "
                "(2^20 runs estimated: the hot entry point kmem_cache_alloc counted as 2^20 "
                "runs, 0 loop(s), 0 branch(es) on the chain; 2^20 needed)"})
      << R.dump();
  IndexOnDisk Branch(Index(1, "kmem_cache_alloc"));
  EXPECT_TRUE(warnings(Split.run(Code, "index-chain.c",
                                 {{"ProjectIndex", Branch.path()}, {"RuleSet", Rules.path()}}))
                  .empty());
  hotpath::test::TempFile None("name: slab\n");
  EXPECT_TRUE(warnings(Split.run(Code, "index-chain.c",
                                 {{"ProjectIndex", Hot.path()}, {"RuleSet", None.path()}}))
                  .empty());
  IndexOnDisk NotOnAChain(Index(0, "shrink_caches"));
  EXPECT_TRUE(warnings(Split.run(Code, "index-chain.c",
                                 {{"ProjectIndex", NotOnAChain.path()}, {"RuleSet", Rules.path()}}))
                  .empty());
}

TEST(Heat, AMalformedHotEntryPointIsAnError) {
  // Named, with the key, never dropped: a pattern with a character no
  // identifier has, and a value that is not a list.
  hotpath::test::TempFile Paren("name: slab\nhot_entry_points: ['kmalloc(']\n");
  RunResult R = Split.run("int x;\n", "input.c", {{"RuleSet", Paren.path()}});
  ASSERT_EQ(R.Diags.size(), 1u) << R.dump();
  EXPECT_EQ(R.Diags[0].Level, "error");
  EXPECT_EQ(R.Diags[0].Message,
            "hotpath-check-split: " + Paren.path() +
                ": hot_entry_points: pattern 'kmalloc(' is not a glob of identifier "
                "characters ('*ASSERT*', '*_BUGON', 'DCHECK*')");
  hotpath::test::TempFile Scalar("name: slab\nhot_entry_points: kmalloc\n");
  RunResult S = Split.run("int x;\n", "input.c", {{"RuleSet", Scalar.path()}});
  ASSERT_EQ(S.Diags.size(), 1u) << S.dump();
  EXPECT_EQ(S.Diags[0].Level, "error");
  EXPECT_EQ(S.Diags[0].Message,
            "hotpath-check-split: " + Scalar.path() + ":2:19: not a sequence");
}

TEST(Heat, WithAProfileAHookCallIsHotByTheHooksOwnShare) {
  // The caller takes every sample; the hook, called once per call of it,
  // none: gating the call would take nothing off (libarchive's tar reader
  // and its conversion shim). Control: the hook takes 10%.
  std::string Code = R"c(#include <stdbool.h>
__attribute__((noinline)) bool should_fail(unsigned long n)
{
	(void)n;
	return false;
}
int fill(void **slots, int count)
{
	int made = 0;
	for (int i = 0; i < count; i++)
		if (!should_fail((unsigned long)i))
			slots[made++] = slots + i;
	return made;
}
)c";
  auto Folded = [](const std::string &Text) {
    llvm::SmallString<128> Path;
    llvm::sys::fs::createTemporaryFile("hotpath-heat-profile", "folded", Path);
    std::error_code EC;
    llvm::raw_fd_ostream(Path, EC) << Text;
    return std::string(Path);
  };
  std::string CallerOnly = Folded("main;fill 100\n");
  EXPECT_TRUE(warnings(Gate.run(Code, "input.c",
                                {{"NewGateWithSetters", "true"}, {"Profile", CallerOnly}}))
                  .empty());
  std::string HookToo = Folded("main;fill 90\nmain;fill;should_fail 10\n");
  EXPECT_EQ(warnings(Gate.run(Code, "input.c",
                              {{"NewGateWithSetters", "true"}, {"Profile", HookToo}}))
                .size(),
            1u);
  llvm::sys::fs::remove(CallerOnly);
  llvm::sys::fs::remove(HookToo);
}

} // namespace
