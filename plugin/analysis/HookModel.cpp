//===--- HookModel.cpp - what a hook is, for the checks and the index -----===//

#include "analysis/HookModel.h"
#include "source/IncludeGraph.h"
#include "source/SourceText.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"
#include <functional>

using namespace clang;

namespace hotpath {

namespace {

/// An unmarked function that takes nothing and only returns a constant is a
/// getter, not a hook: nothing keeps it out of line to be replaced, and no
/// argument could make it act (btrfs-progs' btrfs_get_num_csums(), the size
/// of a table, called hot from other files).
bool isConstantGetter(const Hook &H, const FunctionDecl *FD, bool Marked) {
  return !Marked && H.ConstantOnly && FD->getNumParams() == 0;
}

/// Named by the rule set or the HookFunctions option, with the value it
/// returns while it does nothing ("" when unknown or void).
Hook namedHook(const FunctionDecl *FD, llvm::StringRef Disabled) {
  Hook H;
  H.Named = true;
  H.KnownDisabled = !Disabled.empty() || FD->getReturnType()->isVoidType();
  H.Disabled = Disabled.str();
  H.Why = "the rule set names it as a hook";
  if (!Disabled.empty())
    H.Why += " that returns " + Disabled.str() + " while it does nothing";
  return H;
}

/// Defined here: a hook's body (empty, a constant return, acting only while
/// a global is set), kept out of line on purpose or called hot from other
/// files, where a compiler without LTO cannot inline it.
std::optional<Hook> definedHere(const FunctionDecl *FD, const FunctionDecl *Def,
                                const ASTContext &Ctx, const HookSources &Sources) {
  std::string Marker = outOfLineMarker(Def, Sources.ErrorInjected);
  std::optional<std::string> Elsewhere;
  if (Marker.empty() && !(Elsewhere = Sources.HotCallsElsewhere(FD)))
    return std::nullopt;
  std::optional<HookBody> B = recogniseHookBody(Def, Ctx, Sources.Rules);
  if (!B)
    return std::nullopt;
  // A weak default does nothing only where no other definition replaces it
  // at link time, and what is linked is not what a compile database (a
  // subtree's, say) shows: mm/maccess.c's copy_from_kernel_nofault_allowed(),
  // which arch/x86/mm/maccess.c overrides. Only a name in the rules makes
  // one a hook.
  if (isWeak(Def))
    return std::nullopt;
  Hook H;
  H.KnownDisabled = B->KnownDisabled;
  H.Disabled = B->Disabled;
  H.Why = B->Why;
  H.GlobalGate = B->Switch;
  H.ConstantOnly = B->Shape == HookBody::Kind::Constant;
  if (isConstantGetter(H, FD, !Marker.empty()))
    return std::nullopt;
  if (Marker.empty()) {
    H.IndexHeatOnly = true;
    H.Why += " in this configuration, and calls from other files (" + *Elsewhere +
             " in the project index) cannot inline it without LTO";
  } else {
    H.Why += " in this configuration, and it is kept out of line (" + Marker + ")";
  }
  return H;
}

/// Defined in another file: the shape the project index recorded.
std::optional<Hook> definedElsewhere(const FunctionDecl *FD, const RemoteHook &R) {
  const PortableHook &Shape = R.Shape;
  if (Shape.Marker == "weak") // as definedHere: the link may replace it
    return std::nullopt;
  Hook H;
  H.DefinedElsewhere = R.Definitions;
  H.KnownDisabled = true;
  H.Disabled = Shape.Disabled;
  H.RemoteSwitch = Shape.Switch;
  H.SwitchNames = Shape.Globals;
  H.SwitchDeclarations = Shape.Declarations;
  H.SwitchFile = R.File;
  switch (Shape.Shape) {
  case HookBody::Kind::Empty:
    H.Why = "its body in " + R.File + " is empty";
    break;
  case HookBody::Kind::Constant:
    H.Why = "its body in " + R.File + " only returns " + Shape.Disabled;
    H.ConstantOnly = true;
    break;
  case HookBody::Kind::Switch:
    H.Why = "in " + R.File + " it does something only while '" + Shape.Switch + "' holds";
    break;
  }
  H.Why += " (project index)";
  if (isConstantGetter(H, FD, !Shape.Marker.empty()))
    return std::nullopt;
  if (!Shape.Marker.empty())
    H.Why += ", and it is kept out of line (" + Shape.Marker + ")";
  else
    H.IndexHeatOnly = true;
  return H;
}

/// True when a header that knows only the language's own types can
/// declare a variable of type \p T: scalars, pointers to them and to
/// functions of them (a callback), not tags or typedefs it may not see.
bool headerKnowsType(QualType T) {
  if (T.isNull())
    return false;
  if (isa<TypedefType>(T.getTypePtr()))
    return false;
  T = T.getCanonicalType();
  if (T->isBuiltinType())
    return true;
  if (const auto *P = T->getAs<PointerType>())
    return P->getPointeeType()->isVoidType() || headerKnowsType(P->getPointeeType());
  if (const auto *F = T->getAs<FunctionProtoType>())
    return (F->getReturnType()->isVoidType() || headerKnowsType(F->getReturnType())) &&
           llvm::all_of(F->getParamTypes(), headerKnowsType);
  return false;
}

/// A declaration of each global \p Switch reads, for a header (see
/// PortableHook::Declarations), in the order switchNames gives.
std::vector<std::string> switchDeclarations(const Expr *Switch, const ASTContext &Ctx) {
  std::vector<std::string> Names, Out;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S)
      return;
    if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
      if (isa<VarDecl, EnumConstantDecl>(Ref->getDecl())) {
        std::string N = Ref->getDecl()->getQualifiedNameAsString();
        if (!llvm::is_contained(Names, N)) {
          Names.push_back(N);
          const auto *VD = dyn_cast<VarDecl>(Ref->getDecl());
          std::string D;
          if (VD && VD->hasExternalFormalLinkage() && VD->hasGlobalStorage() &&
              !Ctx.getLangOpts().CPlusPlus && headerKnowsType(VD->getType())) {
            llvm::raw_string_ostream OS(D);
            OS << "extern ";
            VD->getType().print(OS, Ctx.getPrintingPolicy(), VD->getName());
            OS << ";";
          }
          Out.push_back(D);
        }
      }
    for (const Stmt *C : S->children())
      Walk(C);
  };
  Walk(Switch);
  // The macros switchNames lists after the variables: no declaration.
  if (std::optional<std::vector<std::string>> All = switchNames(Switch, Ctx))
    Out.resize(All->size());
  return Out;
}

} // namespace

bool isWeak(const FunctionDecl *FD) {
  return llvm::any_of(FD->redecls(),
                      [](const FunctionDecl *R) { return R->hasAttr<WeakAttr>(); });
}

bool isHookCandidate(const FunctionDecl *FD) {
  return !isa<CXXMethodDecl>(FD) && FD->getIdentifier() && !FD->isInlined();
}

std::optional<Hook> recogniseHook(const FunctionDecl *FD, const ASTContext &Ctx,
                                  const HookSources &Sources) {
  const SourceManager &SM = Ctx.getSourceManager();
  if (!isHookCandidate(FD) || FD->isInvalidDecl() || SM.isInSystemHeader(FD->getLocation()))
    return std::nullopt;
  std::optional<Hook> H;
  const FunctionDecl *Def = FD->getDefinition();
  if (auto It = Sources.Named.find(FD->getName()); It != Sources.Named.end())
    H = namedHook(FD, It->second);
  else if (Def && !Def->isInlined())
    H = definedHere(FD, Def, Ctx, Sources);
  else if (std::optional<RemoteHook> R = Def ? std::nullopt : Sources.DefinedElsewhere(FD))
    H = definedElsewhere(FD, *R);
  if (!H)
    return std::nullopt;
  H->FD = FD;
  if (Def && SM.isInMainFile(SM.getExpansionLoc(Def->getLocation())))
    H->Def = Def;
  return H;
}

std::optional<PortableHook> portableHook(const FunctionDecl *Def, const ASTContext &Ctx) {
  // No rule: a switch reads only globals.
  static const RuleSet NoRules;
  static const RuleIndex NoRuleIndex(NoRules);
  if (!isHookCandidate(Def))
    return std::nullopt;
  std::optional<HookBody> B = recogniseHookBody(Def, Ctx, NoRuleIndex);
  if (!B || !B->KnownDisabled)
    return std::nullopt;
  PortableHook H;
  H.Shape = B->Shape;
  H.Disabled = B->Disabled;
  if (B->Switch) {
    std::optional<std::vector<std::string>> Names = switchNames(B->Switch, Ctx);
    H.Switch = sourceText(B->Switch, Ctx);
    if (!Names || H.Switch.empty())
      return std::nullopt;
    H.Globals = std::move(*Names);
    H.Declarations = switchDeclarations(B->Switch, Ctx);
  }
  static const llvm::StringSet<> NoErrorInjection;
  H.Marker = outOfLineMarker(Def, NoErrorInjection);
  return H;
}

bool switchNameVisibleAt(StringRef Name, SourceLocation Point, ASTContext &Ctx,
                         const Preprocessor &PP, const IncludeGraph &Includes) {
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

std::string whyNotAHook(const FunctionDecl *FD, const ASTContext &Ctx, const RuleIndex &Rules,
                        const llvm::StringSet<> &ErrorInjected, const CallsElsewhere &Elsewhere) {
  const FunctionDecl *Def = FD->getDefinition();
  NotHook Rejected;
  if (FD->isInlined())
    return "it is inline: a call to it costs no call";
  const char *DoesSomething = "its body does something in this configuration (neither empty, "
                              "nor a constant return, nor acting only while a global is set)";
  if (Def && !recogniseHookBody(Def, Ctx, Rules, &Rejected))
    return Rejected.Reason != NotHookReason::None
               ? notHookText(Rejected.Reason).str() + " ('" +
                     sourceText(Rejected.Condition, Ctx) + "')"
               : std::string(DoesSomething);
  if (!Def)
    return "its body is not in this translation unit and no rule set or HookFunctions "
           "option names it";
  if (isWeak(Def))
    return "it is a weak default, which a non-weak definition in another file replaces at "
           "link time; whether one is linked is more than a compile database shows (a "
           "subtree's, an architecture's override outside it), so only a rule set or "
           "HookFunctions naming it makes it a hook";
  if (outOfLineMarker(Def, ErrorInjected).empty()) {
    // Inlined only where its body is seen: in this file, not from others.
    std::string Here = "nothing keeps it out of line on purpose (noinline, used, weak, an "
                       "error-injection macro), so calls in this file may be inlined";
    if (!FD->isExternallyVisible())
      return Here + ", and no other file can call it";
    if (!Elsewhere.IndexGiven)
      return Here + "; calls from other files cannot be without LTO, but without a project "
                    "index (ProjectIndex) none is known";
    if (!Elsewhere.Sites)
      return Here + "; the project index holds no call from another file";
    return Here + "; calls from other files (" + std::to_string(Elsewhere.Sites) + ", in " +
           Elsewhere.FirstFile + " first) cannot be without LTO, but none of them is hot";
  }
  return DoesSomething;
}

} // namespace hotpath
