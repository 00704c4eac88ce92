//===--- ProjectCalls.h - a function's calls in the whole project -*- C++ -*-===//
//
// The calls of a function as the project sees them: this translation unit's
// call sites (analysis/CallSites.h) and, with a project index, those in every
// other file, each counted once. What heat and call-site facts are made of:
// the heat model (HeatModel.h) weighs them, the checks ask what every call
// passes a parameter. One per translation unit, shared by its checks
// (core/TUContext.h), its answers cached per function.
//
//===----------------------------------------------------------------------===//

#ifndef HOTPATH_TIDY_HEAT_PROJECTCALLS_H
#define HOTPATH_TIDY_HEAT_PROJECTCALLS_H

#include "analysis/CallSites.h"
#include "heat/CallGraph.h"
#include "index/ProjectIndex.h"
#include "support/Rules.h"
#include "clang/AST/ASTContext.h"
#include "llvm/ADT/DenseMap.h"
#include <map>
#include <memory>
#include <optional>
#include <vector>

namespace hotpath {

namespace index {
class RecordMaker;
} // namespace index

/// A fact about a parameter: every call site passes it a constant, from Min
/// to Max. Known for a function whose every call is visible: one with
/// internal linkage, or any function the project index has, and only while
/// its address is never taken.
struct ConstantParam {
  int64_t Min = 0, Max = 0;
  unsigned Sites = 0;
  bool ProjectWide = false; // from the project index, not this TU alone
};

class ProjectCalls {
public:
  /// \p Project may be null (no index); \p Sites is the TU's call-site
  /// walk, done.
  ProjectCalls(const clang::ASTContext &Ctx, const index::ProjectIndex *Project,
               const CallSiteIndex &Sites);
  ~ProjectCalls();

  const index::ProjectIndex *projectIndex() const { return Project; }
  /// What the project index knows of \p FD (by USR), or null.
  const index::Function *projectFunction(const clang::FunctionDecl *FD) const;
  /// This TU's call sites of \p FD, as index records.
  const std::vector<index::CallSite> &localSites(const clang::FunctionDecl *FD) const;
  /// The call sites of \p FD the project index holds and this TU does not:
  /// those in other files (each with the count this TU does not account for).
  std::vector<index::CallSite> remoteSites(const clang::FunctionDecl *FD) const;
  /// The TU's call-site evidence for \p FD, with the index's other files
  /// added (CallSiteStats::Project).
  /// \p Rules: the asking check's (names it hot, macros it takes for
  /// asserts).
  CallSiteStats stats(const clang::FunctionDecl *FD, const RuleIndex &Rules) const;
  /// Evidence from every call site the index holds for \p F (this TU's
  /// too), as CallSiteStats::Project: the same figure in every TU.
  CallSiteStats indexStats(const index::Function &F, const RuleIndex &Rules) const;
  /// What every call site passes \p Param, when that is known.
  std::optional<ConstantParam> constantParam(const clang::FunctionDecl *FD,
                                             unsigned Param) const;
  /// The program's call graph: the whole project's with an index, else
  /// this TU's; \p Entries: the asking check's hot entry points (one graph,
  /// and one memo of chains, for every check that names the same).
  const CallGraph &graph(const CallGraph::EntryPoints &Entries) const;
  /// The display name of an index file: its bare name, as fileNameAt().
  static std::string displayName(llvm::StringRef Path);

private:
  void addElsewhere(CallSiteStats &S, const std::vector<index::CallSite> &Sites,
                    const RuleIndex &Rules) const;

  const clang::ASTContext &Ctx;
  const index::ProjectIndex *Project;
  const CallSiteIndex &Sites;
  mutable std::map<std::string, std::unique_ptr<CallGraph>> Graphs;
  // (A std::map: references to its vectors outlive later insertions.)
  mutable std::map<const clang::FunctionDecl *, std::vector<index::CallSite>> Local;
  mutable llvm::DenseMap<const clang::FunctionDecl *, const index::Function *> Functions;
  mutable std::unique_ptr<index::RecordMaker> Records;
};

} // namespace hotpath

#endif // HOTPATH_TIDY_HEAT_PROJECTCALLS_H
