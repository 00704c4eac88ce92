//===--- GatedCall.cpp - a hook's calls behind its gate -------------------===//

#include "rewrite/GatedCall.h"
#include "rewrite/Edits.h"
#include "source/SourceText.h"
#include "clang/Basic/CharInfo.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace hotpath {

std::string gateTestText(const GateTest &T, const Spelling &Sp) {
  return T.HintHere ? Sp.unlikelyExpr(T.Text, /*Boolean=*/false) : T.Text;
}

namespace {

/// A statement gated with an if: [begin, after ';') replaced.
FixItHint gateStatement(const GatedCall &C, StringRef Test, StringRef Unit,
                        const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::string Stmt = sourceText(C.Whole, Ctx) + ";";
  std::string Ind = indentationAt(C.Whole->getBeginLoc(), SM);
  std::string T = Test.str(), U = Unit.str();
  std::string Text;
  switch (C.Form) {
  case GatedForm::BracedIf:
    // "if (gate) ;" would be -Wempty-body where the hook is an empty
    // macro; outside a block, braces keep an else in place.
    Text = "if (" + T + ") {\n" + Ind + U + Stmt + "\n" + Ind + "}";
    break;
  case GatedForm::BracedBlock:
    Text = "{ if (" + T + ") { " + Stmt + " } }";
    break;
  default:
    Text = "if (" + T + ")\n" + Ind + U + Stmt;
    break;
  }
  return replaceChars(SM.getExpansionLoc(C.Whole->getBeginLoc()), C.StatementEnd, Text);
}

} // namespace

std::optional<FixItHint> gateCall(const GatedCall &C, StringRef Test, StringRef Disabled,
                                  StringRef Unit, const ASTContext &Ctx) {
  std::string Call = sourceText(C.Call, Ctx);
  std::string T = Test.str();
  std::string Text;
  switch (C.Form) {
  case GatedForm::IfStatement:
  case GatedForm::BracedIf:
  case GatedForm::BracedBlock:
    return gateStatement(C, Test, Unit, Ctx);
  case GatedForm::VoidConditional:
    // (gate ? call : 0) keeps it one expression wherever it is.
    Text = "(" + T + " ? " + Call + " : (void)0)";
    break;
  case GatedForm::DiscardedAnd:
    Text = "(void)(" + T + " && (" + Call + ", 1))";
    break;
  case GatedForm::And:
    Text = T + " && " + Call;
    break;
  case GatedForm::ParenthesisedAnd:
    Text = "(" + T + " && " + Call + ")";
    break;
  case GatedForm::Conditional:
    Text = "(" + T + " ? " + Call + " : " + Disabled.str() + ")";
    break;
  }
  return replaceCode(C.Call, Text, Ctx);
}

std::string cloneName(const FunctionDecl *Caller) {
  return Caller->getName().str() + "_hooked";
}

namespace {

/// The test on entry: return the copy's value (or call it and return)
/// while the gate is on.
std::string entryTest(const FunctionDecl *Caller, const GateTest &T, const Spelling &Sp,
                      StringRef Ind, StringRef Unit) {
  std::string Args;
  for (const ParmVarDecl *P : Caller->parameters())
    Args += (Args.empty() ? "" : ", ") + P->getName().str();
  std::string CallClone = cloneName(Caller) + "(" + Args + ")";
  std::string If = T.Switch && Sp.Unlikely == Spelling::UnlikelyKind::CxxAttribute
                       ? Sp.ifUnlikely(T.Text)
                       : "if (" + gateTestText(T, Sp) + ")";
  std::string I = Ind.str(), U = Unit.str();
  if (Caller->getReturnType()->isVoidType())
    return If + " {\n" + I + U + CallClone + ";\n" + I + U + "return;\n" + I + "}\n";
  return If + "\n" + I + U + "return " + CallClone + ";\n";
}

/// The disabled value where the call stood: parenthesised unless it is one
/// identifier or number, so that `x -hook()` does not become `x --3`.
std::string inPlaceOfCall(StringRef Disabled) {
  bool OneToken = !Disabled.empty() && llvm::all_of(Disabled, [](char C) {
    return isAsciiIdentifierContinue(C) || C == '.';
  });
  return OneToken ? Disabled.str() : "(" + Disabled.str() + ")";
}

/// " /* gated above: call */", or "" when the call's text cannot sit in a
/// comment on one line.
std::string gatedAbove(const CallExpr *C, const ASTContext &Ctx) {
  std::string T = sourceText(C, Ctx);
  if (StringRef(T).contains("*/") || StringRef(T).contains('\n'))
    return "";
  return " /* gated above: " + T + " */";
}

} // namespace

CallEdits cloneCaller(const FunctionDecl *Caller, const Stmt *EntryBefore, const GateTest &T,
                       const Spelling &Sp, StringRef Unit, ArrayRef<GatedCall> Calls,
                       StringRef Disabled, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  const auto *Body = cast<CompoundStmt>(Caller->getBody());
  CallEdits E;
  std::optional<std::string> CloneSig =
      cloneSignature(Caller, cloneName(Caller), Sp.ColdAttribute, Ctx);
  std::string BodyText = sourceText(Body, Ctx);
  if (BodyText.empty() || !CloneSig) {
    E.Refused = NoFix{NoFixReason::BodyNotCopyable, Caller->getLocation()};
    return E;
  }
  E.Fixes.push_back(FixItHint::CreateInsertion(SM.getExpansionLoc(Caller->getBeginLoc()),
                                               *CloneSig + "\n" + BodyText + "\n\n"));
  SourceLocation At = EntryBefore ? SM.getExpansionLoc(EntryBefore->getBeginLoc())
                                  : SM.getExpansionLoc(Body->getRBracLoc());
  std::string Ind = EntryBefore
                        ? indentationAt(At, SM)
                        : indentationAt(SM.getExpansionLoc(Body->getBeginLoc()), SM) + Unit.str();
  if (Ind.empty())
    Ind = Unit.str();
  std::string Entry = entryTest(Caller, T, Sp, Ind, Unit);
  E.Fixes.push_back(FixItHint::CreateInsertion(At, EntryBefore ? Entry + Ind : Entry));
  for (const GatedCall &C : Calls) {
    std::string Off = C.isStatement() ? "(void)0" : inPlaceOfCall(Disabled);
    if (std::optional<FixItHint> F = replaceCode(C.Call, Off + gatedAbove(C.Call, Ctx), Ctx))
      E.Fixes.push_back(*F);
  }
  return E;
}

} // namespace hotpath
