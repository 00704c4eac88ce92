//===--- NoFix.cpp - why a finding gets no fix ----------------------------===//

#include "rewrite/NoFix.h"
#include "llvm/Support/ErrorHandling.h"

namespace hotpath {

namespace {
/// One row per reason: its id for tools and its text, with {S} the
/// subject, {C} the condition, {D} the detail, {N} the count and {one|many}
/// a word that follows the count; other braces are the text's own.
struct Row {
  NoFixReason Reason;
  const char *Id;
  const char *Text;
};
const Row Rows[] = {
    // clang-tidy applies nothing of such a TU unless -fix-errors, but
    // --export-fixes exports its fix-its all the same (and run-clang-tidy
    // -fix, clang-apply-replacements apply them): an edit planned from an
    // AST with holes in it (a declaration that did not parse, a call to an
    // undeclared function) may be wrong, and a header edit reaches TUs that
    // compile.
    {NoFixReason::TranslationUnitHasErrors, "translation-unit-has-errors",
     "the translation unit has compile errors; no fix is offered from it"},
    {NoFixReason::Variadic, "variadic",
     "it is variadic"},
    {NoFixReason::Virtual, "virtual",
     "it is virtual; calls through the vtable would keep paying for it"},
    {NoFixReason::Recursive, "recursive",
     "it is recursive"},
    {NoFixReason::AddressTaken, "address-taken",
     "its address is taken, and the rewrite would change the function that "
     "address names"},
    {NoFixReason::UnnamedParameter, "unnamed-parameter",
     "a parameter has no name to pass on to the slow path"},
    {NoFixReason::SuccessDoesMore, "success-does-more",
     "the success path does more than return"},
    {NoFixReason::FunctionInMacro, "function-in-macro",
     "the function is written by a macro"},
    {NoFixReason::PreambleEvaluatedAgain, "preamble-evaluated-again",
     "the slow path evaluates this preamble again, and {D}"},
    {NoFixReason::ConditionEvaluatedAgain, "condition-evaluated-again",
     "the slow path evaluates this condition again, and {D}"},
    {NoFixReason::SuccessValueHasEffect, "success-value-has-effect",
     "the success value {D}"},
    {NoFixReason::ConditionInMacro, "condition-in-macro",
     "the condition is written by a macro"},
    {NoFixReason::DeclarationInMacro, "declaration-in-macro",
     "the declaration is written by a macro"},
    {NoFixReason::EvaluatedBeforeEarlierConditions, "evaluated-before-earlier-conditions",
     "the fast path would evaluate this before the earlier conditions, and {D}"},
    {NoFixReason::EvaluatedAfterEarlierHolds, "evaluated-after-earlier-holds",
     "merging the conditions evaluates this one even when an earlier one holds, "
     "and {D}"},
    {NoFixReason::SignatureInMacro, "signature-in-macro",
     "its signature is written by a macro"},
    {NoFixReason::MemberNotDeclaredOnce, "member-not-declared-once",
     "the member is not declared once in its class"},
    {NoFixReason::ClassNotInEditableHeader, "class-not-in-editable-header",
     "the class is not in a header the fix can edit"},
    {NoFixReason::InClassDeclarationHasNoSemi, "in-class-declaration-has-no-semi",
     "the in-class declaration has no ';' to follow"},
    {NoFixReason::ClassHasNoSemi, "class-has-no-semi",
     "the class definition has no ';' to follow"},
    {NoFixReason::AlsoDeclaredElsewhere, "also-declared-elsewhere",
     "it is also declared in another file"},
    {NoFixReason::NoHeaderForFastPath, "no-header-for-fast-path",
     "it has external linkage and no declaration in a header to put the inline "
     "fast path in"},
    {NoFixReason::NotDeclaredOnceInHeader, "not-declared-once-in-header",
     "it is not declared exactly once, in a header the fix can edit"},
    {NoFixReason::HeaderDeclarationNotRewritable, "header-declaration-not-rewritable",
     "the header declaration cannot be rewritten"},
    // Measured by scripts/bench-matrix.sh on samples/bounds-copy, whose
    // accessors (another file) throw the check's result away and test the
    // bound again: clang's LTO inlines the original check there and folds
    // the second test; no fast-path shape lets it (the void call: 1.076 of
    // the original's instructions with -flto, 1.085 with PGO+LTO; the best
    // shape measured, a tail call into the slow path: 1.008 with -flto and
    // 1.005 with PGO+LTO; the table of shapes is on the check's page).
    {NoFixReason::LTOResultDiscarded, "lto-result-discarded",
     "built with {D} (this compile command), a caller that throws away what "
     "'{S}' returns and tests the same bound again was slower after the fix "
     "with every fast-path shape measured: 1.076 of the original's "
     "instructions with -flto, 1.085 with PGO+LTO (samples/bounds-copy), "
     "since clang's LTO inlines the original check there already"},
    {NoFixReason::LTOCallersUnseen, "lto-callers-unseen",
     "built with {D} (this compile command), a caller that throws away what "
     "'{S}' returns and tests the same bound again was slower after the fix "
     "with every fast-path shape measured (1.076 of the original's "
     "instructions with -flto, 1.085 with PGO+LTO, samples/bounds-copy), and "
     "whether its callers in other files do is not known here"},
    {NoFixReason::FastPathNeedsInvisible, "fast-path-needs-invisible",
     "the inline fast path needs {D}, which is not visible in '{S}'"},
    {NoFixReason::HelperNotMovable, "helper-not-movable",
     "the inline fast path calls '{S}', a static function of this file, which "
     "cannot move into '{C}' before it: {D}"},
    {NoFixReason::BodyVariesByConfiguration, "body-varies-by-configuration",
     "the body of '{S}' is compiled differently under '{C}'; a fast path made "
     "from this configuration would be wrong in the others"},
    {NoFixReason::NameThroughMacro, "name-through-macro",
     "the slow path names itself with __func__ through macro '{S}', and would "
     "print its new name; a macro is not rewritten for one use"},
    {NoFixReason::PrettyFunctionName, "pretty-function-name",
     "the slow path uses {S}, whose text is the signature: the rename would "
     "change it, and gcc and clang spell it differently, so no string keeps it"},
    {NoFixReason::NeedsCondition, "needs-condition",
     "the new code needs {S}, which is there only under '{C}'"},
    {NoFixReason::ConditionElsewhere, "condition-elsewhere",
     "'{S}' is declared only under '{C}', in another file than the new code: "
     "neither a guard nor a mirror keeps every configuration valid"},
    {NoFixReason::SwitchVariesByConfiguration, "switch-varies-by-configuration",
     "the hook's switch is tested differently under '{C}', so no one test at "
     "the call site is right in every configuration"},
    {NoFixReason::StaticKeyByConfiguration, "static-key-by-configuration",
     "the hook does nothing only under '{C}' (its body has #if inside); "
     "elsewhere its gate must start on, and a static key's type fixes its start "
     "value in every configuration"},
    {NoFixReason::CallInMacro, "call-in-macro",
     "the call is written by a macro"},
    {NoFixReason::ArgumentSideEffect, "argument-side-effect",
     "the call's arguments have a side effect ({D}) that the gate would skip"},
    {NoFixReason::UnknownDisabled, "unknown-disabled",
     "the value the hook returns while it does nothing is unknown; name it in "
     "the rule set (hook_functions: {name, disabled}) or the HookFunctions "
     "option"},
    {NoFixReason::SwitchNotVisible, "switch-not-visible",
     "the hook's switch needs {D}, which is not visible here"},
    {NoFixReason::BodyNotCopyable, "body-not-copyable",
     "the caller's body cannot be copied"},
    {NoFixReason::NotAtFileScope, "not-at-file-scope",
     "the hook is not declared at file scope, where its gate would go"},
    {NoFixReason::HeaderNotEditable, "header-not-editable",
     "the hook's declaration in a header cannot be edited"},
    {NoFixReason::DeclNotEditable, "decl-not-editable",
     "the hook's declaration cannot be edited"},
    {NoFixReason::NoHeaderForGate, "no-header-for-gate",
     "the hook has external linkage and no declaration in a header the fix can "
     "edit, to put its gate in"},
    // An empty hook kept out of line is switched on from outside the code
    // seen (error injection, a tracer, a replacement at link time): a new
    // gate, off at start, would silence it until something calls its setter.
    {NoFixReason::NoEnabler, "no-enabler",
     "the hook tests no switch of its own, and nothing names what switches it "
     "on: a new gate would keep it off until something calls {S}_gate_enable(); "
     "name that caller in the rule set (hook_functions: enabled_by) or the "
     "HookEnablers option, or set NewGateWithSetters"},
    // Issue 26: the should_failslab fix declared and defined a gate with
    // its setters but gated no call (the hot one was in a header); a gate
    // nothing tests is a global, two functions and a header line for nothing.
    {NoFixReason::GateGatesNoCall, "gate-gates-no-call",
     "no hot call of '{S}' can be gated here; a gate that gates no call only costs"},
    {NoFixReason::GateAfterCall, "gate-after-call",
     "the call is in a header, and the hook has no declaration in a header to put "
     "its gate next to: declared in the main file, the gate would come after the call"},
    {NoFixReason::CloneNotPlainFunction, "clone-not-plain-function",
     "the caller is not a plain function written outside macros"},
    {NoFixReason::CloneUnnamedParameter, "clone-unnamed-parameter",
     "a parameter of the caller has no name"},
    {NoFixReason::CloneInlineOrHot, "clone-inline-or-hot",
     "the caller is inline or hot, and a cold noinline copy would conflict with "
     "its attributes"},
    {NoFixReason::CloneTooLong, "clone-too-long",
     "the caller is longer than {N} lines"},
    {NoFixReason::CloneStaticLocal, "clone-static-local",
     "the caller has a static local, which a clone would not share"},
    {NoFixReason::CloneNamesItself, "clone-names-itself",
     "the caller names itself with __func__, which a clone would change"},
    {NoFixReason::CloneLabelAddress, "clone-label-address",
     "the caller takes the address of a label"},
    {NoFixReason::CloneRecursive, "clone-recursive",
     "the caller calls itself and has no earlier declaration"},
    {NoFixReason::CloneSeveralHooks, "clone-several-hooks",
     "the caller calls more than one hook"},
    {NoFixReason::ClonePartlyGated, "clone-partly-gated",
     "some of its calls are gated already"},
    {NoFixReason::UsesNeedEvaluation, "uses-need-evaluation",
     "{N}{ use| uses} of '{S}' in this translation unit {needs|need} the "
     "argument evaluated"},
    {NoFixReason::UsesInProjectNeedEvaluation, "uses-in-project-need-evaluation",
     "{N}{ use| uses} of '{S}' in the project {needs|need} the argument evaluated "
     "(the project index; the first at {D})"},
    {NoFixReason::UsesUnknownWithoutIndex, "uses-unknown-without-index",
     "'{S}' is defined in {D}, which other translation units may use with an "
     "argument that needs evaluating; with ProjectIndex (hotpath-tidy --index-only "
     "-p <build-dir>) every use is known"},
};

const Row &rowOf(NoFixReason R) {
  for (const Row &X : Rows)
    if (X.Reason == R)
      return X;
  llvm_unreachable("a NoFixReason without a row");
}
} // namespace

std::string NoFix::text() const {
  llvm::StringRef T = rowOf(Reason).Text;
  std::string Out;
  while (!T.empty()) {
    size_t Open = T.find('{');
    Out += T.take_front(Open).str();
    if (Open == llvm::StringRef::npos)
      break;
    size_t Close = T.find('}', Open);
    llvm::StringRef Field = T.slice(Open + 1, Close);
    if (Field == "S")
      Out += Subject;
    else if (Field == "C")
      Out += Condition;
    else if (Field == "D")
      Out += Detail;
    else if (Field == "N")
      Out += std::to_string(Count);
    else if (Field.contains('|')) // {one|many}
      Out += Count == 1 ? Field.split('|').first.str() : Field.split('|').second.str();
    else // braces of the text itself ("hook_functions: {name, disabled}")
      Out += T.slice(Open, Close + 1).str();
    T = T.drop_front(Close + 1);
  }
  return Out;
}

llvm::StringRef NoFix::idOf(NoFixReason R) { return rowOf(R).Id; }

} // namespace hotpath
