//===--- MacroDefinitions.cpp - function-like macros as written -----------===//

#include "source/MacroDefinitions.h"
#include "clang/Basic/CharInfo.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/MacroArgs.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/STLExtras.h"
#include <map>

using namespace clang;

namespace hotpath {

namespace {
/// The offset of the first "*/" at or after \p From: each '/' found by
/// memchr, which StringRef::find of two characters is not (a block
/// comment's text is read to its end).
size_t commentEnd(StringRef Text, size_t From) {
  for (size_t Slash = Text.find('/', From + 1); Slash != StringRef::npos;
       Slash = Text.find('/', Slash + 1))
    if (Text[Slash - 1] == '*')
      return Slash - 1;
  return StringRef::npos;
}

/// Calls \p F(HashOffset, NameOffset) for each "# define NAME(" that starts
/// a line of \p Text outside a block comment: the function-like macro
/// definitions of a skipped block, found without lexing it.
void forEachFunctionLikeDefine(StringRef Text, llvm::function_ref<void(size_t, size_t)> F) {
  // Line continuations count as blank: "#define \\<newline> ASSERT(x)".
  auto IsBlank = [](char C) {
    return C == ' ' || C == '\t' || C == '\\' || C == '\n' || C == '\r';
  };
  // Comments, read up to each candidate: '/' by '/' (memchr speed).
  size_t Scanned = 0;
  bool InComment = false;
  auto InCommentAt = [&](size_t Pos) {
    while (Scanned < Pos) {
      if (InComment) {
        size_t Close = commentEnd(Text, Scanned);
        if (Close == StringRef::npos || Close >= Pos) {
          Scanned = Pos;
          break;
        }
        InComment = false;
        Scanned = Close + 2;
        continue;
      }
      size_t Slash = Text.find('/', Scanned);
      if (Slash == StringRef::npos || Slash + 1 >= Pos) {
        Scanned = Pos;
        break;
      }
      if (Text[Slash + 1] == '*') {
        InComment = true;
        Scanned = Slash + 2;
      } else if (Text[Slash + 1] == '/') {
        size_t Eol = Text.find('\n', Slash);
        Scanned = Eol == StringRef::npos ? Text.size() : Eol;
      } else {
        Scanned = Slash + 1;
      }
    }
    return InComment;
  };
  // From each '#' (memchr) to the word after it: StringRef::find of
  // "define" over every skipped byte cost 6 M instructions on sqlite3.c.
  for (size_t Hash = Text.find('#'); Hash != StringRef::npos; Hash = Text.find('#', Hash + 1)) {
    size_t At = Hash + 1;
    while (At < Text.size() && IsBlank(Text[At]))
      ++At;
    if (!Text.substr(At).starts_with("define"))
      continue;
    size_t LineStart = Hash;
    while (LineStart > 0 && (Text[LineStart - 1] == ' ' || Text[LineStart - 1] == '\t'))
      --LineStart;
    if (LineStart > 0 && Text[LineStart - 1] != '\n')
      continue; // "#" not first on its line
    StringRef Rest = Text.drop_front(At + 6);
    size_t NameStart = 0;
    while (NameStart < Rest.size() && IsBlank(Rest[NameStart]))
      ++NameStart;
    if (NameStart == 0)
      continue; // "defined", "define_x"
    StringRef Name = Rest.drop_front(NameStart);
    size_t Len = Name.find_if_not([](char C) { return isAsciiIdentifierContinue(C); });
    if (Len == 0 || Len == StringRef::npos || Name[Len] != '(')
      continue;
    if (InCommentAt(Hash)) // a block comment opened earlier in the block
      continue;
    F(Hash, At + 6 + NameStart);
  }
}
} // namespace

std::optional<FunctionLikeDefinition> lexFunctionLikeDefinition(SourceLocation NameLoc,
                                                               SourceLocation HashLoc,
                                                               const SourceManager &SM,
                                                               const LangOptions &LangOpts) {
  std::pair<FileID, unsigned> D = SM.getDecomposedLoc(NameLoc);
  bool Invalid = false;
  StringRef Buf = SM.getBufferData(D.first, &Invalid);
  if (Invalid)
    return std::nullopt;
  Lexer L(SM.getLocForStartOfFile(D.first), LangOpts, Buf.begin(), Buf.begin() + D.second,
          Buf.end());
  Token Tok;
  FunctionLikeDefinition Def;
  if (L.LexFromRawLexer(Tok) || Tok.isNot(tok::raw_identifier))
    return std::nullopt;
  Def.Name = Tok.getRawIdentifier().str();
  Def.NameLoc = Tok.getLocation();
  Def.HashLoc = HashLoc;
  // Function-like: "(" right after the name.
  if (L.LexFromRawLexer(Tok) || Tok.isNot(tok::l_paren) || Tok.hasLeadingSpace() ||
      Tok.isAtStartOfLine())
    return std::nullopt;
  bool AfterName = false; // "args..." names the variadic parameter
  while (true) {
    if (L.LexFromRawLexer(Tok) || Tok.isAtStartOfLine())
      return std::nullopt;
    if (Tok.is(tok::r_paren))
      break;
    if (Tok.is(tok::raw_identifier)) {
      Def.Params.push_back(Tok.getRawIdentifier().str());
      AfterName = true;
      continue;
    }
    if (Tok.is(tok::ellipsis)) {
      if (!AfterName)
        Def.Params.push_back("__VA_ARGS__");
    } else if (Tok.isNot(tok::comma)) {
      return std::nullopt;
    }
    AfterName = false;
  }
  if (Def.Params.empty())
    return std::nullopt;
  // Spelled from the buffer the lexer reads, by the token's offset in it:
  // SourceManager::getCharacterData per token was a fifth of this
  // function's cost over sqlite3.c's definitions.
  SourceLocation FileStart = SM.getLocForStartOfFile(D.first);
  Def.Tokens.reserve(16);
  while (!L.LexFromRawLexer(Tok) && !Tok.isAtStartOfLine()) {
    if (Def.Tokens.empty())
      Def.BodyBegin = Tok.getLocation();
    if (Tok.is(tok::raw_identifier))
      Def.Tokens.push_back(Tok.getRawIdentifier().str());
    else
      Def.Tokens.emplace_back(Buf.data() + (Tok.getLocation().getRawEncoding() -
                                            FileStart.getRawEncoding()),
                              Tok.getLength());
    Def.BodyEnd = Tok.getEndLoc();
  }
  return Def;
}

bool onOtherSidesOfOneIf(SourceLocation A, SourceLocation B, const SourceManager &SM,
                         const LangOptions &LangOpts) {
  std::pair<FileID, unsigned> DA = SM.getDecomposedLoc(A), DB = SM.getDecomposedLoc(B);
  bool Invalid = false;
  StringRef Buf = SM.getBufferData(DA.first, &Invalid);
  if (Invalid || DA.first != DB.first || DB.second <= DA.second)
    return false;
  Lexer L(SM.getLocForStartOfFile(DA.first), LangOpts, Buf.begin(), Buf.begin() + DA.second,
          Buf.end());
  L.SetCommentRetentionState(false);
  // Level 0: the innermost group holding A; each #endif of a group holding
  // A goes one level out, where no branch has been crossed yet.
  int Depth = 0, Level = 0;
  std::map<int, bool> Crossed;
  Token Tok;
  bool First = true;
  while (!L.LexFromRawLexer(Tok)) {
    if (SM.getFileOffset(Tok.getLocation()) >= DB.second)
      break;
    if (First) { // A's own '#'
      First = false;
      continue;
    }
    if (!Tok.is(tok::hash) || !Tok.isAtStartOfLine())
      continue;
    if (L.LexFromRawLexer(Tok) || Tok.isAtStartOfLine() || Tok.isNot(tok::raw_identifier))
      continue;
    StringRef D = Tok.getRawIdentifier();
    if (D == "if" || D == "ifdef" || D == "ifndef") {
      ++Depth;
    } else if (D == "else" || D == "elif" || D == "elifdef" || D == "elifndef") {
      if (Depth == 0)
        Crossed[Level] = true;
    } else if (D == "endif") {
      if (Depth > 0) {
        --Depth;
      } else {
        --Level;
        Crossed[Level] = false;
      }
    }
  }
  return Crossed[Level];
}

SourceLocation directiveHash(SourceLocation NameLoc, const SourceManager &SM) {
  std::pair<FileID, unsigned> D = SM.getDecomposedLoc(NameLoc);
  // The '#' that starts the directive: the first token of the line.
  StringRef Buf = SM.getBufferData(D.first);
  size_t LineStart = Buf.rfind('\n', D.second);
  LineStart = LineStart == StringRef::npos ? 0 : LineStart + 1;
  size_t Hash = Buf.find('#', LineStart);
  if (Hash != StringRef::npos && Hash < D.second)
    return SM.getLocForStartOfFile(D.first).getLocWithOffset(Hash);
  return SourceLocation();
}

std::string definitionKey(SourceLocation NameLoc, const SourceManager &SM) {
  std::pair<FileID, unsigned> D = SM.getDecomposedLoc(NameLoc);
  OptionalFileEntryRef File = SM.getFileEntryRefForID(D.first);
  return (File ? File->getName().str() : std::string("<buffer>")) + ":" +
         std::to_string(D.second);
}

void forEachSkippedFunctionLikeDefine(SourceRange Skipped, const SourceManager &SM,
                                      llvm::function_ref<void(SourceLocation, SourceLocation)> F) {
  SourceLocation Begin = Skipped.getBegin();
  std::pair<FileID, unsigned> B = SM.getDecomposedLoc(Begin);
  std::pair<FileID, unsigned> E = SM.getDecomposedLoc(Skipped.getEnd());
  if (B.first != E.first || E.second < B.second)
    return;
  bool Invalid = false;
  StringRef Buf = SM.getBufferData(B.first, &Invalid);
  if (Invalid)
    return;
  // Only the function-like definitions are lexed, each from its own '#'.
  StringRef Text = Buf.slice(B.second, E.second);
  SourceLocation FileStart = SM.getLocForStartOfFile(B.first);
  forEachFunctionLikeDefine(Text, [&](size_t Hash, size_t Name) {
    F(FileStart.getLocWithOffset(B.second + Name), FileStart.getLocWithOffset(B.second + Hash));
  });
}

DefinitionText readDefinitionText(SourceLocation NameLoc, const SourceManager &SM) {
  DefinitionText Out;
  std::pair<FileID, unsigned> D = SM.getDecomposedLoc(NameLoc);
  bool Invalid = false;
  StringRef Buf = SM.getBufferData(D.first, &Invalid);
  if (Invalid || D.second >= Buf.size())
    return Out;
  StringRef Text = Buf.drop_front(D.second);
  auto WordEnd = [&](size_t From) {
    while (From < Text.size() && isAsciiIdentifierContinue(Text[From]))
      ++From;
    return From;
  };
  size_t I = WordEnd(0);
  Out.Name = Text.take_front(I);
  if (I >= Text.size() || Text[I] != '(')
    return Out;
  // The parameters, up to ')': "..." is __VA_ARGS__.
  llvm::SmallVector<StringRef, 4> &Params = Out.Params;
  size_t Close = Text.find(')', I);
  if (Close == StringRef::npos)
    return Out;
  for (size_t P = I + 1; P < Close;) {
    if (isAsciiIdentifierStart(Text[P])) {
      size_t E = WordEnd(P);
      Params.push_back(Text.slice(P, E));
      P = E;
    } else if (Text.substr(P, 3) == "...") {
      Params.push_back("__VA_ARGS__");
      P += 3;
    } else {
      ++P;
    }
  }
  // The body, to the end of the logical line.
  auto Continued = [&](size_t P) {
    return Text[P] == '\\' && P + 1 < Text.size() && (Text[P + 1] == '\n' || Text[P + 1] == '\r');
  };
  auto SkipContinuation = [&](size_t P) {
    return P + (Text[P + 1] == '\r' && P + 2 < Text.size() && Text[P + 2] == '\n' ? 3 : 2);
  };
  for (size_t P = Close + 1; P < Text.size() && Text[P] != '\n';) {
    char C = Text[P];
    if (Continued(P)) {
      P = SkipContinuation(P);
      continue;
    }
    if (C == '/' && P + 1 < Text.size() && (Text[P + 1] == '*' || Text[P + 1] == '/')) {
      // A comment: its words are none of the body's.
      Out.Comment = true;
      if (Text[P + 1] == '/')
        break;
      size_t End = Text.find("*/", P + 2);
      P = End == StringRef::npos ? Text.size() : End + 2;
      continue;
    }
    if (C == '"' || C == '\'') {
      // A literal: punctuation, its text no word.
      Out.OtherPunctuation = true;
      size_t Q = P + 1;
      while (Q < Text.size() && Text[Q] != C && Text[Q] != '\n')
        Q += Text[Q] == '\\' ? 2 : 1;
      P = Q + 1;
      continue;
    }
    if (!isAsciiIdentifierContinue(C)) {
      if (!isHorizontalWhitespace(C) && C != '\r' && !StringRef("(){}!;<>").contains(C))
        Out.OtherPunctuation = true;
      ++P;
      continue;
    }
    size_t E = WordEnd(P);
    StringRef Word = Text.slice(P, E);
    Out.Words.push_back(Word);
    Out.MayNameParameter |= llvm::is_contained(Params, Word);
    // A '(' after blanks and continuations: the word is called.
    size_t N = E;
    while (N < Text.size() && (isHorizontalWhitespace(Text[N]) || Continued(N)))
      N = Continued(N) ? SkipContinuation(N) : N + 1;
    if (N < Text.size() && Text[N] == '(')
      Out.Called.push_back(Word);
    P = E;
  }
  return Out;
}

DefinitionText definitionText(const MacroInfo &MI) {
  DefinitionText Out;
  for (const IdentifierInfo *P : MI.params())
    Out.Params.push_back(P->getName());
  ArrayRef<Token> Toks = MI.tokens();
  for (size_t I = 0; I < Toks.size(); ++I) {
    const Token &T = Toks[I];
    StringRef Word;
    if (const IdentifierInfo *II = T.getIdentifierInfo())
      Word = II->getName();
    else if (T.is(tok::numeric_constant) && T.getLiteralData())
      Word = StringRef(T.getLiteralData(), T.getLength());
    if (Word.empty()) {
      Out.OtherPunctuation |=
          !T.isOneOf(tok::l_paren, tok::r_paren, tok::l_brace, tok::r_brace, tok::exclaim,
                     tok::semi, tok::less, tok::greater);
      continue;
    }
    Out.Words.push_back(Word);
    Out.MayNameParameter |= llvm::is_contained(Out.Params, Word);
    if (I + 1 < Toks.size() && Toks[I + 1].is(tok::l_paren))
      Out.Called.push_back(Word);
  }
  return Out;
}

bool bodyNamesParameter(const MacroInfo &MI) {
  if (MI.getNumParams() == 0 || MI.getNumTokens() == 0 || MI.getNumTokens() > 64)
    return false;
  for (const Token &T : MI.tokens())
    if (const IdentifierInfo *I = T.getIdentifierInfo();
        I && llvm::is_contained(MI.params(), I))
      return true;
  return false;
}

std::optional<MacroUse> macroUse(const Token &Name, SourceLocation NameLoc,
                                 const MacroArgs &Args, unsigned Index,
                                 const Preprocessor &PP) {
  MacroUse U;
  U.Name = Name.getIdentifierInfo()->getName().str();
  U.NameLoc = NameLoc;
  for (const Token *T = Args.getUnexpArgument(Index); T->isNot(tok::eof); ++T) {
    if (U.ArgTokens.empty())
      U.ArgFirst = T->getLocation();
    U.ArgLast = T->getLocation();
    U.ArgTokens.push_back(PP.getSpelling(*T));
    const IdentifierInfo *Id = T->getIdentifierInfo();
    const MacroInfo *Macro = Id ? PP.getMacroInfo(Id) : nullptr;
    if (!Macro || !Macro->isFunctionLike())
      U.ArgTokensNoMacros.push_back(U.ArgTokens.back());
  }
  if (U.ArgTokens.empty())
    return std::nullopt;
  return U;
}

} // namespace hotpath
