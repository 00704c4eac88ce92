//===--- Tokens.cpp - token walks over the source as written --------------===//

#include "source/Tokens.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace hotpath {

SourceLocation afterToken(SourceLocation Loc, const SourceManager &SM, const LangOptions &LO) {
  return Lexer::getLocForEndOfToken(SM.getExpansionLoc(Loc), 0, SM, LO);
}

SourceLocation afterNextToken(tok::TokenKind K, SourceLocation Loc, const SourceManager &SM,
                              const LangOptions &LO) {
  return Lexer::findLocationAfterToken(Loc, K, SM, LO, /*SkipTrailingWhitespaceAndNewLine=*/false);
}

std::optional<Token> nextToken(SourceLocation Loc, const SourceManager &SM,
                               const LangOptions &LO) {
  return Lexer::findNextToken(Loc, SM, LO);
}

SourceLocation afterStatementMacro(SourceLocation End, ArrayRef<std::string> Macros,
                                   const SourceManager &SM, const LangOptions &LO) {
  SourceLocation After = afterToken(End, SM, LO);
  std::optional<Token> T = nextToken(SM.getExpansionLoc(End), SM, LO);
  if (!T || !T->is(tok::raw_identifier) || !llvm::is_contained(Macros, T->getRawIdentifier()))
    return After;
  int Depth = 0;
  for (int I = 0; I < 256 && (T = nextToken(T->getLocation(), SM, LO)); ++I) {
    if (T->is(tok::l_paren))
      ++Depth;
    else if (T->is(tok::r_paren))
      --Depth;
    else if (T->is(tok::semi) && Depth == 0)
      return T->getEndLoc();
    else if (T->is(tok::eof) || (T->is(tok::l_brace) && Depth == 0))
      break;
  }
  return After;
}

bool isOneFileRange(SourceRange R, const SourceManager &SM, const LangOptions &LO) {
  return Lexer::makeFileCharRange(CharSourceRange::getTokenRange(R), SM, LO).isValid();
}

std::optional<std::vector<std::string>> identifiersIn(SourceRange R, const SourceManager &SM,
                                                      const LangOptions &LO) {
  CharSourceRange Range = Lexer::makeFileCharRange(CharSourceRange::getTokenRange(R), SM, LO);
  if (Range.isInvalid())
    return std::nullopt;
  // The raw lexer needs a NUL-terminated buffer that ends where the code does.
  std::string Text = Lexer::getSourceText(Range, SM, LO).str();
  Lexer Raw(Range.getBegin(), LO, Text.data(), Text.data(), Text.data() + Text.size());
  std::vector<std::string> Out;
  Token Tok;
  while (!Raw.LexFromRawLexer(Tok) || Tok.isNot(tok::eof)) {
    if (Tok.is(tok::eof))
      break;
    if (Tok.is(tok::raw_identifier))
      Out.push_back(Tok.getRawIdentifier().str());
  }
  return Out;
}

StringRef immediateMacroName(SourceLocation Loc, const SourceManager &SM,
                             const LangOptions &LO) {
  return Lexer::getImmediateMacroNameForDiagnostics(Loc, SM, LO);
}

} // namespace hotpath
