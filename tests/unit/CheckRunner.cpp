//===--- CheckRunner.cpp - in-process clang-tidy check harness ------------===//
//
// How a run is wired (the same wiring as clang-tidy's own
// ClangTidyASTConsumerFactory, minus the parts a single check doesn't need):
//
//  * ClangTidyContext gets a DefaultOptionsProvider whose options enable only
//    the check under test ("-*,<name>"), report diagnostics in every header
//    (HeaderFilterRegex ".*") and carry the CheckOptions.
//  * A private DiagnosticsEngine ("DE") whose client is our Recorder is handed
//    to the context: ClangTidyCheck::diag() -> ClangTidyContext::diag() ->
//    DE -> Recorder -> ClangTidyDiagnosticConsumer.
//  * The ToolInvocation gets the same Recorder as its diagnostic consumer, so
//    driver and compiler diagnostics land in the same list. (That is why this
//    uses ToolInvocation rather than runToolOnCodeWithArgs, which has no way
//    to pass a consumer: command-line errors would only go to stderr.)
//  * In CreateASTConsumer, before the check is constructed: setSourceManager
//    (DE needs it to report at a location), setCurrentFile (this is what loads
//    the options the check's constructor reads via Options.get) and
//    setASTContext (LangOpts for isLanguageVersionSupported and for
//    rendering; also formats AST arguments like `<< FunctionDecl`).
//
//===----------------------------------------------------------------------===//

#include "CheckRunner.h"
#include "support/Compat.h"

#include "clang-tidy/ClangTidyCheck.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "clang/AST/ASTConsumer.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Tooling/Core/Diagnostic.h"
#include "clang/Tooling/Core/Replacement.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <limits>
#include <sstream>

using namespace clang;
using namespace clang::tidy;

namespace hotpath::test {

//===----------------------------------------------------------------------===//
// Diag / RunResult
//===----------------------------------------------------------------------===//

std::string Diag::str() const {
  std::string S;
  llvm::raw_string_ostream OS(S);
  if (Line != 0 || !File.empty())
    OS << (File.empty() ? "<main>" : File) << ":" << Line << ":" << Column
       << ": ";
  OS << Level << ": " << Message << " [" << CheckName << "]";
  return OS.str();
}

bool operator==(const Diag &A, const Diag &B) {
  return A.Line == B.Line && A.Column == B.Column && A.Level == B.Level &&
         A.Message == B.Message && A.CheckName == B.CheckName &&
         A.File == B.File;
}

void PrintTo(const Diag &D, std::ostream *OS) { *OS << D.str(); }
std::ostream &operator<<(std::ostream &OS, const Diag &D) {
  return OS << D.str();
}

std::string RunResult::fixed() const {
  auto It = Files.find(MainFile);
  return It == Files.end() ? std::string() : It->second;
}

std::vector<Diag> RunResult::diagsOfLevel(llvm::StringRef Level) const {
  std::vector<Diag> Out;
  for (const Diag &D : Diags)
    if (D.Level == Level)
      Out.push_back(D);
  return Out;
}

std::vector<Diag> RunResult::errors() const { return diagsOfLevel("error"); }

std::string RunResult::dump() const {
  std::string S;
  for (const Diag &D : Diags)
    S += D.str() + "\n";
  return S;
}

namespace {

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// "./a/../buf.h" -> "buf.h", so that names spelled by clang and names given
/// by the test compare equal.
std::string normalizePath(llvm::StringRef P) {
  llvm::SmallString<128> S(P);
  llvm::sys::path::remove_dots(S, /*remove_dot_dot=*/true);
  return std::string(S);
}

/// Line and column (1-based, column in bytes) of \p Offset, counting line
/// ends the way clang does (\n, \r\n and lone \r).
void offsetToLineCol(llvm::StringRef Text, unsigned Offset, unsigned &Line,
                     unsigned &Col) {
  Line = 1;
  size_t LineStart = 0;
  size_t End = std::min<size_t>(Offset, Text.size());
  for (size_t I = 0; I < End; ++I) {
    char C = Text[I];
    if (C != '\n' && C != '\r')
      continue;
    if (C == '\r' && I + 1 < Text.size() && Text[I + 1] == '\n') {
      if (I + 1 >= End) // Offset points at the \n of \r\n: same line.
        break;
      ++I;
    }
    ++Line;
    LineStart = I + 1;
  }
  Col = Offset - LineStart + 1;
}

/// Strips the " [check-name]" suffix ClangTidyContext::diag appends.
std::string stripCheckSuffix(llvm::StringRef Msg, llvm::StringRef CheckName) {
  std::string Suffix = " [" + CheckName.str() + "]";
  Msg.consume_back(Suffix);
  return Msg.str();
}

std::string levelName(tooling::Diagnostic::Level L) {
  switch (L) {
  case tooling::Diagnostic::Warning:
    return "warning";
  case tooling::Diagnostic::Error:
    return "error";
  case tooling::Diagnostic::Remark:
    return "remark";
  }
  return "unknown";
}

/// Sits between both DiagnosticsEngines and the ClangTidyDiagnosticConsumer.
/// Its only job besides forwarding is to remember the order in which main
/// (non-note) diagnostics were emitted: ClangTidyDiagnosticConsumer::take()
/// sorts them by file and offset, and we want them in emission order.
class Recorder : public DiagnosticConsumer {
public:
  struct Emitted {
    std::string Path; // as the renderer will store it (expansion file loc)
    unsigned Offset = 0;
    std::string Message; // formatted, may still have " [check]" suffix
    bool Used = false;
  };

  explicit Recorder(ClangTidyDiagnosticConsumer &Inner) : Inner(Inner) {}

  void BeginSourceFile(const LangOptions &LO, const Preprocessor *PP) override {
    Inner.BeginSourceFile(LO, PP);
  }
  void EndSourceFile() override { Inner.EndSourceFile(); }
  void finish() override { Inner.finish(); }

  void HandleDiagnostic(DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override {
    // Deliberately not counting (DiagnosticConsumer::HandleDiagnostic): the
    // CompilerInstance would print "N warnings generated." to stderr. (It
    // also bases its success on that count, so ToolInvocation::run() then
    // only fails for problems that produced no diagnostic.)
    if (Level != DiagnosticsEngine::Note) {
      Emitted E;
      llvm::SmallString<256> Msg;
      Info.FormatDiagnostic(Msg);
      E.Message = std::string(Msg);
      if (Info.getLocation().isValid() && Info.hasSourceManager()) {
        const SourceManager &SM = Info.getSourceManager();
        SourceLocation Loc = SM.getFileLoc(Info.getLocation());
        E.Path = std::string(SM.getFilename(Loc));
        if (!E.Path.empty())
          E.Offset = SM.getFileOffset(Loc);
      }
      Order.push_back(std::move(E));
    }
    Inner.HandleDiagnostic(Level, Info);
  }

  /// Position in emission order of \p Err, or "unknown" (max).
  size_t rankOf(const ClangTidyError &Err) {
    const tooling::DiagnosticMessage &M = Err.Message;
    std::string WithSuffix = M.Message + " [" + Err.DiagnosticName + "]";
    for (size_t I = 0; I < Order.size(); ++I) {
      Emitted &E = Order[I];
      if (E.Used || E.Path != M.FilePath || E.Offset != M.FileOffset)
        continue;
      if (E.Message != M.Message && E.Message != WithSuffix)
        continue;
      E.Used = true;
      return I;
    }
    return std::numeric_limits<size_t>::max();
  }

private:
  ClangTidyDiagnosticConsumer &Inner;
  std::vector<Emitted> Order;
};

/// The FrontendAction run by the ToolInvocation.
class TidyAction : public ASTFrontendAction {
public:
  TidyAction(const detail::CheckFactory &Factory, llvm::StringRef CheckName,
             ClangTidyContext &Context, ast_matchers::MatchFinder &Finder,
             std::unique_ptr<ClangTidyCheck> &Check)
      : Factory(Factory), CheckName(CheckName), Context(Context),
        Finder(Finder), Check(Check) {}

protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 llvm::StringRef File) override {
    // Order matters: the check's constructor reads its options (which
    // setCurrentFile loads) and may call getLangOpts() or diag().
    Context.setSourceManager(&CI.getSourceManager());
    Context.setCurrentFile(File);
    Context.setASTContext(&CI.getASTContext());

    Check = Factory(CheckName, &Context);
    if (Check && Check->isLanguageVersionSupported(Context.getLangOpts())) {
      Check->registerMatchers(&Finder);
      Preprocessor *PP = &CI.getPreprocessor();
      Check->registerPPCallbacks(CI.getSourceManager(), PP, PP);
    }
    return Finder.newASTConsumer();
  }

private:
  const detail::CheckFactory &Factory;
  std::string CheckName;
  ClangTidyContext &Context;
  ast_matchers::MatchFinder &Finder;
  std::unique_ptr<ClangTidyCheck> &Check;
};

ClangTidyOptions makeOptions(llvm::StringRef CheckName,
                             const std::map<std::string, std::string> &Opts) {
  ClangTidyOptions O;
  // Only the check under test; compiler warnings (clang-diagnostic-*) are
  // dropped by this filter, compiler errors are always kept.
  O.Checks = "-*," + CheckName.str();
  O.WarningsAsErrors = "";
  O.HeaderFilterRegex = ".*";
  O.SystemHeaders = false;
  for (const auto &KV : Opts) {
    // "<check>.HeaderFilterRegex" is clang-tidy's own option, not the check's.
    if (llvm::StringRef(KV.first).ends_with(".HeaderFilterRegex"))
      O.HeaderFilterRegex = KV.second;
    else
      O.CheckOptions[KV.first] = ClangTidyOptions::ClangTidyValue(KV.second);
  }
  return O;
}

bool hasArgPrefix(const std::vector<std::string> &Args, llvm::StringRef P) {
  return std::any_of(Args.begin(), Args.end(), [&](const std::string &A) {
    return llvm::StringRef(A).starts_with(P);
  });
}

} // namespace

namespace detail {

RunResult runCheckImpl(const CheckFactory &Factory, llvm::StringRef CheckName,
                       llvm::StringRef Code, llvm::StringRef FileName,
                       std::vector<std::string> Args,
                       std::map<std::string, std::string> CheckOptions,
                       std::map<std::string, std::string> ExtraFiles) {
  RunResult Result;
  Result.MainFile = FileName.str();

  ClangTidyContext Context(std::make_unique<DefaultOptionsProvider>(
      ClangTidyGlobalOptions(), makeOptions(CheckName, CheckOptions)));
  ClangTidyDiagnosticConsumer TidyConsumer(Context);
  Recorder Diags(TidyConsumer);
  compat::TidyDiagnostics DE(Context, &Diags);

  // Declared before the run so that they outlive the CompilerInstance's
  // ASTConsumer / PPCallbacks that point into them.
  ast_matchers::MatchFinder Finder;
  std::unique_ptr<ClangTidyCheck> Check;

#ifdef HOTPATH_CLANG_RESOURCE_DIR
  if (!hasArgPrefix(Args, "-resource-dir"))
    Args.push_back("-resource-dir=" HOTPATH_CLANG_RESOURCE_DIR);
#endif

  // What runToolOnCodeWithArgs does, except that we can hand the consumer to
  // the ToolInvocation: it is also used for the driver's own diagnostics, so
  // a bad command line (-std=c1999) becomes an "error" Diag instead of a line
  // on stderr followed by a run that looks successful.
  auto Overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(
      llvm::vfs::getRealFileSystem());
  auto InMemory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  Overlay->pushOverlay(InMemory);
  InMemory->addFile(FileName, 0,
                    llvm::MemoryBuffer::getMemBufferCopy(Code, FileName));
  for (const auto &KV : ExtraFiles)
    InMemory->addFile(KV.first, 0,
                      llvm::MemoryBuffer::getMemBufferCopy(KV.second, KV.first));
  auto Files = llvm::makeIntrusiveRefCnt<FileManager>(FileSystemOptions(),
                                                      Overlay);

  std::vector<std::string> CommandLine = {"clang-tidy", "-fsyntax-only"};
  for (std::string &A :
       tooling::getClangStripDependencyFileAdjuster()(Args, FileName))
    CommandLine.push_back(std::move(A));
  CommandLine.push_back(FileName.str());

  tooling::ToolInvocation Invocation(
      std::move(CommandLine),
      std::make_unique<TidyAction>(Factory, CheckName, Context, Finder, Check),
      Files.get());
  Invocation.setDiagnosticConsumer(&Diags);
  bool Ok = Invocation.run();

  std::vector<ClangTidyError> Errors = TidyConsumer.take();
  // Back to emission order (take() sorts by file/offset). Stable: diagnostics
  // we can't place (none expected) keep clang-tidy's order at the end.
  {
    std::vector<std::pair<size_t, size_t>> Rank; // (rank, index)
    for (size_t I = 0; I < Errors.size(); ++I)
      Rank.emplace_back(Diags.rankOf(Errors[I]), I);
    std::stable_sort(Rank.begin(), Rank.end(),
                     [](const auto &A, const auto &B) { return A.first < B.first; });
    std::vector<ClangTidyError> Sorted;
    Sorted.reserve(Errors.size());
    for (const auto &R : Rank)
      Sorted.push_back(std::move(Errors[R.second]));
    Errors = std::move(Sorted);
  }

  // Contents of every file we know: normalized path -> (name for Files, text).
  std::string MainKey = normalizePath(FileName);
  std::map<std::string, std::pair<std::string, std::string>> Known;
  Known[MainKey] = {FileName.str(), Code.str()};
  for (const auto &KV : ExtraFiles)
    Known[normalizePath(KV.first)] = {KV.first, KV.second};
  // Files not given by the test (a -I directory on disk): read on demand.
  auto Lookup = [&](llvm::StringRef Path)
      -> const std::pair<std::string, std::string> * {
    std::string Key = normalizePath(Path);
    auto It = Known.find(Key);
    if (It != Known.end())
      return &It->second;
    auto Buf = llvm::MemoryBuffer::getFile(Path);
    if (!Buf)
      return nullptr;
    return &(Known[Key] = {Path.str(), (*Buf)->getBuffer().str()});
  };

  auto ToDiag = [&](const tooling::DiagnosticMessage &M, std::string Level,
                    const std::string &Name) {
    Diag D;
    D.Level = std::move(Level);
    D.Message = stripCheckSuffix(M.Message, Name);
    D.CheckName = Name;
    if (!M.FilePath.empty()) {
      if (const auto *F = Lookup(M.FilePath)) {
        offsetToLineCol(F->second, M.FileOffset, D.Line, D.Column);
        if (normalizePath(M.FilePath) != MainKey)
          D.File = F->first;
      } else {
        D.File = M.FilePath;
      }
    }
    return D;
  };

  bool SawError = false;
  std::map<std::string, tooling::Replacements> FileFixes; // by normalized path
  for (const ClangTidyError &E : Errors) {
    std::string Level = levelName(E.DiagLevel);
    SawError |= Level == "error";
    Result.Diags.push_back(ToDiag(E.Message, Level, E.DiagnosticName));
    for (const tooling::DiagnosticMessage &N : E.Notes)
      Result.Diags.push_back(ToDiag(N, "note", E.DiagnosticName));

    // Like `clang-tidy --fix`: only the diagnostic's own fix, not its notes'
    // (that would be --fix-notes), and never the compiler's fix-its.
    if (llvm::StringRef(E.DiagnosticName).starts_with("clang-diagnostic-"))
      continue;
    const llvm::StringMap<tooling::Replacements> *Fix =
        getFixIt(E, /*AnyFix=*/false);
    if (!Fix)
      continue;
    for (const auto &FileAndReps : *Fix) {
      for (const tooling::Replacement &R : FileAndReps.second) {
        std::string Key = normalizePath(R.getFilePath());
        if (!Lookup(R.getFilePath())) {
          Diag D;
          D.Level = "error";
          D.CheckName = "hotpath-test-harness";
          D.Message = "fix-it for unknown file '" + R.getFilePath().str() + "'";
          Result.Diags.push_back(D);
          continue;
        }
        tooling::Replacement Norm(Key, R.getOffset(), R.getLength(),
                                  R.getReplacementText());
        if (llvm::Error Err = FileFixes[Key].add(Norm)) {
          Diag D;
          D.Level = "error";
          D.CheckName = "hotpath-test-harness";
          D.Message = "conflicting fix-it not applied: " +
                      llvm::toString(std::move(Err));
          Result.Diags.push_back(D);
        }
      }
    }
  }

  if (!Ok && !SawError) {
    // The run failed without reporting an error (should not happen: driver
    // errors come through the consumer too).
    Diag D;
    D.Level = "error";
    D.CheckName = "clang-diagnostic-error";
    D.Message = "compiler invocation failed";
    Result.Diags.push_back(D);
  }

  for (const auto &KV : Known) {
    const std::string &Name = KV.second.first;
    const std::string &Text = KV.second.second;
    auto FixIt = FileFixes.find(KV.first);
    if (FixIt == FileFixes.end()) {
      // Files read from disk only appear if a fix touched them.
      if (KV.first == MainKey || ExtraFiles.count(Name))
        Result.Files[Name] = Text;
      continue;
    }
    llvm::Expected<std::string> Fixed =
        tooling::applyAllReplacements(Text, FixIt->second);
    if (Fixed) {
      Result.Files[Name] = std::move(*Fixed);
    } else {
      Result.Files[Name] = Text;
      Diag D;
      D.Level = "error";
      D.CheckName = "hotpath-test-harness";
      D.Message = "applying fix-its to '" + Name +
                  "' failed: " + llvm::toString(Fixed.takeError());
      Result.Diags.push_back(D);
    }
  }
  return Result;
}

std::map<std::string, std::string>
dumpOptionsImpl(const CheckFactory &Factory, llvm::StringRef CheckName,
                std::map<std::string, std::string> CheckOptions,
                std::vector<Diag> *ConfigDiags) {
  ClangTidyContext Context(std::make_unique<DefaultOptionsProvider>(
      ClangTidyGlobalOptions(), makeOptions(CheckName, CheckOptions)));
  ClangTidyDiagnosticConsumer TidyConsumer(Context);
  compat::TidyDiagnostics DE(Context, &TidyConsumer);
  Context.setCurrentFile("input.c");

  std::unique_ptr<ClangTidyCheck> Check = Factory(CheckName, &Context);
  ClangTidyOptions::OptionMap Stored;
  Check->storeOptions(Stored);

  if (ConfigDiags) {
    for (const ClangTidyError &E : TidyConsumer.take()) {
      Diag D;
      D.Level = levelName(E.DiagLevel);
      D.Message = stripCheckSuffix(E.Message.Message, E.DiagnosticName);
      D.CheckName = E.DiagnosticName;
      ConfigDiags->push_back(D);
    }
  }

  std::map<std::string, std::string> Out;
  for (const auto &KV : Stored)
    Out[KV.getKey().str()] = KV.getValue().Value;
  return Out;
}

} // namespace detail
//===----------------------------------------------------------------------===//
// buildAST
//===----------------------------------------------------------------------===//

std::unique_ptr<ASTUnit>
buildAST(llvm::StringRef Code, llvm::StringRef FileName, std::vector<std::string> Args,
         std::vector<std::pair<std::string, std::string>> Headers) {
#ifdef HOTPATH_CLANG_RESOURCE_DIR
  if (!hasArgPrefix(Args, "-resource-dir"))
    Args.push_back("-resource-dir=" HOTPATH_CLANG_RESOURCE_DIR);
#endif
  Args.push_back("-fsyntax-only");
  return tooling::buildASTFromCodeWithArgs(
      Code, Args, FileName, "clang-tool", std::make_shared<PCHContainerOperations>(),
      tooling::getClangStripDependencyFileAdjuster(), Headers);
}

} // namespace hotpath::test
