//===--- NoopAssertCheck.cpp - hotpath-noop-assert ------------------------===//

#include "NoopAssertCheck.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/MacroArgs.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Path.h"
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

//===----------------------------------------------------------------------===//
// Preprocessor: definitions, active and skipped, and uses.
//===----------------------------------------------------------------------===//

static StringRef rawSpelling(const Token &Tok, const SourceManager &SM) {
  if (Tok.is(tok::raw_identifier))
    return Tok.getRawIdentifier();
  return StringRef(SM.getCharacterData(Tok.getLocation()), Tok.getLength());
}

/// Raw-lexes the definition whose name token is at \p NameLoc (the rest of
/// its directive): one parameter and the body's tokens.
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
  std::vector<std::string> Params;
  while (true) {
    if (L.LexFromRawLexer(Tok) || Tok.isAtStartOfLine())
      return std::nullopt;
    if (Tok.is(tok::r_paren))
      break;
    if (Tok.is(tok::raw_identifier))
      Params.push_back(Tok.getRawIdentifier().str());
    else if (Tok.is(tok::ellipsis))
      Params.push_back("__VA_ARGS__");
    else if (Tok.isNot(tok::comma))
      return std::nullopt;
  }
  if (Params.size() != 1)
    return std::nullopt;
  Def.Param = Params.front();
  while (!L.LexFromRawLexer(Tok) && !Tok.isAtStartOfLine()) {
    if (Def.Tokens.empty())
      Def.BodyBegin = Tok.getLocation();
    Def.Tokens.push_back(rawSpelling(Tok, SM).str());
    Def.BodyEnd = Tok.getEndLoc();
  }
  Def.Kind = NoopAssertCheck::classifyBody(Def.Tokens, Def.Param);
  return Def;
}

/// A cheap text test before raw-lexing skipped code: some line reads
/// "# define NAME" with NAME one of \p Names. It may say yes for a directive
/// inside a comment; the lexer then decides.
static bool mayDefineAny(StringRef Text, const llvm::StringSet<> &Names) {
  // Line continuations count as blank: "#define \\<newline> ASSERT(x)".
  auto IsBlank = [](char C) {
    return C == ' ' || C == '\t' || C == '\\' || C == '\n' || C == '\r';
  };
  for (size_t At = Text.find("define"); At != StringRef::npos;
       At = Text.find("define", At + 6)) {
    size_t Hash = At;
    while (Hash > 0 && IsBlank(Text[Hash - 1]))
      --Hash;
    if (Hash == 0 || Text[Hash - 1] != '#')
      continue;
    StringRef Rest = Text.drop_front(At + 6);
    size_t NameStart = 0;
    while (NameStart < Rest.size() && IsBlank(Rest[NameStart]))
      ++NameStart;
    if (NameStart == 0)
      continue; // "defined", "define_x"
    StringRef Name = Rest.drop_front(NameStart);
    Name = Name.take_while([](char C) { return isAsciiIdentifierContinue(C); });
    if (Names.contains(Name))
      return true;
  }
  return false;
}

class NoopAssertPPCallbacks : public PPCallbacks {
public:
  NoopAssertPPCallbacks(NoopAssertCheck &Check, const SourceManager &SM,
                        const Preprocessor &PP)
      : Check(Check), SM(SM), PP(PP) {}

  void MacroDefined(const Token &Name, const MacroDirective *MD) override {
    const MacroInfo *MI = MD->getMacroInfo();
    if (!MI || !MI->isFunctionLike() ||
        !Check.AssertIdents.contains(Name.getIdentifierInfo()))
      return;
    SourceLocation Loc = Name.getLocation();
    if (!Loc.isFileID() || SM.isInSystemHeader(Loc) || SM.isWrittenInBuiltinFile(Loc) ||
        SM.isWrittenInCommandLineFile(Loc))
      return;
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
    // Most skipped code defines no assert: lex only blocks that may.
    if (!mayDefineAny(Buf.slice(B.second, E.second), Check.AssertNames))
      return;
    SourceLocation FileStart = SM.getLocForStartOfFile(B.first);
    SourceLocation End = FileStart.getLocWithOffset(E.second);
    Lexer L(FileStart, PP.getLangOpts(), Buf.begin(), Buf.begin() + B.second, Buf.end());
    Token Tok;
    while (!L.LexFromRawLexer(Tok)) {
      if (!(Tok.getLocation() < End)) // one file: locations order by offset
        break;
      if (!Tok.is(tok::hash) || !Tok.isAtStartOfLine())
        continue;
      SourceLocation Hash = Tok.getLocation();
      if (L.LexFromRawLexer(Tok) || Tok.isAtStartOfLine() ||
          Tok.isNot(tok::raw_identifier) || Tok.getRawIdentifier() != "define")
        continue;
      if (L.LexFromRawLexer(Tok) || Tok.isAtStartOfLine() ||
          Tok.isNot(tok::raw_identifier))
        continue;
      if (Check.AssertNames.contains(Tok.getRawIdentifier()))
        add(Tok.getLocation(), Hash, /*Active=*/false);
    }
  }

  void MacroExpands(const Token &Name, const MacroDefinition &MD, SourceRange Range,
                    const MacroArgs *Args) override {
    if (!Args || !Check.AssertIdents.contains(Name.getIdentifierInfo()))
      return;
    const MacroInfo *MI = MD.getMacroInfo();
    if (!MI || SM.isInSystemHeader(MI->getDefinitionLoc()) ||
        SM.isInSystemHeader(SM.getExpansionLoc(Range.getBegin())) ||
        Args->getNumMacroArguments() != 1)
      return;
    NoopAssertCheck::Use U;
    U.Name = Name.getIdentifierInfo()->getName().str();
    U.NameLoc = Range.getBegin();
    for (const Token *T = Args->getUnexpArgument(0); T->isNot(tok::eof); ++T) {
      if (U.ArgTokens.empty())
        U.ArgFirst = T->getLocation();
      U.ArgLast = T->getLocation();
      U.ArgTokens.push_back(PP.getSpelling(*T));
    }
    if (!U.ArgTokens.empty())
      Check.Uses.push_back(std::move(U));
  }

private:
  void add(SourceLocation NameLoc, SourceLocation HashLoc, bool Active) {
    std::pair<FileID, unsigned> D = SM.getDecomposedLoc(NameLoc);
    OptionalFileEntryRef File = SM.getFileEntryRefForID(D.first);
    std::string Key = (File ? File->getName().str() : std::string("<buffer>")) + ":" +
                      std::to_string(D.second);
    if (!Check.DefKeys.insert(Key).second)
      return;
    if (HashLoc.isInvalid()) {
      // The '#' that starts the directive: the first token of the line.
      StringRef Buf = SM.getBufferData(D.first);
      size_t LineStart = Buf.rfind('\n', D.second);
      LineStart = LineStart == StringRef::npos ? 0 : LineStart + 1;
      size_t Hash = Buf.find('#', LineStart);
      if (Hash != StringRef::npos && Hash < D.second)
        HashLoc = SM.getLocForStartOfFile(D.first).getLocWithOffset(Hash);
    }
    if (std::optional<NoopAssertCheck::MacroDef> Def =
            lexDefinition(NameLoc, HashLoc, SM, PP.getLangOpts())) {
      Def->Active = Active;
      Check.Defs.push_back(std::move(*Def));
    }
  }

  NoopAssertCheck &Check;
  const SourceManager &SM;
  const Preprocessor &PP;
};

namespace {
/// Where a location was written as a token of a macro argument, one level
/// of macro argument at a time: yields each "as passed" location going out.
template <typename Fn> void forEachArgSpelling(SourceLocation L, const SourceManager &SM, Fn F) {
  while (L.isMacroID()) {
    if (SM.isMacroArgExpansion(L)) {
      L = SM.getImmediateSpellingLoc(L);
      if (F(L))
        return;
    } else {
      L = SM.getImmediateExpansionRange(L).getBegin();
    }
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
    forEachArgSpelling(Begin, SM, [&](SourceLocation L) {
      auto It = ByFirst.find(L.getRawEncoding());
      if (It == ByFirst.end())
        return false;
      Found = It->second;
      return true;
    });
    if (Found == SIZE_MAX || Uses[Found].Arg)
      return true;
    bool EndMatches = false;
    forEachArgSpelling(E->getEndLoc(), SM, [&](SourceLocation L) {
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
    : HotpathCheck(Name, Context),
      AssertMacrosOption(Options.get("AssertMacros", "")),
      MustEvaluateMacrosOption(Options.get("MustEvaluateMacros", "")),
      CheckFunctionCalls(false) {
  // As a string: OptionsView's bool specialisation is not exported by every
  // clang-tidy build this links against.
  StringRef V = Options.get("CheckFunctionCalls", "false");
  CheckFunctionCalls = V.equals_insensitive("true") || V == "1";
}

void NoopAssertCheck::storeOptions(tidy::ClangTidyOptions::OptionMap &Opts) {
  HotpathCheck::storeOptions(Opts);
  Options.store(Opts, "AssertMacros", AssertMacrosOption);
  Options.store(Opts, "MustEvaluateMacros", MustEvaluateMacrosOption);
  Options.store(Opts, "CheckFunctionCalls", CheckFunctionCalls ? "true" : "false");
}

void NoopAssertCheck::registerCheckPPCallbacks(const SourceManager &SM, Preprocessor *PP) {
  AssertNames.clear();
  AssertIdents.clear();
  llvm::StringSet<> Never;
  for (const std::string &N : rules().MustEvaluateMacros)
    Never.insert(N);
  // Lists in options: names separated by ';' or ','.
  auto SplitList = [](StringRef List) {
    std::vector<std::string> Out;
    while (!List.empty()) {
      auto [Head, Tail] = List.split(List.find_first_of(";,") == StringRef::npos
                                         ? ';'
                                         : List[List.find_first_of(";,")]);
      if (!Head.trim().empty())
        Out.push_back(Head.trim().str());
      List = Tail;
    }
    return Out;
  };
  for (const std::string &N : SplitList(MustEvaluateMacrosOption))
    Never.insert(N);
  std::vector<std::string> Names = rules().AssertMacros;
  for (const std::string &N : SplitList(AssertMacrosOption))
    Names.push_back(N);
  for (const std::string &N : Names)
    if (!N.empty() && !Never.contains(N)) {
      AssertNames.insert(N);
      AssertIdents.insert(PP->getIdentifierInfo(N));
    }
  PP->addPPCallbacks(std::make_unique<NoopAssertPPCallbacks>(*this, SM, *PP));
}

void NoopAssertCheck::reset() {
  Defs.clear();
  DefKeys.clear();
  Uses.clear();
}

void NoopAssertCheck::reportFindings(ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::StringMap<std::vector<const MacroDef *>> Evaluating;
  llvm::StringSet<> Disabled; // names with a disabled form of either kind
  for (const MacroDef &D : Defs) {
    if (D.Kind == BodyKind::Evaluating)
      Evaluating[D.Name].push_back(&D);
    if (D.Kind != BodyKind::Other)
      Disabled.insert(D.Name);
  }
  if (Disabled.empty())
    return;
  llvm::erase_if(Uses, [&](const Use &U) { return !Disabled.contains(U.Name); });
  if (!Uses.empty())
    ArgFinder(Uses, SM).TraverseDecl(Ctx.getTranslationUnitDecl());

  // Judge every use: a disabled assert drops its argument.
  const SideEffectOptions Dropped = SideEffectOptions::forDroppedEvaluation(CheckFunctionCalls);
  llvm::StringMap<unsigned> Blocking;
  llvm::StringMap<std::vector<CheckFunctionCall>> Checks;
  for (const Use &U : Uses) {
    std::optional<SideEffect> Eff;
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
        diag(SM.getExpansionLoc(U.NameLoc),
             "argument of '%0' is not a scalar value; the disabled '%0' cannot test it "
             "without evaluating it")
            << U.Name;
        continue;
      }
    } else {
      Eff = findSideEffectInTokens(U.ArgTokens, Dropped, ruleIndex());
    }
    if (!Eff)
      continue;
    Blocking[U.Name]++;
    auto ItDefs = Evaluating.find(U.Name);
    bool Rewritable = ItDefs != Evaluating.end();
    SourceLocation UseLoc = SM.getExpansionLoc(U.NameLoc);
    {
      auto D = Rewritable
                   ? diag(UseLoc, "argument of '%0' has a side effect (%1); a disabled '%0' "
                                  "that does not evaluate its argument would lose it, so "
                                  "the definition of '%0' is not rewritten")
                   : diag(UseLoc, "argument of '%0' has a side effect (%1), which is lost "
                                  "when '%0' is disabled");
      D << U.Name << describe(*Eff, Ctx);
      // Another translation unit may not see this use and offer the rewrite:
      // an identical replacement of the whole directive overlaps it, and
      // clang-tidy (or clang-apply-replacements) then drops the rewrite.
      if (Rewritable)
        for (const MacroDef *Def : ItDefs->second)
          if (Def->HashLoc.isValid() && !SM.isWrittenInMainFile(Def->NameLoc)) {
            SourceLocation End = Def->BodyEnd.isValid()
                                     ? Def->BodyEnd
                                     : Def->NameLoc.getLocWithOffset(Def->Name.size());
            D << keepChars(Def->HashLoc, End, SM, Ctx.getLangOpts());
          }
    }
    // A side effect inside a called function: show where.
    if (Eff->Where && SM.getExpansionLoc(Eff->Where->getBeginLoc()) != UseLoc)
      diag(Eff->Where->getBeginLoc(), "the state changes here", DiagnosticIDs::Note);
  }

  // Every definition whose disabled form evaluates.
  for (const MacroDef &D : Defs) {
    if (D.Kind != BodyKind::Evaluating)
      continue;
    unsigned Blocked = Blocking.lookup(D.Name);
    {
      auto Diag = diag(D.NameLoc, "disabled assert '%0' still evaluates its argument; "
                                  "make it type-check the argument without evaluating it")
                  << D.Name;
      if (!Blocked && D.BodyBegin.isValid())
        Diag << replaceChars(D.BodyBegin, D.BodyEnd, replacementBody(D.Param));
    }
    if (Blocked) {
      diag(D.NameLoc,
           "no fix: %0 %plural{1:use|:uses}0 of '%1' in this translation unit "
           "%plural{1:needs|:need}0 the argument evaluated",
           DiagnosticIDs::Note)
          << Blocked << D.Name;
      continue;
    }
    std::set<const FunctionDecl *> Said;
    for (const auto &[FD, Call] : Checks.lookup(D.Name))
      if (Said.insert(FD->getCanonicalDecl()).second)
        diag(Call->getBeginLoc(),
             "%0 is a check function that only reports: dropping its call with the "
             "disabled assert is the point",
             DiagnosticIDs::Note)
            << FD;
  }
}

} // namespace hotpath
