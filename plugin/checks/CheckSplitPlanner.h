//===--- CheckSplitPlanner.h - what hotpath-check-split fixes ---*- C++ -*-===//
//
// Decides the fix of one hot check function, as data: which conditions the
// fast path tests (dropping those another provably implies), which preamble
// declarations it repeats, what it returns on failure, where it and the
// slow path's declaration go, and how its hints are spelled; or the NoFix
// reason none can be made (DESIGN.md's refusals: variadic, recursive, a
// preamble the slow path would evaluate again with a side effect, a fast
// path that would name what its place cannot see...). It writes no code:
// rewrite/FastPath.h does.
//
//===----------------------------------------------------------------------===//

#ifndef HOTPATH_TIDY_CHECKS_CHECKSPLITPLANNER_H
#define HOTPATH_TIDY_CHECKS_CHECKSPLITPLANNER_H

#include "analysis/CallSites.h"
#include "analysis/CheckShape.h"
#include "analysis/Implication.h"
#include "core/TUContext.h"
#include "rewrite/FastPath.h"
#include "rewrite/NoFix.h"
#include "support/Rules.h"
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace hotpath {

/// The fix of one check function, or why there is none.
struct CheckSplitPlan {
  std::optional<NoFix> Refused;
  FastPathPlan Fix; // when not Refused
  /// What the fix chose and why, said with it: a condition implied by
  /// another, a project macro the spelling did not trust.
  std::vector<std::pair<clang::SourceLocation, std::string>> Notes;
};

/// What the planner reads besides the function and its shape.
struct CheckSplitInputs {
  const CallSiteStats &Stats;
  const RuleSet &Rules;
  const RuleIndex &Index;
  const ImplicationContext &Implication;
  TUContext &TU;
};

/// The plan for \p FD, whose body has \p Shape.
CheckSplitPlan planCheckSplit(const clang::FunctionDecl *FD, const CheckShape &Shape,
                              const CheckSplitInputs &In);

} // namespace hotpath

#endif // HOTPATH_TIDY_CHECKS_CHECKSPLITPLANNER_H
