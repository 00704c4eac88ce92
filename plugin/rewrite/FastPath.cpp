//===--- FastPath.cpp - the text and edits of a check split ---------------===//

#include "rewrite/FastPath.h"
#include "rewrite/Edits.h"
#include "source/SourceText.h"
#include "source/Tokens.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace hotpath {

namespace {

bool isBooleanLike(const Expr *E, const ASTContext &Ctx) {
  E = E->IgnoreParenImpCasts();
  if (E->getType()->isBooleanType())
    return true;
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return BO->isComparisonOp() || BO->isLogicalOp();
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return UO->getOpcode() == UO_LNot;
  return false;
}

/// Just after the last token of \p FD's definition (its '}').
SourceLocation afterDefinition(const FunctionDecl *FD, const ASTContext &Ctx) {
  return Lexer::getLocForEndOfToken(FD->getEndLoc(), 0, Ctx.getSourceManager(),
                                    Ctx.getLangOpts());
}

/// Writes one plan's text and edits.
class FastPathWriter {
public:
  FastPathWriter(const FastPathPlan &P, const RuleSet &Rules, const SourceLayout &Layout,
                 const ASTContext &Ctx)
      : P(P), FD(P.FD), Shape(*P.Shape), Rules(Rules), Layout(Layout), Ctx(Ctx),
        SM(Ctx.getSourceManager()), ReportName(reporterName(P.FD, Rules)) {}

  FastPathEdits write() {
    switch (P.Placement) {
    case FastPathPlacement::InPlace:
      return inPlace();
    case FastPathPlacement::Header:
      return inHeader();
    case FastPathPlacement::Member:
    case FastPathPlacement::MemberOfHeaderClass:
      return member();
    }
    llvm_unreachable("unknown placement");
  }

private:
  /// Why the edits cannot be written, at \p Loc (the function's name when
  /// none), where it is expanded.
  FastPathEdits refuse(NoFixReason R, SourceLocation Loc = {}) {
    FastPathEdits Out;
    Out.Refused = NoFix{R, SM.getExpansionLoc(Loc.isValid() ? Loc : FD->getLocation())};
    return Out;
  }

  /// Internal linkage: the fast path follows the definition.
  FastPathEdits inPlace() {
    std::optional<std::string> Inline = inlineSignature(FD, false, Ctx);
    if (!Inline)
      return refuse(NoFixReason::SignatureInMacro);
    std::string Fast = fastPath(*Inline);
    FastPathEdits Out;
    renameOriginal(Out.Fixes);
    Out.Fixes.push_back(FixItHint::CreateInsertion(afterDefinition(FD, Ctx), "\n\n" + Fast));
    return Out;
  }

  /// External linkage: the header's declaration becomes the slow path's,
  /// and the fast path follows it.
  FastPathEdits inHeader() {
    const FunctionDecl *HeaderDecl = P.Declaration;
    SourceLocation Point = SM.getExpansionLoc(HeaderDecl->getBeginLoc());
    SourceLocation DeclEnd = afterNextToken(
        tok::semi, SM.getExpansionLoc(HeaderDecl->getEndLoc()), SM, Ctx.getLangOpts());
    std::optional<std::string> ReportDecl = reportDeclaration(HeaderDecl);
    std::optional<std::string> Inline =
        inlineSignature(FD, /*MakeStatic=*/!Ctx.getLangOpts().CPlusPlus, Ctx);
    if (DeclEnd.isInvalid() || HeaderDecl->getLocation().isMacroID() || !ReportDecl || !Inline)
      return refuse(NoFixReason::HeaderDeclarationNotRewritable, HeaderDecl->getLocation());
    std::string Fast = fastPath(*Inline);
    FastPathEdits Out;
    std::string Helpers;
    for (const FunctionDecl *Helper : P.MovedHelpers) {
      std::optional<std::string> Text = movedHelper(Helper, Out.Fixes);
      if (!Text)
        return refuse(NoFixReason::HelperNotMovable, Helper->getLocation());
      Helpers += *Text + "\n\n";
    }
    Out.Fixes.push_back(FixItHint::CreateReplacement(
        CharSourceRange::getCharRange(Point, DeclEnd), *ReportDecl + "\n\n" + Helpers + Fast));
    renameOriginal(Out.Fixes);
    return Out;
  }

  /// The text of \p Helper as the header gets it, static inline, and its
  /// removal from its file (its lines, and one blank line after them).
  std::optional<std::string> movedHelper(const FunctionDecl *Helper,
                                         std::vector<FixItHint> &Fixes) {
    std::string Text = sourceText(Helper->getSourceRange(), Ctx);
    if (!StringRef(Text).starts_with("static") || Text.size() < 7 ||
        !isspace(static_cast<unsigned char>(Text[6])))
      return std::nullopt;
    if (!Helper->isInlineSpecified())
      Text.insert(6, " inline");
    SourceLocation Begin = startOfLine(Helper->getBeginLoc(), SM);
    SourceLocation End = startOfNextLine(Helper->getEndLoc(), SM);
    if (End.isValid() && *SM.getCharacterData(End) == '\n')
      End = End.getLocWithOffset(1);
    if (Begin.isInvalid() || End.isInvalid())
      return std::nullopt;
    Fixes.push_back(FixItHint::CreateRemoval(CharSourceRange::getCharRange(Begin, End)));
    return Text;
  }

  /// A member: the class declares the slow path after the member; the fast
  /// path follows the definition, or the class when that is in a header.
  FastPathEdits member() {
    const FunctionDecl *InClass = P.Declaration;
    SourceLocation DeclEnd =
        afterNextToken(tok::semi, InClass->getEndLoc(), SM, Ctx.getLangOpts());
    std::optional<std::string> ReportDecl = reportDeclaration(InClass);
    std::optional<std::string> Inline = inlineSignature(FD, false, Ctx);
    if (DeclEnd.isInvalid() || !ReportDecl || !Inline)
      return refuse(NoFixReason::InClassDeclarationHasNoSemi, InClass->getLocation());
    FastPathEdits Out;
    Out.Fixes.push_back(FixItHint::CreateInsertion(
        DeclEnd, "\n" + indentationAt(InClass->getBeginLoc(), SM) + *ReportDecl));
    renameOriginal(Out.Fixes);
    std::string Fast = fastPath(*Inline);
    SourceLocation After = afterDefinition(FD, Ctx);
    if (P.Placement == FastPathPlacement::MemberOfHeaderClass) {
      After = afterNextToken(tok::semi, P.Class->getEndLoc(), SM, Ctx.getLangOpts());
      if (After.isInvalid())
        return refuse(NoFixReason::ClassHasNoSemi, P.Class->getLocation());
    }
    Out.Fixes.push_back(FixItHint::CreateInsertion(After, "\n\n" + Fast));
    return Out;
  }

  /// Cold attribute and new name for the original definition; what it
  /// prints as its own name stays the old one.
  void renameOriginal(std::vector<FixItHint> &Fixes) {
    Fixes.push_back(coldAttributeInsertion(FD, P.Sp, Ctx));
    Fixes.push_back(replaceToken(FD->getLocation(), ReportName, SM));
    llvm::append_range(Fixes, functionNameLiterals(FD, Ctx).Fixes);
  }

  /// Declaration text of the slow path, from a declaration of the function.
  std::optional<std::string> reportDeclaration(const FunctionDecl *Decl) {
    std::optional<std::string> Renamed = renamedSignature(Decl, ReportName, Ctx);
    if (!Renamed)
      return std::nullopt;
    return P.Sp.ColdAttribute + " " + *Renamed + ";";
  }

  std::string fastPath(StringRef Signature);
  std::string joinedCondition();
  std::string branchCondition(const FailureBranch &B, bool Alone);

  /// One test of the joined condition, without the hint it carries.
  struct Test {
    std::string Text;
    bool Boolean; // a truth value already: no "!!" needed
    bool Tight;   // binds tighter than && and ||: no parentheses needed
  };
  Test test(const Expr *Cond, bool Negate);

  const FastPathPlan &P;
  const FunctionDecl *FD;
  const CheckShape &Shape;
  const RuleSet &Rules;
  const SourceLayout &Layout;
  const ASTContext &Ctx;
  const SourceManager &SM;
  std::string ReportName;
};

/// The kept conditions, each without a hint it carries, joined with ||.
/// Measured (scripts/bench-matrix.sh, callgrind, after/before): where the
/// caller tests the same bound again (samples/bounds-copy), `|` costs
/// 1.038 with gcc PGO+LTO and `||` 1.000, and at -O2 gcc `||` keeps
/// 0.989 of the check's cost off against 0.944; where it does not
/// (extent-buffer's two conditions), `|` is better with clang (0.902
/// against 0.822 at -O2) but neither is slower than the original. `||`
/// is never slower; `|` is not.
///
/// An early success exit guards the tests after it, as the original tests
/// them: "a; if (ok) return; b; c" is "a || (!ok && (b || c))", each exit
/// evaluated once.
std::string FastPathWriter::joinedCondition() {
  bool Alone = P.Kept.size() == 1 && P.KeptExits.empty();
  // From the last test back: what follows is an || of tests (Or), an
  // exit's && (And), or one test.
  enum { One, Or, And } Kind = One;
  std::string Out;
  size_t Exit = P.KeptExits.size();
  for (size_t I = P.Kept.size(); I-- > 0;) {
    std::string Text = branchCondition(*P.Kept[I], Alone);
    Out = Out.empty() ? Text : Text + " || " + (Kind == And ? "(" + Out + ")" : Out);
    Kind = Kind == One && Out == Text ? One : Or;
    // The exits between this branch and the one before it.
    for (unsigned Before = I == 0 ? 0 : P.Kept[I - 1]->ExitsBefore; Exit > Before; --Exit) {
      Test T = test(P.KeptExits[Exit - 1]->Cond, /*Negate=*/true);
      Out = T.Text + " && " + (Kind == Or ? "(" + Out + ")" : Out);
      Kind = And;
    }
  }
  return Out;
}

FastPathWriter::Test FastPathWriter::test(const Expr *Cond, bool Negate) {
  BareCondition C = withoutHint(Cond, Rules, Ctx);
  // Comparisons and unary tests bind tighter than && and ||; a negation
  // only leaves a unary or postfix operand unparenthesised.
  const Expr *Bare = C.E->IgnoreParenImpCasts();
  const auto *BO = dyn_cast<BinaryOperator>(Bare);
  bool Unary = isa<UnaryOperator, DeclRefExpr, MemberExpr, CallExpr>(Bare);
  if (Negate)
    return {Unary ? "!" + C.Text : "!(" + C.Text + ")", true, true};
  return {C.Text, isBooleanLike(C.E, Ctx), (BO && BO->isComparisonOp()) || Unary};
}

/// What takes branch \p B: its condition, its guards' before it joined
/// with && in the order the original tests them, the condition negated for
/// a guard written the other way round. \p Alone: the only test.
std::string FastPathWriter::branchCondition(const FailureBranch &B, bool Alone) {
  if (B.Guards.empty()) {
    Test T = test(B.Cond, B.Negated);
    if (!T.Boolean)
      return "!!(" + T.Text + ")";
    return Alone || T.Tight ? T.Text : "(" + T.Text + ")";
  }
  std::string Out;
  for (const Expr *Cond : B.conditions()) {
    Test T = test(Cond, B.Negated && Cond == B.Cond);
    Out += (Out.empty() ? "" : " && ") + (T.Tight ? T.Text : "(" + T.Text + ")");
  }
  // "a && b || c" draws -Wparentheses.
  return Alone ? Out : "(" + Out + ")";
}

std::string FastPathWriter::fastPath(StringRef Signature) {
  const auto *Body = cast<CompoundStmt>(FD->getBody());
  // The body's own indentation, one level more for the branch: as the
  // file indents (tabs, or spaces of its width).
  std::string Unit = indentUnit(FD->getLocation(), SM, Layout);
  std::string Ind = indentationAt((*Body->body_begin())->getBeginLoc(), SM);
  if (Ind.empty())
    Ind = Unit;
  // A body indented otherwise than most of its file (a function of tabs
  // added to lz4's file of spaces) keeps its own kind for the next level.
  bool Tabs = Ind.find_first_not_of('\t') == std::string::npos;
  bool Spaces = Ind.find_first_not_of(' ') == std::string::npos;
  if (Tabs)
    Unit = "\t";
  else if (Spaces && Unit == "\t")
    Unit = Ind;
  std::string Ind2 = Ind + Unit;
  // Keep the original's brace placement: "{" on its own line or not.
  bool BraceOnOwnLine = SM.getExpansionColumnNumber(Body->getLBracLoc()) <=
                        indentationAt(Body->getLBracLoc(), SM).size() + 1;

  std::string Args;
  for (const ParmVarDecl *Param : FD->parameters())
    Args += (Args.empty() ? "" : ", ") + Param->getName().str();
  std::string Call = ReportName + "(" + Args + ")";

  std::string Out = Signature.str() + (BraceOnOwnLine ? "\n{\n" : " {\n");
  for (size_t I : P.KeptDecls)
    Out += Ind + sourceText(Shape.Preamble[I], Ctx) +
           (isa<Expr>(Shape.Preamble[I]) ? ";" : "") + "\n";
  Out += Ind + P.Sp.ifUnlikely(joinedCondition());
  if (FD->getReturnType()->isVoidType()) {
    Out += "\n" + Ind2 + Call + ";\n";
  } else if (P.FailureValue) {
    // Measured: a void-style call then the constant beats a tail call.
    Out += " {\n" + Ind2 + "(void)" + Call + ";\n" + Ind2 + "return " +
           sourceText(P.FailureValue, Ctx) + ";\n" + Ind + "}\n";
  } else {
    Out += " {\n" + Ind2 + "return " + Call + ";\n" + Ind + "}\n";
  }
  if (Shape.Success && Shape.Success->getRetValue())
    Out += Ind + "return " + sourceText(Shape.Success->getRetValue(), Ctx) + ";\n";
  Out += "}";
  return Out;
}

} // namespace

SourceLocation fastPathPoint(FastPathPlacement Placement, const FunctionDecl *FD,
                             const FunctionDecl *Declaration, const CXXRecordDecl *Class,
                             const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  switch (Placement) {
  case FastPathPlacement::InPlace:
  case FastPathPlacement::Member:
    return FD->getEndLoc();
  case FastPathPlacement::MemberOfHeaderClass:
    return Lexer::getLocForEndOfToken(Class->getEndLoc(), 0, SM, Ctx.getLangOpts());
  case FastPathPlacement::Header:
    // "bool" is a macro in C: the declaration starts where it is expanded.
    return SM.getExpansionLoc(Declaration->getBeginLoc());
  }
  llvm_unreachable("unknown placement");
}

std::string reporterName(const FunctionDecl *FD, const RuleSet &Rules) {
  return FD->getName().str() + Rules.Spellings.ReportSuffix;
}

FastPathEdits writeFastPath(const FastPathPlan &Plan, const RuleSet &Rules,
                            const SourceLayout &Layout, const ASTContext &Ctx) {
  return FastPathWriter(Plan, Rules, Layout, Ctx).write();
}

} // namespace hotpath
