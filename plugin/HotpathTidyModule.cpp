//===--- HotpathTidyModule.cpp - the hotpath-* checks ---------------------===//

#include "CheckSplitCheck.h"
#include "HookGateCheck.h"
#include "NoopAssertCheck.h"
#include "clang-tidy/ClangTidyModule.h"
#include "clang-tidy/ClangTidyModuleRegistry.h"

namespace hotpath {

class HotpathTidyModule : public clang::tidy::ClangTidyModule {
public:
  void addCheckFactories(clang::tidy::ClangTidyCheckFactories &Factories) override {
    Factories.registerCheck<CheckSplitCheck>("hotpath-check-split");
    Factories.registerCheck<HookGateCheck>("hotpath-hook-gate");
    Factories.registerCheck<NoopAssertCheck>("hotpath-noop-assert");
  }
};

} // namespace hotpath

static clang::tidy::ClangTidyModuleRegistry::Add<hotpath::HotpathTidyModule>
    X("hotpath-module", "Checks that take debug and safety checks off hot paths.");

// Referenced by hotpath-tidy's main so the linker keeps this module.
volatile int HotpathTidyModuleAnchorSource = 0;
