//===--- CheckRunnerTest.cpp - self-test of the check harness -------------===//
//
// A test-only check exercises every hook the harness must support:
// registerMatchers/check, registerPPCallbacks, onEndOfTranslationUnit,
// options (get/store), configurationDiag, notes, and fix-its in the main file
// and in an included header.
//
//===----------------------------------------------------------------------===//

#include "CheckRunner.h"

#include "clang-tidy/ClangTidyCheck.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"

#include "gtest/gtest.h"

using namespace clang;
using namespace clang::ast_matchers;
using clang::tidy::ClangTidyCheck;
using clang::tidy::ClangTidyContext;
using clang::tidy::ClangTidyOptions;
using hotpath::test::Diag;
using hotpath::test::RunResult;
using hotpath::test::runCheck;

namespace {

/// Warns on every definition of a function named `bad` (fix: rename it and
/// all its redeclarations, wherever they are, to the `Replacement` option),
/// adds a note at each earlier declaration (whose fix-it must NOT be applied),
/// warns on calls to it, on `#define BAD_MACRO`, and once at the end of the
/// translation unit with a count.
class BadFunctionCheck : public ClangTidyCheck {
public:
  BadFunctionCheck(StringRef Name, ClangTidyContext *Context)
      : ClangTidyCheck(Name, Context),
        Replacement(Options.get("Replacement", "good")),
        MaxCalls(Options.get<unsigned>("MaxCalls", 100)) {
    if (Replacement.empty())
      configurationDiag("option '%0' must not be empty")
          << (Name + ".Replacement").str();
  }

  void storeOptions(ClangTidyOptions::OptionMap &Opts) override {
    Options.store(Opts, "Replacement", Replacement);
    Options.store(Opts, "MaxCalls", MaxCalls);
  }

  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return !LangOpts.ObjC;
  }

  void registerMatchers(MatchFinder *Finder) override {
    Finder->addMatcher(functionDecl(hasName("bad"), isDefinition()).bind("fn"),
                       this);
    Finder->addMatcher(
        callExpr(callee(functionDecl(hasName("bad")))).bind("call"), this);
  }

  void registerPPCallbacks(const SourceManager &SM, Preprocessor *PP,
                           Preprocessor *ModuleExpanderPP) override {
    PP->addPPCallbacks(std::make_unique<MacroWatcher>(*this));
  }

  void check(const MatchFinder::MatchResult &Result) override {
    if (const auto *FD = Result.Nodes.getNodeAs<FunctionDecl>("fn")) {
      if (!FirstDef.isValid())
        FirstDef = FD->getLocation();
      ++Definitions;
      {
        auto D = diag(FD->getLocation(), "function %0 is bad; call it '%1'")
                 << FD << Replacement;
        for (const FunctionDecl *R : FD->redecls())
          D << FixItHint::CreateReplacement(R->getLocation(), Replacement);
      }
      for (const FunctionDecl *R : FD->redecls()) {
        if (R == FD)
          continue;
        // A note with its own fix-it: clang-tidy (without --fix-notes) must
        // not apply it.
        diag(R->getLocation(), "%0 declared here", DiagnosticIDs::Note)
            << R
            << FixItHint::CreateInsertion(R->getBeginLoc(), "/*note-fix*/");
      }
      return;
    }
    if (const auto *CE = Result.Nodes.getNodeAs<CallExpr>("call")) {
      ++Calls;
      SourceLocation L = CE->getCallee()->getBeginLoc();
      diag(L, "call to bad function") << FixItHint::CreateReplacement(
          CharSourceRange::getTokenRange(L, L), Replacement);
    }
  }

  void onEndOfTranslationUnit() override {
    if (FirstDef.isValid())
      diag(FirstDef, "translation unit has %0 definition(s) and %1 call(s)")
          << Definitions << Calls;
    if (Calls > MaxCalls)
      configurationDiag("more than %0 calls") << MaxCalls;
  }

private:
  class MacroWatcher : public PPCallbacks {
  public:
    explicit MacroWatcher(BadFunctionCheck &Check) : Check(Check) {}
    void MacroDefined(const Token &MacroNameTok,
                      const MacroDirective *MD) override {
      const IdentifierInfo *II = MacroNameTok.getIdentifierInfo();
      if (II && II->getName() == "BAD_MACRO")
        Check.diag(MacroNameTok.getLocation(), "macro %0 is bad") << II;
    }

  private:
    BadFunctionCheck &Check;
  };

  std::string Replacement;
  unsigned MaxCalls;
  SourceLocation FirstDef;
  unsigned Definitions = 0, Calls = 0;
};

constexpr llvm::StringLiteral CheckName = "test-bad-function";

Diag diagAt(unsigned Line, unsigned Col, std::string Level, std::string Msg,
            std::string File = "") {
  Diag D;
  D.Line = Line;
  D.Column = Col;
  D.Level = std::move(Level);
  D.Message = std::move(Msg);
  D.CheckName = CheckName.str();
  D.File = std::move(File);
  return D;
}

TEST(CheckRunner, DiagnosticsNotesAndFixesAcrossFiles) {
  const char *Header = "#pragma once\n"
                       "int bad(int x);\n";
  const char *Code = "#include \"buf.h\"\n"    // 1
                     "\n"                      // 2
                     "int bad(int x) {\n"      // 3
                     "  return x + 1;\n"       // 4
                     "}\n"                     // 5
                     "int use(void) {\n"       // 6
                     "  return bad(2);\n"      // 7
                     "}\n";                    // 8
  RunResult R =
      runCheck<BadFunctionCheck>(CheckName, Code, "input.c", {"-std=c11"}, {},
                                 {{"buf.h", Header}});
  ASSERT_TRUE(R.errors().empty()) << R.dump();

  std::vector<Diag> Expected = {
      diagAt(3, 5, "warning", "function 'bad' is bad; call it 'good'"),
      diagAt(2, 5, "note", "'bad' declared here", "buf.h"),
      diagAt(7, 10, "warning", "call to bad function"),
      // Emitted last (onEndOfTranslationUnit) although it points at line 3.
      diagAt(3, 5, "warning",
             "translation unit has 1 definition(s) and 1 call(s)"),
  };
  EXPECT_EQ(R.Diags, Expected) << R.dump();

  EXPECT_EQ(R.fixed(), "#include \"buf.h\"\n"
                       "\n"
                       "int good(int x) {\n"
                       "  return x + 1;\n"
                       "}\n"
                       "int use(void) {\n"
                       "  return good(2);\n"
                       "}\n");
  // The header declaration was renamed by the warning's fix; the note's
  // "/*note-fix*/" insertion was not applied.
  ASSERT_EQ(R.Files.count("buf.h"), 1u);
  EXPECT_EQ(R.Files.at("buf.h"), "#pragma once\n"
                                 "int good(int x);\n");
  EXPECT_EQ(R.Files.size(), 2u);
}

TEST(CheckRunner, OptionIsHonoured) {
  const char *Code = "int bad(void) { return 0; }\n";
  RunResult R = runCheck<BadFunctionCheck>(
      CheckName, Code, "input.c", {},
      {{"test-bad-function.Replacement", "better"}});
  ASSERT_TRUE(R.errors().empty()) << R.dump();
  ASSERT_FALSE(R.Diags.empty());
  EXPECT_EQ(R.Diags[0], diagAt(1, 5, "warning",
                               "function 'bad' is bad; call it 'better'"));
  EXPECT_EQ(R.fixed(), "int better(void) { return 0; }\n");
}

TEST(CheckRunner, OptionOfOtherCheckIsIgnored) {
  RunResult R = runCheck<BadFunctionCheck>(
      CheckName, "int bad(void) { return 0; }\n", "input.c", {},
      {{"other-check.Replacement", "nope"}});
  EXPECT_EQ(R.fixed(), "int good(void) { return 0; }\n");
}

TEST(CheckRunner, ConfigurationDiagSurfaces) {
  // configurationDiag() from the constructor, explicit...
  RunResult R = runCheck<BadFunctionCheck>(
      CheckName, "int f(void);\n", "input.c", {},
      {{"test-bad-function.Replacement", ""}});
  ASSERT_EQ(R.Diags.size(), 1u) << R.dump();
  EXPECT_EQ(R.Diags[0].Level, "warning");
  EXPECT_EQ(R.Diags[0].CheckName, "clang-tidy-config");
  EXPECT_EQ(R.Diags[0].Message,
            "option 'test-bad-function.Replacement' must not be empty");
  EXPECT_EQ(R.Diags[0].Line, 0u);

  // ...and the one OptionsView::get<unsigned> emits for a bad value (the
  // default is then used), and one from onEndOfTranslationUnit.
  R = runCheck<BadFunctionCheck>(
      CheckName, "int bad(void) { return bad(); }\n", "input.c", {},
      {{"test-bad-function.MaxCalls", "lots"}});
  std::vector<Diag> Config;
  for (const Diag &D : R.Diags)
    if (D.CheckName == "clang-tidy-config")
      Config.push_back(D);
  ASSERT_EQ(Config.size(), 1u) << R.dump();
  EXPECT_NE(Config[0].Message.find("invalid configuration value 'lots'"),
            std::string::npos)
      << Config[0];

  R = runCheck<BadFunctionCheck>(CheckName,
                                 "int bad(void) { return bad() + bad(); }\n",
                                 "input.c", {},
                                 {{"test-bad-function.MaxCalls", "1"}});
  ASSERT_FALSE(R.Diags.empty());
  EXPECT_EQ(R.Diags.back().Message, "more than 1 calls") << R.dump();
}

TEST(CheckRunner, PPCallbacksDiagnose) {
  const char *Code = "#define OK 1\n"
                     "  #define BAD_MACRO 2\n";
  RunResult R = runCheck<BadFunctionCheck>(CheckName, Code);
  std::vector<Diag> Expected = {
      diagAt(2, 11, "warning", "macro 'BAD_MACRO' is bad")};
  EXPECT_EQ(R.Diags, Expected) << R.dump();
  EXPECT_EQ(R.fixed(), Code);
}

TEST(CheckRunner, WarningInHeaderIsReportedWithFileName) {
  const char *Header = "static int bad(int x) { return x; }\n";
  RunResult R = runCheck<BadFunctionCheck>(
      CheckName, "#include \"sub/buf.h\"\n", "input.c", {}, {},
      {{"sub/buf.h", Header}});
  ASSERT_TRUE(R.errors().empty()) << R.dump();
  ASSERT_EQ(R.Diags.size(), 2u) << R.dump();
  EXPECT_EQ(R.Diags[0], diagAt(1, 12, "warning",
                               "function 'bad' is bad; call it 'good'",
                               "sub/buf.h"));
  EXPECT_EQ(R.Files.at("sub/buf.h"), "static int good(int x) { return x; }\n");
  EXPECT_EQ(R.fixed(), "#include \"sub/buf.h\"\n");
}

TEST(CheckRunner, CompileErrorSurfacesAsError) {
  RunResult R = runCheck<BadFunctionCheck>(CheckName,
                                           "int f(void) {\n"
                                           "  return undeclared_thing;\n"
                                           "}\n");
  std::vector<Diag> Errors = R.errors();
  ASSERT_EQ(Errors.size(), 1u) << R.dump();
  EXPECT_EQ(Errors[0].Line, 2u);
  EXPECT_EQ(Errors[0].Column, 10u);
  EXPECT_EQ(Errors[0].CheckName, "clang-diagnostic-error");
  EXPECT_NE(Errors[0].Message.find("undeclared_thing"), std::string::npos)
      << Errors[0];
}

TEST(CheckRunner, MissingHeaderIsAnError) {
  RunResult R = runCheck<BadFunctionCheck>(CheckName, "#include \"nope.h\"\n");
  ASSERT_EQ(R.errors().size(), 1u) << R.dump();
  EXPECT_EQ(R.errors()[0].Message, "'nope.h' file not found");
}

TEST(CheckRunner, CompilerWarningsAreNotReported) {
  RunResult R = runCheck<BadFunctionCheck>(
      CheckName, "int f(void) { int unused; return 0; }\n", "input.c",
      {"-Wall"});
  EXPECT_TRUE(R.Diags.empty()) << R.dump();
}

TEST(CheckRunner, BadCommandLineIsAnError) {
  RunResult R = runCheck<BadFunctionCheck>(CheckName, "int f(void);\n",
                                           "input.c", {"-std=c1999"});
  std::vector<Diag> Errors = R.errors();
  ASSERT_EQ(Errors.size(), 1u) << R.dump();
  EXPECT_EQ(Errors[0].Message, "invalid value 'c1999' in '-std=c1999'");
  EXPECT_EQ(Errors[0].Line, 0u);
}

TEST(CheckRunner, BuiltinHeadersAreFound) {
  RunResult R = runCheck<BadFunctionCheck>(CheckName,
                                           "#include <stddef.h>\n"
                                           "#include <stdbool.h>\n"
                                           "#include <stdint.h>\n"
                                           "size_t n; bool b; uint32_t u;\n");
  EXPECT_TRUE(R.errors().empty()) << R.dump();
}

TEST(CheckRunner, NolintIsHonoured) {
  RunResult R = runCheck<BadFunctionCheck>(
      CheckName, "int bad(void) { return 0; } // NOLINT(test-bad-function)\n");
  EXPECT_TRUE(R.Diags.empty()) << R.dump();
  EXPECT_EQ(R.fixed(), "int bad(void) { return 0; } // NOLINT(test-bad-function)\n");
}

TEST(CheckRunner, LanguageFollowsFileNameAndArgs) {
  // .cpp is parsed as C++ (namespaces compile); and the check can opt out of
  // a language via isLanguageVersionSupported.
  RunResult R = runCheck<BadFunctionCheck>(
      CheckName, "namespace n { int bad() { return 0; } }\n", "input.cpp",
      {"-std=c++17"});
  ASSERT_TRUE(R.errors().empty()) << R.dump();
  ASSERT_FALSE(R.Diags.empty());
  EXPECT_EQ(R.Diags[0].Message, "function 'bad' is bad; call it 'good'");
  EXPECT_EQ(R.fixed(), "namespace n { int good() { return 0; } }\n");

  R = runCheck<BadFunctionCheck>(CheckName, "int bad(void) { return 0; }\n",
                                 "input.m");
  EXPECT_TRUE(R.Diags.empty()) << R.dump();
}

TEST(CheckRunner, MacroExpansionNotes) {
  const char *Code = "int bad(int);\n"
                     "#define CALL(x) bad(x)\n"
                     "int f(void) { return CALL(1); }\n";
  RunResult R = runCheck<BadFunctionCheck>(CheckName, Code);
  ASSERT_TRUE(R.errors().empty()) << R.dump();
  ASSERT_GE(R.Diags.size(), 2u) << R.dump();
  EXPECT_EQ(R.Diags[0], diagAt(3, 22, "warning", "call to bad function"));
  EXPECT_EQ(R.Diags[1].Level, "note");
  EXPECT_EQ(R.Diags[1].Message, "expanded from macro 'CALL'");
  EXPECT_EQ(R.Diags[1].Line, 2u);
}

TEST(CheckRunner, DumpOptions) {
  auto Opts = hotpath::test::dumpOptions<BadFunctionCheck>(CheckName);
  EXPECT_EQ(Opts.at("test-bad-function.Replacement"), "good");
  EXPECT_EQ(Opts.at("test-bad-function.MaxCalls"), "100");

  std::vector<Diag> Config;
  Opts = hotpath::test::dumpOptions<BadFunctionCheck>(
      CheckName, {{"test-bad-function.MaxCalls", "7"},
                  {"test-bad-function.Replacement", ""}},
      &Config);
  EXPECT_EQ(Opts.at("test-bad-function.MaxCalls"), "7");
  ASSERT_EQ(Config.size(), 1u);
  EXPECT_EQ(Config[0].CheckName, "clang-tidy-config");
}

TEST(CheckRunner, RunsAreIndependent) {
  // State (diagnostic IDs, options, check instances) does not leak between
  // runs in one process.
  for (int I = 0; I < 3; ++I) {
    RunResult R = runCheck<BadFunctionCheck>(CheckName,
                                             "int bad(void) { return 0; }\n");
    EXPECT_EQ(R.diagsOfLevel("warning").size(), 2u) << R.dump();
  }
}

} // namespace
