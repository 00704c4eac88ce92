//===--- MacroDefinitions.h - function-like macros as written ---*- C++ -*-===//
//
// Function-like macro definitions read from the text of their directive,
// active or in a block the preprocessor skipped (where it records nothing):
// the name, the parameters, the body's tokens and where each is; whether
// two definitions sit on the two sides of one #if; and the arguments of a
// macro's use as passed. Raw lexing only: no macro is expanded here.
//
//===----------------------------------------------------------------------===//

#ifndef HOTPATH_TIDY_SOURCE_MACRODEFINITIONS_H
#define HOTPATH_TIDY_SOURCE_MACRODEFINITIONS_H

#include "clang/Basic/LangOptions.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <vector>

namespace clang {
class MacroArgs;
class MacroInfo;
class Preprocessor;
class Token;
} // namespace clang

namespace hotpath {

/// A function-like macro's definition, as its directive spells it.
struct FunctionLikeDefinition {
  std::string Name;
  /// Parameter names; "__VA_ARGS__" for "...", the name for GNU's "args...".
  std::vector<std::string> Params;
  /// BodyEnd: just after the body's last token.
  clang::SourceLocation HashLoc, NameLoc, BodyBegin, BodyEnd;
  /// The body's tokens, spelled.
  std::vector<std::string> Tokens;
};

/// Raw-lexes the definition whose name token is at \p NameLoc (the rest of
/// its directive, whose '#' is at \p HashLoc): its parameters and its
/// body's tokens. None when it is not function-like or has no parameter.
std::optional<FunctionLikeDefinition> lexFunctionLikeDefinition(clang::SourceLocation NameLoc,
                                                               clang::SourceLocation HashLoc,
                                                               const clang::SourceManager &SM,
                                                               const clang::LangOptions &LO);

/// The '#' that starts the directive whose macro name is at \p NameLoc:
/// the first '#' of its line; invalid when there is none before the name.
clang::SourceLocation directiveHash(clang::SourceLocation NameLoc,
                                   const clang::SourceManager &SM);

/// "file:offset" of \p NameLoc: the same definition, reached twice through
/// a header included twice, has the same key.
std::string definitionKey(clang::SourceLocation NameLoc, const clang::SourceManager &SM);

/// Calls \p F(NameLoc, HashLoc) for each "# define NAME(" that starts a
/// line of the block \p Skipped outside a block comment: the function-like
/// definitions of a block the preprocessor skipped, found without lexing
/// it (lexing whole skipped blocks cost 1.3% of the module's run on
/// sqlite3.c).
void forEachSkippedFunctionLikeDefine(
    clang::SourceRange Skipped, const clang::SourceManager &SM,
    llvm::function_ref<void(clang::SourceLocation, clang::SourceLocation)> F);

/// What the text of a function-like definition says before it is lexed:
/// its name, and whether a word of its body is spelt as one of its
/// parameters (comments included, so it may say yes where the lexer would
/// not; never no where a parameter is named). Skipped blocks hold many
/// definitions that no check keeps.
struct DefinitionText {
  llvm::StringRef Name;
  llvm::SmallVector<llvm::StringRef, 4> Params;   // "..." as __VA_ARGS__
  bool MayNameParameter = false;
  /// The body's words (identifiers, numbers) and those a '(' follows.
  llvm::SmallVector<llvm::StringRef, 16> Words, Called;
  /// Punctuation other than "(){}!;<>", or a comment (which may hide a
  /// token between two words).
  bool OtherPunctuation = false, Comment = false;
};
DefinitionText readDefinitionText(clang::SourceLocation NameLoc, const clang::SourceManager &SM);
/// The same from a definition the preprocessor has read (no name, no
/// comments).
DefinitionText definitionText(const clang::MacroInfo &MI);

/// True when the directives between the definitions starting at \p A and
/// \p B (one file, A first) put them on two sides of one #if: on the way
/// from A to B an #else or #elif of the innermost group holding both is
/// crossed.
bool onOtherSidesOfOneIf(clang::SourceLocation A, clang::SourceLocation B,
                         const clang::SourceManager &SM, const clang::LangOptions &LO);

/// Whether \p MI's body names one of its parameters (bodies over 64 tokens
/// are not read: no assert's is).
bool bodyNamesParameter(const clang::MacroInfo &MI);

/// One use of a function-like macro, with one of its arguments as passed.
struct MacroUse {
  std::string Name;
  clang::SourceLocation NameLoc;           // the macro name at the use
  clang::SourceLocation ArgFirst, ArgLast; // the argument's tokens as passed
  std::vector<std::string> ArgTokens;
  /// The same, function-like macros' names left out: what the tokens
  /// show of the work (a macro's body is not seen; erofs' erofs_blkoff(x)
  /// is `(x) % EROFS_BLKSIZ`, no call).
  std::vector<std::string> ArgTokensNoMacros;
};

/// The use of macro \p Name at \p NameLoc with its argument \p Index, as
/// the preprocessor's MacroExpands gives them; none when the argument is
/// empty.
std::optional<MacroUse> macroUse(const clang::Token &Name, clang::SourceLocation NameLoc,
                                 const clang::MacroArgs &Args, unsigned Index,
                                 const clang::Preprocessor &PP);

} // namespace hotpath

#endif // HOTPATH_TIDY_SOURCE_MACRODEFINITIONS_H
