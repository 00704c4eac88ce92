//===--- driver/PlainRun.cpp - hotpath-tidy as plain clang-tidy -----------===//
#include "PlainRun.h"
#include "CheckConfig.h"
#include "HeaderFilter.h"
#include "Options.h"

#include "clang-tidy/ClangTidyOptions.h"
#include "clang-tidy/tool/ClangTidyMain.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace hotpath::driver {

namespace tidy = clang::tidy;

namespace {

/// Whether the configuration text \p Text sets Checks.
bool setsChecks(llvm::StringRef Text, llvm::StringRef Name) {
  llvm::ErrorOr<tidy::ClangTidyOptions> O =
      tidy::parseConfiguration(llvm::MemoryBufferRef(Text, Name));
  return O && O->Checks.has_value();
}

/// Whether a .clang-tidy in \p Dir or above it sets Checks.
bool clangTidyFileSetsChecks(llvm::StringRef Dir) {
  llvm::SmallString<256> D(Dir);
  llvm::sys::fs::make_absolute(D);
  for (llvm::StringRef Cur = D; !Cur.empty(); Cur = llvm::sys::path::parent_path(Cur)) {
    llvm::SmallString<256> F(Cur);
    llvm::sys::path::append(F, ".clang-tidy");
    if (auto Buf = llvm::MemoryBuffer::getFile(F))
      if (setsChecks((*Buf)->getBuffer(), F))
        return true;
  }
  return false;
}

/// "--checks=-*,hotpath-*" unless \p Args (without the program name) give
/// -checks, or a -config, -config-file or .clang-tidy (by the sources or
/// here) sets Checks: hotpath-tidy runs its own checks by default, as the
/// runs over the database do, not clang-tidy's default clang-analyzer-*
/// set, and never overrides a configuration that says which.
std::optional<std::string> defaultChecksArg(llvm::ArrayRef<const char *> Args) {
  std::vector<std::string> Dirs{"."};
  for (const Argument &A : scanArguments(Args)) {
    if (A.EndOfOptions)
      break;
    if (A.Spec && A.Spec->Name == "checks")
      return std::nullopt;
    if (A.Spec && A.Spec->Name == "config" && setsChecks(A.Value, "-config"))
      return std::nullopt;
    if (A.Spec && A.Spec->Name == "config-file")
      if (auto Buf = llvm::MemoryBuffer::getFile(A.Value); Buf && setsChecks((*Buf)->getBuffer(), A.Value))
        return std::nullopt;
    if (!A.Spec && !A.Text.starts_with("-") && llvm::sys::fs::exists(A.Text))
      Dirs.push_back(llvm::sys::path::parent_path(A.Text).str());
  }
  for (const std::string &D : Dirs)
    if (clangTidyFileSetsChecks(D.empty() ? "." : D))
      return std::nullopt;
  return "--checks=" + RunOptions().Checks;
}

/// Takes -j N and --progress out of \p Args (with the program name): one
/// clang-tidy process checks its sources in turn, so they change nothing
/// it checks or reports, and clang-tidy would refuse them.
void dropRunOnlyArgs(std::vector<const char *> &Args) {
  std::vector<Argument> Scanned = scanArguments(llvm::ArrayRef(Args).drop_front());
  for (auto It = Scanned.rbegin(); It != Scanned.rend(); ++It)
    if (It->Spec && (It->Spec->Name == "jobs" || It->Spec->Name == "progress"))
      Args.erase(Args.begin() + 1 + It->Index, Args.begin() + 1 + It->Index + It->Count);
}

} // namespace

int runClangTidy(int Argc, const char **Argv) {
  std::vector<const char *> Args(Argv, Argv + Argc);
  dropRunOnlyArgs(Args);
  std::string ExplainName, ConfigArg, Err;
  if (!takeExplain(Args, ExplainName, Err) ||
      (!ExplainName.empty() &&
       !setCheckOptionInArgs(Args, "Explain", ExplainName, ConfigArg, Err))) {
    llvm::errs() << "hotpath-tidy: error: " << Err << "\n";
    return 1;
  }
  std::optional<std::string> HeaderFilter =
      defaultHeaderFilterArg(llvm::ArrayRef<const char *>(Args).drop_front());
  if (HeaderFilter)
    Args.insert(Args.begin() + 1, HeaderFilter->c_str());
  std::optional<std::string> Checks =
      defaultChecksArg(llvm::ArrayRef<const char *>(Args).drop_front());
  if (Checks)
    Args.insert(Args.begin() + 1, Checks->c_str());
  return clang::tidy::clangTidyMain(static_cast<int>(Args.size()), Args.data());
}

} // namespace hotpath::driver
