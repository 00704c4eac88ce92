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
// Some functions run often by nature: a kernel's allocators are called from
// everywhere, often in loops in files the index does not hold, never in a
// loop in sight of the hooks they call. A rule set names them as hot entry
// points (RuleSet::HotEntryPoints): a chain of calls that reaches one counts
// it as running as often as a hot chain must, and the branches and loops
// between it and the function count as on any chain; what calls the entry
// point is not followed. HeatModel decides what such a chain makes hot.
//
//===----------------------------------------------------------------------===//

#ifndef HOTPATH_TIDY_HEAT_CALLGRAPH_H
#define HOTPATH_TIDY_HEAT_CALLGRAPH_H

#include "analysis/CallSites.h"
#include "index/ProjectIndex.h"
#include "support/Rules.h"
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
    /// The caller is a hot entry point: the chain starts there.
    bool Entry = false;
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
  /// outermost call that has loops around it, or to the hot entry point.
  std::vector<Step> Steps;
  /// The hot entry point the chain starts at (the function itself when
  /// Steps is empty), or "": its Score counts the entry point as
  /// CallGraph::EntryPoints::Score.
  std::string Entry;
  /// Who names it: "the rule set 'linux-kernel'".
  std::string EntryBy;

  /// "called in a loop in walk_leaf (tree.c:64)", "called by item_get_u32
  /// (items.c:38), which is called in 2 nested loops in walk_tree
  /// (tree.c:64)", "called by slab_alloc_node (slub.c:3318), which is
  /// called by kmem_cache_alloc (slub.c:3422), a hot entry point of the
  /// rule set 'linux-kernel'"; "" when no loop and no entry point is on any
  /// chain.
  std::string text() const;
};

class CallGraph {
public:
  /// Functions that run often by nature, and how often.
  struct EntryPoints {
    std::vector<std::string> Patterns; // globs over unqualified names
    std::string By;                    // "the rule set 'linux-kernel'"
    /// How often one runs, as a power of two (HeatChain::Score): as often as
    /// a chain of calls must to be hot (HeatSettings::ChainHeatThreshold),
    /// so a function it calls unconditionally is hot, and one behind a
    /// branch needs a loop on its side too.
    int Score = 0;
  };

  /// \p Project may be null: this TU's call sites (\p Local) are the graph.
  /// \p Entries: the functions that run often by nature (none: only loops
  /// make a chain hot).
  CallGraph(const index::ProjectIndex *Project, const CallSiteIndex &Local,
            const EntryPoints &Entries);

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
    /// The hot entry point the best chain starts at, or "".
    std::string Entry;
    bool Done = false;
  };
  /// Whether \p Name (unqualified) is a hot entry point.
  bool isEntry(llvm::StringRef Name) const;
  /// The chain of a function that is itself a hot entry point.
  HeatChain entryChain(llvm::StringRef Name) const;
  /// Takes the call \p Via, whose caller's best chain is \p Up (null: the
  /// caller is a hot entry point, or a root), into \p B when it beats what
  /// \p B has (\p Any: whether it has anything yet).
  void consider(Best &B, bool &Any, const HeatChain::Step &Via, const Best *Up,
                llvm::StringRef Next, const clang::FunctionDecl *NextLocal) const;
  /// The best chain of at most \p Left calls to \p USR.
  const Best &bestOfIndexed(const std::string &USR, unsigned Left) const;
  /// Without the index: the best chain in this TU (\p Depth: calls followed).
  const Best &bestOfLocal(const clang::FunctionDecl *FD, unsigned Depth) const;
  /// The chain from \p B outwards, as chainOf() gives it.
  HeatChain follow(const Best *B, bool Indexed) const;

  const index::ProjectIndex *Project;
  const CallSiteIndex &Local;
  EntryPoints Entries;
  NamePatterns EntryNames; // Entries.Patterns
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
