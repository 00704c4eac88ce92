//===--- MacroBody.cpp - what an assert-like macro's body does ------------===//

#include "analysis/MacroBody.h"
#include "analysis/Reporting.h"
#include "clang/Basic/CharInfo.h"
#include "llvm/ADT/STLExtras.h"
#include <vector>

using namespace clang;
using llvm::ArrayRef;
using llvm::StringRef;

namespace hotpath {

namespace {
/// Recursive descent over a macro body's token spellings.
class BodyParser {
public:
  BodyParser(ArrayRef<std::string> T, StringRef P) : T(T), P(P) {}

  /// The forms a disabled assert takes that evaluate the argument and do
  /// nothing else with it: an expression cast to void, `do S while (0)`,
  /// `if (x) {}`.
  bool evaluatingForm() {
    for (auto Form : {&BodyParser::doWhile, &BodyParser::ifStmt, &BodyParser::voidExpr}) {
      I = 0;
      SawParam = false;
      if ((this->*Form)() && I == T.size() && SawParam)
        return true;
    }
    return false;
  }

private:
  bool at(StringRef S, size_t Ahead = 0) const {
    return I + Ahead < T.size() && T[I + Ahead] == S;
  }
  bool eat(StringRef S) {
    if (!at(S))
      return false;
    ++I;
    return true;
  }
  bool castTo(std::initializer_list<StringRef> Types) {
    for (StringRef Ty : Types)
      if (at("(") && at(Ty, 1) && at(")", 2)) {
        I += 3;
        return true;
      }
    return false;
  }
  /// The argument, maybe negated, cast or parenthesised: evaluated, value
  /// unused further.
  bool evalExpr() {
    size_t S = I;
    if (eat(P))
      return SawParam = true;
    if (eat("!") && evalExpr())
      return true;
    I = S;
    if (castTo({"void", "bool", "_Bool", "int", "long"}) && evalExpr())
      return true;
    I = S;
    if (eat("(") && evalExpr() && eat(")"))
      return true;
    I = S;
    if (eat("static_cast") && eat("<") && (eat("void") || eat("bool")) && eat(">") &&
        eat("(") && evalExpr() && eat(")"))
      return true;
    I = S;
    return false;
  }
  /// An expression whose value is discarded by a cast to void.
  bool voidExpr() {
    size_t S = I;
    if (castTo({"void"}) && evalExpr())
      return true;
    I = S;
    if (eat("static_cast") && eat("<") && eat("void") && eat(">") && eat("(") &&
        evalExpr() && eat(")"))
      return true;
    I = S;
    if (eat("(") && voidExpr() && eat(")"))
      return true;
    I = S;
    return false;
  }
  bool ifStmt() {
    size_t S = I;
    if (eat("if") && eat("(") && evalExpr() && eat(")")) {
      if (eat(";"))
        return true;
      if (eat("{")) {
        while (eat(";"))
          ;
        if (eat("}") && !at("else"))
          return true;
      }
    }
    I = S;
    return false;
  }
  bool stmt() {
    size_t S = I;
    if (eat(";"))
      return true;
    if (eat("{")) {
      while (!at("}") && I < T.size())
        if (!stmt()) {
          I = S;
          return false;
        }
      if (eat("}"))
        return true;
      I = S;
      return false;
    }
    if (ifStmt())
      return true;
    if ((voidExpr() || evalExpr()) && eat(";"))
      return true;
    I = S;
    return false;
  }
  bool doWhile() {
    return eat("do") && stmt() && eat("while") && eat("(") && eat("0") && eat(")");
  }

  ArrayRef<std::string> T;
  StringRef P;
  size_t I = 0;
  bool SawParam = false; // do {} while (0) evaluates nothing
};

/// Strips balanced outer parentheses around the whole token list.
ArrayRef<std::string> stripOuterParens(ArrayRef<std::string> T) {
  while (T.size() >= 2 && T.front() == "(" && T.back() == ")") {
    int Depth = 0;
    bool Whole = true;
    for (size_t I = 0; I < T.size(); ++I) {
      Depth += T[I] == "(" ? 1 : T[I] == ")" ? -1 : 0;
      if (Depth == 0 && I + 1 < T.size()) {
        Whole = false;
        break;
      }
    }
    if (!Whole)
      break;
    T = T.drop_front().drop_back();
  }
  return T;
}
} // namespace

MacroBodyKind classifyMacroBody(ArrayRef<std::string> Tokens, StringRef Param) {
  if (Tokens.empty())
    return MacroBodyKind::NonEvaluating;
  if (BodyParser(Tokens, Param).evaluatingForm())
    return MacroBodyKind::Evaluating;
  // do {} while (0), ((void)0), (void)sizeof(...), (void)(0 && ...).
  static const std::vector<std::string> EmptyDo = {"do", "{", "}", "while", "(", "0", ")"};
  if (Tokens == ArrayRef<std::string>(EmptyDo))
    return MacroBodyKind::NonEvaluating;
  ArrayRef<std::string> T = stripOuterParens(Tokens);
  if (T.size() >= 4 && T[0] == "(" && T[1] == "void" && T[2] == ")") {
    ArrayRef<std::string> R = T.drop_front(3);
    while (!R.empty() && R.front() == "(")
      R = R.drop_front();
    if (!R.empty() && (R[0] == "sizeof" || (R.size() == 1 && R[0] == "0") ||
                       (R.size() >= 2 && (R[0] == "0" || R[0] == "false") &&
                        (R[1] == "&&" || R[1] == ")"))))
      return MacroBodyKind::NonEvaluating;
  }
  return MacroBodyKind::Other;
}

bool namesFailure(StringRef N, const RuleIndex &Rules) {
  return Rules.ReportingFunctions.contains(N) || Rules.ReportingMacros.contains(N) ||
         Rules.NoreturnFunctions.contains(N) || Rules.MustEvaluateMacros.contains(N) ||
         Rules.AssertMacros.contains(N) || !Rules.AssertPatterns.match(N).empty() ||
         nameSaysReporting(N) || nameSaysAborting(N);
}

bool isEvaluatingFormWord(StringRef Word) {
  // BodyParser's words: casts, static_cast, do/while (0), if.
  return Word == "void" || Word == "bool" || Word == "_Bool" || Word == "int" ||
         Word == "long" || Word == "static_cast" || Word == "do" || Word == "while" ||
         Word == "0" || Word == "if";
}

bool isEnabledAssertBody(ArrayRef<std::string> Tokens, StringRef Param,
                         const RuleIndex &Rules) {
  if (Param.empty() || !llvm::is_contained(Tokens, Param))
    return false;
  auto Fails = [&](StringRef N) { return namesFailure(N, Rules); };
  auto IsIdent = [](StringRef T) { return !T.empty() && isAsciiIdentifierStart(T[0]); };
  // A body that tests and calls something that fails, or one that hands
  // its argument to such a call first: BUG_ON(cond), assert(!(cond)), whose
  // test is the other macro's. The names are looked up last, and only as
  // far as the answer needs (every function-like definition of sqlite3.c
  // comes here).
  bool Tests = llvm::any_of(
      Tokens, [](StringRef T) { return T == "if" || T == "?" || T == "&&" || T == "||"; });
  bool MayDelegate = Tokens.size() > 1 && IsIdent(Tokens[0]) && Tokens[1] == "(";
  if (!Tests)
    return MayDelegate && Fails(Tokens[0]);
  for (size_t I = 0; I + 1 < Tokens.size(); ++I)
    if (IsIdent(Tokens[I]) && Tokens[I + 1] == "(" && Fails(Tokens[I]))
      return true;
  return false;
}


std::optional<unsigned> conditionParameter(ArrayRef<std::string> Params,
                                           ArrayRef<std::string> Tokens) {
  unsigned Named = 0, Index = 0;
  for (unsigned I = 0; I < Params.size(); ++I)
    if (llvm::is_contained(Tokens, Params[I])) {
      ++Named;
      Index = I;
    }
  if (Named != 1)
    return std::nullopt;
  return Index;
}

} // namespace hotpath
