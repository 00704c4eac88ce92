//===--- CallGraph.h - heat that follows the program ------------*- C++ -*-===//
//
// How often a function runs, estimated from the program's call graph rather
// than from its call sites alone: the deepest nesting of loops on any chain
// of calls that reaches it. A check called once by a helper that a loop in
// another file calls runs as often as that loop; thirty-four calls from
// once-per-command handlers run once per command. Each call site counts the
// loops around it (loops that print every iteration or walk the command line
// do not count, analysis/CallSites.h), and a call from a macro-generated
// accessor counts as one (accessors are called from everywhere). With a
// project index the graph is the whole project's, across files; without
// one, this translation unit's.
//
//===----------------------------------------------------------------------===//

#ifndef HOTPATH_TIDY_HEAT_CALLGRAPH_H
#define HOTPATH_TIDY_HEAT_CALLGRAPH_H

#include "analysis/CallSites.h"
#include "index/ProjectIndex.h"
#include "clang/AST/ASTContext.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringMap.h"
#include <map>
#include <string>
#include <vector>

namespace hotpath {

/// The chain of calls that puts a function under the most loops.
struct HeatChain {
  struct Step {
    std::string Caller; // who calls (the next step's function)
    std::string File;   // bare file name of the call
    unsigned Line = 0;
    unsigned Loops = 0; // loops around this call
    bool Accessor = false;
    unsigned Branches = 0; // branches around this call
  };
  /// Loops on the chain, in all.
  unsigned Loops = 0;
  /// Branches on the chain (arms of ifs, switches, ?:, && and || around
  /// each call), in all.
  unsigned Branches = 0;
  /// How often the function runs on this chain, as a power of two: a loop
  /// runs its body 32 times (5), a branch is taken half the time (-1), as
  /// LLVM's static estimate assumes. The best chain is the one that scores
  /// most.
  int Score = 0;
  /// From the function outwards: the call in its caller first, up to the
  /// outermost call that has loops around it.
  std::vector<Step> Steps;

  /// "called in a loop in walk_leaf (tree.c:64)", "called by item_get_u32
  /// (items.c:38), which is called in 2 nested loops in walk_tree
  /// (tree.c:64)"; "" when no loop is on any chain.
  std::string text() const;
};

class CallGraph {
public:
  /// \p Project may be null: this TU's call sites (\p Local) are the graph.
  CallGraph(const index::ProjectIndex *Project, const CallSiteIndex &Local)
      : Project(Project), Local(Local) {}

  /// The chain of calls that puts \p FD under the most loops.
  HeatChain chainOf(const clang::FunctionDecl *FD) const;
  /// The same for a function the project index knows by \p USR (its
  /// definition may be in no TU at hand); empty without the index.
  HeatChain chainOfIndexed(const std::string &USR) const;

private:
  struct Best {
    int Score = 0;
    unsigned Loops = 0, Branches = 0; // on the best chain
    HeatChain::Step Via;  // the call on the best chain
    std::string Next;     // the caller's key, for the rest of the chain
    const clang::FunctionDecl *NextLocal = nullptr;
    bool Done = false;
  };
  /// The best chain of at most \p Left calls to \p USR.
  const Best &bestOfIndexed(const std::string &USR, unsigned Left) const;
  /// Without the index: the best chain in this TU (\p Depth: calls followed).
  const Best &bestOfLocal(const clang::FunctionDecl *FD, unsigned Depth) const;
  /// The chain from \p B outwards, as chainOf() gives it.
  HeatChain follow(const Best *B, bool Indexed) const;

  const index::ProjectIndex *Project;
  const CallSiteIndex &Local;
  // Node-based maps: a reference to an entry outlives the insertions the
  // recursion makes. Keyed by function and calls left.
  mutable std::map<std::pair<std::string, unsigned>, Best> Indexed;
  mutable std::map<std::pair<const clang::FunctionDecl *, unsigned>, Best> LocalBest;
  /// The functions on the chain being followed: a call from one of them is
  /// a cycle (recursion), which adds nothing.
  mutable llvm::StringSet<> OnChain;
  mutable llvm::DenseSet<const clang::FunctionDecl *> OnLocalChain;
};

} // namespace hotpath

#endif // HOTPATH_TIDY_HEAT_CALLGRAPH_H
