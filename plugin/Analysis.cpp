//===--- Analysis.cpp - analysis shared by the hotpath checks -------------===//

#include "Analysis.h"
#include "CheckShape.h"
#include "Compat.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclFriend.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/StmtVisitor.h"
#include "clang/Basic/Builtins.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;

namespace hotpath {

//===----------------------------------------------------------------------===//
// Reporting and leaving.
//===----------------------------------------------------------------------===//

StringRef outermostMacroName(SourceLocation Loc, const SourceManager &SM,
                             const LangOptions &LangOpts) {
  StringRef Name;
  while (Loc.isMacroID()) {
    Name = Lexer::getImmediateMacroNameForDiagnostics(Loc, SM, LangOpts);
    Loc = SM.getImmediateMacroCallerLoc(Loc);
  }
  return Name;
}

bool isInsideMacroNamed(SourceLocation Loc, const llvm::StringSet<> &Names,
                        const SourceManager &SM, const LangOptions &LangOpts) {
  while (Loc.isMacroID()) {
    // For a location in a macro argument, the expansion that owns it.
    SourceLocation Expansion =
        SM.isMacroArgExpansion(Loc) ? SM.getImmediateExpansionRange(Loc).getBegin()
                                    : Loc;
    StringRef Name = Lexer::getImmediateMacroNameForDiagnostics(Expansion, SM, LangOpts);
    if (Names.contains(Name))
      return true;
    Loc = SM.getImmediateMacroCallerLoc(Loc);
  }
  return false;
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
  if (S->getBeginLoc().isMacroID() &&
      (isInsideMacroNamed(S->getBeginLoc(), Rules.ReportingMacros, SM, Ctx.getLangOpts()) ||
       isInsideMacroNamed(S->getBeginLoc(), Rules.ReportingFunctions, SM, Ctx.getLangOpts())) &&
      // The whole statement must come from the macro, not just its start.
      outermostMacroName(S->getBeginLoc(), SM, Ctx.getLangOpts()) ==
          outermostMacroName(S->getEndLoc(), SM, Ctx.getLangOpts()))
    return true;
  if (const FunctionDecl *Callee = directCallee(stripStatementExpr(S)))
    return isReportingFunction(Callee, Rules);
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

//===----------------------------------------------------------------------===//
// Side effects and speculation.
//===----------------------------------------------------------------------===//

bool isKnownPureFunction(const FunctionDecl *FD, const RuleIndex &Rules,
                         const ASTContext &Ctx) {
  if (!FD)
    return false;
  if (FD->hasAttr<ConstAttr>() || FD->hasAttr<PureAttr>() || FD->isConstexpr())
    return true;
  if (unsigned ID = FD->getBuiltinID()) {
    if (Ctx.BuiltinInfo.isConst(ID) || Ctx.BuiltinInfo.isPure(ID))
      return true;
    if (ID == Builtin::BI__builtin_expect || ID == Builtin::BI__builtin_constant_p)
      return true;
  }
  if (const IdentifierInfo *II = FD->getIdentifier())
    return Rules.PureFunctions.contains(II->getName());
  return false;
}

namespace {
std::string quoted(const NamedDecl *D) {
  return "'" + D->getQualifiedNameAsString() + "'";
}

/// Lvalue-to-rvalue reads of volatile or atomic objects are the reads whose
/// value can change between the fast path and the slow path.
std::optional<Impurity> volatileOrAtomicRead(const Expr *E) {
  QualType T = E->getType();
  if (!E->isGLValue())
    return std::nullopt;
  if (T.isVolatileQualified())
    return Impurity{E, "it reads volatile storage"};
  if (T->isAtomicType())
    return Impurity{E, "it reads atomic storage"};
  return std::nullopt;
}

class ImpurityFinder {
public:
  ImpurityFinder(const RuleIndex &Rules, const ASTContext &Ctx)
      : Rules(Rules), Ctx(Ctx) {}

  std::optional<Impurity> visit(const Stmt *S) {
    if (!S)
      return std::nullopt;
    if (const auto *E = dyn_cast<Expr>(S)) {
      if (std::optional<Impurity> R = visitExpr(E))
        return R;
      // Operands of sizeof, alignof, _Generic's unselected arms: unevaluated.
      if (isa<UnaryExprOrTypeTraitExpr>(E))
        return std::nullopt;
      if (const auto *G = dyn_cast<GenericSelectionExpr>(E))
        return G->isResultDependent() ? std::nullopt : visit(G->getResultExpr());
    }
    for (const Stmt *Child : S->children())
      if (std::optional<Impurity> R = visit(Child))
        return R;
    return std::nullopt;
  }

private:
  std::optional<Impurity> visitExpr(const Expr *E) {
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      if (BO->isAssignmentOp())
        return Impurity{E, "it assigns"};
    } else if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      if (UO->isIncrementDecrementOp())
        return Impurity{E, UO->isIncrementOp() ? "it increments" : "it decrements"};
    } else if (const auto *Call = dyn_cast<CallExpr>(E)) {
      const FunctionDecl *Callee = Call->getDirectCallee();
      if (!Callee)
        return Impurity{E, "it calls through a pointer"};
      if (!isKnownPureFunction(Callee, Rules, Ctx))
        return Impurity{E, "it calls " + quoted(Callee) + ", which is not known to be pure"};
    } else if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
      const CXXConstructorDecl *Ctor = Construct->getConstructor();
      if (!Ctor->isTrivial() && !Ctor->isConstexpr())
        return Impurity{E, "it calls constructor " + quoted(Ctor) +
                               ", which is not known to be pure"};
    } else if (isa<StmtExpr, CXXNewExpr, CXXDeleteExpr, CXXThrowExpr, VAArgExpr,
                   AtomicExpr>(E)) {
      return Impurity{E, "it has an expression with side effects"};
    } else if (const auto *Cast = dyn_cast<ImplicitCastExpr>(E)) {
      if (Cast->getCastKind() == CK_LValueToRValue ||
          Cast->getCastKind() == CK_AtomicToNonAtomic)
        return volatileOrAtomicRead(Cast->getSubExpr());
    }
    return std::nullopt;
  }

  const RuleIndex &Rules;
  const ASTContext &Ctx;
};
} // namespace

std::optional<Impurity> findImpurity(const Expr *E, const RuleIndex &Rules,
                                     const ASTContext &Ctx) {
  return ImpurityFinder(Rules, Ctx).visit(E);
}

llvm::FoldingSetNodeID exprIdentity(const Expr *E, const ASTContext &Ctx) {
  llvm::FoldingSetNodeID ID;
  E->IgnoreParenImpCasts()->Profile(ID, Ctx, /*Canonical=*/true);
  return ID;
}

static const Expr *dereferencedPointer(const Expr *E) {
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return ME->isArrow() ? ME->getBase() : nullptr;
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return UO->getOpcode() == UO_Deref ? UO->getSubExpr() : nullptr;
  return nullptr;
}

void collectUnconditionalDerefs(const Expr *E, const ASTContext &Ctx,
                                ExprIdentitySet &Out) {
  if (!E)
    return;
  E = E->IgnoreParens();
  if (const Expr *Ptr = dereferencedPointer(E))
    Out.insert(exprIdentity(Ptr, Ctx));
  if (const auto *BO = dyn_cast<BinaryOperator>(E); BO && BO->isLogicalOp()) {
    collectUnconditionalDerefs(BO->getLHS(), Ctx, Out);
    return;
  }
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E)) {
    collectUnconditionalDerefs(CO->getCond(), Ctx, Out);
    return;
  }
  if (isa<UnaryExprOrTypeTraitExpr>(E))
    return;
  for (const Stmt *Child : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(Child))
      collectUnconditionalDerefs(CE, Ctx, Out);
}

std::optional<Impurity>
findSpeculationHazard(const Expr *E, const ASTContext &Ctx,
                      const ExprIdentitySet &SafeDerefs) {
  if (!E)
    return std::nullopt;
  E = E->IgnoreParens();
  if (isa<UnaryExprOrTypeTraitExpr>(E) || E->isIntegerConstantExpr(Ctx))
    return std::nullopt;
  if (const Expr *Ptr = dereferencedPointer(E)) {
    if (!SafeDerefs.count(exprIdentity(Ptr, Ctx)))
      return Impurity{E, "it dereferences a pointer that an earlier condition may guard"};
  } else if (isa<ArraySubscriptExpr>(E)) {
    return Impurity{E, "it indexes memory that an earlier condition may guard"};
  } else if (isa<CallExpr>(E)) {
    const auto *Call = cast<CallExpr>(E);
    unsigned ID = Call->getBuiltinCallee();
    if (ID != Builtin::BI__builtin_expect && ID != Builtin::BI__builtin_constant_p)
      return Impurity{E, "it makes a call that an earlier condition may guard"};
  } else if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    BinaryOperatorKind Op = BO->getOpcode();
    bool ConstantRHS = BO->getRHS()->isIntegerConstantExpr(Ctx);
    if ((Op == BO_Div || Op == BO_Rem) && !ConstantRHS)
      return Impurity{E, "it divides by a value that an earlier condition may guard"};
    if ((Op == BO_Shl || Op == BO_Shr) && !ConstantRHS)
      return Impurity{E, "it shifts by an amount that an earlier condition may guard"};
    if ((Op == BO_Add || Op == BO_Sub || Op == BO_Mul || Op == BO_Shl) &&
        BO->getType()->isSignedIntegerType())
      return Impurity{E, "its signed arithmetic may overflow where an earlier "
                         "condition would have stopped it"};
  } else if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() == UO_Minus && UO->getType()->isSignedIntegerType())
      return Impurity{E, "its signed negation may overflow where an earlier "
                         "condition would have stopped it"};
  }
  for (const Stmt *Child : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(Child))
      if (std::optional<Impurity> R = findSpeculationHazard(CE, Ctx, SafeDerefs))
        return R;
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Hotness.
//===----------------------------------------------------------------------===//

std::string CallSiteStats::describe() const {
  llvm::SmallVector<std::string, 8> Parts;
  if (ProfilePercent)
    Parts.push_back(llvm::formatv("{0:f1}% of {1}", *ProfilePercent, ProfileDescription));
  if (InlineSites)
    Parts.push_back(llvm::formatv("{0} of {1} call site{2} not inlined", NotInlined,
                                  *InlineSites, *InlineSites == 1 ? "" : "s"));
  if (Calls)
    Parts.push_back(llvm::formatv("{0} call site{1}", Calls, Calls == 1 ? "" : "s"));
  if (InLoops)
    Parts.push_back(llvm::formatv("{0} in loops", InLoops));
  if (FromMacroAccessors)
    Parts.push_back(llvm::formatv("{0} from macro-generated accessors", FromMacroAccessors));
  if (InAssertMacros)
    Parts.push_back(llvm::formatv("{0} inside assert-like macros", InAssertMacros));
  for (const std::string &M : CallingMacros)
    Parts.push_back("called by accessor macro '" + M + "'");
  if (NamedHot)
    Parts.push_back("named hot by the rule set");
  return llvm::join(Parts, ", ");
}

namespace {
/// Walks the written code of bodies and records calls and function
/// references. A plain recursive walk of children(), several times cheaper
/// than a RecursiveASTVisitor, which also walks types and declarations.
class BodyWalker {
public:
  BodyWalker(CallSiteIndex &Index, const ASTContext &Ctx, const RuleIndex &Rules)
      : Index(Index), SM(Ctx.getSourceManager()), LangOpts(Ctx.getLangOpts()),
        Rules(Rules) {}

  void walkBody(const Stmt *Body, const FunctionDecl *Enclosing) {
    if (Body)
      walk(Body, Enclosing, 0, 0);
    // Generated code nests expressions thousands deep: what was too deep to
    // recurse into is walked from here, in the order it was met.
    while (!Deferred.empty()) {
      std::vector<Pending> Work;
      Work.swap(Deferred);
      for (const Pending &P : Work)
        walk(P.S, P.Enclosing, P.LoopDepth, 0);
    }
  }

private:
  struct Pending {
    const Stmt *S;
    const FunctionDecl *Enclosing;
    unsigned LoopDepth;
  };
  static constexpr unsigned MaxRecursion = 256;

  void walk(const Stmt *S, const FunctionDecl *Enclosing, unsigned Loops, unsigned Depth) {
    if (Depth > MaxRecursion) {
      Deferred.push_back({S, Enclosing, Loops});
      return;
    }
    ++Depth;
    // The commonest nodes (casts, parentheses, operators, literals) are
    // taken without children(), and single-child ones without recursion.
    while (true) {
      switch (S->getStmtClass()) {
      case Stmt::ImplicitCastExprClass:
      case Stmt::CStyleCastExprClass:
        S = cast<CastExpr>(S)->getSubExpr();
        continue;
      case Stmt::ParenExprClass:
        S = cast<ParenExpr>(S)->getSubExpr();
        continue;
      case Stmt::UnaryOperatorClass:
        S = cast<UnaryOperator>(S)->getSubExpr();
        continue;
      case Stmt::MemberExprClass:
        S = cast<MemberExpr>(S)->getBase();
        continue;
      case Stmt::PseudoObjectExprClass:
        S = cast<PseudoObjectExpr>(S)->getSyntacticForm();
        continue;
      case Stmt::BinaryOperatorClass:
      case Stmt::CompoundAssignOperatorClass:
        walk(cast<BinaryOperator>(S)->getLHS(), Enclosing, Loops, Depth);
        S = cast<BinaryOperator>(S)->getRHS();
        continue;
      case Stmt::IntegerLiteralClass:
      case Stmt::CharacterLiteralClass:
      case Stmt::FloatingLiteralClass:
      case Stmt::StringLiteralClass:
        return;
      case Stmt::DeclRefExprClass:
        if (const auto *FD = dyn_cast<FunctionDecl>(cast<DeclRefExpr>(S)->getDecl()))
          Index.recordAddressTaken(FD);
        return;
      case Stmt::ForStmtClass:
      case Stmt::WhileStmtClass:
      case Stmt::DoStmtClass:
        ++Loops;
        break;
      case Stmt::CXXForRangeStmtClass: {
        // The begin/end/!= calls clang adds are not call sites anyone wrote.
        const auto *Range = cast<CXXForRangeStmt>(S);
        for (const Stmt *C : {Range->getInit(), static_cast<const Stmt *>(Range->getLoopVarStmt()),
                              static_cast<const Stmt *>(Range->getRangeInit()),
                              Range->getBody()})
          if (C)
            walk(C, Enclosing, Loops + 1, Depth);
        return;
      }
      case Stmt::LambdaExprClass: {
        // Calls in a lambda's body belong to its call operator.
        const auto *Lambda = cast<LambdaExpr>(S);
        for (const Expr *Init : Lambda->capture_inits())
          if (Init)
            walk(Init, Enclosing, Loops, Depth);
        walk(Lambda->getBody(), Lambda->getCallOperator(), Loops, Depth);
        return;
      }
      case Stmt::InitListExprClass:
        // The braces as written, not the semantic form clang fills in.
        if (const InitListExpr *Written = cast<InitListExpr>(S)->getSyntacticForm())
          S = Written;
        break;
      default:
        if (const auto *Call = dyn_cast<CallExpr>(S)) {
          walkCall(Call, Enclosing, Loops, Depth);
          return;
        }
        break;
      }
      break; // the children of S, below
    }
    for (const Stmt *C : S->children())
      if (C)
        walk(C, Enclosing, Loops, Depth);
  }

  void walkCall(const CallExpr *Call, const FunctionDecl *Enclosing, unsigned Loops,
                unsigned Depth) {
    const Expr *Callee = Call->getCallee();
    const FunctionDecl *Direct = Call->getDirectCallee();
    if (Direct) {
      bool InAccessor = false, InAssert = false;
      SourceLocation Loc = Call->getBeginLoc();
      if (Loc.isMacroID()) {
        InAccessor = Enclosing && Enclosing->getLocation().isMacroID();
        InAssert = !Rules.AssertMacros.empty() &&
                   isInsideMacroNamed(Loc, Rules.AssertMacros, SM, LangOpts);
      }
      Index.recordCall(Call, Direct, Enclosing, Loops > 0, InAccessor, InAssert);
    }
    // The callee's own name is a call, not a use of its address.
    bool NamedCallee = Direct && Callee && isa<DeclRefExpr>(Callee->IgnoreParenImpCasts());
    for (const Stmt *C : Call->children())
      if (C && !(NamedCallee && C == Callee))
        walk(C, Enclosing, Loops, Depth);
  }

  CallSiteIndex &Index;
  const SourceManager &SM;
  const LangOptions &LangOpts;
  const RuleIndex &Rules;
  std::vector<Pending> Deferred;
};
} // namespace

void CallSiteIndex::indexBody(const Stmt *Body, const FunctionDecl *Enclosing,
                              const ASTContext &Ctx, const RuleIndex &Rules) {
  BodyWalker(*this, Ctx, Rules).walkBody(Body, Enclosing);
}

void CallSiteIndex::recordCall(const CallExpr *Call, const FunctionDecl *Callee,
                               const FunctionDecl *Enclosing, bool InLoop, bool InAccessor,
                               bool InAssert) {
  CallSiteStats &S = Stats[Callee->getCanonicalDecl()];
  ++S.Calls;
  S.InLoops += InLoop;
  S.FromMacroAccessors += InAccessor;
  S.InAssertMacros += InAssert;
  if (Enclosing)
    Sites.push_back({Call, Enclosing});
}

void CallSiteIndex::recordAddressTaken(const FunctionDecl *FD) {
  Stats[FD->getCanonicalDecl()].AddressTaken = true;
}

namespace {
/// Finds the function definitions and global initialisers outside system
/// headers: the declarations the checks look at and the code the call-site
/// index walks. One walk of the declaration contexts, in source order, with
/// template instantiations after their pattern, as a matcher pass sees them.
class DefinitionCollector {
public:
  DefinitionCollector(const ASTContext &Ctx, TUDefinitions &Out)
      : SM(Ctx.getSourceManager()), CPlusPlus(Ctx.getLangOpts().CPlusPlus), Out(Out) {}

  void walk(const DeclContext *DC) {
    for (const Decl *D : DC->decls())
      visit(D);
  }

private:
  bool inSystemHeader(const Decl *D) const {
    SourceLocation Loc = SM.getExpansionLoc(D->getBeginLoc());
    return Loc.isValid() && SM.isInSystemHeader(Loc);
  }

  void visit(const Decl *D) {
    if (const auto *FD = dyn_cast<FunctionDecl>(D)) {
      if (!FD->doesThisDeclarationHaveABody() || inSystemHeader(FD) ||
          !Seen.insert(FD).second)
        return;
      Out.Functions.push_back(FD);
      if (CPlusPlus) // local classes have member functions of their own
        for (const Decl *Local : FD->decls())
          if (isa<CXXRecordDecl>(Local))
            visit(Local);
      return;
    }
    if (const auto *VD = dyn_cast<VarDecl>(D)) {
      if (VD->hasGlobalStorage() && !VD->isStaticLocal() && VD->getInit() &&
          !inSystemHeader(VD))
        Out.GlobalInits.push_back(VD);
      return;
    }
    if (!CPlusPlus) {
      if (const auto *Linkage = dyn_cast<LinkageSpecDecl>(D))
        walk(Linkage);
      return;
    }
    if (isa<NamespaceDecl, LinkageSpecDecl, ExportDecl>(D)) {
      if (!inSystemHeader(D))
        walk(cast<DeclContext>(D));
      return;
    }
    if (const auto *Record = dyn_cast<CXXRecordDecl>(D)) {
      // Lambdas' call operators are walked as part of the enclosing body.
      if (!Record->isLambda() && Record->isThisDeclarationADefinition() &&
          !inSystemHeader(Record))
        walk(Record);
      return;
    }
    if (const auto *Friend = dyn_cast<FriendDecl>(D)) {
      if (const NamedDecl *Befriended = Friend->getFriendDecl())
        visit(Befriended);
      return;
    }
    if (const auto *Template = dyn_cast<FunctionTemplateDecl>(D))
      return visitTemplate(Template);
    if (const auto *Template = dyn_cast<ClassTemplateDecl>(D))
      return visitTemplate(Template);
    if (const auto *Template = dyn_cast<VarTemplateDecl>(D))
      return visitTemplate(Template);
  }

  static TemplateSpecializationKind kindOf(const FunctionDecl *Spec) {
    return Spec->getTemplateSpecializationKind();
  }
  template <typename SpecDecl> static TemplateSpecializationKind kindOf(const SpecDecl *Spec) {
    return Spec->getSpecializationKind();
  }

  /// The pattern, then, from the first declaration only, the instantiations
  /// it produced. Explicit specializations are declarations of their own,
  /// met where they are written.
  template <typename TemplateDecl> void visitTemplate(const TemplateDecl *Template) {
    visit(Template->getTemplatedDecl());
    if (Template != Template->getCanonicalDecl())
      return;
    for (const auto *Spec : Template->specializations())
      if (kindOf(Spec) != TSK_ExplicitSpecialization)
        for (const Decl *Redecl : Spec->redecls())
          visit(Redecl);
  }

  const SourceManager &SM;
  bool CPlusPlus;
  TUDefinitions &Out;
  llvm::DenseSet<const FunctionDecl *> Seen;
};
} // namespace

TUDefinitions collectDefinitions(const ASTContext &Ctx) {
  TUDefinitions Out;
  DefinitionCollector(Ctx, Out).walk(Ctx.getTranslationUnitDecl());
  return Out;
}

void CallSiteIndex::indexDefinitions(const TUDefinitions &Defs, const ASTContext &Ctx,
                                     const RuleIndex &Rules) {
  for (const FunctionDecl *FD : Defs.Functions)
    indexBody(FD->getBody(), FD, Ctx, Rules);
  for (const VarDecl *VD : Defs.GlobalInits)
    indexBody(VD->getInit(), nullptr, Ctx, Rules);
}

void CallSiteIndex::recordMacroDefinition(const IdentifierInfo *Macro,
                                          const MacroInfo &Info) {
  // "name (" inside the body: the macro calls name.
  ArrayRef<Token> Tokens = Info.tokens();
  for (size_t I = 0; I + 1 < Tokens.size(); ++I)
    if (Tokens[I].is(tok::identifier) && Tokens[I + 1].is(tok::l_paren)) {
      auto &Macros = MacrosCalling[Tokens[I].getIdentifierInfo()->getName()];
      if (!llvm::is_contained(Macros, Macro))
        Macros.push_back(Macro);
    }
}

void CallSiteIndex::recordMacroExpansion(const IdentifierInfo *Macro) {
  ExpandedMacros.insert(Macro);
}

CallSiteStats CallSiteIndex::statsFor(const FunctionDecl *FD,
                                      const RuleIndex &Rules) const {
  CallSiteStats S = Stats.lookup(FD->getCanonicalDecl());
  if (const IdentifierInfo *II = FD->getIdentifier()) {
    S.NamedHot = Rules.HotFunctions.contains(II->getName());
    // Accessor generators not expanded in this TU: their calls are elsewhere.
    if (auto It = MacrosCalling.find(II->getName()); It != MacrosCalling.end())
      for (const IdentifierInfo *M : It->second)
        if (!ExpandedMacros.contains(M))
          S.CallingMacros.push_back(M->getName().str());
  }
  return S;
}

void CallSiteIndex::clear() {
  Stats.clear();
  Sites.clear();
  MacrosCalling.clear();
  ExpandedMacros.clear();
}

namespace {
class PreprocessorRecorder : public compat::IncludeCallbacks {
public:
  PreprocessorRecorder(CallSiteIndex &Index, IncludeGraph &Includes,
                       const SourceManager &SM)
      : Index(Index), Includes(Includes), SM(SM) {}
  void inclusion(SourceLocation HashLoc, OptionalFileEntryRef File,
                 SrcMgr::CharacteristicKind) override {
    Includes.recordInclude(SM.getFileID(HashLoc), File, SM);
  }
  void MacroDefined(const Token &Name, const MacroDirective *MD) override {
    if (const MacroInfo *MI = MD->getMacroInfo(); MI && MI->isFunctionLike())
      Index.recordMacroDefinition(Name.getIdentifierInfo(), *MI);
  }
  void MacroExpands(const Token &Name, const MacroDefinition &, SourceRange,
                    const MacroArgs *) override {
    Index.recordMacroExpansion(Name.getIdentifierInfo());
  }

private:
  CallSiteIndex &Index;
  IncludeGraph &Includes;
  const SourceManager &SM;
};
} // namespace

std::unique_ptr<PPCallbacks> makePreprocessorRecorder(CallSiteIndex &Index,
                                                      IncludeGraph &Includes,
                                                      const SourceManager &SM) {
  return std::make_unique<PreprocessorRecorder>(Index, Includes, SM);
}

void IncludeGraph::recordInclude(FileID From, OptionalFileEntryRef To,
                                 const SourceManager &SM) {
  OptionalFileEntryRef FromEntry = SM.getFileEntryRefForID(From);
  if (FromEntry && To)
    Edges[&FromEntry->getFileEntry()].push_back(&To->getFileEntry());
}

bool IncludeGraph::reaches(const FileEntry *Header, const FileEntry *Target) const {
  llvm::SmallPtrSet<const FileEntry *, 32> Seen{Header};
  llvm::SmallVector<const FileEntry *, 32> Work{Header};
  while (!Work.empty()) {
    const FileEntry *F = Work.pop_back_val();
    if (F == Target)
      return true;
    auto It = Edges.find(F);
    if (It == Edges.end())
      continue;
    for (const FileEntry *Next : It->second)
      if (Seen.insert(Next).second)
        Work.push_back(Next);
  }
  return false;
}

//===----------------------------------------------------------------------===//
// Visibility and spelling.
//===----------------------------------------------------------------------===//

bool isVisibleFrom(SourceLocation DeclLoc, SourceLocation Point,
                   const SourceManager &SM, const IncludeGraph &Includes) {
  if (DeclLoc.isInvalid())
    return true; // Built in.
  DeclLoc = SM.getExpansionLoc(DeclLoc);
  Point = SM.getExpansionLoc(Point);
  FileID Target = SM.getFileID(Point);
  FileID F = SM.getFileID(DeclLoc);
  SourceLocation Loc = DeclLoc;
  // Predefines and the command line are seen by every TU alike.
  if (SM.isWrittenInBuiltinFile(DeclLoc) || SM.isWrittenInCommandLineFile(DeclLoc))
    return true;
  if (F == Target)
    return SM.isBeforeInTranslationUnit(Loc, Point);
  OptionalFileEntryRef From = SM.getFileEntryRefForID(Target);
  OptionalFileEntryRef To = SM.getFileEntryRefForID(F);
  return From && To && Includes.reaches(&From->getFileEntry(), &To->getFileEntry());
}

namespace {
/// Collects the declarations an expression names that are not local to the
/// function it is in.
void collectNamedDecls(const Stmt *S, llvm::SmallVectorImpl<const Decl *> &Out) {
  if (!S)
    return;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(S)) {
    const ValueDecl *D = Ref->getDecl();
    bool Local = isa<ParmVarDecl>(D) ||
                 (isa<VarDecl>(D) && cast<VarDecl>(D)->isLocalVarDecl());
    if (!Local)
      Out.push_back(D);
  } else if (const auto *ME = dyn_cast<MemberExpr>(S)) {
    if (const auto *Field = dyn_cast<FieldDecl>(ME->getMemberDecl()))
      Out.push_back(Field); // Its location is inside the record's definition.
  }
  for (const Stmt *Child : S->children())
    collectNamedDecls(Child, Out);
}

void collectTypeDecls(QualType T, llvm::SmallVectorImpl<const Decl *> &Out) {
  while (!T.isNull()) {
    if (const auto *TT = T->getAs<TypedefType>()) {
      Out.push_back(TT->getDecl());
      return;
    }
    if (const TagDecl *Tag = T->getAsTagDecl()) {
      Out.push_back(Tag);
      return;
    }
    if (T->isPointerType() || T->isReferenceType())
      T = T->getPointeeType();
    else if (T->isArrayType())
      T = T->castAsArrayTypeUnsafe()->getElementType();
    else
      return;
  }
}
} // namespace

std::optional<std::string>
findInvisibleName(ArrayRef<const Stmt *> Code, ArrayRef<QualType> Types,
                  SourceLocation Point, const ASTContext &Ctx, const Preprocessor &PP,
                  const IncludeGraph &Includes) {
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::SmallVector<const Decl *, 16> Decls;
  for (const Stmt *S : Code)
    collectNamedDecls(S, Decls);
  for (QualType T : Types)
    collectTypeDecls(T, Decls);
  for (const Stmt *S : Code)
    if (const auto *DS = dyn_cast_or_null<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D))
          collectTypeDecls(VD->getType(), Decls);
  for (const Decl *D : Decls)
    if (!isVisibleFrom(D->getLocation(), Point, SM, Includes)) {
      if (const auto *Field = dyn_cast<FieldDecl>(D))
        return "the definition of '" +
               compat::recordType(Ctx, Field->getParent()).getAsString() + "'";
      if (const auto *ND = dyn_cast<NamedDecl>(D))
        return ND->getQualifiedNameAsString();
      return std::string("a declaration");
    }

  // Macros written in the code: raw-lex its text and look each identifier up.
  for (const Stmt *S : Code) {
    CharSourceRange Range = Lexer::makeFileCharRange(
        CharSourceRange::getTokenRange(S->getSourceRange()), SM, Ctx.getLangOpts());
    if (Range.isInvalid())
      return std::string("code written with macros");
    // The raw lexer needs a NUL-terminated buffer that ends where the code does.
    std::string Text = Lexer::getSourceText(Range, SM, Ctx.getLangOpts()).str();
    Lexer Raw(Range.getBegin(), Ctx.getLangOpts(), Text.data(), Text.data(),
              Text.data() + Text.size());
    Token Tok;
    while (!Raw.LexFromRawLexer(Tok) || Tok.isNot(tok::eof)) {
      if (Tok.is(tok::eof))
        break;
      if (Tok.isNot(tok::raw_identifier))
        continue;
      IdentifierInfo *II = PP.getIdentifierInfo(Tok.getRawIdentifier());
      if (const MacroInfo *MI = PP.getMacroInfo(II))
        if (!MI->isBuiltinMacro() &&
            !isVisibleFrom(MI->getDefinitionLoc(), Point, SM, Includes))
          return std::string("macro '") + II->getName().str() + "'";
    }
  }
  return std::nullopt;
}

static bool isVisibleMacro(StringRef Name, SourceLocation Point, const Preprocessor &PP,
                           const SourceManager &SM, const IncludeGraph &Includes) {
  IdentifierInfo *II = PP.getIdentifierInfo(Name);
  if (!II)
    return false;
  const MacroInfo *MI = PP.getMacroInfo(II);
  return MI && isVisibleFrom(MI->getDefinitionLoc(), Point, SM, Includes);
}

Spelling spellingAt(SourceLocation Point, const RuleSet &Rules,
                    const LangOptions &LangOpts, const Preprocessor &PP,
                    const SourceManager &SM, const IncludeGraph &Includes) {
  Spelling S;
  S.Unlikely = LangOpts.CPlusPlus20 ? Spelling::UnlikelyKind::CxxAttribute
                                    : Spelling::UnlikelyKind::Builtin;
  for (const std::string &M : Rules.Spellings.UnlikelyMacros)
    if (isVisibleMacro(M, Point, PP, SM, Includes)) {
      S.Unlikely = Spelling::UnlikelyKind::Macro;
      S.UnlikelyMacro = M;
      break;
    }

  bool AllColdMacros = !Rules.Spellings.ColdMacros.empty() &&
                       llvm::all_of(Rules.Spellings.ColdMacros, [&](const std::string &M) {
                         return isVisibleMacro(M, Point, PP, SM, Includes);
                       });
  if (AllColdMacros) {
    for (const std::string &M : Rules.Spellings.ColdMacros)
      S.ColdAttribute += (S.ColdAttribute.empty() ? "" : " ") + M;
  } else if (LangOpts.CPlusPlus11) {
    S.ColdAttribute = "[[gnu::noinline, gnu::cold]]";
    S.ColdIsStandardAttribute = true;
  } else {
    S.ColdAttribute = "__attribute__((noinline, cold))";
  }
  return S;
}

std::string Spelling::ifUnlikely(StringRef Cond) const {
  switch (Unlikely) {
  case UnlikelyKind::Macro:
    return ("if (" + UnlikelyMacro + "(" + Cond + "))").str();
  case UnlikelyKind::CxxAttribute:
    return ("if (" + Cond + ") [[unlikely]]").str();
  case UnlikelyKind::Builtin:
    return ("if (__builtin_expect(" + Cond + ", 0))").str();
  }
  llvm_unreachable("unknown unlikely spelling");
}

std::string indentationAt(SourceLocation Loc, const SourceManager &SM) {
  Loc = SM.getExpansionLoc(Loc);
  std::pair<FileID, unsigned> Pos = SM.getDecomposedLoc(Loc);
  StringRef Buffer = SM.getBufferData(Pos.first);
  size_t LineStart = Buffer.rfind('\n', Pos.second);
  LineStart = LineStart == StringRef::npos ? 0 : LineStart + 1;
  StringRef Line = Buffer.substr(LineStart, Pos.second - LineStart);
  return Line.take_while([](char C) { return C == ' ' || C == '\t'; }).str();
}

std::string fileNameAt(SourceLocation Loc, const SourceManager &SM) {
  return llvm::sys::path::filename(SM.getFilename(SM.getExpansionLoc(Loc))).str();
}

std::string sourceText(SourceRange R, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange Range = Lexer::makeFileCharRange(CharSourceRange::getTokenRange(R),
                                                   SM, Ctx.getLangOpts());
  if (Range.isInvalid())
    return "";
  return Lexer::getSourceText(Range, SM, Ctx.getLangOpts()).str();
}

std::string sourceText(const Stmt *S, const ASTContext &Ctx) {
  return sourceText(S->getSourceRange(), Ctx);
}

//===----------------------------------------------------------------------===//
// Recognising a check function.
//===----------------------------------------------------------------------===//

static std::optional<FailureBranch> recogniseBranch(const IfStmt *If, const RuleIndex &Rules,
                                             const ASTContext &Ctx) {
  if (If->getElse() || If->getInit() || If->getConditionVariable() ||
      If->isConstexpr() || If->isConsteval() || If->getCond()->containsErrors())
    return std::nullopt;
  llvm::SmallVector<const Stmt *, 4> Body;
  if (const auto *CS = dyn_cast<CompoundStmt>(If->getThen()))
    Body.append(CS->body_begin(), CS->body_end());
  else
    Body.push_back(If->getThen());
  if (Body.empty())
    return std::nullopt;
  FailureBranch B{If, If->getCond(), nullptr, 0};
  const Stmt *Last = Body.back();
  if (const auto *Ret = dyn_cast<ReturnStmt>(Last))
    B.Return = Ret;
  else if (!isNoreturnStatement(Last, Rules, Ctx))
    return std::nullopt;
  else if (isReportingStatement(Last, Rules, Ctx))
    ++B.Reports;
  for (const Stmt *S : llvm::ArrayRef(Body).drop_back()) {
    if (!isReportingStatement(S, Rules, Ctx))
      return std::nullopt;
    ++B.Reports;
  }
  return B;
}

static bool isPreambleDecl(const DeclStmt *DS) {
  return llvm::all_of(DS->decls(), [](const Decl *D) {
    const auto *VD = dyn_cast<VarDecl>(D);
    return VD && VD->isLocalVarDecl() && !VD->isStaticLocal() && VD->hasInit() &&
           !VD->getInit()->containsErrors() && !VD->getType()->isReferenceType();
  });
}

std::optional<CheckShape> recogniseShape(const FunctionDecl *FD, const RuleIndex &Rules,
                                         const ASTContext &Ctx) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(FD->getBody());
  if (!Body)
    return std::nullopt;
  CheckShape Shape;
  llvm::SmallVector<const Stmt *, 16> Stmts;
  for (const Stmt *S : Body->body())
    if (!isa<NullStmt>(S))
      Stmts.push_back(S);

  size_t I = 0;
  for (; I < Stmts.size(); ++I) {
    if (const auto *DS = dyn_cast<DeclStmt>(Stmts[I])) {
      if (!isPreambleDecl(DS))
        return std::nullopt;
      Shape.Decls.push_back(DS);
      Shape.DeclPosition.push_back(Shape.Branches.size());
      continue;
    }
    const auto *If = dyn_cast<IfStmt>(Stmts[I]);
    if (!If)
      break;
    std::optional<FailureBranch> B = recogniseBranch(If, Rules, Ctx);
    if (!B)
      return std::nullopt;
    Shape.Reports += B->Reports;
    Shape.Branches.push_back(*B);
  }
  if (Shape.Branches.empty() || Shape.Reports == 0)
    return std::nullopt;

  // The success path: nothing (void), one return, or a little more work
  // followed by a return (reported, but not rewritten).
  llvm::ArrayRef<const Stmt *> Rest = llvm::ArrayRef(Stmts).drop_front(I);
  bool IsVoid = FD->getReturnType()->isVoidType();
  const auto *Ret = Rest.empty() ? nullptr : dyn_cast<ReturnStmt>(Rest.back());
  if (!Ret && !IsVoid)
    return std::nullopt;

  // A branch that reports nothing and returns what success returns is an
  // early success exit ("if (cmd->next) return;"), not a failure: merged into
  // the unlikely condition it would send the common case down the slow path.
  auto SameValue = [&](const Expr *A, const Expr *B) {
    if (!A || !B)
      return !A && !B;
    std::optional<llvm::APSInt> VA = A->getIntegerConstantExpr(Ctx),
                                VB = B->getIntegerConstantExpr(Ctx);
    if (VA && VB)
      return llvm::APSInt::isSameValue(*VA, *VB);
    return exprIdentity(A, Ctx) == exprIdentity(B, Ctx);
  };
  for (const FailureBranch &B : Shape.Branches)
    if (B.Reports == 0 && B.Return &&
        (IsVoid || SameValue(B.Return->getRetValue(), Ret->getRetValue())))
      return std::nullopt;
  if (Rest.empty())
    return Shape;
  if (Ret)
    Shape.Success = Ret;
  llvm::ArrayRef<const Stmt *> Work = Ret ? Rest.drop_back() : Rest;
  if (!Work.empty()) {
    if (Work.size() > 3 || llvm::any_of(Work, [](const Stmt *S) {
          return !isa<Expr, DeclStmt>(S);
        }))
      return std::nullopt; // More than a check: an ordinary function.
    Shape.ExtraSuccessWork = Work.front();
  }
  return Shape;
}

} // namespace hotpath
