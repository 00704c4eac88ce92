//===--- HookGatePlanner.h - hotpath-hook-gate's plans ----------*- C++ -*-===//
//
// The decisions of hotpath-hook-gate, as data: for each hook, its gate (the
// hook's own switch, through an accessor where its callers cannot see it,
// or a new gate: where it is declared and defined, its style, whether other
// configurations get a stand-in); for each caller, what each hot call
// becomes, or why it gets no fix. Planners decide; the rewrite layer
// (rewrite/Gate.h, rewrite/GatedCall.h) writes; the check emits. Each plan
// is a value the next step takes.
//
//===----------------------------------------------------------------------===//

#ifndef HOTPATH_TIDY_CHECKS_HOOKGATEPLANNER_H
#define HOTPATH_TIDY_CHECKS_HOOKGATEPLANNER_H

#include "checks/HookGateCandidates.h"
#include "rewrite/Gate.h"
#include "rewrite/GatedCall.h"
#include "rewrite/NoFix.h"
#include <optional>
#include <string>
#include <vector>

namespace hotpath {

/// One hook's gate.
struct GatePlan {
  const Hook *H = nullptr;
  std::string Name;
  /// Why no gate can be made; every caller's finding says it.
  std::optional<NoFix> Refused;
  /// The test at the calls: the hook's switch as written, or the gate's test.
  std::string Test;
  /// A call behind a test that mentions this is gated already (a second run).
  std::string GatedMark;
  /// The hook's declaration in a header (a new gate's, or a switch
  /// accessor's place), if any.
  const clang::FunctionDecl *HeaderDecl = nullptr;
  /// The gate is declared in the hook's header and defined with its body.
  bool HeaderMode = false;
  /// The gate's declaration is under an #if: elsewhere the hook may be a
  /// macro, even an empty one (SQLite's sqlite3BeginBenignMalloc() with
  /// SQLITE_UNTESTABLE), so a gated call must stay a statement with braces.
  bool Mirrored = false;
  /// Conditions the gate's declaration is compiled under that no mirror
  /// covers: a call compiled without them cannot see the gate.
  std::vector<ConditionLiteral> GateNeeds;

  /// A hook without a switch: the gate's spelling, and where its new text
  /// goes (nowhere when it is declared already or refused).
  std::optional<GateSpec> Spec;
  GatePlacement Placement;
  /// The gate is new: it starts off, and what switches the hook on (the
  /// rule set's or HookEnablers', none when unknown) must call its setter.
  bool NewGate = false;
  std::optional<std::string> Enabler;

  /// A switch in another file that a caller cannot see: tested through an
  /// accessor next to the hook's declaration in its header (its call; ""
  /// when none can be made), a macro when that declaration is under an #if;
  /// NewAccessor when it is not declared yet.
  std::string SwitchAccessor;
  bool SwitchAccessorIsMacro = false;
  std::optional<SwitchAccessorSpec> NewAccessor;
};

/// The gate of \p H.
GatePlan planGate(const HookGateInputs &In, const Hook &H);

/// What one caller's hot calls to a hook become.
struct CallPlan {
  const clang::FunctionDecl *Caller = nullptr; // its definition
  /// The calls not gated yet, in source order, each in the form its use
  /// allows.
  std::vector<GatedCall> Calls;
  /// Why they get no fix.
  std::optional<NoFix> Refused;
  GateTest Test;
  /// The test is the switch's accessor (GatePlan::SwitchAccessor).
  bool ThroughAccessor = false;
  /// With CloneCallers: the caller is cloned, the gate tested on entry
  /// before EntryBefore (null: at its closing brace); or why it is gated in
  /// place instead.
  bool Clone = false;
  const clang::Stmt *EntryBefore = nullptr;
  std::optional<NoFixReason> NotCloned;
};

/// The plan for \p Calls of one caller, which calls \p HooksOfCaller hooks
/// hot; none when nothing is left to gate (a second run) or the caller's
/// body is not here.
std::optional<CallPlan> planCalls(const HookGateInputs &In, const GatePlan &G,
                                  const CallerCalls &Calls, unsigned HooksOfCaller);

} // namespace hotpath

#endif // HOTPATH_TIDY_CHECKS_HOOKGATEPLANNER_H
