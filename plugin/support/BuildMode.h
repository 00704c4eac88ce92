//===--- BuildMode.h - how the checked TU is compiled -----------*- C++ -*-===//
//
// What of the translation unit's compile command decides a fix's shape or
// whether there is one: whether it is built for link-time optimisation,
// and by which compiler. A fast path that wins with gcc -flto loses with
// clang -flto where clang's LTO inlines the original check already
// (docs/checks/hotpath-check-split.md, "Build modes"), so both are needed.
//
// -flto comes from the TU's own code-generation options (any route:
// `clang-tidy -p`, `-- flags`, hotpath-tidy). The compiler is not part of
// what clang-tidy hands on (the driver drops the program name), so it comes
// from the compile database entry of the file, found from the build
// directory upward, the program named first (through ccache-like wrappers
// and symlinks: /usr/bin/cc is gcc on Debian). Without one (flags given
// after `--`), the flags are clang-tidy's, that is clang's.
//
//===----------------------------------------------------------------------===//

#ifndef HOTPATH_TIDY_SUPPORT_BUILDMODE_H
#define HOTPATH_TIDY_SUPPORT_BUILDMODE_H

#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/StringRef.h"
#include <string>

namespace hotpath {

struct BuildMode {
  enum class CompilerKind { Clang, GCC, Other };
  /// -flto in any form (full, thin, gcc's -flto=auto).
  bool LTO = false;
  CompilerKind Compiler = CompilerKind::Clang;
  /// The program as the compile database names it ("gcc-12", "clang");
  /// empty when there is no entry.
  std::string Program;

  /// LTO by clang, or by a compiler not known to be gcc: the build mode
  /// where a fix must show it is not slower.
  bool clangLTO() const { return LTO && Compiler != CompilerKind::GCC; }
  /// "clang -flto" or "gcc-12 -flto": the note's words for it.
  std::string describe() const;
};

/// The build mode of the TU \p PP preprocesses; \p BuildDirectory and
/// \p File as clang-tidy's context has them (the compile database entry).
BuildMode buildModeOf(const clang::Preprocessor &PP, llvm::StringRef BuildDirectory,
                      llvm::StringRef File);

/// Which compiler \p Program is: its name, else the name of the file a
/// symlink points to ("cc" -> "x86_64-linux-gnu-gcc-12").
BuildMode::CompilerKind compilerKindOf(llvm::StringRef Program);

} // namespace hotpath

#endif // HOTPATH_TIDY_SUPPORT_BUILDMODE_H
