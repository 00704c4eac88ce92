//===--- Implication.h - one condition implied by another -------*- C++ -*-===//
//
// Proofs that, in the same state, one failure condition being true makes
// another true, so that a fast path may test only the weaker one: "off >
// len" implies "off + size > len" when the sum provably cannot wrap (its
// operands are narrower than the type it is computed in, or every call site
// passes a small constant), or when the user assumes it does not. Never a
// guess: DESIGN.md's "a condition provably implied by another (overflow
// included) is dropped". Read by hotpath-check-split's planner.
//
//===----------------------------------------------------------------------===//

#ifndef HOTPATH_TIDY_ANALYSIS_IMPLICATION_H
#define HOTPATH_TIDY_ANALYSIS_IMPLICATION_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <cstdint>
#include <optional>
#include <string>

namespace hotpath {

/// What every call site passes for one parameter: a constant from Min to
/// Max, seen in this file or (ProjectWide) in the project index.
struct ParameterRange {
  int64_t Min = 0, Max = 0;
  bool ProjectWide = false;
};

/// What may be used to prove that one condition implies another, beyond
/// the types: facts about the function's parameters from its call sites, and
/// the assumption the user opted in to.
struct ImplicationContext {
  const clang::ASTContext &Ctx;
  const clang::FunctionDecl *FD;
  bool AssumeNoWrap;
  /// The range of the parameter at this index, when every call passes a
  /// constant for it.
  llvm::function_ref<std::optional<ParameterRange>(unsigned)> Fact;
};

/// When, with the same state, \p A being true makes \p B true: A is "X > L"
/// and B is "X + Z > L" where the sum provably cannot wrap (unsigned operands
/// narrower than the unsigned type it is computed in, or a parameter that
/// every call site passes a small non-negative constant), or where the user
/// assumes it does not (AssumeNoWrap). Returns the reason, as a note gives
/// it ("the sum cannot wrap"); none when it is not proved.
std::optional<std::string> implies(const clang::Expr *A, const clang::Expr *B,
                                   const ImplicationContext &IC);

} // namespace hotpath

#endif // HOTPATH_TIDY_ANALYSIS_IMPLICATION_H
