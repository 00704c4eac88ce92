//===--- SideEffects.h - what evaluating an expression does -----*- C++ -*-===//
//
// One answer to "what does evaluating this code do besides computing a
// value?": whether it writes, calls something that may change state, or
// reads volatile or atomic storage. Code that is evaluated a second time (a
// split check's slow path) or skipped (an argument behind a gate, a disabled
// assert's argument) must not; the options say how strictly to judge calls,
// which differs between "evaluated again" and "dropped".
//
// Also here: whether an expression could trap if evaluated earlier than the
// original program evaluates it (speculation), and expression identity.
//
//===----------------------------------------------------------------------===//

#ifndef HOTPATH_TIDY_ANALYSIS_SIDEEFFECTS_H
#define HOTPATH_TIDY_ANALYSIS_SIDEEFFECTS_H

#include "support/Rules.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/FoldingSet.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace hotpath {

//===----------------------------------------------------------------------===//
// Side effects.
//===----------------------------------------------------------------------===//

/// How strictly side effects are judged.
struct SideEffectOptions {
  enum class CallPolicy {
    /// A call is an effect unless its callee is pure (Purity.h): declared
    /// so, or a visible body that only reads, or pure by the project index.
    /// The effect is said at the call, with why the callee is not pure.
    PureCallees,
    /// Visible bodies are read, a few calls deep: a callee is an effect when
    /// it writes anything but its own locals. Calls a check may drop (a
    /// disabled assert's argument) are judged by what they do.
    VisibleBodies,
  };
  CallPolicy Calls = CallPolicy::PureCallees;
  /// A call whose body cannot be judged (not visible, through a pointer, or
  /// any call not pure under PureCallees) is an effect. Off, it is
  /// taken for a check, as bugprone-assert-side-effect does.
  bool InvisibleCallsAreEffects = true;
  /// A call that only reports or leaves is an effect: off, calls to the rule
  /// set's reporting and noreturn functions, noreturn functions, reporting
  /// macros inside callees and check functions (CheckShape.h) whose
  /// conditions have no effect are let through.
  bool ReportingIsEffect = true;
  /// Reading volatile or atomic storage is an effect (a second read may give
  /// another value).
  bool VolatileReadsAreEffects = true;
  /// A loop in a followed body is an effect (VisibleBodies): a call that may
  /// not return is one the compiler keeps, C letting it assume no loop ends.
  bool LoopsAreEffects = false;
  /// How describe() words the reason.
  enum class Wording {
    Brief,    // "it assigns", "it has an expression with side effects"
    Detailed, // "it assigns to 'n'", "it calls 'push', which assigns to ..."
  };
  Wording Reasons = Wording::Brief;

  /// For code evaluated again or skipped where the original evaluates it
  /// once: nothing but reads of plain storage and pure calls.
  static SideEffectOptions forRepeatedEvaluation();
  /// For code that is dropped (a disabled assert's argument): what changes
  /// state is an effect, reporting is not; \p InvisibleCallsAreEffects as
  /// above.
  static SideEffectOptions forDroppedEvaluation(bool InvisibleCallsAreEffects);
  /// For code whose cost is in question (a disabled assert's argument, whose
  /// value is unused): does it call a function that does work? Reads (of
  /// plain, volatile or atomic storage), address and member computations,
  /// casts, arithmetic, writes to its own statement expressions' locals,
  /// calls declared pure and calls whose visible bodies only read are not;
  /// a call the compiler cannot see, a report, a loop in a callee, a write
  /// are.
  static SideEffectOptions forKeptWork();
};

/// Why code has a side effect. Rendered by describe(), nowhere else.
enum class EffectKind {
  Assigns,             // =, +=, ... (built in, or overloaded with VisibleBodies)
  Increments,          // ++
  Decrements,          // --
  Steps,               // an overloaded ++ or --
  WritesWithOperator,  // an assignment or ++/-- token (tokens only)
  CallsThroughPointer, // no callee known before the call
  CallsNotKnownPure,   // a callee with no body to judge (PureCallees, tokens)
  CallsInvisible,      // a callee whose body is not visible (VisibleBodies)
  CallsOutOfSight,     // pure by the project index, but the compiler keeps the call
  CallsConstructor,    // a constructor with no body to judge (PureCallees)
  CallsVirtual,        // a virtual member an override may replace
  CallsTooDeep,        // past the calls Purity.h follows
  CallsImpureElsewhere, // the project index says why (Spelling)
  Asm,                 // inline assembly
  StaticLocal,         // a non-const static local (Spelling: its name)
  Allocates,           // new
  Deletes,             // delete
  Throws,              // throw
  OtherExpression,     // statement expression, va_arg, atomic builtin
  ReadsVolatile,
  ReadsAtomic,
  Loops,               // a loop in a followed body (LoopsAreEffects)
};

struct SideEffect {
  explicit SideEffect(EffectKind Kind, const clang::Stmt *Where = nullptr)
      : Kind(Kind), Where(Where) {}

  EffectKind Kind;
  /// The code that has the effect, in the innermost function followed to
  /// it; null when judged from tokens.
  const clang::Stmt *Where;
  /// What is written (Assigns, Increments, Decrements, Steps).
  const clang::Expr *Target = nullptr;
  /// The callee (Calls*), when known.
  const clang::FunctionDecl *Callee = nullptr;
  /// As written, when judged from tokens: the operator or the callee's name;
  /// the static local's name; the project index's reason.
  std::string Spelling;
  /// The calls followed to reach it, outermost first.
  llvm::SmallVector<const clang::FunctionDecl *, 2> Via;
  SideEffectOptions::Wording Reasons = SideEffectOptions::Wording::Brief;
};

/// The reason, as a clause: "it increments 'n'", "it calls 'push', which
/// assigns to 'q->len'".
std::string describe(const SideEffect &E, const clang::ASTContext &Ctx);

/// What an effect writes, for a reason: its text when short and written in
/// one place ("'l->items[i]'"), else its name and kind ("'__ptr'", "member
/// 'len' of 'q'", "an element of 'buf'", "what 'p' points to"), else the
/// kind of expression it is. Never empty.
std::string describeTarget(const clang::Expr *Target, const clang::ASTContext &Ctx);

/// A call to a check function (CheckShape.h) whose conditions have no effect:
/// reporting only, let through with ReportingIsEffect off.
struct CheckFunctionCall {
  const clang::FunctionDecl *Function; // its definition
  const clang::CallExpr *Call;
};

struct SideEffectReport {
  /// The first side effect, in evaluation-tree order; none when there is none.
  std::optional<SideEffect> Effect;
  /// Check functions called directly by the code, before the effect if any.
  std::vector<CheckFunctionCall> CheckFunctionCalls;
};

/// Judges \p S, an expression or (in a callee) a statement.
SideEffectReport analyseSideEffects(const clang::Stmt *S, const SideEffectOptions &Opts,
                                    const RuleIndex &Rules, const clang::ASTContext &Ctx);

/// The first side effect of \p S, if any.
std::optional<SideEffect> findSideEffect(const clang::Stmt *S, const SideEffectOptions &Opts,
                                         const RuleIndex &Rules,
                                         const clang::ASTContext &Ctx);

/// Judges code that is not in the AST (a macro argument the active
/// definition drops) from its token spellings, conservatively: assignment and
/// ++/-- tokens, and, when invisible calls are effects, `name (` for a name
/// the rule set does not call pure.
std::optional<SideEffect> findSideEffectInTokens(llvm::ArrayRef<std::string> Tokens,
                                                 const SideEffectOptions &Opts,
                                                 const RuleIndex &Rules);

/// A callee that is declared free of side effects (no body read): const/pure
/// attributes, constexpr, pure builtins, the standard library's observers, or
/// the rule set's pure functions.
bool isKnownPureFunction(const clang::FunctionDecl *FD, const RuleIndex &Rules,
                         const clang::ASTContext &Ctx);

//===----------------------------------------------------------------------===//
// Speculation: evaluating code earlier than the original does.
//===----------------------------------------------------------------------===//

/// Expressions by structural identity (see exprIdentity).
using ExprIdentitySet = std::set<llvm::FoldingSetNodeID>;

/// Why an expression could trap or be undefined when evaluated early.
/// Rendered by describe(), nowhere else.
enum class HazardKind {
  Dereference,     // of a pointer not known to be valid there
  Index,           // array subscript
  Call,            // any call but __builtin_expect / __builtin_constant_p
  Division,        // by a non-constant
  Shift,           // by a non-constant
  SignedOverflow,  // signed + - * <<
  SignedNegation,  // signed unary -
};

struct SpeculationHazard {
  HazardKind Kind;
  const clang::Expr *Where;
};

/// The hazard as a clause: "it indexes memory that an earlier condition may
/// guard".
std::string describe(const SpeculationHazard &H);

/// Pointers (by structural identity) that an expression dereferences on every
/// evaluation, i.e. outside the right of && / || and the arms of ?:.
void collectUnconditionalDerefs(const clang::Expr *E, const clang::ASTContext &Ctx,
                                ExprIdentitySet &Out);

/// The first sub-expression of \p E that could trap or be undefined when
/// evaluated in a state the original program would not evaluate it in (a
/// dereference of a pointer not in \p SafeDerefs, an index, a division by a
/// non-constant, signed arithmetic that can overflow, a call).
std::optional<SpeculationHazard>
findSpeculationHazard(const clang::Expr *E, const clang::ASTContext &Ctx,
                      const ExprIdentitySet &SafeDerefs);

/// Structural identity of an expression, ignoring parentheses and implicit
/// casts.
llvm::FoldingSetNodeID exprIdentity(const clang::Expr *E,
                                    const clang::ASTContext &Ctx);

} // namespace hotpath

#endif // HOTPATH_TIDY_ANALYSIS_SIDEEFFECTS_H
