//===--- HookGatePlanner.cpp - hotpath-hook-gate's gate plan --------------===//

#include "checks/HookGatePlanner.h"
#include "analysis/Visibility.h"
#include "rewrite/Edits.h"
#include "source/SourceText.h"
#include "source/Tokens.h"
#include "clang/Lex/Preprocessor.h"

using namespace clang;

namespace hotpath {

namespace {

bool inMainFile(const SourceManager &SM, SourceLocation L) {
  return SM.isInMainFile(SM.getExpansionLoc(L));
}

bool namedDeclExists(StringRef Name, ASTContext &Ctx) {
  return !Ctx.getTranslationUnitDecl()
              ->lookup(DeclarationName(&Ctx.Idents.get(Name)))
              .empty();
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

/// The hook's declaration in a header the project owns, if any.
const FunctionDecl *headerDeclaration(const FunctionDecl *FD, const SourceManager &SM) {
  for (const FunctionDecl *R : FD->redecls())
    if (!inMainFile(SM, R->getLocation()) && !R->getLocation().isMacroID() &&
        !SM.isInSystemHeader(R->getLocation()) && !R->isThisDeclarationADefinition())
      return R;
  return nullptr;
}

/// Just after the ';' that ends the declaration \p D; invalid when there is
/// none to edit.
SourceLocation afterDeclaration(const FunctionDecl *D, const SourceManager &SM,
                                const LangOptions &LO) {
  return afterNextToken(tok::semi, SM.getExpansionLoc(D->getEndLoc()), SM, LO);
}

/// The conditions the branches around \p At in its file need.
std::vector<ConditionLiteral> conditionsInFile(SourceLocation At, const SourceLayout &Layout,
                                               const SourceManager &SM) {
  std::vector<ConditionLiteral> InFile;
  for (auto [Grp, Br] : Layout.enclosingInFile(At, SM))
    llvm::append_range(InFile, Layout.group(Grp).Branches[Br].Needs);
  return InFile;
}

//===----------------------------------------------------------------------===//
// The hook's own switch.
//===----------------------------------------------------------------------===//

/// The accessor of a switch in another file, next to the hook's header
/// declaration. Under an #if (SQLite's `#ifdef SQLITE_UNTESTABLE # define
/// sqlite3FaultSim(X) SQLITE_OK #else int sqlite3FaultSim(int);`), the
/// switch may not exist where the hook is a macro (xTestCallback is
/// declared only without SQLITE_UNTESTABLE): every caller tests a macro
/// accessor, which is 0 in the other branches. A macro, so that its names
/// need only be visible where it is used (the callers, checked there), not
/// at the header's declaration.
void planSwitchAccessor(const HookGateInputs &In, const Hook &H, GatePlan &P) {
  const SourceManager &SM = In.TU.sourceManager();
  SourceLocation End = afterDeclaration(P.HeaderDecl, SM, In.TU.ast().getLangOpts());
  P.SwitchAccessorIsMacro = End.isValid() && !In.TU.layout().enclosingInFile(End, SM).empty();
  bool Possible = End.isValid();
  std::vector<std::string> Externs;
  for (size_t I = 0; Possible && !P.SwitchAccessorIsMacro && I < H.SwitchNames.size(); ++I)
    if (!switchNameVisibleAt(H.SwitchNames[I], P.HeaderDecl->getBeginLoc(), In.TU.ast(),
                             In.TU.preprocessor(), In.TU.includes())) {
      Possible = !H.SwitchDeclarations[I].empty();
      Externs.push_back(H.SwitchDeclarations[I]);
    }
  if (!Possible)
    return;
  P.SwitchAccessor = switchAccessorTest(P.Name);
  std::string Name = switchAccessorName(P.Name);
  if (!namedDeclExists(Name, In.TU.ast()) &&
      !In.TU.preprocessor().getIdentifierInfo(Name)->hasMacroDefinition())
    P.NewAccessor = SwitchAccessorSpec{P.Name,       H.RemoteSwitch,          H.SwitchFile, End,
                                       P.SwitchAccessorIsMacro, std::move(Externs)};
}

void planSwitch(const HookGateInputs &In, const Hook &H, GatePlan &P) {
  const SourceManager &SM = In.TU.sourceManager();
  P.Test = H.GlobalGate ? sourceText(H.GlobalGate, In.TU.ast()) : H.RemoteSwitch;
  P.GatedMark = P.Test;
  if (!H.RemoteSwitch.empty() && H.SwitchDeclarations.size() == H.SwitchNames.size())
    if ((P.HeaderDecl = headerDeclaration(H.FD, SM)))
      planSwitchAccessor(In, H, P);
  if (H.GlobalGate && H.Def)
    if (std::optional<NoFix> R =
            bodyVariesByConfiguration(H.Def->getBody(), P.Name, In.TU.layout(), SM)) {
      R->Reason = NoFixReason::SwitchVariesByConfiguration;
      P.Refused = *R;
    }
}

//===----------------------------------------------------------------------===//
// A new gate.
//===----------------------------------------------------------------------===//

/// How the gate is spelled where it goes (\p Point): every branch around it
/// gets it (or an always-on stand-in), so what its text names must be
/// there in each.
GateSpec gateSpec(const HookGateInputs &In, const GatePlan &P, SourceLocation Point) {
  const SourceManager &SM = In.TU.sourceManager();
  const SourceLayout &Layout = In.TU.layout();
  const Preprocessor &PP = In.TU.preprocessor();
  std::vector<std::pair<unsigned, unsigned>> Around = Layout.enclosingInFile(Point, SM);
  SourceLocation Outermost =
      Around.empty() ? Point : Layout.group(Around.front().first).Branches.front().Hash;
  auto VisibleMacro = [&](StringRef Macro) {
    IdentifierInfo *II = PP.getIdentifierInfo(Macro);
    const MacroInfo *MI = II ? PP.getMacroInfo(II) : nullptr;
    return MI && isVisibleFrom(MI->getDefinitionLoc(), Point, SM, In.TU.includes()) &&
           missingConditions(Layout.macroConditions(Macro, MI->getDefinitionLoc(), SM),
                             Layout.conditionsAt(Outermost, SM))
               .empty();
  };
  const LangOptions &LO = In.TU.ast().getLangOpts();
  const RuleSet::HookGateRules &G = In.Settings.Gate;
  return GateSpec{P.Name,
                  G.Style,
                  G.Visibility,
                  bool(LO.CPlusPlus),
                  bool(LO.CPlusPlus20),
                  VisibleMacro("DECLARE_STATIC_KEY_FALSE"),
                  VisibleMacro("bool"),
                  indentUnit(Point, SM, Layout)};
}

/// Next to the hook's declaration in its header, defined after its body
/// (and after the error-injection marker the kernel writes right below it,
/// ALLOW_ERROR_INJECTION(fn, ERRNO);, which the definition must not
/// separate from it).
void placeInHeader(const HookGateInputs &In, const Hook &H, const GateWriter &W, bool Declared,
                   GatePlan &P) {
  const SourceManager &SM = In.TU.sourceManager();
  const SourceLayout &Layout = In.TU.layout();
  const LangOptions &LO = In.TU.ast().getLangOpts();
  SourceLocation End = afterDeclaration(P.HeaderDecl, SM, LO);
  if (End.isInvalid()) {
    P.Refused = NoFix{NoFixReason::HeaderNotEditable, P.HeaderDecl->getLocation()};
    return;
  }
  P.HeaderMode = true;
  P.Mirrored = !Layout.enclosingInFile(End, SM).empty();
  GatePlacement &Where = P.Placement;
  Where.Where = GatePlacement::Mode::Header;
  Where.HeaderName = fileNameAt(P.HeaderDecl->getLocation(), SM);
  if (!Declared) {
    Where.DeclAt = End;
    Where.Mirrored = P.Mirrored;
    P.GateNeeds = missingConditions(Layout.conditionsAt(End, SM),
                                    conditionsInFile(End, Layout, SM));
  }
  if (H.Def && !definedVar(W.var(), In.TU.ast())) {
    // Defined where the header declares it: no definition in a
    // configuration that has the always-on stand-in instead.
    Where.DefAt =
        afterStatementMacro(H.Def->getEndLoc(), In.Settings.Gate.ErrorInjectionMacros, SM, LO);
    Where.DefGuard = missingConditions(conditionsInFile(End, Layout, SM),
                                       Layout.conditionsAt(Where.DefAt, SM));
  }
}

/// All in this file, after the hook's first declaration.
void placeInFile(const HookGateInputs &In, const Hook &H, bool Declared, GatePlan &P) {
  const SourceManager &SM = In.TU.sourceManager();
  const SourceLayout &Layout = In.TU.layout();
  const LangOptions &LO = In.TU.ast().getLangOpts();
  const FunctionDecl *First = H.FD->getFirstDecl();
  SourceLocation End = First->isThisDeclarationADefinition()
                           ? afterToken(First->getEndLoc(), SM, LO)
                           : afterDeclaration(First, SM, LO);
  if (End.isInvalid() && !Declared) {
    P.Refused = NoFix{NoFixReason::DeclNotEditable, H.FD->getLocation()};
    return;
  }
  if (Declared)
    return;
  P.Mirrored = !Layout.enclosingInFile(End, SM).empty();
  P.Placement.Where = GatePlacement::Mode::OneFile;
  P.Placement.DeclAt = End;
  P.Placement.Mirrored = P.Mirrored;
  P.Placement.StaticHook = !H.FD->isExternallyVisible();
  P.GateNeeds =
      missingConditions(Layout.conditionsAt(End, SM), conditionsInFile(End, Layout, SM));
}

/// Why no new gate can be made before looking for its place, if so.
std::optional<NoFix> newGateRefusal(const HookGateInputs &In, const GatePlan &P, bool Declared) {
  const FunctionDecl *FD = P.H->FD;
  const RuleSet::HookGateRules &G = In.Settings.Gate;
  bool NotAtFileScope = !FD->getDeclContext()->getRedeclContext()->isTranslationUnit() ||
                        (In.TU.ast().getLangOpts().CPlusPlus && FD->isInExternCContext());
  if (!P.Placement.OffWhen.empty() && G.Style == "static_key")
    return NoFix{NoFixReason::StaticKeyByConfiguration, FD->getLocation(), P.Name,
                 guardDirective(P.Placement.OffWhen)};
  if (!Declared && !P.Enabler && !G.NewGateWithSetters)
    return NoFix{NoFixReason::NoEnabler, FD->getLocation(), P.Name};
  if (NotAtFileScope && !Declared)
    return NoFix{NoFixReason::NotAtFileScope, FD->getLocation()};
  return std::nullopt;
}

void planNewGate(const HookGateInputs &In, const Hook &H, GatePlan &P) {
  const SourceManager &SM = In.TU.sourceManager();
  P.HeaderDecl = headerDeclaration(H.FD, SM);
  SourceLocation Point = (P.HeaderDecl ? P.HeaderDecl : H.FD->getFirstDecl())->getBeginLoc();
  P.Spec = gateSpec(In, P, Point);
  GateWriter W(*P.Spec);
  bool Declared = namedDeclExists(W.accessor(), In.TU.ast()) ||
                  (In.Settings.Gate.Style == "static_key" && namedDeclExists(W.var(), In.TU.ast()));
  if (auto E = In.Settings.Enablers.find(P.Name); E != In.Settings.Enablers.end())
    P.Enabler = E->second;
  P.Refused = newGateRefusal(In, P, Declared);
  if (!P.Refused) {
    if (P.HeaderDecl && H.FD->isExternallyVisible())
      placeInHeader(In, H, W, Declared, P);
    else if (!P.HeaderDecl && inMainFile(SM, H.FD->getFirstDecl()->getLocation()))
      placeInFile(In, H, Declared, P);
    else if (!Declared)
      P.Refused = NoFix{NoFixReason::NoHeaderForGate, H.FD->getLocation()};
  }
  // In one file (no header) the accessor is the test: a static inline
  // function left unused there is a warning.
  P.Test = W.test(P.Mirrored || !P.HeaderMode);
  P.GatedMark = In.Settings.Gate.Style == "static_key" ? P.Test : W.var();
  P.NewGate = !Declared;
}

} // namespace

GatePlan planGate(const HookGateInputs &In, const Hook &H) {
  GatePlan P;
  P.H = &H;
  P.Name = H.FD->getName().str();
  // The configuration the hook's body was analysed in: a new gate starts
  // off there and on wherever the body is compiled otherwise.
  if (H.Def)
    P.Placement.OffWhen =
        In.TU.layout().takenWithin(H.Def->getBody()->getSourceRange(), In.TU.sourceManager());
  if (H.hasSwitch())
    planSwitch(In, H, P);
  else
    planNewGate(In, H, P);
  return P;
}

} // namespace hotpath
