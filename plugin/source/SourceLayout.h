//===--- SourceLayout.h - what the files of a TU look like ------*- C++ -*-===//
//
// The rewrite layer's record of the preprocessor structure that edits must
// respect: every #if/#ifdef/#ifndef/#elif/#else/#endif group with the
// condition each branch needs and whether it was taken, include guards, the
// #include directives of each file, and each file's indentation. clang-tidy
// sees one configuration; edits land in source that every configuration
// shares, so an edit is valid only where the code it relies on is compiled
// whenever the edit is (SourceLayout::conditionsAt compares the two).
//
//===----------------------------------------------------------------------===//

#ifndef HOTPATH_TIDY_REWRITE_SOURCELAYOUT_H
#define HOTPATH_TIDY_REWRITE_SOURCELAYOUT_H

#include "support/Compat.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/PPCallbacks.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class IdentifierInfo;
} // namespace clang

namespace hotpath {

/// One condition a branch needs: "defined(X)", "X > 2", true or negated.
struct ConditionLiteral {
  std::string Cond;
  bool Positive = true;

  ConditionLiteral negated() const { return {Cond, !Positive}; }
  /// As C preprocessor syntax: "defined(X)", "!defined(X)", "!(A || B)".
  std::string text() const;
  bool operator==(const ConditionLiteral &O) const {
    return Positive == O.Positive && Cond == O.Cond;
  }
};

/// "#ifdef X" for one defined(X), else "#if A && !B".
std::string guardDirective(llvm::ArrayRef<ConditionLiteral> Lits);
/// The literals of \p Of that \p In does not have (what \p Of needs beyond
/// what holds wherever \p In is compiled).
std::vector<ConditionLiteral> missingConditions(llvm::ArrayRef<ConditionLiteral> Of,
                                                llvm::ArrayRef<ConditionLiteral> In);

class SourceLayout {
public:
  /// The directive that opens a branch.
  enum class Opener : uint8_t { If, Ifdef, Ifndef, Elif, Elifdef, Elifndef, Else };
  struct Branch {
    clang::SourceLocation Hash;       // '#' of the directive that opens it
    clang::SourceLocation BodyBegin;  // the line after that directive
    Opener Kind = Opener::If;
    /// Where its test is written: the condition of an #if or #elif, the
    /// name of an #ifdef (a whole condition for the #elifdef of a skipped
    /// group).
    clang::SourceLocation Test;
    bool TestIsName = false;
    bool HasOwn = true;
    bool Taken = false;
    // Read from the source the first time the group is asked about (read()):
    // the preprocessor meets thousands of groups, a fix a few.
    std::string Directive;            // "#ifdef X", "#elif A > 1", "#else"
    ConditionLiteral Own;             // its own test (none for #else)
    std::vector<ConditionLiteral> Needs; // Own, and every earlier test false
  };
  struct Group {
    clang::FileID File;
    std::vector<Branch> Branches;
    clang::SourceLocation EndifHash;  // '#' of the #endif
    bool IncludeGuard = false;
    bool Read = false;                // the branches' text is filled in
  };
  struct Include {
    clang::SourceLocation Hash, NextLine; // the directive, the line after it
    std::string Name;                     // as written, without <> or ""
    bool Angled = false;
    bool Conditional = false;             // inside a group other than the guard
  };
  struct Indentation {
    bool Tabs = true;
    unsigned Width = 8; // of one level, in columns (spaces)
    std::string unit() const { return Tabs ? "\t" : std::string(Width, ' '); }
  };

  /// Callbacks that fill this record while the TU is preprocessed.
  std::unique_ptr<compat::IncludeCallbacks> makeRecorder(const clang::SourceManager &SM);
  void clear();

  /// What must hold for code at \p Loc to be compiled: the branches around
  /// it in its file (include guard left out), then around the #include of
  /// that file, and so on out to the main file.
  std::vector<ConditionLiteral> conditionsAt(clang::SourceLocation Loc,
                                             const clang::SourceManager &SM) const;
  /// Enclosing (group, branch) pairs in \p Loc's own file, outermost first.
  std::vector<std::pair<unsigned, unsigned>>
  enclosingInFile(clang::SourceLocation Loc, const clang::SourceManager &SM) const;
  /// The first group of \p Range's file with a directive inside the range
  /// (a function body compiled differently by configuration), if any.
  std::optional<unsigned> firstGroupWithin(clang::SourceRange Range,
                                           const clang::SourceManager &SM) const;
  /// Branches taken inside \p Range: what the code there was seen under.
  std::vector<ConditionLiteral> takenWithin(clang::SourceRange Range,
                                            const clang::SourceManager &SM) const;
  /// What must hold for the macro \p Name defined at \p Def to be defined
  /// as code at \p Def sees it: conditionsAt(Def) without the groups every
  /// branch of which defines \p Name (a value chosen by configuration).
  std::vector<ConditionLiteral> macroConditions(llvm::StringRef Name, clang::SourceLocation Def,
                                                const clang::SourceManager &SM) const;
  /// conditionsAt(\p Def) without the groups \p LeaveOut(group, branch of
  /// \p Def) says do not restrict the definition there (macroConditions'
  /// and the spelling rules' questions differ only in that).
  std::vector<ConditionLiteral>
  definitionConditions(clang::SourceLocation Def, const clang::SourceManager &SM,
                       llvm::function_ref<bool(const Group &, unsigned)> LeaveOut) const;
  /// What code at \p Loc needs beyond \p Here, where the file it is in may
  /// be reached through any #include of that file before \p Before, not only
  /// the one that entered it: a header first included under an #if and
  /// again, unconditionally, later (the guard skips the second, but in the
  /// configurations without the first it is the second that declares).
  /// Empty when some way in needs nothing more; else what the first way in
  /// needs. \p LeaveOut as for definitionConditions.
  std::vector<ConditionLiteral>
  missingAt(clang::SourceLocation Loc, llvm::ArrayRef<ConditionLiteral> Here,
            clang::SourceLocation Before, const clang::SourceManager &SM,
            llvm::function_ref<bool(const Group &, unsigned)> LeaveOut = nullptr) const;
  /// missingAt for the definition of macro \p Name at \p Def, leaving out
  /// the groups macroConditions leaves out.
  std::vector<ConditionLiteral> macroMissingAt(llvm::StringRef Name, clang::SourceLocation Def,
                                               llvm::ArrayRef<ConditionLiteral> Here,
                                               clang::SourceLocation Before,
                                               const clang::SourceManager &SM) const;
  /// Where branch \p I of \p G ends: the next branch's '#', or the #endif's.
  static clang::SourceLocation branchEnd(const Group &G, unsigned I) {
    return I + 1 < G.Branches.size() ? G.Branches[I + 1].Hash : G.EndifHash;
  }
  /// Calls \p F(directive name, depth of #if nesting within the range) for
  /// each preprocessor directive in [\p Begin, \p End) of one file, raw
  /// lexed, until it returns true; true when it did. A range over two files
  /// is \p Straddling.
  static bool anyDirective(clang::SourceLocation Begin, clang::SourceLocation End,
                           const clang::SourceManager &SM, const clang::LangOptions &LO,
                           bool Straddling,
                           llvm::function_ref<bool(llvm::StringRef, int, clang::Lexer &)> F);
  const Group &group(unsigned I) const { return read(I); }
  /// The #include directives of \p File, in order.
  llvm::ArrayRef<Include> includes(clang::FileID File) const;
  /// The include guard of \p File, if it has one.
  const Group *includeGuard(clang::FileID File) const;
  /// Tabs or spaces, and how wide one level is, as most of \p File indents.
  Indentation indentation(clang::FileID File, const clang::SourceManager &SM) const;
  /// Whether a directive the preprocessor evaluated, in any file of the TU,
  /// asked if \p Name is defined (#ifdef, #ifndef, #elifdef, #elifndef, or
  /// defined() in #if/#elif): code that expects it may be defined elsewhere.
  bool isTested(const clang::IdentifierInfo *Name) const { return Tested.contains(Name); }

private:
  friend class SourceLayoutRecorder;
  /// Group \p I with its directives' text, conditions and needs filled in.
  const Group &read(unsigned I) const;
  /// Adds to \p Out what the groups around \p Loc in its own file need.
  void addOwnConditions(clang::SourceLocation Loc, const clang::SourceManager &SM,
                        llvm::function_ref<bool(const Group &, unsigned)> LeaveOut,
                        std::vector<ConditionLiteral> &Out) const;
  /// macroConditions' groups to leave out: those every branch of which
  /// defines \p Name.
  bool definesInEveryBranch(llvm::StringRef Name, const Group &Grp,
                            const clang::SourceManager &SM) const;

  const clang::SourceManager *SM = nullptr; // the recorder's
  mutable std::vector<Group> Groups;         // mutable: read() fills them in
  llvm::DenseMap<clang::FileID, std::vector<unsigned>> GroupsByFile;
  llvm::DenseMap<clang::FileID, std::vector<Include>> IncludesByFile;
  /// Every #include that resolved to a file, by that file, entered or not
  /// (a guarded header's second #include is skipped but still declares it
  /// there in configurations without the first): in any file, system
  /// headers' too, since <stdio.h> brings <stddef.h>.
  llvm::DenseMap<const clang::FileEntry *, llvm::SmallVector<clang::SourceLocation, 2>>
      IncludedAt;
  mutable llvm::DenseMap<clang::FileID, Indentation> IndentCache;
  llvm::DenseSet<const clang::IdentifierInfo *> Tested;
};

} // namespace hotpath

#endif // HOTPATH_TIDY_REWRITE_SOURCELAYOUT_H
