//===--- AssertUses.cpp - uses of a disabled assert that need their argument ===//

#include "analysis/AssertUses.h"
#include "analysis/MacroArguments.h"
#include "analysis/MacroBody.h"
#include "clang/Lex/MacroArgs.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/Preprocessor.h"

using namespace clang;

namespace hotpath {

std::optional<DroppedArgument> judgeDroppedArgument(const MacroUse &U, const Expr *Arg,
                                                    bool InvisibleCallsAreEffects,
                                                    const RuleIndex &Rules, ASTContext &Ctx,
                                                    SideEffectReport *Report) {
  const SideEffectOptions Dropped =
      SideEffectOptions::forDroppedEvaluation(InvisibleCallsAreEffects);
  const SideEffectOptions Work = SideEffectOptions::forKeptWork();
  DroppedArgument D;
  std::optional<SideEffect> Kept; // work that is no side effect
  if (Arg) {
    if (Arg->containsErrors())
      return std::nullopt;
    SideEffectReport R = analyseSideEffects(Arg, Dropped, Rules, Ctx);
    D.Effect = R.Effect;
    if (Report)
      *Report = std::move(R);
    if (!D.Effect && !Arg->isTypeDependent() &&
        (Arg->getType()->isVoidType() ||
         (!Ctx.getLangOpts().CPlusPlus && !Arg->getType()->isScalarType()))) {
      D.NotScalar = true;
      D.Work = "it is not a scalar value";
      return D;
    }
    if (!D.Effect)
      Kept = findSideEffect(Arg, Work, Rules, Ctx);
  } else {
    // Tokens show no body: any call may do work.
    SideEffectOptions TokenWork = Work;
    TokenWork.InvisibleCallsAreEffects = true;
    D.Effect = findSideEffectInTokens(U.ArgTokens, Dropped, Rules);
    if (!D.Effect)
      Kept = findSideEffectInTokens(U.ArgTokensNoMacros, TokenWork, Rules);
  }
  if (D.Effect)
    D.Work = describe(*D.Effect, Ctx);
  else if (Kept)
    D.Work = describe(*Kept, Ctx);
  return D;
}

std::optional<unsigned> DisabledAssertUses::evaluatedParameter(const MacroInfo &MI) {
  auto [It, New] = Classified.try_emplace(&MI);
  if (!New)
    return It->second;
  const SourceManager &SM = PP.getSourceManager();
  SourceLocation NameLoc = MI.getDefinitionLoc();
  // The cheap test first: every function-like macro of the TU comes here.
  if (!bodyNamesParameter(MI) || !NameLoc.isFileID() || SM.isInSystemHeader(NameLoc) ||
      !SM.getFileEntryRefForID(SM.getFileID(NameLoc)))
    return std::nullopt;
  std::optional<FunctionLikeDefinition> Def = lexFunctionLikeDefinition(
      NameLoc, directiveHash(NameLoc, SM), SM, PP.getLangOpts());
  if (!Def)
    return std::nullopt;
  std::optional<unsigned> Cond = conditionParameter(Def->Params, Def->Tokens);
  if (Cond && classifyMacroBody(Def->Tokens, Def->Params[*Cond]) == MacroBodyKind::Evaluating)
    It->second = Cond;
  return It->second;
}

void DisabledAssertUses::MacroExpands(const Token &Name, const MacroDefinition &MD,
                                      SourceRange Range, const MacroArgs *Args) {
  const MacroInfo *MI = MD.getMacroInfo();
  if (!Args || !MI || !MI->isFunctionLike() ||
      PP.getSourceManager().isInSystemHeader(PP.getSourceManager().getExpansionLoc(
          Range.getBegin())))
    return;
  std::optional<unsigned> Index = evaluatedParameter(*MI);
  if (!Index || *Index >= Args->getNumMacroArguments())
    return;
  if (std::optional<MacroUse> U = macroUse(Name, Range.getBegin(), *Args, *Index, PP)) {
    Uses.push_back(std::move(*U));
    Definitions.push_back(MI->getDefinitionLoc());
  }
}

std::vector<BlockingAssertUse> DisabledAssertUses::blockingUses(ASTContext &Ctx,
                                                                const RuleIndex &Rules) const {
  std::vector<BlockingAssertUse> Out;
  if (Uses.empty())
    return Out;
  std::vector<const Expr *> Args = findMacroArguments(Uses, Ctx);
  for (size_t I = 0; I < Uses.size(); ++I) {
    std::optional<DroppedArgument> D =
        judgeDroppedArgument(Uses[I], Args[I], /*InvisibleCallsAreEffects=*/false, Rules, Ctx);
    if (D && D->blocks())
      Out.push_back({Uses[I].Name, Definitions[I], Uses[I].NameLoc, D->Work});
  }
  return Out;
}

} // namespace hotpath
