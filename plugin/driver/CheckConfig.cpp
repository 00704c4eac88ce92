//===--- driver/CheckConfig.cpp - the checks' options in a -config --------===//
#include "CheckConfig.h"
#include "Options.h"

#include "core/CheckRegistry.h"
#include "core/Options.h"
#include "index/ProjectIndex.h"

#include "clang-tidy/ClangTidyOptions.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

namespace hotpath::driver {

namespace tidy = clang::tidy;

namespace {

/// Whether the user's \p Given and the driver's \p Set say the same for
/// option \p Name: the same text, or for a path the same file. A relative
/// path in -config or -config-file is relative to the directory hotpath-tidy
/// was started in, which the per-TU runs inherit and resolve it against (as
/// the checks do: core/Options.h); a project index directory stands for its
/// index.db. So `ProjectIndex: build/hotpath-index` in the -config of
/// `hotpath-tidy -p build` agrees with the index the run builds there.
bool sameValue(llvm::StringRef Name, llvm::StringRef Given, llvm::StringRef Set) {
  if (Given == Set)
    return true;
  const OptionInfo *O = findOption(Name);
  if (!O || O->Kind != OptionKind::Path || Given.empty() || Set.empty())
    return false;
  auto File = [&](llvm::StringRef V) {
    // Spelt out: make_absolute with a directory moved from sys::fs to
    // sys::path in LLVM 22.
    llvm::SmallString<256> P(V);
    if (llvm::sys::path::is_relative(P)) {
      P = launchDirectory();
      llvm::sys::path::append(P, V);
    }
    llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
    return Name == "ProjectIndex" ? index::ProjectIndex::fileOf(P) : std::string(P);
  };
  std::string A = File(Given), B = File(Set);
  return A == B || llvm::sys::fs::equivalent(A, B);
}

} // namespace

bool mergeCheckOptions(const std::optional<std::string> &UserConfig, llvm::StringRef UserName,
                       const std::vector<std::pair<std::string, std::string>> &CheckOptions,
                       std::string &Out, std::string &Err) {
  tidy::ClangTidyOptions Opts;
  if (UserConfig) {
    llvm::ErrorOr<tidy::ClangTidyOptions> Parsed =
        tidy::parseConfiguration(llvm::MemoryBufferRef(*UserConfig, UserName));
    if (!Parsed) {
      Err = "cannot parse " + UserName.str() + ": " + Parsed.getError().message();
      return false;
    }
    Opts = std::move(*Parsed);
  } else {
    Opts.InheritParentConfig = true;
  }
  for (const auto &[Name, Value] : CheckOptions) {
    // The checks read these with getLocalOrGlobal: a global key counts too.
    auto It = Opts.CheckOptions.find(Name);
    if (It != Opts.CheckOptions.end() && !sameValue(Name, It->second.Value, Value)) {
      Err = UserName.str() + " sets " + Name + " to '" + It->second.Value +
            "', and the command line to '" + Value + "': give it once";
      return false;
    }
  }
  for (llvm::StringRef Check : hotpathCheckNames())
    for (const auto &[Name, Value] : CheckOptions) {
      std::string Key = Check.str() + "." + Name;
      auto It = Opts.CheckOptions.find(Key);
      if (It != Opts.CheckOptions.end() && !sameValue(Name, It->second.Value, Value)) {
        Err = UserName.str() + " sets " + Key + " to '" + It->second.Value +
              "', and the command line to '" + Value + "': give it once";
        return false;
      }
      Opts.CheckOptions[Key] = tidy::ClangTidyOptions::ClangTidyValue(Value);
    }
  Out = tidy::configurationAsText(Opts);
  return true;
}

namespace {

/// The text of the user's -config, or of the -config-file it names, and its
/// name in errors; no text when neither is given.
bool readUserConfig(const std::optional<std::string> &Config,
                    const std::optional<std::string> &ConfigFile,
                    std::optional<std::string> &Text, std::string &Name, std::string &Err) {
  Name = "-config";
  if (Config) {
    Text = *Config;
  } else if (ConfigFile) {
    Name = "-config-file '" + *ConfigFile + "'";
    auto Buf = llvm::MemoryBuffer::getFile(*ConfigFile);
    if (!Buf) {
      Err = "cannot read " + Name + ": " + Buf.getError().message();
      return false;
    }
    Text = (*Buf)->getBuffer().str();
  }
  return true;
}

} // namespace

bool runConfigArg(const std::optional<std::string> &Config,
                  const std::optional<std::string> &ConfigFile,
                  const std::vector<std::pair<std::string, std::string>> &CheckOptions,
                  std::string &Out, std::string &Err) {
  std::optional<std::string> User;
  std::string UserName, Merged;
  if (!readUserConfig(Config, ConfigFile, User, UserName, Err) ||
      !mergeCheckOptions(User, UserName, CheckOptions, Merged, Err))
    return false;
  Out = "--config=" + Merged;
  return true;
}

bool setCheckOptionInArgs(std::vector<const char *> &Args, llvm::StringRef Name,
                          llvm::StringRef Value, std::string &Storage, std::string &Err) {
  // The first -config or -config-file given with its value.
  std::optional<Argument> Given;
  for (const Argument &A : scanArguments(llvm::ArrayRef(Args).drop_front()))
    if (A.Spec && (A.Spec->Name == "config" || A.Spec->Name == "config-file") &&
        !A.MissingValue) {
      Given = A;
      break;
    }
  std::optional<std::string> Config, ConfigFile;
  if (Given)
    (Given->Spec->Name == "config" ? Config : ConfigFile) = Given->Value.str();
  if (!runConfigArg(Config, ConfigFile, {{Name.str(), Value.str()}}, Storage, Err))
    return false;
  size_t At = 1;
  if (Given) {
    At = 1 + Given->Index;
    Args.erase(Args.begin() + At, Args.begin() + At + Given->Count);
  }
  Args.insert(Args.begin() + At, Storage.c_str());
  return true;
}

} // namespace hotpath::driver
