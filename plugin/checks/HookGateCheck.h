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
//===----------------------------------------------------------------------===//

#ifndef HOTPATH_TIDY_HOOKGATECHECK_H
#define HOTPATH_TIDY_HOOKGATECHECK_H

#include "core/HotpathCheck.h"
#include "llvm/ADT/StringMap.h"
#include <vector>

namespace hotpath {

class HookGateCheck : public HotpathCheck {
public:
  HookGateCheck(llvm::StringRef Name, clang::tidy::ClangTidyContext *Context);

protected:
  void run(TUContext &TU) override;
  void reset() override;
  void registerCheckPPCallbacks(const clang::SourceManager &SM,
                                clang::Preprocessor *PP) override;

private:
  struct Pass;    // one TU's run of reportFindings, in phases
  struct HookRun; // one hook's gate and calls
  /// Explain mode: whether the function asked about is a hook, and why not.
  void explainHooks(clang::ASTContext &Ctx,
                    llvm::function_ref<bool(const clang::FunctionDecl *)> IsHook);

  RuleSet::HookGateRules Gate;
  llvm::StringMap<std::string> NamedHooks; // name -> disabled value text
  /// name -> what switches the hook on, which must call a new gate's setter
  llvm::StringMap<std::string> Enablers;
  llvm::StringSet<> ErrorInjected; // functions named by an error-injection macro
};

} // namespace hotpath

#endif // HOTPATH_TIDY_HOOKGATECHECK_H
