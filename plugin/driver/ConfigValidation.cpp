//===--- driver/ConfigValidation.cpp - configurations that do not parse ---===//
#include "ConfigValidation.h"

#include "clang-tidy/ClangTidyOptions.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"

namespace hotpath::driver {

namespace {

/// Parses \p Text as clang-tidy parses a configuration: the options, or
/// the error note at the YAML parser's first error (its line and column;
/// File is \p File, empty for -config, which is no file).
std::optional<ConfigNote> parse(llvm::StringRef Text, llvm::StringRef Name, llvm::StringRef File,
                                clang::tidy::ClangTidyOptions &Out) {
  std::optional<ConfigNote> First;
  auto OnDiag = [&](const llvm::SMDiagnostic &D) {
    if (First || D.getKind() != llvm::SourceMgr::DK_Error)
      return;
    First.emplace();
    First->Error = true;
    First->Where.File = File.str();
    First->Where.Line = D.getLineNo();
    First->Where.Col = First->Where.CodePointCol = D.getColumnNo() + 1;
    First->Where.Text = "malformed configuration: " + D.getMessage().str();
  };
  llvm::ErrorOr<clang::tidy::ClangTidyOptions> Parsed =
      clang::tidy::parseConfigurationWithDiags(llvm::MemoryBufferRef(Text, Name), OnDiag);
  if (Parsed) {
    Out = std::move(*Parsed);
    return std::nullopt;
  }
  if (!First) {
    First.emplace();
    First->Error = true;
    First->Where.File = File.str();
    First->Where.Text = "malformed configuration: " + Parsed.getError().message();
  }
  // -config has no file to point at: its name and place go in the text.
  if (File.empty() && First->Where.Line)
    First->Where.Text = Name.str() + ":" + std::to_string(First->Where.Line) + ":" +
                        std::to_string(First->Where.Col) + ": " + First->Where.Text;
  return First;
}

ConfigNote unreadable(llvm::StringRef File, const std::error_code &EC) {
  ConfigNote N;
  N.Error = true;
  N.Where.File = File.str();
  N.Where.Text = "cannot read the configuration: " + EC.message();
  return N;
}

} // namespace

std::optional<ConfigNote> checkUserConfig(const std::optional<std::string> &Config,
                                          const std::optional<std::string> &ConfigFile,
                                          bool &InheritsFiles) {
  InheritsFiles = !Config && !ConfigFile;
  if (InheritsFiles)
    return std::nullopt;
  clang::tidy::ClangTidyOptions Opts;
  std::optional<ConfigNote> Note;
  if (Config) {
    Note = parse(*Config, "-config", "", Opts);
  } else {
    auto Buf = llvm::MemoryBuffer::getFile(*ConfigFile);
    if (!Buf)
      return unreadable(*ConfigFile, Buf.getError());
    Note = parse((*Buf)->getBuffer(), *ConfigFile, *ConfigFile, Opts);
  }
  InheritsFiles = !Note && Opts.InheritParentConfig.value_or(false);
  return Note;
}

std::optional<ConfigNote> ClangTidyFiles::check(llvm::StringRef Source) {
  return checkDir(llvm::sys::path::parent_path(Source));
}

std::optional<ConfigNote> ClangTidyFiles::checkDir(llvm::StringRef Dir) {
  if (Dir.empty())
    return std::nullopt;
  auto Cached = ByDir.find(Dir.str());
  if (Cached != ByDir.end())
    return Cached->second;
  std::optional<ConfigNote> Note;
  bool Inherit = true;
  llvm::SmallString<256> File(Dir);
  llvm::sys::path::append(File, ".clang-tidy");
  // As clang-tidy's FileOptionsProvider: a regular file, not empty.
  if (llvm::sys::fs::is_regular_file(File)) {
    auto Buf = llvm::MemoryBuffer::getFile(File);
    if (!Buf) {
      Note = unreadable(File, Buf.getError());
    } else if (!(*Buf)->getBuffer().empty()) {
      clang::tidy::ClangTidyOptions Opts;
      Note = parse((*Buf)->getBuffer(), File, File, Opts);
      Inherit = !Note && Opts.InheritParentConfig.value_or(false);
    }
  }
  if (!Note && Inherit)
    Note = checkDir(llvm::sys::path::parent_path(Dir));
  ByDir[Dir.str()] = Note;
  return Note;
}

} // namespace hotpath::driver
