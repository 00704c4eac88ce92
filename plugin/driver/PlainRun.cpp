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

int runClangTidy(int Argc, const char **Argv) {
  std::vector<const char *> Args(Argv, Argv + Argc);
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
  return clang::tidy::clangTidyMain(static_cast<int>(Args.size()), Args.data());
}

} // namespace hotpath::driver
