//===--- TUContext.h - what the checks of one TU share ----------*- C++ -*-===//
//
// Everything the hotpath checks of one translation unit share, made once:
// the definitions and their call sites (one walk of every body: three
// checks walking them three times cost a fifth of the module's time on
// sqlite3.c), the include graph and #if layout the preprocessor recorded,
// the project's view of calls (heat/ProjectCalls.h), and explain mode's
// bookkeeping. As clazy's ClazyContext: one explicit object with a
// documented lifetime, instead of statics.
//
// Lifetime. clang-tidy makes every enabled check of a TU together, before
// the TU is read, lets each register its preprocessor callbacks, parses,
// calls each check's onEndOfTranslationUnit in turn, and destroys them
// with the TU. The first hotpath check made for a TU creates its context
// (TUContext::join, keyed by the ClangTidyContext and what the context's
// contents depend on: the rule set's assert macros, the project index);
// the others join it; it goes when the last of them does. The context
// records the preprocessor once (the first check to register callbacks
// with a preprocessor it has not seen), and drops what it built when it is
// asked about another AST (a driver that kept checks for the next TU).
//
//===----------------------------------------------------------------------===//

#ifndef HOTPATH_TIDY_CORE_TUCONTEXT_H
#define HOTPATH_TIDY_CORE_TUCONTEXT_H

#include "analysis/CallSites.h"
#include "heat/ProjectCalls.h"
#include "index/ProjectIndex.h"
#include "source/IncludeGraph.h"
#include "source/SourceLayout.h"
#include "support/BuildMode.h"
#include "support/Rules.h"
#include "clang-tidy/ClangTidyCheck.h"
#include <memory>
#include <optional>
#include <string>

namespace hotpath {

class TUContext {
public:
  /// The context of the TU that \p Tidy is about to check, for checks whose
  /// rules are \p Rules and project index \p Project (may be null): the one
  /// the TU's other hotpath checks made, or a new one.
  static std::shared_ptr<TUContext>
  join(const clang::tidy::ClangTidyContext *Tidy, const RuleSet &Rules,
       std::shared_ptr<const index::ProjectIndex> Project);

  TUContext(const RuleSet &Rules, std::shared_ptr<const index::ProjectIndex> Project);
  ~TUContext();

  /// Records the preprocessor's #if groups, includes and macros, once per
  /// preprocessor.
  void recordPreprocessor(const clang::SourceManager &SM, clang::Preprocessor &PP);
  /// A check's own callbacks, beside the recorders: one listener on the
  /// preprocessor forwards the events any of them takes (a chain of one
  /// PPCallbacks a check cost a virtual call a level on every macro
  /// expansion of the TU). It forwards MacroExpands, MacroDefined,
  /// SourceRangeSkipped, the #if family and the includes: a callback that
  /// takes another event must be added to PPFanout first.
  void addPPCallbacks(std::unique_ptr<compat::IncludeCallbacks> CB);
  /// The AST of the TU, once parsed; what was built for another is dropped.
  void setAST(clang::ASTContext &Ctx);

  clang::ASTContext &ast() const { return *Ctx; }
  const clang::SourceManager &sourceManager() const { return Ctx->getSourceManager(); }
  const clang::Preprocessor &preprocessor() const { return *PP; }
  const RuleIndex &ruleIndex() const { return Index; }
  /// Function definitions and global initialisers outside system headers.
  const TUDefinitions &definitions();
  /// Call sites of the whole TU; the bodies are walked on the first call.
  const CallSiteIndex &callSites();
  const IncludeGraph &includes() const { return Includes; }
  /// The TU's #if groups, include directives and indentation.
  const SourceLayout &layout() const { return Layout; }
  /// The project's view of every function's calls (the index when given).
  const ProjectCalls &calls();
  const index::ProjectIndex *projectIndex() const { return Project.get(); }
  /// How the TU is compiled (-flto, which compiler); read when first asked.
  const BuildMode &buildMode();

  /// Explain mode: a check found the name asked about.
  void explainFound() { ExplainFound = true; }
  /// Called by each check at the end of the TU; true for the last one, which
  /// then says what no check said (an unknown name is never silence).
  bool checkFinished(bool &NobodyExplained);
  void checkJoined() { ++Joined; }

private:
  RuleSet Rules; // what the call-site walk counts as asserts and reports
  RuleIndex Index;
  std::shared_ptr<const index::ProjectIndex> Project;
  clang::ASTContext *Ctx = nullptr;
  clang::Preprocessor *PP = nullptr;
  class PPFanout *Fanout = nullptr; // owned by *PP
  const clang::tidy::ClangTidyContext *Tidy = nullptr; // the build directory, the file
  std::optional<BuildMode> Mode;
  CallSiteIndex Sites;
  IncludeGraph Includes;
  SourceLayout Layout;
  std::optional<TUDefinitions> Definitions;
  bool BodiesIndexed = false;
  std::unique_ptr<ProjectCalls> Calls;
  unsigned Joined = 0, Finished = 0;
  bool ExplainFound = false;
};

} // namespace hotpath

#endif // HOTPATH_TIDY_CORE_TUCONTEXT_H
