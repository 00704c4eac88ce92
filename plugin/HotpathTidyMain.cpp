//===--- HotpathTidyMain.cpp - clang-tidy with the hotpath checks built in ===//
//
// Without --diff this is clang-tidy, unchanged. With --diff it checks only
// what a patch touches (driver/DiffMode.cpp), running this same binary, as
// plain clang-tidy, on each affected translation unit.
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
