//===--- RewriteTest.cpp - the rewrite layer (plugin/rewrite/) ------------===//
//
// The layer's queries and edits, seen through a probe check that reports,
// for each function definition, what the layer says about it: the
// conditions it is compiled under, its file's indentation, the spelling of
// new code there, its signature edited by token; and attaches the layer's
// edits (include insertion, mirrors into other branches) to functions named
// for them.
//
//===----------------------------------------------------------------------===//

#include "core/HotpathCheck.h"
#include "rewrite/Edits.h"
#include "rewrite/NoFix.h"
#include "rewrite/Spelling.h"
#include "TestHelpers.h"
#include "clang/AST/ASTContext.h"
#include <set>

using namespace clang;
using hotpath::test::CheckTester;
using hotpath::test::Diag;
using hotpath::test::RunResult;

namespace hotpath {
namespace {

class RewriteProbe : public HotpathCheck {
public:
  RewriteProbe(StringRef Name, tidy::ClangTidyContext *Context) : HotpathCheck(Name, Context) {}

protected:
  void run(TUContext &TU) override {
    ASTContext &Ctx = TU.ast();
    const SourceManager &SM = Ctx.getSourceManager();
    IncludeInserter Inserter(TU.layout(), SM);
    for (const FunctionDecl *FD : TU.definitions().Functions) {
      StringRef Name = FD->getName();
      SourceLocation Loc = FD->getLocation();
      std::vector<ConditionLiteral> Needs = TU.layout().conditionsAt(Loc, SM);
      std::string Unit = indentUnit(Loc, SM, TU.layout());
      Spelling Sp = spellingAt(Loc, rules(), Ctx.getLangOpts(), TU.preprocessor(), SM, TU.includes(),
                               TU.layout());
      std::string Untrusted;
      for (const std::string &U : Sp.Untrusted)
        Untrusted += (Untrusted.empty() ? "" : ", ") + U;
      {
        auto D = diag(Loc, "needs %0; indent %1; cold %2; hint %3; untrusted %4")
                 << (Needs.empty() ? "nothing" : guardDirective(Needs))
                 << (Unit == "\t" ? "tab" : std::to_string(Unit.size()) + " spaces")
                 << Sp.ColdAttribute << Sp.unlikelyExpr("c")
                 << (Untrusted.empty() ? "none" : Untrusted);
        FileID File = SM.getFileID(SM.getExpansionLoc(Loc));
        if (Name.starts_with("include")) {
          // Asked twice: inserted once.
          for (int I = 0; I < 2; ++I)
            if (std::optional<FixItHint> F = Inserter.insert(File, "stdatomic.h", true))
              D << *F;
        }
        if (Name.starts_with("mirror")) {
          auto Around = TU.layout().enclosingInFile(Loc, SM);
          if (!Around.empty())
            for (const FixItHint &F : mirrorInOtherBranches(
                     Around.back().first, Around.back().second, "/* mirror */\n", TU.layout(), SM))
              D << F;
        }
      }
      if (Name.starts_with("sig")) {
        diag(Loc, "inline: %0", DiagnosticIDs::Note)
            << inlineSignature(FD, /*MakeStatic=*/true, Ctx).value_or("-");
        diag(Loc, "renamed: %0", DiagnosticIDs::Note)
            << renamedSignature(FD, "other", Ctx).value_or("-");
        diag(Loc, "clone: %0", DiagnosticIDs::Note)
            << cloneSignature(FD, "copy", "__attribute__((cold))", Ctx).value_or("-");
      }
    }
  }
};

const CheckTester<RewriteProbe> Probe("hotpath-rewrite-probe");

std::vector<std::string> messages(const RunResult &R, llvm::StringRef Level = "warning") {
  std::vector<std::string> Out;
  for (const Diag &D : R.diagsOfLevel(Level))
    Out.push_back((D.File.empty() ? "" : D.File + ":") + std::to_string(D.Line) + ": " +
                  D.Message);
  return Out;
}

TEST(Rewrite, GuardDirectivesAndMissingConditions) {
  ConditionLiteral X{"defined(X)", true}, NotY{"defined(Y)", false};
  ConditionLiteral Expr{"A > 2", true}, NotOr{"B || C", false};
  EXPECT_EQ(guardDirective({X}), "#ifdef X");
  EXPECT_EQ(guardDirective({NotY}), "#ifndef Y");
  EXPECT_EQ(guardDirective({X, NotY}), "#if defined(X) && !defined(Y)");
  EXPECT_EQ(guardDirective({Expr, NotOr}), "#if (A > 2) && !(B || C)");
  EXPECT_EQ(guardDirective({Expr}), "#if A > 2");
  EXPECT_EQ(missingConditions({X, NotY}, {NotY}), std::vector<ConditionLiteral>{X});
  EXPECT_TRUE(missingConditions({X}, {X, NotY}).empty());
  // defined(X) and its negation are different literals.
  EXPECT_EQ(missingConditions({X}, {X.negated()}), std::vector<ConditionLiteral>{X});
}

TEST(Rewrite, ConditionsFollowBranchesIncludesAndSkipTheGuard) {
  std::map<std::string, std::string> Extra = {
      {"guarded.h", "/* a header */\n#ifndef GUARDED_H\n#define GUARDED_H\n"
                    "static inline int fh(void) { return 0; }\n#endif\n"},
      {"e.h", "static inline int fe(void) { return 0; }\n"}};
  std::string Code = R"c(#include "guarded.h"
#ifdef E
#include "e.h"
#endif
#if defined(A) && B > 1
int f1(void) { return 1; }
#elif !defined(C)
int f2(void) { return 2; }
#else
int f3(void) { return 3; }
#endif
#ifdef D
#else
int f4(void) { return 4; }
#endif
int f5(void) { return 5; }
)c";
  auto Needs = [](const RunResult &R) {
    std::vector<std::string> Out;
    for (const std::string &M : messages(R))
      Out.push_back(M.substr(0, M.find(';')));
    return Out;
  };
  RunResult R = Probe.run(Code, "input.c", {}, Extra, {"-std=c11", "-DA", "-DB=2", "-DE"});
  EXPECT_EQ(Needs(R), (std::vector<std::string>{
                          "guarded.h:4: needs nothing", "e.h:1: needs #ifdef E",
                          "6: needs #if defined(A) && B > 1", "14: needs #ifndef D",
                          "16: needs nothing"}))
      << R.dump();
  R = Probe.run(Code, "input.c", {}, Extra, {"-std=c11"});
  EXPECT_EQ(Needs(R)[1], "8: needs #if !(defined(A) && B > 1) && !defined(C)") << R.dump();
  R = Probe.run(Code, "input.c", {}, Extra, {"-std=c11", "-DC"});
  EXPECT_EQ(Needs(R)[1], "10: needs #if !(defined(A) && B > 1) && defined(C)") << R.dump();
}

TEST(Rewrite, IndentationIsTheFiles) {
  auto Indent = [](const std::string &Code) {
    std::string M = messages(Probe.run(Code)).at(0);
    size_t At = M.find("indent ") + 7;
    return M.substr(At, M.find(';', At) - At);
  };
  EXPECT_EQ(Indent("int f(int x)\n{\n\tif (x)\n\t\treturn 1;\n\treturn 0;\n}\n"), "tab");
  EXPECT_EQ(Indent("int f(int x)\n{\n    if (x)\n        return 1;\n    return 0;\n}\n"),
            "4 spaces");
  EXPECT_EQ(Indent("int f(int x)\n{\n  if (x)\n    return 1;\n  return 0;\n}\n"), "2 spaces");
}

TEST(Rewrite, SpellingMacrosAreJudgedByWhatTheyExpandTo) {
  auto Spell = [](const std::string &Macros) {
    std::string M = messages(Probe.run(Macros + "int f(void) { return 0; }\n", "input.c",
                                       {{"RuleSet", "linux-kernel"}}))
                        .at(0);
    return M.substr(M.find("cold "));
  };
  // The kernel's own definitions, some through another macro: used.
  EXPECT_EQ(Spell("#define __unlikely(x) __builtin_expect(!!(x), 0)\n"
                  "#define unlikely(x) __unlikely(x)\n#define __section_cold __attribute__((__cold__))\n"
                  "#define __cold __section_cold\n#define noinline __attribute__((__noinline__))\n"),
            "cold noinline __cold; hint unlikely(c); untrusted none");
  // btrfs-progs' kerncompat.h: defined, but doing nothing.
  EXPECT_EQ(Spell("#define __cold\n#define noinline\n#define unlikely(x) (x)\n"),
            "cold __attribute__((__noinline__, cold)); hint __builtin_expect(c, 0); untrusted "
            "'unlikely(x)' is '(x)', 'noinline' is empty, '__cold' is empty");
  // One that works, one that does not: the other attribute spelled out.
  EXPECT_EQ(Spell("#define __cold\n#define noinline __attribute__((noinline))\n"),
            "cold noinline __attribute__((cold)); hint __builtin_expect(c, 0); untrusted '__cold' "
            "is empty");
  // likely() is not unlikely().
  EXPECT_EQ(Spell("#define unlikely(x) __builtin_expect(!!(x), 1)\n"),
            "cold __attribute__((noinline, cold)); hint __builtin_expect(c, 0); untrusted "
            "'unlikely(x)' is '__builtin_expect(!!(x), 1)'");
}

TEST(Rewrite, SpellingMacrosMustBeDefinedInEveryConfiguration) {
  auto Hint = [](const std::string &Code, std::vector<std::string> Args) {
    Args.insert(Args.begin(), "-std=c11");
    std::string M = messages(Probe.run(Code + "int f(void) { return 0; }\n", "input.c", {}, {},
                                       Args))
                        .at(0);
    return M.substr(M.find("hint "), M.find("; untrusted") - M.find("hint "));
  };
  const std::string OnlyOne = "#ifdef GNU\n#define unlikely(x) __builtin_expect(!!(x), 0)\n#endif\n";
  const std::string Both = "#ifdef GNU\n#define unlikely(x) __builtin_expect(!!(x), 0)\n#else\n"
                           "#define unlikely(x) (x)\n#endif\n";
  EXPECT_EQ(Hint(OnlyOne, {"-DGNU"}), "hint __builtin_expect(c, 0)");
  EXPECT_EQ(Hint(Both, {"-DGNU"}), "hint unlikely(c)");
}

TEST(Rewrite, SpellingMacrosUnderConditionsTheFileShows) {
  // k.h as the kernel's headers: the hint only under a condition no file
  // tests, and a macro of the file's own defined there too.
  auto Hint = [](const std::string &Header, const std::string &Code) {
    std::string M = messages(Probe.run("#include \"k.h\"\n" + Code + "int f(void) { return 0; }\n",
                                       "input.c", {}, {{"k.h", Header}},
                                       {"-std=c11", "-DGNU"}))
                        .at(0);
    return M.substr(M.find("hint "), M.find("; untrusted") - M.find("hint "));
  };
  const std::string K = "#ifdef GNU\n#define unlikely(x) __builtin_expect(!!(x), 0)\n"
                        "#define CHECKED(x) (x)\n#endif\n";
  // Nothing in the file needs GNU: it may be built without.
  EXPECT_EQ(Hint(K, "int g(int x) { return x; }\n"), "hint __builtin_expect(c, 0)");
  // The file expands unlikely itself where f is compiled.
  EXPECT_EQ(Hint(K, "int g(int x) { return unlikely(x); }\n"), "hint unlikely(c)");
  // ... but not where f may not be.
  EXPECT_EQ(Hint(K, "#ifdef EXTRA\nint g(int x) { return unlikely(x); }\n#endif\n"),
            "hint __builtin_expect(c, 0)");
  // It expands CHECKED, whose one definition needs GNU: so does the file.
  EXPECT_EQ(Hint(K, "int g(int x) { return CHECKED(x); }\n"), "hint unlikely(c)");
  // Not a function-like macro's name without its '(' (no expansion).
  EXPECT_EQ(Hint(K, "struct s { int CHECKED; };\n"), "hint __builtin_expect(c, 0)");
  // Not when the file tests GNU itself (it is written to be built without).
  EXPECT_EQ(Hint(K, "#ifndef GNU\n#define CHECKED(x) (x)\n#endif\n"
                    "int g(int x) { return CHECKED(x); }\n"),
            "hint __builtin_expect(c, 0)");
  // Nor from a macro some directive tests (defined elsewhere in another
  // configuration), nor from one whose definition another branch repeats.
  EXPECT_EQ(Hint(K + "#ifndef CHECKED\n#define CHECKED(x) (x)\n#endif\n",
                 "int g(int x) { return CHECKED(x); }\n"),
            "hint __builtin_expect(c, 0)");
  EXPECT_EQ(Hint("#ifdef GNU\n#define unlikely(x) __builtin_expect(!!(x), 0)\n"
                 "#define CHECKED(x) (x)\n#else\n#define CHECKED(x) (x)\n#endif\n",
                 "int g(int x) { return CHECKED(x); }\n"),
            "hint __builtin_expect(c, 0)");
}

TEST(Rewrite, IncludesGoIntoTheIncludeBlockOnce) {
  std::map<std::string, std::string> Extra = {{"a.h", "int a;\n"}};
  RunResult R = Probe.run("#include <stdio.h>\n#ifdef X\n#include <stdlib.h>\n#endif\n"
                          "#include \"a.h\"\n\nint include_me(void) { return 0; }\n",
                          "input.c", {}, Extra);
  EXPECT_EQ(R.fixed(), "#include <stdio.h>\n#include <stdatomic.h>\n#ifdef X\n#include "
                       "<stdlib.h>\n#endif\n#include \"a.h\"\n\nint include_me(void) { return 0; }\n")
      << R.dump();
  R = Probe.run("#include <stdatomic.h>\nint include_me(void) { return 0; }\n");
  EXPECT_EQ(R.fixed(), "#include <stdatomic.h>\nint include_me(void) { return 0; }\n");
  // No include: after the guard's #define; none and no guard: before the code.
  Extra = {{"g.h", "#ifndef G_H\n#define G_H\nstatic inline int include_g(void) { return 0; }\n"
                   "#endif\n"}};
  R = Probe.run("#include \"g.h\"\n", "input.c", {}, Extra);
  EXPECT_EQ(R.Files.at("g.h"), "#ifndef G_H\n#define G_H\n#include <stdatomic.h>\nstatic inline "
                               "int include_g(void) { return 0; }\n#endif\n");
  R = Probe.run("/* a file */\n\nint include_me(void) { return 0; }\n");
  EXPECT_EQ(R.fixed(), "/* a file */\n\n#include <stdatomic.h>\nint include_me(void) { return 0; }\n");
}

TEST(Rewrite, MirrorsGoIntoEveryOtherBranch) {
  RunResult R = Probe.run("#ifdef A\nint mirror_a(void) { return 1; }\n#elif defined(B)\n"
                          "int b(void) { return 2; }\n#endif\n",
                          "input.c", {}, {}, {"-std=c11", "-DA"});
  EXPECT_EQ(R.fixed(), "#ifdef A\nint mirror_a(void) { return 1; }\n#elif defined(B)\n"
                       "int b(void) { return 2; }\n/* mirror */\n#else\n/* mirror */\n#endif\n")
      << R.dump();
  R = Probe.run("#ifndef A\n#else\nint mirror_b(void) { return 1; }\n#endif\n", "input.c", {}, {},
                {"-std=c11", "-DA"});
  EXPECT_EQ(R.fixed(), "#ifndef A\n/* mirror */\n#else\nint mirror_b(void) { return 1; }\n#endif\n")
      << R.dump();
}

TEST(Rewrite, SignaturesAreEditedTokenByToken) {
  // "static" and the name also appear in a comment and a parameter's name.
  RunResult R = Probe.run("static int /* static sig */ sig(int static_sig, int sig_n)\n"
                          "{\n\treturn static_sig + sig_n;\n}\n"
                          "extern int sig2(int x);\nint sig2(int x) { return x; }\n");
  EXPECT_EQ(messages(R, "note"),
            (std::vector<std::string>{
                "1: inline: static inline int /* static sig */ sig(int static_sig, int sig_n)",
                "1: renamed: static int /* static sig */ other(int static_sig, int sig_n)",
                "1: clone: __attribute__((cold)) static int /* static sig */ copy(int static_sig, "
                "int sig_n)",
                "6: inline: static inline int sig2(int x)", "6: renamed: int other(int x)",
                "6: clone: __attribute__((cold)) static int copy(int x)"}))
      << R.dump();
}

} // namespace
} // namespace hotpath

namespace hotpath {
namespace {
TEST(NoFix, EveryReasonHasOneTextAndAnIdOfItsOwn) {
  std::set<std::string> Ids;
  for (int R = 0; R <= static_cast<int>(NoFixReason::UsesNeedEvaluation); ++R) {
    NoFix F(static_cast<NoFixReason>(R), {}, "S", "#ifdef C", "D", 2);
    EXPECT_FALSE(F.text().empty());
    for (const char *Field : {"{S}", "{C}", "{D}", "{N}", "|"})
      EXPECT_EQ(F.text().find(Field), std::string::npos) << F.text();
    EXPECT_TRUE(Ids.insert(F.id().str()).second) << F.id().str();
  }
  EXPECT_EQ(NoFix(NoFixReason::UsesNeedEvaluation, {}, "ASSERT", "", "", 1).text(),
            "1 use of 'ASSERT' in this translation unit needs the argument evaluated");
  EXPECT_EQ(NoFix(NoFixReason::UsesNeedEvaluation, {}, "ASSERT", "", "", 3).text(),
            "3 uses of 'ASSERT' in this translation unit need the argument evaluated");
  EXPECT_NE(NoFix(NoFixReason::UnknownDisabled).text().find("{name, disabled}"),
            std::string::npos);
  EXPECT_EQ(NoFix(NoFixReason::ConditionElsewhere, {}, "x", "#ifdef Y").text(),
            "'x' is declared only under '#ifdef Y', in another file than the new code: neither "
            "a guard nor a mirror keeps every configuration valid");
}
} // namespace
} // namespace hotpath
