//===--- NoopAssertCheck.cpp - hotpath-noop-assert ------------------------===//
//
// The pipeline: candidates (the definitions and uses the preprocessor saw,
// source/MacroDefinitions.h), shape (their bodies: analysis/MacroBody.h;
// which are asserts), judging each use's argument (the side-effect
// analysis), then the findings: the uses that would lose work, and the
// definitions worth rewriting (rewrite/AssertMacro.h).
//
//===----------------------------------------------------------------------===//

#include "checks/NoopAssertCheck.h"
#include "analysis/AssertUses.h"
#include "analysis/MacroArguments.h"
#include "analysis/SideEffects.h"
#include "heat/ProjectCalls.h"
#include "index/ShardBuilder.h"
#include "rewrite/AssertMacro.h"
#include "clang/Lex/MacroArgs.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/STLExtras.h"
#include <set>

using namespace clang;

namespace hotpath {

std::string NoopAssertCheck::replacementBody(StringRef Param) {
  return assertReplacementBody(Param);
}

//===----------------------------------------------------------------------===//
// Preprocessor: definitions, active and skipped, and uses.
//===----------------------------------------------------------------------===//

class NoopAssertPPCallbacks : public compat::IncludeCallbacks {
public:
  NoopAssertPPCallbacks(NoopAssertCheck &Check, const SourceManager &SM,
                        const Preprocessor &PP)
      : Check(Check), SM(SM), PP(PP) {}

  void MacroDefined(const Token &Name, const MacroDirective *MD) override {
    // Every macro of the TU comes here (sqlite3.c: thousands): the cheap
    // tests first, the location's (a line-table lookup) last.
    const MacroInfo *MI = MD->getMacroInfo();
    const IdentifierInfo *II = Name.getIdentifierInfo();
    SourceLocation Loc = Name.getLocation();
    bool Explained = Check.explaining(II->getName());
    if (!MI || !Loc.isFileID())
      return;
    if (!MI->isFunctionLike()) {
      if (Explained)
        Check.ExplainSkipped.push_back({Loc, "it is not a function-like macro"});
      return;
    }
    // A name no list or pattern gives is only worth lexing when its body
    // may be a form: a disabled form evaluates a parameter, an enabled one
    // tests one and calls what fails.
    if (!Explained && (!bodyNamesParameter(*MI) || !Check.mayBeAssertForm(definitionText(*MI))) &&
        Check.recognisedByName(II->getName()) == NoopAssertCheck::Recognition::None)
      return;
    // Built-in and command-line macros live in a buffer with no file; the
    // presumed location would say so too, at a line-table lookup a macro
    // (0.7% of the module's run on sqlite3.c).
    if (SM.isInSystemHeader(Loc) || !SM.getFileEntryRefForID(SM.getFileID(Loc))) {
      if (Explained)
        Check.ExplainSkipped.push_back(
            {Loc, "it is defined in a system header, built in or on the command line: "
                  "never touched"});
      return;
    }
    add(Loc, directiveHash(Loc, SM), /*Active=*/true);
  }

  void SourceRangeSkipped(SourceRange Range, SourceLocation EndifLoc) override {
    SourceLocation Begin = Range.getBegin();
    if (!Begin.isFileID() || SM.isInSystemHeader(Begin))
      return;
    forEachSkippedFunctionLikeDefine(Range, SM, [&](SourceLocation Name, SourceLocation Hash) {
      // As MacroDefined filters, from the text before lexing it.
      DefinitionText Text = readDefinitionText(Name, SM);
      if (Check.mayBeAssertForm(Text) || Check.explaining(Text.Name) ||
          Check.recognisedByName(Text.Name) != NoopAssertCheck::Recognition::None)
        add(Name, Hash, /*Active=*/false);
    });
  }

  const llvm::SmallPtrSetImpl<const IdentifierInfo *> *watchedMacros() const override {
    return &Check.AssertIdents;
  }
  // Only the function-like expansions of AssertIdents come here.
  void MacroExpands(const Token &Name, const MacroDefinition &MD, SourceRange Range,
                    const MacroArgs *Args) override {
    const IdentifierInfo *II = Name.getIdentifierInfo();
    const MacroInfo *MI = MD.getMacroInfo();
    unsigned Index = Check.CondIndexOf.lookup(II);
    if (!MI || SM.isInSystemHeader(MI->getDefinitionLoc()) ||
        SM.isInSystemHeader(SM.getExpansionLoc(Range.getBegin())) ||
        Index >= Args->getNumMacroArguments())
      return;
    if (std::optional<MacroUse> U = macroUse(Name, Range.getBegin(), *Args, Index, PP))
      Check.Uses.push_back(std::move(*U));
  }

private:
  void add(SourceLocation NameLoc, SourceLocation HashLoc, bool Active) {
    if (std::optional<FunctionLikeDefinition> Def =
            lexFunctionLikeDefinition(NameLoc, HashLoc, SM, PP.getLangOpts()))
      Check.addDefinition(std::move(*Def), Active, PP, SM);
  }

  NoopAssertCheck &Check;
  const SourceManager &SM;
  const Preprocessor &PP;
};

void NoopAssertCheck::addDefinition(FunctionLikeDefinition Text, bool Active,
                                    const Preprocessor &PP, const SourceManager &SM) {
  MacroDef Def;
  static_cast<FunctionLikeDefinition &>(Def) = std::move(Text);
  // The condition is the one parameter the body names.
  if (std::optional<unsigned> Cond = conditionParameter(Def.Params, Def.Tokens)) {
    Def.CondIndex = *Cond;
    Def.Param = Def.Params[*Cond];
  }
  Def.Kind = classifyMacroBody(Def.Tokens, Def.Param);
  bool Explained = explaining(Def.Name);
  if (Never.contains(Def.Name)) {
    if (Explained)
      ExplainSkipped.push_back(
          {Def.NameLoc, "it must evaluate its argument in every build (must_evaluate_macros "
                        "or the MustEvaluateMacros option): never touched"});
    return;
  }
  bool ByName = recognisedByName(Def.Name) != Recognition::None;
  bool Evaluating = Def.Kind == BodyKind::Evaluating;
  if (!Evaluating)
    for (const std::string &P : Def.Params)
      Def.Enabled |= isEnabledAssertBody(Def.Tokens, P, ruleIndex());
  // Kept: asserts by name, disabled forms that may have a twin, and
  // enabled forms that may be one.
  if (!ByName && !Evaluating && !Def.Enabled && !Explained)
    return;
  if (!DefKeys.insert(definitionKey(Def.NameLoc, SM)).second)
    return;
  const IdentifierInfo *II = PP.getIdentifierInfo(Def.Name);
  if (ByName || Evaluating) {
    AssertIdents.insert(II);
    if (Def.Kind != BodyKind::Other)
      CondIndexOf.try_emplace(II, Def.CondIndex);
  }
  Def.Active = Active;
  Defs.push_back(std::move(Def));
}

//===----------------------------------------------------------------------===//
// The check.
//===----------------------------------------------------------------------===//

NoopAssertCheck::NoopAssertCheck(StringRef Name, tidy::ClangTidyContext *Context)
    : HotpathCheck(Name, Context) {
  OptionReader &O = options();
  std::vector<std::string> Asserts = O.list("AssertMacros");
  std::vector<std::string> Patterns = O.list("AssertMacroPatterns");
  std::vector<std::string> MustEvaluate = O.list("MustEvaluateMacros");
  CheckFunctionCalls = O.flag("CheckFunctionCalls", false);
  for (const std::string &N : rules().MustEvaluateMacros)
    Never.insert(N);
  for (const std::string &N : MustEvaluate)
    Never.insert(N);
  for (const std::string &N : rules().AssertMacros)
    ListedNames.insert(N);
  for (const std::string &N : Asserts)
    OptionNames.insert(N);
  for (const std::string &P : rules().AssertMacroPatterns)
    llvm::consumeError(this->Patterns.add(P)); // loadRuleSet rejected a bad one
  for (const std::string &P : Patterns)
    if (llvm::Error E = this->Patterns.add(P))
      configurationError("option AssertMacroPatterns: " + llvm::toString(std::move(E)));
}

bool NoopAssertCheck::mayBeAssertForm(const DefinitionText &Text) const {
  if (!Text.MayNameParameter)
    return false;
  // Disabled and evaluating: casts, do/while (0) and if around the
  // parameter, nothing else (classifyMacroBody).
  if (Text.Comment || (!Text.OtherPunctuation && llvm::all_of(Text.Words, [&](StringRef W) {
                         return isEvaluatingFormWord(W) || llvm::is_contained(Text.Params, W);
                       })))
    return true;
  // Enabled: it calls something that fails (isEnabledAssertBody). The same
  // few callees come again and again: each is asked once.
  return llvm::any_of(Text.Called, [&](StringRef N) {
    auto [It, New] = FailureNames.try_emplace(N);
    if (New)
      It->second = namesFailure(N, ruleIndex());
    return It->second;
  });
}

NoopAssertCheck::Recognition NoopAssertCheck::recognisedByName(StringRef Name) const {
  if (Never.contains(Name))
    return Recognition::None;
  if (OptionNames.contains(Name))
    return Recognition::Option;
  if (ListedNames.contains(Name))
    return Recognition::RuleSetList;
  return Patterns.match(Name).empty() ? Recognition::None : Recognition::Pattern;
}

const NoopAssertCheck::MacroDef *
NoopAssertCheck::enabledTwin(const MacroDef &D, const SourceManager &SM,
                             const LangOptions &LangOpts) const {
  if (D.HashLoc.isInvalid())
    return nullptr;
  for (const MacroDef &E : Defs) {
    if (&E == &D || E.Name != D.Name || !E.Enabled || E.HashLoc.isInvalid() ||
        E.Params.size() <= D.CondIndex ||
        SM.getFileID(E.HashLoc) != SM.getFileID(D.HashLoc) ||
        !isEnabledAssertBody(E.Tokens, E.Params[D.CondIndex], ruleIndex()))
      continue;
    bool DFirst = SM.getFileOffset(D.HashLoc) < SM.getFileOffset(E.HashLoc);
    if (onOtherSidesOfOneIf(DFirst ? D.HashLoc : E.HashLoc, DFirst ? E.HashLoc : D.HashLoc,
                            SM, LangOpts))
      return &E;
  }
  return nullptr;
}

std::unique_ptr<compat::IncludeCallbacks> NoopAssertCheck::ppCallbacks(const SourceManager &SM,
                                                                       Preprocessor &PP) {
  return std::make_unique<NoopAssertPPCallbacks>(*this, SM, PP);
}

void NoopAssertCheck::reset() {
  Defs.clear();
  DefKeys.clear();
  Uses.clear();
  AssertIdents.clear();
  CondIndexOf.clear();
  ExplainSkipped.clear();
}

/// Which macros are asserts, by name or by an enabled twin, and which of
/// them have a disabled form.
struct NoopAssertCheck::Recognised {
  llvm::StringMap<Recognition> How;
  llvm::DenseMap<const MacroDef *, const MacroDef *> Twins;
  /// The definitions of each assert whose disabled form evaluates.
  llvm::StringMap<std::vector<const MacroDef *>> Evaluating;
  llvm::StringSet<> Disabled; // names with a disabled form of either kind
};

/// What the uses of one assert showed.
struct NoopAssertCheck::UseTally {
  unsigned Seen = 0;
  unsigned Blocking = 0; // uses that need their argument evaluated
  unsigned Costly = 0;   // uses whose argument does work the compiler must keep
  const Use *FirstCostly = nullptr;
  std::string FirstCostlyWhy;
  /// Calls to check functions that only report, dropped with the assert.
  std::vector<CheckFunctionCall> Checks;
};

/// Every use judged: the tallies by assert, and the uses to report, in order.
struct NoopAssertCheck::Judged {
  struct Verdict {
    const Use *U;
    bool NotScalar = false;        // `!!(x)` would not compile
    std::optional<SideEffect> Effect; // lost when the assert is disabled
    std::string Why;               // the effect, described
  };
  llvm::StringMap<UseTally> Tallies;
  std::vector<Verdict> Reported;
  UseTally NoUses; // for an assert with no use

  const UseTally &tally(llvm::StringRef Name) const {
    auto It = Tallies.find(Name);
    return It == Tallies.end() ? NoUses : It->second;
  }
};

void NoopAssertCheck::run(TUContext &TU) {
  ASTContext &Ctx = TU.ast();
  Recognised R = recogniseAsserts(Ctx);
  if (R.Disabled.empty() && !explainRequested())
    return;
  llvm::erase_if(Uses, [&](const Use &U) { return !R.Disabled.contains(U.Name); });
  Judged J = judgeUses(findMacroArguments(Uses, Ctx), Ctx);
  reportUses(J, R, Ctx);
  reportDefinitions(R, J, Ctx);
  for (const auto &[Loc, Why] : ExplainSkipped) {
    explainBegin(Loc, "a definition of macro '" + explainName().str() +
                          "'; hotpath-noop-assert does not read it");
    explainStep(Loc, Why);
  }
}

NoopAssertCheck::Recognised NoopAssertCheck::recogniseAsserts(const ASTContext &Ctx) const {
  Recognised Out;
  for (const MacroDef &D : Defs) {
    Recognition R = recognisedByName(D.Name);
    if (R == Recognition::None && D.Kind == BodyKind::Evaluating)
      if (const MacroDef *Twin = enabledTwin(D, Ctx.getSourceManager(), Ctx.getLangOpts())) {
        Out.Twins[&D] = Twin;
        R = Recognition::Twin;
      }
    if (R == Recognition::None)
      continue;
    Recognition &Known = Out.How[D.Name];
    if (Known == Recognition::None)
      Known = R;
    if (D.Kind == BodyKind::Evaluating)
      Out.Evaluating[D.Name].push_back(&D);
    if (D.Kind != BodyKind::Other)
      Out.Disabled.insert(D.Name);
  }
  return Out;
}

/// Judges every use: a disabled assert drops its condition. What it costs
/// decides whether the definition is worth reporting: a condition the
/// compiler can drop by itself (a comparison of locals, UNUSED(x)) costs
/// nothing.
NoopAssertCheck::Judged NoopAssertCheck::judgeUses(ArrayRef<const Expr *> Args,
                                                   ASTContext &Ctx) const {
  Judged J;
  for (size_t I = 0; I < Uses.size(); ++I) {
    const Use &U = Uses[I];
    UseTally &T = J.Tallies[U.Name];
    ++T.Seen;
    SideEffectReport R;
    std::optional<DroppedArgument> D =
        judgeDroppedArgument(U, Args[I], CheckFunctionCalls, ruleIndex(), Ctx, &R);
    if (!D)
      continue; // the argument does not compile: said by the compiler
    llvm::append_range(T.Checks, R.CheckFunctionCalls);
    if (!D->Work.empty() && T.Costly++ == 0) {
      T.FirstCostly = &U;
      T.FirstCostlyWhy = D->Work;
    }
    if (!D->blocks())
      continue;
    T.Blocking++;
    J.Reported.push_back({&U, D->NotScalar, D->Effect, D->NotScalar ? "" : D->Work});
  }
  return J;
}

void NoopAssertCheck::reportUses(const Judged &J, const Recognised &R,
                                 const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  for (const Judged::Verdict &V : J.Reported) {
    const Use &U = *V.U;
    SourceLocation UseLoc = SM.getExpansionLoc(U.NameLoc);
    Finding F;
    F.Subject = U.Name;
    if (V.NotScalar) {
      F.Kind = kind::AssertArgumentNotScalar;
      F.Warning = {UseLoc,
                   "argument of '%0' is not a scalar value; the disabled '%0' cannot test "
                   "it without evaluating it",
                   {U.Name}};
      emit(std::move(F));
      continue;
    }
    auto ItDefs = R.Evaluating.find(U.Name);
    bool Rewritable = ItDefs != R.Evaluating.end();
    F.Kind = kind::AssertArgumentEffect;
    F.Warning = {UseLoc,
                 Rewritable ? "argument of '%0' has a side effect (%1); a disabled '%0' that "
                              "does not evaluate its argument would lose it, so the definition "
                              "of '%0' is not rewritten"
                            : "argument of '%0' has a side effect (%1), which is lost when "
                              "'%0' is disabled",
                 {U.Name, V.Why}};
    // A side effect inside a called function: show where.
    if (V.Effect->Where && SM.getExpansionLoc(V.Effect->Where->getBeginLoc()) != UseLoc)
      F.Notes.push_back({V.Effect->Where->getBeginLoc(), "the state changes here", {}});
    emit(std::move(F));
  }
}

/// Every definition of an assert whose disabled form evaluates, where some
/// use pays for it.
void NoopAssertCheck::reportDefinitions(const Recognised &R, const Judged &J,
                                        const ASTContext &Ctx) {
  for (const MacroDef &D : Defs) {
    Recognition How = R.How.lookup(D.Name);
    if (D.Kind == BodyKind::Evaluating && How != Recognition::None &&
        recognisedByName(D.Name) == Recognition::None && !R.Twins.count(&D))
      How = Recognition::None; // a structural candidate without a twin of its own
    const UseTally &T = J.tally(D.Name);
    bool Report = D.Kind == BodyKind::Evaluating && How != Recognition::None && T.Costly > 0;
    if (explaining(D.Name))
      explainMacro(D, How, R.Twins.lookup(&D), T, Report, Ctx);
    if (!Report)
      continue;
    Finding F;
    F.Kind = kind::NoopAssert;
    F.Subject = D.Name;
    F.Warning = {D.NameLoc,
                 "disabled assert '%0' still evaluates its argument; make it type-check the "
                 "argument without evaluating it",
                 {D.Name}};
    // What it costs, where: the use that made it worth reporting (an
    // address computation or an inline accessor is not one). Only where
    // the definition is reported on its own: clang-tidy keeps a warning
    // any of whose notes passes its filters, and a note at a use in the
    // main file would report a header's definition the header filter
    // leaves out.
    const SourceManager &SM = Ctx.getSourceManager();
    SourceLocation At = SM.getExpansionLoc(T.FirstCostly->NameLoc);
    if (mayBeReported({D.NameLoc}))
      F.Notes.push_back(T.Costly == 1
                            ? Message{At, "its use here does work the compiler must keep: %0",
                                      {T.FirstCostlyWhy}}
                            : Message{At,
                                      "%0 of its %1 uses in this translation unit do work the "
                                      "compiler must keep; the first, here: %2",
                                      {T.Costly, T.Seen, T.FirstCostlyWhy}});
    if (T.Blocking)
      F.Refused = NoFix{NoFixReason::UsesNeedEvaluation, D.NameLoc, D.Name, "", "", T.Blocking};
    else if (std::optional<NoFix> Elsewhere = usesElsewhere(D, Ctx))
      F.Refused = std::move(*Elsewhere);
    else if (std::optional<FixItHint> Fix = replaceAssertBody(D, D.Param))
      F.Fixes.push_back(*Fix);
    std::set<const FunctionDecl *> Said;
    for (const auto &[FD, Call] : T.Checks)
      if (Said.insert(FD->getCanonicalDecl()).second)
        F.FixNotes.push_back({Call->getBeginLoc(),
                              "%0 is a check function that only reports: dropping its call "
                              "with the disabled assert is the point",
                              {FD}});
    emit(std::move(F));
  }
}

/// A definition in a header is compiled by other translation units too: a
/// use there that needs its argument, which this TU cannot see, forbids the
/// rewrite as much as one here. The project index records them; without
/// one they are unknown, and no route may rewrite what another TU forbids
/// (run-clang-tidy and clang-apply-replacements -ignore-insert-conflict
/// keep the first TU's edit).
std::optional<NoFix> NoopAssertCheck::usesElsewhere(const MacroDef &D,
                                                    const ASTContext &Ctx) const {
  const SourceManager &SM = Ctx.getSourceManager();
  if (SM.isWrittenInMainFile(D.NameLoc))
    return std::nullopt;
  const index::ProjectIndex *Project = tu().projectIndex();
  if (!Project)
    return NoFix{NoFixReason::UsesUnknownWithoutIndex, D.NameLoc, D.Name, "",
                 ProjectCalls::displayName(SM.getFilename(SM.getFileLoc(D.NameLoc)))};
  llvm::ArrayRef<index::AssertUse> Uses =
      Project->assertUsesOf(index::RecordMaker(Ctx).location(D.NameLoc));
  if (Uses.empty())
    return std::nullopt;
  const index::AssertUse &First = Uses.front();
  return NoFix{NoFixReason::UsesInProjectNeedEvaluation, D.NameLoc, D.Name, "",
               ProjectCalls::displayName(First.Use.File) + ":" + std::to_string(First.Use.Line) +
                   ":" + std::to_string(First.Use.Col) + ", where " + First.Why,
               static_cast<unsigned>(Uses.size())};
}

void NoopAssertCheck::explainMacro(const MacroDef &D, Recognition How, const MacroDef *Twin,
                                   const UseTally &Uses, bool Reported,
                                   const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  explainBegin(D.NameLoc, std::string("a definition of macro '") + D.Name + "' (" +
                              (D.Active ? "the one this build uses"
                                        : "in a branch this build skips") +
                              "); the steps of hotpath-noop-assert follow");
  switch (How) {
  case Recognition::RuleSetList:
    explainStep(D.NameLoc, "assert-like by name: the rule set's assert_macros list it");
    break;
  case Recognition::Option:
    explainStep(D.NameLoc, "assert-like by name: the AssertMacros option lists it");
    break;
  case Recognition::Pattern:
    explainStep(D.NameLoc, "assert-like by name: it matches the pattern '" +
                               Patterns.match(D.Name) +
                               "' (assert_macro_patterns, AssertMacroPatterns)");
    break;
  case Recognition::Twin:
    // The name is recognised by one definition and its twin; another
    // definition of the name (the enabled one, say) has no twin of its own.
    if (Twin)
      explainStep(Twin->NameLoc, "assert-like by structure: this definition, on the other "
                                 "side of the same #if, tests the same parameter and "
                                 "reports or aborts");
    else
      explainStep(D.NameLoc, "assert-like by structure: another definition of this name "
                             "only evaluates its parameter, and the one on the other side "
                             "of its #if tests it and reports or aborts");
    break;
  case Recognition::None:
    explainStep(D.NameLoc, "not assert-like: no list names it, no pattern matches it, and "
                           "no definition on the other side of the same #if tests the same "
                           "parameter and reports or aborts");
    break;
  }
  switch (D.Kind) {
  case BodyKind::Evaluating:
    explainStep(D.BodyBegin.isValid() ? D.BodyBegin : D.NameLoc,
                "its body evaluates parameter '" + D.Param +
                    "' and does nothing else with it: disabled, it still costs what its "
                    "argument costs");
    break;
  case BodyKind::NonEvaluating:
    explainStep(D.NameLoc, "its body does not evaluate its argument: nothing to fix");
    return;
  case BodyKind::Other:
    explainStep(D.NameLoc, D.Enabled ? "its body is an enabled form (it tests its condition "
                                       "and reports or aborts): never touched"
                                     : "its body is no disabled form this check knows (it "
                                       "uses the value, does more, or names several "
                                       "parameters): never touched");
    return;
  }
  if (How == Recognition::None)
    return;
  if (!Uses.FirstCostly) {
    explainStep(D.NameLoc, std::to_string(Uses.Seen) +
                               " use(s) in this translation unit, none with a condition "
                               "that does work the compiler must keep (a call it cannot "
                               "see, a report, a loop, a write, a volatile read): nothing "
                               "to gain, not reported");
    return;
  }
  explainStep(SM.getExpansionLoc(Uses.FirstCostly->NameLoc),
              std::to_string(Uses.Seen) +
                  " use(s) in this translation unit; this one's condition does work the "
                  "compiler must keep: " + Uses.FirstCostlyWhy);
  if (Uses.Blocking)
    explainStep(D.NameLoc, "no fix: " + std::to_string(Uses.Blocking) +
                               " use(s) need the argument evaluated (reported at each)");
  else if (Reported)
    explainStep(D.NameLoc, "reported, with the fix: the body becomes '" +
                               assertReplacementBody(D.Param) + "'");
}

} // namespace hotpath
