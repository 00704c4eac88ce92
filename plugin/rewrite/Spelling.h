//===--- Spelling.h - spelling code at a location ---------------*- C++ -*-===//
//
// The rewrite layer's view of the source: how the emitted code spells branch
// weights and the slow-path attribute where it is placed, the indentation of
// a line, a file's name, and the text of code as written.
//
//===----------------------------------------------------------------------===//

#ifndef HOTPATH_TIDY_REWRITE_SPELLING_H
#define HOTPATH_TIDY_REWRITE_SPELLING_H

#include "Rules.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include <string>

namespace clang {
class Preprocessor;
} // namespace clang

namespace hotpath {

class IncludeGraph;

/// How the emitted code spells branch weights and the slow-path attribute.
struct Spelling {
  enum class UnlikelyKind { Macro, CxxAttribute, Builtin } Unlikely;
  std::string UnlikelyMacro; // with Macro
  std::string ColdAttribute; // e.g. "__attribute__((noinline, cold))"
  bool ColdIsStandardAttribute = false; // "[[...]]": goes before specifiers

  /// "if (<cond>)" with the condition marked unlikely.
  std::string ifUnlikely(llvm::StringRef Cond) const;
};

/// The spelling for code placed at \p Point: project macros from the rule set
/// where they are defined and visible there, else the language's own.
Spelling spellingAt(clang::SourceLocation Point, const RuleSet &Rules,
                    const clang::LangOptions &LangOpts, const clang::Preprocessor &PP,
                    const clang::SourceManager &SM, const IncludeGraph &Includes);

/// Leading white space of the line \p Loc is on (its expansion).
std::string indentationAt(clang::SourceLocation Loc, const clang::SourceManager &SM);

/// The bare file name (no directories) of the file \p Loc is expanded in,
/// for messages that must read the same wherever the tree is.
std::string fileNameAt(clang::SourceLocation Loc, const clang::SourceManager &SM);

/// Source text of a statement or expression as written (macro uses kept), or
/// "" when it cannot be mapped to one contiguous file range.
std::string sourceText(const clang::Stmt *S, const clang::ASTContext &Ctx);
std::string sourceText(clang::SourceRange R, const clang::ASTContext &Ctx);

} // namespace hotpath

#endif // HOTPATH_TIDY_REWRITE_SPELLING_H
