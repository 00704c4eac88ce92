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

/// The model of `f` in \p Code, as text.
std::string modelOf(const std::string &Code) {
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
    std::optional<hotpath::CheckShape> Shape = hotpath::recogniseShape(FD, Index, Ctx, &Why);
    if (!Shape)
      return "no: " + hotpath::describe(Why);
    std::string Out;
    for (const hotpath::PreambleValue &V : Shape->Values)
      Out += V.Var->getName().str() + "=" + text(V.Value, Ctx) + "@" +
             std::to_string(V.Position) + "; ";
    for (const hotpath::FailureBranch &B : Shape->Branches) {
      std::string Test;
      for (const Expr *G : B.Guards)
        Test += text(G, Ctx) + " && ";
      Test += (B.Negated ? "!" : "") + text(B.Cond, Ctx);
      Out += "[" + Test + " -> " + (B.Return ? text(B.Return->getRetValue(), Ctx) : "leaves") +
             "] ";
    }
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

} // namespace
