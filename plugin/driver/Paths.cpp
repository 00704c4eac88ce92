//===--- driver/Paths.cpp - the driver's one spelling of a path -----------===//
#include "Paths.h"
#include "support/AtomicFile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace hotpath::driver {

std::string canonicalPath(llvm::StringRef Path, llvm::StringRef RelativeTo) {
  llvm::SmallString<256> Abs(Path);
  if (!llvm::sys::path::is_absolute(Abs)) {
    Abs = RelativeTo;
    llvm::sys::path::append(Abs, Path);
  }
  llvm::SmallString<256> Real;
  if (!llvm::sys::fs::real_path(Abs, Real))
    return std::string(Real);
  llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  return std::string(Abs);
}

std::string relativeTo(llvm::StringRef Path, llvm::StringRef Dir) {
  llvm::SmallString<256> D(Dir);
  if (!llvm::StringRef(D).ends_with("/"))
    D += "/";
  if (Path.starts_with(D))
    return Path.drop_front(D.size()).str();
  return Path.str();
}

void ignoreInGit(llvm::StringRef Dir, llvm::StringRef What) {
  llvm::SmallString<256> Ignore(Dir);
  llvm::sys::path::append(Ignore, ".gitignore");
  if (llvm::sys::fs::exists(Ignore))
    return;
  llvm::consumeError(writeFileAtomically(
      Ignore, ("# hotpath-tidy's " + What + " (docs/project-index.md)\n*\n").str()));
}

} // namespace hotpath::driver
