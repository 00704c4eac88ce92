//===--- Analysis.h - analysis shared by the hotpath checks -----*- C++ -*-===//
//
// What every hotpath check needs to know about the code: which calls report,
// which statements leave, which expressions are free of side effects, how hot
// a function is judging by its call sites, where a declaration lives and what
// is visible there, and how to spell "unlikely" and "cold" at a location.
//
//===----------------------------------------------------------------------===//

#ifndef HOTPATH_TIDY_ANALYSIS_H
#define HOTPATH_TIDY_ANALYSIS_H

#include "Rules.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/PPCallbacks.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"
#include <optional>
#include <set>
#include <string>

namespace clang {
class MacroInfo;
class Preprocessor;
} // namespace clang

namespace hotpath {

//===----------------------------------------------------------------------===//
// Reporting and leaving.
//===----------------------------------------------------------------------===//

/// Name of the outermost macro whose expansion produced \p Loc, or "".
llvm::StringRef outermostMacroName(clang::SourceLocation Loc,
                                   const clang::SourceManager &SM,
                                   const clang::LangOptions &LangOpts);

/// True when \p Loc lies inside the arguments or body of a macro in \p Names.
bool isInsideMacroNamed(clang::SourceLocation Loc, const llvm::StringSet<> &Names,
                        const clang::SourceManager &SM,
                        const clang::LangOptions &LangOpts);

/// A function that only reports: named by the rule set, or printf-like (a
/// format attribute) without writing into a caller's buffer.
bool isReportingFunction(const clang::FunctionDecl *FD, const RuleIndex &Rules);

/// A statement whose only effect is to report: a call to a reporting function
/// or an expansion of a reporting macro.
bool isReportingStatement(const clang::Stmt *S, const RuleIndex &Rules,
                          const clang::ASTContext &Ctx);

/// A statement after which control never continues: a call to a noreturn
/// function (attribute or rule set). `return` is handled by the callers.
bool isNoreturnStatement(const clang::Stmt *S, const RuleIndex &Rules,
                         const clang::ASTContext &Ctx);

//===----------------------------------------------------------------------===//
// Side effects and speculation.
//===----------------------------------------------------------------------===//

/// Why an expression cannot be evaluated twice with the same result and no
/// side effect, and where.
/// Expressions by structural identity (see exprIdentity).
using ExprIdentitySet = std::set<llvm::FoldingSetNodeID>;

struct Impurity {
  const clang::Stmt *Where = nullptr;
  std::string Why;
};

/// A callee that is known to be free of side effects: const/pure attributes,
/// constexpr, pure builtins, or the rule set's pure functions.
bool isKnownPureFunction(const clang::FunctionDecl *FD, const RuleIndex &Rules,
                         const clang::ASTContext &Ctx);

/// The first sub-expression of \p E that writes, calls something not known to
/// be pure, or reads volatile or atomic storage; none when \p E is pure.
std::optional<Impurity> findImpurity(const clang::Expr *E, const RuleIndex &Rules,
                                     const clang::ASTContext &Ctx);

/// Pointers (by structural identity) that an expression dereferences on every
/// evaluation, i.e. outside the right of && / || and the arms of ?:.
void collectUnconditionalDerefs(const clang::Expr *E, const clang::ASTContext &Ctx,
                                ExprIdentitySet &Out);

/// The first sub-expression of \p E that could trap or be undefined when
/// evaluated in a state the original program would not evaluate it in (a
/// dereference of a pointer not in \p SafeDerefs, an index, a division by a
/// non-constant, signed arithmetic that can overflow, a call).
std::optional<Impurity>
findSpeculationHazard(const clang::Expr *E, const clang::ASTContext &Ctx,
                      const ExprIdentitySet &SafeDerefs);

/// Structural identity of an expression, ignoring parentheses and implicit
/// casts.
llvm::FoldingSetNodeID exprIdentity(const clang::Expr *E,
                                    const clang::ASTContext &Ctx);

//===----------------------------------------------------------------------===//
// Hotness: one pass over the TU collects call sites of every function.
//===----------------------------------------------------------------------===//

struct CallSiteStats {
  unsigned Calls = 0;
  unsigned InLoops = 0;
  unsigned FromMacroAccessors = 0;
  unsigned InAssertMacros = 0;
  /// Macros defined in the TU whose body calls the function but that are not
  /// expanded here (accessor generators living in a header).
  std::vector<std::string> CallingMacros;
  bool AddressTaken = false;
  bool NamedHot = false;
  /// Share of a profile's samples the function took, when a profile is given.
  std::optional<double> ProfilePercent;
  std::string ProfileDescription; // "self samples in 'perf.txt'"
  /// With inline remarks: the call sites the compiler's inliner saw, and how
  /// many of them it left out of line.
  std::optional<unsigned> InlineSites;
  unsigned NotInlined = 0;

  unsigned score() const {
    return Calls + 2 * InLoops + 4 * FromMacroAccessors + InAssertMacros +
           4 * static_cast<unsigned>(CallingMacros.size()) + (NamedHot ? 1000 : 0);
  }
  /// "8 call sites, 8 from macro-generated accessors".
  std::string describe() const;
};

/// The code of one translation unit the checks look at: function
/// definitions (template instantiations after their pattern) and the
/// initialisers of globals, outside system headers, in source order.
struct TUDefinitions {
  std::vector<const clang::FunctionDecl *> Functions;
  std::vector<const clang::VarDecl *> GlobalInits;
};

/// One walk over the declaration contexts (namespaces, classes, templates'
/// instantiations); function bodies are not entered, apart from C++ local
/// classes.
TUDefinitions collectDefinitions(const clang::ASTContext &Ctx);

/// Records every call site and every use of a function as a value, in one
/// walk over each function body (no parent map, no per-candidate search), and
/// the macro definitions that call functions by name. Shared by the checks of
/// a TU; fed by PP callbacks while parsing and by indexDefinitions() after.
class CallSiteIndex {
public:
  /// Indexes every body and global initialiser of \p Defs.
  void indexDefinitions(const TUDefinitions &Defs, const clang::ASTContext &Ctx,
                        const RuleIndex &Rules);
  /// Indexes the calls and function references in \p Body, which belongs to
  /// \p Enclosing (null for a global variable's initializer).
  void indexBody(const clang::Stmt *Body, const clang::FunctionDecl *Enclosing,
                 const clang::ASTContext &Ctx, const RuleIndex &Rules);
  /// What the walk of a body found: a direct call in \p Enclosing (null
  /// for a global's initializer), and a function used as a value.
  void recordCall(const clang::CallExpr *Call, const clang::FunctionDecl *Callee,
                  const clang::FunctionDecl *Enclosing, bool InLoop, bool InAccessor,
                  bool InAssert);
  void recordAddressTaken(const clang::FunctionDecl *FD);
  void recordMacroDefinition(const clang::IdentifierInfo *Macro,
                             const clang::MacroInfo &Info);
  void recordMacroExpansion(const clang::IdentifierInfo *Macro);

  /// Statistics for \p FD, after the whole TU was seen.
  CallSiteStats statsFor(const clang::FunctionDecl *FD, const RuleIndex &Rules) const;

  /// Every direct call outside system headers with the function (or lambda)
  /// whose body holds it, in traversal order.
  struct Site {
    const clang::CallExpr *Call;
    const clang::FunctionDecl *Caller;
  };
  const std::vector<Site> &sites() const { return Sites; }
  void clear();

private:
  llvm::DenseMap<const clang::FunctionDecl *, CallSiteStats> Stats;
  std::vector<Site> Sites;
  // callee name -> the function-like macros whose body calls it
  llvm::StringMap<llvm::SmallVector<const clang::IdentifierInfo *, 2>> MacrosCalling;
  // Pointers, not names: sqlite3.c expands macros a million times.
  llvm::DenseSet<const clang::IdentifierInfo *> ExpandedMacros;
};

/// Which files include which, every #include counted (also those an include
/// guard skips), so visibility does not depend on what was included first.
class IncludeGraph {
public:
  void recordInclude(clang::FileID From, clang::OptionalFileEntryRef To,
                     const clang::SourceManager &SM);
  /// True when \p Header reaches \p Target through #include directives.
  bool reaches(const clang::FileEntry *Header, const clang::FileEntry *Target) const;
  void clear() { Edges.clear(); }

private:
  llvm::DenseMap<const clang::FileEntry *,
                 llvm::SmallVector<const clang::FileEntry *, 4>> Edges;
};

/// PP callbacks that feed a CallSiteIndex with macro definitions/expansions
/// and an IncludeGraph with #include directives.
std::unique_ptr<clang::PPCallbacks> makePreprocessorRecorder(CallSiteIndex &Index,
                                                             IncludeGraph &Includes,
                                                             const clang::SourceManager &SM);

//===----------------------------------------------------------------------===//
// Where declarations live, what is visible, how to spell things there.
//===----------------------------------------------------------------------===//

/// True when a declaration at \p DeclLoc can be named from \p Point in the
/// file \p Point is in, whatever file includes that one: it is earlier in the
/// same file, in a file that file includes, or built in.
bool isVisibleFrom(clang::SourceLocation DeclLoc, clang::SourceLocation Point,
                   const clang::SourceManager &SM, const IncludeGraph &Includes);

/// Declarations and macros that the given expressions and types name, which
/// must be visible where new code that uses them is put. Returns the first
/// name that is not visible at \p Point, if any.
std::optional<std::string>
findInvisibleName(llvm::ArrayRef<const clang::Stmt *> Code,
                  llvm::ArrayRef<clang::QualType> Types, clang::SourceLocation Point,
                  const clang::ASTContext &Ctx, const clang::Preprocessor &PP,
                  const IncludeGraph &Includes);

/// How the emitted code spells branch weights and the slow-path attribute.
struct Spelling {
  enum class UnlikelyKind { Macro, CxxAttribute, Builtin } Unlikely;
  std::string UnlikelyMacro; // with Macro
  std::string ColdAttribute; // e.g. "__attribute__((noinline, cold))"
  bool ColdIsStandardAttribute = false; // "[[...]]": goes before specifiers

  /// "if (<cond>)" with the condition marked unlikely.
  std::string ifUnlikely(llvm::StringRef Cond) const;
};

/// The spelling for code placed at \p Point: project macros from the rule set
/// where they are defined and visible there, else the language's own.
Spelling spellingAt(clang::SourceLocation Point, const RuleSet &Rules,
                    const clang::LangOptions &LangOpts, const clang::Preprocessor &PP,
                    const clang::SourceManager &SM, const IncludeGraph &Includes);

/// Leading white space of the line \p Loc is on (its expansion).
std::string indentationAt(clang::SourceLocation Loc, const clang::SourceManager &SM);

/// The bare file name (no directories) of the file \p Loc is expanded in,
/// for messages that must read the same wherever the tree is.
std::string fileNameAt(clang::SourceLocation Loc, const clang::SourceManager &SM);

/// Source text of a statement or expression as written (macro uses kept), or
/// "" when it cannot be mapped to one contiguous file range.
std::string sourceText(const clang::Stmt *S, const clang::ASTContext &Ctx);
std::string sourceText(clang::SourceRange R, const clang::ASTContext &Ctx);

} // namespace hotpath

#endif // HOTPATH_TIDY_ANALYSIS_H
