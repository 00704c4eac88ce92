//===--- Registry.cpp - the one list of hotpath checks --------------------===//

#include "core/CheckRegistry.h"
#include "checks/CheckSplitCheck.h"
#include "checks/HookGateCheck.h"
#include "checks/NoopAssertCheck.h"

namespace hotpath {

namespace {
template <typename CheckT>
std::unique_ptr<clang::tidy::ClangTidyCheck> make(llvm::StringRef Name,
                                                  clang::tidy::ClangTidyContext *Context) {
  return std::make_unique<CheckT>(Name, Context);
}

const CheckInfo Checks[] = {
    {"hotpath-check-split",
     "hot check functions whose reporting keeps them out of line: split into an inline fast "
     "path and a cold slow path",
     make<CheckSplitCheck>},
    {"hotpath-hook-gate",
     "hot calls to out-of-line hooks that do nothing unless switched on: gated at the call",
     make<HookGateCheck>},
    {"hotpath-noop-assert",
     "disabled assert-like macros that still evaluate their argument: made to type-check it "
     "without evaluating it",
     make<NoopAssertCheck>},
};

} // namespace

llvm::ArrayRef<CheckInfo> hotpathChecks() { return Checks; }

llvm::ArrayRef<llvm::StringRef> hotpathCheckNames() {
  static const std::vector<llvm::StringRef> Names = [] {
    std::vector<llvm::StringRef> Out;
    for (const CheckInfo &C : Checks)
      Out.push_back(C.Name);
    return Out;
  }();
  return Names;
}

} // namespace hotpath
