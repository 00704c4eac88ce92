//===--- HotpathTidyMain.cpp - clang-tidy with the hotpath checks built in ===//
//
// Without --diff, --profile or --inline-remarks this is clang-tidy,
// unchanged. With --diff it checks only what a patch touches; with --profile
// it orders the findings by the profile's samples; with --inline-remarks it
// first compiles each TU with clang for its inline remarks
// (driver/DiffMode.cpp). Each runs this same binary, as plain clang-tidy with
// the options in -config, on each translation unit.
//
//===----------------------------------------------------------------------===//

#include "clang-tidy/tool/ClangTidyMain.h"
#include "driver/DiffMode.h"

extern volatile int HotpathTidyModuleAnchorSource;
static int HotpathTidyModuleAnchorDestination = HotpathTidyModuleAnchorSource;

int main(int argc, const char **argv) {
  (void)HotpathTidyModuleAnchorDestination;
  if (hotpath::driver::wantsDiffMode(argc, argv))
    return hotpath::driver::diffMain(argc, argv);
  return clang::tidy::clangTidyMain(argc, argv);
}
