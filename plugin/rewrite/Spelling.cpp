//===--- Spelling.cpp - spelling code at a location, reading it back ------===//

#include "rewrite/Spelling.h"
#include "analysis/Visibility.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Path.h"

using namespace clang;

namespace hotpath {

static bool isVisibleMacro(StringRef Name, SourceLocation Point, const Preprocessor &PP,
                           const SourceManager &SM, const IncludeGraph &Includes) {
  IdentifierInfo *II = PP.getIdentifierInfo(Name);
  if (!II)
    return false;
  const MacroInfo *MI = PP.getMacroInfo(II);
  return MI && isVisibleFrom(MI->getDefinitionLoc(), Point, SM, Includes);
}

Spelling spellingAt(SourceLocation Point, const RuleSet &Rules,
                    const LangOptions &LangOpts, const Preprocessor &PP,
                    const SourceManager &SM, const IncludeGraph &Includes) {
  Spelling S;
  S.Unlikely = LangOpts.CPlusPlus20 ? Spelling::UnlikelyKind::CxxAttribute
                                    : Spelling::UnlikelyKind::Builtin;
  for (const std::string &M : Rules.Spellings.UnlikelyMacros)
    if (isVisibleMacro(M, Point, PP, SM, Includes)) {
      S.Unlikely = Spelling::UnlikelyKind::Macro;
      S.UnlikelyMacro = M;
      break;
    }

  bool AllColdMacros = !Rules.Spellings.ColdMacros.empty() &&
                       llvm::all_of(Rules.Spellings.ColdMacros, [&](const std::string &M) {
                         return isVisibleMacro(M, Point, PP, SM, Includes);
                       });
  if (AllColdMacros) {
    for (const std::string &M : Rules.Spellings.ColdMacros)
      S.ColdAttribute += (S.ColdAttribute.empty() ? "" : " ") + M;
  } else if (LangOpts.CPlusPlus11) {
    S.ColdAttribute = "[[gnu::noinline, gnu::cold]]";
    S.ColdIsStandardAttribute = true;
  } else {
    S.ColdAttribute = "__attribute__((noinline, cold))";
  }
  return S;
}

std::string Spelling::ifUnlikely(StringRef Cond) const {
  switch (Unlikely) {
  case UnlikelyKind::Macro:
    return ("if (" + UnlikelyMacro + "(" + Cond + "))").str();
  case UnlikelyKind::CxxAttribute:
    return ("if (" + Cond + ") [[unlikely]]").str();
  case UnlikelyKind::Builtin:
    return ("if (__builtin_expect(" + Cond + ", 0))").str();
  }
  llvm_unreachable("unknown unlikely spelling");
}

std::string indentationAt(SourceLocation Loc, const SourceManager &SM) {
  Loc = SM.getExpansionLoc(Loc);
  std::pair<FileID, unsigned> Pos = SM.getDecomposedLoc(Loc);
  StringRef Buffer = SM.getBufferData(Pos.first);
  size_t LineStart = Buffer.rfind('\n', Pos.second);
  LineStart = LineStart == StringRef::npos ? 0 : LineStart + 1;
  StringRef Line = Buffer.substr(LineStart, Pos.second - LineStart);
  return Line.take_while([](char C) { return C == ' ' || C == '\t'; }).str();
}

std::string fileNameAt(SourceLocation Loc, const SourceManager &SM) {
  return llvm::sys::path::filename(SM.getFilename(SM.getExpansionLoc(Loc))).str();
}

std::string sourceText(SourceRange R, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange Range = Lexer::makeFileCharRange(CharSourceRange::getTokenRange(R),
                                                   SM, Ctx.getLangOpts());
  if (Range.isInvalid())
    return "";
  return Lexer::getSourceText(Range, SM, Ctx.getLangOpts()).str();
}

std::string sourceText(const Stmt *S, const ASTContext &Ctx) {
  return sourceText(S->getSourceRange(), Ctx);
}

} // namespace hotpath
