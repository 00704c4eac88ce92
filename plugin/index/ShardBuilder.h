//===--- index/ShardBuilder.h - a TU's records for the project index -*- C++ -*-===//
//
// Turns what the shared walk of a translation unit found (TUDefinitions and
// CallSiteIndex, analysis/CallSites.h) into index records: the indexer
// writes them as the TU's shard, and the checks make the same records of
// their own TU's call sites, so that sites the index also holds are counted
// once.
//
//===----------------------------------------------------------------------===//

#ifndef HOTPATH_TIDY_INDEX_SHARDBUILDER_H
#define HOTPATH_TIDY_INDEX_SHARDBUILDER_H

#include "analysis/AssertUses.h"
#include "analysis/CallSites.h"
#include "analysis/HookModel.h"
#include "index/ProjectIndex.h"
#include "clang/AST/ASTContext.h"
#include "llvm/ADT/DenseMap.h"

namespace hotpath::index {

/// Index records of one AST. File paths are made absolute and free of
/// symlinks (as the driver's paths are), once per file.
class RecordMaker {
public:
  explicit RecordMaker(const clang::ASTContext &Ctx);

  /// clang's USR of the function (its canonical declaration).
  static std::string usr(const clang::FunctionDecl *FD);
  /// The expansion location of \p Loc; File empty when it has none.
  Location location(clang::SourceLocation Loc);
  std::string path(clang::FileID FID);
  /// The record of one call site (Count 1).
  CallSite callSite(const CallSiteIndex::Site &S);
  /// The callee of \p S when the index records calls to it: a direct call
  /// to a function declared outside system headers, not a builtin.
  const clang::FunctionDecl *indexedCallee(const CallSiteIndex::Site &S) const;

private:
  const clang::ASTContext &Ctx;
  const clang::SourceManager &SM;
  llvm::DenseMap<clang::FileID, std::string> Paths;
};

/// The index's record of a hook (HookShape) is the hook model's portable
/// hook (analysis/HookModel.h), field for field: what the index records is
/// what the model recognised, and a check reads it back as the model's.
HookShape recordOf(const PortableHook &H);
PortableHook portableOf(const HookShape &R);

/// The shard of the TU \p TU (its canonical path): every function it defines
/// or calls or takes the address of outside system headers, with its
/// definitions, declarations and hook shape (the hook model's portableHook),
/// and every call site of those.
/// and the uses of disabled asserts in \p Uses that need their argument.
/// The key is left for the caller, who knows the compile command.
IndexFile buildShard(const clang::ASTContext &Ctx, const TUDefinitions &Defs,
                     const CallSiteIndex &Sites, llvm::StringRef TU,
                     llvm::ArrayRef<BlockingAssertUse> Uses = {});

} // namespace hotpath::index

#endif // HOTPATH_TIDY_INDEX_SHARDBUILDER_H
