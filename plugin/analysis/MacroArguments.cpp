//===--- MacroArguments.cpp - the expression a macro argument is ----------===//

#include "analysis/MacroArguments.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include <cstdint>

using namespace clang;

namespace hotpath {

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
/// argument.
class ArgFinder : public RecursiveASTVisitor<ArgFinder> {
public:
  ArgFinder(llvm::ArrayRef<MacroUse> Uses, std::vector<const Expr *> &Args,
            const SourceManager &SM)
      : Uses(Uses), Args(Args), SM(SM) {
    for (size_t I = 0; I < Uses.size(); ++I) {
      ByFirst[Uses[I].ArgFirst.getRawEncoding()] = I;
      Positions.push_back(SM.getExpansionLoc(Uses[I].NameLoc));
      // The use's file and those that include it, out to the main file.
      for (SourceLocation L = Positions.back(); L.isValid();
           L = SM.getIncludeLoc(SM.getFileID(L)))
        if (!Files.insert(SM.getFileID(L)).second)
          break;
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
      // A declaration holds a use only if it begins or ends in the use's
      // file or one that includes it: a cheap test first (the ordered
      // search below cost 112 M instructions on a kernel TU's ~30,000
      // top-level declarations).
      if (!Files.contains(SM.getFileID(B)) && !Files.contains(SM.getFileID(E)))
        return true;
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
    if (Found == SIZE_MAX || Args[Found])
      return true;
    bool EndMatches = false;
    forEachArgSpelling(E->getEndLoc(), SM, /*AtEnd=*/true, [&](SourceLocation L) {
      return EndMatches = L == Uses[Found].ArgLast;
    });
    if (EndMatches)
      Args[Found] = E;
    return true;
  }

private:
  llvm::ArrayRef<MacroUse> Uses;
  std::vector<const Expr *> &Args;
  const SourceManager &SM;
  llvm::DenseMap<SourceLocation::UIntTy, size_t> ByFirst;
  std::vector<SourceLocation> Positions;
  llvm::DenseSet<FileID> Files;
};
} // namespace

std::vector<const Expr *> findMacroArguments(llvm::ArrayRef<MacroUse> Uses, ASTContext &Ctx) {
  std::vector<const Expr *> Args(Uses.size(), nullptr);
  if (!Uses.empty())
    ArgFinder(Uses, Args, Ctx.getSourceManager()).TraverseDecl(Ctx.getTranslationUnitDecl());
  return Args;
}

} // namespace hotpath
