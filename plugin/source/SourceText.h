//===--- SourceText.h - code as written, and where it is --------*- C++ -*-===//
//
// The lowest layer's view of the text of a TU: the text of code as written
// (macro uses kept), the indentation of a line and a file's bare name. Read
// by the analysis (to quote code in reasons), the rewrite layer (to copy
// code into new code) and the checks' notes alike.
//
//===----------------------------------------------------------------------===//

#ifndef HOTPATH_TIDY_SOURCE_SOURCETEXT_H
#define HOTPATH_TIDY_SOURCE_SOURCETEXT_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include <string>

namespace hotpath {

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

#endif // HOTPATH_TIDY_SOURCE_SOURCETEXT_H
