//===--- NoopAssertCheck.h - hotpath-noop-assert ----------------*- C++ -*-===//
//
// Finds definitions of assert-like macros whose disabled form still evaluates
// its argument ((void)(x), do { (void)(x); } while (0), if (x) {} ...), in the
// active branch of #ifdef/#else and in the skipped one, and rewrites them to
// ((void)(0 && !!(x))), which type-checks the argument and never evaluates
// it. Uses whose argument has a side effect are reported and block the
// rewrite.
//
//===----------------------------------------------------------------------===//

#ifndef HOTPATH_TIDY_NOOPASSERTCHECK_H
#define HOTPATH_TIDY_NOOPASSERTCHECK_H

#include "HotpathCheck.h"
#include <string>
#include <vector>

namespace hotpath {

class NoopAssertCheck : public HotpathCheck {
public:
  NoopAssertCheck(llvm::StringRef Name, clang::tidy::ClangTidyContext *Context);
  void storeOptions(clang::tidy::ClangTidyOptions::OptionMap &Opts) override;

  /// What a macro body does with its one parameter.
  enum class BodyKind {
    Evaluating,    // disabled form that still evaluates it: the finding
    NonEvaluating, // disabled form that does not: ((void)0), sizeof, 0 && ...
    Other          // an enabled form, or anything else: never touched
  };
  /// Classifies a macro body given as token spellings, \p Param being the
  /// parameter's name (or __VA_ARGS__).
  static BodyKind classifyBody(llvm::ArrayRef<std::string> Tokens,
                               llvm::StringRef Param);
  /// The body the fix writes: type-checks \p Param, never evaluates it, and
  /// is valid C and C++ (lambdas before C++20 included).
  static std::string replacementBody(llvm::StringRef Param);

  struct MacroDef {
    std::string Name, Param;
    clang::SourceLocation HashLoc, NameLoc, BodyBegin, BodyEnd; // BodyEnd: after the last token
    std::vector<std::string> Tokens;
    BodyKind Kind = BodyKind::Other;
    bool Active = false;
  };
  struct Use {
    std::string Name;
    clang::SourceLocation NameLoc;            // the macro name at the use
    clang::SourceLocation ArgFirst, ArgLast;  // argument tokens as passed
    std::vector<std::string> ArgTokens;
    const clang::Expr *Arg = nullptr;         // found in the AST
  };

protected:
  void registerCheckPPCallbacks(const clang::SourceManager &SM,
                                clang::Preprocessor *PP) override;
  void reportFindings(clang::ASTContext &Ctx) override;
  void reset() override;

private:
  friend class NoopAssertPPCallbacks;
  std::string AssertMacrosOption, MustEvaluateMacrosOption;
  bool CheckFunctionCalls;
  llvm::StringSet<> AssertNames;
  // The same names as identifiers: the PP callbacks run on every macro.
  llvm::SmallPtrSet<const clang::IdentifierInfo *, 8> AssertIdents;
  std::vector<MacroDef> Defs;
  llvm::StringSet<> DefKeys; // file:offset, so a header seen twice counts once
  std::vector<Use> Uses;
};

} // namespace hotpath

#endif // HOTPATH_TIDY_NOOPASSERTCHECK_H
