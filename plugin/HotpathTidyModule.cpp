//===--- HotpathTidyModule.cpp - the hotpath-* checks ---------------------===//

#include "core/CheckRegistry.h"
#include "ModuleVersion.h"
#include "support/Compat.h"
#include "clang-tidy/ClangTidyModule.h"
#include "clang/Basic/Version.h"
#include "llvm/Config/llvm-config.h"

#include <cstdio>
#include <cstdlib>
#include <string>

namespace hotpath {

namespace {

/// Refuses to run inside a clang-tidy of another LLVM major. Loaded with
/// --load into such a clang-tidy the module used to list its checks, find
/// nothing and let clang-tidy exit 0: the classes it derives from have
/// another layout there, so the checks are called through the wrong slots.
/// A checker that silently checks nothing is worse than one that fails, so
/// this stops the process before anything is registered.
///
/// It must run before any other code of the module touches a clang or LLVM
/// class: it only calls clang::getClangFullVersion(), whose signature (a
/// std::string, no arguments) is the same in every major, so it answers
/// with the host's version, and it writes with stdio, not llvm::errs().
struct RefuseForeignHost {
  RefuseForeignHost() {
    std::string Host = clang::getClangFullVersion();
    int HostMajor = hostMajorVersion(Host);
    if (HostMajor < 0 || HostMajor == LLVM_VERSION_MAJOR)
      return; // the same major, or a version string we cannot read
    std::fprintf(stderr, "%s\n",
                 foreignHostMessage(HostMajor, Host, LLVM_VERSION_MAJOR,
                                    LLVM_VERSION_STRING)
                     .c_str());
    std::fflush(nullptr);
    // Not exit(): the host is in the middle of dlopen() and of parsing its
    // command line; its static destructors are not ours to run from here.
    std::_Exit(1);
  }
};

// Defined before the registration below: initialisers of one translation
// unit run in order, and this file's run before the module's other files'.
const RefuseForeignHost CheckHost;

} // namespace

class HotpathTidyModule : public clang::tidy::ClangTidyModule {
public:
  void addCheckFactories(clang::tidy::ClangTidyCheckFactories &Factories) override {
    // Every check of the registry (checks/Registry.cpp), nothing named here.
    for (const CheckInfo &C : hotpathChecks()) {
      CheckInfo::Factory Make = C.Make;
      Factories.registerCheckFactory(
          C.Name, [Make](llvm::StringRef Name, clang::tidy::ClangTidyContext *Context) {
            return Make(Name, Context);
          });
    }
  }
};

} // namespace hotpath

static clang::tidy::ClangTidyModuleRegistry::Add<hotpath::HotpathTidyModule>
    X("hotpath-module", "Checks that take debug and safety checks off hot paths.");

// Referenced by hotpath-tidy's main so the linker keeps this module.
volatile int HotpathTidyModuleAnchorSource = 0;
