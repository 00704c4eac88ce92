//===--- HookGateCheck.h - hotpath-hook-gate --------------------*- C++ -*-===//
//
// Finds hot calls to hooks: functions kept out of line on purpose (noinline,
// used, weak, an error-injection marker) whose body in this configuration is
// empty or returns a constant, functions the rule set names as hooks, and
// hooks that only act while a global is set. Each hot call site gets an
// inline gate that is off by default, so the disabled case is one predicted
// branch and no call; the gate is declared next to the hook, defined next to
// its definition, with setters to switch it on at run time.
//
// The check is its pipeline: the hooks and their hot calls
// (HookGateCandidates.h), the gate and each caller's calls planned
// (HookGatePlanner.h), written by the rewrite layer (rewrite/Gate.h,
// rewrite/GatedCall.h), and emitted here.
//
//===----------------------------------------------------------------------===//

#ifndef HOTPATH_TIDY_HOOKGATECHECK_H
#define HOTPATH_TIDY_HOOKGATECHECK_H

#include "checks/HookGateCandidates.h"
#include "core/HotpathCheck.h"
#include "llvm/ADT/StringSet.h"
#include <vector>

namespace hotpath {

struct CallEdits;
struct CallPlan;
struct GateEdits;
struct GatePlan;
class IncludeInserter;

class HookGateCheck : public HotpathCheck {
public:
  HookGateCheck(llvm::StringRef Name, clang::tidy::ClangTidyContext *Context);

protected:
  void run(TUContext &TU) override;
  void reset() override;
  std::unique_ptr<compat::IncludeCallbacks> ppCallbacks(const clang::SourceManager &SM,
                                                        clang::Preprocessor &PP) override;

private:
  /// One hook: its gate planned, written and emitted, then each caller's.
  void gateHook(const HookGateInputs &In, const HookCalls &HC, const HookCandidates &C,
                IncludeInserter &Includes);
  /// The gate's own findings (header declaration, definition); when
  /// \p GatesCalls is false (no call here or elsewhere is gated by it), one
  /// finding with no fix instead.
  void emitGate(const GatePlan &G, const GateEdits &E, const HookCalls &HC, bool GatesCalls);
  /// The finding at a caller's first call, its notes and fixes.
  void emitCalls(const GatePlan &G, const CallPlan &P, CallEdits E);
  /// The accessor of a switch, one finding at the header.
  void emitAccessor(const GatePlan &G, std::vector<clang::FixItHint> Fixes);
  /// Explain mode: whether the function asked about is a hook, and why not.
  void explainHooks(clang::ASTContext &Ctx, HookRecogniser &Hooks);

  HookGateSettings Settings;
  llvm::StringSet<> ErrorInjected; // functions named by an error-injection macro
};

} // namespace hotpath

#endif // HOTPATH_TIDY_HOOKGATECHECK_H
