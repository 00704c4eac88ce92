//===--- Spelling.cpp - spelling code at a location, reading it back ------===//

#include "rewrite/Spelling.h"
#include "analysis/Visibility.h"
#include "rewrite/Edits.h"
#include "source/SourceLayout.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/Builtins.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Path.h"

using namespace clang;

namespace hotpath {

namespace {
/// A rule set's macro, as the code at a point would see it.
struct MacroAt {
  const MacroInfo *MI = nullptr;
  bool Visible = false; // defined, and its definition seen from there
  bool Usable = false;  // visible there, and defined wherever it is compiled
  /// What its definition needs that code at the point does not have
  /// (conditions the point's file may still establish: FileEvidence).
  std::vector<ConditionLiteral> Missing;
};

MacroAt macroAt(StringRef Name, SourceLocation Point, const Preprocessor &PP,
                const SourceManager &SM, const IncludeGraph &Includes,
                const SourceLayout &Layout) {
  MacroAt M;
  IdentifierInfo *II = PP.getIdentifierInfo(Name);
  M.MI = II ? PP.getMacroInfo(II) : nullptr;
  if (!M.MI || !isVisibleFrom(M.MI->getDefinitionLoc(), Point, SM, Includes))
    return M;
  M.Visible = true;
  // Defined under a condition the point does not share: in a configuration
  // without it the macro may be undefined, or defined another way.
  M.Missing = missingConditions(Layout.macroConditions(Name, M.MI->getDefinitionLoc(), SM),
                                Layout.conditionsAt(Point, SM));
  M.Usable = M.Missing.empty();
  return M;
}

/// What must hold for \p Name to be defined at all, given that its one
/// definition is at \p Def: the conditions of the branches around it (and
/// around the #include of its file, out to the main file), leaving out each
/// group another branch of which also defines it or includes a file (in
/// another configuration that branch may define it).
std::vector<ConditionLiteral> definitionNeeds(StringRef Name, SourceLocation Def,
                                              const SourceManager &SM, const LangOptions &LO,
                                              const SourceLayout &Layout) {
  // At any depth, "#define Name" or an #include (which may define anything);
  // a range over two files may hold either.
  auto MayDefine = [&](SourceLocation Begin, SourceLocation End) {
    return SourceLayout::anyDirective(
        Begin, End, SM, LO, /*Straddling=*/true, [&](StringRef D, int, Lexer &L) {
          Token Tok;
          return D == "include" || D == "include_next" || D == "import" ||
                 (D == "define" && !L.LexFromRawLexer(Tok) && Tok.is(tok::raw_identifier) &&
                  Tok.getRawIdentifier() == Name);
        });
  };
  return Layout.definitionConditions(Def, SM, [&](const SourceLayout::Group &Grp, unsigned B) {
    for (unsigned I = 0; I < Grp.Branches.size(); ++I)
      if (I != B && MayDefine(Grp.Branches[I].BodyBegin, SourceLayout::branchEnd(Grp, I)))
        return true;
    return false;
  });
}

/// What the code of the point's file that is compiled wherever the point is
/// (under no condition the point lacks) shows about every configuration the
/// point is compiled in:
///  - the macro definitions it expands: such a macro is defined wherever the
///    point is compiled, since the file's own code does not compile without;
///  - the conditions it needs: it expands a macro E whose only definition
///    is under them (the one #define of E in the TU, which no directive of
///    the TU tests with #ifdef/#ifndef/defined(), under groups no other
///    branch of which defines E or includes a file), so the file is compiled
///    only where they hold; not a condition on a name the file itself tests
///    (a file that asks "#ifdef __KERNEL__" is written to be built without).
/// The kernel's headers define unlikely, noinline and __cold inside
/// "#ifndef __ASSEMBLY__" and "#ifdef __KERNEL__"; fs/btrfs/struct-funcs.c
/// expands unlikely itself, which is defined only there.
class FileEvidence {
public:
  FileEvidence(SourceLocation Point, const Preprocessor &PP, const SourceManager &SM,
               const SourceLayout &Layout)
      : Point(SM.getExpansionLoc(Point)), PP(PP), SM(SM), Layout(Layout),
        PointConds(Layout.conditionsAt(Point, SM)) {}

  /// Asks about \p M (before any shows()): only the uses that could show
  /// something of a macro asked about are placed (a TU's tens of thousands
  /// of expansions, each placed among its file's #if groups, would cost
  /// more than the fix).
  void ask(const MacroAt &M) {
    if (!M.Visible || M.Usable)
      return;
    Wanted.insert(M.MI);
    for (const ConditionLiteral &L : M.Missing)
      if (!llvm::is_contained(WantedConds, L))
        WantedConds.push_back(L);
  }

  /// Whether \p MI, or the conditions \p Missing of its definition, are
  /// shown to be there wherever the point is compiled.
  bool shows(const MacroInfo *MI, ArrayRef<ConditionLiteral> Missing) {
    scan();
    if (Expanded.contains(MI))
      return true;
    return llvm::all_of(Missing, [&](const ConditionLiteral &L) {
      return llvm::is_contained(Established, L) && !testedByFile(L);
    });
  }

private:
  /// Whether a directive of the point's file tests a name \p L tests.
  bool testedByFile(const ConditionLiteral &L) const {
    StringRef C = L.Cond;
    while (!C.empty()) {
      size_t B = C.find_if([](char Ch) { return isAsciiIdentifierStart(Ch); });
      if (B == StringRef::npos)
        break;
      C = C.drop_front(B);
      size_t E = C.find_if_not([](char Ch) { return isAsciiIdentifierContinue(Ch); });
      StringRef Id = C.take_front(E);
      C = C.drop_front(Id.size());
      if (Id != "defined" && FileTests.contains(Id))
        return true;
    }
    return false;
  }

  /// A use of a macro's definition in the point's file at \p Loc.
  void use(const MacroInfo *MI, const IdentifierInfo *II, const MacroDirective *History,
           SourceLocation Loc) {
    if (Expanded.contains(MI))
      return; // already seen where the point is
    auto [It, New] = Needs.try_emplace(MI);
    if (New) {
      // Evidence of conditions only from a name defined once, never tested.
      unsigned Directives = 0;
      for (const MacroDirective *D = History; D; D = D->getPrevious())
        ++Directives;
      if (Directives == 1 && !Layout.isTested(II))
        It->second = definitionNeeds(II->getName(), MI->getDefinitionLoc(), SM,
                                     PP.getLangOpts(), Layout);
    }
    bool Shows = Wanted.contains(MI) || llvm::any_of(It->second, [&](const ConditionLiteral &L) {
                   return llvm::is_contained(WantedConds, L) &&
                          !llvm::is_contained(Established, L);
                 });
    if (!Shows || !missingConditions(Layout.conditionsAt(Loc, SM), PointConds).empty())
      return;
    Expanded.insert(MI);
    for (const ConditionLiteral &L : It->second)
      if (!llvm::is_contained(Established, L))
        Established.push_back(L);
  }

  void scan() {
    if (Scanned)
      return;
    Scanned = true;
    if (Wanted.empty())
      return;
    FileID File = SM.getFileID(Point);
    bool Invalid = false;
    StringRef Buf = SM.getBufferData(File, &Invalid);
    if (Invalid)
      return;
    Lexer L(SM.getLocForStartOfFile(File), PP.getLangOpts(), Buf.begin(), Buf.begin(),
            Buf.end());
    Token Tok;
    bool InDirective = false, Conditional = false, AtKeyword = false;
    // A function-like macro's name waits for the '(' that expands it.
    const MacroInfo *Pending = nullptr;
    const IdentifierInfo *PendingII = nullptr;
    const MacroDirective *PendingHistory = nullptr;
    SourceLocation PendingLoc;
    while (!L.LexFromRawLexer(Tok) || Tok.isNot(tok::eof)) {
      if (Tok.is(tok::eof))
        break;
      if (Tok.isAtStartOfLine()) {
        InDirective = Tok.is(tok::hash);
        AtKeyword = InDirective;
        Conditional = false;
      }
      if (Pending && !InDirective && Tok.is(tok::l_paren))
        use(Pending, PendingII, PendingHistory, PendingLoc);
      Pending = nullptr;
      if (Tok.isNot(tok::raw_identifier))
        continue;
      StringRef Name = Tok.getRawIdentifier();
      if (InDirective) {
        if (AtKeyword && Tok.isNot(tok::hash))
          Conditional = Name.starts_with("if") || Name.starts_with("elif");
        else if (Conditional)
          FileTests.insert(Name);
        AtKeyword = false;
        continue;
      }
      const IdentifierInfo *II = PP.getIdentifierInfo(Name);
      if (!II || !II->hadMacroDefinition())
        continue;
      const MacroDirective *History = PP.getLocalMacroDirectiveHistory(II);
      if (!History)
        continue;
      const MacroInfo *MI =
          History->findDirectiveAtLoc(Tok.getLocation(), SM).getMacroInfo();
      if (!MI)
        continue;
      if (MI->isObjectLike()) {
        use(MI, II, History, Tok.getLocation());
      } else {
        Pending = MI;
        PendingII = II;
        PendingHistory = History;
        PendingLoc = Tok.getLocation();
      }
    }
  }

  SourceLocation Point;
  const Preprocessor &PP;
  const SourceManager &SM;
  const SourceLayout &Layout;
  std::vector<ConditionLiteral> PointConds;
  bool Scanned = false;
  llvm::SmallPtrSet<const MacroInfo *, 4> Wanted;
  std::vector<ConditionLiteral> WantedConds;
  llvm::SmallPtrSet<const MacroInfo *, 16> Expanded;
  llvm::DenseMap<const MacroInfo *, std::vector<ConditionLiteral>> Needs;
  std::vector<ConditionLiteral> Established;
  llvm::StringSet<> FileTests;
};

/// A macro's replacement tokens, object-like macros in them expanded (as
/// far as \p Depth allows, never a macro inside itself).
void expansion(const MacroInfo *MI, const Preprocessor &PP, std::vector<std::string> &Out,
               llvm::SmallPtrSetImpl<const MacroInfo *> &Active, int Depth = 0) {
  Active.insert(MI);
  for (const Token &Tok : MI->tokens()) {
    if (Tok.is(tok::identifier) && Depth < 8)
      if (const MacroInfo *Inner = PP.getMacroInfo(Tok.getIdentifierInfo());
          Inner && Inner->isObjectLike() && !Active.count(Inner)) {
        expansion(Inner, PP, Out, Active, Depth + 1);
        continue;
      }
    Out.push_back(PP.getSpelling(Tok));
  }
  Active.erase(MI);
}

std::vector<std::string> expansion(const MacroInfo *MI, const Preprocessor &PP) {
  std::vector<std::string> Out;
  llvm::SmallPtrSet<const MacroInfo *, 4> Active;
  expansion(MI, PP, Out, Active);
  return Out;
}

/// The index of the ')' matching the '(' at \p Open, or npos.
size_t closing(ArrayRef<std::string> T, size_t Open) {
  int Depth = 0;
  for (size_t I = Open; I < T.size(); ++I) {
    Depth += T[I] == "(" ? 1 : T[I] == ")" ? -1 : 0;
    if (Depth == 0)
      return I;
  }
  return std::string::npos;
}

ArrayRef<std::string> withoutOuterParens(ArrayRef<std::string> T) {
  while (T.size() >= 2 && T.front() == "(" && closing(T, 0) == T.size() - 1)
    T = T.drop_front().drop_back();
  return T;
}

/// True when the function-like macro \p MI expands to __builtin_expect of
/// its argument and 0, directly or through another such macro.
bool expandsToExpect(const MacroInfo *MI, const Preprocessor &PP, int Depth = 0) {
  if (!MI->isFunctionLike() || MI->getNumParams() != 1 || Depth > 4)
    return false;
  std::string Param = MI->params()[0]->getName().str();
  std::vector<std::string> All = expansion(MI, PP);
  ArrayRef<std::string> T = withoutOuterParens(All);
  if (T.size() < 4 || T[1] != "(" || closing(T, 1) != T.size() - 1)
    return false;
  ArrayRef<std::string> Args = T.drop_front(2).drop_back();
  if (!llvm::is_contained(Args, Param))
    return false;
  if (T[0] == "__builtin_expect") {
    // The second argument, after the comma at depth 0.
    int D = 0;
    for (size_t I = 0; I < Args.size(); ++I) {
      D += Args[I] == "(" ? 1 : Args[I] == ")" ? -1 : 0;
      if (D == 0 && Args[I] == ",") {
        ArrayRef<std::string> Second = withoutOuterParens(Args.drop_front(I + 1));
        static const char *const Zero[] = {"0", "0L", "0l", "0U", "0u", "0UL", "0ul", "false"};
        return Second.size() == 1 && llvm::is_contained(Zero, Second[0]);
      }
    }
    return false;
  }
  const MacroInfo *Inner = PP.getMacroInfo(PP.getIdentifierInfo(T[0]));
  return Inner && Inner != MI && expandsToExpect(Inner, PP, Depth + 1);
}

/// The attributes an object-like macro's expansion applies, named without
/// underscores: __attribute__((__noinline__, cold)) gives noinline, cold.
llvm::StringSet<> attributesOf(const MacroInfo *MI, const Preprocessor &PP) {
  llvm::StringSet<> Out;
  if (!MI->isObjectLike())
    return Out;
  std::vector<std::string> T = expansion(MI, PP);
  auto Bare = [](StringRef N) {
    if (N.starts_with("__") && N.ends_with("__") && N.size() > 4)
      N = N.drop_front(2).drop_back(2);
    return N;
  };
  for (size_t I = 0; I + 2 < T.size(); ++I) {
    if (T[I] == "__attribute__" || T[I] == "__attribute") {
      if (T[I + 1] != "(" || T[I + 2] != "(")
        continue;
      size_t End = closing(T, I + 1);
      if (End == std::string::npos)
        continue;
      // Names at depth 2: the first token of each comma-separated item.
      int Depth = 0;
      bool ItemStart = false;
      for (size_t J = I + 1; J < End; ++J) {
        if (T[J] == "(") {
          ItemStart = ++Depth == 2;
          continue;
        }
        if (T[J] == ")") {
          --Depth;
          continue;
        }
        if (Depth == 2 && T[J] == ",") {
          ItemStart = true;
          continue;
        }
        if (Depth == 2 && ItemStart)
          Out.insert(Bare(T[J]));
        ItemStart = false;
      }
    } else if (T[I] == "::" && I > 0 && (T[I - 1] == "gnu" || T[I - 1] == "clang")) {
      Out.insert(Bare(T[I + 1]));
    }
  }
  return Out;
}

/// "'__cold' is empty", "'unlikely(x)' is '(x)'".
std::string describeExpansion(StringRef Name, const MacroInfo *MI, const Preprocessor &PP) {
  std::string Head = Name.str();
  if (MI->isFunctionLike()) {
    Head += "(";
    for (const IdentifierInfo *P : MI->params())
      Head += (Head.back() == '(' ? "" : ", ") + P->getName().str();
    Head += ")";
  }
  std::vector<std::string> T = expansion(MI, PP);
  if (T.empty())
    return "'" + Head + "' is empty";
  std::string Body;
  for (const std::string &Tok : T) {
    bool Tight = Body.empty() || Tok == ")" || Tok == "," || Tok == "(" ||
                 Body.back() == '(' || Body.back() == '!';
    Body += (Tight ? "" : " ") + Tok;
  }
  if (Body.size() > 40)
    Body = Body.substr(0, 37) + "...";
  return "'" + Head + "' is '" + Body + "'";
}
} // namespace

Spelling spellingAt(SourceLocation Point, const RuleSet &Rules,
                    const LangOptions &LangOpts, const Preprocessor &PP,
                    const SourceManager &SM, const IncludeGraph &Includes,
                    const SourceLayout &Layout) {
  Spelling S;
  // The rule set's macros as the point sees them; the point's file is read
  // once, for those defined under conditions the point lacks.
  FileEvidence Evidence(Point, PP, SM, Layout);
  llvm::StringMap<MacroAt> Macros;
  for (const auto *List : {&Rules.Spellings.UnlikelyMacros, &Rules.Spellings.ColdMacros})
    for (const std::string &M : *List)
      Evidence.ask(Macros[M] = macroAt(M, Point, PP, SM, Includes, Layout));
  auto Usable = [&](const MacroAt &At) {
    return At.Visible && (At.Usable || Evidence.shows(At.MI, At.Missing));
  };
  S.Unlikely = LangOpts.CPlusPlus20 ? Spelling::UnlikelyKind::CxxAttribute
                                    : Spelling::UnlikelyKind::Builtin;
  for (const std::string &M : Rules.Spellings.UnlikelyMacros) {
    const MacroAt &At = Macros[M];
    if (!Usable(At))
      continue;
    if (!expandsToExpect(At.MI, PP)) {
      S.Untrusted.push_back(describeExpansion(M, At.MI, PP));
      continue;
    }
    S.Unlikely = Spelling::UnlikelyKind::Macro;
    S.UnlikelyMacro = M;
    break;
  }

  // The slow path needs noinline and cold: from the rule set's macros that
  // apply them here, the rest spelled directly.
  std::vector<std::string> Needed{"noinline", "cold"};
  std::vector<std::string> Used;
  for (const std::string &M : Rules.Spellings.ColdMacros) {
    const MacroAt &At = Macros[M];
    if (!Usable(At))
      continue;
    llvm::StringSet<> Gives = attributesOf(At.MI, PP);
    auto Before = Needed.size();
    llvm::erase_if(Needed, [&](const std::string &A) { return Gives.contains(A); });
    if (Needed.size() == Before)
      S.Untrusted.push_back(describeExpansion(M, At.MI, PP));
    else
      Used.push_back(M);
  }
  // Spelled directly: with __x__ when the plain name is itself a macro
  // (a kernel-style "#define noinline" would eat it).
  auto Direct = [&](const std::string &A) {
    IdentifierInfo *II = PP.getIdentifierInfo(A);
    return II && PP.getMacroInfo(II) ? "__" + A + "__" : A;
  };
  std::string Missing;
  for (const std::string &A : Needed)
    Missing += (Missing.empty() ? "" : ", ") + std::string(LangOpts.CPlusPlus11 && Used.empty()
                                                               ? "gnu::" : "") + Direct(A);
  for (const std::string &M : Used)
    S.ColdAttribute += (S.ColdAttribute.empty() ? "" : " ") + M;
  if (!Needed.empty()) {
    if (LangOpts.CPlusPlus11 && Used.empty()) {
      S.ColdAttribute = "[[" + Missing + "]]";
      S.ColdIsStandardAttribute = true;
    } else {
      S.ColdAttribute += std::string(S.ColdAttribute.empty() ? "" : " ") + "__attribute__((" +
                         Missing + "))";
    }
  }
  return S;
}

std::string Spelling::ifUnlikely(StringRef Cond) const {
  if (Unlikely == UnlikelyKind::CxxAttribute)
    return ("if (" + Cond + ") [[unlikely]]").str();
  return "if (" + unlikelyExpr(Cond) + ")";
}

std::string Spelling::unlikelyExpr(StringRef Cond, bool Boolean) const {
  if (Unlikely == UnlikelyKind::Macro)
    return (UnlikelyMacro + "(" + Cond + ")").str();
  if (!Boolean)
    return ("__builtin_expect(!!(" + Cond + "), 0)").str();
  return ("__builtin_expect(" + Cond + ", 0)").str();
}

BareCondition withoutHint(const Expr *Cond, const RuleSet &Rules, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  BareCondition B{Cond, sourceText(Cond, Ctx), false};
  const Expr *E = Cond->IgnoreParenImpCasts();
  // A rule set's unlikely macro around the whole condition, whatever it
  // expands to here: in another configuration it may be the hint.
  SourceLocation Begin = Cond->getBeginLoc();
  bool ByMacro = false;
  if (Begin.isMacroID()) {
    StringRef Name = Lexer::getImmediateMacroName(Begin, SM, Ctx.getLangOpts());
    std::optional<CharSourceRange> Whole = fileRange(Cond, Ctx);
    CharSourceRange Call = SM.getExpansionRange(Begin);
    ByMacro = llvm::is_contained(Rules.Spellings.UnlikelyMacros, Name) && Whole &&
              Whole->getBegin() == Call.getBegin() &&
              SM.getExpansionRange(Cond->getEndLoc()).getEnd() == Call.getEnd();
  }
  if (const auto *Call = dyn_cast<CallExpr>(E);
      Call && Call->getBuiltinCallee() == Builtin::BI__builtin_expect && Call->getNumArgs() == 2) {
    std::optional<llvm::APSInt> V = Call->getArg(1)->getIntegerConstantExpr(Ctx);
    if (!V || !V->isZero())
      return B;
    E = Call->getArg(0)->IgnoreParenImpCasts();
    for (const auto *Not = dyn_cast<UnaryOperator>(E);
         Not && Not->getOpcode() == UO_LNot;) {
      const auto *Inner = dyn_cast<UnaryOperator>(Not->getSubExpr()->IgnoreParenImpCasts());
      if (!Inner || Inner->getOpcode() != UO_LNot)
        break;
      E = Inner->getSubExpr()->IgnoreParenImpCasts();
      Not = dyn_cast<UnaryOperator>(E);
    }
  } else if (!ByMacro) {
    return B;
  }
  std::string Text = sourceText(E, Ctx);
  if (Text.empty())
    return B;
  return {E, Text, true};
}

} // namespace hotpath
