//===--- CallSites.cpp - how hot a function is, by its call sites ---------===//

#include "analysis/CallSites.h"
#include "support/Compat.h"
#include "analysis/Reporting.h"
#include "analysis/Visibility.h"
#include "source/Tokens.h"
#include "clang/AST/DeclFriend.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace clang;

namespace hotpath {

namespace {
/// "main.c", "2 other files".
std::string inFiles(const std::vector<std::string> &Files) {
  if (Files.size() == 1)
    return Files.front();
  return llvm::formatv("{0} other files", Files.size());
}

/// "a", "a and b", "a, b and c".
std::string joinAnd(llvm::ArrayRef<std::string> Items) {
  std::string Out;
  for (size_t I = 0; I < Items.size(); ++I)
    Out += (I == 0 ? "" : I + 1 == Items.size() ? " and " : ", ") + Items[I];
  return Out;
}

std::string describeElsewhere(const CallSiteStats::Elsewhere &P) {
  if (!P.Calls)
    return "";
  llvm::SmallVector<std::string, 4> Parts;
  if (P.InLoops == 1)
    Parts.push_back("in a loop in " + P.LoopSites.front());
  else if (P.InLoops && P.InLoops == P.LoopSites.size() && P.InLoops <= 3)
    Parts.push_back("in loops in " + joinAnd(P.LoopSites));
  else if (P.InLoops)
    Parts.push_back(llvm::formatv("in {0} loops", P.InLoops));
  if (P.FromMacroAccessors)
    Parts.push_back(llvm::formatv("from {0} macro-generated accessor{1} in {2}",
                                  P.FromMacroAccessors, P.FromMacroAccessors == 1 ? "" : "s",
                                  inFiles(P.AccessorFiles)));
  if (P.Others)
    Parts.push_back(llvm::formatv("from {0} {1}call site{2} in {3}", P.Others,
                                  Parts.empty() ? "" : "other ", P.Others == 1 ? "" : "s",
                                  inFiles(P.OtherFiles)));
  if (P.InAssertMacros)
    Parts.push_back(llvm::formatv("{0} of them inside assert-like macros", P.InAssertMacros));
  return "called " + joinAnd(Parts);
}
} // namespace

std::string CallSiteStats::describe() const {
  llvm::SmallVector<std::string, 8> Parts;
  if (ProfilePercent)
    Parts.push_back(llvm::formatv("{0:f1}% of {1}", *ProfilePercent, ProfileDescription));
  if (InlineSites)
    Parts.push_back(llvm::formatv("{0} of {1} call site{2} not inlined", NotInlined,
                                  *InlineSites, *InlineSites == 1 ? "" : "s"));
  if (Calls)
    Parts.push_back(llvm::formatv("{0} call site{1}", Calls, Calls == 1 ? "" : "s"));
  if (OncePerRun)
    Parts.push_back(llvm::formatv("{0} run once per program start (main, a command-line "
                                  "loop) and score nothing",
                                  OncePerRun));
  if (InLoops)
    Parts.push_back(llvm::formatv("{0} in loops", InLoops));
  if (FromMacroAccessors)
    Parts.push_back(llvm::formatv("{0} from macro-generated accessors", FromMacroAccessors));
  if (InAssertMacros)
    Parts.push_back(llvm::formatv("{0} inside assert-like macros", InAssertMacros));
  for (const std::string &M : CallingMacros)
    Parts.push_back("called by accessor macro '" + M + "'");
  if (NamedHot)
    Parts.push_back("named hot by " + (NamedHotBy.empty() ? "the rule set" : NamedHotBy));
  std::string Local = llvm::join(Parts, ", ");
  std::string Remote = describeElsewhere(Project);
  if (Remote.empty())
    return Local;
  return Local.empty() ? Remote : Local + "; " + Remote;
}

namespace {
/// True when \p E calls getopt (getopt_long, getopt_long_only) or, with
/// \p ArgcArgv, reads a variable named argc or argv.
bool readsCommandLine(const Stmt *E, bool ArgcArgv) {
  llvm::SmallVector<const Stmt *, 16> Work{E};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *Call = dyn_cast<CallExpr>(S))
      if (const FunctionDecl *F = Call->getDirectCallee(); F && F->getIdentifier())
        if (F->getName().contains("getopt")) // bsdtar_getopt(), cpio_getopt()
          return true;
    if (const auto *Ref = dyn_cast<DeclRefExpr>(S); Ref && ArgcArgv)
      if (const auto *VD = dyn_cast<VarDecl>(Ref->getDecl()); VD && VD->getIdentifier())
        if (VD->getName() == "argc" || VD->getName() == "argv")
          return true;
    if (isa<CompoundStmt, IfStmt, SwitchStmt, ForStmt, WhileStmt, DoStmt>(S))
      continue; // statements: the callers pick the parts to read
    for (const Stmt *C : S->children())
      Work.push_back(C);
  }
  return false;
}

/// The condition and body of a for, while or do loop (null for others).
std::pair<const Expr *, const Stmt *> loopParts(const Stmt *Loop) {
  if (const auto *For = dyn_cast<ForStmt>(Loop))
    return {For->getCond(), For->getBody()};
  if (const auto *While = dyn_cast<WhileStmt>(Loop))
    return {While->getCond(), While->getBody()};
  if (const auto *Do = dyn_cast<DoStmt>(Loop))
    return {Do->getCond(), Do->getBody()};
  return {nullptr, nullptr};
}

/// A loop over the command line: its condition calls getopt (or
/// getopt_long, getopt_long_only) or reads argc or argv, or a statement of
/// its body calls getopt (`while (1) { c = getopt_long(...); if (c < 0)
/// break; switch (c) ... }`). It runs once per argument of one program
/// start, so a call in it is no hotter than one outside: a getopt loop
/// calling an option parser from four cases made btrfs-corrupt-block's
/// parse_key "4 in loops". Only the body's own statements are read, not
/// what they nest, so this costs a few nodes a loop.
bool isArgumentLoop(const Stmt *Loop) {
  auto [Cond, Body] = loopParts(Loop);
  if (Cond && readsCommandLine(Cond, /*ArgcArgv=*/true))
    return true;
  // getopt in the body comes with `while (1)` or `for (;;)`: other loops'
  // bodies are not read (half this test's cost on sqlite3.c).
  const auto *CS = dyn_cast_or_null<CompoundStmt>(Body);
  if (!CS || (Cond && !isa<IntegerLiteral>(Cond->IgnoreParenImpCasts())))
    return false;
  for (const Stmt *S : CS->body()) {
    const Stmt *Part = S;
    if (const auto *If = dyn_cast<IfStmt>(S))
      Part = If->getCond();
    else if (const auto *Switch = dyn_cast<SwitchStmt>(S))
      Part = Switch->getCond();
    else if (!isa<Expr, DeclStmt>(S))
      continue;
    if (readsCommandLine(Part, /*ArgcArgv=*/false))
      return true;
  }
  return false;
}

/// A loop that writes output on every iteration: a statement of its body
/// (not one nested in a branch) calls a reporting function (a printf-style
/// logger, Reporting.h). A call in it costs little next to that output, so
/// it is no hotter than one outside a loop: btrfs-progs' JSON printers call
/// fmt_print_start_group() in loops that print each field of each row. Only
/// the body's own statements are read, as for isArgumentLoop.
bool isOutputLoop(const Stmt *Loop, const RuleIndex &Rules) {
  const auto *CS = dyn_cast_or_null<CompoundStmt>(loopParts(Loop).second);
  if (!CS)
    return false;
  for (const Stmt *S : CS->body())
    if (const auto *E = dyn_cast<Expr>(S))
      if (const auto *Call = dyn_cast<CallExpr>(E->IgnoreParenCasts()))
        if (isReportingCall(Call, Rules))
          return true;
  return false;
}

/// A condition that holds on failure: `unlikely(c)`, `ret`, `ret != 0`,
/// `ret < 0`, `IS_ERR(p)`, and a statement expression whose value is one:
/// the kernel's `WARN(c, ...)` and `WARN_ON(c)` are `({ int __ret_warn_on =
/// !!(c); if (unlikely(__ret_warn_on)) __WARN(); unlikely(__ret_warn_on); })`.
/// Also `a || b` when each side is one or a constant false: mm/slub.c's
/// slow path, `if (!USE_LOCKLESS_FAST_PATH() || unlikely(!object || ...))`,
/// USE_LOCKLESS_FAST_PATH() being `(true)`.
bool testsForFailure(const Expr *Cond, const ASTContext &Ctx) {
  Cond = Cond->IgnoreParenImpCasts();
  if (const auto *SE = dyn_cast<StmtExpr>(Cond)) {
    const CompoundStmt *Body = SE->getSubStmt();
    const auto *Value = Body && !Body->body_empty() ? dyn_cast<Expr>(Body->body_back()) : nullptr;
    return Value && testsForFailure(Value, Ctx);
  }
  if (const auto *Or = dyn_cast<BinaryOperator>(Cond); Or && Or->getOpcode() == BO_LOr) {
    auto False = [&](const Expr *E) {
      bool Value = true;
      return !E->isValueDependent() && E->EvaluateAsBooleanCondition(Value, Ctx) && !Value;
    };
    const Expr *L = Or->getLHS(), *R = Or->getRHS();
    bool LFails = testsForFailure(L, Ctx), RFails = testsForFailure(R, Ctx);
    return (LFails || RFails) && (LFails || False(L)) && (RFails || False(R));
  }
  if (const auto *Call = dyn_cast<CallExpr>(Cond)) {
    if (Call->getBuiltinCallee() == Builtin::BI__builtin_expect && Call->getNumArgs() == 2) {
      const auto *Expected =
          dyn_cast<IntegerLiteral>(Call->getArg(1)->IgnoreParenImpCasts());
      return Expected && Expected->getValue() == 0;
    }
    if (const FunctionDecl *F = Call->getDirectCallee(); F && F->getIdentifier())
      return F->getName() == "IS_ERR" || F->getName() == "IS_ERR_OR_NULL";
    return false;
  }
  if (const auto *Op = dyn_cast<BinaryOperator>(Cond)) {
    const auto *Zero = dyn_cast<IntegerLiteral>(Op->getRHS()->IgnoreParenImpCasts());
    return (Op->getOpcode() == BO_NE || Op->getOpcode() == BO_LT) && Zero &&
           Zero->getValue() == 0 && namesAnError(Op->getLHS());
  }
  return namesAnError(Cond);
}

/// A branch that handles a failure: its condition tests for one, or one of
/// its own statements (not those nested in them) reports, jumps (`goto out`),
/// never returns, or returns a negative constant (`return -EINVAL`). LLVM's
/// static branch weights call such branches unlikely; a call in one runs when
/// something went wrong, however many loops are around it: btrfs check's
/// repair calls, e2fsck's fix_problem() under `if (pctx.errcode)`, zstd's
/// error help.
/// \p CallFails(Call, Callee): the call is noreturn or reports.
bool isColdBranch(const Stmt *Branch, const Expr *Cond, const RuleIndex &Rules,
                  const ASTContext &Ctx,
                  llvm::function_ref<bool(const CallExpr *, const FunctionDecl *)> CallFails) {
  if (!Branch)
    return false;
  if (Cond && testsForFailure(Cond, Ctx))
    return true;
  llvm::SmallVector<const Stmt *, 8> Stmts;
  if (const auto *CS = dyn_cast<CompoundStmt>(Branch))
    Stmts.append(CS->body_begin(), CS->body_end());
  else
    Stmts.push_back(Branch);
  // Cheap tests first: this runs for every if of every body (sqlite3.c).
  for (const Stmt *S : Stmts) {
    if (isa<GotoStmt>(S))
      return true;
    if (const auto *Ret = dyn_cast<ReturnStmt>(S)) {
      const auto *Neg = dyn_cast_or_null<UnaryOperator>(
          Ret->getRetValue() ? Ret->getRetValue()->IgnoreParenImpCasts() : nullptr);
      Expr::EvalResult R;
      if (Neg && Neg->getOpcode() == UO_Minus && !Neg->isValueDependent() &&
          Neg->getType()->isIntegerType() && Neg->EvaluateAsInt(R, Ctx) &&
          R.Val.getInt().isNegative())
        return true;
      continue;
    }
    if (const auto *Call = dyn_cast<CallExpr>(S)) {
      const FunctionDecl *Callee = Call->getDirectCallee();
      if (Callee && CallFails(Call, Callee))
        return true;
    }
  }
  // A reporting macro written as a statement (`do { ... } while (0)`).
  return llvm::any_of(Stmts, [&](const Stmt *S) {
    return isa<DoStmt>(S) && isReportingStatement(S, Rules, Ctx);
  });
}

/// Walks the written code of bodies and records calls and function
/// references. A plain recursive walk of children(), several times cheaper
/// than a RecursiveASTVisitor, which also walks types and declarations.
class BodyWalker {
public:
  BodyWalker(CallSiteIndex &Index, const ASTContext &Ctx, const RuleIndex &Rules)
      : Index(Index), Ctx(Ctx), SM(Ctx.getSourceManager()), LangOpts(Ctx.getLangOpts()),
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
  /// Set in the loop count inside a command-line loop (isArgumentLoop);
  /// the other bits count the loops around a call.
  static constexpr unsigned OncePerRunBit = 1u << 31;
  /// Set inside a branch that handles a failure (isColdBranch).
  static constexpr unsigned ColdBit = 1u << 30;
  /// Bits 16-29 count the branches around a call (the arms of an if, a
  /// switch or ?:, the right side of && and ||), bits 0-15 its loops.
  static constexpr unsigned LoopMask = 0xFFFF, BranchUnit = 1u << 16,
                            BranchMask = 0x3FFFu << 16;
  static unsigned inBranch(unsigned Loops) {
    return (Loops & BranchMask) == BranchMask ? Loops : Loops + BranchUnit;
  }

  void walk(const Stmt *S, const FunctionDecl *Enclosing, unsigned Loops, unsigned Depth) {
    if (Depth > MaxRecursion) {
      // Walked after this body, outside the arms around it now.
      Deferred.push_back({S, Enclosing, Loops | (inColdArm() ? ColdBit : 0)});
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
      case Stmt::CompoundAssignOperatorClass: {
        const auto *Op = cast<BinaryOperator>(S);
        walk(Op->getLHS(), Enclosing, Loops, Depth);
        if (Op->isLogicalOp()) // the right side runs on one outcome only
          Loops = inBranch(Loops);
        S = Op->getRHS();
        continue;
      }
      case Stmt::ConditionalOperatorClass: // in source order, each arm one branch
        walk(cast<ConditionalOperator>(S)->getCond(), Enclosing, Loops, Depth);
        walk(cast<ConditionalOperator>(S)->getTrueExpr(), Enclosing, inBranch(Loops), Depth);
        S = cast<ConditionalOperator>(S)->getFalseExpr();
        Loops = inBranch(Loops);
        continue;
      case Stmt::SwitchStmtClass:
        walkSwitch(cast<SwitchStmt>(S), Enclosing, Loops, Depth);
        return;
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
        // A command-line loop is no hot loop: its calls run once a start;
        // nor is one that prints every iteration.
        if (isArgumentLoop(S))
          Loops |= OncePerRunBit;
        else if (!isOutputLoop(S, Rules))
          ++Loops;
        break;
      case Stmt::IfStmtClass:
        walkIf(cast<IfStmt>(S), Enclosing, Loops, Depth);
        return;
      case Stmt::CXXForRangeStmtClass:
        walkRange(cast<CXXForRangeStmt>(S), Enclosing, Loops, Depth);
        return;
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

  /// A range-for: its body in one more loop. The begin/end/!= calls clang
  /// adds are not call sites anyone wrote.
  void walkRange(const CXXForRangeStmt *Range, const FunctionDecl *Enclosing, unsigned Loops,
                 unsigned Depth) {
    for (const Stmt *C : {Range->getInit(), static_cast<const Stmt *>(Range->getLoopVarStmt()),
                          static_cast<const Stmt *>(Range->getRangeInit()),
                          Range->getBody()})
      if (C)
        walk(C, Enclosing, Loops + 1, Depth);
  }

  /// The arms of an if: one more branch each, cold when they handle a
  /// failure (isColdBranch).
  void walkIf(const IfStmt *If, const FunctionDecl *Enclosing, unsigned Loops, unsigned Depth) {
    for (const Stmt *C : {If->getInit(), static_cast<const Stmt *>(If->getConditionVariableDeclStmt()),
                          static_cast<const Stmt *>(If->getCond())})
      if (C)
        walk(C, Enclosing, Loops, Depth);
    if (const Stmt *Then = If->getThen())
      walkArm(Then, If->getCond(), Enclosing, Loops, Depth);
    if (const Stmt *Else = If->getElse())
      walkArm(Else, nullptr, Enclosing, Loops, Depth);
  }

  /// Whether \p Call leaves or reports: noreturn, a reporting function
  /// (Reporting.h), named noreturn by the rules. What the callee alone
  /// decides is asked once a callee (the same few loggers and abort calls
  /// end thousands of arms); a variadic one's call may still be a logger's
  /// by its format argument.
  bool callFails(const CallExpr *Call, const FunctionDecl *Callee) {
    auto [It, New] = FailingCallees.try_emplace(Callee);
    if (New)
      It->second = Callee->isNoReturn() || isReportingFunction(Callee, Rules) ||
                   (Callee->getIdentifier() &&
                    Rules.NoreturnFunctions.contains(Callee->getName()));
    return It->second || (Callee->isVariadic() && isReportingCall(Call, Rules));
  }

  /// FD->isMain(), asked once a function rather than once a call.
  bool isMain(const FunctionDecl *FD) {
    if (FD != LastEnclosing) {
      LastEnclosing = FD;
      LastIsMain = FD->isMain();
    }
    return LastIsMain;
  }

  /// An arm of an if, whose coldness is asked only when a call is met in
  /// it (inColdArm): most arms hold none, and isColdBranch on every arm of
  /// every body cost 6 M instructions on sqlite3.c.
  void walkArm(const Stmt *Arm, const Expr *Cond, const FunctionDecl *Enclosing,
               unsigned Loops, unsigned Depth) {
    Arms.push_back({Arm, Cond, ArmCold::Unknown});
    walk(Arm, Enclosing, inBranch(Loops), Depth);
    Arms.pop_back();
  }

  /// Whether an arm of an if around the node being walked handles a
  /// failure; each arm is judged once.
  bool inColdArm() {
    for (OpenArm &A : Arms) {
      if (A.Cold == ArmCold::Unknown)
        A.Cold = isColdBranch(A.Arm, A.Cond, Rules, Ctx,
                              [&](const CallExpr *Call, const FunctionDecl *Callee) {
                                return callFails(Call, Callee);
                              })
                     ? ArmCold::Yes
                     : ArmCold::No;
      if (A.Cold == ArmCold::Yes)
        return true;
    }
    return false;
  }

  /// Whether \p Loc is inside an expansion of an assert-like macro, as
  /// isInsideMacroNamed says, remembered per macro expansion: a macro
  /// body's every location has the same callers (sqlite3.c: 6.7 M
  /// instructions a walk, asked anew for each call).
  bool inAssertMacro(SourceLocation Loc) {
    if (!Loc.isMacroID())
      return false;
    FileID F = SM.getFileID(Loc);
    // An argument's location leads on to where the argument was written,
    // which differs from token to token: only its macro's name is kept.
    bool Arg = SM.isMacroArgExpansion(Loc);
    auto [It, New] = AssertMemo.try_emplace(F);
    if (New) {
      SourceLocation Expansion = Arg ? SM.getImmediateExpansionRange(Loc).getBegin() : Loc;
      It->second.Named = Rules.AssertMacros.contains(immediateMacroName(Expansion, SM, LangOpts));
    }
    if (It->second.Named)
      return true;
    if (!Arg && It->second.Inside)
      return *It->second.Inside;
    bool In = inAssertMacro(SM.getImmediateMacroCallerLoc(Loc));
    if (!Arg)
      AssertMemo[F].Inside = In; // the recursion may have grown the map
    return In;
  }

  /// A switch's body: one case of N is taken 1/N of the time (LLVM's
  /// weights without a profile), log2(N) halvings.
  void walkSwitch(const SwitchStmt *Switch, const FunctionDecl *Enclosing, unsigned Loops,
                  unsigned Depth) {
    for (const Stmt *C : {Switch->getInit(),
                          static_cast<const Stmt *>(Switch->getConditionVariableDeclStmt()),
                          static_cast<const Stmt *>(Switch->getCond())})
      if (C)
        walk(C, Enclosing, Loops, Depth);
    unsigned Cases = 0, Halvings = 1;
    for (const SwitchCase *C = Switch->getSwitchCaseList(); C; C = C->getNextSwitchCase())
      ++Cases;
    while ((1u << Halvings) < Cases && Halvings < 8)
      ++Halvings;
    unsigned InCase = Loops;
    for (unsigned H = 0; H < Halvings; ++H)
      InCase = inBranch(InCase);
    if (const Stmt *Body = Switch->getBody())
      walk(Body, Enclosing, InCase, Depth);
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
        InAssert = !Rules.AssertMacros.empty() && inAssertMacro(Loc);
      }
      unsigned RealLoops = Loops & LoopMask;
      unsigned Branches = (Loops & BranchMask) / BranchUnit;
      bool Cold = (Loops & ColdBit) || inColdArm();
      bool Once = (Loops & OncePerRunBit) || (RealLoops == 0 && Enclosing && isMain(Enclosing));
      Index.recordCall(Call, Direct, Enclosing, Once || Cold ? 0 : RealLoops, InAccessor,
                       InAssert, Once, Cold, Branches);
    }
    // The callee's own name is a call, not a use of its address.
    bool NamedCallee = Direct && Callee && isa<DeclRefExpr>(Callee->IgnoreParenImpCasts());
    for (const Stmt *C : Call->children())
      if (C && !(NamedCallee && C == Callee))
        walk(C, Enclosing, Loops, Depth);
  }

  CallSiteIndex &Index;
  const ASTContext &Ctx;
  const SourceManager &SM;
  const LangOptions &LangOpts;
  const RuleIndex &Rules;
  std::vector<Pending> Deferred;
  enum class ArmCold : uint8_t { Unknown, Yes, No };
  struct OpenArm {
    const Stmt *Arm;
    const Expr *Cond;
    ArmCold Cold;
  };
  llvm::SmallVector<OpenArm, 16> Arms; // the if arms around the walk, outermost first
  const FunctionDecl *LastEnclosing = nullptr;
  bool LastIsMain = false;
  llvm::DenseMap<const FunctionDecl *, bool> FailingCallees; // callFails()
  struct MacroMemo {
    bool Named = false;          // the expansion is of an assert-like macro
    std::optional<bool> Inside;  // ... or one of its callers is
  };
  llvm::DenseMap<clang::FileID, MacroMemo> AssertMemo; // by macro expansion
};
} // namespace

void CallSiteIndex::indexBody(const Stmt *Body, const FunctionDecl *Enclosing,
                              const ASTContext &Ctx, const RuleIndex &Rules) {
  BodyWalker(*this, Ctx, Rules).walkBody(Body, Enclosing);
}

void CallSiteIndex::recordCall(const CallExpr *Call, const FunctionDecl *Callee,
                               const FunctionDecl *Enclosing, unsigned Loops, bool InAccessor,
                               bool InAssert, bool OncePerRun, bool Cold, unsigned Branches) {
  CallSiteStats &S = Stats[Callee->getCanonicalDecl()];
  ++S.Calls;
  S.OncePerRun += OncePerRun;
  S.InLoops += Loops > 0;
  S.FromMacroAccessors += InAccessor;
  S.InAssertMacros += InAssert;
  if (Enclosing)
    Sites.push_back({Call, Enclosing, Loops > 0, InAccessor, Loops, Cold, Branches, Callee});
}

ArrayRef<const CallSiteIndex::Site *> CallSiteIndex::callersOf(const FunctionDecl *FD) const {
  if (ByCallee.size() != Sites.size()) {
    // Counted, then placed: one array, no vector per callee.
    CallerRange.clear();
    for (const Site &S : Sites)
      ++CallerRange[S.Callee->getCanonicalDecl()].second;
    unsigned Next = 0;
    for (auto &KV : CallerRange) {
      KV.second.first = Next;
      Next += KV.second.second;
      KV.second.second = 0;
    }
    ByCallee.assign(Sites.size(), nullptr);
    for (const Site &S : Sites) {
      std::pair<unsigned, unsigned> &R = CallerRange[S.Callee->getCanonicalDecl()];
      ByCallee[R.first + R.second++] = &S;
    }
  }
  auto It = CallerRange.find(FD->getCanonicalDecl());
  if (It == CallerRange.end())
    return {};
  return ArrayRef<const Site *>(ByCallee).slice(It->second.first, It->second.second);
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
  // Room for what a C body has (sqlite3.c: 15,000 sites in 3,100
  // functions): the map of every callee's statistics grew a dozen times.
  Stats.reserve(Stats.size() + Defs.Functions.size());
  Sites.reserve(Sites.size() + 4 * Defs.Functions.size());
  // One walker for all: what it remembers (macro expansions, callees) holds
  // across bodies.
  BodyWalker Walker(*this, Ctx, Rules);
  for (const FunctionDecl *FD : Defs.Functions)
    Walker.walkBody(FD->getBody(), FD);
  for (const VarDecl *VD : Defs.GlobalInits)
    Walker.walkBody(VD->getInit(), nullptr);
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

bool CallSiteIndex::addressTaken(const FunctionDecl *FD) const {
  auto It = Stats.find(FD->getCanonicalDecl());
  return It != Stats.end() && It->second.AddressTaken;
}

void CallSiteIndex::clear() {
  Stats.clear();
  Sites.clear();
  ByCallee.clear();
  CallerRange.clear();
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
  // Expansions: TUContext's listener records those of function-like macros
  // (recordMacroExpansion), the only ones recordMacroDefinition keeps.

private:
  CallSiteIndex &Index;
  IncludeGraph &Includes;
  const SourceManager &SM;
};
} // namespace

std::unique_ptr<compat::IncludeCallbacks> makePreprocessorRecorder(CallSiteIndex &Index,
                                                      IncludeGraph &Includes,
                                                      const SourceManager &SM) {
  return std::make_unique<PreprocessorRecorder>(Index, Includes, SM);
}

} // namespace hotpath
