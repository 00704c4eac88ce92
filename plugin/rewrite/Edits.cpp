//===--- Edits.cpp - the edits every hotpath fix is built from ------------===//

#include "rewrite/Edits.h"
#include "support/Compat.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"
#include <map>

using namespace clang;

namespace hotpath {

std::string describeBranch(const SourceLayout::Branch &B, const SourceManager &) {
  // The note that says it is at the directive: its line is the note's.
  return B.Directive;
}

//===----------------------------------------------------------------------===//
// Declarations, token by token.
//===----------------------------------------------------------------------===//

namespace {
CharSourceRange signatureRange(const FunctionDecl *FD, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange Range =
      FD->doesThisDeclarationHaveABody()
          ? CharSourceRange::getCharRange(FD->getBeginLoc(), FD->getBody()->getBeginLoc())
          : CharSourceRange::getTokenRange(FD->getBeginLoc(), FD->getEndLoc());
  return Lexer::makeFileCharRange(Range, SM, Ctx.getLangOpts());
}

/// A signature's text and its raw tokens (offsets into the text), with the
/// index of the declared name's token.
struct LexedSignature {
  std::string Text;
  struct Tok {
    unsigned Offset, Length;
    std::string Spelling;
  };
  std::vector<Tok> Toks;
  size_t Name = 0;

  /// Edits (offset, length, replacement) applied back to front.
  std::string edited(std::vector<std::tuple<unsigned, unsigned, std::string>> Edits) const {
    llvm::sort(Edits, [](const auto &A, const auto &B) { return std::get<0>(A) > std::get<0>(B); });
    std::string Out = Text;
    for (const auto &[Off, Len, Repl] : Edits)
      Out.replace(Off, Len, Repl);
    return StringRef(Out).rtrim().str();
  }
  /// The token at \p I with the white space after it.
  std::tuple<unsigned, unsigned, std::string> removal(size_t I) const {
    unsigned End = I + 1 < Toks.size() ? Toks[I + 1].Offset : Toks[I].Offset + Toks[I].Length;
    return {Toks[I].Offset, End - Toks[I].Offset, ""};
  }
};

std::optional<LexedSignature> lexSignature(const FunctionDecl *FD, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange Range = signatureRange(FD, Ctx);
  SourceLocation NameLoc = FD->getLocation();
  if (Range.isInvalid() || NameLoc.isMacroID())
    return std::nullopt;
  LexedSignature S;
  S.Text = Lexer::getSourceText(Range, SM, Ctx.getLangOpts()).str();
  unsigned Begin = SM.getFileOffset(Range.getBegin());
  unsigned NameOffset = SM.getFileOffset(NameLoc);
  if (SM.getFileID(NameLoc) != SM.getFileID(Range.getBegin()) || NameOffset < Begin)
    return std::nullopt;
  // The raw lexer wants a buffer that ends where the text does.
  Lexer Raw(Range.getBegin(), Ctx.getLangOpts(), S.Text.data(), S.Text.data(),
            S.Text.data() + S.Text.size());
  Token Tok;
  bool Found = false;
  while (!Raw.LexFromRawLexer(Tok) || Tok.isNot(tok::eof)) {
    if (Tok.is(tok::eof))
      break;
    unsigned Off = SM.getFileOffset(Tok.getLocation()) - Begin;
    if (Off + Begin == NameOffset) {
      S.Name = S.Toks.size();
      Found = true;
    }
    S.Toks.push_back({Off, Tok.getLength(), S.Text.substr(Off, Tok.getLength())});
  }
  if (!Found)
    return std::nullopt;
  return S;
}

bool isStorageOrInline(StringRef T) {
  return T == "static" || T == "extern" || T == "inline" || T == "__inline__" ||
         T == "__inline";
}
} // namespace

std::string signatureText(const FunctionDecl *FD, const ASTContext &Ctx) {
  CharSourceRange Range = signatureRange(FD, Ctx);
  if (Range.isInvalid())
    return "";
  return Lexer::getSourceText(Range, Ctx.getSourceManager(), Ctx.getLangOpts()).rtrim().str();
}

std::optional<std::string> inlineSignature(const FunctionDecl *FD, bool MakeStatic,
                                           const ASTContext &Ctx) {
  std::optional<LexedSignature> S = lexSignature(FD, Ctx);
  if (!S)
    return std::nullopt;
  std::vector<std::tuple<unsigned, unsigned, std::string>> Edits;
  bool Static = false;
  for (size_t I = 0; I < S->Name; ++I) {
    if (S->Toks[I].Spelling == "extern")
      Edits.push_back(S->removal(I));
    if (S->Toks[I].Spelling == "static" && !Static && I + 1 < S->Toks.size()) {
      Static = true;
      Edits.emplace_back(S->Toks[I + 1].Offset, 0, "inline ");
    }
  }
  if (!Static)
    Edits.emplace_back(0, 0, MakeStatic ? "static inline " : "inline ");
  return S->edited(std::move(Edits));
}

std::optional<std::string> renamedSignature(const FunctionDecl *D, StringRef NewName,
                                            const ASTContext &Ctx) {
  std::optional<LexedSignature> S = lexSignature(D, Ctx);
  if (!S)
    return std::nullopt;
  const LexedSignature::Tok &N = S->Toks[S->Name];
  return S->edited({{N.Offset, N.Length, NewName.str()}});
}

std::optional<std::string> cloneSignature(const FunctionDecl *F, StringRef NewName,
                                          StringRef Attr, const ASTContext &Ctx) {
  std::optional<LexedSignature> S = lexSignature(F, Ctx);
  if (!S)
    return std::nullopt;
  std::vector<std::tuple<unsigned, unsigned, std::string>> Edits;
  for (size_t I = 0; I < S->Name; ++I)
    if (isStorageOrInline(S->Toks[I].Spelling))
      Edits.push_back(S->removal(I));
  const LexedSignature::Tok &N = S->Toks[S->Name];
  Edits.emplace_back(N.Offset, N.Length, NewName.str());
  Edits.emplace_back(0, 0, (Attr + " static ").str());
  return S->edited(std::move(Edits));
}

FixItHint coldAttributeInsertion(const FunctionDecl *FD, const Spelling &Sp,
                                 const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Begin = SM.getExpansionLoc(FD->getBeginLoc());
  std::optional<LexedSignature> S = lexSignature(FD, Ctx);
  // A GNU attribute goes after "static", where the kernel writes
  // "static noinline"; a standard one must come first.
  if (S && !Sp.ColdIsStandardAttribute && S->Name > 1 && S->Toks[0].Spelling == "static")
    return FixItHint::CreateInsertion(Begin.getLocWithOffset(S->Toks[1].Offset),
                                      Sp.ColdAttribute + " ");
  return FixItHint::CreateInsertion(Begin, Sp.ColdAttribute + " ");
}

FixItHint replaceChars(SourceLocation Begin, SourceLocation End, StringRef Text) {
  return FixItHint::CreateReplacement(CharSourceRange::getCharRange(Begin, End), Text);
}

FixItHint replaceToken(SourceLocation Loc, StringRef Text, const SourceManager &SM) {
  return FixItHint::CreateReplacement(CharSourceRange::getTokenRange(Loc, Loc), Text);
}

std::optional<CharSourceRange> fileRange(const Stmt *S, const ASTContext &Ctx) {
  CharSourceRange R = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(S->getSourceRange()), Ctx.getSourceManager(),
      Ctx.getLangOpts());
  if (R.isInvalid())
    return std::nullopt;
  return R;
}

std::optional<FixItHint> replaceCode(const Stmt *S, StringRef Text, const ASTContext &Ctx) {
  if (std::optional<CharSourceRange> R = fileRange(S, Ctx))
    return FixItHint::CreateReplacement(*R, Text);
  return std::nullopt;
}

SourceLocation startOfLine(SourceLocation Loc, const SourceManager &SM) {
  Loc = SM.getExpansionLoc(Loc);
  std::pair<FileID, unsigned> D = SM.getDecomposedLoc(Loc);
  StringRef Buf = SM.getBufferData(D.first);
  size_t Start = Buf.rfind('\n', D.second); // the last one before D.second
  Start = Start == StringRef::npos ? 0 : Start + 1;
  return SM.getLocForStartOfFile(D.first).getLocWithOffset(Start);
}

SourceLocation startOfNextLine(SourceLocation Loc, const SourceManager &SM) {
  Loc = SM.getExpansionLoc(Loc);
  std::pair<FileID, unsigned> D = SM.getDecomposedLoc(Loc);
  StringRef Buf = SM.getBufferData(D.first);
  size_t End = Buf.find('\n', D.second);
  End = End == StringRef::npos ? Buf.size() : End + 1;
  return SM.getLocForStartOfFile(D.first).getLocWithOffset(End);
}

//===----------------------------------------------------------------------===//
// Where the text goes, and how it is laid out.
//===----------------------------------------------------------------------===//

std::string indentUnit(SourceLocation Loc, const SourceManager &SM, const SourceLayout &Layout) {
  return Layout.indentation(SM.getFileID(SM.getExpansionLoc(Loc)), SM).unit();
}

std::optional<FixItHint> IncludeInserter::insert(FileID File, StringRef Header, bool Angled) {
  std::string Directive = (Angled ? "#include <" + Header + ">" : "#include \"" + Header + "\"")
                              .str();
  if (!Done.insert(std::to_string(File.getHashValue()) + Directive).second)
    return std::nullopt;
  ArrayRef<SourceLayout::Include> Includes = Layout.includes(File);
  const SourceLayout::Include *Anchor = nullptr, *AnyKind = nullptr;
  for (const SourceLayout::Include &I : Includes) {
    if (I.Conditional)
      continue;
    if (I.Name == Header)
      return std::nullopt;
    AnyKind = &I;
    if (I.Angled == Angled)
      Anchor = &I;
  }
  if (!Anchor)
    Anchor = AnyKind;
  if (Anchor)
    return FixItHint::CreateInsertion(Anchor->NextLine, Directive + "\n");
  if (const SourceLayout::Group *Guard = Layout.includeGuard(File))
    // The guard's #define is the line after its #ifndef.
    return FixItHint::CreateInsertion(startOfNextLine(Guard->Branches[0].BodyBegin, SM),
                                      Directive + "\n");
  // Before the first line of code, after any comment that opens the file.
  StringRef Buf = SM.getBufferData(File);
  Lexer L(SM.getLocForStartOfFile(File), LangOptions(), Buf.begin(), Buf.begin(), Buf.end());
  Token Tok;
  L.LexFromRawLexer(Tok);
  return FixItHint::CreateInsertion(startOfLine(Tok.getLocation(), SM), Directive + "\n");
}

std::string guarded(ArrayRef<ConditionLiteral> Lits, StringRef Text) {
  if (Lits.empty())
    return Text.str();
  return guardDirective(Lits) + "\n" + Text.str() + "\n#endif";
}

std::vector<FixItHint> mirrorInOtherBranches(unsigned Group, unsigned Branch, StringRef Text,
                                             const SourceLayout &Layout,
                                             const SourceManager &SM) {
  const SourceLayout::Group &G = Layout.group(Group);
  // Insertions by offset, in order: one FixItHint per place.
  std::map<unsigned, std::pair<SourceLocation, std::string>> At;
  auto Add = [&](SourceLocation L, StringRef T) {
    L = startOfLine(L, SM);
    auto &Slot = At[SM.getFileOffset(L)];
    Slot.first = L;
    Slot.second += T.str();
  };
  for (unsigned I = 0; I < G.Branches.size(); ++I)
    if (I != Branch)
      Add(I + 1 < G.Branches.size() ? G.Branches[I + 1].Hash : G.EndifHash, Text);
  if (G.Branches.back().HasOwn) // no #else yet
    Add(G.EndifHash, "#else\n" + Text.str());
  std::vector<FixItHint> Out;
  for (auto &[Offset, Ins] : At)
    Out.push_back(FixItHint::CreateInsertion(Ins.first, Ins.second));
  return Out;
}

std::optional<NoFix> conditionalDependency(const NamedInCode &Named, SourceLocation Point,
                                             const SourceLayout &Layout,
                                             const SourceManager &SM) {
  std::vector<ConditionLiteral> Here = Layout.conditionsAt(Point, SM);
  auto Refuse = [&](std::string Name, ArrayRef<ConditionLiteral> Missing) {
    return NoFix{NoFixReason::NeedsCondition, SM.getExpansionLoc(Point), std::move(Name),
                 guardDirective(Missing)};
  };
  for (const Decl *D : Named.Decls) {
    if (D->getLocation().isInvalid())
      continue;
    std::vector<ConditionLiteral> Missing = Layout.missingAt(D->getLocation(), Here, Point, SM);
    // Any declaration before the new code will do (a typedef or prototype
    // repeated outside the #if).
    for (const Decl *R : D->redecls())
      if (!Missing.empty() && R != D && R->getLocation().isValid() &&
          SM.isBeforeInTranslationUnit(SM.getExpansionLoc(R->getLocation()), Point) &&
          Layout.missingAt(R->getLocation(), Here, Point, SM).empty())
        Missing.clear();
    if (Missing.empty())
      continue;
    const auto *ND = dyn_cast<NamedDecl>(D);
    return Refuse(ND ? "'" + ND->getQualifiedNameAsString() + "'" : "a declaration", Missing);
  }
  for (const auto &[Name, MI] : Named.Macros) {
    if (MI->getDefinitionLoc().isInvalid())
      continue;
    std::vector<ConditionLiteral> Missing =
        Layout.macroMissingAt(Name, MI->getDefinitionLoc(), Here, Point, SM);
    if (!Missing.empty())
      return Refuse("macro '" + Name + "'", Missing);
  }
  return std::nullopt;
}

std::optional<NoFix> bodyVariesByConfiguration(const Stmt *Body, StringRef Name,
                                                 const SourceLayout &Layout,
                                                 const SourceManager &SM) {
  std::optional<unsigned> G = Layout.firstGroupWithin(Body->getSourceRange(), SM);
  if (!G)
    return std::nullopt;
  return NoFix{NoFixReason::BodyVariesByConfiguration,
                 Layout.group(*G).Branches.front().Hash, Name.str(),
                 describeBranch(Layout.group(*G).Branches.front(), SM)};
}

//===----------------------------------------------------------------------===//
// The name a moved body prints.
//===----------------------------------------------------------------------===//

namespace {
void collectPredefined(const Stmt *S, std::vector<const PredefinedExpr *> &Out) {
  if (!S)
    return;
  // A lambda's or block's __func__ names the lambda or block, not FD.
  if (isa<LambdaExpr, BlockExpr>(S))
    return;
  if (const auto *P = dyn_cast<PredefinedExpr>(S))
    Out.push_back(P);
  for (const Stmt *Child : S->children())
    collectPredefined(Child, Out);
}
} // namespace

FunctionNameEdits functionNameLiterals(const FunctionDecl *FD, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  FunctionNameEdits Out;
  std::vector<const PredefinedExpr *> Uses;
  collectPredefined(FD->getBody(), Uses);
  std::string Literal = "\"" + FD->getName().str() + "\"";
  for (const PredefinedExpr *P : Uses) {
    SourceLocation Loc = P->getLocation();
    // Written in the body, maybe as a macro's argument: the token can be
    // replaced where it is written.
    if (Loc.isMacroID() && SM.isMacroArgExpansion(Loc))
      Loc = SM.getSpellingLoc(Loc);
    if (Loc.isMacroID()) {
      Out.Refused = NoFix{NoFixReason::NameThroughMacro, SM.getExpansionLoc(Loc),
                            Lexer::getImmediateMacroName(P->getLocation(), SM,
                                                         Ctx.getLangOpts())
                                .str(),
                            ""};
      return Out;
    }
    if (!compat::namesFunctionBarely(P)) {
      Out.Refused = NoFix{NoFixReason::PrettyFunctionName, Loc,
                            Lexer::getSourceText(CharSourceRange::getTokenRange(Loc, Loc), SM,
                                                 Ctx.getLangOpts())
                                .str(),
                            ""};
      return Out;
    }
    Out.Fixes.push_back(replaceToken(Loc, Literal, SM));
  }
  return Out;
}

} // namespace hotpath
