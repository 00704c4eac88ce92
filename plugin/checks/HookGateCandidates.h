//===--- HookGateCandidates.h - hotpath-hook-gate's hooks and hot calls -*- C++ -*-===//
//
// The first steps of hotpath-hook-gate's run: which functions of the TU are
// hooks (the hook model, analysis/HookModel.h, given what the project index
// and the heat model know), and which of their calls are hot (the heat
// model, judged by the check's HeatPolicy for hook calls), grouped by hook
// and caller. The result is data the planners take.
//
//===----------------------------------------------------------------------===//

#ifndef HOTPATH_TIDY_CHECKS_HOOKGATECANDIDATES_H
#define HOTPATH_TIDY_CHECKS_HOOKGATECANDIDATES_H

#include "analysis/HookModel.h"
#include "core/TUContext.h"
#include "heat/HeatModel.h"
#include "support/Rules.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include <map>
#include <vector>

namespace hotpath {

/// The check's settings, read once in its constructor.
struct HookGateSettings {
  RuleSet::HookGateRules Gate;
  llvm::StringMap<std::string> NamedHooks; // name -> disabled value text
  /// name -> what switches the hook on, which must call a new gate's setter
  llvm::StringMap<std::string> Enablers;
};

/// What the steps of one TU's run read.
struct HookGateInputs {
  TUContext &TU;
  const HookGateSettings &Settings;
  const RuleSet &Rules;
  const RuleIndex &RuleIdx;
  const HeatModel &Heat;
  /// Functions named by an error-injection macro in this TU.
  const llvm::StringSet<> &ErrorInjected;
  /// Whether this run's fix-its in the file of a location, or in a header
  /// named by its path, are kept (HotpathCheck::fixesKeptIn): the files
  /// whose hot calls it can gate.
  llvm::function_ref<bool(clang::SourceLocation)> FixesKeptIn;
  llvm::function_ref<bool(llvm::StringRef)> FixesKeptInHeader;
};

/// The hooks of one TU, recognised once each (by canonical declaration).
class HookRecogniser {
public:
  explicit HookRecogniser(const HookGateInputs &In) : In(In) {}
  /// \p FD as a hook, or null.
  const Hook *hookFor(const clang::FunctionDecl *FD);
  /// \p FD (a canonical declaration) was recognised as a hook already.
  bool known(const clang::FunctionDecl *FD) const { return Hooks.count(FD); }
  /// Whether a hook is defined, named or called here; if not, the TU's
  /// bodies need not be walked for them.
  bool anyHook();

private:
  const HookGateInputs &In;
  std::map<const clang::FunctionDecl *, Hook> Hooks; // stable addresses
  llvm::DenseSet<const clang::FunctionDecl *> NotHooks;
};

/// One caller's hot calls to one hook, in the order the walk met them.
struct CallerCalls {
  const clang::FunctionDecl *Caller; // canonical declaration
  std::vector<const clang::CallExpr *> Calls;
};

/// What the other translation units' runs do with a hook's calls, as far
/// as this TU can tell.
enum class RemoteGating {
  /// None is known to be hot (or the hook is not defined here).
  None,
  /// Their runs gate hot calls (the project index shows them in files
  /// those runs edit; without an index, a named hook's calls, since every
  /// TU knows the name): a gate defined here is tested there.
  Gated,
  /// The index shows hot calls, but in no file a run edits: nothing would
  /// test a gate defined for them.
  NotGatable,
};

/// One hook and the callers of its hot calls.
struct HookCalls {
  const Hook *H;
  std::vector<CallerCalls> Callers;
  RemoteGating Elsewhere = RemoteGating::None;
};

struct HookCandidates {
  /// Hooks with hot calls, in the order of their first; then hooks without
  /// a switch defined here that other files call hot (HookCalls::Elsewhere).
  std::vector<HookCalls> Hooks;
  /// How many hooks each caller calls hot (a caller of several is not
  /// cloned).
  llvm::DenseMap<const clang::FunctionDecl *, unsigned> HooksPerCaller;
};

/// The hot calls to hooks in the files this run edits (the main file and
/// the project's headers it includes: mm/slab.h's slab_pre_alloc_hook()
/// calls should_failslab() on every slab allocation), grouped.
HookCandidates findCandidates(const HookGateInputs &In, HookRecogniser &Hooks);

} // namespace hotpath

#endif // HOTPATH_TIDY_CHECKS_HOOKGATECANDIDATES_H
