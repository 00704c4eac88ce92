//===--- HookShape.h - bodies that make a function a hook -------*- C++ -*-===//
//
// A hook candidate is a function whose body, in this configuration, does
// nothing a caller could miss: it is empty, returns a constant, or acts only
// while a global (a flag, a field of a global, a callback pointer) is set.
// Read by hotpath-hook-gate for the hooks a TU defines, and by the project
// index for the hooks other TUs call.
//
//===----------------------------------------------------------------------===//

#ifndef HOTPATH_TIDY_ANALYSIS_HOOKSHAPE_H
#define HOTPATH_TIDY_ANALYSIS_HOOKSHAPE_H

#include "support/Rules.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/StringSet.h"
#include <optional>
#include <string>
#include <vector>

namespace hotpath {

struct HookBody {
  enum class Kind { Empty, Constant, Switch };
  Kind Shape = Kind::Empty;
  /// The value it returns while it does nothing is known (always, for a
  /// void hook), and Disabled spells it for any call site.
  bool KnownDisabled = false;
  std::string Disabled;
  /// Kind::Switch: the condition the body tests before acting.
  const clang::Expr *Switch = nullptr;
  /// "its body is empty", "its body only returns 0", "it does something
  /// only while 'x' holds".
  std::string Why;
};

/// Why a body that looks like a hook's is not one. A hook acts
/// while its callback or flag is set, and its callers cannot tell it ran; a
/// check function reports and returns a failure that its callers test
/// (e2fsprogs' debugfs `check_fs_open()`: `if (!current_fs) { com_err(...);
/// return 1; } return 0;`, 34 callers that return when it fails), and gating
/// its calls would only duplicate the test.
enum class NotHookReason {
  None,
  /// The body acts while its condition holds by reporting and returning a
  /// constant other than the one it returns otherwise.
  ReportsAndFails,
  /// The body acts while a pointer is null (`!p`, `p == NULL`).
  ActsOnNull,
  /// A void function's body is `return f(x);`: the call it returns does the
  /// work (Linux 6.1's mm/folio-compat.c, `void unlock_page(struct page
  /// *page) { return folio_unlock(page_folio(page)); }`). Condition: what
  /// it returns.
  ReturnsVoidCall,
};

/// One text for each reason, for explain mode.
llvm::StringRef notHookText(NotHookReason R);

struct NotHook {
  NotHookReason Reason = NotHookReason::None;
  /// The condition the body tests.
  const clang::Expr *Condition = nullptr;
};

/// The hook shape of \p Def's body, or none. When the body looks like a
/// hook's but is not one (a check function, a void `return f(x);`),
/// \p WhyNot (if given) says why.
std::optional<HookBody> recogniseHookBody(const clang::FunctionDecl *Def,
                                          const clang::ASTContext &Ctx,
                                          const RuleIndex &Rules,
                                          NotHook *WhyNot = nullptr);

/// Why \p FD is kept out of line on purpose ("noinline", "used", "weak",
/// "an error-injection point" when \p ErrorInjected names it), or "".
std::string outOfLineMarker(const clang::FunctionDecl *FD,
                            const llvm::StringSet<> &ErrorInjected);

/// The text of a constant, spelled so that it can be written at any call
/// site: literals and true/false/NULL/nullptr as written, anything else as
/// its value; none when \p E is not an integer or null-pointer constant.
std::optional<std::string> constantText(const clang::Expr *E, const clang::ASTContext &Ctx);

/// The variables and enumerators a switch names, in order, each once, then
/// the macros its text spells (`sqlite3GlobalConfig.xTestCallback` names
/// sqlite3Config and sqlite3GlobalConfig); none when its text is not one
/// range of a file (written inside a macro), so that it could not be copied
/// to a caller in another file.
std::optional<std::vector<std::string>> switchNames(const clang::Expr *Switch,
                                                    const clang::ASTContext &Ctx);

} // namespace hotpath

#endif // HOTPATH_TIDY_ANALYSIS_HOOKSHAPE_H
