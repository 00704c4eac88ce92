//===--- Edits.h - the edits every hotpath fix is built from ----*- C++ -*-===//
//
// The one place fix-its are made: token-level edits of declarations (found
// with clang::Lexer, never by searching raw text or counting characters),
// #include insertion into a file's include block, code indented as its file
// indents, edits guarded or mirrored by preprocessor condition so that they
// are valid in every configuration, and the function name a moved body
// prints. The checks decide what to fix; this layer decides how the text is
// written, and says why when it cannot be (NoFix.h).
//
//===----------------------------------------------------------------------===//

#ifndef HOTPATH_TIDY_REWRITE_EDITS_H
#define HOTPATH_TIDY_REWRITE_EDITS_H

#include "analysis/Visibility.h"
#include "source/SourceLayout.h"
#include "rewrite/NoFix.h"
#include "rewrite/Spelling.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/Basic/Diagnostic.h"
#include "llvm/ADT/StringSet.h"
#include <optional>
#include <string>
#include <vector>

namespace hotpath {

/// "#ifdef EXTRA": a branch as a refusal names it (the note is at it).
std::string describeBranch(const SourceLayout::Branch &B, const clang::SourceManager &SM);

//===----------------------------------------------------------------------===//
// Declarations, token by token.
//===----------------------------------------------------------------------===//

/// The text of a declaration from its first token up to (not including) its
/// body or ';', e.g. "static bool f(const struct b *b, int n)"; "" when it
/// is not one range of a file.
std::string signatureText(const clang::FunctionDecl *FD, const clang::ASTContext &Ctx);

/// \p FD's signature made inline: "extern" dropped, "inline" after a
/// "static" specifier, else "static inline " (\p MakeStatic) or "inline "
/// in front.
std::optional<std::string> inlineSignature(const clang::FunctionDecl *FD, bool MakeStatic,
                                           const clang::ASTContext &Ctx);

/// \p D's signature with its name token replaced by \p NewName.
std::optional<std::string> renamedSignature(const clang::FunctionDecl *D,
                                            llvm::StringRef NewName,
                                            const clang::ASTContext &Ctx);

/// A static copy's signature: \p Attr, "static", the specifiers but storage
/// class and inline, \p NewName, the declarator's rest.
std::optional<std::string> cloneSignature(const clang::FunctionDecl *F,
                                          llvm::StringRef NewName, llvm::StringRef Attr,
                                          const clang::ASTContext &Ctx);

/// Puts \p Sp's slow-path attribute on \p FD: a standard attribute before
/// everything, a GNU one after a "static" specifier if there is one.
clang::FixItHint coldAttributeInsertion(const clang::FunctionDecl *FD, const Spelling &Sp,
                                        const clang::ASTContext &Ctx);

/// Replaces the characters [\p Begin, \p End) of one file (as lexed: a
/// macro's body, a directive) with \p Text.
clang::FixItHint replaceChars(clang::SourceLocation Begin, clang::SourceLocation End,
                              llvm::StringRef Text);
/// Replaces the token at \p Loc (a name) with \p Text.
clang::FixItHint replaceToken(clang::SourceLocation Loc, llvm::StringRef Text,
                              const clang::SourceManager &SM);

/// The file range of \p S as written, if it is one.
std::optional<clang::CharSourceRange> fileRange(const clang::Stmt *S,
                                                const clang::ASTContext &Ctx);

/// Replaces \p S as written by \p Text; none when \p S is not one file range.
std::optional<clang::FixItHint> replaceCode(const clang::Stmt *S, llvm::StringRef Text,
                                            const clang::ASTContext &Ctx);

/// The start of the line after the one \p Loc is on.
clang::SourceLocation startOfNextLine(clang::SourceLocation Loc,
                                      const clang::SourceManager &SM);
/// The start of the line \p Loc is on.
clang::SourceLocation startOfLine(clang::SourceLocation Loc, const clang::SourceManager &SM);

//===----------------------------------------------------------------------===//
// Where the text goes, and how it is laid out.
//===----------------------------------------------------------------------===//

/// One level of indentation in the file \p Loc is in ("\t", "    ").
std::string indentUnit(clang::SourceLocation Loc, const clang::SourceManager &SM,
                       const SourceLayout &Layout);

/// #include directives added to include blocks, each once per TU.
class IncludeInserter {
public:
  IncludeInserter(const SourceLayout &Layout, const clang::SourceManager &SM)
      : Layout(Layout), SM(SM) {}
  /// "#include <Header>" for \p File: after the last unconditional
  /// #include of its kind (else of any kind), else after the include
  /// guard's #define, else before the first line of code. None when the
  /// file includes it already or it was inserted before.
  std::optional<clang::FixItHint> insert(clang::FileID File, llvm::StringRef Header,
                                         bool Angled);

private:
  const SourceLayout &Layout;
  const clang::SourceManager &SM;
  llvm::StringSet<> Done;
};

/// \p Text between "#if ..." and "#endif" lines for \p Lits (unchanged when
/// there are none). \p Text ends without a newline.
std::string guarded(llvm::ArrayRef<ConditionLiteral> Lits, llvm::StringRef Text);

/// Insertions that put \p Text (ending in a newline) at the end of every
/// branch of \p Group but \p Branch, adding an #else when the group has
/// none, so that configurations outside \p Branch get \p Text too.
std::vector<clang::FixItHint> mirrorInOtherBranches(unsigned Group, unsigned Branch,
                                                    llvm::StringRef Text,
                                                    const SourceLayout &Layout,
                                                    const clang::SourceManager &SM);

/// The first of \p Named (declarations and macros new code at \p Point
/// relies on) compiled under a condition that does not hold wherever
/// \p Point is; a NeedsCondition refusal naming it and the condition.
std::optional<NoFix> conditionalDependency(const NamedInCode &Named,
                                             clang::SourceLocation Point,
                                             const SourceLayout &Layout,
                                             const clang::SourceManager &SM);

/// A refusal when a directive sits inside \p Body (of \p Name): a
/// BodyVariesByConfiguration naming its first branch.
std::optional<NoFix> bodyVariesByConfiguration(const clang::Stmt *Body, llvm::StringRef Name,
                                                 const SourceLayout &Layout,
                                                 const clang::SourceManager &SM);

//===----------------------------------------------------------------------===//
// The name a moved body prints.
//===----------------------------------------------------------------------===//

/// Edits that keep __func__ and __FUNCTION__ in \p FD's body printing
/// \p FD's name once the body is renamed: each direct use becomes the name's
/// string literal. A refusal when a use comes through a macro, or is
/// __PRETTY_FUNCTION__.
struct FunctionNameEdits {
  std::vector<clang::FixItHint> Fixes;
  std::optional<NoFix> Refused;
};
FunctionNameEdits functionNameLiterals(const clang::FunctionDecl *FD,
                                       const clang::ASTContext &Ctx);

} // namespace hotpath

#endif // HOTPATH_TIDY_REWRITE_EDITS_H
