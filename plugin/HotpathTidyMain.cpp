//===--- HotpathTidyMain.cpp - clang-tidy with the hotpath checks built in ===//

#include "clang-tidy/tool/ClangTidyMain.h"

extern volatile int HotpathTidyModuleAnchorSource;
static int HotpathTidyModuleAnchorDestination = HotpathTidyModuleAnchorSource;

int main(int argc, const char **argv) {
  (void)HotpathTidyModuleAnchorDestination;
  return clang::tidy::clangTidyMain(argc, argv);
}
