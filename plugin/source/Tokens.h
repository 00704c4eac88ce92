//===--- Tokens.h - token walks over the source as written ------*- C++ -*-===//
//
// Positions found by lexing the text as written, never by searching raw
// characters (as clang-tidy's utils/LexerUtils.h): the end of a token, the
// token after one, the statement-like macro use that follows a definition,
// the identifiers a piece of code spells, the macro a location comes from.
// The lowest layer: the analysis, the rewrite layer and the checks ask here
// rather than calling clang::Lexer themselves.
//
//===----------------------------------------------------------------------===//

#ifndef HOTPATH_TIDY_SOURCE_TOKENS_H
#define HOTPATH_TIDY_SOURCE_TOKENS_H

#include "clang/Basic/LangOptions.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Basic/TokenKinds.h"
#include "clang/Lex/Token.h"
#include "llvm/ADT/ArrayRef.h"
#include <optional>
#include <string>
#include <vector>

namespace hotpath {

/// Just after the token at (the expansion of) \p Loc.
clang::SourceLocation afterToken(clang::SourceLocation Loc, const clang::SourceManager &SM,
                                 const clang::LangOptions &LO);

/// Just after the token of kind \p K that follows the token at \p Loc
/// (`;` after a declaration's last token); invalid when another token
/// comes first.
clang::SourceLocation afterNextToken(clang::tok::TokenKind K, clang::SourceLocation Loc,
                                     const clang::SourceManager &SM,
                                     const clang::LangOptions &LO);

/// The token after the one at \p Loc, raw-lexed.
std::optional<clang::Token> nextToken(clang::SourceLocation Loc,
                                      const clang::SourceManager &SM,
                                      const clang::LangOptions &LO);

/// After the token at \p End, and after a use of one of \p Macros that
/// follows it as a statement (`MACRO(args);`), which new code placed after
/// \p End must not separate from it: the kernel writes
/// ALLOW_ERROR_INJECTION(fn, ERRNO); right below a function's body.
clang::SourceLocation afterStatementMacro(clang::SourceLocation End,
                                          llvm::ArrayRef<std::string> Macros,
                                          const clang::SourceManager &SM,
                                          const clang::LangOptions &LO);

/// Whether \p R, as written, is one contiguous range of one file.
bool isOneFileRange(clang::SourceRange R, const clang::SourceManager &SM,
                    const clang::LangOptions &LO);

/// The identifiers \p R spells as written, in order; none when \p R is not
/// one range of a file (written by a macro).
std::optional<std::vector<std::string>> identifiersIn(clang::SourceRange R,
                                                      const clang::SourceManager &SM,
                                                      const clang::LangOptions &LO);

/// The name of the macro whose expansion \p Loc is immediately in, as
/// clang's diagnostics name it ("" for none).
llvm::StringRef immediateMacroName(clang::SourceLocation Loc, const clang::SourceManager &SM,
                                   const clang::LangOptions &LO);

} // namespace hotpath

#endif // HOTPATH_TIDY_SOURCE_TOKENS_H
