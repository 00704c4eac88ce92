//===--- HotpathTidyMain.cpp - clang-tidy with the hotpath checks built in ===//
//
// Without --diff, --profile or --inline-remarks this is clang-tidy, with
// --explain=<name> (the checks' Explain option) and, when nothing says which
// headers to check, the project's own (driver/HeaderFilter.h). With --diff it checks only what a patch touches; with --profile
// it orders the findings by the profile's samples; with --inline-remarks it
// first compiles each TU with clang for its inline remarks
// (driver/DiffMode.cpp). Each runs this same binary, as plain clang-tidy with
// the options in -config, on each translation unit.
//
// --help shows this tool's modes and options first, then clang-tidy's;
// --version names this tool's version and the LLVM it was built for, then
// LLVM's own lines.
//
//===----------------------------------------------------------------------===//

#include "clang-tidy/tool/ClangTidyMain.h"
#include "driver/DiffMode.h"
#include "driver/DiffTooling.h"
#include "driver/HeaderFilter.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>
#include <vector>

extern volatile int HotpathTidyModuleAnchorSource;
static int HotpathTidyModuleAnchorDestination = HotpathTidyModuleAnchorSource;

/// The first of \p Names on the command line, before any "--" (after it
/// come compile flags).
static bool hasOption(int Argc, const char **Argv,
                      std::initializer_list<llvm::StringRef> Names) {
  for (int I = 1; I < Argc; ++I) {
    llvm::StringRef A = Argv[I];
    if (A == "--")
      return false;
    for (llvm::StringRef N : Names)
      if (A == N)
        return true;
  }
  return false;
}

/// Takes --explain=<name> (or --explain <name>) out of \p Args into \p Name;
/// false, with the error said, when it names nothing.
static bool takeExplain(std::vector<const char *> &Args, std::string &Name) {
  for (size_t I = 1; I < Args.size(); ++I) {
    llvm::StringRef A = Args[I];
    if (A == "--")
      break;
    if (!A.consume_front("--explain") && !A.consume_front("-explain"))
      continue;
    size_t Taken = 1;
    if (A.consume_front("=")) {
      Name = A.str();
    } else if (A.empty() && I + 1 < Args.size()) {
      Name = Args[I + 1];
      Taken = 2;
    } else if (!A.empty()) {
      continue; // another option that starts so
    }
    if (Name.empty() || llvm::StringRef(Name).starts_with("-")) {
      llvm::errs() << "hotpath-tidy: error: --explain needs the name of a function or "
                      "macro (--explain=check_setget_bounds)\n";
      return false;
    }
    Args.erase(Args.begin() + I, Args.begin() + I + Taken);
    --I;
  }
  return true;
}

int main(int argc, const char **argv) {
  (void)HotpathTidyModuleAnchorDestination;
  if (hasOption(argc, argv, {"--help", "-help", "-h", "--help-hidden", "-help-hidden"})) {
    hotpath::driver::printUsage(llvm::outs());
    llvm::outs() << "\nclang-tidy's own options follow: all of them work without a mode; "
                    "with one, those listed above.\n\n";
    llvm::outs().flush();
    bool Hidden = hasOption(argc, argv, {"--help-hidden", "-help-hidden"});
    const char *HelpArgv[] = {argv[0], Hidden ? "--help-hidden" : "--help"};
    return clang::tidy::clangTidyMain(2, HelpArgv);
  }
  if (hasOption(argc, argv, {"--version", "-version"})) {
    llvm::outs() << "hotpath-tidy version " HOTPATH_VERSION "\n"
                 << "  built for LLVM " LLVM_VERSION_STRING " (clang-tidy-" << LLVM_VERSION_MAJOR
                 << "); its module loads into clang-tidy-" << LLVM_VERSION_MAJOR << " only\n";
    llvm::outs().flush();
    return clang::tidy::clangTidyMain(argc, argv);
  }
  if (hotpath::driver::wantsDiffMode(argc, argv))
    return hotpath::driver::diffMain(argc, argv);

  // Plain clang-tidy, with two additions: --explain=<name> (the checks'
  // Explain option, merged into the -config given or made), and the
  // project's own headers checked when nothing says which headers to check.
  std::vector<const char *> Args(argv, argv + argc);
  std::string ExplainName;
  if (!takeExplain(Args, ExplainName))
    return 1;
  std::string ConfigArg;
  if (!ExplainName.empty()) {
    std::string Err;
    if (!hotpath::driver::setCheckOptionInArgs(Args, "Explain", ExplainName, ConfigArg, Err)) {
      llvm::errs() << "hotpath-tidy: error: " << Err << "\n";
      return 1;
    }
  }
  std::optional<std::string> HeaderFilter = hotpath::driver::defaultHeaderFilterArg(
      llvm::ArrayRef<const char *>(Args).drop_front());
  if (HeaderFilter)
    Args.insert(Args.begin() + 1, HeaderFilter->c_str());
  return clang::tidy::clangTidyMain(static_cast<int>(Args.size()), Args.data());
}
