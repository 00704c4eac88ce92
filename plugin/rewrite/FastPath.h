//===--- FastPath.h - the text and edits of a check split -------*- C++ -*-===//
//
// hotpath-check-split's fix, written: the inline fast path (the kept
// preamble, one unlikely branch that calls the slow path, the success
// return), the slow path's declaration, and every edit that puts them in
// place and turns the original into the slow path (cold attribute, new
// name, __func__ kept). The check's planner decides what the fast path
// keeps and where it goes (FastPathPlan); this layer writes it, and says
// why when the source does not let it (a declaration with no ';' to
// follow).
//
//===----------------------------------------------------------------------===//

#ifndef HOTPATH_TIDY_REWRITE_FASTPATH_H
#define HOTPATH_TIDY_REWRITE_FASTPATH_H

#include "analysis/CheckShape.h"
#include "rewrite/NoFix.h"
#include "rewrite/Spelling.h"
#include "source/SourceLayout.h"
#include "support/Rules.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/Basic/Diagnostic.h"
#include <optional>
#include <string>
#include <vector>

namespace hotpath {

/// Where the fast path and the slow path's declaration go.
enum class FastPathPlacement {
  /// Internal linkage: the fast path right after the definition, which
  /// becomes the slow path.
  InPlace,
  /// External linkage: the header's declaration becomes the slow path's,
  /// followed by the fast path (static inline in C, inline in C++).
  Header,
  /// A member: the slow path is declared after its declaration in the
  /// class, the fast path follows the definition.
  Member,
  /// A member of a class defined in a header: as Member, but the fast path
  /// follows the class, where every caller sees it.
  MemberOfHeaderClass,
};

/// What the fix is, as hotpath-check-split's planner decided it.
struct FastPathPlan {
  const clang::FunctionDecl *FD = nullptr;
  const CheckShape *Shape = nullptr;
  /// The branches whose conditions the fast path tests, in source order.
  std::vector<const FailureBranch *> Kept;
  /// The early success exits it tests: those with a kept branch after them,
  /// in source order.
  std::vector<const SuccessExit *> KeptExits;
  /// The preamble statements it repeats: indices into Shape->Preamble.
  std::vector<size_t> KeptDecls;
  /// The constant every failure branch returns, as the first one writes
  /// it: the fast path returns it after calling the slow path. Null: it
  /// returns what the slow path returns (or nothing, for a void function).
  const clang::Expr *FailureValue = nullptr;
  FastPathPlacement Placement = FastPathPlacement::InPlace;
  /// The declaration the slow path's declaration is written from: the
  /// header's (Header), the class's (Member...); null in place.
  const clang::FunctionDecl *Declaration = nullptr;
  const clang::CXXRecordDecl *Class = nullptr; // Member...
  /// Header: static functions of the definition's file that the fast path
  /// calls, moved into the header before it as static inline.
  std::vector<const clang::FunctionDecl *> MovedHelpers;
  /// How the new code spells its hints and the cold attribute.
  Spelling Sp;
};

/// Where new code for \p Placement lands: what it names must be visible,
/// and its spelling is chosen, there.
clang::SourceLocation fastPathPoint(FastPathPlacement Placement,
                                    const clang::FunctionDecl *FD,
                                    const clang::FunctionDecl *Declaration,
                                    const clang::CXXRecordDecl *Class,
                                    const clang::ASTContext &Ctx);

/// The slow path's name: \p FD's with the rule set's report suffix.
std::string reporterName(const clang::FunctionDecl *FD, const RuleSet &Rules);

/// The fix-its of a plan, or why the source does not let them be written.
struct FastPathEdits {
  std::vector<clang::FixItHint> Fixes;
  std::optional<NoFix> Refused;
};
FastPathEdits writeFastPath(const FastPathPlan &Plan, const RuleSet &Rules,
                            const SourceLayout &Layout, const clang::ASTContext &Ctx);

} // namespace hotpath

#endif // HOTPATH_TIDY_REWRITE_FASTPATH_H
