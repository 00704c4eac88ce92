//===--- driver/PlainRun.cpp - hotpath-tidy as plain clang-tidy -----------===//
#include "PlainRun.h"
#include "CheckConfig.h"
#include "HeaderFilter.h"
#include "Options.h"

#include "clang-tidy/tool/ClangTidyMain.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace hotpath::driver {

namespace {

/// "--checks=-*,hotpath-*" unless \p Args (without the program name) give
/// -checks: hotpath-tidy runs its own checks by default, as the runs over
/// the database do, not clang-tidy's default clang-analyzer-* set.
std::optional<std::string> defaultChecksArg(llvm::ArrayRef<const char *> Args) {
  for (const Argument &A : scanArguments(Args))
    if (A.Spec && A.Spec->Name == "checks")
      return std::nullopt;
  return "--checks=" + RunOptions().Checks;
}

/// Takes -j N and --progress out of \p Args (with the program name): one
/// clang-tidy process checks its sources in turn, so they change nothing
/// it checks or reports, and clang-tidy would refuse them.
void dropRunOnlyArgs(std::vector<const char *> &Args) {
  std::vector<Argument> Scanned = scanArguments(llvm::ArrayRef(Args).drop_front());
  for (auto It = Scanned.rbegin(); It != Scanned.rend(); ++It)
    if (It->Spec && (It->Spec->Name == "jobs" || It->Spec->Name == "progress"))
      Args.erase(Args.begin() + 1 + It->Index, Args.begin() + 1 + It->Index + It->Count);
}

} // namespace

int runClangTidy(int Argc, const char **Argv) {
  std::vector<const char *> Args(Argv, Argv + Argc);
  dropRunOnlyArgs(Args);
  std::string ExplainName, ConfigArg, Err;
  if (!takeExplain(Args, ExplainName, Err) ||
      (!ExplainName.empty() &&
       !setCheckOptionInArgs(Args, "Explain", ExplainName, ConfigArg, Err))) {
    llvm::errs() << "hotpath-tidy: error: " << Err << "\n";
    return 1;
  }
  std::optional<std::string> HeaderFilter =
      defaultHeaderFilterArg(llvm::ArrayRef<const char *>(Args).drop_front());
  if (HeaderFilter)
    Args.insert(Args.begin() + 1, HeaderFilter->c_str());
  std::optional<std::string> Checks =
      defaultChecksArg(llvm::ArrayRef<const char *>(Args).drop_front());
  if (Checks)
    Args.insert(Args.begin() + 1, Checks->c_str());
  return clang::tidy::clangTidyMain(static_cast<int>(Args.size()), Args.data());
}

} // namespace hotpath::driver
