//===--- CallSites.h - the call sites of a TU ------------------*- C++ -*-===//
//
// One walk over the translation unit's definitions records every call site
// (in a loop, in a macro-generated accessor, inside an assert-like macro) and
// every use of a function as a value; preprocessor callbacks add the macros
// that call a function by name. What the heat model (heat/HeatModel.h)
// weighs.
//
//===----------------------------------------------------------------------===//

#ifndef HOTPATH_TIDY_ANALYSIS_CALLSITES_H
#define HOTPATH_TIDY_ANALYSIS_CALLSITES_H

#include "support/Compat.h"
#include "support/Rules.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/PPCallbacks.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class MacroInfo;
} // namespace clang

namespace hotpath {

class IncludeGraph;

struct CallSiteStats {
  unsigned Calls = 0;
  /// Of Calls, those that run once per program start: in main outside any
  /// loop, or in a loop over the command line (getopt, argc, argv). They
  /// score nothing.
  unsigned OncePerRun = 0;
  unsigned InLoops = 0;
  unsigned FromMacroAccessors = 0;
  unsigned InAssertMacros = 0;
  /// Macros defined in the TU whose body calls the function but that are not
  /// expanded here (accessor generators living in a header).
  std::vector<std::string> CallingMacros;
  bool AddressTaken = false;
  bool NamedHot = false;
  /// Who named it hot, for the note: "the HotFunctions option", "the rule
  /// set 'linux-kernel'" (set by the check, which knows its options).
  std::string NamedHotBy;
  /// Share of a profile's samples the function took, when a profile is given.
  std::optional<double> ProfilePercent;
  std::string ProfileDescription; // "self samples in 'perf.txt'"
  /// With inline remarks: the call sites the compiler's inliner saw, and how
  /// many of them it left out of line.
  std::optional<unsigned> InlineSites;
  unsigned NotInlined = 0;

  /// Call sites in the rest of the project (the project index), none of
  /// them counted above: the same evidence, seen in other files.
  struct Elsewhere {
    unsigned Calls = 0, InLoops = 0, FromMacroAccessors = 0, InAssertMacros = 0;
    unsigned Others = 0; // neither in a loop nor from an accessor
    std::vector<std::string> LoopSites;  // "main.c:16", in order
    std::vector<std::string> AccessorFiles, OtherFiles; // file names, each once
  } Project;

  /// "8 call sites, 8 from macro-generated accessors"; then what the
  /// project index adds: "called in a loop in main.c:16 and from 8
  /// macro-generated accessors in accessors.c".
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
  /// \p Loops: the hot loops around the call (0 for one that runs once a
  /// run: in main outside any loop, or in a loop over the command line).
  /// \p Cold: in a branch that handles a failure (no loops then).
  void recordCall(const clang::CallExpr *Call, const clang::FunctionDecl *Callee,
                  const clang::FunctionDecl *Enclosing, unsigned Loops, bool InAccessor,
                  bool InAssert, bool OncePerRun = false, bool Cold = false,
                  unsigned Branches = 0);
  void recordAddressTaken(const clang::FunctionDecl *FD);
  void recordMacroDefinition(const clang::IdentifierInfo *Macro,
                             const clang::MacroInfo &Info);
  /// An expansion of the function-like macro \p Macro.
  void recordMacroExpansion(const clang::IdentifierInfo *Macro);

  /// Whether \p FD is used as a value anywhere in the TU.
  bool addressTaken(const clang::FunctionDecl *FD) const;
  /// Statistics for \p FD, after the whole TU was seen.
  CallSiteStats statsFor(const clang::FunctionDecl *FD, const RuleIndex &Rules) const;

  /// Every direct call outside system headers with the function (or lambda)
  /// whose body holds it, in traversal order.
  struct Site {
    const clang::CallExpr *Call;
    const clang::FunctionDecl *Caller;
    bool InLoop;
    bool InAccessor; // the caller is written by a macro
    /// How many loops are around the call (those that print every
    /// iteration or walk the command line not counted).
    unsigned Loops = 0;
    /// In a branch that handles a failure (`if (ret)`, one that reports or
    /// returns a negative constant): it runs when something went wrong,
    /// its loops are not counted, and heat does not flow through it.
    bool Cold = false;
    /// The branches around the call in its function: arms of if, switch
    /// and ?:, right sides of && and ||. Each is taken half the time, as
    /// LLVM's static branch weights say when nothing else is known.
    unsigned Branches = 0;
    /// The function called (Call->getDirectCallee(), asked once).
    const clang::FunctionDecl *Callee = nullptr;
  };
  const std::vector<Site> &sites() const { return Sites; }
  /// The sites that call \p FD (any declaration of it), in traversal
  /// order: the heat model asks this of every caller on a chain.
  llvm::ArrayRef<const Site *> callersOf(const clang::FunctionDecl *FD) const;
  /// Every function called, or used as a value, in the TU, with what the
  /// walk counted (no rule-set evidence), in no particular order.
  template <typename Fn> void forEachFunction(Fn &&F) const {
    for (const auto &KV : Stats)
      F(KV.first, KV.second);
  }
  void clear();

private:
  llvm::DenseMap<const clang::FunctionDecl *, CallSiteStats> Stats;
  std::vector<Site> Sites;
  // Sites by callee, made on the first callersOf(): each callee's sites are
  // ByCallee[Begin, Begin + Count), keyed by its canonical declaration.
  mutable std::vector<const Site *> ByCallee;
  mutable llvm::DenseMap<const clang::FunctionDecl *, std::pair<unsigned, unsigned>> CallerRange;
  // callee name -> the function-like macros whose body calls it
  llvm::StringMap<llvm::SmallVector<const clang::IdentifierInfo *, 2>> MacrosCalling;
  // Pointers, not names: sqlite3.c expands macros a million times.
  llvm::DenseSet<const clang::IdentifierInfo *> ExpandedMacros;
};
/// PP callbacks that feed a CallSiteIndex with macro definitions/expansions
/// and an IncludeGraph with #include directives.
std::unique_ptr<compat::IncludeCallbacks> makePreprocessorRecorder(CallSiteIndex &Index,
                                                             IncludeGraph &Includes,
                                                             const clang::SourceManager &SM);

} // namespace hotpath

#endif // HOTPATH_TIDY_ANALYSIS_CALLSITES_H
