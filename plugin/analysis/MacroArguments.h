//===--- MacroArguments.h - the expression a macro argument is --*- C++ -*-===//
//
// For uses of a macro recorded by the preprocessor (source/
// MacroDefinitions.h), the expression of the AST that is exactly the
// argument as passed, through any macros around it and inside it: what
// hotpath-noop-assert judges for side effects.
//
//===----------------------------------------------------------------------===//

#ifndef HOTPATH_TIDY_ANALYSIS_MACROARGUMENTS_H
#define HOTPATH_TIDY_ANALYSIS_MACROARGUMENTS_H

#include "source/MacroDefinitions.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/ArrayRef.h"
#include <vector>

namespace hotpath {

/// For each of \p Uses, the outermost expression that is exactly its
/// argument, or null (the argument is not one expression, or the use is in
/// code the AST does not hold). Only declarations that contain a use are
/// walked.
std::vector<const clang::Expr *> findMacroArguments(llvm::ArrayRef<MacroUse> Uses,
                                                    clang::ASTContext &Ctx);

} // namespace hotpath

#endif // HOTPATH_TIDY_ANALYSIS_MACROARGUMENTS_H
