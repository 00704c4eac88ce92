//===--- NoopAssertCheck.h - hotpath-noop-assert ----------------*- C++ -*-===//
//
// Finds definitions of assert-like macros whose disabled form still evaluates
// its condition ((void)(x), do { (void)(x); } while (0), if (x) {} ...), in
// the active branch of #ifdef/#else and in the skipped one, and rewrites them
// to ((void)(0 && !!(x))), which type-checks the condition and never
// evaluates it. A macro is assert-like by name (the rule set's list and
// patterns, the options) or by structure: an enabled twin on the other side
// of the same #if tests the same parameter and reports or aborts. It is
// reported only where some use passes a condition that does work the
// compiler cannot drop; uses whose condition has a side effect are reported
// and block the rewrite.
//
//===----------------------------------------------------------------------===//

#ifndef HOTPATH_TIDY_NOOPASSERTCHECK_H
#define HOTPATH_TIDY_NOOPASSERTCHECK_H

#include "analysis/MacroBody.h"
#include "core/HotpathCheck.h"
#include "source/MacroDefinitions.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include <string>
#include <vector>

namespace hotpath {

class NoopAssertCheck : public HotpathCheck {
public:
  NoopAssertCheck(llvm::StringRef Name, clang::tidy::ClangTidyContext *Context);

  /// What a macro body does with its condition parameter.
  using BodyKind = MacroBodyKind;
  /// Classifies a macro body given as token spellings, \p Param being the
  /// condition parameter's name (or __VA_ARGS__): analysis/MacroBody.h.
  static BodyKind classifyBody(llvm::ArrayRef<std::string> Tokens, llvm::StringRef Param) {
    return classifyMacroBody(Tokens, Param);
  }
  /// The body the fix writes: type-checks \p Param, never evaluates it, and
  /// is valid C and C++ (lambdas before C++20 included): rewrite/AssertMacro.h.
  static std::string replacementBody(llvm::StringRef Param);

  /// A definition as written, and what this check read in it.
  struct MacroDef : FunctionLikeDefinition {
    unsigned CondIndex = 0; // the parameter the body names
    std::string Param;      // its name; "" when the body names none
    BodyKind Kind = BodyKind::Other;
    bool Enabled = false; // Kind Other, and isEnabledAssertBody
    bool Active = false;
  };
  using Use = MacroUse;

  /// How a macro came to count as assert-like. Rendered by describe().
  enum class Recognition {
    None,         // not an assert: no name, pattern or twin says so
    RuleSetList,  // the rule set's assert_macros
    Option,       // the AssertMacros option
    Pattern,      // assert_macro_patterns or AssertMacroPatterns
    Twin,         // an enabled twin on the other side of the same #if
  };

protected:
  std::unique_ptr<compat::IncludeCallbacks> ppCallbacks(const clang::SourceManager &SM,
                                                        clang::Preprocessor &PP) override;
  void run(TUContext &TU) override;
  void reset() override;

private:
  friend class NoopAssertPPCallbacks;
  struct Recognised;
  struct UseTally;
  struct Judged;

  /// Candidates: a definition the preprocessor saw (active) or skipped,
  /// kept when it may be an assert or an assert's enabled twin.
  void addDefinition(FunctionLikeDefinition Text, bool Active, const clang::Preprocessor &PP,
                     const clang::SourceManager &SM);
  /// False when \p Text can be neither a disabled form that evaluates a
  /// parameter nor an enabled one (what addDefinition() keeps besides the
  /// names asked for): most function-like macros of a TU, not lexed.
  bool mayBeAssertForm(const DefinitionText &Text) const;
  /// By name: the lists (rule set and option) or a pattern.
  Recognition recognisedByName(llvm::StringRef Name) const;
  /// The enabled twin of \p D, if any: another definition of its name in
  /// its file, on the other side of the same #if, that tests the same
  /// parameter and reports or aborts.
  const MacroDef *enabledTwin(const MacroDef &D, const clang::SourceManager &SM,
                              const clang::LangOptions &LangOpts) const;

  /// The steps of run(): which macros are asserts; what each use's
  /// argument does; the uses that lose work; the definitions worth fixing.
  Recognised recogniseAsserts(const clang::ASTContext &Ctx) const;
  Judged judgeUses(llvm::ArrayRef<const clang::Expr *> Args, clang::ASTContext &Ctx) const;
  void reportUses(const Judged &J, const Recognised &R, const clang::ASTContext &Ctx);
  void reportDefinitions(const Recognised &R, const Judged &J, const clang::ASTContext &Ctx);
  /// Why uses in other translation units forbid rewriting \p D, if so.
  std::optional<NoFix> usesElsewhere(const MacroDef &D, const clang::ASTContext &Ctx) const;
  void explainMacro(const MacroDef &D, Recognition How, const MacroDef *Twin,
                    const UseTally &Uses, bool Reported, const clang::ASTContext &Ctx);

  bool CheckFunctionCalls = false;
  llvm::StringSet<> ListedNames, OptionNames, Never;
  NamePatterns Patterns; // the rule set's and the option's
  // Macros whose uses are recorded, as identifiers: the PP callbacks run on
  // every macro.
  llvm::SmallPtrSet<const clang::IdentifierInfo *, 8> AssertIdents;
  mutable llvm::StringMap<bool> FailureNames; // namesFailure(), by callee
  llvm::DenseMap<const clang::IdentifierInfo *, unsigned> CondIndexOf;
  std::vector<MacroDef> Defs;
  llvm::StringSet<> DefKeys; // file:offset, so a header seen twice counts once
  std::vector<Use> Uses;
  /// Explain mode: definitions of the name asked about that are not
  /// recorded, with why ("it is not function-like").
  std::vector<std::pair<clang::SourceLocation, std::string>> ExplainSkipped;
};

} // namespace hotpath

#endif // HOTPATH_TIDY_NOOPASSERTCHECK_H
