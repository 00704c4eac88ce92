//===--- PurityTest.cpp - which calls only read ---------------------------===//
//
// Each case is a small program with a function `target`, and what the
// purity analysis (analysis/Purity.h) says of a call to it: "" when it only
// reads, else "<why> @ <text of where>", the reason as the checks say it.
//
//===----------------------------------------------------------------------===//

#include "CheckRunner.h"
#include "analysis/CallSites.h"
#include "analysis/Purity.h"
#include "index/ShardBuilder.h"
#include "source/SourceText.h"
#include "support/Rules.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/ASTUnit.h"
#include "gtest/gtest.h"
#include <map>
#include <memory>
#include <string>

using namespace clang;
using hotpath::PurityAnalysis;
using hotpath::PurityVerdict;

namespace {

/// The first function named `target` (a member too) with a body.
class FindTarget : public RecursiveASTVisitor<FindTarget> {
public:
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (!Found && FD->getIdentifier() && FD->getName() == "target" && FD->hasBody())
      Found = FD;
    return true;
  }
  const FunctionDecl *Found = nullptr;
};

struct Judged {
  std::string Why; // "" or "<reason> @ <where>"
  bool Loops = false;
};

Judged judge(const std::string &Code, bool Cxx,
             std::function<std::optional<std::string>(llvm::StringRef)> Project = nullptr) {
  std::unique_ptr<ASTUnit> AST = hotpath::test::buildAST(
      Code, Cxx ? "input.cpp" : "input.c", {Cxx ? "-std=c++17" : "-std=c11", "-w"});
  EXPECT_TRUE(AST);
  if (!AST)
    return {"(no AST)"};
  EXPECT_FALSE(AST->getDiagnostics().hasErrorOccurred()) << Code;
  ASTContext &Ctx = AST->getASTContext();
  llvm::Expected<hotpath::RuleSet> Rules = hotpath::loadRuleSet("generic-gnu-c");
  EXPECT_TRUE(static_cast<bool>(Rules));
  hotpath::RuleIndex Index(*Rules);
  Index.ProjectPurity = std::move(Project);
  FindTarget F;
  F.TraverseDecl(Ctx.getTranslationUnitDecl());
  EXPECT_NE(F.Found, nullptr) << Code;
  if (!F.Found)
    return {"(no target)"};
  PurityAnalysis P(Index, Ctx);
  PurityVerdict V = P.judge(F.Found);
  Judged J;
  J.Loops = V.Loops;
  if (V.Impurity)
    J.Why = hotpath::describe(*V.Impurity, Ctx) + " @ " +
            (V.Impurity->Where ? hotpath::sourceText(V.Impurity->Where, Ctx) : "");
  return J;
}

struct Case {
  const char *Name;
  bool Cxx;
  std::string Code;
  std::string Why;
  bool Loops = false;
};

void PrintTo(const Case &C, std::ostream *OS) { *OS << C.Name; }

class Purity : public ::testing::TestWithParam<Case> {};

TEST_P(Purity, VerdictAndReason) {
  const Case &C = GetParam();
  Judged J = judge(C.Code, C.Cxx);
  EXPECT_EQ(J.Why, C.Why);
  EXPECT_EQ(J.Loops, C.Loops);
}

const char *const Invisible = ", whose body is not visible and which is not known to be pure";
const char *const NotKnown = ", which is not known to be pure";

INSTANTIATE_TEST_SUITE_P(
    C, Purity,
    ::testing::Values(
        Case{"StaticInlineReader", false,
             "struct d { unsigned char version; unsigned long flags; };\n"
             "static inline int target(const struct d *p) { return p->version >= 3 && "
             "(p->flags & 8); }",
             ""},
        Case{"ByteSwapBuiltins", false,
             "static inline unsigned target(unsigned v) { return __builtin_bswap32(v) + "
             "(unsigned)__builtin_bswap64(v) + __builtin_bswap16((unsigned short)v) + "
             "__builtin_expect(v, 0) + __builtin_constant_p(v); }",
             ""},
        Case{"OwnLocalsArraysAndParameters", false,
             "struct s { int a; };\n"
             "static int target(int v) { int t[4]; struct s x; t[0] = v; x.a = t[0]; v++; "
             "return x.a + v; }",
             ""},
        Case{"WritesAGlobal", false, "int g;\nstatic int target(int v) { g = v; return v; }",
             "it assigns to 'g' @ g = v"},
        Case{"WritesThroughAPointerParameter", false,
             "static int target(int *p) { *p = 1; return 0; }", "it assigns to '*p' @ *p = 1"},
        Case{"WritesThroughALocalPointer", false,
             "int g;\nstatic int target(void) { int *p = &g; p[0] = 1; return 0; }",
             "it assigns to 'p[0]' @ p[0] = 1"},
        Case{"ReadsVolatile", false,
             "volatile int hw;\nstatic int target(void) { return hw > 0; }",
             "it reads volatile storage @ hw"},
        Case{"ReadsAtomic", false, "_Atomic int n;\nstatic int target(void) { return n; }",
             "it reads atomic storage @ n"},
        Case{"InlineAssembly", false,
             "static int target(int v) { __asm__(\"\" : \"+r\"(v)); return v; }",
             "it runs inline assembly @ __asm__(\"\" : \"+r\"(v))"},
        Case{"StaticLocal", false,
             "static int target(int v) { static int last; int r = last; return r + v; }",
             "it keeps state in static local 'last' @ static int last;"},
        Case{"ConstStaticLocalTable", false,
             "static int target(int v) { static const int t[2] = {3, 5}; return t[v & 1]; }",
             ""},
        Case{"CalleesInTurn", false,
             "int n;\nstatic void bump(void) { n++; }\n"
             "static inline int mid(int v) { bump(); return v; }\n"
             "static inline int target(int v) { return mid(v) > 0; }",
             "it calls 'mid', which calls 'bump', which increments 'n' @ n++"},
        Case{"InvisibleCallee", false, "int ext(int);\nstatic int target(int v) { return ext(v); }",
             std::string("it calls 'ext'") + Invisible + " @ ext(v)"},
        Case{"DeclaredPureAndRuleSetPure", false,
             "#include <string.h>\n__attribute__((pure)) int len(const char *);\n"
             "__attribute__((const)) int sq(int);\n"
             "static int target(const char *s) { return len(s) + sq(2) + (int)strlen(s); }",
             ""},
        Case{"ThroughAPointer", false,
             "int (*fp)(int);\nstatic int target(int v) { return fp(v); }",
             "it calls through a pointer @ fp(v)"},
        Case{"RecursionThatOnlyReads", false,
             "struct node { struct node *next; };\n"
             "static int target(const struct node *n) { return n ? 1 + target(n->next) : 0; }",
             ""},
        Case{"MutualRecursionThatWrites", false,
             "int seen;\nstatic int odd(int v);\n"
             "static int even(int v) { return v == 0 ? 1 : odd(v - 1); }\n"
             "static int odd(int v) { seen = v; return v == 0 ? 0 : even(v - 1); }\n"
             "static int target(int v) { return even(v); }",
             "it calls 'even', which calls 'odd', which assigns to 'seen' @ seen = v"},
        Case{"ALoopThatOnlyReads", false,
             "static int target(const int *a, int n) { int s = 0; for (int i = 0; i < n; i++) "
             "s += a[i]; return s; }",
             "", true},
        Case{"TooDeep", false,
             "static int f9(int v) { return v; }\n"
             "static int f8(int v) { return f9(v); }\nstatic int f7(int v) { return f8(v); }\n"
             "static int f6(int v) { return f7(v); }\nstatic int f5(int v) { return f6(v); }\n"
             "static int f4(int v) { return f5(v); }\nstatic int f3(int v) { return f4(v); }\n"
             "static int f2(int v) { return f3(v); }\nstatic int f1(int v) { return f2(v); }\n"
             "static int f0(int v) { return f1(v); }\n"
             "static int target(int v) { return f0(v); }",
             "it calls 'f0', which calls 'f1', which calls 'f2', which calls 'f3', which calls "
             "'f4', which calls 'f5', which calls 'f6', which calls 'f7', which calls 'f8', "
             "more calls deep than are followed (8) @ f8(v)"}),
    [](const ::testing::TestParamInfo<Case> &I) { return std::string(I.param.Name); });

INSTANTIATE_TEST_SUITE_P(
    Cxx, Purity,
    ::testing::Values(
        Case{"ConstMemberReader", true,
             "struct S { int a; int target() const { return a * 2; } };\n"
             "int use(const S &s) { return s.target(); }",
             ""},
        Case{"ConstMemberWritesAMutable", true,
             "struct S { mutable int hits; int a; int target() const { hits++; return a; } };\n"
             "int use(const S &s) { return s.target(); }",
             "it increments 'hits' @ hits++"},
        Case{"MemberOnALocalObject", true,
             "struct Acc { int n = 0; void add(int v) { n += v; } };\n"
             "static int target(int v) { Acc a; a.add(v); a.add(v); return a.n; }",
             ""},
        Case{"MemberOnAGlobalObject", true,
             "struct Acc { int n = 0; void add(int v) { n += v; } };\nAcc g;\n"
             "static int target(int v) { g.add(v); return g.n; }",
             "it calls 'Acc::add', which assigns to 'n' @ n += v"},
        Case{"TemplateInstantiation", true,
             "template <class T> T twice(T v) { return v + v; }\n"
             "static int target(int v) { return twice(v) + twice<long>(v); }",
             ""},
        Case{"VirtualCall", true,
             "struct B { virtual int get() const { return 1; } };\n"
             "static int target(const B &b) { return b.get(); }",
             "it calls virtual 'B::get', which an override may replace @ b.get()"},
        Case{"ContainerObservers", true,
             "#include <string>\n#include <vector>\n"
             "static long target(const std::vector<int> &v, const std::string &s) {\n"
             "  return (long)v.size() + v[0] + v.at(0) + *v.begin() + v.empty() + *v.data() +\n"
             "         v.front() + v.back() + (long)s.size() + s[0] + (v.end() - v.begin());\n}",
             ""},
        Case{"IteratorWalk", true,
             "#include <vector>\n"
             "static int target(const std::vector<int> &v) {\n"
             "  int s = 0;\n  for (auto it = v.begin(); it != v.end(); ++it) s += *it;\n"
             "  for (int x : v) s += x;\n  return s;\n}",
             "", true},
        Case{"ContainerMutator", true,
             "#include <vector>\n"
             "static int target(std::vector<int> &v) { v.push_back(1); return 0; }",
             std::string("it calls 'std::vector<int>::push_back'") + NotKnown + " @ v.push_back(1)"},
        Case{"MapSubscriptInserts", true,
             "#include <map>\n"
             "static int target(std::map<int, int> &m) { return m[1]; }",
             std::string("it calls 'std::map<int, int>::operator[]'") + NotKnown + " @ m[1]"},
        Case{"New", true, "static int target() { int *p = new int(1); return *p; }",
             "it allocates with new @ new int(1)"}),
    [](const ::testing::TestParamInfo<Case> &I) { return std::string(I.param.Name); });

// A body in another file of the project: what the project index recorded.
TEST(Purity, ProjectIndexJudgesBodiesInOtherFiles) {
  const std::string Code = "int limit(int);\nstatic int target(int v) { return v < limit(0); }";
  EXPECT_EQ(judge(Code, false, [](llvm::StringRef USR) -> std::optional<std::string> {
              EXPECT_EQ(USR, "c:@F@limit");
              return std::string();
            }).Why,
            "");
  EXPECT_EQ(judge(Code, false,
                  [](llvm::StringRef) -> std::optional<std::string> {
                    return std::string("assigns to 'calls'");
                  })
                .Why,
            "it calls 'limit', whose body in another file assigns to 'calls' @ limit(0)");
  EXPECT_EQ(judge(Code, false, [](llvm::StringRef) { return std::optional<std::string>(); }).Why,
            std::string("it calls 'limit'") + Invisible + " @ limit(0)");
}

// One analysis remembers what it judged: a second question about a callee
// gives the same answer (and the recursion that was assumed pure while
// judged is not remembered as pure when it was not).
TEST(Purity, MemoisedVerdictsAgreeWithFreshOnes) {
  const std::string Code = "int seen;\nstatic int odd(int v);\n"
                           "static int even(int v) { return v == 0 ? 1 : odd(v - 1); }\n"
                           "static int odd(int v) { seen = v; return v == 0 ? 0 : even(v - 1); }\n"
                           "static int target(int v) { return even(v); }";
  std::unique_ptr<ASTUnit> AST = hotpath::test::buildAST(Code, "input.c", {"-std=c11"});
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  hotpath::RuleSet Rules;
  hotpath::RuleIndex Index(Rules);
  PurityAnalysis P(Index, Ctx);
  const FunctionDecl *Even = nullptr, *Odd = nullptr;
  for (const Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (const auto *FD = dyn_cast<FunctionDecl>(D); FD && FD->hasBody()) {
      if (FD->getName() == "even")
        Even = FD;
      if (FD->getName() == "odd")
        Odd = FD;
    }
  ASSERT_TRUE(Even && Odd);
  EXPECT_FALSE(P.judge(Even).pure());
  EXPECT_FALSE(P.judge(Odd).pure());
  EXPECT_FALSE(P.judge(Even).pure());
  EXPECT_FALSE(PurityAnalysis(Index, Ctx).judge(Odd).pure());
}

} // namespace

namespace {
// One answer for every consumer: a call the purity analysis finds pure (a
// visible body, or the project index's word for a body elsewhere) is no
// side effect for check-split (Repeated), noop-assert with or without
// CheckFunctionCalls (Dropped) and noop-assert's cost test (KeptWork); one
// that writes is an effect for each. Except that a body only the index
// calls pure is one the compiler does not see: it keeps the call, so the
// cost test counts it (samples/assert-list's list_is_sorted(), defined in
// sorted.c, went unreported with the index).
TEST(Purity, EveryConsumerOfSideEffectsGetsTheSameAnswer) {
  const std::string Code = "int limit(int);\nint hits;\n"
                           "static inline int cap(int v) { return v < 4 ? v : 4; }\n"
                           "static inline int count(int v) { hits++; return v; }\n"
                           "void probe(int a) { (void)(cap(a) < limit(a)); (void)(count(a)); }";
  std::unique_ptr<ASTUnit> AST = hotpath::test::buildAST(Code, "input.c", {"-std=c11"});
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  hotpath::RuleSet Rules;
  hotpath::RuleIndex Index(Rules);
  Index.ProjectPurity = [](llvm::StringRef USR) -> std::optional<std::string> {
    return USR == "c:@F@limit" ? std::optional<std::string>("") : std::nullopt;
  };
  std::vector<const Expr *> Probes;
  for (const Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (const auto *FD = dyn_cast<FunctionDecl>(D); FD && FD->getName() == "probe")
      for (const Stmt *S : cast<CompoundStmt>(FD->getBody())->body())
        Probes.push_back(cast<CStyleCastExpr>(S)->getSubExpr()->IgnoreParens());
  ASSERT_EQ(Probes.size(), 2u);
  using hotpath::SideEffectOptions;
  for (const SideEffectOptions &O :
       {SideEffectOptions::forRepeatedEvaluation(), SideEffectOptions::forDroppedEvaluation(false),
        SideEffectOptions::forDroppedEvaluation(true), SideEffectOptions::forKeptWork()}) {
    std::optional<hotpath::SideEffect> Kept = hotpath::findSideEffect(Probes[0], O, Index, Ctx);
    if (O.LoopsAreEffects) {
      ASSERT_TRUE(Kept.has_value());
      EXPECT_EQ(hotpath::describe(*Kept, Ctx), "it calls 'limit', defined in another file: pure by the project index, but a "
                                                 "call the compiler keeps");
    } else {
      EXPECT_FALSE(Kept.has_value());
    }
    std::optional<hotpath::SideEffect> E = hotpath::findSideEffect(Probes[1], O, Index, Ctx);
    ASSERT_TRUE(E.has_value());
    EXPECT_EQ(hotpath::describe(*E, Ctx), "it calls 'count', which increments 'hits'");
  }
}
} // namespace

namespace {
// The index records each definition's purity as its TU sees it, with no
// rule set: a body that only reads is pure, one that writes says what.
TEST(Purity, TheShardRecordsEveryDefinition) {
  const std::string Code = "int hits;\n"
                           "int limit(int v) { return v * 100 + 50; }\n"
                           "int counted(int v) { hits++; return limit(v); }\n"
                           "int outside(int v);\n"
                           "int calls(int v) { return outside(v); }\n";
  std::unique_ptr<ASTUnit> AST = hotpath::test::buildAST(Code, "input.c", {"-std=c11"});
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  hotpath::RuleSet Rules;
  hotpath::TUDefinitions Defs = hotpath::collectDefinitions(Ctx);
  hotpath::CallSiteIndex Sites;
  Sites.indexDefinitions(Defs, Ctx, hotpath::RuleIndex(Rules));
  hotpath::index::IndexFile F = hotpath::index::buildShard(Ctx, Defs, Sites, "/p/input.c");
  std::map<std::string, std::pair<bool, std::string>> Got;
  for (const hotpath::index::Function &Fn : F.Functions)
    Got[Fn.Name] = {Fn.Pure, Fn.Impure};
  EXPECT_EQ(Got["limit"], std::make_pair(true, std::string()));
  EXPECT_EQ(Got["counted"], std::make_pair(false, std::string("increments 'hits'")));
  EXPECT_EQ(Got["calls"],
            std::make_pair(false, std::string("calls 'outside', whose body is not visible and "
                                              "which is not known to be pure")));
  EXPECT_EQ(Got["outside"], std::make_pair(false, std::string())) << "no body: not recorded";
}
} // namespace
