//===--- HotpathTidyMain.cpp - clang-tidy with the hotpath checks built in ===//
//
// What the command line asks for is read from the driver's option table
// (driver/Options.h): with -p and no source, or with --diff, --profile,
// --inline-remarks or --index-only, a run over the compile database
// (driver/Run.h) that runs this same binary, as plain clang-tidy with
// the options in -config, on each translation unit; otherwise clang-tidy,
// with --explain=<name> and the project's own headers (driver/PlainRun.h).
//
// --help shows this tool's modes and options first, then clang-tidy's;
// --version names this tool's version and the LLVM it was built for, then
// LLVM's own lines.
//
//===----------------------------------------------------------------------===//

#include "clang-tidy/tool/ClangTidyMain.h"
#include "driver/Run.h"
#include "driver/Options.h"
#include "driver/PlainRun.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/raw_ostream.h"

extern volatile int HotpathTidyModuleAnchorSource;
static int HotpathTidyModuleAnchorDestination = HotpathTidyModuleAnchorSource;

static int help(const char *Argv0, bool Hidden) {
  hotpath::driver::printUsage(llvm::outs());
  llvm::outs() << "\nclang-tidy's own options follow: all of them work without a mode; "
                  "with one, those listed above.\n\n";
  llvm::outs().flush();
  const char *HelpArgv[] = {Argv0, Hidden ? "--help-hidden" : "--help"};
  return clang::tidy::clangTidyMain(2, HelpArgv);
}

static int version(int Argc, const char **Argv) {
  llvm::outs() << "hotpath-tidy version " HOTPATH_VERSION "\n"
               << "  built for LLVM " LLVM_VERSION_STRING " (clang-tidy-" << LLVM_VERSION_MAJOR
               << "); its module loads into clang-tidy-" << LLVM_VERSION_MAJOR << " only\n";
  llvm::outs().flush();
  return clang::tidy::clangTidyMain(Argc, Argv);
}

int main(int argc, const char **argv) {
  (void)HotpathTidyModuleAnchorDestination;
  using hotpath::driver::Request;
  switch (hotpath::driver::classify(llvm::ArrayRef(argv + 1, argv + argc))) {
  case Request::Help:
    return help(argv[0], /*Hidden=*/false);
  case Request::HelpHidden:
    return help(argv[0], /*Hidden=*/true);
  case Request::Version:
    return version(argc, argv);
  case Request::Run:
    return hotpath::driver::runOverDatabase(argc, argv);
  case Request::ClangTidy:
    break;
  }
  return hotpath::driver::runClangTidy(argc, argv);
}
