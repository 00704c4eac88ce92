//===--- Reporting.h - reporting calls, leaving statements ------*- C++ -*-===//
//
// Which calls and statements only report (printf-family loggers, the rule
// set's reporting functions and macros) and which never let control continue
// (noreturn calls). The check-function shape is built from these, and the
// side-effect analysis lets reporting through where the caller allows it.
//
//===----------------------------------------------------------------------===//

#ifndef HOTPATH_TIDY_ANALYSIS_REPORTING_H
#define HOTPATH_TIDY_ANALYSIS_REPORTING_H

#include "support/Rules.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringSet.h"

namespace hotpath {

/// Name of the outermost macro whose expansion produced \p Loc, or "".
llvm::StringRef outermostMacroName(clang::SourceLocation Loc,
                                   const clang::SourceManager &SM,
                                   const clang::LangOptions &LangOpts);

/// Calls \p Visit with the name of each macro whose arguments or body hold
/// \p Loc, innermost first, until it returns true; returns whether it did.
bool anyEnclosingMacro(clang::SourceLocation Loc, const clang::SourceManager &SM,
                       const clang::LangOptions &LangOpts,
                       llvm::function_ref<bool(llvm::StringRef)> Visit);

/// True when \p Loc lies inside the arguments or body of a macro in \p Names.
bool isInsideMacroNamed(clang::SourceLocation Loc, const llvm::StringSet<> &Names,
                        const clang::SourceManager &SM,
                        const clang::LangOptions &LangOpts);

/// A function that only reports: named by the rule set, or printf-like (a
/// format attribute) without writing into a caller's buffer.
bool isReportingFunction(const clang::FunctionDecl *FD, const RuleIndex &Rules);

/// A call that only reports: to a reporting function, or to a variadic
/// function whose name says log/warn/err/print (nameSaysReporting) with a
/// string literal as its last fixed argument (the format).
bool isReportingCall(const clang::CallExpr *Call, const RuleIndex &Rules);

/// The identifier names a logger: one of its words (split at '_' and at
/// lower-to-upper case changes) starts with log, warn, err or print, or
/// holds printf/printk.
bool nameSaysReporting(llvm::StringRef Name);

/// The identifier names something that aborts or fails: one of its words is
/// abort, panic, bug, fatal, die, trap, oops, halt or unreachable, or starts
/// with fail or assert ("BUG_ON", "assert_failed").
bool nameSaysAborting(llvm::StringRef Name);

/// A statement whose only effect is to report: a call to a reporting function
/// or an expansion of a reporting macro.
bool isReportingStatement(const clang::Stmt *S, const RuleIndex &Rules,
                          const clang::ASTContext &Ctx);

/// A variable or field that holds an error: `ret`, `err`, `rc`, `retval`,
/// `errcode`, `pctx.errcode`, `*_err`, `*error`.
bool namesAnError(const clang::Expr *E);
/// Whether \p Cond reads a parameter that holds an error (namesAnError).
bool testsAnErrorParameter(const clang::Expr *Cond);

/// Whether \p Body reads its function's variadic arguments (va_start,
/// va_arg): the mark of a function that formats a message.
bool readsVariadicArguments(const clang::Stmt *Body);

/// A statement after which control never continues: a call to a noreturn
/// function (attribute or rule set). `return` is handled by the callers.
bool isNoreturnStatement(const clang::Stmt *S, const RuleIndex &Rules,
                         const clang::ASTContext &Ctx);

} // namespace hotpath

#endif // HOTPATH_TIDY_ANALYSIS_REPORTING_H
