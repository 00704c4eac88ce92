//===--- NoopAssertCheck.cpp - hotpath-noop-assert ------------------------===//

#include "checks/NoopAssertCheck.h"
#include "rewrite/Edits.h"
#include "rewrite/Spelling.h"
#include "analysis/SideEffects.h"
#include "analysis/Reporting.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/MacroArgs.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Path.h"
#include <map>
#include <set>

using namespace clang;

namespace hotpath {

//===----------------------------------------------------------------------===//
// Macro bodies.
//===----------------------------------------------------------------------===//

namespace {
/// Recursive descent over a macro body's token spellings.
class BodyParser {
public:
  BodyParser(ArrayRef<std::string> T, StringRef P) : T(T), P(P) {}

  /// The forms a disabled assert takes that evaluate the argument and do
  /// nothing else with it: an expression cast to void, `do S while (0)`,
  /// `if (x) {}`.
  bool evaluatingForm() {
    for (auto Form : {&BodyParser::doWhile, &BodyParser::ifStmt, &BodyParser::voidExpr}) {
      I = 0;
      SawParam = false;
      if ((this->*Form)() && I == T.size() && SawParam)
        return true;
    }
    return false;
  }

private:
  bool at(StringRef S, size_t Ahead = 0) const {
    return I + Ahead < T.size() && T[I + Ahead] == S;
  }
  bool eat(StringRef S) {
    if (!at(S))
      return false;
    ++I;
    return true;
  }
  bool castTo(std::initializer_list<StringRef> Types) {
    for (StringRef Ty : Types)
      if (at("(") && at(Ty, 1) && at(")", 2)) {
        I += 3;
        return true;
      }
    return false;
  }
  /// The argument, maybe negated, cast or parenthesised: evaluated, value
  /// unused further.
  bool evalExpr() {
    size_t S = I;
    if (eat(P))
      return SawParam = true;
    if (eat("!") && evalExpr())
      return true;
    I = S;
    if (castTo({"void", "bool", "_Bool", "int", "long"}) && evalExpr())
      return true;
    I = S;
    if (eat("(") && evalExpr() && eat(")"))
      return true;
    I = S;
    if (eat("static_cast") && eat("<") && (eat("void") || eat("bool")) && eat(">") &&
        eat("(") && evalExpr() && eat(")"))
      return true;
    I = S;
    return false;
  }
  /// An expression whose value is discarded by a cast to void.
  bool voidExpr() {
    size_t S = I;
    if (castTo({"void"}) && evalExpr())
      return true;
    I = S;
    if (eat("static_cast") && eat("<") && eat("void") && eat(">") && eat("(") &&
        evalExpr() && eat(")"))
      return true;
    I = S;
    if (eat("(") && voidExpr() && eat(")"))
      return true;
    I = S;
    return false;
  }
  bool ifStmt() {
    size_t S = I;
    if (eat("if") && eat("(") && evalExpr() && eat(")")) {
      if (eat(";"))
        return true;
      if (eat("{")) {
        while (eat(";"))
          ;
        if (eat("}") && !at("else"))
          return true;
      }
    }
    I = S;
    return false;
  }
  bool stmt() {
    size_t S = I;
    if (eat(";"))
      return true;
    if (eat("{")) {
      while (!at("}") && I < T.size())
        if (!stmt()) {
          I = S;
          return false;
        }
      if (eat("}"))
        return true;
      I = S;
      return false;
    }
    if (ifStmt())
      return true;
    if ((voidExpr() || evalExpr()) && eat(";"))
      return true;
    I = S;
    return false;
  }
  bool doWhile() {
    return eat("do") && stmt() && eat("while") && eat("(") && eat("0") && eat(")");
  }

  ArrayRef<std::string> T;
  StringRef P;
  size_t I = 0;
  bool SawParam = false; // do {} while (0) evaluates nothing
};

/// Strips balanced outer parentheses around the whole token list.
ArrayRef<std::string> stripOuterParens(ArrayRef<std::string> T) {
  while (T.size() >= 2 && T.front() == "(" && T.back() == ")") {
    int Depth = 0;
    bool Whole = true;
    for (size_t I = 0; I < T.size(); ++I) {
      Depth += T[I] == "(" ? 1 : T[I] == ")" ? -1 : 0;
      if (Depth == 0 && I + 1 < T.size()) {
        Whole = false;
        break;
      }
    }
    if (!Whole)
      break;
    T = T.drop_front().drop_back();
  }
  return T;
}
} // namespace

NoopAssertCheck::BodyKind NoopAssertCheck::classifyBody(ArrayRef<std::string> Tokens,
                                                        StringRef Param) {
  if (Tokens.empty())
    return BodyKind::NonEvaluating;
  if (BodyParser(Tokens, Param).evaluatingForm())
    return BodyKind::Evaluating;
  // do {} while (0), ((void)0), (void)sizeof(...), (void)(0 && ...).
  static const std::vector<std::string> EmptyDo = {"do", "{", "}", "while", "(", "0", ")"};
  if (Tokens == ArrayRef<std::string>(EmptyDo))
    return BodyKind::NonEvaluating;
  ArrayRef<std::string> T = stripOuterParens(Tokens);
  if (T.size() >= 4 && T[0] == "(" && T[1] == "void" && T[2] == ")") {
    ArrayRef<std::string> R = T.drop_front(3);
    while (!R.empty() && R.front() == "(")
      R = R.drop_front();
    if (!R.empty() && (R[0] == "sizeof" || (R.size() == 1 && R[0] == "0") ||
                       (R.size() >= 2 && (R[0] == "0" || R[0] == "false") &&
                        (R[1] == "&&" || R[1] == ")"))))
      return BodyKind::NonEvaluating;
  }
  return BodyKind::Other;
}

std::string NoopAssertCheck::replacementBody(StringRef Param) {
  // Not sizeof(!(x)): clang then says a static function used only in the
  // argument "is not needed and will not be emitted", and C++ before C++20
  // rejects a lambda in an unevaluated operand. `0 && ...` never evaluates
  // its right side in C and C++, emits no code even at -O0, and `!!` makes
  // the right side a plain truth value (no -Wconstant-logical-operand).
  return ("((void)(0 && !!(" + Param + ")))").str();
}

bool NoopAssertCheck::isEnabledForm(ArrayRef<std::string> Tokens, StringRef Param,
                                    const RuleIndex &Rules) {
  if (Param.empty() || !llvm::is_contained(Tokens, Param))
    return false;
  auto Fails = [&](StringRef N) {
    return Rules.ReportingFunctions.contains(N) || Rules.ReportingMacros.contains(N) ||
           Rules.NoreturnFunctions.contains(N) || Rules.MustEvaluateMacros.contains(N) ||
           Rules.AssertMacros.contains(N) || !Rules.AssertPatterns.match(N).empty() ||
           nameSaysReporting(N) || nameSaysAborting(N);
  };
  auto IsIdent = [](StringRef T) { return !T.empty() && isAsciiIdentifierStart(T[0]); };
  bool Tests = false, Calls = false;
  for (size_t I = 0; I < Tokens.size(); ++I) {
    StringRef T = Tokens[I];
    Tests |= T == "if" || T == "?" || T == "&&" || T == "||";
    Calls |= IsIdent(T) && I + 1 < Tokens.size() && Tokens[I + 1] == "(" && Fails(T);
  }
  // BUG_ON(cond), assert(!(cond)): the test is the other macro's.
  bool Delegates = Tokens.size() > 1 && IsIdent(Tokens[0]) && Tokens[1] == "(" &&
                   Fails(Tokens[0]);
  return Calls && (Tests || Delegates);
}

//===----------------------------------------------------------------------===//
// Preprocessor: definitions, active and skipped, and uses.
//===----------------------------------------------------------------------===//

static StringRef rawSpelling(const Token &Tok, const SourceManager &SM) {
  if (Tok.is(tok::raw_identifier))
    return Tok.getRawIdentifier();
  return StringRef(SM.getCharacterData(Tok.getLocation()), Tok.getLength());
}

/// Raw-lexes the definition whose name token is at \p NameLoc (the rest of
/// its directive): its parameters and its body's tokens. The condition is
/// the one parameter the body names.
static std::optional<NoopAssertCheck::MacroDef>
lexDefinition(SourceLocation NameLoc, SourceLocation HashLoc, const SourceManager &SM,
              const LangOptions &LangOpts) {
  std::pair<FileID, unsigned> D = SM.getDecomposedLoc(NameLoc);
  bool Invalid = false;
  StringRef Buf = SM.getBufferData(D.first, &Invalid);
  if (Invalid)
    return std::nullopt;
  Lexer L(SM.getLocForStartOfFile(D.first), LangOpts, Buf.begin(), Buf.begin() + D.second,
          Buf.end());
  Token Tok;
  NoopAssertCheck::MacroDef Def;
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
  while (!L.LexFromRawLexer(Tok) && !Tok.isAtStartOfLine()) {
    if (Def.Tokens.empty())
      Def.BodyBegin = Tok.getLocation();
    Def.Tokens.push_back(rawSpelling(Tok, SM).str());
    Def.BodyEnd = Tok.getEndLoc();
  }
  unsigned Named = 0;
  for (unsigned I = 0; I < Def.Params.size(); ++I)
    if (llvm::is_contained(Def.Tokens, Def.Params[I])) {
      ++Named;
      Def.CondIndex = I;
    }
  if (Named == 1)
    Def.Param = Def.Params[Def.CondIndex];
  else
    Def.CondIndex = 0;
  Def.Kind = NoopAssertCheck::classifyBody(Def.Tokens, Def.Param);
  return Def;
}

/// Calls \p F(HashOffset, NameOffset) for each "# define NAME(" that starts
/// a line of \p Text outside a block comment: the function-like macro
/// definitions of a skipped block, found without lexing it.
template <typename Fn> static void forEachFunctionLikeDefine(StringRef Text, Fn F) {
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
        size_t Close = Text.find("*/", Scanned);
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
  for (size_t At = Text.find("define"); At != StringRef::npos;
       At = Text.find("define", At + 6)) {
    size_t Hash = At;
    while (Hash > 0 && IsBlank(Text[Hash - 1]))
      --Hash;
    if (Hash == 0 || Text[Hash - 1] != '#')
      continue;
    --Hash;
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

/// True when the directives between the definitions starting at \p A and
/// \p B (one file, A first) put them on two sides of one #if: on the way
/// from A to B an #else or #elif of the innermost group holding both is
/// crossed.
static bool onOtherSidesOfOneIf(SourceLocation A, SourceLocation B, const SourceManager &SM,
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

class NoopAssertPPCallbacks : public PPCallbacks {
public:
  NoopAssertPPCallbacks(NoopAssertCheck &Check, const SourceManager &SM,
                        const Preprocessor &PP)
      : Check(Check), SM(SM), PP(PP) {}

  void MacroDefined(const Token &Name, const MacroDirective *MD) override {
    // Every macro of the TU comes here (sqlite3.c: thousands): the cheap
    // tests first, the location's (a line-table lookup) last.
    const MacroInfo *MI = MD->getMacroInfo();
    const IdentifierInfo *II = Name.getIdentifierInfo();
    SourceLocation Loc = Name.getLocation();
    bool Explained = Check.explaining(II->getName());
    if (!MI || !Loc.isFileID())
      return;
    if (!MI->isFunctionLike()) {
      if (Explained)
        Check.ExplainSkipped.push_back({Loc, "it is not a function-like macro"});
      return;
    }
    // A name no list or pattern gives is only worth lexing when its body
    // names a parameter: a disabled form evaluates one, an enabled one
    // tests one.
    if (!Explained && !namesParameter(*MI) &&
        Check.recognisedByName(II->getName()) == NoopAssertCheck::Recognition::None)
      return;
    // Built-in and command-line macros live in a buffer with no file; the
    // presumed location would say so too, at a line-table lookup a macro
    // (0.7% of the module's run on sqlite3.c).
    if (SM.isInSystemHeader(Loc) || !SM.getFileEntryRefForID(SM.getFileID(Loc))) {
      if (Explained)
        Check.ExplainSkipped.push_back(
            {Loc, "it is defined in a system header, built in or on the command line: "
                  "never touched"});
      return;
    }
    add(Loc, SourceLocation(), /*Active=*/true);
  }

  void SourceRangeSkipped(SourceRange Range, SourceLocation EndifLoc) override {
    SourceLocation Begin = Range.getBegin();
    if (!Begin.isFileID() || SM.isInSystemHeader(Begin))
      return;
    std::pair<FileID, unsigned> B = SM.getDecomposedLoc(Begin);
    std::pair<FileID, unsigned> E = SM.getDecomposedLoc(Range.getEnd());
    if (B.first != E.first || E.second < B.second)
      return;
    bool Invalid = false;
    StringRef Buf = SM.getBufferData(B.first, &Invalid);
    if (Invalid)
      return;
    // Only the function-like definitions are lexed, each from its own '#':
    // lexing whole skipped blocks cost 1.3% of the module's run on
    // sqlite3.c.
    StringRef Text = Buf.slice(B.second, E.second);
    SourceLocation FileStart = SM.getLocForStartOfFile(B.first);
    forEachFunctionLikeDefine(Text, [&](size_t Hash, size_t Name) {
      add(FileStart.getLocWithOffset(B.second + Name),
          FileStart.getLocWithOffset(B.second + Hash), /*Active=*/false);
    });
  }

  void MacroExpands(const Token &Name, const MacroDefinition &MD, SourceRange Range,
                    const MacroArgs *Args) override {
    const IdentifierInfo *II = Name.getIdentifierInfo();
    if (!Args || !Check.AssertIdents.contains(II))
      return;
    const MacroInfo *MI = MD.getMacroInfo();
    unsigned Index = Check.CondIndexOf.lookup(II);
    if (!MI || SM.isInSystemHeader(MI->getDefinitionLoc()) ||
        SM.isInSystemHeader(SM.getExpansionLoc(Range.getBegin())) ||
        Index >= Args->getNumMacroArguments())
      return;
    NoopAssertCheck::Use U;
    U.Name = II->getName().str();
    U.NameLoc = Range.getBegin();
    for (const Token *T = Args->getUnexpArgument(Index); T->isNot(tok::eof); ++T) {
      if (U.ArgTokens.empty())
        U.ArgFirst = T->getLocation();
      U.ArgLast = T->getLocation();
      U.ArgTokens.push_back(PP.getSpelling(*T));
      const IdentifierInfo *Id = T->getIdentifierInfo();
      const MacroInfo *Macro = Id ? PP.getMacroInfo(Id) : nullptr;
      if (!Macro || !Macro->isFunctionLike())
        U.ArgTokensNoMacros.push_back(U.ArgTokens.back());
    }
    if (!U.ArgTokens.empty())
      Check.Uses.push_back(std::move(U));
  }

private:
  static bool namesParameter(const MacroInfo &MI) {
    if (MI.getNumParams() == 0 || MI.getNumTokens() == 0 || MI.getNumTokens() > 64)
      return false;
    for (const Token &T : MI.tokens())
      if (const IdentifierInfo *I = T.getIdentifierInfo();
          I && llvm::is_contained(MI.params(), I))
        return true;
    return false;
  }

  void add(SourceLocation NameLoc, SourceLocation HashLoc, bool Active) {
    std::pair<FileID, unsigned> D = SM.getDecomposedLoc(NameLoc);
    if (HashLoc.isInvalid()) {
      // The '#' that starts the directive: the first token of the line.
      StringRef Buf = SM.getBufferData(D.first);
      size_t LineStart = Buf.rfind('\n', D.second);
      LineStart = LineStart == StringRef::npos ? 0 : LineStart + 1;
      size_t Hash = Buf.find('#', LineStart);
      if (Hash != StringRef::npos && Hash < D.second)
        HashLoc = SM.getLocForStartOfFile(D.first).getLocWithOffset(Hash);
    }
    std::optional<NoopAssertCheck::MacroDef> Def =
        lexDefinition(NameLoc, HashLoc, SM, PP.getLangOpts());
    if (!Def)
      return;
    bool Explained = Check.explaining(Def->Name);
    if (Check.Never.contains(Def->Name)) {
      if (Explained)
        Check.ExplainSkipped.push_back(
            {NameLoc, "it must evaluate its argument in every build (must_evaluate_macros "
                      "or the MustEvaluateMacros option): never touched"});
      return;
    }
    bool ByName =
        Check.recognisedByName(Def->Name) != NoopAssertCheck::Recognition::None;
    bool Evaluating = Def->Kind == NoopAssertCheck::BodyKind::Evaluating;
    if (!Evaluating)
      for (const std::string &P : Def->Params)
        Def->Enabled |= NoopAssertCheck::isEnabledForm(Def->Tokens, P, Check.ruleIndex());
    // Kept: asserts by name, disabled forms that may have a twin, and
    // enabled forms that may be one.
    if (!ByName && !Evaluating && !Def->Enabled && !Explained)
      return;
    OptionalFileEntryRef File = SM.getFileEntryRefForID(D.first);
    std::string Key = (File ? File->getName().str() : std::string("<buffer>")) + ":" +
                      std::to_string(D.second);
    if (!Check.DefKeys.insert(Key).second)
      return;
    const IdentifierInfo *II = PP.getIdentifierInfo(Def->Name);
    if (ByName || Evaluating) {
      Check.AssertIdents.insert(II);
      if (Def->Kind != NoopAssertCheck::BodyKind::Other)
        Check.CondIndexOf.try_emplace(II, Def->CondIndex);
    }
    Def->Active = Active;
    Check.Defs.push_back(std::move(*Def));
  }

  NoopAssertCheck &Check;
  const SourceManager &SM;
  const Preprocessor &PP;
};

namespace {
/// Where a location was written as a token of a macro argument, one level
/// of macro argument at a time: yields each "as passed" location going out.
/// A token of a macro's body stands for that macro's use: its name, or with
/// \p AtEnd (\p L ends an expression) its ')'. So `erofs_blkoff(blkpos)`,
/// passed to an assert, is found as the argument it is.
template <typename Fn>
void forEachArgSpelling(SourceLocation L, const SourceManager &SM, bool AtEnd, Fn F) {
  while (L.isMacroID()) {
    if (SM.isMacroArgExpansion(L)) {
      L = SM.getImmediateSpellingLoc(L);
    } else {
      CharSourceRange R = SM.getImmediateExpansionRange(L);
      L = AtEnd ? R.getEnd() : R.getBegin();
    }
    if (F(L))
      return;
  }
}

/// Finds, for each use, the outermost expression that is exactly its
/// argument. Only declarations that contain a use are walked.
class ArgFinder : public RecursiveASTVisitor<ArgFinder> {
public:
  ArgFinder(std::vector<NoopAssertCheck::Use> &Uses, const SourceManager &SM)
      : Uses(Uses), SM(SM) {
    for (size_t I = 0; I < Uses.size(); ++I) {
      ByFirst[Uses[I].ArgFirst.getRawEncoding()] = I;
      Positions.push_back(SM.getExpansionLoc(Uses[I].NameLoc));
    }
    llvm::sort(Positions, [&](SourceLocation A, SourceLocation B) {
      return SM.isBeforeInTranslationUnit(A, B);
    });
  }

  bool TraverseDecl(Decl *D) {
    if (!D)
      return true;
    if (!isa<TranslationUnitDecl>(D)) {
      SourceRange R = D->getSourceRange();
      if (R.isInvalid())
        return true;
      SourceLocation B = SM.getExpansionLoc(R.getBegin()), E = SM.getExpansionRange(R.getEnd()).getEnd();
      auto It = llvm::lower_bound(Positions, B, [&](SourceLocation A, SourceLocation Key) {
        return SM.isBeforeInTranslationUnit(A, Key);
      });
      if (It == Positions.end() || SM.isBeforeInTranslationUnit(E, *It))
        return true; // No use inside.
    }
    return RecursiveASTVisitor::TraverseDecl(D);
  }

  bool VisitExpr(Expr *E) {
    SourceLocation Begin = E->getBeginLoc();
    if (!Begin.isMacroID())
      return true;
    size_t Found = SIZE_MAX;
    forEachArgSpelling(Begin, SM, /*AtEnd=*/false, [&](SourceLocation L) {
      auto It = ByFirst.find(L.getRawEncoding());
      if (It == ByFirst.end())
        return false;
      Found = It->second;
      return true;
    });
    if (Found == SIZE_MAX || Uses[Found].Arg)
      return true;
    bool EndMatches = false;
    forEachArgSpelling(E->getEndLoc(), SM, /*AtEnd=*/true, [&](SourceLocation L) {
      return EndMatches = L == Uses[Found].ArgLast;
    });
    if (EndMatches)
      Uses[Found].Arg = E;
    return true;
  }

private:
  std::vector<NoopAssertCheck::Use> &Uses;
  const SourceManager &SM;
  llvm::DenseMap<SourceLocation::UIntTy, size_t> ByFirst;
  std::vector<SourceLocation> Positions;
};
} // namespace


//===----------------------------------------------------------------------===//
// The check.
//===----------------------------------------------------------------------===//

NoopAssertCheck::NoopAssertCheck(StringRef Name, tidy::ClangTidyContext *Context)
    : HotpathCheck(Name, Context) {
  OptionReader &O = options();
  std::vector<std::string> Asserts = O.list("AssertMacros");
  std::vector<std::string> Patterns = O.list("AssertMacroPatterns");
  std::vector<std::string> MustEvaluate = O.list("MustEvaluateMacros");
  CheckFunctionCalls = O.flag("CheckFunctionCalls", false);
  for (const std::string &N : rules().MustEvaluateMacros)
    Never.insert(N);
  for (const std::string &N : MustEvaluate)
    Never.insert(N);
  for (const std::string &N : rules().AssertMacros)
    ListedNames.insert(N);
  for (const std::string &N : Asserts)
    OptionNames.insert(N);
  for (const std::string &P : rules().AssertMacroPatterns)
    llvm::consumeError(this->Patterns.add(P)); // loadRuleSet rejected a bad one
  for (const std::string &P : Patterns)
    if (llvm::Error E = this->Patterns.add(P))
      configurationError("option AssertMacroPatterns: " + llvm::toString(std::move(E)));
}

NoopAssertCheck::Recognition NoopAssertCheck::recognisedByName(StringRef Name) const {
  if (Never.contains(Name))
    return Recognition::None;
  if (OptionNames.contains(Name))
    return Recognition::Option;
  if (ListedNames.contains(Name))
    return Recognition::RuleSetList;
  return Patterns.match(Name).empty() ? Recognition::None : Recognition::Pattern;
}

const NoopAssertCheck::MacroDef *
NoopAssertCheck::enabledTwin(const MacroDef &D, const SourceManager &SM,
                             const LangOptions &LangOpts) const {
  if (D.HashLoc.isInvalid())
    return nullptr;
  for (const MacroDef &E : Defs) {
    if (&E == &D || E.Name != D.Name || !E.Enabled || E.HashLoc.isInvalid() ||
        E.Params.size() <= D.CondIndex ||
        SM.getFileID(E.HashLoc) != SM.getFileID(D.HashLoc) ||
        !isEnabledForm(E.Tokens, E.Params[D.CondIndex], ruleIndex()))
      continue;
    bool DFirst = SM.getFileOffset(D.HashLoc) < SM.getFileOffset(E.HashLoc);
    if (onOtherSidesOfOneIf(DFirst ? D.HashLoc : E.HashLoc, DFirst ? E.HashLoc : D.HashLoc,
                            SM, LangOpts))
      return &E;
  }
  return nullptr;
}

void NoopAssertCheck::registerCheckPPCallbacks(const SourceManager &SM, Preprocessor *PP) {
  PP->addPPCallbacks(std::make_unique<NoopAssertPPCallbacks>(*this, SM, *PP));
}

void NoopAssertCheck::reset() {
  Defs.clear();
  DefKeys.clear();
  Uses.clear();
  AssertIdents.clear();
  CondIndexOf.clear();
  ExplainSkipped.clear();
}

void NoopAssertCheck::run(TUContext &TU) {
  ASTContext &Ctx = TU.ast();
  const SourceManager &SM = Ctx.getSourceManager();
  // Which macros are asserts: by name, or by an enabled twin.
  llvm::StringMap<Recognition> How;
  llvm::DenseMap<const MacroDef *, const MacroDef *> Twins;
  llvm::StringMap<std::vector<const MacroDef *>> Evaluating;
  llvm::StringSet<> Disabled; // names with a disabled form of either kind
  for (const MacroDef &D : Defs) {
    Recognition R = recognisedByName(D.Name);
    if (R == Recognition::None && D.Kind == BodyKind::Evaluating)
      if (const MacroDef *Twin = enabledTwin(D, SM, Ctx.getLangOpts())) {
        Twins[&D] = Twin;
        R = Recognition::Twin;
      }
    if (R == Recognition::None)
      continue;
    Recognition &Known = How[D.Name];
    if (Known == Recognition::None)
      Known = R;
    if (D.Kind == BodyKind::Evaluating)
      Evaluating[D.Name].push_back(&D);
    if (D.Kind != BodyKind::Other)
      Disabled.insert(D.Name);
  }
  if (Disabled.empty() && !explainRequested())
    return;
  llvm::erase_if(Uses, [&](const Use &U) { return !Disabled.contains(U.Name); });
  if (!Uses.empty())
    ArgFinder(Uses, SM).TraverseDecl(Ctx.getTranslationUnitDecl());

  // Judge every use: a disabled assert drops its condition. What it costs
  // decides whether the definition is worth reporting: a condition the
  // compiler can drop by itself (a comparison of locals, UNUSED(x)) costs
  // nothing.
  const SideEffectOptions Dropped = SideEffectOptions::forDroppedEvaluation(CheckFunctionCalls);
  const SideEffectOptions Work = SideEffectOptions::forKeptWork();
  SideEffectOptions TokenWork = Work;
  TokenWork.InvisibleCallsAreEffects = true;
  llvm::StringMap<unsigned> Blocking, Costly, Seen;
  llvm::StringMap<std::pair<const Use *, std::string>> FirstCostly;
  llvm::StringMap<std::vector<CheckFunctionCall>> Checks;
  auto CountCostly = [&](const Use &U, std::string Why) {
    if (Costly[U.Name]++ == 0)
      FirstCostly[U.Name] = {&U, std::move(Why)};
  };
  for (const Use &U : Uses) {
    std::optional<SideEffect> Eff;
    ++Seen[U.Name];
    if (U.Arg) {
      if (U.Arg->containsErrors())
        continue;
      SideEffectReport R = analyseSideEffects(U.Arg, Dropped, ruleIndex(), Ctx);
      llvm::append_range(Checks[U.Name], R.CheckFunctionCalls);
      Eff = R.Effect;
      if (!Eff && !U.Arg->isTypeDependent() &&
               (U.Arg->getType()->isVoidType() ||
                (!Ctx.getLangOpts().CPlusPlus && !U.Arg->getType()->isScalarType()))) {
        // Not a side effect, but `!!(x)` would not compile.
        Blocking[U.Name]++;
        CountCostly(U, "it is not a scalar value");
        Finding F;
        F.Kind = kind::AssertArgumentNotScalar;
        F.Subject = U.Name;
        F.Warning = {SM.getExpansionLoc(U.NameLoc),
                     "argument of '%0' is not a scalar value; the disabled '%0' cannot test "
                     "it without evaluating it",
                     {U.Name}};
        emit(std::move(F));
        continue;
      }
      if (!Eff)
        if (std::optional<SideEffect> W = findSideEffect(U.Arg, Work, ruleIndex(), Ctx))
          CountCostly(U, describe(*W, Ctx));
    } else {
      Eff = findSideEffectInTokens(U.ArgTokens, Dropped, ruleIndex());
      if (!Eff)
        if (std::optional<SideEffect> W =
                findSideEffectInTokens(U.ArgTokensNoMacros, TokenWork, ruleIndex()))
          CountCostly(U, describe(*W, Ctx));
    }
    if (!Eff)
      continue;
    Blocking[U.Name]++;
    CountCostly(U, describe(*Eff, Ctx));
    auto ItDefs = Evaluating.find(U.Name);
    bool Rewritable = ItDefs != Evaluating.end();
    SourceLocation UseLoc = SM.getExpansionLoc(U.NameLoc);
    Finding F;
    F.Kind = kind::AssertArgumentEffect;
    F.Subject = U.Name;
    F.Warning = {UseLoc,
                 Rewritable ? "argument of '%0' has a side effect (%1); a disabled '%0' that "
                              "does not evaluate its argument would lose it, so the definition "
                              "of '%0' is not rewritten"
                            : "argument of '%0' has a side effect (%1), which is lost when "
                              "'%0' is disabled",
                 {U.Name, describe(*Eff, Ctx)}};
    // Another translation unit may not see this use and offer the rewrite:
    // an identical replacement of the whole directive overlaps it, and
    // clang-tidy (or clang-apply-replacements) then drops the rewrite.
    if (Rewritable)
      for (const MacroDef *Def : ItDefs->second)
        if (Def->HashLoc.isValid() && !SM.isWrittenInMainFile(Def->NameLoc)) {
          SourceLocation End = Def->BodyEnd.isValid()
                                   ? Def->BodyEnd
                                   : Def->NameLoc.getLocWithOffset(Def->Name.size());
          F.Fixes.push_back(keepChars(Def->HashLoc, End, SM, Ctx.getLangOpts()));
        }
    // A side effect inside a called function: show where.
    if (Eff->Where && SM.getExpansionLoc(Eff->Where->getBeginLoc()) != UseLoc)
      F.Notes.push_back({Eff->Where->getBeginLoc(), "the state changes here", {}});
    emit(std::move(F));
  }

  // Every definition of an assert whose disabled form evaluates, where some
  // use pays for it.
  for (const MacroDef &D : Defs) {
    Recognition R = How.lookup(D.Name);
    if (D.Kind == BodyKind::Evaluating && R != Recognition::None &&
        recognisedByName(D.Name) == Recognition::None && !Twins.count(&D))
      R = Recognition::None; // a structural candidate without a twin of its own
    unsigned Blocked = Blocking.lookup(D.Name);
    bool Report = D.Kind == BodyKind::Evaluating && R != Recognition::None &&
                  Costly.lookup(D.Name) > 0;
    if (explaining(D.Name)) {
      auto First = FirstCostly.find(D.Name);
      explainMacro(D, R, Twins.lookup(&D), Seen.lookup(D.Name),
                   First == FirstCostly.end() ? nullptr : First->second.first,
                   First == FirstCostly.end() ? std::string() : First->second.second,
                   Blocked, Report, Ctx);
    }
    if (!Report)
      continue;
    Finding F;
    F.Kind = kind::NoopAssert;
    F.Subject = D.Name;
    F.Warning = {D.NameLoc,
                 "disabled assert '%0' still evaluates its argument; make it type-check the "
                 "argument without evaluating it",
                 {D.Name}};
    if (Blocked)
      F.Refused = NoFix{NoFixReason::UsesNeedEvaluation, D.NameLoc, D.Name, "", "", Blocked};
    else if (D.BodyBegin.isValid())
      F.Fixes.push_back(replaceChars(D.BodyBegin, D.BodyEnd, replacementBody(D.Param)));
    std::set<const FunctionDecl *> Said;
    for (const auto &[FD, Call] : Checks.lookup(D.Name))
      if (Said.insert(FD->getCanonicalDecl()).second)
        F.FixNotes.push_back({Call->getBeginLoc(),
                              "%0 is a check function that only reports: dropping its call "
                              "with the disabled assert is the point",
                              {FD}});
    emit(std::move(F));
  }
  for (const auto &[Loc, Why] : ExplainSkipped) {
    explainBegin(Loc, "a definition of macro '" + explainName().str() +
                          "'; hotpath-noop-assert does not read it");
    explainStep(Loc, Why);
  }
}

void NoopAssertCheck::explainMacro(const MacroDef &D, Recognition How, const MacroDef *Twin,
                                   unsigned UsesSeen, const Use *FirstWork,
                                   const std::string &WorkWhy, unsigned Blocked,
                                   bool Reported, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  explainBegin(D.NameLoc, std::string("a definition of macro '") + D.Name + "' (" +
                              (D.Active ? "the one this build uses"
                                        : "in a branch this build skips") +
                              "); the steps of hotpath-noop-assert follow");
  switch (How) {
  case Recognition::RuleSetList:
    explainStep(D.NameLoc, "assert-like by name: the rule set's assert_macros list it");
    break;
  case Recognition::Option:
    explainStep(D.NameLoc, "assert-like by name: the AssertMacros option lists it");
    break;
  case Recognition::Pattern:
    explainStep(D.NameLoc, "assert-like by name: it matches the pattern '" +
                               Patterns.match(D.Name) +
                               "' (assert_macro_patterns, AssertMacroPatterns)");
    break;
  case Recognition::Twin:
    explainStep(Twin->NameLoc, "assert-like by structure: this definition, on the other "
                               "side of the same #if, tests the same parameter and reports "
                               "or aborts");
    break;
  case Recognition::None:
    explainStep(D.NameLoc, "not assert-like: no list names it, no pattern matches it, and "
                           "no definition on the other side of the same #if tests the same "
                           "parameter and reports or aborts");
    break;
  }
  switch (D.Kind) {
  case BodyKind::Evaluating:
    explainStep(D.BodyBegin.isValid() ? D.BodyBegin : D.NameLoc,
                "its body evaluates parameter '" + D.Param +
                    "' and does nothing else with it: disabled, it still costs what its "
                    "argument costs");
    break;
  case BodyKind::NonEvaluating:
    explainStep(D.NameLoc, "its body does not evaluate its argument: nothing to fix");
    return;
  case BodyKind::Other:
    explainStep(D.NameLoc, D.Enabled ? "its body is an enabled form (it tests its condition "
                                       "and reports or aborts): never touched"
                                     : "its body is no disabled form this check knows (it "
                                       "uses the value, does more, or names several "
                                       "parameters): never touched");
    return;
  }
  if (How == Recognition::None)
    return;
  if (!FirstWork) {
    explainStep(D.NameLoc, std::to_string(UsesSeen) +
                               " use(s) in this translation unit, none with a condition "
                               "that does work the compiler must keep (a call it cannot "
                               "see, a report, a loop, a write, a volatile read): nothing "
                               "to gain, not reported");
    return;
  }
  explainStep(SM.getExpansionLoc(FirstWork->NameLoc),
              std::to_string(UsesSeen) +
                  " use(s) in this translation unit; this one's condition does work the "
                  "compiler must keep: " + WorkWhy);
  if (Blocked)
    explainStep(D.NameLoc, "no fix: " + std::to_string(Blocked) +
                               " use(s) need the argument evaluated (reported at each)");
  else if (Reported)
    explainStep(D.NameLoc, "reported, with the fix: the body becomes '" +
                               replacementBody(D.Param) + "'");
}

} // namespace hotpath
