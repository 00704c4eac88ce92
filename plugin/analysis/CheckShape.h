//===--- CheckShape.h - recognising a check function ------------*- C++ -*-===//
//
// A *check function*: a side-effect-free preamble of locals, then one or more
// `if (cond) { report...; leave; }`, then a plain success return. Read by
// hotpath-check-split (which splits hot ones) and by the side-effect
// analysis (SideEffects.h), for which a call to one only reports: dropping
// it with a disabled assert is intended.
//
//===----------------------------------------------------------------------===//

#ifndef HOTPATH_TIDY_ANALYSIS_CHECKSHAPE_H
#define HOTPATH_TIDY_ANALYSIS_CHECKSHAPE_H

#include "Rules.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include <optional>
#include <vector>

namespace hotpath {

/// One `if (cond) { report...; leave; }`.
struct FailureBranch {
  const clang::IfStmt *If;
  const clang::Expr *Cond;
  const clang::ReturnStmt *Return; // null when the branch leaves by a noreturn call
  unsigned Reports;
};

/// Preamble declarations and failure branches in source order.
struct CheckShape {
  std::vector<FailureBranch> Branches;
  std::vector<const clang::DeclStmt *> Decls;
  /// For each declaration: how many branches precede it.
  std::vector<size_t> DeclPosition;
  const clang::ReturnStmt *Success = nullptr; // null: void function falling off the end
  const clang::Stmt *ExtraSuccessWork = nullptr; // first statement beyond the return
  unsigned Reports = 0;
};

/// The check-function shape of \p FD's body, or none. Says nothing about the
/// purity of the preamble and conditions: callers decide what they need.
std::optional<CheckShape> recogniseShape(const clang::FunctionDecl *FD,
                                         const RuleIndex &Rules,
                                         const clang::ASTContext &Ctx);

} // namespace hotpath

#endif // HOTPATH_TIDY_ANALYSIS_CHECKSHAPE_H
