//===--- GatedCall.h - a hook's calls behind its gate -----------*- C++ -*-===//
//
// How hotpath-hook-gate rewrites a hot call to a hook: in place, the call
// behind the gate's test in the form its use allows (`if (gate) call;`,
// `gate && call`, `(gate ? call : disabled)`, braces where the hook may be
// an empty macro in another configuration); or, for a caller cloned on
// request, a cold copy of the caller and a test on entry that tail-calls
// it. The planner says which form each call takes; this file writes it.
//
//===----------------------------------------------------------------------===//

#ifndef HOTPATH_TIDY_REWRITE_GATEDCALL_H
#define HOTPATH_TIDY_REWRITE_GATEDCALL_H

#include "rewrite/NoFix.h"
#include "rewrite/Spelling.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/Diagnostic.h"
#include "llvm/ADT/ArrayRef.h"
#include <optional>
#include <string>
#include <vector>

namespace hotpath {

/// The test a gated call makes, and how it is hinted.
struct GateTest {
  /// The hook's switch as written, the gate's test, or an accessor's call.
  std::string Text;
  /// Hinted unlikely at the call: a switch tested directly (a gate's or a
  /// switch's accessor hints itself).
  bool HintHere = false;
  /// The hook's own switch, directly or through its accessor: a C++20 test
  /// on entry to a cloned caller is an `if (...) [[unlikely]]`.
  bool Switch = false;
};

/// What a gated call becomes, by the way its value is used.
enum class GatedForm {
  // The value is not used (a statement).
  IfStatement,     // `if (gate)\n\tcall;`, in a block
  BracedIf,        // `if (gate) {\n\tcall;\n}`, in a block, where the hook
                   // may be an empty macro in another configuration
  BracedBlock,     // `{ if (gate) { call; } }`, the same outside a block
  VoidConditional, // `(gate ? call : (void)0)`: one expression, a void call
  DiscardedAnd,    // `(void)(gate && (call, 1))`: one expression, a value
  // The value is used.
  And,             // `gate && call`: a condition, or a truth value in parens
  ParenthesisedAnd, // `(gate && call)`: a truth value
  Conditional,     // `(gate ? call : disabled)`
};

struct GatedCall {
  const clang::CallExpr *Call = nullptr;
  GatedForm Form = GatedForm::Conditional;
  /// IfStatement, BracedIf, BracedBlock: the statement (the call or its
  /// (void) cast) and the end of its ';'.
  const clang::Stmt *Whole = nullptr;
  clang::SourceLocation StatementEnd;

  /// Its value is not used.
  bool isStatement() const { return Form <= GatedForm::DiscardedAnd; }
};

/// The test as the call spells it, hinted unlikely with \p Sp when
/// \p T.HintHere.
std::string gateTestText(const GateTest &T, const Spelling &Sp);

/// \p C behind the test \p Test (spelled: gateTestText); \p Disabled is the
/// hook's value while it does nothing, \p Unit one level of indentation.
/// None when the call is not one range of a file.
std::optional<clang::FixItHint> gateCall(const GatedCall &C, llvm::StringRef Test,
                                         llvm::StringRef Disabled, llvm::StringRef Unit,
                                         const clang::ASTContext &Ctx);

/// The name of \p Caller's cold copy: caller_hooked.
std::string cloneName(const clang::FunctionDecl *Caller);

/// A cold copy of \p Caller in front of it, which makes the calls; in the
/// caller, \p T tested on entry (before \p EntryBefore, or its closing
/// brace when null) tail-calls the copy, and each of \p Calls becomes the
/// value \p Disabled (or `(void)0`), with a comment quoting it.
struct CallEdits {
  std::vector<clang::FixItHint> Fixes;
  std::optional<NoFix> Refused; // the body or signature cannot be copied
};
CallEdits cloneCaller(const clang::FunctionDecl *Caller, const clang::Stmt *EntryBefore,
                       const GateTest &T, const Spelling &Sp, llvm::StringRef Unit,
                       llvm::ArrayRef<GatedCall> Calls, llvm::StringRef Disabled,
                       const clang::ASTContext &Ctx);

} // namespace hotpath

#endif // HOTPATH_TIDY_REWRITE_GATEDCALL_H
