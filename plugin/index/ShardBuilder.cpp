//===--- index/ShardBuilder.cpp - a TU's records for the project index ----===//

#include "index/ShardBuilder.h"
#include "analysis/HookModel.h"
#include "analysis/Purity.h"
#include "analysis/Reporting.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/FileManager.h"
#include "clang/Index/USRGeneration.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <map>

using namespace clang;

namespace hotpath::index {

RecordMaker::RecordMaker(const ASTContext &Ctx) : Ctx(Ctx), SM(Ctx.getSourceManager()) {}

std::string RecordMaker::usr(const FunctionDecl *FD) {
  llvm::SmallString<128> Buf;
  if (clang::index::generateUSRForDecl(FD->getCanonicalDecl(), Buf))
    return "";
  return std::string(Buf);
}

std::string RecordMaker::path(FileID FID) {
  auto [It, New] = Paths.try_emplace(FID);
  if (!New)
    return It->second;
  OptionalFileEntryRef FE = SM.getFileEntryRefForID(FID);
  if (!FE)
    return "";
  llvm::SmallString<256> Abs(FE->getName());
  SM.getFileManager().makeAbsolutePath(Abs);
  llvm::SmallString<256> Real;
  if (llvm::sys::fs::real_path(Abs, Real)) {
    llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
    Real = Abs;
  }
  It->second = std::string(Real);
  return It->second;
}

Location RecordMaker::location(SourceLocation Loc) {
  Location L;
  if (Loc.isInvalid())
    return L;
  SourceLocation E = SM.getExpansionLoc(Loc);
  auto [FID, Offset] = SM.getDecomposedLoc(E);
  L.File = path(FID);
  L.Line = SM.getLineNumber(FID, Offset);
  L.Col = SM.getColumnNumber(FID, Offset);
  return L;
}

const FunctionDecl *RecordMaker::indexedCallee(const CallSiteIndex::Site &S) const {
  const FunctionDecl *Callee = S.Call->getDirectCallee();
  if (!Callee || Callee->getBuiltinID())
    return nullptr;
  SourceLocation Loc = Callee->getCanonicalDecl()->getLocation();
  if (Loc.isInvalid() || SM.isInSystemHeader(SM.getExpansionLoc(Loc)))
    return nullptr;
  return Callee;
}

CallSite RecordMaker::callSite(const CallSiteIndex::Site &S) {
  CallSite C;
  const CallExpr *Call = S.Call;
  C.Loc = location(Call->getBeginLoc());
  C.Caller = S.Caller->getNameAsString();
  C.CallerUSR = usr(S.Caller);
  C.InLoop = S.InLoop;
  C.Loops = S.Loops;
  C.Cold = S.Cold;
  C.Branches = S.Branches;
  if (S.InAccessor)
    C.Accessor = outermostMacroName(S.Caller->getLocation(), SM, Ctx.getLangOpts()).str();
  if (Call->getBeginLoc().isMacroID())
    anyEnclosingMacro(Call->getBeginLoc(), SM, Ctx.getLangOpts(), [&](StringRef Name) {
      if (!Name.empty())
        C.Macros.push_back(Name.str());
      return false;
    });
  const FunctionDecl *Callee = Call->getDirectCallee();
  // An operator written as a member call has the object as its argument 0.
  unsigned Skip = isa<CXXOperatorCallExpr>(Call) && isa<CXXMethodDecl>(Callee) ? 1 : 0;
  for (unsigned I = Skip; I < Call->getNumArgs(); ++I) {
    unsigned Param = I - Skip;
    if (Param >= Callee->getNumParams())
      break; // variadic arguments
    const Expr *Arg = Call->getArg(I);
    if (Arg->isValueDependent() || Arg->isTypeDependent())
      continue;
    // The value as the parameter receives it: the argument's implicit
    // conversion is part of it.
    std::optional<llvm::APSInt> V = Arg->getIntegerConstantExpr(Ctx);
    if (!V || V->getBitWidth() > 64)
      continue;
    if (V->isSigned())
      C.ConstantArgs.push_back({Param, V->getSExtValue()});
    else if (V->getZExtValue() <= static_cast<uint64_t>(INT64_MAX))
      C.ConstantArgs.push_back({Param, static_cast<int64_t>(V->getZExtValue())});
  }
  return C;
}

namespace {

HookShape::Kind recordKind(HookBody::Kind K) {
  switch (K) {
  case HookBody::Kind::Empty:
    return HookShape::Kind::Empty;
  case HookBody::Kind::Constant:
    return HookShape::Kind::Constant;
  case HookBody::Kind::Switch:
    return HookShape::Kind::Switch;
  }
  return HookShape::Kind::Empty;
}

HookBody::Kind modelKind(HookShape::Kind K) {
  switch (K) {
  case HookShape::Kind::Empty:
    return HookBody::Kind::Empty;
  case HookShape::Kind::Constant:
    return HookBody::Kind::Constant;
  case HookShape::Kind::Switch:
    return HookBody::Kind::Switch;
  }
  return HookBody::Kind::Empty;
}

/// The verdict as the index keeps it: why not pure as a clause without its
/// subject ("assigns to 'total'", "calls 'b', which increments 'n'").
void recordPurity(Function &Fn, const PurityVerdict &V, const ASTContext &Ctx) {
  if (V.pure()) {
    Fn.Pure = Fn.Impure.empty();
    return;
  }
  SideEffect E = *V.Impurity;
  E.Reasons = SideEffectOptions::Wording::Detailed;
  std::string Text = describe(E, Ctx);
  llvm::StringRef Why = Text;
  Why.consume_front("it ");
  Fn.Pure = false;
  Fn.Impure = Why.str();
}

} // namespace

HookShape recordOf(const PortableHook &H) {
  HookShape R;
  R.Shape = recordKind(H.Shape);
  R.Disabled = H.Disabled;
  R.Switch = H.Switch;
  R.Globals = H.Globals;
  R.Declarations = H.Declarations;
  R.Marker = H.Marker;
  return R;
}

PortableHook portableOf(const HookShape &R) {
  PortableHook H;
  H.Shape = modelKind(R.Shape);
  H.Disabled = R.Disabled;
  H.Switch = R.Switch;
  H.Globals = R.Globals;
  H.Declarations = R.Declarations;
  H.Marker = R.Marker;
  return H;
}

IndexFile buildShard(const ASTContext &Ctx, const TUDefinitions &Defs, const CallSiteIndex &Sites,
                     llvm::StringRef TU, llvm::ArrayRef<BlockingAssertUse> Uses) {
  const SourceManager &SM = Ctx.getSourceManager();
  RecordMaker Records(Ctx);
  IndexFile F;
  F.K = IndexFile::Kind::Shard;
  F.TUs.push_back(TU.str());
  for (const BlockingAssertUse &U : Uses) {
    AssertUse R{U.Macro, Records.location(U.Definition), Records.location(U.Use), U.Why};
    if (!R.Definition.File.empty() && !R.Use.File.empty())
      F.AssertUses.push_back(std::move(R));
  }

  std::map<std::string, Function> ByUSR;
  std::map<std::string, std::map<std::string, size_t>> CallKeys; // USR -> key -> position
  auto Entry = [&](const FunctionDecl *FD) -> Function * {
    std::string USR = RecordMaker::usr(FD);
    if (USR.empty())
      return nullptr;
    auto [It, New] = ByUSR.try_emplace(USR);
    Function &Fn = It->second;
    if (New) {
      Fn.USR = USR;
      Fn.Name = FD->getQualifiedNameAsString();
      for (const FunctionDecl *R : FD->redecls()) {
        SourceLocation L = R->getLocation();
        if (R->isThisDeclarationADefinition() || L.isInvalid() ||
            SM.isInSystemHeader(SM.getExpansionLoc(L)))
          continue;
        Location Loc = Records.location(L);
        if (!Loc.File.empty())
          Fn.Declarations.push_back(std::move(Loc));
      }
    }
    return &Fn;
  };

  // Purity as the body says, without a rule set's list: every reader of the
  // index sees the same answer, whatever rules it runs with.
  static const RuleSet NoRules;
  static const RuleIndex NoRuleIndex(NoRules);
  PurityAnalysis Purity(NoRuleIndex, Ctx);
  for (const FunctionDecl *FD : Defs.Functions) {
    if (FD->isDependentContext())
      continue; // a template's pattern: its instantiations are recorded
    Function *Fn = Entry(FD);
    if (!Fn)
      continue;
    Definition D;
    D.Loc = Records.location(FD->getLocation());
    D.EndLine = SM.getExpansionLineNumber(SM.getExpansionRange(FD->getSourceRange()).getEnd());
    D.TU = TU.str();
    if (D.Loc.File.empty())
      continue;
    Fn->Definitions.push_back(std::move(D));
    std::optional<PortableHook> H = portableHook(FD, Ctx);
    Fn->Hook = H ? std::optional<HookShape>(recordOf(*H)) : std::nullopt;
    Fn->NotHook = !Fn->Hook;
    recordPurity(*Fn, Purity.judge(FD), Ctx);
  }

  for (const CallSiteIndex::Site &S : Sites.sites()) {
    const FunctionDecl *Callee = Records.indexedCallee(S);
    if (!Callee || S.Caller->isDependentContext())
      continue;
    Function *Fn = Entry(Callee);
    if (!Fn)
      continue;
    CallSite C = Records.callSite(S);
    if (C.Loc.File.empty())
      continue;
    // Several calls with one key (one macro expansion writing two alike)
    // are counted, not merged: they are all in this TU.
    auto [It, New] = CallKeys[Fn->USR].try_emplace(C.key(), Fn->Calls.size());
    if (New)
      Fn->Calls.push_back(std::move(C));
    else
      ++Fn->Calls[It->second].Count;
  }

  Sites.forEachFunction([&](const FunctionDecl *FD, const CallSiteStats &Stats) {
    if (!Stats.AddressTaken || FD->getBuiltinID() || FD->getLocation().isInvalid() ||
        SM.isInSystemHeader(SM.getExpansionLoc(FD->getLocation())))
      return;
    if (Function *Fn = Entry(FD))
      Fn->AddressTaken = true;
  });

  for (auto &[USR, Fn] : ByUSR)
    F.Functions.push_back(std::move(Fn));
  normalise(F);
  return F;
}

} // namespace hotpath::index
