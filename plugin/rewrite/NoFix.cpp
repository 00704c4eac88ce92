//===--- NoFix.cpp - why a finding gets no fix ----------------------------===//

#include "rewrite/NoFix.h"
#include "llvm/Support/ErrorHandling.h"

namespace hotpath {

std::string NoFix::text() const {
  const std::string &S = Subject, &C = Condition, &D = Detail;
  switch (Reason) {
  case NoFixReason::Variadic:
    return "it is variadic";
  case NoFixReason::Virtual:
    return "it is virtual; calls through the vtable would keep paying for it";
  case NoFixReason::Recursive:
    return "it is recursive";
  case NoFixReason::AddressTaken:
    return "its address is taken, and the rewrite would change the function that address "
           "names";
  case NoFixReason::UnnamedParameter:
    return "a parameter has no name to pass on to the slow path";
  case NoFixReason::SuccessDoesMore:
    return "the success path does more than return";
  case NoFixReason::FunctionInMacro:
    return "the function is written by a macro";
  case NoFixReason::PreambleEvaluatedAgain:
    return "the slow path evaluates this preamble again, and " + D;
  case NoFixReason::ConditionEvaluatedAgain:
    return "the slow path evaluates this condition again, and " + D;
  case NoFixReason::SuccessValueHasEffect:
    return "the success value " + D;
  case NoFixReason::ConditionInMacro:
    return "the condition is written by a macro";
  case NoFixReason::DeclarationInMacro:
    return "the declaration is written by a macro";
  case NoFixReason::EvaluatedBeforeEarlierConditions:
    return "the fast path would evaluate this before the earlier conditions, and " + D;
  case NoFixReason::EvaluatedAfterEarlierHolds:
    return "merging the conditions evaluates this one even when an earlier one holds, and " +
           D;
  case NoFixReason::SignatureInMacro:
    return "its signature is written by a macro";
  case NoFixReason::MemberNotDeclaredOnce:
    return "the member is not declared once in its class";
  case NoFixReason::ClassNotInEditableHeader:
    return "the class is not in a header the fix can edit";
  case NoFixReason::InClassDeclarationHasNoSemi:
    return "the in-class declaration has no ';' to follow";
  case NoFixReason::ClassHasNoSemi:
    return "the class definition has no ';' to follow";
  case NoFixReason::AlsoDeclaredElsewhere:
    return "it is also declared in another file";
  case NoFixReason::NoHeaderForFastPath:
    return "it has external linkage and no declaration in a header to put the inline fast "
           "path in";
  case NoFixReason::NotDeclaredOnceInHeader:
    return "it is not declared exactly once, in a header the fix can edit";
  case NoFixReason::HeaderDeclarationNotRewritable:
    return "the header declaration cannot be rewritten";
  case NoFixReason::FastPathNeedsInvisible:
    return "the inline fast path needs " + D + ", which is not visible in '" + S + "'";
  case NoFixReason::BodyVariesByConfiguration:
    return "the body of '" + S + "' is compiled differently under '" + C +
           "'; a fast path made from this configuration would be wrong in the others";
  case NoFixReason::NameThroughMacro:
    return "the slow path names itself with __func__ through macro '" + S +
           "', and would print its new name; a macro is not rewritten for one use";
  case NoFixReason::PrettyFunctionName:
    return "the slow path uses " + S +
           ", whose text is the signature: the rename would change it, and gcc and clang "
           "spell it differently, so no string keeps it";
  case NoFixReason::NeedsCondition:
    return "the new code needs " + S + ", which is there only under '" + C + "'";
  case NoFixReason::ConditionElsewhere:
    return "'" + S + "' is declared only under '" + C +
           "', in another file than the new code: neither a guard nor a mirror keeps "
           "every configuration valid";
  case NoFixReason::SwitchVariesByConfiguration:
    return "the hook's switch is tested differently under '" + C +
           "', so no one test at the call site is right in every configuration";
  case NoFixReason::StaticKeyByConfiguration:
    return "the hook does nothing only under '" + C +
           "' (its body has #if inside); elsewhere its gate must start on, and a static "
           "key's type fixes its start value in every configuration";
  case NoFixReason::CallInMacro:
    return "the call is written by a macro";
  case NoFixReason::ArgumentSideEffect:
    return "the call's arguments have a side effect (" + D + ") that the gate would skip";
  case NoFixReason::UnknownDisabled:
    return "the value the hook returns while it does nothing is unknown; name it in the rule "
           "set (hook_functions: {name, disabled}) or the HookFunctions option";
  case NoFixReason::SwitchNotVisible:
    return "the hook's switch needs " + D + ", which is not visible here";
  case NoFixReason::BodyNotCopyable:
    return "the caller's body cannot be copied";
  case NoFixReason::NotAtFileScope:
    return "the hook is not declared at file scope, where its gate would go";
  case NoFixReason::HeaderNotEditable:
    return "the hook's declaration in a header cannot be edited";
  case NoFixReason::DeclNotEditable:
    return "the hook's declaration cannot be edited";
  case NoFixReason::NoHeaderForGate:
    return "the hook has external linkage and no declaration in a header the fix can edit, "
           "to put its gate in";
  case NoFixReason::NoEnabler:
    // An empty hook kept out of line is switched on from outside the code
    // seen (error injection, a tracer, a replacement at link time): a new
    // gate, off at start, would silence it until something calls its setter.
    return "the hook tests no switch of its own, and nothing names what switches it on: a new "
           "gate would keep it off until something calls " +
           S +
           "_gate_enable(); name that caller in the rule set (hook_functions: enabled_by) or "
           "the HookEnablers option, or set NewGateWithSetters";
  case NoFixReason::CloneNotPlainFunction:
    return "the caller is not a plain function written outside macros";
  case NoFixReason::CloneUnnamedParameter:
    return "a parameter of the caller has no name";
  case NoFixReason::CloneInlineOrHot:
    return "the caller is inline or hot, and a cold noinline copy would conflict with its "
           "attributes";
  case NoFixReason::CloneTooLong:
    return "the caller is longer than " + std::to_string(Count) + " lines";
  case NoFixReason::CloneStaticLocal:
    return "the caller has a static local, which a clone would not share";
  case NoFixReason::CloneNamesItself:
    return "the caller names itself with __func__, which a clone would change";
  case NoFixReason::CloneLabelAddress:
    return "the caller takes the address of a label";
  case NoFixReason::CloneRecursive:
    return "the caller calls itself and has no earlier declaration";
  case NoFixReason::CloneSeveralHooks:
    return "the caller calls more than one hook";
  case NoFixReason::ClonePartlyGated:
    return "some of its calls are gated already";
  case NoFixReason::UsesNeedEvaluation:
    return std::to_string(Count) + (Count == 1 ? " use" : " uses") + " of '" + S +
           "' in this translation unit " + (Count == 1 ? "needs" : "need") +
           " the argument evaluated";
  }
  llvm_unreachable("unknown NoFixReason");
}

llvm::StringRef NoFix::idOf(NoFixReason R) {
  switch (R) {
#define HOTPATH_NOFIX_ID(Name, Id)                                                           \
  case NoFixReason::Name:                                                                    \
    return Id;
    HOTPATH_NOFIX_ID(Variadic, "variadic")
    HOTPATH_NOFIX_ID(Virtual, "virtual")
    HOTPATH_NOFIX_ID(Recursive, "recursive")
    HOTPATH_NOFIX_ID(AddressTaken, "address-taken")
    HOTPATH_NOFIX_ID(UnnamedParameter, "unnamed-parameter")
    HOTPATH_NOFIX_ID(SuccessDoesMore, "success-does-more")
    HOTPATH_NOFIX_ID(FunctionInMacro, "function-in-macro")
    HOTPATH_NOFIX_ID(PreambleEvaluatedAgain, "preamble-evaluated-again")
    HOTPATH_NOFIX_ID(ConditionEvaluatedAgain, "condition-evaluated-again")
    HOTPATH_NOFIX_ID(SuccessValueHasEffect, "success-value-has-effect")
    HOTPATH_NOFIX_ID(ConditionInMacro, "condition-in-macro")
    HOTPATH_NOFIX_ID(DeclarationInMacro, "declaration-in-macro")
    HOTPATH_NOFIX_ID(EvaluatedBeforeEarlierConditions, "evaluated-before-earlier-conditions")
    HOTPATH_NOFIX_ID(EvaluatedAfterEarlierHolds, "evaluated-after-earlier-holds")
    HOTPATH_NOFIX_ID(SignatureInMacro, "signature-in-macro")
    HOTPATH_NOFIX_ID(MemberNotDeclaredOnce, "member-not-declared-once")
    HOTPATH_NOFIX_ID(ClassNotInEditableHeader, "class-not-in-editable-header")
    HOTPATH_NOFIX_ID(InClassDeclarationHasNoSemi, "in-class-declaration-has-no-semi")
    HOTPATH_NOFIX_ID(ClassHasNoSemi, "class-has-no-semi")
    HOTPATH_NOFIX_ID(AlsoDeclaredElsewhere, "also-declared-elsewhere")
    HOTPATH_NOFIX_ID(NoHeaderForFastPath, "no-header-for-fast-path")
    HOTPATH_NOFIX_ID(NotDeclaredOnceInHeader, "not-declared-once-in-header")
    HOTPATH_NOFIX_ID(HeaderDeclarationNotRewritable, "header-declaration-not-rewritable")
    HOTPATH_NOFIX_ID(FastPathNeedsInvisible, "fast-path-needs-invisible")
    HOTPATH_NOFIX_ID(BodyVariesByConfiguration, "body-varies-by-configuration")
    HOTPATH_NOFIX_ID(NameThroughMacro, "name-through-macro")
    HOTPATH_NOFIX_ID(PrettyFunctionName, "pretty-function-name")
    HOTPATH_NOFIX_ID(NeedsCondition, "needs-condition")
    HOTPATH_NOFIX_ID(ConditionElsewhere, "condition-elsewhere")
    HOTPATH_NOFIX_ID(SwitchVariesByConfiguration, "switch-varies-by-configuration")
    HOTPATH_NOFIX_ID(StaticKeyByConfiguration, "static-key-by-configuration")
    HOTPATH_NOFIX_ID(CallInMacro, "call-in-macro")
    HOTPATH_NOFIX_ID(ArgumentSideEffect, "argument-side-effect")
    HOTPATH_NOFIX_ID(UnknownDisabled, "unknown-disabled")
    HOTPATH_NOFIX_ID(SwitchNotVisible, "switch-not-visible")
    HOTPATH_NOFIX_ID(BodyNotCopyable, "body-not-copyable")
    HOTPATH_NOFIX_ID(NotAtFileScope, "not-at-file-scope")
    HOTPATH_NOFIX_ID(HeaderNotEditable, "header-not-editable")
    HOTPATH_NOFIX_ID(DeclNotEditable, "decl-not-editable")
    HOTPATH_NOFIX_ID(NoHeaderForGate, "no-header-for-gate")
    HOTPATH_NOFIX_ID(NoEnabler, "no-enabler")
    HOTPATH_NOFIX_ID(CloneNotPlainFunction, "clone-not-plain-function")
    HOTPATH_NOFIX_ID(CloneUnnamedParameter, "clone-unnamed-parameter")
    HOTPATH_NOFIX_ID(CloneInlineOrHot, "clone-inline-or-hot")
    HOTPATH_NOFIX_ID(CloneTooLong, "clone-too-long")
    HOTPATH_NOFIX_ID(CloneStaticLocal, "clone-static-local")
    HOTPATH_NOFIX_ID(CloneNamesItself, "clone-names-itself")
    HOTPATH_NOFIX_ID(CloneLabelAddress, "clone-label-address")
    HOTPATH_NOFIX_ID(CloneRecursive, "clone-recursive")
    HOTPATH_NOFIX_ID(CloneSeveralHooks, "clone-several-hooks")
    HOTPATH_NOFIX_ID(ClonePartlyGated, "clone-partly-gated")
    HOTPATH_NOFIX_ID(UsesNeedEvaluation, "uses-need-evaluation")
#undef HOTPATH_NOFIX_ID
  }
  llvm_unreachable("unknown NoFixReason");
}

} // namespace hotpath
