//===--- HotpathCheck.h - base of the hotpath checks ------------*- C++ -*-===//
//
// What every hotpath check shares: its options (read once, one way:
// core/Options.h), the rule set, the per-TU context the checks of a TU share
// (core/TUContext.h), the heat model with this check's settings
// (heat/HeatModel.h), explain mode, and emit(): the one place a Finding
// becomes a warning, its notes, "no fix: ..." or its fix-its, and data for
// tools (core/FindingData.h). A check supplies run(), its pipeline over one
// TU, called once the whole TU has been seen: candidates, shape, heat,
// plan, emit.
//
//===----------------------------------------------------------------------===//

#ifndef HOTPATH_TIDY_CORE_HOTPATHCHECK_H
#define HOTPATH_TIDY_CORE_HOTPATHCHECK_H

#include "support/Compat.h"
#include "core/Finding.h"
#include "core/Options.h"
#include "core/TUContext.h"
#include "heat/HeatModel.h"
#include "support/Rules.h"
#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/Support/Regex.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace hotpath {

class HotpathCheck : public clang::tidy::ClangTidyCheck {
public:
  HotpathCheck(llvm::StringRef Name, clang::tidy::ClangTidyContext *Context);
  ~HotpathCheck() override;

  void storeOptions(clang::tidy::ClangTidyOptions::OptionMap &Opts) final;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) final;
  void registerPPCallbacks(const clang::SourceManager &SM, clang::Preprocessor *PP,
                           clang::Preprocessor *ModuleExpanderPP) final;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) final;
  void onEndOfTranslationUnit() final;

protected:
  /// The check's pipeline over one TU, once the whole TU was seen.
  virtual void run(TUContext &TU) = 0;
  /// The check's own preprocessor callbacks, if any; only asked for when
  /// its options are valid. They hear the TU's events through the one
  /// listener the checks share (TUContext::addPPCallbacks).
  virtual std::unique_ptr<compat::IncludeCallbacks> ppCallbacks(const clang::SourceManager &SM,
                                                                clang::Preprocessor &PP) {
    return nullptr;
  }
  /// Drops per-TU state.
  virtual void reset() {}

  /// The reader of this check's options, for the constructors; a value that
  /// does not parse stops the check with an error naming it.
  OptionReader &options() { return Reader; }
  /// An error in the check's options or rule set, said at once: the check
  /// does not run.
  void configurationError(std::string Message);

  const RuleSet &rules() const { return Rules; }
  /// For a check's options that override its rule set (thresholds, the
  /// slow path's suffix), in its constructor.
  RuleSet &adjustRules() { return Rules; }
  const RuleIndex &ruleIndex() const { return *Index; }
  /// The shared context of the TU being checked (valid in run()).
  TUContext &tu() const { return *TU; }
  /// Heat with this check's settings, over the TU being checked.
  HeatModel heat() const { return HeatModel(Heat, TU->calls(), *Index); }
  const HeatSettings &heatSettings() const { return Heat; }

  /// Whether clang-tidy keeps a finding all of whose places (its warning
  /// and notes) are in the file of \p Loc (its expansion): the main file,
  /// or a header outside the system headers that its header filter selects
  /// (HeaderFilterRegex, less ExcludeHeaderFilterRegex; none by default
  /// before LLVM 22, every one from 22; hotpath-tidy's runs select the
  /// project's own). clang-tidy keeps a diagnostic, fix-its and all, when
  /// any of those places passes: a finding about a header that must be
  /// kept says a note in the main file (hook-gate's gate declaration does).
  /// A fix must not count on edits of a finding that is dropped.
  bool fixesKeptIn(clang::SourceLocation Loc) const;
  /// The same for a header named by its path (as the project index records
  /// it), in a run with this TU's options.
  bool fixesKeptInHeader(llvm::StringRef Path) const;
  /// Whether clang-tidy would keep a finding with a place at any of \p
  /// Locs: it keeps a diagnostic when its warning or any note is in user
  /// code (fixesKeptIn, and system headers too with SystemHeaders), and
  /// drops the rest as "non-user code". Such a finding is not planned
  /// (the fix of a dropped finding is never seen) nor said (a diagnostic
  /// only to be dropped makes clang-tidy scan its file for NOLINT).
  bool mayBeReported(llvm::ArrayRef<clang::SourceLocation> Locs) const;

  /// Says \p F: the warning, its notes, then "no fix: <reason>" or the
  /// fix-its and the notes about them; records it for FindingsFile.
  void emit(Finding F);
  /// "'f' is hot: <evidence>", the one wording of heat in a finding.
  Message heatNote(const clang::NamedDecl *D, const CallSiteStats &S) const;
  /// The same for a verdict: its chain of calls when that made it hot.
  Message heatNote(const clang::NamedDecl *D, const HeatVerdict &V) const;

  /// Explain mode (option Explain): the analysis of one function or macro
  /// is told step by step, as a remark ("explain 'f': ...") followed by one
  /// note per step.
  bool explaining(llvm::StringRef Name) const {
    return !ExplainName.empty() && Name == ExplainName;
  }
  bool explainRequested() const { return !ExplainName.empty(); }
  llvm::StringRef explainName() const { return ExplainName; }
  /// Starts the explanation of one declaration or macro definition at \p Loc.
  void explainBegin(clang::SourceLocation Loc, const llvm::Twine &What);
  /// One step of it.
  void explainStep(clang::SourceLocation Loc, const llvm::Twine &Text);

private:
  void loadShared();
  void diagMessage(const Message &M, clang::DiagnosticIDs::Level Level,
                   llvm::ArrayRef<clang::FixItHint> Fixes = {});
  FindingData dataOf(const Finding &F) const;
  void writeIndexReads();

  clang::tidy::ClangTidyContext *TidyContext; // ClangTidyCheck's is private
  std::string CheckName;
  OptionReader Reader;
  bool ConfigFailed = false;
  std::string RuleSetName, ExplainName, FindingsFile;
  std::string FindingsFileOrigin; // for an error writing it: where a relative path came from
  std::string IndexReads;         // the directory for the result cache's reads, or ""
  RuleSet Rules;
  std::unique_ptr<RuleIndex> Index;
  HeatSettings Heat;
  std::shared_ptr<const index::ProjectIndex> Project;
  std::shared_ptr<TUContext> TU;
  std::vector<FindingData> Recorded; // this TU's findings, for FindingsFile
  // The header filters, made on first use (as clang-tidy's consumer does).
  mutable std::unique_ptr<llvm::Regex> HeaderFilter, ExcludeHeaderFilter;
};

} // namespace hotpath

#endif // HOTPATH_TIDY_CORE_HOTPATHCHECK_H
