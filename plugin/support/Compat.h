//===--- Compat.h - one spelling for the LLVM 16, 19 and 22 APIs -*- C++ -*-===//
//
// hotpath-tidy builds against the LLVM majors Debian 12 ships clang-tidy for
// (16, 19 by default, 22). Where their APIs differ the difference lives
// here, behind one name, so the checks and the driver never test
// LLVM_VERSION_MAJOR themselves.
//
//===----------------------------------------------------------------------===//

#ifndef HOTPATH_TIDY_COMPAT_H
#define HOTPATH_TIDY_COMPAT_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/ClangTidyModule.h"
// LLVM 22 moved the module registry into ClangTidyModule.h and deprecates
// the old header with a #warning.
#if LLVM_VERSION_MAJOR < 22
#include "clang-tidy/ClangTidyModuleRegistry.h"
#endif
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Config/llvm-config.h"

#include <memory>
#include <optional>
#include <string>

namespace hotpath::compat {

/// PPCallbacks with one version-independent hook for #include.
/// InclusionDirective gained a `bool ModuleImported` parameter in LLVM 17;
/// an override with the wrong arity silently stops being called (or, with
/// `override`, does not compile), so subclasses implement inclusion().
class IncludeCallbacks : public clang::PPCallbacks {
public:
  /// \p HashLoc: the '#' of the directive; \p File: what it resolved to
  /// (none when not found); \p Kind: user or system header.
  virtual void inclusion(clang::SourceLocation HashLoc, clang::OptionalFileEntryRef File,
                         clang::SrcMgr::CharacteristicKind Kind) {}
  /// The same directive as written: \p FileName without its <> or "".
  virtual void includeDirective(clang::SourceLocation HashLoc, llvm::StringRef FileName,
                                bool IsAngled) {}
  /// For a listener on TUContext's one PPCallbacks: the macros whose
  /// function-like expansions its MacroExpands takes, the only ones it is
  /// given; null for none. The set may grow as the TU is read.
  virtual const llvm::SmallPtrSetImpl<const clang::IdentifierInfo *> *watchedMacros() const {
    return nullptr;
  }

#if LLVM_VERSION_MAJOR >= 17
  void InclusionDirective(clang::SourceLocation HashLoc, const clang::Token &,
                          llvm::StringRef FileName, bool IsAngled, clang::CharSourceRange,
                          clang::OptionalFileEntryRef File,
                          llvm::StringRef, llvm::StringRef, const clang::Module *, bool,
                          clang::SrcMgr::CharacteristicKind Kind) final {
    inclusion(HashLoc, File, Kind);
    includeDirective(HashLoc, FileName, IsAngled);
  }
#else
  void InclusionDirective(clang::SourceLocation HashLoc, const clang::Token &,
                          llvm::StringRef FileName, bool IsAngled, clang::CharSourceRange,
                          clang::OptionalFileEntryRef File,
                          llvm::StringRef, llvm::StringRef, const clang::Module *,
                          clang::SrcMgr::CharacteristicKind Kind) final {
    inclusion(HashLoc, File, Kind);
    includeDirective(HashLoc, FileName, IsAngled);
  }
#endif
};

/// The type of a struct/class/union declaration ("struct extent_buffer").
/// LLVM 22 replaced ASTContext::getRecordType with getCanonicalTagType.
inline clang::QualType recordType(const clang::ASTContext &Ctx, const clang::RecordDecl *RD) {
#if LLVM_VERSION_MAJOR >= 22
  return Ctx.getCanonicalTagType(RD);
#else
  return Ctx.getRecordType(RD);
#endif
}

/// __func__ or __FUNCTION__: the bare name, which gcc and clang both print
/// (__PRETTY_FUNCTION__ is the signature, spelled by each its own way).
/// LLVM 18 moved PredefinedExpr::IdentKind out of the class.
inline bool namesFunctionBarely(const clang::PredefinedExpr *E) {
#if LLVM_VERSION_MAJOR >= 18
  return E->getIdentKind() == clang::PredefinedIdentKind::Func ||
         E->getIdentKind() == clang::PredefinedIdentKind::Function;
#else
  return E->getIdentKind() == clang::PredefinedExpr::Func ||
         E->getIdentKind() == clang::PredefinedExpr::Function;
#endif
}

/// The DiagnosticsEngine a ClangTidyContext reports through, with its
/// options, for a driver of its own (the unit tests' harness). LLVM 21 made
/// DiagnosticOptions a plain object the engine refers to, and LLVM 22's
/// ClangTidyContext::setDiagnosticsEngine takes ownership of it; before,
/// the engine shared it by reference count. Declare this after the context
/// it is attached to, so the engine goes first.
class TidyDiagnostics {
public:
  TidyDiagnostics(clang::tidy::ClangTidyContext &Context, clang::DiagnosticConsumer *Client)
#if LLVM_VERSION_MAJOR >= 21
      : TidyDiagnostics(Context, Client, std::make_unique<clang::DiagnosticOptions>()) {
  }
#else
      : Engine(new clang::DiagnosticIDs(), new clang::DiagnosticOptions(), Client,
               /*ShouldOwnClient=*/false) {
    Context.setDiagnosticsEngine(&Engine);
  }
#endif
  clang::DiagnosticsEngine &engine() { return Engine; }

private:
#if LLVM_VERSION_MAJOR >= 21
  TidyDiagnostics(clang::tidy::ClangTidyContext &Context, clang::DiagnosticConsumer *Client,
                  std::unique_ptr<clang::DiagnosticOptions> Opts)
      : Engine(new clang::DiagnosticIDs(), *Opts, Client, /*ShouldOwnClient=*/false) {
#if LLVM_VERSION_MAJOR >= 22
    Context.setDiagnosticsEngine(std::move(Opts), &Engine);
#else
    Context.setDiagnosticsEngine(&Engine);
    KeptOpts = std::move(Opts);
#endif
  }
#if LLVM_VERSION_MAJOR < 22
  std::unique_ptr<clang::DiagnosticOptions> KeptOpts;
#endif
#endif
  clang::DiagnosticsEngine Engine;
};

/// The code-generation options of the translation unit clang-tidy is
/// checking (-flto sets PrepareForLTO there; LangOptions do not say it), or
/// null when \p PP is not a compiler instance's own. No check API of LLVM
/// 16 to 22 hands checks the CompilerInstance, but the preprocessor
/// clang-tidy gives registerPPCallbacks is the instance's own, and its
/// module loader is that instance (CompilerInstance::createPreprocessor
/// passes *this); a check's own preprocessor is never built otherwise.
inline const clang::CodeGenOptions *codeGenOptions(const clang::Preprocessor &PP) {
  auto &CI = static_cast<clang::CompilerInstance &>(PP.getModuleLoader());
  if (!CI.hasPreprocessor() || &CI.getPreprocessor() != &PP)
    return nullptr;
#if LLVM_VERSION_MAJOR < 21
  // From LLVM 21 an instance always holds an invocation (its constructor
  // makes one), and hasInvocation() is gone.
  if (!CI.hasInvocation())
    return nullptr;
#endif
  return &CI.getCodeGenOpts();
}

/// The headers a run's -exclude-header-filter leaves out of what its
/// header filter selects (ExcludeHeaderFilterRegex, from LLVM 19; none
/// before).
inline std::optional<std::string>
excludeHeaderFilterRegex(const clang::tidy::ClangTidyOptions &O) {
#if LLVM_VERSION_MAJOR >= 19
  return O.ExcludeHeaderFilterRegex;
#else
  (void)O;
  return std::nullopt;
#endif
}

} // namespace hotpath::compat

#endif // HOTPATH_TIDY_COMPAT_H
