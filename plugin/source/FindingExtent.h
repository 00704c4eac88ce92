//===--- FindingExtent.h - the source a finding is about -------*- C++ -*-===//
//
// hotpath-tidy --diff keeps a finding when the patch changes the code the
// finding is about, not only the line it points at: a check function is
// reported on its name, but a new branch in its body changes it too. The
// checks say where they report; this says what that location stands for,
// and the finding's data (core/FindingData.h) carries it to the driver.
//
//===----------------------------------------------------------------------===//

#ifndef HOTPATH_TIDY_SOURCE_FINDINGEXTENT_H
#define HOTPATH_TIDY_SOURCE_FINDINGEXTENT_H

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/SmallVector.h"

namespace hotpath {

/// The file ranges a warning at \p Loc is about:
/// - on the name of a declaration: the whole declaration (a function's
///   definition from its first token to its closing brace);
/// - on a `#define` line: the directive, continuation lines included;
/// - inside a function body: the statement holding it (the call site's
///   statement, with the branches of an `if` whose condition holds it).
/// Empty when none applies (the finding then stands for its own line).
llvm::SmallVector<clang::CharSourceRange, 2> findingExtent(clang::SourceLocation Loc,
                                                           clang::ASTContext &Ctx);

} // namespace hotpath

#endif // HOTPATH_TIDY_SOURCE_FINDINGEXTENT_H
