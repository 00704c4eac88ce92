//===--- driver/HeaderFilter.cpp - the project's headers by default -------===//
#include "HeaderFilter.h"
#include "Options.h"

#include "clang-tidy/ClangTidyOptions.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <vector>

namespace hotpath::driver {

namespace {

struct ParsedArgs {
  std::vector<std::string> Sources;
  std::optional<std::string> BuildDir, Config, ConfigFile;
  bool HeaderFilterGiven = false;
  bool FixedDatabase = false; // "--" and compile flags
};

/// The arguments the default depends on, read by the driver's option
/// table (which knows the options that take a value: "-p build" names no
/// source).
ParsedArgs parse(llvm::ArrayRef<const char *> Args) {
  ParsedArgs P;
  for (const Argument &A : scanArguments(Args)) {
    if (A.EndOfOptions) {
      P.FixedDatabase = true;
      break;
    }
    if (!A.Spec)
      continue;
    llvm::StringRef Name = A.Spec->Name;
    if (A.Spec->Kind == OptionSpec::Sources) {
      if (!A.Text.starts_with("@")) // a response file: nothing to say about it
        P.Sources.push_back(A.Text.str());
    } else if (Name == "header-filter") {
      P.HeaderFilterGiven = true;
    } else if (A.MissingValue) {
      continue;
    } else if (Name == "p") {
      P.BuildDir = A.Value.str();
    } else if (Name == "config") {
      P.Config = A.Value.str();
    } else if (Name == "config-file") {
      P.ConfigFile = A.Value.str();
    }
  }
  return P;
}

std::string absolute(llvm::StringRef Path, llvm::StringRef Dir) {
  llvm::SmallString<256> Abs(Path);
  if (!llvm::sys::path::is_absolute(Abs)) {
    Abs = Dir;
    llvm::sys::path::append(Abs, Path);
  }
  llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  return std::string(Abs);
}

std::string currentDir() {
  llvm::SmallString<256> Cwd;
  if (llvm::sys::fs::current_path(Cwd))
    return "/";
  return std::string(Cwd);
}

/// The deepest directory holding every one of \p Files (a name ending in
/// '/' is a directory, and may be the answer).
std::string commonDirectory(const std::vector<std::string> &Files) {
  std::string Root = llvm::sys::path::parent_path(Files.front()).str();
  for (const std::string &F : Files)
    while (!Root.empty() && Root != "/" &&
           !llvm::StringRef(F).starts_with(Root + "/"))
      Root = llvm::sys::path::parent_path(Root).str();
  return Root.empty() ? "/" : Root;
}

/// The directory of the compile_commands.json clang-tidy would use for
/// \p Source without -p: the first one up from the source.
std::optional<std::string> databaseAbove(llvm::StringRef Source) {
  for (llvm::StringRef Dir = llvm::sys::path::parent_path(Source); !Dir.empty();
       Dir = llvm::sys::path::parent_path(Dir)) {
    llvm::SmallString<256> Json(Dir);
    llvm::sys::path::append(Json, "compile_commands.json");
    if (llvm::sys::fs::exists(Json))
      return Dir.str();
    if (Dir == "/")
      break;
  }
  return std::nullopt;
}

/// Whether \p ConfigText sets HeaderFilterRegex; \p Inherits when it
/// inherits the .clang-tidy files (InheritParentConfig: the per-TU runs'
/// own -config, which carries the check options of a run over the
/// database, says so when the user gave no configuration).
bool setsHeaderFilter(llvm::StringRef ConfigText, bool *Inherits = nullptr) {
  llvm::ErrorOr<clang::tidy::ClangTidyOptions> Parsed =
      clang::tidy::parseConfiguration(llvm::MemoryBufferRef(ConfigText, "-config"));
  // A configuration that does not parse is clang-tidy's to report.
  if (Inherits)
    *Inherits = Parsed && Parsed->InheritParentConfig.value_or(false);
  return Parsed && Parsed->HeaderFilterRegex.has_value();
}

/// Whether the .clang-tidy files above \p Source set HeaderFilterRegex, as
/// clang-tidy reads them; the defaults left without a filter, so only a
/// file's counts.
bool filesSetHeaderFilter(llvm::StringRef Source) {
  clang::tidy::ClangTidyOptions Defaults = clang::tidy::ClangTidyOptions::getDefaults();
  Defaults.HeaderFilterRegex.reset();
  clang::tidy::FileOptionsProvider Files(clang::tidy::ClangTidyGlobalOptions(), Defaults,
                                         clang::tidy::ClangTidyOptions(),
                                         llvm::vfs::getRealFileSystem());
  return Files.getOptions(absolute(Source, currentDir())).HeaderFilterRegex.has_value();
}

} // namespace

std::optional<std::string> sourceRoot(llvm::ArrayRef<const char *> Args) {
  ParsedArgs P = parse(Args);
  if (P.Sources.empty())
    return std::nullopt;
  std::string Cwd = currentDir();
  // The files and the directories their commands run in: a project built
  // in build/ with its headers in include/ has its root above all three.
  std::vector<std::string> Files, Dirs;
  std::optional<std::string> DbDir;
  if (!P.FixedDatabase) {
    DbDir = P.BuildDir ? std::optional<std::string>(absolute(*P.BuildDir, Cwd))
                       : databaseAbove(absolute(P.Sources.front(), Cwd));
    std::string Err;
    if (DbDir)
      if (std::unique_ptr<clang::tooling::CompilationDatabase> Db =
              clang::tooling::CompilationDatabase::loadFromDirectory(*DbDir, Err))
        for (const clang::tooling::CompileCommand &C : Db->getAllCompileCommands()) {
          std::string Dir = absolute(C.Directory, *DbDir);
          Files.push_back(absolute(C.Filename, Dir));
          Dirs.push_back(Dir + "/");
        }
  }
  if (Files.empty()) {
    // "--" and the flags: the commands run here.
    for (const std::string &S : P.Sources)
      Files.push_back(absolute(S, Cwd));
    Dirs.push_back(Cwd + "/");
  }
  std::vector<std::string> Both = Files;
  llvm::append_range(Both, Dirs);
  // A build directory elsewhere (/tmp/build for /src/proj) leaves only "/"
  // in common: then the files alone, and last the database's directory.
  std::string Root = commonDirectory(Both);
  if (Root == "/")
    Root = commonDirectory(Files);
  if (Root == "/" && DbDir)
    Root = *DbDir;
  return Root;
}

std::string headerFilterFor(llvm::StringRef Root) {
  // Headers are named as the include found them: under the root as the
  // database spells it, under its real path when that differs (a symlink
  // in between), or relative to the build's directory (-Iinclude).
  std::vector<std::string> Alternatives;
  if (Root != "/") {
    Alternatives.push_back(llvm::Regex::escape(Root) + "/");
    llvm::SmallString<256> Real;
    if (!llvm::sys::fs::real_path(Root, Real) && Real != Root)
      Alternatives.push_back(llvm::Regex::escape(Real) + "/");
  } else {
    Alternatives.push_back("/");
  }
  Alternatives.push_back("[^/]");
  std::string Regex = "^(";
  for (size_t I = 0; I < Alternatives.size(); ++I)
    Regex += (I ? "|" : "") + Alternatives[I];
  return Regex + ")";
}

std::optional<std::string> defaultHeaderFilterArg(llvm::ArrayRef<const char *> Args) {
  ParsedArgs P = parse(Args);
  if (P.HeaderFilterGiven || P.Sources.empty())
    return std::nullopt;
  bool Inherits = !P.Config && !P.ConfigFile;
  if (P.Config) {
    if (setsHeaderFilter(*P.Config, &Inherits))
      return std::nullopt;
  } else if (P.ConfigFile) {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buf =
        llvm::MemoryBuffer::getFile(*P.ConfigFile);
    if (Buf && setsHeaderFilter((*Buf)->getBuffer(), &Inherits))
      return std::nullopt;
  }
  if (Inherits && filesSetHeaderFilter(P.Sources.front()))
    return std::nullopt;
  std::optional<std::string> Root = sourceRoot(Args);
  if (!Root)
    return std::nullopt;
  return "--header-filter=" + headerFilterFor(*Root);
}

} // namespace hotpath::driver
