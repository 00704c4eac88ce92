//===--- Visibility.h - what can be named where -----------------*- C++ -*-===//
//
// The names a piece of code needs, and whether code placed at a location
// (in a header, before a function) can name them, whatever file includes
// that one (source/IncludeGraph.h says which files include which).
//
//===----------------------------------------------------------------------===//

#ifndef HOTPATH_TIDY_ANALYSIS_VISIBILITY_H
#define HOTPATH_TIDY_ANALYSIS_VISIBILITY_H

#include "source/IncludeGraph.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <string>

namespace clang {
class MacroInfo;
class Preprocessor;
} // namespace clang

namespace hotpath {

/// The declarations (not local to the code) and macros that the given
/// expressions and types name: what new code made from them relies on.
/// Macros is empty and MacrosKnown false when some code is not one range
/// of a file.
struct NamedInCode {
  llvm::SmallVector<const clang::Decl *, 16> Decls;
  llvm::SmallVector<std::pair<std::string, const clang::MacroInfo *>, 4> Macros;
  bool MacrosKnown = true;
};
NamedInCode namedInCode(llvm::ArrayRef<const clang::Stmt *> Code,
                        llvm::ArrayRef<clang::QualType> Types, const clang::ASTContext &Ctx,
                        const clang::Preprocessor &PP);

/// A name new code relies on that is not visible where the code goes.
struct InvisibleName {
  enum class Kind {
    Declaration,      // Name: its qualified name
    RecordDefinition, // Name: the record type ("struct buf")
    Macro,            // Name: the macro
    Unnamed,          // a declaration with no name
    WrittenInMacros,  // some code is not one range of a file
  } What;
  std::string Name;
  /// As a reason says it: "'buf_len'", "the definition of 'struct buf'",
  /// "macro 'LEN'", "a declaration", "code written with macros".
  std::string text() const;
};

/// Declarations and macros that the given expressions and types name, which
/// must be visible where new code that uses them is put. Returns the first
/// name that is not visible at \p Point, if any.
std::optional<InvisibleName>
findInvisibleName(llvm::ArrayRef<const clang::Stmt *> Code,
                  llvm::ArrayRef<clang::QualType> Types, clang::SourceLocation Point,
                  const clang::ASTContext &Ctx, const clang::Preprocessor &PP,
                  const IncludeGraph &Includes);

} // namespace hotpath

#endif // HOTPATH_TIDY_ANALYSIS_VISIBILITY_H
