//===--- SourceText.cpp - code as written, and where it is ----------------===//

#include "source/SourceText.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/Path.h"

using namespace clang;

namespace hotpath {

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
