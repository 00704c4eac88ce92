//===--- driver/Patch.h - the patch a --diff run checks ---------*- C++ -*-===//
//
// --diff=<rev> is the working tree's changes since <rev> (git diff <rev>);
// A...B those since the merge base of A and B, A..B those since A (B the
// checked-out commit either way); "-" a unified diff on standard input.
// Paths are read relative to the top of the git work tree, which also
// anchors the fix patch and SARIF's URIs.
//
//===----------------------------------------------------------------------===//
#ifndef HOTPATH_DRIVER_PATCH_H
#define HOTPATH_DRIVER_PATCH_H

#include "Types.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace hotpath::driver {

/// The top of the git work tree holding \p Cwd (canonical), or \p Cwd
/// outside one or without \p Git.
std::string workTreeRoot(const std::optional<std::string> &Git, llvm::StringRef Cwd);

/// The lines --diff=\p Rev changes, per file (canonical paths); \p Strip
/// as parseUnifiedDiff takes it. \p InWorkTree: whether \p Root is the top
/// of a git work tree, which a revision needs. \p Base, when given, is set
/// to the revision the working tree is compared with (the merge base for
/// A...B), or left empty for a diff on standard input.
llvm::Expected<ChangedLines> readPatch(llvm::StringRef Rev, const std::optional<std::string> &Git,
                                       llvm::StringRef Root, bool InWorkTree,
                                       std::optional<unsigned> Strip,
                                       std::string *Base = nullptr);

/// True when \p Cwd is inside a git work tree.
bool inWorkTree(const std::optional<std::string> &Git, llvm::StringRef Cwd);

} // namespace hotpath::driver

#endif
