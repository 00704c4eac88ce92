//===--- driver/CompileDatabase.cpp - the project's compile database ------===//
#include "CompileDatabase.h"
#include "Parallel.h"
#include "Paths.h"

#include "support/Compat.h"
#include "analysis/CallSites.h"
#include "index/ShardBuilder.h"

#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"

namespace hotpath::driver {

namespace {

using namespace clang;

class IncludeRecorder : public compat::IncludeCallbacks {
public:
  explicit IncludeRecorder(std::set<std::string> &Out) : Out(Out) {}
  void inclusion(SourceLocation, OptionalFileEntryRef File,
                 SrcMgr::CharacteristicKind FileType) override {
    if (!File || FileType != SrcMgr::C_User)
      return;
    StringRef Real = File->getFileEntry().tryGetRealPathName();
    Out.insert(std::string(Real.empty() ? File->getName() : Real));
  }

private:
  std::set<std::string> &Out;
};

// Preprocesses only: every #include is followed, nothing is parsed.
class IncludeAction : public PreprocessOnlyAction {
public:
  explicit IncludeAction(std::set<std::string> &Out) : Out(Out) {}
  bool BeginSourceFileAction(CompilerInstance &CI) override {
    CI.getPreprocessor().addPPCallbacks(std::make_unique<IncludeRecorder>(Out));
    return true;
  }

private:
  std::set<std::string> &Out;
};

class IncludeActionFactory : public tooling::FrontendActionFactory {
public:
  explicit IncludeActionFactory(std::set<std::string> &Out) : Out(Out) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<IncludeAction>(Out);
  }

private:
  std::set<std::string> &Out;
};

/// Every file the preprocessor reads: the key of the TU's shard.
class InputRecorder : public compat::IncludeCallbacks {
public:
  explicit InputRecorder(std::set<std::string> &Out) : Out(Out) {}
  void inclusion(SourceLocation, OptionalFileEntryRef File,
                 SrcMgr::CharacteristicKind) override {
    if (!File)
      return;
    StringRef Real = File->getFileEntry().tryGetRealPathName();
    Out.insert(std::string(Real.empty() ? File->getName() : Real));
  }

private:
  std::set<std::string> &Out;
};

/// Counts errors and keeps the first, for the note on a TU that indexes
/// with errors.
class ErrorCounter : public DiagnosticConsumer {
public:
  void HandleDiagnostic(DiagnosticsEngine::Level L, const Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(L, Info);
    if (L < DiagnosticsEngine::Error || !First.Text.empty())
      return;
    SmallString<128> Msg;
    Info.FormatDiagnostic(Msg);
    First.Text = std::string(Msg);
    if (!Info.hasSourceManager() || Info.getLocation().isInvalid())
      return;
    const SourceManager &SM = Info.getSourceManager();
    SourceLocation Loc = SM.getFileLoc(Info.getLocation());
    OptionalFileEntryRef File = SM.getFileEntryRefForID(SM.getFileID(Loc));
    PresumedLoc P = SM.getPresumedLoc(Loc);
    if (!File || P.isInvalid())
      return;
    StringRef Real = File->getFileEntry().tryGetRealPathName();
    First.File = canonicalPath(Real.empty() ? File->getName() : Real, "/");
    First.Line = P.getLine();
    First.Col = P.getColumn();
  }
  Message First;
};

/// Syntax only, then the shared walk of the checks (CallSiteIndex), made
/// into the TU's shard: the index pass costs what -fsyntax-only costs.
class IndexConsumer : public ASTConsumer {
public:
  IndexConsumer(Project::IndexedTU &Out, std::string TU, const DisabledAssertUses &Asserts)
      : Out(Out), TU(std::move(TU)), Asserts(Asserts) {}
  void HandleTranslationUnit(ASTContext &Ctx) override {
    // The walk needs no rule: the index records the macros around each call
    // and the checks match them against their own assert macros.
    static const RuleSet NoRules;
    static const RuleIndex NoRuleIndex(NoRules);
    TUDefinitions Defs = collectDefinitions(Ctx);
    CallSiteIndex Sites;
    Sites.indexDefinitions(Defs, Ctx, NoRuleIndex);
    Out.Shard =
        index::buildShard(Ctx, Defs, Sites, TU, Asserts.blockingUses(Ctx, NoRuleIndex));
    Out.Parsed = true;
  }

private:
  Project::IndexedTU &Out;
  std::string TU;
  const DisabledAssertUses &Asserts;
};

class IndexAction : public ASTFrontendAction {
public:
  IndexAction(Project::IndexedTU &Out, std::string TU) : Out(Out), TU(std::move(TU)) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI, StringRef) override {
    Preprocessor &PP = CI.getPreprocessor();
    PP.addPPCallbacks(std::make_unique<InputRecorder>(Out.Inputs));
    // The preprocessor owns its callbacks and outlives the consumer.
    auto Asserts = std::make_unique<DisabledAssertUses>(PP);
    const DisabledAssertUses &Uses = *Asserts;
    PP.addPPCallbacks(std::move(Asserts));
    return std::make_unique<IndexConsumer>(Out, TU, Uses);
  }

private:
  Project::IndexedTU &Out;
  std::string TU;
};

class IndexActionFactory : public tooling::FrontendActionFactory {
public:
  IndexActionFactory(Project::IndexedTU &Out, std::string TU) : Out(Out), TU(std::move(TU)) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<IndexAction>(Out, TU);
  }

private:
  Project::IndexedTU &Out;
  std::string TU;
};

class DbProject : public Project {
public:
  std::unique_ptr<tooling::CompilationDatabase> Db;
  std::map<std::string, std::string> Files;

  const std::map<std::string, std::string> &files() const override { return Files; }

  std::vector<std::set<std::string>>
  includes(const std::vector<std::string> &TUs, unsigned Jobs,
           llvm::function_ref<void(size_t)> Progress) override {
    std::vector<std::set<std::string>> Result(TUs.size());
    forEachInParallel(TUs.size(), Jobs, [&](size_t I) {
      std::set<std::string> Raw;
      IgnoringDiagConsumer Quiet;
      IncludeActionFactory Factory(Raw);
      runTool(TUs[I], Quiet, Factory);
      for (const std::string &P : Raw)
        Result[I].insert(canonicalPath(P, "/"));
    }, Progress);
    return Result;
  }

  std::vector<IndexedTU> index(const std::vector<std::string> &TUs, unsigned Jobs,
                               llvm::function_ref<void(size_t)> Progress) override {
    std::vector<IndexedTU> Result(TUs.size());
    forEachInParallel(TUs.size(), Jobs, [&](size_t I) {
      IndexedTU &Out = Result[I];
      ErrorCounter Errors;
      IndexActionFactory Factory(Out, TUs[I]);
      // Warnings are no part of the index; not computing them (format
      // strings, mostly) took 6% off the parse of e2fsprogs' pass1.c.
      // Without carets clang does not print its "N errors generated." line:
      // the errors are counted here and said once, with the TU's name.
      runTool(TUs[I], Errors, Factory, {"-w", "-fno-caret-diagnostics"});
      std::set<std::string> Raw;
      Raw.swap(Out.Inputs);
      Out.Inputs.insert(TUs[I]);
      for (const std::string &P : Raw)
        Out.Inputs.insert(canonicalPath(P, "/"));
      Out.Errors = Errors.getNumErrors();
      Out.FirstError = Errors.First;
    }, Progress);
    return Result;
  }

  /// One TU through \p Factory with its own compile command, the user's
  /// extra arguments, then \p Own appended.
  void runTool(const std::string &TU, DiagnosticConsumer &Diags,
               tooling::FrontendActionFactory &Factory,
               const std::vector<std::string> &Own = {}) {
    auto It = Files.find(TU);
    std::string Name = It == Files.end() ? TU : It->second;
    // Its own file system object: ClangTool moves the working directory of
    // the file system to each command's, and the process-wide one would
    // race between threads.
    tooling::ClangTool Tool(*Db, {Name}, std::make_shared<PCHContainerOperations>(),
                            fileSystem());
    Tool.setDiagnosticConsumer(&Diags);
    Tool.setPrintErrorMessage(false);
    // As clang-tidy inserts -extra-arg-before and -extra-arg.
    Tool.appendArgumentsAdjuster(tooling::getInsertArgumentAdjuster(
        Extra.Before, tooling::ArgumentInsertPosition::BEGIN));
    std::vector<std::string> After = Extra.After;
    After.insert(After.end(), Own.begin(), Own.end());
    Tool.appendArgumentsAdjuster(
        tooling::getInsertArgumentAdjuster(After, tooling::ArgumentInsertPosition::END));
    (void)Tool.run(&Factory);
  }

  /// The real file system, under the overlay when there is one (as
  /// clang-tidy's --vfsoverlay stacks it).
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fileSystem() const {
    llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Real = llvm::vfs::createPhysicalFileSystem();
    if (Overlay.empty())
      return Real;
    auto Stack = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(Real);
    Stack->pushOverlay(llvm::vfs::getVFSFromYAML(llvm::MemoryBuffer::getMemBuffer(Overlay),
                                                 nullptr, OverlayFile, nullptr, Real));
    return Stack;
  }

  std::string uncheckableLanguage(const std::string &TU) const override {
    std::string Dir;
    std::vector<std::string> Args;
    llvm::StringRef Lang;
    if (compileCommand(TU, Dir, Args))
      for (size_t I = 1; I < Args.size(); ++I) { // the last -x wins
        llvm::StringRef A = Args[I];
        if (A == "-x" && I + 1 < Args.size())
          Lang = Args[++I];
        else if (A.starts_with("-x") && A.size() > 2)
          Lang = A.drop_front(2);
      }
    if (Lang.empty()) {
      llvm::StringRef Ext = llvm::sys::path::extension(TU).drop_front();
      static const char *const Checkable[] = {"c", "i", "cc", "cp", "cpp", "cxx", "c++", "CPP",
                                              "C", "ii", "m", "mm", "M", "mi", "mii", "cu"};
      if (llvm::is_contained(Checkable, Ext))
        return "";
      if (Ext == "s" || Ext == "S" || Ext == "sx" || Ext == "asm")
        return "assembly";
      return "not C or C++ ('." + Ext.str() + "')";
    }
    if (Lang.starts_with("assembler"))
      return "assembly";
    static const char *const CheckableLangs[] = {
        "c", "c++", "objective-c", "objective-c++", "cuda", "c-header", "c++-header",
        "cpp-output", "c++-cpp-output", "objective-c-header", "objective-c++-header"};
    if (llvm::is_contained(CheckableLangs, Lang))
      return "";
    return "language '" + Lang.str() + "'";
  }

  bool compileCommand(const std::string &TU, std::string &Directory,
                      std::vector<std::string> &Args) const override {
    auto It = Files.find(TU);
    std::vector<tooling::CompileCommand> Cmds =
        Db->getCompileCommands(It == Files.end() ? TU : It->second);
    if (Cmds.empty())
      return false;
    Directory = Cmds.front().Directory;
    Args = Cmds.front().CommandLine;
    return !Args.empty();
  }
};

} // namespace

bool Project::setOverlay(llvm::StringRef YamlFile, std::string &Err) {
  Overlay.clear();
  OverlayFile = YamlFile.str();
  if (YamlFile.empty())
    return true;
  auto Buf = llvm::MemoryBuffer::getFile(YamlFile);
  if (!Buf) {
    Err = "cannot read the overlay " + YamlFile.str() + ": " + Buf.getError().message();
    return false;
  }
  if (!llvm::vfs::getVFSFromYAML(llvm::MemoryBuffer::getMemBuffer((*Buf)->getBuffer()), nullptr,
                                 YamlFile, nullptr, llvm::vfs::createPhysicalFileSystem())) {
    Err = "the overlay " + YamlFile.str() + " does not read as a clang VFS overlay";
    return false;
  }
  Overlay = (*Buf)->getBuffer().str();
  return true;
}

std::unique_ptr<Project> Project::load(llvm::StringRef BuildDir, std::string &Err) {
  auto P = std::make_unique<DbProject>();
  P->Db = tooling::CompilationDatabase::loadFromDirectory(BuildDir, Err);
  if (!P->Db)
    return nullptr;
  for (const std::string &F : P->Db->getAllFiles())
    P->Files.emplace(canonicalPath(F, BuildDir), F);
  if (P->Files.empty()) {
    Err = "the compilation database in " + BuildDir.str() + " lists no files";
    return nullptr;
  }
  // Where clang's loaders look, in their order.
  for (const char *Name : {"compile_commands.json", "compile_flags.txt"}) {
    std::string F = canonicalPath(Name, BuildDir);
    if (llvm::sys::fs::exists(F)) {
      P->DatabaseFile = std::move(F);
      break;
    }
  }
  return P;
}

} // namespace hotpath::driver
