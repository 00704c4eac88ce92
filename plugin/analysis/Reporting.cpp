//===--- Reporting.cpp - calls that only report, statements that leave ----===//

#include "analysis/Reporting.h"
#include "source/Tokens.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/CharInfo.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;

namespace hotpath {

StringRef outermostMacroName(SourceLocation Loc, const SourceManager &SM,
                             const LangOptions &LangOpts) {
  StringRef Name;
  while (Loc.isMacroID()) {
    Name = immediateMacroName(Loc, SM, LangOpts);
    Loc = SM.getImmediateMacroCallerLoc(Loc);
  }
  return Name;
}

bool anyEnclosingMacro(SourceLocation Loc, const SourceManager &SM, const LangOptions &LangOpts,
                       llvm::function_ref<bool(StringRef)> Visit) {
  while (Loc.isMacroID()) {
    // For a location in a macro argument, the expansion that owns it.
    SourceLocation Expansion =
        SM.isMacroArgExpansion(Loc) ? SM.getImmediateExpansionRange(Loc).getBegin()
                                    : Loc;
    if (Visit(immediateMacroName(Expansion, SM, LangOpts)))
      return true;
    Loc = SM.getImmediateMacroCallerLoc(Loc);
  }
  return false;
}

bool isInsideMacroNamed(SourceLocation Loc, const llvm::StringSet<> &Names,
                        const SourceManager &SM, const LangOptions &LangOpts) {
  return anyEnclosingMacro(Loc, SM, LangOpts,
                           [&](StringRef Name) { return Names.contains(Name); });
}

static const Expr *stripStatementExpr(const Stmt *S) {
  const auto *E = dyn_cast_or_null<Expr>(S);
  if (!E)
    return nullptr;
  E = E->IgnoreParenImpCasts();
  if (const auto *Cast = dyn_cast<CStyleCastExpr>(E)) // (void)printf(...)
    if (Cast->getType()->isVoidType())
      E = Cast->getSubExpr()->IgnoreParenImpCasts();
  return E;
}

static const FunctionDecl *directCallee(const Expr *E) {
  // Reporting macros often expand to ({ ... }) or do { } while (0); the
  // callers handle those through the macro name instead.
  if (const auto *Call = dyn_cast_or_null<CallExpr>(E))
    return Call->getDirectCallee();
  return nullptr;
}

/// The words of an identifier, lower case: "btrfs_warn" -> btrfs, warn;
/// "serverLog" -> server, log.
static llvm::SmallVector<std::string, 4> identifierWords(StringRef Name) {
  llvm::SmallVector<std::string, 4> Words;
  std::string Word;
  for (size_t I = 0; I <= Name.size(); ++I) {
    char C = I < Name.size() ? Name[I] : '_';
    bool Boundary =
        C == '_' || (clang::isUppercase(C) && I > 0 && clang::isLowercase(Name[I - 1]));
    if (Boundary && !Word.empty()) {
      Words.push_back(Word);
      Word.clear();
    }
    if (C != '_')
      Word += llvm::toLower(C);
  }
  return Words;
}

bool nameSaysReporting(StringRef Name) {
  return llvm::any_of(identifierWords(Name), [](StringRef W) {
    return W.starts_with("log") || W.starts_with("warn") || W.starts_with("err") ||
           W.starts_with("print") || W.contains("printf") || W.contains("printk");
  });
}

bool nameSaysAborting(StringRef Name) {
  return llvm::any_of(identifierWords(Name), [](StringRef W) {
    return W == "abort" || W == "panic" || W == "bug" || W == "fatal" || W == "die" ||
           W == "trap" || W == "oops" || W == "halt" || W == "unreachable" ||
           W.starts_with("fail") || W.starts_with("assert");
  });
}

bool isReportingFunction(const FunctionDecl *FD, const RuleIndex &Rules) {
  const IdentifierInfo *II = FD->getIdentifier();
  if (II && Rules.ReportingFunctions.contains(II->getName()))
    return true;
  // A printf-style function that does not write into a caller's buffer is a
  // project's own logger (btrfs-progs' error(), redis' serverLog(), ...).
  for (const auto *Format : FD->specific_attrs<FormatAttr>())
    if (Format->getType()->getName() == "printf" ||
        Format->getType()->getName() == "gnu_printf")
      return !II || !II->getName().contains("sprintf");
  return false;
}

bool isReportingCall(const CallExpr *Call, const RuleIndex &Rules) {
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD)
    return false;
  if (isReportingFunction(FD, Rules))
    return true;
  // A project logger without a format attribute: variadic, named like one,
  // and handed a literal format string as its last fixed argument
  // (my_log(LOG_ERR, "bad %d", v)).
  unsigned Fixed = FD->getNumParams();
  const IdentifierInfo *II = FD->getIdentifier();
  if (!FD->isVariadic() || Fixed == 0 || Call->getNumArgs() < Fixed || !II ||
      !nameSaysReporting(II->getName()))
    return false;
  return isa<StringLiteral>(Call->getArg(Fixed - 1)->IgnoreParenImpCasts());
}

/// A call that does nothing: to a function whose visible body is empty,
/// with arguments that are plain names or constants (rcu_read_lock() around
/// a kernel-style logger in user space).
static bool isEmptyCall(const Stmt *S) {
  const auto *Call = dyn_cast_or_null<CallExpr>(S);
  const FunctionDecl *Def = nullptr;
  if (!Call || !Call->getDirectCallee() || !Call->getDirectCallee()->hasBody(Def))
    return false;
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Def->getBody());
  if (!Body || !Body->body_empty())
    return false;
  return llvm::all_of(Call->arguments(), [](const Expr *A) {
    A = A->IgnoreParenImpCasts();
    return isa<DeclRefExpr, IntegerLiteral, StringLiteral, CharacterLiteral>(A);
  });
}

/// Statements that only report, or do nothing: what project logging macros
/// expand to ("do { trace; ; __btrfs_error(...); do { } while (0); } while (0)").
/// Sets \p Reported when a report is among them.
static bool onlyReportsOrNothing(const Stmt *S, const RuleIndex &Rules,
                                 const ASTContext &Ctx, bool &Reported) {
  if (!S || isa<NullStmt>(S))
    return true;
  if (const auto *Do = dyn_cast<DoStmt>(S)) {
    std::optional<llvm::APSInt> Cond = Do->getCond()->getIntegerConstantExpr(Ctx);
    return Cond && Cond->isZero() && onlyReportsOrNothing(Do->getBody(), Rules, Ctx, Reported);
  }
  if (const auto *CS = dyn_cast<CompoundStmt>(S))
    return llvm::all_of(CS->body(), [&](const Stmt *Child) {
      return onlyReportsOrNothing(Child, Rules, Ctx, Reported);
    });
  if (isEmptyCall(stripStatementExpr(S)))
    return true;
  if (!isReportingStatement(S, Rules, Ctx))
    return false;
  Reported = true;
  return true;
}

bool isReportingStatement(const Stmt *S, const RuleIndex &Rules,
                          const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  // Reporting macros, and reporting functions that a header turned into
  // macros (glibc's _FORTIFY_SOURCE makes fprintf a macro for __fprintf_chk).
  // One walk of the macros around it for both lists: each step reads a
  // macro's name from the source.
  if (S->getBeginLoc().isMacroID() &&
      anyEnclosingMacro(S->getBeginLoc(), SM, Ctx.getLangOpts(),
                        [&](StringRef Name) {
                          return Rules.ReportingMacros.contains(Name) ||
                                 Rules.ReportingFunctions.contains(Name);
                        }) &&
      // The whole statement must come from the macro, not just its start.
      outermostMacroName(S->getBeginLoc(), SM, Ctx.getLangOpts()) ==
          outermostMacroName(S->getEndLoc(), SM, Ctx.getLangOpts()))
    return true;
  if (const auto *Call = dyn_cast_or_null<CallExpr>(stripStatementExpr(S)))
    return isReportingCall(Call, Rules);
  if (isa<DoStmt, CompoundStmt>(S)) {
    bool Reported = false;
    return onlyReportsOrNothing(S, Rules, Ctx, Reported) && Reported;
  }
  return false;
}

bool isNoreturnStatement(const Stmt *S, const RuleIndex &Rules,
                         const ASTContext &Ctx) {
  const FunctionDecl *Callee = directCallee(stripStatementExpr(S));
  if (!Callee)
    return false;
  if (Callee->isNoReturn())
    return true;
  if (const IdentifierInfo *II = Callee->getIdentifier())
    return Rules.NoreturnFunctions.contains(II->getName());
  return false;
}

bool readsVariadicArguments(const Stmt *Body) {
  if (!Body)
    return false;
  if (isa<VAArgExpr>(Body))
    return true;
  if (const auto *Call = dyn_cast<CallExpr>(Body))
    switch (Call->getBuiltinCallee()) {
    case Builtin::BI__builtin_va_start:
    case Builtin::BI__va_start:
      return true;
    default:
      break;
    }
  return llvm::any_of(Body->children(),
                      [](const Stmt *C) { return C && readsVariadicArguments(C); });
}

bool namesAnError(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  const NamedDecl *D = nullptr;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    D = Ref->getDecl();
  else if (const auto *Member = dyn_cast<MemberExpr>(E))
    D = Member->getMemberDecl();
  if (!D || !D->getIdentifier() || !isa<VarDecl, FieldDecl, ParmVarDecl>(D))
    return false;
  std::string Name = D->getName().lower();
  StringRef N(Name);
  return N == "ret" || N == "rc" || N == "retval" || N == "ret_val" || N == "err" ||
         N.ends_with("_err") || N.ends_with("error") || N.ends_with("errcode");
}

bool testsAnErrorParameter(const Expr *Cond) {
  if (!Cond)
    return false;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(Cond->IgnoreParenImpCasts()))
    if (isa<ParmVarDecl>(Ref->getDecl()) && namesAnError(Ref))
      return true;
  return llvm::any_of(Cond->children(), [](const Stmt *C) {
    const auto *E = dyn_cast_or_null<Expr>(C);
    return E && testsAnErrorParameter(E);
  });
}

} // namespace hotpath
