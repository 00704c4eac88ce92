//===--- HookGateCheck.cpp - hotpath-hook-gate ----------------------------===//
//
// Shapes, measured on samples/slab-alloc (callgrind, -O2, gcc 12 and
// clang 19; share of the hook's cost removed):
//   a. `gate() && hook(...)` at the call site          gcc 0.625, clang 0.125
//   b. a. with the call in a cold noinline helper      gcc 0.625, clang 0.250
//   c. the caller tests the gate on entry and tail-calls a cold clone of
//      itself that calls the hook; its own fast path has no call left
//                                                      gcc 0.625, clang 0.500
//   d. c. with a hidden gate variable (no GOT load)    gcc 0.625, clang 0.625
//   e. d. with a plain bool gate, not an atomic one    gcc 0.750, clang 0.750
// Clang keeps the stack frame that a call needs on the fast path unless the
// function has no call at all, so a clone of the caller (shape e) is the
// fastest; but it duplicates the caller's source, which every later edit
// must change twice, and the mm patch this check generalises is one line at
// the call site. So the default is shape a with a plain bool (the figures
// for both are in docs/checks/hotpath-hook-gate.md), and cloning is opt-in
// (CloneCallers). a. to d. are atomic gates; GateWriter says why the gate is
// a plain bool.
//
//===----------------------------------------------------------------------===//

#include "checks/HookGateCheck.h"
#include "rewrite/Edits.h"
#include "rewrite/Spelling.h"
#include "analysis/SideEffects.h"
#include "analysis/Reporting.h"
#include "analysis/HookShape.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/MacroArgs.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Path.h"
#include <map>

using namespace clang;

namespace hotpath {
namespace {

//===----------------------------------------------------------------------===//
// Recognising hooks.
//===----------------------------------------------------------------------===//

struct HookInfo {
  const FunctionDecl *FD = nullptr;     // canonical declaration
  const FunctionDecl *Def = nullptr;    // definition in the main file, if any
  bool Named = false;                   // named by the rule set
  bool KnownDisabled = false;
  std::string Disabled;                 // value while the hook does nothing
  std::string Why;                      // for the note
  const Expr *GlobalGate = nullptr;     // hook acts only when this is true
  /// A hook whose body the project index describes: the switch it tests
  /// there, as written, and the names that switch reads.
  std::string RemoteSwitch;
  std::vector<std::string> SwitchNames;
  /// For each of SwitchNames, a declaration a header can carry, or "".
  std::vector<std::string> SwitchDeclarations;
  std::string SwitchFile;
  /// Recognised only because other files call it (the project index): hot
  /// by the index's count of its calls, which every TU reads alike, so the
  /// TU that defines its gate and those that test it agree.
  bool IndexHeatOnly = false;
  /// Its body only returns a constant.
  bool ConstantOnly = false;
  /// Known from the project index: its body is in another file.
  const index::Function *Indexed = nullptr;
  bool hasSwitch() const { return GlobalGate || !RemoteSwitch.empty(); }
};

/// An unmarked function that takes nothing and only returns a constant is a
/// getter, not a hook: nothing keeps it out of line to be replaced, and no
/// argument could make it act (btrfs-progs' btrfs_get_num_csums(), the size
/// of a table, called hot from other files).
bool isConstantGetter(const HookInfo &H, const FunctionDecl *FD, bool Marked) {
  return !Marked && H.ConstantOnly && FD->getNumParams() == 0;
}

/// A hook defined here: empty, a constant return, or acting only when a
/// global is set (analysis/HookShape.h).
std::optional<HookInfo> recogniseBody(const FunctionDecl *Def, const ASTContext &Ctx,
                                      const RuleIndex &Rules) {
  std::optional<HookBody> B = recogniseHookBody(Def, Ctx, Rules);
  if (!B)
    return std::nullopt;
  HookInfo H;
  H.KnownDisabled = B->KnownDisabled;
  H.Disabled = B->Disabled;
  H.Why = B->Why;
  H.GlobalGate = B->Switch;
  H.ConstantOnly = B->Shape == HookBody::Kind::Constant;
  return H;
}

//===----------------------------------------------------------------------===//
// Text helpers.
//===----------------------------------------------------------------------===//


/// A location just after the token at \p Loc.
SourceLocation afterToken(SourceLocation Loc, const ASTContext &Ctx) {
  return Lexer::getLocForEndOfToken(Ctx.getSourceManager().getExpansionLoc(Loc), 0,
                                    Ctx.getSourceManager(), Ctx.getLangOpts());
}

/// After the hook's body, and after the error-injection marker that the
/// kernel writes right below it (ALLOW_ERROR_INJECTION(fn, ERRNO);), which
/// the gate's definition must not separate from it.
SourceLocation afterInjectionMarker(SourceLocation BodyEnd, const ASTContext &Ctx,
                                    ArrayRef<std::string> Macros) {
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  SourceLocation End = afterToken(BodyEnd, Ctx);
  std::optional<Token> T = Lexer::findNextToken(SM.getExpansionLoc(BodyEnd), SM, LO);
  if (!T || !T->is(tok::raw_identifier) || !llvm::is_contained(Macros, T->getRawIdentifier()))
    return End;
  int Depth = 0;
  for (int I = 0; I < 256 && (T = Lexer::findNextToken(T->getLocation(), SM, LO)); ++I) {
    if (T->is(tok::l_paren))
      ++Depth;
    else if (T->is(tok::r_paren))
      --Depth;
    else if (T->is(tok::semi) && Depth == 0)
      return T->getEndLoc();
    else if (T->is(tok::eof) || (T->is(tok::l_brace) && Depth == 0))
      break;
  }
  return End;
}

bool namedDeclExists(StringRef Name, ASTContext &Ctx) {
  return !Ctx.getTranslationUnitDecl()
              ->lookup(DeclarationName(&Ctx.Idents.get(Name)))
              .empty();
}

/// True when a variable or enumerator \p Name (a switch another file tests)
/// is declared at file scope and visible at \p Point, with a complete type;
/// or when \p Name is a macro the switch spells, defined where \p Point can
/// see it.
bool namedVisibleAt(StringRef Name, SourceLocation Point, ASTContext &Ctx,
                    const IncludeGraph &Includes, const Preprocessor &PP) {
  if (Name.contains("::"))
    return false;
  if (const IdentifierInfo *II = PP.getIdentifierInfo(Name); II && II->hasMacroDefinition()) {
    const MacroInfo *MI = PP.getMacroInfo(II);
    return MI && isVisibleFrom(MI->getDefinitionLoc(), Point, Ctx.getSourceManager(), Includes);
  }
  for (NamedDecl *D :
       Ctx.getTranslationUnitDecl()->lookup(DeclarationName(&Ctx.Idents.get(Name)))) {
    const auto *V = dyn_cast<ValueDecl>(D);
    if (!V || !isa<VarDecl, EnumConstantDecl>(V) || V->getType()->isIncompleteType())
      continue;
    if (isVisibleFrom(V->getLocation(), Point, Ctx.getSourceManager(), Includes))
      return true;
  }
  return false;
}

const VarDecl *definedVar(StringRef Name, ASTContext &Ctx) {
  for (NamedDecl *D :
       Ctx.getTranslationUnitDecl()->lookup(DeclarationName(&Ctx.Idents.get(Name))))
    if (const auto *VD = dyn_cast<VarDecl>(D))
      for (const VarDecl *R : VD->redecls()) // tentative definitions count
        if (R->isThisDeclarationADefinition() != VarDecl::DeclarationOnly)
          return R;
  return nullptr;
}

//===----------------------------------------------------------------------===//
// The gate of one hook: where it is declared and defined, how it is spelled.
//===----------------------------------------------------------------------===//

/// The text of one hook's gate. Styles, measured on samples/slab-alloc
/// (scripts/bench-matrix.sh, callgrind, after/before; the fix's clone shape):
///   plain   a plain global bool read under __builtin_expect:
///           gcc -O2 0.901, -flto 0.884, PGO+LTO 0.826; clang -O2 0.902,
///           -flto 1.000 (LTO folds a gate that is never switched on)
///   atomic  a relaxed atomic_bool: gcc -O2 0.917, but -flto 1.058 and
///           PGO+LTO 1.203, where LTO had hoisted the empty hook's call
///           out of the loop and cannot move or fold an atomic load
/// so plain is the default, never slower; atomic is for gates switched
/// while other threads run the gated code.
class GateWriter {
public:
  GateWriter(StringRef Hook, const RuleSet::HookGateRules &G, const ASTContext &Ctx,
             bool StaticKeyMacroVisible, bool BoolVisible, std::string Unit)
      : Hook(Hook.str()), G(G), Cxx(Ctx.getLangOpts().CPlusPlus),
        Cxx20(Ctx.getLangOpts().CPlusPlus20), StaticKeyVisible(StaticKeyMacroVisible),
        Bool(Cxx || BoolVisible ? "bool" : "_Bool"), Unit(std::move(Unit)) {}

  /// The kernel names a hook's key after what it says: should_failslab_active.
  std::string var() const { return Hook + (G.Style == "static_key" ? "_active" : "_gate"); }
  std::string accessor() const { return Hook + "_gate_enabled"; }
  /// The test at a call site: a static key is read there, as the mm patch
  /// does (static_branch_unlikely(&should_failslab_active) && ...), unless
  /// another configuration has the always-on stand-in (\p Mirrored).
  std::string test(bool Mirrored) const {
    if (G.Style == "static_key" && !Mirrored)
      return "static_branch_unlikely(&" + var() + ")";
    return accessor() + "()";
  }
  /// The header the gate's type needs, if any: {name, angled}.
  std::optional<std::string> header() const {
    if (G.Style == "static_key")
      return StaticKeyVisible ? std::nullopt : std::optional<std::string>("linux/jump_label.h");
    if (G.Style == "atomic")
      return std::string(Cxx ? "atomic" : "stdatomic.h");
    return std::nullopt;
  }

  /// Header declarations (header mode).
  /// \p Mirrored: another configuration has the always-on stand-in, so
  /// callers test the accessor; a static key otherwise needs none.
  std::string headerDecl(bool Mirrored) const {
    std::string Out = comment();
    if (G.Style == "static_key")
      Out += "DECLARE_STATIC_KEY_FALSE(" + var() + ");\n";
    else
      Out += "extern " + visibility() + type() + " " + var() + ";\n";
    if (G.Style != "static_key" || Mirrored)
      Out += accessorText("static inline ");
    Out += "void " + Hook + "_gate_enable(" + params() + ");\n";
    Out += "void " + Hook + "_gate_disable(" + params() + ");";
    return Out;
  }

  /// Definitions for the hook's own file (header mode); the gate starts on
  /// unless \p OffWhen holds (the configuration whose hook does nothing).
  std::string definition(StringRef Header, ArrayRef<ConditionLiteral> OffWhen) const {
    std::string Out = "/* The gate of " + Hook + "(), declared in " + Header.str() + ". */\n";
    Out += varDefinitions("", OffWhen) + "\n";
    Out += setters("");
    return StringRef(Out).rtrim("\n").str();
  }

  /// Everything in one file (no header): \p Static for a static hook.
  std::string local(bool Static, ArrayRef<ConditionLiteral> OffWhen) const {
    std::string Out = comment();
    Out += varDefinitions(Static ? "static " : "", OffWhen) + "\n";
    Out += accessorText("static inline ");
    if (!Static) {
      Out += "void " + Hook + "_gate_enable(" + params() + ");\n";
      Out += "void " + Hook + "_gate_disable(" + params() + ");\n";
    }
    Out += setters(Static ? "static inline __attribute__((unused)) " : "");
    return StringRef(Out).rtrim("\n").str();
  }

  /// For configurations where the hook is not the one analysed (another
  /// branch of the #if around its declaration): a gate that is always on,
  /// so each gated call is made as before, and setters that do nothing.
  /// \p InMainFile: unused static functions there are warned about.
  std::string alwaysOn(bool InMainFile) const {
    std::string Static = InMainFile ? "static inline __attribute__((unused)) " : "static inline ";
    return "/* " + Hook + "() is not the hook analysed here: its gate is always on. */\n" +
           Static + Bool + " " + accessor() + "(" + params() + ")\n{\n" + Unit + "return 1;\n}\n" +
           Static + "void " + Hook + "_gate_enable(" + params() + ")\n{\n}\n" + Static + "void " +
           Hook + "_gate_disable(" + params() + ")\n{\n}\n";
  }

private:
  std::string params() const { return Cxx ? "" : "void"; }
  std::string comment() const {
    return "/* Gate of " + Hook + "(): off at start, so callers skip the call;\n * " + Hook +
           "_gate_enable() switches the hook on at run time. */\n";
  }
  std::string visibility() const {
    return G.Visibility == "hidden" ? "__attribute__((visibility(\"hidden\"))) " : "";
  }
  std::string type() const {
    if (G.Style == "atomic")
      return Cxx ? "std::atomic<bool>" : "atomic_bool";
    return Bool;
  }
  std::string truth(bool On) const {
    return Cxx || Bool == "bool" ? (On ? "true" : "false") : (On ? "1" : "0");
  }
  std::string varDefinition(StringRef Prefix, bool On) const {
    if (G.Style == "static_key")
      return Prefix.str() + "DEFINE_STATIC_KEY_FALSE(" + var() + ");";
    std::string Vis = Prefix.empty() ? "" : visibility();
    if (Prefix.starts_with("static"))
      Vis = "";
    std::string Init;
    if (G.Style == "atomic" && Cxx)
      Init = "{" + truth(On) + "}";
    else if (On)
      Init = " = " + truth(On);
    else if (Cxx)
      Init = " = false";
    return Prefix.str() + Vis + type() + " " + var() + Init + ";";
  }
  /// Off where \p OffWhen holds, on elsewhere: where the body differs, the
  /// hook may act, and the gate must not hide it.
  std::string varDefinitions(StringRef Prefix, ArrayRef<ConditionLiteral> OffWhen) const {
    if (OffWhen.empty())
      return varDefinition(Prefix, false);
    return guardDirective(OffWhen) + "\n" + varDefinition(Prefix, false) +
           "\n#else /* the hook's body differs here: its gate starts on */\n" +
           varDefinition(Prefix, true) + "\n#endif";
  }
  std::string accessorText(StringRef Prefix) const {
    std::string Out = Prefix.str() + Bool + " " + accessor() + "(" + params() + ")\n{\n";
    std::string Load = G.Style == "atomic"
                           ? (Cxx ? var() + ".load(std::memory_order_relaxed)"
                                  : "atomic_load_explicit(&" + var() + ", memory_order_relaxed)")
                           : var();
    if (G.Style == "static_key")
      Out += Unit + "return static_branch_unlikely(&" + var() + ");\n";
    else if (Cxx20)
      Out += Unit + "if (" + Load + ") [[unlikely]]\n" + Unit + Unit + "return true;\n" + Unit +
             "return false;\n";
    else
      Out += Unit + "return __builtin_expect(" + Load + ", 0);\n";
    return Out + "}\n";
  }
  std::string setters(StringRef Prefix) const {
    std::string Out;
    for (bool On : {true, false}) {
      Out += "\n" + Prefix.str() + "void " + Hook + (On ? "_gate_enable(" : "_gate_disable(") +
             params() + ")\n{\n";
      if (G.Style == "static_key")
        Out += Unit + "static_branch_" + (On ? "enable" : "disable") + "(&" + var() + ");\n";
      else if (G.Style == "atomic" && Cxx)
        Out += Unit + var() + ".store(" + (On ? "true" : "false") + ");\n";
      else if (G.Style == "atomic")
        Out += Unit + "atomic_store(&" + var() + ", " + (On ? "1" : "0") + ");\n";
      else
        Out += Unit + var() + " = " + truth(On) + ";\n";
      Out += "}\n";
    }
    return Out;
  }

  std::string Hook;
  const RuleSet::HookGateRules &G;
  bool Cxx, Cxx20, StaticKeyVisible;
  std::string Bool;
  std::string Unit;
};

//===----------------------------------------------------------------------===//

//===----------------------------------------------------------------------===//
// Call sites.
//===----------------------------------------------------------------------===//

enum class UseKind { Statement, Condition, Value };

/// How the call's value is used.
UseKind contextOf(const CallExpr *Call, ASTContext &Ctx, const Stmt **Parent) {
  const Stmt *Child = Call;
  while (true) {
    DynTypedNodeList Parents = Ctx.getParents(*Child);
    if (Parents.empty())
      return UseKind::Value;
    const Stmt *P = Parents[0].get<Stmt>();
    *Parent = P;
    if (!P)
      return UseKind::Value;
    if (isa<ParenExpr, ImplicitCastExpr>(P)) {
      Child = P;
      continue;
    }
    if (isa<CompoundStmt>(P))
      return UseKind::Statement;
    if (const auto *Cast = dyn_cast<CStyleCastExpr>(P); Cast && Cast->getType()->isVoidType())
      return UseKind::Statement;
    if (const auto *If = dyn_cast<IfStmt>(P)) {
      if (If->getCond() == Child)
        return UseKind::Condition;
      return UseKind::Statement; // the then/else branch itself
    }
    if (const auto *W = dyn_cast<WhileStmt>(P); W && W->getCond() == Child)
      return UseKind::Condition;
    if (const auto *Loop = dyn_cast<ForStmt>(P)) {
      if (Loop->getCond() == Child)
        return UseKind::Condition;
      if (Loop->getBody() == Child || Loop->getInc() == Child)
        return UseKind::Statement;
    }
    if (const auto *W = dyn_cast<WhileStmt>(P); W && W->getBody() == Child)
      return UseKind::Statement;
    if (const auto *D = dyn_cast<DoStmt>(P); D && D->getBody() == Child)
      return UseKind::Statement;
    if (isa<LabelStmt, CaseStmt, DefaultStmt>(P))
      return UseKind::Statement;
    return UseKind::Value;
  }
}

/// True when a value use reads the call only as a truth value (under !, &&,
/// || or as the condition of ?:, as `unlikely(hook(a))` expands), so that
/// `gate && hook(a)` reads the same as `gate ? hook(a) : 0`; \p InParens
/// when the call is already written in parentheses of its own.
bool usedAsTruth(const CallExpr *Call, ASTContext &Ctx, bool &InParens) {
  const Stmt *Child = Call;
  InParens = false;
  while (true) {
    DynTypedNodeList Parents = Ctx.getParents(*Child);
    const Stmt *P = Parents.empty() ? nullptr : Parents[0].get<Stmt>();
    if (!P)
      return false;
    if (isa<ParenExpr>(P))
      InParens = true;
    if (isa<ImplicitCastExpr, ParenExpr>(P)) {
      Child = P;
      continue;
    }
    if (const auto *U = dyn_cast<UnaryOperator>(P))
      return U->getOpcode() == UO_LNot;
    if (const auto *B = dyn_cast<BinaryOperator>(P))
      return B->isLogicalOp();
    if (const auto *C = dyn_cast<ConditionalOperator>(P))
      return C->getCond() == Child;
    return false;
  }
}

/// True when the call is already behind a test of \p Gate: the right of an
/// && whose left mentions it, an arm of ?: whose condition does, or the body
/// of an if whose condition does.
bool alreadyGated(const CallExpr *Call, StringRef Gate, ASTContext &Ctx) {
  const Stmt *Child = Call;
  for (int Depth = 0; Depth < 6; ++Depth) {
    DynTypedNodeList Parents = Ctx.getParents(*Child);
    if (Parents.empty())
      return false;
    const Stmt *P = Parents[0].get<Stmt>();
    if (!P)
      return false;
    auto Mentions = [&](const Stmt *S) {
      return S && StringRef(sourceText(S, Ctx)).contains(Gate);
    };
    if (const auto *BO = dyn_cast<BinaryOperator>(P);
        BO && BO->getOpcode() == BO_LAnd && BO->getRHS() == Child && Mentions(BO->getLHS()))
      return true;
    if (const auto *CO = dyn_cast<ConditionalOperator>(P);
        CO && CO->getCond() != Child && Mentions(CO->getCond()))
      return true;
    if (const auto *If = dyn_cast<IfStmt>(P); If && If->getCond() != Child && Mentions(If->getCond()))
      return true;
    Child = P;
  }
  return false;
}

/// The first argument whose evaluation has a side effect the gate would skip.
std::optional<SideEffect> argumentSideEffect(const CallExpr *Call, const RuleIndex &Rules,
                                             const ASTContext &Ctx) {
  for (const Expr *Arg : Call->arguments())
    if (std::optional<SideEffect> E =
            findSideEffect(Arg, SideEffectOptions::forRepeatedEvaluation(), Rules, Ctx))
      return E;
  return std::nullopt;
}

/// Why a caller cannot be cloned, if it cannot: the clone is its body,
/// unchanged, so nothing in it may depend on which copy runs.
std::optional<NoFixReason> cloneRefusal(const FunctionDecl *F, const ASTContext &Ctx,
                                        unsigned MaxLines) {
  const SourceManager &SM = Ctx.getSourceManager();
  const auto *Body = dyn_cast_or_null<CompoundStmt>(F->getBody());
  if (!Body || isa<CXXMethodDecl>(F) || F->isVariadic() || F->isMain() ||
      F->isTemplated() || F->isTemplateInstantiation() || F->isConstexpr() ||
      !F->getDeclName().isIdentifier() || F->getBeginLoc().isMacroID() ||
      F->getLocation().isMacroID() || Body->getBeginLoc().isMacroID() ||
      Body->getEndLoc().isMacroID())
    return NoFixReason::CloneNotPlainFunction;
  for (const ParmVarDecl *P : F->parameters())
    if (P->getName().empty())
      return NoFixReason::CloneUnnamedParameter;
  // A cold noinline copy of an inline caller (the kernel's
  // __fastpath_inline) conflicts with its attributes: gcc warns.
  for (const FunctionDecl *R : F->redecls())
    if (R->isInlineSpecified() || R->hasAttr<AlwaysInlineAttr>() || R->hasAttr<HotAttr>() ||
        R->hasAttr<FlattenAttr>())
      return NoFixReason::CloneInlineOrHot;
  unsigned Lines = SM.getExpansionLineNumber(Body->getEndLoc()) -
                   SM.getExpansionLineNumber(Body->getBeginLoc()) + 1;
  if (Lines > MaxLines)
    return NoFixReason::CloneTooLong;
  struct Finder : RecursiveASTVisitor<Finder> {
    std::optional<NoFixReason> Why;
    const FunctionDecl *F;
    bool VisitVarDecl(VarDecl *VD) {
      if (VD->isStaticLocal())
        Why = NoFixReason::CloneStaticLocal;
      return !Why;
    }
    bool VisitPredefinedExpr(PredefinedExpr *) {
      Why = NoFixReason::CloneNamesItself;
      return false;
    }
    bool VisitAddrLabelExpr(AddrLabelExpr *) {
      Why = NoFixReason::CloneLabelAddress;
      return false;
    }
    bool VisitDeclRefExpr(DeclRefExpr *Ref) {
      if (Ref->getDecl() == F && F->getPreviousDecl() == nullptr)
        Why = NoFixReason::CloneRecursive;
      return !Why;
    }
  } V;
  V.F = F;
  V.TraverseStmt(const_cast<CompoundStmt *>(Body));
  return V.Why;
}

} // namespace

//===----------------------------------------------------------------------===//
// The check.
//===----------------------------------------------------------------------===//

HookGateCheck::HookGateCheck(StringRef Name, tidy::ClangTidyContext *Context)
    : HotpathCheck(Name, Context) {
  OptionReader &O = options();
  Gate = rules().HookGate;
  Gate.Style = O.choice<std::string>(
      "GateStyle", {{"plain", "plain"}, {"atomic", "atomic"}, {"static_key", "static_key"}},
      Gate.Style);
  Gate.Visibility = O.choice<std::string>(
      "GateVisibility", {{"hidden", "hidden"}, {"default", "default"}}, Gate.Visibility);
  Gate.Threshold = O.count("HookThreshold", Gate.Threshold);
  Gate.CloneMaxLines = O.count("CloneMaxLines", Gate.CloneMaxLines);
  Gate.CloneCallers = O.flag("CloneCallers", Gate.CloneCallers);
  Gate.NewGateWithSetters = O.flag("NewGateWithSetters", Gate.NewGateWithSetters);
  for (const RuleSet::HookFunction &H : rules().HookFunctions) {
    NamedHooks[H.Name] = H.Disabled;
    if (!H.EnabledBy.empty())
      Enablers[H.Name] = H.EnabledBy;
  }
  for (StringRef Item : O.list("HookFunctions")) {
    auto [HookName, Disabled] = Item.split('=');
    if (!HookName.trim().empty())
      NamedHooks[HookName.trim()] = Disabled.trim().str();
  }
  for (StringRef Item : O.list("HookEnablers")) {
    auto [HookName, By] = Item.split('=');
    if (HookName.trim().empty() || By.trim().empty())
      O.fail("HookEnablers", Item, "a list of 'hook=what switches it on'");
    else
      Enablers[HookName.trim()] = By.trim().str();
  }
}

namespace {
class ErrorInjectionRecorder : public PPCallbacks {
public:
  ErrorInjectionRecorder(const std::vector<std::string> &Macros, Preprocessor &PP,
                         llvm::StringSet<> &Out)
      : Out(Out) {
    for (const std::string &M : Macros)
      this->Macros.insert(PP.getIdentifierInfo(M));
  }
  void MacroExpands(const Token &Name, const MacroDefinition &, SourceRange,
                    const MacroArgs *Args) override {
    if (!Args || !Macros.contains(Name.getIdentifierInfo()) ||
        Args->getNumMacroArguments() == 0)
      return;
    const Token *First = Args->getUnexpArgument(0);
    if (First && First->is(tok::identifier))
      Out.insert(First->getIdentifierInfo()->getName());
  }

private:
  // Identifiers, not names: this runs on every macro expansion.
  llvm::SmallPtrSet<const IdentifierInfo *, 4> Macros;
  llvm::StringSet<> &Out;
};
} // namespace

void HookGateCheck::registerCheckPPCallbacks(const SourceManager &, Preprocessor *PP) {
  PP->addPPCallbacks(
      std::make_unique<ErrorInjectionRecorder>(Gate.ErrorInjectionMacros, *PP, ErrorInjected));
}

void HookGateCheck::reset() {
  ErrorInjected.clear();
}

namespace {
bool inMainFile(const SourceManager &SM, SourceLocation L) {
  return SM.isInMainFile(SM.getExpansionLoc(L));
}
} // namespace

/// One TU's run of the check, in phases: recognise hooks, group their hot
/// calls, then for each hook (HookRun) plan its gate, plan each caller's
/// calls, and emit. Policy stays here; the edits come from the rewrite layer.
struct HookGateCheck::Pass {
  HookGateCheck &Check;
  ASTContext &Ctx;
  const SourceManager &SM;
  const LangOptions &LO;
  HeatModel Heat;
  IncludeInserter Inserter; // each header once per file
  std::map<const FunctionDecl *, HookInfo> Hooks; // by canonical declaration
  llvm::DenseSet<const FunctionDecl *> NotHooks;
  struct CallerGroup {
    const FunctionDecl *Caller;
    std::vector<const CallExpr *> Calls;
  };
  std::map<const FunctionDecl *, std::vector<CallerGroup>> Groups;
  std::vector<const FunctionDecl *> HookOrder;
  llvm::DenseMap<const FunctionDecl *, unsigned> HooksPerCaller;

  Pass(HookGateCheck &Check, ASTContext &Ctx)
      : Check(Check), Ctx(Ctx), SM(Ctx.getSourceManager()), LO(Ctx.getLangOpts()),
        Heat(Check.heat()), Inserter(Check.tu().layout(), SM) {}

  // 1. Which functions are hooks.
  /// The project index's heat of a function: all its calls, wherever they
  /// are, so that every TU computes the same figure.
  unsigned indexScore(const FunctionDecl *FD) { return Heat.indexScore(FD); }
  std::optional<HookInfo> recognise(const FunctionDecl *FD) {
    if (isa<CXXMethodDecl>(FD) || !FD->getIdentifier() || FD->isInlined() ||
        FD->isInvalidDecl() || SM.isInSystemHeader(FD->getLocation()))
      return std::nullopt;
    std::optional<HookInfo> H;
    const FunctionDecl *Def = FD->getDefinition();
    if (auto It = Check.NamedHooks.find(FD->getName()); It != Check.NamedHooks.end()) {
      H.emplace();
      H->Named = true;
      H->KnownDisabled = !It->second.empty() || FD->getReturnType()->isVoidType();
      H->Disabled = It->second;
      H->Why = "the rule set names it as a hook";
      if (!It->second.empty())
        H->Why += " that returns " + It->second + " while it does nothing";
    } else if (Def && !Def->isInlined()) {
      std::string Marker = outOfLineMarker(Def, Check.ErrorInjected);
      // Unmarked, but called hot from other files, where a compiler
      // without LTO cannot inline it (the project index says).
      std::vector<index::CallSite> Elsewhere;
      if (Marker.empty() && indexScore(FD) >= Check.Gate.Threshold)
        Elsewhere = Check.tu().calls().remoteSites(FD);
      if (Marker.empty() && Elsewhere.empty())
        return std::nullopt;
      H = recogniseBody(Def, Ctx, Check.ruleIndex());
      if (!H || isConstantGetter(*H, FD, !Marker.empty()))
        return std::nullopt;
      if (Marker.empty()) {
        H->IndexHeatOnly = true;
        H->Why += " in this configuration, and calls from other files (" +
                  ProjectCalls::displayName(Elsewhere.front().Loc.File) +
                  " in the project index) cannot inline it without LTO";
      } else {
        H->Why += " in this configuration, and it is kept out of line (" + Marker + ")";
      }
    } else if (const index::Function *F = Def ? nullptr : Check.tu().calls().projectFunction(FD);
               F && F->Hook && !F->Definitions.empty()) {
      // The body is in another file: the index has its shape.
      const index::HookShape &Shape = *F->Hook;
      std::string File = ProjectCalls::displayName(F->Definitions.front().Loc.File);
      H.emplace();
      H->Indexed = F;
      H->KnownDisabled = true;
      H->Disabled = Shape.Disabled;
      H->RemoteSwitch = Shape.Switch;
      H->SwitchNames = Shape.Globals;
      H->SwitchDeclarations = Shape.Declarations;
      H->SwitchFile = File;
      switch (Shape.Shape) {
      case index::HookShape::Kind::Empty:
        H->Why = "its body in " + File + " is empty";
        break;
      case index::HookShape::Kind::Constant:
        H->Why = "its body in " + File + " only returns " + Shape.Disabled;
        H->ConstantOnly = true;
        break;
      case index::HookShape::Kind::Switch:
        H->Why = "in " + File + " it does something only while '" + Shape.Switch + "' holds";
        break;
      }
      H->Why += " (project index)";
      if (isConstantGetter(*H, FD, !Shape.Marker.empty()))
        return std::nullopt;
      if (!Shape.Marker.empty())
        H->Why += ", and it is kept out of line (" + Shape.Marker + ")";
      else
        H->IndexHeatOnly = true;
    } else {
      return std::nullopt;
    }
    H->FD = FD;
    if (Def && inMainFile(SM, Def->getLocation()))
      H->Def = Def;
    return H;
  }
  HookInfo *hookFor(const FunctionDecl *FD) {
    FD = FD->getCanonicalDecl();
    if (auto It = Hooks.find(FD); It != Hooks.end())
      return &It->second;
    if (NotHooks.count(FD))
      return nullptr;
    std::optional<HookInfo> H = recognise(FD);
    if (!H) {
      NotHooks.insert(FD);
      return nullptr;
    }
    return &Hooks.emplace(FD, std::move(*H)).first->second;
  }
  /// Whether a hook is defined, named or called here; if not, the TU's
  /// bodies need not be walked for them.
  bool anyHook() {
    bool AnyHook = llvm::any_of(Check.NamedHooks, [&](const auto &Named) {
      return Ctx.Idents.find(Named.getKey()) != Ctx.Idents.end();
    });
    AnyHook = AnyHook || llvm::any_of(Check.tu().definitions().Functions,
                                      [&](const FunctionDecl *Def) { return hookFor(Def); });
    // Hooks defined elsewhere are known by their calls here.
    AnyHook = AnyHook || (Check.tu().projectIndex() && llvm::any_of(Check.tu().callSites().sites(),
                                                         [&](const CallSiteIndex::Site &S) {
                                                           return hookFor(S.Call->getDirectCallee());
                                                         }));
    return AnyHook;
  }

  // 2. Hot call sites, grouped by hook and caller, in source order.
  void groupHotCalls() {
    for (const CallSiteIndex::Site &S : Check.tu().callSites().sites()) {
      HookInfo *H = hookFor(S.Call->getDirectCallee());
      if (!H || !inMainFile(SM, S.Call->getBeginLoc()))
        continue;
      const FunctionDecl *Caller = S.Caller->getCanonicalDecl();
      if (S.Caller->hasAttr<ColdAttr>() || Hooks.count(Caller) ||
          S.Caller->getCanonicalDecl() == H->FD)
        continue;
      if (Heat.hasInlineRemarks() && !Heat.staysOutOfLine(Heat.stats(H->FD)))
        continue; // every call to the hook inlined: no call to gate
      if (!H->Named || Heat.hasProfile()) {
        bool Hot = Heat.callIsHot(S, H->FD, Check.Gate.Threshold);
        // A hook known from the index alone: what the TU defining its gate
        // decides too (Recognise), never more.
        if (H->IndexHeatOnly)
          Hot = Hot && indexScore(H->FD) >= Check.Gate.Threshold;
        if (!Hot)
          continue;
      }
      std::vector<CallerGroup> &G = Groups[H->FD];
      if (G.empty())
        HookOrder.push_back(H->FD);
      auto It = llvm::find_if(G, [&](const CallerGroup &C) { return C.Caller == Caller; });
      if (It == G.end()) {
        G.push_back({Caller, {}});
        It = std::prev(G.end());
        ++HooksPerCaller[Caller];
      }
      It->Calls.push_back(S.Call);
    }
    // Hooks defined here get their gate defined here, hot calls or not.
    for (const FunctionDecl *Def : Check.tu().definitions().Functions)
      if (inMainFile(SM, Def->getLocation()))
        if (HookInfo *H = hookFor(Def); H && !H->hasSwitch() && !Groups.count(H->FD))
          HookOrder.push_back(H->FD);
  }

  void run();
};

/// One hook's gate, and the calls it guards.
struct HookGateCheck::HookRun {
  Pass &TU;
  HookGateCheck &Check;
  ASTContext &Ctx;
  const SourceManager &SM;
  const LangOptions &LO;
  IncludeInserter &Inserter;
  const FunctionDecl *HookFD;
  HookInfo &H;
  std::string Name;
  std::vector<Pass::CallerGroup> &G;
  std::vector<FixItHint> GateFixes, HeaderFixes, DefFixes;
  const FunctionDecl *HeaderDecl = nullptr;
  std::optional<NoFix> NoGate; // why no gate can be made
  std::string GateTest, GateVar, NewGateNote;
  bool HeaderMode = false;
  // Conditions the gate's declaration is compiled under that no mirror
  // covers: a call compiled without them cannot see the gate.
  std::vector<ConditionLiteral> GateNeeds;
  SourceLocation GatePoint;
  // The hook's declaration is under an #if: elsewhere the hook may be a
  // macro, even an empty one (SQLite's sqlite3BeginBenignMalloc() with
  // SQLITE_UNTESTABLE), so a gated call must stay a statement with braces.
  bool Mirrored = false;
  // The configuration the hook's body was analysed in: the gate starts
  // off there and on wherever the body is compiled otherwise.
  std::vector<ConditionLiteral> OffWhen;
  // A switch in another file that a caller cannot see: tested through an
  // inline accessor next to the hook's declaration in its header, which
  // declares the globals it reads.
  std::string SwitchAccessor;
  bool SwitchAccessorIsMacro = false;
  std::vector<FixItHint> AccessorFixes;
  bool GateFixesUsed = false, AccessorUsed = false;

  HookRun(Pass &TU, const FunctionDecl *HookFD)
      : TU(TU), Check(TU.Check), Ctx(TU.Ctx), SM(TU.SM), LO(TU.LO), Inserter(TU.Inserter),
        HookFD(HookFD), H(TU.Hooks[HookFD]), Name(HookFD->getName().str()),
        G(TU.Groups[HookFD]) {}

  // 3. The gate: the hook's own switch, or a new flag declared next to it.
  void planGate() {
    if (H.Def)
      OffWhen = Check.tu().layout().takenWithin(H.Def->getBody()->getSourceRange(), SM);
    auto HeaderDeclOf = [&]() -> const FunctionDecl * {
      for (const FunctionDecl *R : HookFD->redecls())
        if (!inMainFile(SM, R->getLocation()) && !R->getLocation().isMacroID() &&
            !SM.isInSystemHeader(R->getLocation()) && !R->isThisDeclarationADefinition())
          return R;
      return nullptr;
    };
    if (H.hasSwitch()) {
      GateTest = H.GlobalGate ? sourceText(H.GlobalGate, Ctx) : H.RemoteSwitch;
      if (!H.RemoteSwitch.empty() &&
          H.SwitchDeclarations.size() == H.SwitchNames.size())
        if ((HeaderDecl = HeaderDeclOf())) {
          SourceLocation End = Lexer::findLocationAfterToken(
              SM.getExpansionLoc(HeaderDecl->getEndLoc()), tok::semi, SM, LO, false);
          std::string Acc = Name + "_switch_on";
          std::string Externs;
          // Under an #if (SQLite's `#ifdef SQLITE_UNTESTABLE # define
          // sqlite3FaultSim(X) SQLITE_OK #else int sqlite3FaultSim(int);`),
          // the switch may not exist where the hook is a macro (xTestCallback
          // is declared only without SQLITE_UNTESTABLE): every caller tests
          // a macro accessor, which is 0 in the other branches. A macro, so
          // that its names need only be visible where it is used (the
          // callers, checked there), not at the header's declaration.
          std::vector<std::pair<unsigned, unsigned>> Around =
              End.isValid() ? Check.tu().layout().enclosingInFile(End, SM)
                            : std::vector<std::pair<unsigned, unsigned>>{};
          SwitchAccessorIsMacro = !Around.empty();
          bool Possible = End.isValid();
          for (size_t I = 0; Possible && !SwitchAccessorIsMacro && I < H.SwitchNames.size(); ++I)
            if (!namedVisibleAt(H.SwitchNames[I], HeaderDecl->getBeginLoc(), Ctx, Check.tu().includes(),
                                Check.tu().preprocessor())) {
              Possible = !H.SwitchDeclarations[I].empty();
              Externs += H.SwitchDeclarations[I] + "\n";
            }
          if (Possible) {
            SwitchAccessor = Acc + "()";
            if (!namedDeclExists(Acc, Ctx) &&
                !Check.tu().preprocessor().getIdentifierInfo(Acc)->hasMacroDefinition()) {
              std::string Comment = "\n/* The switch " + Name + "() tests in " + H.SwitchFile +
                                    ", for its callers to test before the call. */\n";
              std::string Test = "__builtin_expect(!!(" + H.RemoteSwitch + "), 0)";
              if (SwitchAccessorIsMacro) {
                std::string Define = "#define " + Acc + "() ";
                AccessorFixes.push_back(
                    FixItHint::CreateInsertion(End, Comment + Define + Test));
                for (auto [Grp, Br] : Around)
                  llvm::append_range(AccessorFixes,
                                     mirrorInOtherBranches(Grp, Br, Define + "0\n",
                                                           Check.tu().layout(), SM));
              } else {
                std::string Unit = indentUnit(End, SM, Check.tu().layout());
                AccessorFixes.push_back(FixItHint::CreateInsertion(
                    End, Comment + Externs + "static inline int " + Acc + "(void)\n{\n" + Unit +
                             "return " + Test + ";\n}\n"));
              }
            }
          }
        }
      if (H.GlobalGate && H.Def)
        if (std::optional<NoFix> R =
                bodyVariesByConfiguration(H.Def->getBody(), Name, Check.tu().layout(), SM)) {
          R->Reason = NoFixReason::SwitchVariesByConfiguration;
          NoGate = *R;
        }
    } else {
      HeaderDecl = HeaderDeclOf();
      const FunctionDecl *FirstDecl = HookFD->getFirstDecl();
      SourceLocation Point = HeaderDecl ? HeaderDecl->getBeginLoc() : FirstDecl->getBeginLoc();
      // Every branch around the gate gets it (or an always-on stand-in), so
      // what the gate's text names must be there in each.
      std::vector<std::pair<unsigned, unsigned>> Around = Check.tu().layout().enclosingInFile(Point, SM);
      SourceLocation Outermost =
          Around.empty() ? Point : Check.tu().layout().group(Around.front().first).Branches.front().Hash;
      auto VisibleMacro = [&](StringRef Macro) {
        IdentifierInfo *II = Check.tu().preprocessor().getIdentifierInfo(Macro);
        const MacroInfo *MI = II ? Check.tu().preprocessor().getMacroInfo(II) : nullptr;
        return MI && isVisibleFrom(MI->getDefinitionLoc(), Point, SM, Check.tu().includes()) &&
               missingConditions(Check.tu().layout().macroConditions(Macro, MI->getDefinitionLoc(), SM),
                                 Check.tu().layout().conditionsAt(Outermost, SM))
                   .empty();
      };
      GateWriter W(Name, Check.Gate, Ctx, VisibleMacro("DECLARE_STATIC_KEY_FALSE"),
                   VisibleMacro("bool"), indentUnit(Point, SM, Check.tu().layout()));
      bool Declared = namedDeclExists(W.accessor(), Ctx) ||
                      (Check.Gate.Style == "static_key" && namedDeclExists(W.var(), Ctx));
      GateVar = W.var();
      auto Enabler = Check.Enablers.find(Name);
      bool NotAtFileScope = !HookFD->getDeclContext()->getRedeclContext()->isTranslationUnit() ||
                            (LO.CPlusPlus && HookFD->isInExternCContext());
      // The gate in every branch around it; the include in the include block.
      auto Surround = [&](SourceLocation At, std::vector<FixItHint> &Fixes) {
        GatePoint = At;
        Mirrored = !Check.tu().layout().enclosingInFile(At, SM).empty();
        for (auto [Grp, Br] : Check.tu().layout().enclosingInFile(At, SM))
          llvm::append_range(Fixes, mirrorInOtherBranches(Grp, Br, W.alwaysOn(inMainFile(SM, At)),
                                                          Check.tu().layout(), SM));
        std::vector<ConditionLiteral> InFile;
        for (auto [Grp, Br] : Check.tu().layout().enclosingInFile(At, SM))
          llvm::append_range(InFile, Check.tu().layout().group(Grp).Branches[Br].Needs);
        GateNeeds = missingConditions(Check.tu().layout().conditionsAt(At, SM), InFile);
        if (std::optional<std::string> Header = W.header())
          if (std::optional<FixItHint> Inc =
                  Inserter.insert(SM.getFileID(SM.getExpansionLoc(At)), *Header, true))
            Fixes.push_back(*Inc);
      };
      if (!OffWhen.empty() && Check.Gate.Style == "static_key") {
        NoGate = NoFix{NoFixReason::StaticKeyByConfiguration, HookFD->getLocation(), Name,
                       guardDirective(OffWhen)};
      } else if (!Declared && Enabler == Check.Enablers.end() && !Check.Gate.NewGateWithSetters) {
        NoGate = NoFix{NoFixReason::NoEnabler, HookFD->getLocation(), Name};
      } else if (NotAtFileScope && !Declared) {
        NoGate = NoFix{NoFixReason::NotAtFileScope, HookFD->getLocation()};
      } else if (HeaderDecl && HookFD->isExternallyVisible()) {
        SourceLocation End = Lexer::findLocationAfterToken(
            SM.getExpansionLoc(HeaderDecl->getEndLoc()), tok::semi, SM, LO, false);
        if (End.isInvalid()) {
          NoGate = NoFix{NoFixReason::HeaderNotEditable, HeaderDecl->getLocation()};
        } else {
          HeaderMode = true;
          std::string Header = fileNameAt(HeaderDecl->getLocation(), SM);
          if (!Declared) {
            HeaderFixes.push_back(FixItHint::CreateInsertion(
                End, "\n" + W.headerDecl(!Check.tu().layout().enclosingInFile(End, SM).empty()) + "\n"));
            Surround(End, HeaderFixes);
          } else {
            GatePoint = End;
            Mirrored = !Check.tu().layout().enclosingInFile(End, SM).empty();
          }
          if (H.Def && !definedVar(W.var(), Ctx)) {
            // Defined where the header declares it: no definition in a
            // configuration that has the always-on stand-in instead.
            std::vector<ConditionLiteral> InHeader;
            for (auto [Grp, Br] : Check.tu().layout().enclosingInFile(End, SM))
              llvm::append_range(InHeader, Check.tu().layout().group(Grp).Branches[Br].Needs);
            SourceLocation DefAt =
                afterInjectionMarker(H.Def->getEndLoc(), Ctx, Check.Gate.ErrorInjectionMacros);
            DefFixes.push_back(FixItHint::CreateInsertion(
                DefAt, "\n\n" + guarded(missingConditions(InHeader,
                                                          Check.tu().layout().conditionsAt(DefAt, SM)),
                                        W.definition(Header, OffWhen))));
          }
        }
      } else if (!HeaderDecl && inMainFile(SM, FirstDecl->getLocation())) {
        SourceLocation End =
            FirstDecl->isThisDeclarationADefinition()
                ? afterToken(FirstDecl->getEndLoc(), Ctx)
                : Lexer::findLocationAfterToken(SM.getExpansionLoc(FirstDecl->getEndLoc()),
                                                tok::semi, SM, LO, false);
        if (End.isInvalid() && !Declared) {
          NoGate = NoFix{NoFixReason::DeclNotEditable, HookFD->getLocation()};
        } else if (!Declared) {
          GateFixes.push_back(FixItHint::CreateInsertion(
              End, "\n\n" + W.local(!HookFD->isExternallyVisible(), OffWhen)));
          Surround(End, GateFixes);
        }
      } else if (!Declared) {
        NoGate = NoFix{NoFixReason::NoHeaderForGate, HookFD->getLocation()};
      }
      // In one file (no header) the accessor is the test: a static inline
      // function left unused there is a warning.
      GateTest = W.test(Mirrored || !HeaderMode);
      // A new gate starts off: the note says what must switch it on.
      if (!Declared)
        NewGateNote = "the new gate starts off: " +
                      (Enabler != Check.Enablers.end()
                           ? Enabler->second + " must call " + Name + "_gate_enable()"
                           : "nothing in the program calls " + Name +
                                 "_gate_enable() yet; whatever switches the hook on must") +
                      ", or the hook stays quiet";
    }
  }

  /// "'hook' is a hook: <why>", at \p Loc (the hook's first declaration
  /// when none).
  Message hookNote(SourceLocation Loc = {}) const {
    return {Loc.isValid() ? Loc : HookFD->getLocation(), "%0 is a hook: %1", {HookFD, H.Why}};
  }

  /// The gate's own findings (header declaration, definition); false when
  /// there is no hot call to gate.
  bool emitGate() {
    // The header part of the gate is one diagnostic at the header
    // declaration, the same in every file that needs it, so a run over
    // several files applies it once (clang-tidy merges equal diagnostics,
    // clang-apply-replacements equal replacements).
    bool HasHotCalls = !G.empty();
    if (!HasHotCalls && !HeaderMode)
      return false;
    if (!NoGate && !HeaderFixes.empty()) {
      Finding F;
      F.Kind = kind::HookGateDeclaration;
      F.Subject = Name;
      F.Warning = {HeaderDecl->getLocation(),
                   "hook %0 has no inline gate; declare one next to it, off by default, with "
                   "setters to switch the hook on at run time",
                   {HookFD}};
      F.Fixes = HeaderFixes;
      F.Notes.push_back({HasHotCalls ? G.front().Calls.front()->getBeginLoc()
                                     : H.Def->getLocation(),
                         HasHotCalls ? "the gate is for this hot call and the others in this file"
                                     : "the hook is defined here",
                         {}});
      Check.emit(std::move(F));
    }
    if (!NoGate && !DefFixes.empty()) {
      Finding F;
      F.Kind = kind::HookGateDefinition;
      F.Subject = Name;
      F.Warning = {H.Def->getLocation(),
                   "hook %0 is called out of line even while it does nothing; define its gate "
                   "here, next to it",
                   {HookFD}};
      F.Fixes = DefFixes;
      F.Notes.push_back(hookNote(H.Def->getLocation()));
      Check.emit(std::move(F));
    }
    return HasHotCalls;
  }

  // 4. What each call of one caller becomes, or why it gets no fix.
  struct CallPlan {
    const FunctionDecl *Caller = nullptr;
    std::vector<const CallExpr *> Calls;
    std::optional<NoFix> Refused;
    std::vector<FixItHint> Fixes;
    std::vector<std::pair<SourceLocation, std::string>> Notes;
    bool ThroughAccessor = false;
  };
  /// False when the caller has nothing left to gate.
  bool planCalls(const Pass::CallerGroup &CG, CallPlan &P) {
    std::vector<const CallExpr *> &Calls = P.Calls;
    std::optional<NoFix> &Refused = P.Refused;
    std::vector<FixItHint> &Fixes = P.Fixes;
    std::vector<std::pair<SourceLocation, std::string>> &Notes = P.Notes;
    bool &ThroughAccessor = P.ThroughAccessor;
    // Calls already behind the gate (a second run) are done.
    std::string GateKeyStore =
        H.hasSwitch() || Check.Gate.Style == "static_key" ? GateTest : GateVar;
    for (const CallExpr *C : CG.Calls)
      if (!alreadyGated(C, GateKeyStore, Ctx) &&
          (SwitchAccessor.empty() || !alreadyGated(C, SwitchAccessor, Ctx)))
        Calls.push_back(C);
    if (Calls.empty())
      return false;
    llvm::sort(Calls, [&](const CallExpr *A, const CallExpr *B) {
      return SM.isBeforeInTranslationUnit(A->getBeginLoc(), B->getBeginLoc());
    });
    const FunctionDecl *Caller = P.Caller = CG.Caller->getDefinition();
    if (!Caller)
      return false;
    Refused = NoGate;

    // What each call becomes, and whether every call allows it.
    struct Use {
      const CallExpr *Call;
      UseKind Kind;
      const Stmt *Parent;
    };
    std::vector<Use> Uses;
    for (const CallExpr *C : Calls) {
      const Stmt *Parent = nullptr;
      UseKind K = contextOf(C, Ctx, &Parent);
      Uses.push_back({C, K, Parent});
      if (Refused)
        continue;
      if (Lexer::makeFileCharRange(CharSourceRange::getTokenRange(C->getSourceRange()), SM, LO)
              .isInvalid()) {
        Refused = NoFix{NoFixReason::CallInMacro, C->getBeginLoc()};
      } else if (std::optional<SideEffect> E = argumentSideEffect(C, Check.ruleIndex(), Ctx)) {
        Refused = NoFix{NoFixReason::ArgumentSideEffect, E->Where->getBeginLoc(), "", "",
                        describe(*E, Ctx)};
      } else if (K != UseKind::Statement && !H.KnownDisabled) {
        Refused = NoFix{NoFixReason::UnknownDisabled, C->getBeginLoc()};
      }
    }
    if (!Refused && H.GlobalGate) {
      std::vector<const Stmt *> Code{H.GlobalGate};
      if (std::optional<InvisibleName> Missing = findInvisibleName(
              Code, {}, Calls.front()->getBeginLoc(), Ctx, Check.tu().preprocessor(), Check.tu().includes())) {
        Refused = NoFix{NoFixReason::SwitchNotVisible, Calls.front()->getBeginLoc(), "", "",
                        Missing->text()};
      } else if (std::optional<NoFix> R = conditionalDependency(
                     namedInCode(Code, {}, Ctx, Check.tu().preprocessor()), Calls.front()->getBeginLoc(),
                     Check.tu().layout(), SM)) {
        Refused = *R;
      }
    }
    // The test at these calls: the switch, or its accessor where the
    // switch is not visible.
    std::string CallTest = GateTest;
    if (!Refused && SwitchAccessorIsMacro) {
      CallTest = SwitchAccessor;
      ThroughAccessor = true;
    }
    if (!Refused && !H.RemoteSwitch.empty())
      for (const std::string &N : H.SwitchNames)
        if (!namedVisibleAt(N, Caller->getBeginLoc(), Ctx, Check.tu().includes(),
                            Check.tu().preprocessor())) {
          if (!SwitchAccessor.empty() && !SwitchAccessorIsMacro) {
            CallTest = SwitchAccessor;
            ThroughAccessor = true;
            break;
          }
          Refused = NoFix{NoFixReason::SwitchNotVisible, Calls.front()->getBeginLoc(), "", "",
                          "'" + N + "'"};
          break;
        }
    // Each call must be compiled only where the gate is declared (or
    // mirrored): conditions from another file no mirror covers.
    for (const CallExpr *C : Calls) {
      std::vector<ConditionLiteral> Missing =
          missingConditions(GateNeeds, Check.tu().layout().conditionsAt(C->getBeginLoc(), SM));
      if (Refused || Missing.empty())
        continue;
      Refused = NoFix{NoFixReason::ConditionElsewhere, C->getBeginLoc(), Name,
                      guardDirective(Missing)};
    }

    Spelling Sp = spellingAt(Caller->getBeginLoc(), Check.rules(), LO, Check.tu().preprocessor(), SM,
                             Check.tu().includes(), Check.tu().layout());
    std::string Unit = indentUnit(Caller->getLocation(), SM, Check.tu().layout());
    // The accessor hints itself; a global switch is hinted here.
    auto Unlikely = [&](StringRef Cond) -> std::string {
      return H.hasSwitch() && !ThroughAccessor ? Sp.unlikelyExpr(Cond, /*Boolean=*/false)
                                               : Cond.str();
    };
    auto ReplaceCall = [&](const CallExpr *C, StringRef Text) {
      if (std::optional<FixItHint> F = replaceCode(C, Text, Ctx))
        Fixes.push_back(*F);
    };
    auto Comment = [&](const CallExpr *C) -> std::string {
      std::string T = sourceText(C, Ctx);
      if (StringRef(T).contains("*/") || StringRef(T).contains('\n'))
        return "";
      return " /* gated above: " + T + " */";
    };

    std::optional<NoFixReason> CloneWhy;
    if (!Refused && Check.Gate.CloneCallers) {
      CloneWhy = TU.HooksPerCaller[CG.Caller] > 1
                     ? NoFixReason::CloneSeveralHooks
                     : cloneRefusal(Caller, Ctx, Check.Gate.CloneMaxLines);
      if (!CloneWhy && Calls.size() != CG.Calls.size())
        CloneWhy = NoFixReason::ClonePartlyGated;
    }

    if (!Refused && Check.Gate.CloneCallers && !CloneWhy) {
      // Shape f: test the gate on entry and tail-call a cold clone of the
      // caller, which calls the hook; the caller's own calls become the
      // value the hook returns while it does nothing.
      const auto *Body = cast<CompoundStmt>(Caller->getBody());
      std::string CloneName = Caller->getName().str() + "_hooked";
      SourceLocation Begin = SM.getExpansionLoc(Caller->getBeginLoc());
      SourceLocation BodyBegin = SM.getExpansionLoc(Body->getBeginLoc());
      std::optional<std::string> CloneSig =
          cloneSignature(Caller, CloneName, Sp.ColdAttribute, Ctx);
      std::string BodyText = sourceText(Body, Ctx);
      if (BodyText.empty() || !CloneSig) {
        Refused = NoFix{NoFixReason::BodyNotCopyable, Caller->getLocation()};
      } else {
        Fixes.push_back(FixItHint::CreateInsertion(Begin, *CloneSig + "\n" + BodyText + "\n\n"));
        // The entry test: after leading declarations that a second
        // evaluation (in the clone) cannot tell apart.
        const Stmt *First = nullptr;
        for (const Stmt *S : Body->body()) {
          const auto *DS = dyn_cast<DeclStmt>(S);
          bool PureDecl = DS && llvm::all_of(DS->decls(), [&](const Decl *D) {
            const auto *VD = dyn_cast<VarDecl>(D);
            return VD && (!VD->getInit() ||
                          !findSideEffect(VD->getInit(),
                                          SideEffectOptions::forRepeatedEvaluation(),
                                          Check.ruleIndex(), Ctx));
          });
          if (!PureDecl) {
            First = S;
            break;
          }
        }
        std::string Args;
        for (const ParmVarDecl *P : Caller->parameters())
          Args += (Args.empty() ? "" : ", ") + P->getName().str();
        std::string CallClone = CloneName + "(" + Args + ")";
        SourceLocation At = First ? SM.getExpansionLoc(First->getBeginLoc())
                                  : SM.getExpansionLoc(Body->getRBracLoc());
        std::string Ind = First ? indentationAt(At, SM) : indentationAt(BodyBegin, SM) + Unit;
        if (Ind.empty())
          Ind = Unit;
        std::string If = H.hasSwitch() && Sp.Unlikely == Spelling::UnlikelyKind::CxxAttribute
                             ? Sp.ifUnlikely(CallTest)
                             : "if (" + Unlikely(CallTest) + ")";
        std::string Entry;
        if (Caller->getReturnType()->isVoidType())
          Entry = If + " {\n" + Ind + Unit + CallClone + ";\n" + Ind + Unit + "return;\n" + Ind +
                  "}\n";
        else
          Entry = If + "\n" + Ind + Unit + "return " + CallClone + ";\n";
        Fixes.push_back(FixItHint::CreateInsertion(At, First ? Entry + Ind : Entry));
        for (const Use &U : Uses) {
          std::string Off = U.Kind == UseKind::Statement ? "(void)0" : H.Disabled;
          ReplaceCall(U.Call, Off + Comment(U.Call));
        }
        Notes.push_back({Caller->getLocation(),
                         "the gate is tested on entry to '" + Caller->getName().str() +
                             "', which tail-calls a cold copy of itself, '" + CloneName +
                             "', while the hook is on, so its fast path makes no call"});
      }
    } else if (!Refused) {
      // Shape a: the gate at each call.
      for (const Use &U : Uses) {
        std::string Call = sourceText(U.Call, Ctx);
        std::string Test = Unlikely(CallTest);
        std::string Text;
        if (U.Kind == UseKind::Statement) {
          bool InBlock = U.Parent && isa<CompoundStmt>(U.Parent);
          const Stmt *Whole = U.Call;
          if (const auto *Cast = dyn_cast_or_null<CStyleCastExpr>(U.Parent))
            Whole = Cast;
          SourceLocation Semi = Lexer::findLocationAfterToken(
              SM.getExpansionLoc(Whole->getEndLoc()), tok::semi, SM, LO, false);
          std::string Ind = indentationAt(Whole->getBeginLoc(), SM);
          if (Mirrored && Semi.isValid()) {
            // "if (gate) ;" would be -Wempty-body where the hook is an
            // empty macro; outside a block, braces keep an else in place.
            std::string Stmt = sourceText(Whole, Ctx) + ";";
            Fixes.push_back(FixItHint::CreateReplacement(
                CharSourceRange::getCharRange(SM.getExpansionLoc(Whole->getBeginLoc()), Semi),
                InBlock ? "if (" + Test + ") {\n" + Ind + Unit + Stmt + "\n" + Ind + "}"
                        : "{ if (" + Test + ") { " + Stmt + " } }"));
          } else if (Semi.isInvalid() || !InBlock) {
            // (gate ? call : 0) keeps it one expression wherever it is.
            Text = U.Call->getType()->isVoidType()
                       ? "(" + Test + " ? " + Call + " : (void)0)"
                       : "(void)(" + Test + " && (" + Call + ", 1))";
            ReplaceCall(U.Call, Text);
          } else {
            Fixes.push_back(FixItHint::CreateReplacement(
                CharSourceRange::getCharRange(SM.getExpansionLoc(Whole->getBeginLoc()), Semi),
                "if (" + Test + ")\n" + Ind + Unit + sourceText(Whole, Ctx) + ";"));
          }
          continue;
        }
        bool ZeroOff = H.Disabled == "0" || H.Disabled == "false";
        bool InParens = false;
        bool Truth = usedAsTruth(U.Call, Ctx, InParens);
        if (U.Kind == UseKind::Condition && ZeroOff)
          Text = Test + " && " + Call;
        else if (ZeroOff && (Truth || U.Call->getType()->isBooleanType()))
          Text = InParens ? Test + " && " + Call : "(" + Test + " && " + Call + ")";
        else
          Text = "(" + Test + " ? " + Call + " : " + H.Disabled + ")";
        ReplaceCall(U.Call, Text);
      }
      if (Check.Gate.CloneCallers)
        Notes.push_back({Caller->getLocation(),
                         "the call is gated in place: " +
                             NoFix{*CloneWhy, {}, "", "", "", Check.Gate.CloneMaxLines}.text() +
                             ", so '" +
                             Caller->getName().str() + "' is not cloned"});
    }

    if (!NewGateNote.empty())
      Notes.push_back({HookFD->getLocation(), NewGateNote});
    return true;
  }

  // 5. The finding at the caller's first call, its notes and fixes.
  void emitCalls(CallPlan &P) {
    Finding F;
    F.Kind = kind::HookCall;
    F.Subject = Name;
    F.Warning = {P.Calls.front()->getBeginLoc(),
                 "hot call to hook %0, which does nothing unless switched on; test an inline "
                 "gate first so the disabled case makes no call",
                 {HookFD}};
    if (!P.Refused) {
      if (!GateFixesUsed)
        F.Fixes = GateFixes;
      llvm::append_range(F.Fixes, P.Fixes);
      GateFixesUsed = true;
    }
    F.Notes.push_back(hookNote());
    CallSiteStats Heat = TU.Heat.stats(HookFD);
    if (TU.Heat.hasProfile() || TU.Heat.hasInlineRemarks())
      F.Notes.push_back(Check.heatNote(HookFD, Heat));
    if (TU.Heat.hasProfile())
      F.ProfileShare = Heat.ProfilePercent;
    if (H.GlobalGate)
      F.Notes.push_back(
          {H.GlobalGate->getBeginLoc(), "its gate is this switch, tested at the call site", {}});
    else if (!H.RemoteSwitch.empty())
      F.Notes.push_back({HookFD->getLocation(),
                         "its gate is the switch '%0' it tests in %1, tested at the call "
                         "site%select{| through %3}2",
                         {H.RemoteSwitch, H.SwitchFile, unsigned(P.ThroughAccessor),
                          SwitchAccessor}});
    for (const CallExpr *C : llvm::ArrayRef(P.Calls).drop_front())
      F.Notes.push_back({C->getBeginLoc(), "another call to %0 in '%1', gated by the same fix",
                         {HookFD, P.Caller->getName().str()}});
    F.Refused = P.Refused;
    for (const auto &[Loc, Text] : P.Notes)
      F.FixNotes.push_back({Loc, "%0", {Text}});
    // A hook whose body the index describes: a patch to that body changes
    // the finding.
    if (H.Indexed)
      for (const index::Definition &D : H.Indexed->Definitions)
        F.Evidence.push_back({D.Loc.File, D.Loc.Line, D.EndLine});
    Check.emit(std::move(F));
    if (P.Refused || !P.ThroughAccessor || AccessorUsed)
      return;
    // One finding at the header, the same from every caller's TU.
    AccessorUsed = true;
    if (AccessorFixes.empty())
      return;
    Finding A;
    A.Kind = kind::HookSwitchAccessor;
    A.Subject = Name;
    A.Warning = {HeaderDecl->getLocation(),
                 SwitchAccessorIsMacro
                     ? "hook %0 is declared under an #if and its switch may not exist "
                       "elsewhere; define an accessor macro for it next to the hook, 0 in the "
                       "other branches"
                     : "hook %0 tests a switch its callers cannot see; declare an inline "
                       "accessor for it next to the hook",
                 {HookFD}};
    A.Fixes = AccessorFixes;
    Check.emit(std::move(A));
  }
};

void HookGateCheck::Pass::run() {
  if (Check.explainRequested())
    Check.explainHooks(Ctx, [&](const FunctionDecl *FD) { return hookFor(FD) != nullptr; });
  if (!anyHook())
    return;
  groupHotCalls();
  for (const FunctionDecl *HookFD : HookOrder) {
    HookRun R(*this, HookFD);
    R.planGate();
    if (!R.emitGate())
      continue;
    for (const CallerGroup &CG : R.G) {
      HookRun::CallPlan P;
      if (R.planCalls(CG, P))
        R.emitCalls(P);
    }
  }
}

void HookGateCheck::run(TUContext &TU) { Pass(*this, TU.ast()).run(); }

void HookGateCheck::explainHooks(ASTContext &Ctx,
                                 llvm::function_ref<bool(const FunctionDecl *)> IsHook) {
  // The first declaration of the name outside system headers, and whether
  // it is a hook; why not, in the order the check decides.
  const SourceManager &SM = Ctx.getSourceManager();
  for (const Decl *D :
       Ctx.getTranslationUnitDecl()->lookup(DeclarationName(&Ctx.Idents.get(explainName())))) {
    const auto *FD = dyn_cast<FunctionDecl>(D);
    if (!FD || SM.isInSystemHeader(FD->getLocation()))
      continue;
    const FunctionDecl *Def = FD->getDefinition();
    SourceLocation Loc = (Def ? Def : FD)->getLocation();
    explainBegin(Loc, "a function '" + explainName().str() +
                          "'; the steps of hotpath-hook-gate follow");
    if (IsHook(FD)) {
      CallSiteStats S = heat().stats(FD);
      explainStep(Loc, "a hook; each call site is gated when the hook's heat and its "
                       "caller's reach HookThreshold " +
                           std::to_string(Gate.Threshold) +
                           " and the call is in a loop or a macro-generated accessor, or "
                           "its caller is called so (the hook's: " +
                           (S.describe().empty() ? "no call site here" : S.describe()) + ")");
      return;
    }
    std::string Why;
    NotHook Rejected;
    if (FD->isInlined())
      Why = "it is inline: a call to it costs no call";
    else if (Def && !recogniseHookBody(Def, Ctx, ruleIndex(), &Rejected) &&
             Rejected.Reason != NotHookReason::None)
      Why = notHookText(Rejected.Reason).str() + " ('" + sourceText(Rejected.Condition, Ctx) + "')";
    else if (!Def)
      Why = "its body is not in this translation unit and no rule set or HookFunctions "
            "option names it";
    else if (outOfLineMarker(Def, ErrorInjected).empty())
      Why = "nothing keeps it out of line on purpose (noinline, used, weak, an "
            "error-injection macro): the compiler may inline it, and then it costs nothing";
    else
      Why = "its body does something in this configuration (neither empty, nor a constant "
            "return, nor acting only while a global is set)";
    explainStep(Loc, "not a hook: " + Why);
    return;
  }
}

} // namespace hotpath
