//===--- ModuleLoader.cpp - libhotpathTidyModule.so, what --load loads -----===//
//
// clang-tidy --load=libhotpathTidyModule.so loads this small library, not
// the checks: it asks the host clang-tidy for its version and, when the
// major is the one the checks were built for, loads them
// (libhotpathTidyChecks.so, next to it). Into a clang-tidy of another major
// the checks themselves cannot even be loaded: the dynamic loader refuses
// them over an LLVM symbol the host does not have, clang-tidy says "-load
// request ignored" and runs without them, exit 0 when another check is
// enabled: a silent no-op. This library needs nothing of LLVM but
// clang::getClangFullVersion() (a function, bound lazily, with the same
// signature in every major), so it always loads and can say what is wrong.
//
//===----------------------------------------------------------------------===//

#include "ModuleVersion.h"
#include "llvm/Config/llvm-config.h" // macros only

#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <string>

namespace clang {
std::string getClangFullVersion(); // from the host clang-tidy
} // namespace clang

namespace {

[[noreturn]] void stop(const std::string &Message) {
  std::fprintf(stderr, "%s\n", Message.c_str());
  std::fflush(nullptr);
  // Not exit(): the host is in the middle of dlopen() and of parsing its
  // command line; its static destructors are not ours to run from here.
  std::_Exit(1);
}

struct LoadChecks {
  LoadChecks() {
    std::string Host = clang::getClangFullVersion();
    int HostMajor = hotpath::hostMajorVersion(Host);
    if (HostMajor >= 0 && HostMajor != LLVM_VERSION_MAJOR)
      stop(hotpath::foreignHostMessage(HostMajor, Host, LLVM_VERSION_MAJOR,
                                       LLVM_VERSION_STRING));
    Dl_info Self;
    if (!dladdr(reinterpret_cast<void *>(&stop), &Self) || !Self.dli_fname)
      stop("error: the hotpath-tidy module cannot find where it was loaded from");
    std::string Path = Self.dli_fname;
    size_t Slash = Path.rfind('/');
    Path = (Slash == std::string::npos ? std::string() : Path.substr(0, Slash + 1)) +
           "libhotpathTidyChecks.so";
    // Global, like clang-tidy's own --load, so the checks register with the
    // host's registry as they would if loaded directly.
    if (!dlopen(Path.c_str(), RTLD_NOW | RTLD_GLOBAL))
      stop("error: the hotpath-tidy module cannot load its checks: " +
           std::string(dlerror()));
  }
};

const LoadChecks Load;

} // namespace
