//===--- IncludeGraph.cpp - which files include which ---------------------===//

#include "source/IncludeGraph.h"
#include "support/Compat.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace hotpath {

void IncludeGraph::recordInclude(FileID From, OptionalFileEntryRef To,
                                 const SourceManager &SM) {
  OptionalFileEntryRef FromEntry = SM.getFileEntryRefForID(From);
  if (FromEntry && To)
    Edges[&FromEntry->getFileEntry()].push_back(&To->getFileEntry());
}

bool IncludeGraph::reaches(const FileEntry *Header, const FileEntry *Target) const {
  llvm::SmallPtrSet<const FileEntry *, 32> Seen{Header};
  llvm::SmallVector<const FileEntry *, 32> Work{Header};
  while (!Work.empty()) {
    const FileEntry *F = Work.pop_back_val();
    if (F == Target)
      return true;
    auto It = Edges.find(F);
    if (It == Edges.end())
      continue;
    for (const FileEntry *Next : It->second)
      if (Seen.insert(Next).second)
        Work.push_back(Next);
  }
  return false;
}

bool isVisibleFrom(SourceLocation DeclLoc, SourceLocation Point,
                   const SourceManager &SM, const IncludeGraph &Includes) {
  if (DeclLoc.isInvalid())
    return true; // Built in.
  DeclLoc = SM.getExpansionLoc(DeclLoc);
  Point = SM.getExpansionLoc(Point);
  FileID Target = SM.getFileID(Point);
  FileID F = SM.getFileID(DeclLoc);
  SourceLocation Loc = DeclLoc;
  // Predefines and the command line are seen by every TU alike.
  if (SM.isWrittenInBuiltinFile(DeclLoc) || SM.isWrittenInCommandLineFile(DeclLoc))
    return true;
  if (F == Target)
    return SM.isBeforeInTranslationUnit(Loc, Point);
  OptionalFileEntryRef From = SM.getFileEntryRefForID(Target);
  OptionalFileEntryRef To = SM.getFileEntryRefForID(F);
  return From && To && Includes.reaches(&From->getFileEntry(), &To->getFileEntry());
}

} // namespace hotpath
