//===--- NoopAssertTest.cpp - hotpath-noop-assert in process --------------===//
//
// Every disabled form, in C and C++, with exact diagnostics and fixed text;
// the fixed code is run through the check again to show it compiles and is
// left alone.
//
//===----------------------------------------------------------------------===//

#include "checks/NoopAssertCheck.h"
#include "CheckRunner.h"
#include "TestHelpers.h"
#include "source/MacroDefinitions.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/Preprocessor.h"
#include "gtest/gtest.h"

using hotpath::NoopAssertCheck;
using hotpath::test::CheckTester;
using hotpath::test::Diag;
using hotpath::test::expectQuiet;
using hotpath::test::RunResult;

namespace {

// -Wall -Wextra: fixed code must not warn either.
const CheckTester<NoopAssertCheck> Noop("hotpath-noop-assert", {"-Wall", "-Wextra"});

std::string evaluates(const std::string &Name) {
  return "disabled assert '" + Name +
         "' still evaluates its argument; make it type-check the argument without "
         "evaluating it";
}
std::string blocks(const std::string &Name, const std::string &Why) {
  return "argument of '" + Name + "' has a side effect (" + Why + "); a disabled '" + Name +
         "' that does not evaluate its argument would lose it, so the definition of '" +
         Name + "' is not rewritten";
}

//===----------------------------------------------------------------------===//
// Classification of macro bodies.
//===----------------------------------------------------------------------===//

std::vector<std::string> toks(llvm::StringRef S) {
  llvm::SmallVector<llvm::StringRef, 16> Parts;
  S.split(Parts, ' ', -1, false);
  return std::vector<std::string>(Parts.begin(), Parts.end());
}
NoopAssertCheck::BodyKind kind(llvm::StringRef Body) {
  return NoopAssertCheck::classifyBody(toks(Body), "x");
}

TEST(NoopAssertClassify, EvaluatingForms) {
  for (const char *B : {"( void ) ( x )", "( ( void ) ( x ) )", "( void ) x",
                        "do { ( void ) ( x ) ; } while ( 0 )", "if ( x ) { }", "if ( x ) ;",
                        "( void ) ! ! ( x )", "( void ) ( ! ! ( x ) )",
                        "static_cast < void > ( x )", "do { if ( ! ( x ) ) { } } while ( 0 )",
                        "do { x ; } while ( 0 )"})
    EXPECT_EQ(kind(B), NoopAssertCheck::BodyKind::Evaluating) << B;
}

TEST(NoopAssertClassify, NonEvaluatingForms) {
  for (const char *B : {"", "( ( void ) 0 )", "( void ) 0", "do { } while ( 0 )",
                        "( ( void ) sizeof ( ! ( x ) ) )", "( ( void ) ( 0 && ! ! ( x ) ) )"})
    EXPECT_EQ(kind(B), NoopAssertCheck::BodyKind::NonEvaluating) << B;
}

TEST(NoopAssertClassify, OtherFormsAreNeverTouched) {
  for (const char *B : {"( x )", "( ! ! ( x ) )", "( ( x ) ? ( void ) 0 : abort ( ) )",
                        "do { if ( ! ( x ) ) abort ( ) ; } while ( 0 )",
                        "if ( x ) { } else abort ( )", "( void ) ( x + 1 )", "( void ) ( y )"})
    EXPECT_EQ(kind(B), NoopAssertCheck::BodyKind::Other) << B;
}

TEST(NoopAssertClassify, ReplacementIsTheSameForCAndCxx) {
  EXPECT_EQ(NoopAssertCheck::replacementBody("expr"), "((void)(0 && !!(expr)))");
  EXPECT_EQ(kind("( ( void ) ( 0 && ! ! ( x ) ) )"), NoopAssertCheck::BodyKind::NonEvaluating);
}

/// The note at the use that makes a finding worth its fix.
Diag costlyUse(unsigned Line, unsigned Col, const std::string &Why) {
  return Noop.note(Line, Col, "its use here does work the compiler must keep: " + Why);
}
const char *const Opaque = "whose body is not visible and which is not known to be pure";

//===----------------------------------------------------------------------===//
// Every form, in C and C++, fixed.
//===----------------------------------------------------------------------===//

struct FormCase {
  const char *Name;
  const char *Body;
  const char *File;
  const char *Std;
};

void PrintTo(const FormCase &C, std::ostream *OS) { *OS << C.Name; }

class NoopAssertForms : public ::testing::TestWithParam<FormCase> {};

TEST_P(NoopAssertForms, RewrittenToTypeCheckOnly) {
  const FormCase &C = GetParam();
  bool Cxx = llvm::StringRef(C.File).ends_with(".cpp");
  std::string Prefix = std::string(Cxx ? "" : "#include <stdbool.h>\n") +
                       "enum color { RED, GREEN };\n"
                       "struct s { unsigned flag : 1; int *p; enum color c; };\n"
                       "int ext(int);\n"
                       "static int helper(int v) { return v > 2; }\n";
  std::string Def = "#define ASSERT(x) " + std::string(C.Body) + "\n";
  std::string Uses = "int f(struct s *s, int n)\n{\n"
                     "\tASSERT(s->p);\n\tASSERT(s->flag);\n\tASSERT(s->c == GREEN);\n"
                     "\tASSERT(helper(n));\n\tASSERT(ext(n) == 0);\n" +
                     std::string(Cxx ? "\tASSERT([&] { return n > 0; }());\n" : "") +
                     "\treturn n;\n}\n";
  RunResult R = Noop.run(Prefix + Def + Uses, C.File, {}, {}, {C.Std});
  unsigned DefLine = Cxx ? 5 : 6;
  ASSERT_EQ(R.Diags, (std::vector<Diag>{Noop.warning(DefLine, 9, evaluates("ASSERT")),
                                         costlyUse(DefLine + 7, 2,
                                                   std::string("it calls 'ext', ") + Opaque)}))
      << R.dump();
  EXPECT_EQ(R.fixed(), Prefix + "#define ASSERT(x) ((void)(0 && !!(x)))\n" + Uses);
  expectQuiet(Noop.run(R.fixed(), C.File, {}, {}, {C.Std}));
}

INSTANTIATE_TEST_SUITE_P(
    Cases, NoopAssertForms,
    ::testing::Values(FormCase{"VoidCastC11", "(void)(x)", "input.c", "-std=c11"},
                      FormCase{"ParenVoidCastC17", "((void)(x))", "input.c", "-std=c17"},
                      FormCase{"DoWhileC11", "do { (void)(x); } while (0)", "input.c", "-std=c11"},
                      FormCase{"IfEmptyC11", "if (x) {}", "input.c", "-std=c11"},
                      FormCase{"NotNotC17", "(void)!!(x)", "input.c", "-std=c17"},
                      FormCase{"VoidCastCxx17", "(void)(x)", "input.cpp", "-std=c++17"},
                      FormCase{"StaticCastCxx17", "static_cast<void>(x)", "input.cpp", "-std=c++17"},
                      FormCase{"DoWhileCxx20", "do { (void)(x); } while (0)", "input.cpp", "-std=c++20"},
                      FormCase{"IfEmptyCxx20", "if (x) {}", "input.cpp", "-std=c++20"}),
    [](const ::testing::TestParamInfo<FormCase> &I) { return std::string(I.param.Name); });

//===----------------------------------------------------------------------===//
// Both branches, side effects, check functions, what is never touched.
//===----------------------------------------------------------------------===//

// What a skipped definition's text says (read before lexing it, to skip
// those no check keeps) is what the lexer reads in the same definition,
// active: the words, the calls and the parameters, comments aside.
TEST(NoopAssertDefinitionText, TheTextReadsAsTheLexerDoes) {
  std::string Code = R"c(#define ASSERT(x) do { if (!(x)) abort(); } while (0)
#define DISABLED(x) ((void)(x))
#define TWO(a, b) ((a) < (b) ? 0 : report ("%d", a))
#define CONT(cond, ...) \
  ((cond) ? (void)0 : \
   log_error(__VA_ARGS__))
#define NOPARAM(x) (0)
#define OBJ 1
#define COMMENTED(x) (void) /* not */ (x)
int f;
)c";
  std::unique_ptr<clang::ASTUnit> AST =
      hotpath::test::buildAST(Code, "input.c", {"-std=c11", "-w"});
  ASSERT_TRUE(AST);
  clang::Preprocessor &PP = AST->getPreprocessor();
  const clang::SourceManager &SM = AST->getSourceManager();
  auto Join = [](llvm::ArrayRef<llvm::StringRef> W) {
    std::string Out;
    for (llvm::StringRef S : W)
      Out += (Out.empty() ? "" : " ") + S.str();
    return Out;
  };
  struct Want {
    const char *Name, *Params, *Words, *Called;
    bool NamesParameter, Punctuation, Comment;
  };
  for (const Want &W : std::initializer_list<Want>{
           {"ASSERT", "x", "do if x abort while 0", "if abort while", true, false, false},
           {"DISABLED", "x", "void x", "", true, false, false},
           {"TWO", "a b", "a b 0 report a", "report", true, true, false},
           {"CONT", "cond __VA_ARGS__", "cond void 0 log_error __VA_ARGS__", "log_error",
            true, true, false},
           {"NOPARAM", "x", "0", "", false, false, false},
           {"COMMENTED", "x", "void x", "", true, false, true}}) {
    SCOPED_TRACE(W.Name);
    const clang::MacroInfo *MI = PP.getMacroInfo(PP.getIdentifierInfo(W.Name));
    ASSERT_TRUE(MI);
    hotpath::DefinitionText Read = hotpath::readDefinitionText(MI->getDefinitionLoc(), SM);
    hotpath::DefinitionText Lexed = hotpath::definitionText(*MI);
    EXPECT_EQ(Read.Name, W.Name);
    for (const hotpath::DefinitionText *T : {&Read, &Lexed}) {
      EXPECT_EQ(Join(T->Params), W.Params);
      EXPECT_EQ(Join(T->Words), W.Words);
      EXPECT_EQ(Join(T->Called), W.Called);
      EXPECT_EQ(T->MayNameParameter, W.NamesParameter);
      EXPECT_EQ(T->OtherPunctuation, W.Punctuation);
    }
    EXPECT_EQ(Read.Comment, W.Comment); // the lexer drops comments
  }
  // An object-like macro has no parameter list to read.
  hotpath::DefinitionText Obj = hotpath::readDefinitionText(
      PP.getMacroInfo(PP.getIdentifierInfo("OBJ"))->getDefinitionLoc(), SM);
  EXPECT_EQ(Obj.Name, "OBJ");
  EXPECT_FALSE(Obj.MayNameParameter);
}

TEST(NoopAssert, SkippedBranchIsSeenWhenAssertsAreOn) {
  std::string Code = R"c(#include <stdio.h>
#ifdef MY_DEBUG
#define ASSERT(x) ((x) ? (void)0 : (void)fprintf(stderr, "%s\n", #x))
#else
#define ASSERT(x) (void)(x)
#endif
int ext(int);
int f(int n) { ASSERT(ext(n) > 0); return n; }
)c";
  for (const char *Mode : {"-UMY_DEBUG", "-DMY_DEBUG"}) {
    RunResult R = Noop.run(Code, "input.c", {}, {}, {"-std=c11", Mode});
    ASSERT_EQ(R.Diags, (std::vector<Diag>{Noop.warning(5, 9, evaluates("ASSERT")),
                                           costlyUse(8, 16, std::string("it calls 'ext', ") + Opaque)}))
        << Mode << R.dump();
    std::string Fixed = Code;
    Fixed.replace(Fixed.find("(void)(x)\n"), 9, "((void)(0 && !!(x)))");
    EXPECT_EQ(R.fixed(), Fixed) << Mode;
  }
}

// A TU with compile errors offers no fix (HotpathCheck::emit decides it for
// every check): the finding, its note, and the file unchanged although this
// harness, like --export-fixes, applies fix-its whatever the errors.
TEST(NoopAssert, TranslationUnitWithErrorsOffersNoFix) {
  std::string Code = R"c(#define ASSERT(x) (void)(x)
int ext(int);
int f(int n) { ASSERT(ext(n) > 0); return n + undeclared; }
)c";
  RunResult R = Noop.run(Code);
  ASSERT_EQ(R.errors().size(), 1u) << R.dump();
  std::vector<Diag> Ours;
  for (const Diag &D : R.Diags)
    if (D.CheckName == Noop.name())
      Ours.push_back(D);
  EXPECT_EQ(Ours, (std::vector<Diag>{
                      Noop.warning(1, 9, evaluates("ASSERT")),
                      costlyUse(3, 16, std::string("it calls 'ext', ") + Opaque),
                      Noop.note(1, 9, "no fix: the translation unit has compile errors; no fix "
                                      "is offered from it")}))
      << R.dump();
  EXPECT_EQ(R.fixed(), Code);
  // The control: without the error, the same code is rewritten.
  std::string Clean = Code;
  Clean.replace(Clean.find(" + undeclared"), 13, "");
  EXPECT_NE(Noop.run(Clean).fixed(), Clean);
}

TEST(NoopAssert, SideEffectsBlockTheRewriteAndAreReportedAtTheUse) {
  std::string Code = R"c(#define ASSERT(x) (void)(x)
struct list { int len; int items[4]; };
static int push(struct list *l, int v) { l->items[l->len] = v; return ++l->len; }
int f(struct list *l, int n)
{
	int seen = 0;
	ASSERT(push(l, n));
	ASSERT(seen++ == 0);
	ASSERT((seen = n) > 0);
	return seen;
}
)c";
  RunResult R = Noop.run(Code);
  ASSERT_EQ(R.Diags, (std::vector<Diag>{
                         Noop.warning(7, 2, blocks("ASSERT", "it calls 'push', which assigns to "
                                                        "'l->items[l->len]'")),
                         Noop.note(3, 42, "the state changes here"),
                         Noop.warning(8, 2, blocks("ASSERT", "it increments 'seen'")),
                         Noop.warning(9, 2, blocks("ASSERT", "it assigns to 'seen'")),
                         Noop.warning(1, 9, evaluates("ASSERT")),
                         Noop.note(7, 2, "3 of its 3 uses in this translation unit do work the "
                                         "compiler must keep; the first, here: it calls 'push', "
                                         "which assigns to 'l->items[l->len]'"),
                         Noop.note(1, 9, "no fix: 3 uses of 'ASSERT' in this translation unit "
                                    "need the argument evaluated"),
                     }))
      << R.dump();
  EXPECT_EQ(R.fixed(), Code);
}

TEST(NoopAssert, LambdaWithSideEffectBlocksInCxx) {
  std::string Code = R"cpp(#define DCHECK(x) do { (void)(x); } while (0)
int f(int n) {
  int calls = 0;
  DCHECK([&] { return ++calls > 0; }());
  DCHECK([&] { return n > 0; }());
  return calls;
}
)cpp";
  RunResult R = Noop.run(Code, "input.cpp");
  ASSERT_EQ(R.Diags, (std::vector<Diag>{
                         Noop.warning(4, 3, blocks("DCHECK", "it calls a lambda, which increments 'calls'")),
                         Noop.warning(1, 9, evaluates("DCHECK")),
                         costlyUse(4, 3, "it calls a lambda, which increments 'calls'"),
                         Noop.note(1, 9, "no fix: 1 use of 'DCHECK' in this translation unit "
                                    "needs the argument evaluated"),
                     }))
      << R.dump();
  EXPECT_EQ(R.fixed(), Code);
}

TEST(NoopAssert, CheckFunctionDoesNotBlockAndTheFindingSaysSo) {
  std::string Code = R"c(#include <stdbool.h>
#include <stdio.h>
#define ASSERT(x) ((void)(x))
struct eb { unsigned long len; };
static bool check_setget_bounds(const struct eb *eb, unsigned long off, int size)
{
	if (off + size > eb->len) {
		fprintf(stderr, "bad offset %lu\n", off);
		return false;
	}
	return true;
}
unsigned get(const struct eb *eb, unsigned long off)
{
	ASSERT(check_setget_bounds(eb, off, 4));
	return (unsigned)off;
}
)c";
  RunResult R = Noop.run(Code);
  ASSERT_EQ(R.Diags, (std::vector<Diag>{
                         Noop.warning(3, 9, evaluates("ASSERT")),
                         costlyUse(15, 2, std::string("it calls 'check_setget_bounds', which "
                                                      "calls 'fprintf', ") + Opaque),
                         Noop.note(15, 9, "'check_setget_bounds' is a check function that only "
                                     "reports: dropping its call with the disabled assert is "
                                     "the point"),
                     }))
      << R.dump();
  std::string Fixed = Code;
  Fixed.replace(Fixed.find("((void)(x))"), 11, "((void)(0 && !!(x)))");
  EXPECT_EQ(R.fixed(), Fixed);
  expectQuiet(Noop.run(R.fixed()));
}

TEST(NoopAssert, InvisibleBodiesAreChecksUnlessCheckFunctionCalls) {
  std::string Code = R"c(#define ASSERT(x) (void)(x)
int opaque(int);
__attribute__((pure)) int pure_len(const char *);
int f(const char *s, int n) { ASSERT(opaque(n)); ASSERT(pure_len(s) > 0); return n; }
)c";
  RunResult Default = Noop.run(Code);
  ASSERT_EQ(Default.Diags,
            (std::vector<Diag>{Noop.warning(1, 9, evaluates("ASSERT")),
                               costlyUse(4, 31, std::string("it calls 'opaque', ") + Opaque)}))
      << Default.dump();
  RunResult Strict = Noop.run(Code, "input.c", {{"CheckFunctionCalls", "true"}});
  ASSERT_EQ(Strict.Diags,
            (std::vector<Diag>{
                Noop.warning(4, 31, blocks("ASSERT", "it calls 'opaque', whose body is not visible "
                                                "and which is not known to be pure")),
                Noop.warning(1, 9, evaluates("ASSERT")),
                costlyUse(4, 31, std::string("it calls 'opaque', ") + Opaque),
                Noop.note(1, 9, "no fix: 1 use of 'ASSERT' in this translation unit needs the "
                           "argument evaluated"),
            }))
      << Strict.dump();
  EXPECT_EQ(Strict.fixed(), Code);
}

TEST(NoopAssert, MustEvaluateAndSystemAssertAreNeverTouched) {
  std::string Code = R"c(#include <assert.h>
#define WARN_ON(x) ((void)(x))
#define VERIFY(x) (void)(x)
#define MY_CHECK(x) (void)(x)
int f(int n) { WARN_ON(n < 0); VERIFY(n++); assert(n > 0); MY_CHECK(n); return n; }
)c";
  RunResult R = Noop.run(Code, "input.c", {{"MustEvaluateMacros", "MY_CHECK"},
                                      {"AssertMacros", "MY_CHECK"}});
  EXPECT_TRUE(R.Diags.empty()) << R.dump();
  EXPECT_EQ(R.fixed(), Code);
}

TEST(NoopAssert, AlreadyFreeFormsReportSideEffectsThatAreLost) {
  std::string Code = R"c(#define ASSERT(x) ((void)0)
int f(int n) { ASSERT(n++ > 0); return n; }
)c";
  // The active definition drops the argument: judged by its tokens.
  RunResult R = Noop.run(Code);
  ASSERT_EQ(R.Diags, (std::vector<Diag>{Noop.warning(
                         2, 16, "argument of 'ASSERT' has a side effect (it writes with '++'), "
                                "which is lost when 'ASSERT' is disabled")}))
      << R.dump();
}

TEST(NoopAssert, OptionsRoundTrip) {
  auto Opts = hotpath::test::dumpOptions<NoopAssertCheck>(
      Noop.name(), {{"hotpath-noop-assert.CheckFunctionCalls", "true"},
                    {"hotpath-noop-assert.AssertMacros", "CHECK_IF"}});
  EXPECT_EQ(Opts["hotpath-noop-assert.CheckFunctionCalls"], "true");
  EXPECT_EQ(Opts["hotpath-noop-assert.AssertMacros"], "CHECK_IF");
  EXPECT_EQ(Opts["hotpath-noop-assert.MustEvaluateMacros"], "");
}

} // namespace
