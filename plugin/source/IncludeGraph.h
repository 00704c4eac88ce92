//===--- IncludeGraph.h - which files include which -------------*- C++ -*-===//
//
// The include graph of a translation unit, every #include counted, and
// whether a declaration at one place can be named at another, whatever file
// includes that one.
//
//===----------------------------------------------------------------------===//

#ifndef HOTPATH_TIDY_SOURCE_INCLUDEGRAPH_H
#define HOTPATH_TIDY_SOURCE_INCLUDEGRAPH_H

#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

namespace hotpath {

/// Which files include which, every #include counted (also those an include
/// guard skips), so visibility does not depend on what was included first.
class IncludeGraph {
public:
  void recordInclude(clang::FileID From, clang::OptionalFileEntryRef To,
                     const clang::SourceManager &SM);
  /// True when \p Header reaches \p Target through #include directives.
  bool reaches(const clang::FileEntry *Header, const clang::FileEntry *Target) const;
  void clear() { Edges.clear(); }

private:
  llvm::DenseMap<const clang::FileEntry *,
                 llvm::SmallVector<const clang::FileEntry *, 4>> Edges;
};

/// True when a declaration at \p DeclLoc can be named from \p Point in the
/// file \p Point is in, whatever file includes that one: it is earlier in the
/// same file, in a file that file includes, or built in.
bool isVisibleFrom(clang::SourceLocation DeclLoc, clang::SourceLocation Point,
                   const clang::SourceManager &SM, const IncludeGraph &Includes);

} // namespace hotpath

#endif // HOTPATH_TIDY_SOURCE_INCLUDEGRAPH_H
