//===--- HotpathCheck.h - base of the hotpath checks ------------*- C++ -*-===//
//
// What all hotpath checks share: the rule set (option RuleSet), the
// definitions of the TU and the index of their call sites, and the
// preprocessor they spell against. A check reports in reportFindings(), once
// the whole translation unit has been seen.
//
//===----------------------------------------------------------------------===//

#ifndef HOTPATH_TIDY_HOTPATHCHECK_H
#define HOTPATH_TIDY_HOTPATHCHECK_H

#include "analysis/CallSites.h"
#include "analysis/Visibility.h"
#include "heat/InlineRemarks.h"
#include "heat/Profile.h"
#include "support/Rules.h"
#include "index/ProjectIndex.h"
#include "source/SourceLayout.h"
#include "clang-tidy/ClangTidyCheck.h"
#include <map>
#include <memory>

namespace hotpath::index {
class RecordMaker;
} // namespace hotpath::index

namespace hotpath {

/// The definitions, call-site index and include graph of one translation
/// unit. Built once, when a hotpath check of the TU first asks, and read by
/// all of them: three checks walking every body three times cost a fifth of
/// the module's time on sqlite3.c. No AST matchers: a matcher on every
/// function and variable declaration cost as much again as the walk.
struct SharedTUIndex {
  CallSiteIndex CallSites;
  IncludeGraph Includes;
  SourceLayout Layout; // conditionals, include directives: what edits respect
  std::optional<TUDefinitions> Definitions; // collected on first use
  const clang::ASTContext *DefinitionsOf = nullptr; // the AST they point into
  bool BodiesIndexed = false;               // CallSites has seen Definitions
  /// Explain mode: the checks of the TU that share this index, how many have
  /// finished it, and whether any found the name asked about. The last to
  /// finish says so when none did (an unknown name is never silence).
  unsigned Attached = 0, Finished = 0;
  bool ExplainFound = false;
  /// With a project index: this TU's own call sites of a callee (canonical
  /// declaration) as index records, so that the index's copy of them is not
  /// counted twice, and what the index knows of it; made when first asked.
  // (A std::map: references to its vectors outlive later insertions.)
  std::map<const clang::FunctionDecl *, std::vector<index::CallSite>> LocalSites;
  llvm::DenseMap<const clang::FunctionDecl *, const index::Function *> ProjectFunctions;
  std::shared_ptr<index::RecordMaker> Records;
};

/// A fact about a parameter: every call site passes it a constant, from Min
/// to Max. Known for a function whose every call is visible: one with
/// internal linkage, or any function the project index has, and only while
/// its address is never taken.
struct ConstantParam {
  int64_t Min = 0, Max = 0;
  unsigned Sites = 0;
  bool ProjectWide = false; // from the project index, not this TU alone
};

/// `hotpath-tidy --explain=<name>`: the name, for the checks linked into
/// that binary to read as their Explain option's default.
void setExplainFromCommandLine(llvm::StringRef Name);

class HotpathCheck : public clang::tidy::ClangTidyCheck {
public:
  HotpathCheck(llvm::StringRef Name, clang::tidy::ClangTidyContext *Context);

  void storeOptions(clang::tidy::ClangTidyOptions::OptionMap &Opts) override;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) final;
  void registerPPCallbacks(const clang::SourceManager &SM, clang::Preprocessor *PP,
                           clang::Preprocessor *ModuleExpanderPP) final;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) final;
  void onEndOfTranslationUnit() final;

protected:
  using ClangTidyCheck::diag;
  /// ClangTidyCheck::diag; a warning also carries, as its source ranges,
  /// the extent of what it is about (FindingExtent.h) when hotpath-tidy
  /// --diff asks for it, so that a patch to any line of it counts.
  clang::DiagnosticBuilder diag(clang::SourceLocation Loc, llvm::StringRef Description,
                                clang::DiagnosticIDs::Level Level = clang::DiagnosticIDs::Warning);

  /// Called once the whole TU was seen.
  virtual void reportFindings(clang::ASTContext &Ctx) = 0;
  /// Drops per-TU state.
  virtual void reset() = 0;
  /// The check's own preprocessor callbacks, if any; only called when the
  /// rule set loaded.
  virtual void registerCheckPPCallbacks(const clang::SourceManager &SM,
                                        clang::Preprocessor *PP) {}

  const RuleSet &rules() const { return Rules; }
  const RuleIndex &ruleIndex() const { return *Index; }
  /// Function definitions and global initialisers outside system headers.
  const TUDefinitions &definitions() const;
  /// Call sites of the whole TU; the bodies are walked on the first call.
  const CallSiteIndex &callSites() const;
  const IncludeGraph &includes() const { return Shared->Includes; }
  /// The TU's #if groups, include directives and indentation (rewrite/).
  const SourceLayout &layout() const { return Shared->Layout; }
  const clang::Preprocessor &preprocessor() const { return *PP; }

  /// Call-site evidence for \p FD, with its share of the profile's samples
  /// when a profile was given.
  CallSiteStats heatOf(const clang::FunctionDecl *FD) const;
  /// Hot enough to report: with a profile, its share of samples reaches
  /// ProfileThreshold (or ReportColdFunctions asks for all); without one, the
  /// call-site score reaches \p Threshold.
  bool isHot(const CallSiteStats &S, unsigned Threshold) const;
  bool hasProfile() const { return Prof.has_value(); }
  /// Option InlineRemarks given (clang's optimization records, or the
  /// summary hotpath-tidy --inline-remarks writes).
  bool hasInlineRemarks() const { return Inline.has_value(); }
  /// False only when inline remarks are given and show no call to the
  /// function left out of line (all inlined, or no call compiled at all).
  bool staysOutOfLine(const CallSiteStats &S) const;
  /// The heat decision in words, for explain mode: the evidence, what it is
  /// weighed against (\p Threshold, named \p ThresholdOption), and the outcome.
  std::string describeHeat(const CallSiteStats &S, unsigned Threshold,
                           llvm::StringRef ThresholdOption) const;

  /// Explain mode (option Explain, or hotpath-tidy --explain=<name>): the
  /// analysis of one function or macro is told step by step, as a remark
  /// ("explain 'f': ...") followed by one note per step.
  bool explaining(llvm::StringRef Name) const {
    return !ExplainName.empty() && Name == ExplainName;
  }
  bool explainRequested() const { return !ExplainName.empty(); }
  llvm::StringRef explainName() const { return ExplainName; }
  /// Starts the explanation of one declaration or macro definition at \p Loc.
  void explainBegin(clang::SourceLocation Loc, const llvm::Twine &What);
  /// One step of it.
  void explainStep(clang::SourceLocation Loc, const llvm::Twine &Text);

  /// The project index the option ProjectIndex names, or null.
  const index::ProjectIndex *projectIndex() const { return Project.get(); }
  /// What the project index knows of \p FD (by USR), or null.
  const index::Function *projectFunction(const clang::FunctionDecl *FD) const;
  /// This TU's call sites of \p FD, as index records.
  const std::vector<index::CallSite> &localSites(const clang::FunctionDecl *FD) const;
  /// The call sites of \p FD the project index holds and this TU does not:
  /// those in other files (each with the count this TU does not account for).
  std::vector<index::CallSite> remoteSites(const clang::FunctionDecl *FD) const;
  /// Heat from every call site the index holds for \p F (this TU's too),
  /// as CallSiteStats::Project: the same figure in every TU.
  CallSiteStats indexHeat(const index::Function &F) const;
  /// The display name of an index file: its bare name, as fileNameAt().
  static std::string displayName(llvm::StringRef Path);

  /// What every call site passes \p Param (ConstantParam), when that is
  /// known.
  std::optional<ConstantParam> constantParam(const clang::FunctionDecl *FD,
                                             unsigned Param) const;

private:
  void attachSharedIndex(clang::tidy::ClangTidyContext *Context);
  /// Adds \p Sites (of other files) to S.Project.
  void addElsewhere(CallSiteStats &S, const std::vector<index::CallSite> &Sites) const;
  /// A warning for each hotpath-* option key no check reads (a typo is
  /// otherwise silently a default).
  void warnUnknownOptions();

  clang::tidy::ClangTidyContext *TidyContext; // ClangTidyCheck's is private
  std::string CheckName;
  std::string RuleSetName;
  std::string HotFunctionsOption;
  std::string ProfilePath;
  std::string ProfileThresholdOption;
  std::string ProfileMetricOption;
  std::string ReportColdOption;
  bool ReportColdFunctions = false;
  std::optional<Profile> Prof;
  std::string InlineRemarksPath;
  std::string ExplainName;
  llvm::StringSet<> OptionHotFunctions; // named by HotFunctions, not the rule set
  std::optional<InlineRemarks> Inline;
  std::string ProjectIndexPath;
  std::shared_ptr<const index::ProjectIndex> Project;
  double ProfileThreshold = 0.5;
  Profile::Metric ProfileMetric = Profile::Metric::Self;
  RuleSet Rules;
  std::unique_ptr<RuleIndex> Index;
  std::string ConfigError;
  std::shared_ptr<SharedTUIndex> Shared;
  bool OwnsIndex = false; // this check's PP callbacks feed Shared
  clang::Preprocessor *PP = nullptr;
  clang::ASTContext *Ctx = nullptr;
};

} // namespace hotpath

#endif // HOTPATH_TIDY_HOTPATHCHECK_H
