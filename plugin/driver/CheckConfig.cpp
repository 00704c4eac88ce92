//===--- driver/CheckConfig.cpp - the checks' options in a -config --------===//
#include "CheckConfig.h"

#include "core/CheckRegistry.h"

#include "clang-tidy/ClangTidyOptions.h"
#include "llvm/Support/MemoryBuffer.h"

namespace hotpath::driver {

namespace tidy = clang::tidy;

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
    if (It != Opts.CheckOptions.end() && It->second.Value != Value) {
      Err = UserName.str() + " sets " + Name + " to '" + It->second.Value +
            "', and the command line to '" + Value + "': give it once";
      return false;
    }
  }
  for (llvm::StringRef Check : hotpathCheckNames())
    for (const auto &[Name, Value] : CheckOptions) {
      std::string Key = Check.str() + "." + Name;
      auto It = Opts.CheckOptions.find(Key);
      if (It != Opts.CheckOptions.end() && It->second.Value != Value) {
        Err = UserName.str() + " sets " + Key + " to '" + It->second.Value +
              "', and the command line to '" + Value + "': give it once";
        return false;
      }
      Opts.CheckOptions[Key] = tidy::ClangTidyOptions::ClangTidyValue(Value);
    }
  Out = tidy::configurationAsText(Opts);
  return true;
}

bool setCheckOptionInArgs(std::vector<const char *> &Args, llvm::StringRef Name,
                          llvm::StringRef Value, std::string &Storage, std::string &Err) {
  std::optional<std::string> User;
  std::string UserName = "-config";
  size_t At = 0, Taken = 0;
  for (size_t I = 1; I < Args.size() && !Taken; ++I) {
    llvm::StringRef A = Args[I];
    if (A == "--")
      break;
    llvm::StringRef Bare = A;
    if (!Bare.consume_front("--") && !Bare.consume_front("-"))
      continue;
    bool File = Bare.consume_front("config-file");
    if (!File && !Bare.consume_front("config"))
      continue;
    std::string Text;
    if (Bare.consume_front("=")) {
      Text = Bare.str();
      Taken = 1;
    } else if (Bare.empty() && I + 1 < Args.size()) {
      Text = Args[I + 1];
      Taken = 2;
    } else {
      continue;
    }
    At = I;
    if (File) {
      UserName = "-config-file '" + Text + "'";
      auto Buf = llvm::MemoryBuffer::getFile(Text);
      if (!Buf) {
        Err = "cannot read " + UserName + ": " + Buf.getError().message();
        return false;
      }
      Text = (*Buf)->getBuffer().str();
    }
    User = Text;
  }
  std::string Merged;
  if (!mergeCheckOptions(User, UserName, {{Name.str(), Value.str()}}, Merged, Err))
    return false;
  Storage = "--config=" + Merged;
  if (Taken)
    Args.erase(Args.begin() + At, Args.begin() + At + Taken);
  Args.insert(Args.begin() + (Taken ? At : 1), Storage.c_str());
  return true;
}

} // namespace hotpath::driver
