//===--- CallSiteIndexTest.cpp - the one walk every check reads -----------===//
//
// collectDefinitions() finds what the checks look at without AST matchers,
// and CallSiteIndex walks those bodies once. Each test parses a small program
// and asserts exactly which definitions are found and what the index counts.
//
//===----------------------------------------------------------------------===//

#include "analysis/CallSites.h"
#include "source/IncludeGraph.h"
#include "CheckRunner.h"
#include "support/Rules.h"
#include "clang/AST/Decl.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"
#include <memory>
#include <string>
#include <vector>

using namespace clang;
using hotpath::CallSiteIndex;
using hotpath::CallSiteStats;
using hotpath::TUDefinitions;

namespace {

/// "name" for plain functions, "Class::name" for members, with "<...>"
/// template arguments for instantiations, in the order found.
std::vector<std::string> names(const TUDefinitions &Defs) {
  std::vector<std::string> Out;
  for (const FunctionDecl *FD : Defs.Functions) {
    std::string Name;
    llvm::raw_string_ostream OS(Name);
    FD->getNameForDiagnostic(OS, FD->getASTContext().getPrintingPolicy(),
                             /*Qualified=*/true);
    Out.push_back(OS.str());
  }
  return Out;
}

const FunctionDecl *function(ASTContext &Ctx, llvm::StringRef Name) {
  for (const Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (const auto *FD = dyn_cast<FunctionDecl>(D); FD && FD->getName() == Name)
      return FD;
  return nullptr;
}

struct Indexed {
  std::unique_ptr<ASTUnit> AST;
  TUDefinitions Defs;
  CallSiteIndex Index;
  hotpath::RuleSet Rules;

  CallSiteStats stats(llvm::StringRef Name) const {
    const FunctionDecl *FD = function(AST->getASTContext(), Name);
    EXPECT_NE(FD, nullptr) << Name.str();
    return FD ? Index.statsFor(FD, hotpath::RuleIndex(Rules)) : CallSiteStats{};
  }
  /// "caller->callee" for each recorded site, in order.
  std::vector<std::string> sites() const {
    std::vector<std::string> Out;
    for (const CallSiteIndex::Site &S : Index.sites()) {
      std::string Caller = S.Caller->getNameAsString();
      if (const auto *M = dyn_cast<CXXMethodDecl>(S.Caller); M && M->getParent()->isLambda())
        Caller = "lambda";
      Out.push_back(Caller + "->" + S.Call->getDirectCallee()->getNameAsString());
    }
    return Out;
  }
};

std::unique_ptr<Indexed> index(llvm::StringRef Code, llvm::StringRef File = "input.c",
                               std::vector<std::string> Args = {"-std=c11"},
                               tooling::FileContentMappings Headers = {}) {
  auto Out = std::make_unique<Indexed>();
  Out->AST = hotpath::test::buildAST(Code, File, std::move(Args), Headers);
  EXPECT_TRUE(Out->AST);
  EXPECT_FALSE(Out->AST->getDiagnostics().hasErrorOccurred());
  llvm::Expected<hotpath::RuleSet> Rules = hotpath::loadRuleSet("generic-gnu-c");
  EXPECT_TRUE(static_cast<bool>(Rules));
  Out->Rules = std::move(*Rules);
  ASTContext &Ctx = Out->AST->getASTContext();
  Out->Defs = hotpath::collectDefinitions(Ctx);
  Out->Index.indexDefinitions(Out->Defs, Ctx, hotpath::RuleIndex(Out->Rules));
  return Out;
}

TEST(CallSiteIndex, CountsCallsLoopsAndAddressTakenInC) {
  auto I = index(R"c(
int check(int x) { return x > 0; }
int other(int x) { return x; }
int (*table[])(int) = { other };
static int sum = 0;
int walk(int n) {
  int r = check(n);
  for (int i = 0; i < n; i++)
    r += check(i);
  while (n--)
    do { r += check(n) + (check(1) ? 1 : 0); } while (0);
  int (*fp)(int) = check;
  return r + fp(2) + other(3);
}
int init = sizeof(check(1));
)c");
  EXPECT_EQ(I->stats("check").Calls, 5u);
  EXPECT_EQ(I->stats("check").InLoops, 3u);
  EXPECT_TRUE(I->stats("check").AddressTaken); // fp = check
  EXPECT_TRUE(I->stats("other").AddressTaken); // the table
  EXPECT_EQ(I->stats("other").Calls, 1u);
  EXPECT_FALSE(I->stats("walk").AddressTaken);
  // A call through a pointer has no callee; the global's sizeof has no caller.
  EXPECT_EQ(I->sites(), (std::vector<std::string>{"walk->check", "walk->check", "walk->check",
                                                  "walk->check", "walk->other"}));
  EXPECT_EQ(names(I->Defs), (std::vector<std::string>{"check", "other", "walk"}));
  ASSERT_EQ(I->Defs.GlobalInits.size(), 3u); // table, sum and init
}

TEST(CallSiteIndex, CallsInBranchesThatHandleAFailureAreCold) {
  // Each callee is called once in a loop; the cold ones in a branch whose
  // condition tests an error or that reports, jumps, never returns or
  // returns a negative constant. Their loops are not counted.
  auto I = index(R"c(#include <stdio.h>
#include <stdlib.h>
#define unlikely(x) __builtin_expect(!!(x), 0)
int step(int i);
void in_ret(int i); void in_err(int i); void in_unlikely(int i); void in_report(int i);
void in_goto(int i); void in_abort(int i); void in_neg(int i); void in_else(int i);
void plain(int i); void in_ok(int i); void in_zero(int i);
struct ctx { long errcode; };
int walk(int n, struct ctx *pctx) {
  for (int i = 0; i < n; i++) {
    int ret = step(i), err = step(i + 1);
    if (ret) in_ret(i);
    if (pctx->errcode) { in_err(i); }
    if (unlikely(i > n)) in_unlikely(i);
    if (i == 7) { fprintf(stderr, "seven\n"); in_report(i); }
    if (i == 8) { in_goto(i); goto out; }
    if (i == 9) { in_abort(i); abort(); }
    if (i == 10) { in_neg(i); return -22; }
    if (i != 11) plain(i); else { in_else(i); return -1; }
    if (!ret) in_ok(i);
    if (i == 12) { in_zero(i); return 0; }
    (void)err;
  }
out:
  return 0;
}
)c");
  std::vector<std::string> Cold, Hot;
  for (const CallSiteIndex::Site &S : I->Index.sites()) {
    std::string Name = S.Call->getDirectCallee()->getNameAsString();
    if (Name == "step" || Name == "fprintf" || Name == "abort" || Name == "__builtin_expect")
      continue;
    (S.Cold ? Cold : Hot).push_back(Name);
    EXPECT_EQ(S.Loops, S.Cold ? 0u : 1u) << Name;
  }
  EXPECT_EQ(Cold, (std::vector<std::string>{"in_ret", "in_err", "in_unlikely", "in_report",
                                            "in_goto", "in_abort", "in_neg", "in_else"}));
  EXPECT_EQ(Hot, (std::vector<std::string>{"plain", "in_ok", "in_zero"}));
  EXPECT_EQ(I->stats("in_ret").InLoops, 0u);
  EXPECT_EQ(I->stats("plain").InLoops, 1u);
}

TEST(CallSiteIndex, AWarnStatementExpressionTestsForAFailure) {
  // The kernel's WARN_ON(c) and WARN(c, ...) are statement expressions whose
  // value is unlikely(c): a branch they guard handles a failure (mm/slub.c's
  // print_track chain). So does mm/slub.c's slow path, a constant false or
  // an unlikely(). Controls: a statement expression whose value tests
  // nothing; an unlikely() or'ed with a test that is not constant.
  auto I = index(R"c(
#define unlikely(x) __builtin_expect(!!(x), 0)
#define WARN_ON(condition) ({ int __ret_warn_on = !!(condition); \
	if (unlikely(__ret_warn_on)) warn_slowpath(); unlikely(__ret_warn_on); })
#define WARN(condition, fmt) ({ int __ret_warn_on = !!(condition); \
	if (unlikely(__ret_warn_on)) warn_printf(fmt); unlikely(__ret_warn_on); })
#define READ(x) ({ int __v = (x); __v; })
#define USE_LOCKLESS_FAST_PATH() (1)
void warn_slowpath(void); void warn_printf(const char *fmt);
void in_warn_on(int i); void in_warn(int i); void in_read(int i);
void in_slow(int i); void in_either(int i);
int walk(int n) {
  for (int i = 0; i < n; i++) {
    if (WARN_ON(i > n)) in_warn_on(i);
    if (WARN(i == n + 1, "bad")) { in_warn(i); }
    if (READ(i & 1)) in_read(i);
    if (!USE_LOCKLESS_FAST_PATH() || unlikely(i > 2 * n)) in_slow(i);
    if (i == 3 || unlikely(i > 2 * n)) in_either(i);
  }
  return 0;
}
)c");
  std::vector<std::string> Cold, Hot;
  for (const CallSiteIndex::Site &S : I->Index.sites()) {
    std::string Name = S.Call->getDirectCallee()->getNameAsString();
    if (!llvm::StringRef(Name).starts_with("in_"))
      continue;
    (S.Cold ? Cold : Hot).push_back(Name);
  }
  EXPECT_EQ(Cold, (std::vector<std::string>{"in_warn_on", "in_warn", "in_slow"}));
  EXPECT_EQ(Hot, (std::vector<std::string>{"in_read", "in_either"}));
}

TEST(CallSiteIndex, BranchesAroundACallHalveItsRuns) {
  // Each arm of an if, ?:, the right side of && and ||: one halving; one
  // case of a switch of N: log2(N), rounded up.
  auto I = index(R"c(
int f(int); int g(int); int h(int); int k(int); int m(int); int q(int);
int w(int n, int c) {
  int r = f(n);
  if (c) r += g(n); else r += h(n);
  r += c ? k(n) : 0;
  if (c > 1 && m(n)) r++;
  switch (c) { case 1: case 2: case 3: case 4: case 5: break; default: r += q(n); }
  return r;
}
)c");
  std::vector<std::string> Got;
  for (const CallSiteIndex::Site &S : I->Index.sites())
    Got.push_back(S.Call->getDirectCallee()->getNameAsString() + ":" +
                  std::to_string(S.Branches));
  EXPECT_EQ(Got, (std::vector<std::string>{"f:0", "g:1", "h:1", "k:1", "m:1", "q:3"}));
}

TEST(CallSiteIndex, BraceInitialisersAreCountedOnceAsWritten) {
  auto I = index(R"c(
int f(int x) { return x; }
struct pair { int a, b; };
int g(void) { struct pair p = { .a = f(1), .b = f(2) }; int v[3] = { f(3) }; return p.a + v[0]; }
)c");
  EXPECT_EQ(I->stats("f").Calls, 3u);
}

TEST(CallSiteIndex, MacroGeneratedCallersAndAssertMacros) {
  auto I = index(R"c(
int check(int x) { return x > 0; }
#define ACCESSOR(name) int get_##name(int v) { return check(v); }
ACCESSOR(a)
ACCESSOR(b)
#define ASSERT(e) ((void)(e))
void user(int v) { ASSERT(check(v)); check(v); }
)c");
  CallSiteStats S = I->stats("check");
  EXPECT_EQ(S.Calls, 4u);
  EXPECT_EQ(S.FromMacroAccessors, 2u);
  EXPECT_EQ(S.InAssertMacros, 1u);
}

TEST(CallSiteIndex, CxxDefinitionsTemplatesLambdasAndLocalClasses) {
  auto I = index(R"cpp(
int check(int x) { return x > 0; }
namespace ns {
struct S {
  int inline_member(int v) { return check(v); }
  int out_of_line(int v);
  friend int befriended(S, int v) { return check(v); }
};
int S::out_of_line(int v) { return check(v); }
template <typename T> int tmpl(T v) { return check(int(v)); }
template <typename T> struct Box { int get(T v) { return check(int(v)); } };
}
extern "C" { int c_linkage(int v) { return check(v); } }
int user(int v) {
  struct Local { int m(int w) { return check(w); } };
  auto lambda = [v] { return check(v); };
  int r = 0;
  int values[] = {1, 2};
  for (int x : values) r += check(x);
  return ns::tmpl(v) + ns::tmpl(1.0) + ns::Box<long>().get(v) + Local().m(v) + lambda() + r;
}
)cpp",
                 "input.cpp", {"-std=c++17"});
  EXPECT_EQ(names(I->Defs),
            (std::vector<std::string>{
                "check", "ns::S::inline_member", "ns::befriended", "ns::S::out_of_line",
                "ns::tmpl", "ns::tmpl<int>", "ns::tmpl<double>", "ns::Box::get",
                "ns::Box<long>::get", "c_linkage", "user", "user(int)::Local::m"}));
  // Every call written in a body, the pattern's included, and nothing clang
  // added (range-for's begin/end); the lambda's call is the lambda's.
  EXPECT_EQ(I->stats("check").Calls, 12u);
  EXPECT_EQ(I->stats("check").InLoops, 1u);
  std::vector<std::string> Sites = I->sites();
  EXPECT_EQ(std::count(Sites.begin(), Sites.end(), "lambda->check"), 1);
  EXPECT_EQ(std::count(Sites.begin(), Sites.end(), "user->check"), 1);
}

TEST(CallSiteIndex, SystemHeadersAreLeftOut) {
  auto I = index("#include <sys.h>\nint mine(int v) { return in_system(v) + in_system(1); }\n",
                 "input.c", {"-std=c11", "-isystem", "/sys"},
                 {{"/sys/sys.h", "static inline int in_system(int v) { return v; }\n"
                                 "static inline int twice(int v) { return in_system(v) * 2; }\n"}});
  EXPECT_EQ(names(I->Defs), (std::vector<std::string>{"mine"}));
  EXPECT_EQ(I->stats("in_system").Calls, 2u);
}

TEST(CallSiteIndex, DeeplyNestedExpressionsDoNotExhaustTheStack) {
  // 20000 terms, left-associated: the tree is 20000 levels deep.
  std::string Code = "int f(int x) { return x; }\nint g(void) { return 0";
  for (int I = 0; I < 20000; ++I)
    Code += " + f(" + std::to_string(I % 7) + ")";
  Code += "; }\n";
  auto I = index(Code);
  EXPECT_EQ(I->stats("f").Calls, 20000u);
  EXPECT_EQ(I->sites().size(), 20000u);
}

} // namespace
