//===--- BuildMode.cpp - how the checked TU is compiled -------------------===//

#include "support/BuildMode.h"
#include "support/Compat.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

namespace hotpath {

namespace {
BuildMode::CompilerKind kindOfName(llvm::StringRef Name) {
  if (Name.contains("clang"))
    return BuildMode::CompilerKind::Clang;
  if (Name.contains("gcc") || Name.contains("g++"))
    return BuildMode::CompilerKind::GCC;
  return BuildMode::CompilerKind::Other;
}

/// Wrappers that run the compiler named after them.
bool isWrapper(llvm::StringRef Program) {
  llvm::StringRef Name = llvm::sys::path::filename(Program);
  return Name == "ccache" || Name == "sccache" || Name == "distcc" || Name == "icecc";
}
} // namespace

BuildMode::CompilerKind compilerKindOf(llvm::StringRef Program) {
  BuildMode::CompilerKind Kind = kindOfName(llvm::sys::path::filename(Program));
  if (Kind != BuildMode::CompilerKind::Other)
    return Kind;
  std::string Path = Program.str();
  if (!llvm::sys::path::has_parent_path(Program))
    if (llvm::ErrorOr<std::string> Found = llvm::sys::findProgramByName(Program))
      Path = *Found;
  llvm::SmallString<256> Real;
  if (!llvm::sys::fs::real_path(Path, Real))
    Kind = kindOfName(llvm::sys::path::filename(Real));
  return Kind;
}

std::string BuildMode::describe() const {
  std::string Name = !Program.empty() ? Program
                     : Compiler == CompilerKind::GCC ? "gcc"
                                                     : "clang";
  return Name + (LTO ? " -flto" : "");
}

BuildMode buildModeOf(const clang::Preprocessor &PP, llvm::StringRef BuildDirectory,
                      llvm::StringRef File) {
  BuildMode M;
  if (const clang::CodeGenOptions *CG = compat::codeGenOptions(PP))
    M.LTO = CG->PrepareForLTO;
  // Which compiler matters only for an LTO build: no database is read else.
  if (!M.LTO || BuildDirectory.empty() || File.empty())
    return M;
  std::string Error;
  std::unique_ptr<clang::tooling::CompilationDatabase> Db =
      clang::tooling::CompilationDatabase::autoDetectFromDirectory(BuildDirectory, Error);
  if (!Db)
    return M;
  std::vector<clang::tooling::CompileCommand> Cmds = Db->getCompileCommands(File);
  if (Cmds.empty())
    return M;
  for (const std::string &Arg : Cmds.front().CommandLine) {
    if (isWrapper(Arg))
      continue;
    M.Program = llvm::sys::path::filename(Arg).str();
    M.Compiler = compilerKindOf(Arg);
    break;
  }
  return M;
}

} // namespace hotpath
