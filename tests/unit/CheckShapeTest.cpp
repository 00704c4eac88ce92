//===--- CheckShapeTest.cpp - the shapes a check function is written in ---===//
//
// Each case is a function `f` and the shape model recogniseShape() reads in
// it, rendered as text: the preamble statements with the branch count before
// each value, then each branch as the test that takes it (guards joined with
// &&, '!' for a guard written the other way round) and what it returns, then
// the success return; or "no: <rule>" when the body is not read as a check
// function. The golden cases (tests/checks/hotpath-check-split/shape-*.c)
// show the fixes these models give.
//
//===----------------------------------------------------------------------===//

#include "CheckRunner.h"
#include "support/Rules.h"
#include "analysis/CheckShape.h"
#include "rewrite/Spelling.h"
#include "clang/Frontend/ASTUnit.h"
#include "gtest/gtest.h"
#include <string>

using namespace clang;

namespace {

std::string text(const Stmt *S, const ASTContext &Ctx) {
  return S ? hotpath::sourceText(S, Ctx) : std::string("-");
}

/// The model of `f` in \p Code, as text: early success exits as "(exit c
/// -> v)" where the original tests them, a branch that does more than report
/// and leave marked '*'.
std::string modelOf(const std::string &Code,
                    hotpath::FailurePaths Paths = hotpath::FailurePaths::OnlyReport) {
  std::unique_ptr<ASTUnit> AST =
      hotpath::test::buildAST("#include <stdio.h>\n#include <stdlib.h>\n" + Code, "input.c",
                              {"-std=c11", "-w"});
  if (!AST || AST->getDiagnostics().hasErrorOccurred())
    return "does not compile";
  llvm::Expected<hotpath::RuleSet> Rules = hotpath::loadRuleSet("generic-gnu-c");
  if (!Rules)
    return "no rule set";
  hotpath::RuleIndex Index(*Rules);
  ASTContext &Ctx = AST->getASTContext();
  for (const Decl *D : Ctx.getTranslationUnitDecl()->decls()) {
    const auto *FD = dyn_cast<FunctionDecl>(D);
    if (!FD || !FD->getIdentifier() || FD->getName() != "f" || !FD->hasBody())
      continue;
    hotpath::ShapeFailure Why;
    std::optional<hotpath::CheckShape> Shape =
        hotpath::recogniseShape(FD, Index, Ctx, &Why, Paths);
    if (!Shape)
      return "no: " + hotpath::describe(Why);
    // The cheap look the check takes first must never turn a shape away.
    if (!hotpath::mayHaveCheckShape(FD))
      return "read, but mayHaveCheckShape said no";
    std::string Out;
    for (const hotpath::PreambleValue &V : Shape->Values)
      Out += V.Var->getName().str() + "=" + text(V.Value, Ctx) + "@" +
             std::to_string(V.Position) + "; ";
    auto Exits = [&](size_t Before) {
      for (const hotpath::SuccessExit &E : Shape->Exits)
        if (E.BranchesBefore == Before)
          Out += "(exit " + text(E.Cond, Ctx) + " -> " +
                 (E.Return->getRetValue() ? text(E.Return->getRetValue(), Ctx) : "-") + ") ";
    };
    for (const hotpath::FailureBranch &B : Shape->Branches) {
      Exits(&B - Shape->Branches.data());
      std::string Test;
      for (const Expr *G : B.Guards)
        Test += text(G, Ctx) + " && ";
      Test += (B.Negated ? "!" : "") + text(B.Cond, Ctx);
      Out += "[" + Test + " -> " + (B.Return ? text(B.Return->getRetValue(), Ctx) : "leaves") +
             "]" + (B.DoesMore ? "*" : "") + " ";
    }
    Exits(Shape->Branches.size());
    Out += "ok " + (Shape->Success ? text(Shape->Success->getRetValue(), Ctx) : "-");
    if (Shape->ExtraSuccessWork)
      Out += " +work";
    return Out;
  }
  return "no f";
}

struct Case {
  const char *Name;
  std::string Code, Model;
};
void PrintTo(const Case &C, std::ostream *OS) { *OS << C.Name; }

class CheckShape : public ::testing::TestWithParam<Case> {};

// Bodies whose first statement past the declarations and assignments is no
// if: no shape, and the cheap look says so without reading them.
TEST(CheckShapeFilter, NoIfBeforeTheWorkIsNoShape) {
  for (const char *Code : {"int g(int); int f(int n) { int r = g(n); g(r); if (r) return 1; "
                           "return 0; }",
                           "void f(void) { }",
                           "int f(int n) { n = n + 1; while (n) n--; return n; }"}) {
    SCOPED_TRACE(Code);
    std::unique_ptr<ASTUnit> AST = hotpath::test::buildAST(Code, "input.c", {"-std=c11", "-w"});
    ASSERT_TRUE(AST);
    for (const Decl *D : AST->getASTContext().getTranslationUnitDecl()->decls())
      if (const auto *FD = dyn_cast<FunctionDecl>(D); FD && FD->hasBody())
        EXPECT_FALSE(hotpath::mayHaveCheckShape(FD));
  }
  std::unique_ptr<ASTUnit> AST = hotpath::test::buildAST(
      "int f(int n) { int r; r = n * 2; ; if (r > 9) return -1; return r; }", "input.c",
      {"-std=c11", "-w"});
  ASSERT_TRUE(AST);
  for (const Decl *D : AST->getASTContext().getTranslationUnitDecl()->decls())
    if (const auto *FD = dyn_cast<FunctionDecl>(D); FD && FD->hasBody())
      EXPECT_TRUE(hotpath::mayHaveCheckShape(FD));
}

TEST_P(CheckShape, ModelAsRead) {
  EXPECT_EQ(modelOf(GetParam().Code), GetParam().Model) << GetParam().Code;
}

const Case Cases[] = {
    {"Plain",
     "int f(int a, int n) { int r = a + 1; if (r > n) { printf(\"x\"); return 1; } return 0; }",
     "r=a + 1@0; [r > n -> 1] ok 0"},
    {"ElseHoldsSuccess",
     "int f(int a, int n) { if (a > n) { printf(\"x\"); return 1; } else { return 0; } }",
     "[a > n -> 1] ok 0"},
    {"ElseIfChain",
     "int f(int a, int n) { if (a == 0) { printf(\"z\"); return 1; } else if (a > n) "
     "{ printf(\"x\"); return 2; } else return 0; }",
     "[a == 0 -> 1] [a > n -> 2] ok 0"},
    {"ElseAfterFallThroughIsNotRead",
     "int f(int a, int n) { if (a > n) { if (a > 2 * n) { printf(\"x\"); return 1; } } "
     "else { return 0; } return 2; }",
     "no: branch 1 has an 'else' that follows a path that does not leave, or that declares "
     "something"},
    {"DeclarationInElseIsNotRead",
     "int f(int a, int n) { if (a > n) { printf(\"x\"); return 1; } else { int e = a + 1; "
     "if (e > n) { printf(\"y\"); return 1; } } return 0; }",
     "no: branch 1 has an 'else' that follows a path that does not leave, or that declares "
     "something"},
    {"AssignedLaterAtItsPosition",
     "int f(int a, int b, int n) { int r; if (a < 0) { printf(\"n\"); return 1; } r = a + b; "
     "if (r > n) { printf(\"x\"); return 1; } return 0; }",
     "r=a + b@1; [a < 0 -> 1] [r > n -> 1] ok 0"},
    {"AssignedTwiceIsNotAPreamble",
     "int f(int a, int n) { int r; r = a; r = r + 1; if (r > n) { printf(\"x\"); return 1; } "
     "return 0; }",
     "no: no 'if' that reports and leaves comes before the success path"},
    {"UsedBeforeAssigned",
     "int f(int a, int n) { int r; if (r > n) { printf(\"x\"); return 1; } r = a; return 0; }",
     "no: a local declared without an initializer is used before, or without, one plain "
     "assignment statement giving it its value"},
    {"NestedLeavesUnderTheirGuards",
     "int f(int a, int b, int n) { if (a) { if (b > n) { printf(\"x\"); return 1; } "
     "if (b < 0) { printf(\"y\"); return 2; } } return 0; }",
     "[a && b > n -> 1] [a && b < 0 -> 2] ok 0"},
    {"NestedWithTail",
     "int f(int a, int b) { if (a > b) { if (a > 2 * b) { printf(\"x\"); return 1; } "
     "printf(\"y\"); return 2; } return 0; }",
     "[a > b && a > 2 * b -> 1] [a > b -> 2] ok 0"},
    {"TwoLevelsDeep",
     "int f(int a, int b, int c) { if (a) { if (b) { if (c) { printf(\"x\"); return 1; } } } "
     "return 0; }",
     "[a && b && c -> 1] ok 0"},
    {"IfAfterReportsIsNotRead",
     "int f(int a, int b) { if (a) { printf(\"x\"); if (b) return 1; return 2; } return 0; }",
     "no: branch 1 holds an 'if' after statements that are not nested branches"},
    {"InvertedGuard",
     "int f(int a, int n) { if (a <= n) return 0; printf(\"x\"); return -1; }",
     "[!a <= n -> -1] ok 0"},
    {"InvertedGuardInElse",
     "int f(int a, int n) { if (a <= n) { return 0; } else { printf(\"x\"); return -1; } }",
     "[!a <= n -> -1] ok 0"},
    {"InvertedGuardVoidNoreturn",
     "void f(int a) { if (a < 4) return; printf(\"x\"); exit(2); }",
     "[!a < 4 -> leaves] ok -"},
    {"InvertedGuardDoingMoreIsNotRead",
     "int g; int f(int a) { if (a) return 0; printf(\"x\"); g = 1; return 0; }",
     "no: the guard is written the other way round: branch 1 returns on success, and the "
     "failure path after it does more than report and leave"},
    {"EarlySuccessExitBeforeInvertedGuard",
     "int f(int a, int b) { if (a) return 0; if (b) return 0; printf(\"x\"); return 1; }",
     "no: branch 1 reports nothing and returns what success returns: an early exit, not a "
     "failure"},
    {"VoidedParameterIsNoWork",
     "int f(int a, int n, int v) { if (a > n) { printf(\"x\"); return 1; } (void)v; return 0; }",
     "[a > n -> 1] ok 0"},
    {"OtherSuccessWorkStays",
     "int g; int f(int a, int n) { if (a > n) { printf(\"x\"); return 1; } g = a; return 0; }",
     "[a > n -> 1] ok 0 +work"},
};

INSTANTIATE_TEST_SUITE_P(Shapes, CheckShape, ::testing::ValuesIn(Cases),
                         [](const ::testing::TestParamInfo<Case> &I) { return I.param.Name; });

/// The reading for a split (FailurePaths::Anything): only what the fast
/// path evaluates must be pure and exact.
class SplitShape : public ::testing::TestWithParam<Case> {};

TEST_P(SplitShape, ModelAsRead) {
  EXPECT_EQ(modelOf(GetParam().Code, hotpath::FailurePaths::Anything), GetParam().Model)
      << GetParam().Code;
}

const Case SplitCases[] = {
    {"StrictShapesReadAlike",
     "int f(int a, int b) { if (a > b) { if (a > 2 * b) { printf(\"x\"); return 1; } "
     "printf(\"y\"); return 2; } return 0; }",
     "[a > b && a > 2 * b -> 1] [a > b -> 2] ok 0"},
    {"FailureWritesState",
     "struct s { int st; }; int f(struct s *p, int n) { if (p->st > n) { p->st = -1; "
     "printf(\"x\"); return 1; } return 0; }",
     "[p->st > n -> 1]* ok 0"},
    {"FailureNestsIfs",
     "int g; void f(int a, int *d) { if (a > 4) { printf(\"x\"); if (g) { *d = 1; } else "
     "printf(\"y\"); return; } }",
     "[a > 4 -> -]* ok -"},
    {"NestedFailureDoingMore",
     "int f(int a, int b, int *d) { if (a) { if (b) { *d = b; printf(\"x\"); return 1; } } "
     "return 0; }",
     "[a && b -> 1]* ok 0"},
    {"FailureOnlyLocals",
     "int f(int a) { char buf[8]; static int seen; struct { int x; } st; if (a > 3) { "
     "st.x = a; seen++; snprintf(buf, 8, \"%d\", st.x); printf(\"%s\", buf); return 1; } "
     "return 0; }",
     "[a > 3 -> 1]* ok 0"},
    {"PendingLocalAssignedInFailure",
     "int f(int a) { int n; if (a > 3) { n = a * 2; printf(\"%d\", n); return 1; } return 0; }",
     "[a > 3 -> 1]* ok 0"},
    {"EarlyExitGuardsLaterTests",
     "int f(int a, int b) { if (a) return 0; if (b > 2) { printf(\"x\"); return 1; } return 0; }",
     "(exit a -> 0) [b > 2 -> 1] ok 0"},
    {"ExitsEitherWayRound",
     "void f(int a, int b) { if (a) return; if (b < 4) return; printf(\"x\"); exit(2); }",
     "(exit a -> -) [!b < 4 -> leaves] ok -"},
    {"FailureTailDoesMore",
     "void f(int a, int *d) { if (a < 4) return; printf(\"x\"); *d = 1; }",
     "[!a < 4 -> leaves]* ok -"},
    {"ValueTailDoesMore",
     "int g; int f(int a) { if (a) return 0; printf(\"x\"); g = 1; return -1; }",
     "[!a -> -1]* ok 0"},
    {"ExitAmongFailures",
     "int f(int *p, int n) { if (!p) { printf(\"x\"); return -1; } if (*p == 1) return 0; "
     "if (*p > n) { printf(\"y\"); return -2; } return 0; }",
     "[!p -> -1] (exit *p == 1 -> 0) [*p > n -> -2] ok 0"},
    {"ExitUnderAGuardMakesOneBranch",
     "int f(int a, int b) { if (a) { if (b) return 0; printf(\"x\"); return 1; } return 0; }",
     "[a -> 1]* ok 0"},
    {"ExitUnderAGuardThatFallsThrough",
     "int f(int a, int b) { if (a) { if (b) return 0; } if (b > 3) { printf(\"x\"); "
     "return 1; } return 0; }",
     "no: branch 1 reports nothing and returns what success returns: an early exit, not a "
     "failure"},
    {"WorkReturningSuccessIsNoFailure",
     "int g; int f(int a) { if (a) { g = a; return 0; } if (a > 3) { printf(\"x\"); "
     "return 1; } return 0; }",
     "no: branch 1 does work, reports nothing and returns what success returns: not a failure"},
    {"VoidWorkIsNoFailure",
     "int g; void f(int a) { if (a) { g = a; return; } if (a > 3) { printf(\"x\"); "
     "exit(1); } }",
     "no: branch 1 does work, reports nothing and returns what success returns: not a failure"},
    {"WorkThenNoreturnIsAFailure",
     "int g; int f(int a) { if (a > 9) { g = a; exit(1); } if (a > 3) { printf(\"x\"); "
     "return 1; } return 0; }",
     "[a > 9 -> leaves]* [a > 3 -> 1] ok 0"},
    {"ConditionReadsFailureOnlyLocal",
     "int f(int a) { static int seen; if (seen > a) { printf(\"x\"); return 1; } return 0; }",
     "no: the fast path would read a local it cannot copy (static, volatile, or declared "
     "without an initializer and not a scalar)"},
    {"ConditionReadsUnassignedLocal",
     "int f(int a) { int n; if (n > a) { n = 1; printf(\"x\"); return 1; } return 0; }",
     "no: a local declared without an initializer is used before, or without, one plain "
     "assignment statement giving it its value"},
    {"BranchThatMayGoOnIsNotRead",
     "int g; int f(int a) { if (a) { g = 1; printf(\"x\"); } return 0; }",
     "no: branch 1 does not leave: it ends neither in a return nor in a noreturn call"},
};

INSTANTIATE_TEST_SUITE_P(Shapes, SplitShape, ::testing::ValuesIn(SplitCases),
                         [](const ::testing::TestParamInfo<Case> &I) { return I.param.Name; });

} // namespace
