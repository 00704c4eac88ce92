//===--- NoFix.h - why a finding gets no fix --------------------*- C++ -*-===//
//
// The one list of reasons a finding is reported without a fix (or a fix is
// made in a plainer shape), one text each. The checks and the rewrite layer
// say which reason holds and where; HotpathCheck renders it as the note
// "no fix: <text>", and FindingData carries its id, so that tools never read
// the English (docs/architecture.md). As clang-tidy's RenamerClangTidyCheck
// keeps its ShouldFixStatus.
//
//===----------------------------------------------------------------------===//

#ifndef HOTPATH_TIDY_REWRITE_NOFIX_H
#define HOTPATH_TIDY_REWRITE_NOFIX_H

#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/StringRef.h"
#include <string>

namespace hotpath {

enum class NoFixReason {
  // Whatever the finding: its TU did not compile (HotpathCheck::emit).
  TranslationUnitHasErrors,
  // What the function is (hotpath-check-split).
  Variadic,
  Virtual,
  Recursive,
  AddressTaken,
  UnnamedParameter,
  SuccessDoesMore,
  FunctionInMacro,
  // What the fast path evaluates again; Detail: the side effect or hazard.
  PreambleEvaluatedAgain,
  ConditionEvaluatedAgain,
  SuccessValueHasEffect,
  ConditionInMacro,
  DeclarationInMacro,
  EvaluatedBeforeEarlierConditions,
  EvaluatedAfterEarlierHolds,
  // Where the fast path goes.
  SignatureInMacro,
  MemberNotDeclaredOnce,
  ClassNotInEditableHeader,
  InClassDeclarationHasNoSemi,
  ClassHasNoSemi,
  AlsoDeclaredElsewhere,
  NoHeaderForFastPath,
  NotDeclaredOnceInHeader,
  HeaderDeclarationNotRewritable,
  // The build mode (support/BuildMode.h): clang -flto. Detail: the mode as
  // BuildMode::describe says it; Subject: the function.
  LTOResultDiscarded, // Loc: the call that throws the result away
  LTOCallersUnseen,
  /// Detail: what the fast path needs, as InvisibleName renders it;
  /// Subject: the file it goes into.
  FastPathNeedsInvisible,
  /// Subject: the helper; Condition: the header; Detail: why it stays.
  HelperNotMovable,
  // Every configuration and the name a moved body prints (rewrite layer).
  BodyVariesByConfiguration, // Subject: the function; Condition: "#ifdef X"
  NameThroughMacro,          // Subject: the macro
  PrettyFunctionName,        // Subject: __PRETTY_FUNCTION__ or __FUNCSIG__
  NeedsCondition,            // Subject: what is needed; Condition
  ConditionElsewhere,        // Subject: the name; Condition
  SwitchVariesByConfiguration,
  StaticKeyByConfiguration,
  // Hook calls and gates (hotpath-hook-gate).
  CallInMacro,
  ArgumentSideEffect, // Detail: the side effect
  UnknownDisabled,
  SwitchNotVisible, // Detail: what is not visible, as InvisibleName renders it
  BodyNotCopyable,
  NotAtFileScope,
  HeaderNotEditable,
  DeclNotEditable,
  NoHeaderForGate,
  NoEnabler, // Subject: the hook
  /// A new gate whose fix would gate no call: none here can be, and the
  /// project index shows none another file's run gates. Subject: the hook.
  GateGatesNoCall,
  /// A call in a header, and a gate that can only be declared in the main
  /// file (the hook has no declaration in a header), after it.
  GateAfterCall,
  // Why a caller is gated in place rather than cloned (CloneCallers).
  CloneNotPlainFunction,
  CloneUnnamedParameter,
  CloneInlineOrHot,
  CloneTooLong, // Count: the limit
  CloneStaticLocal,
  CloneNamesItself,
  CloneLabelAddress,
  CloneRecursive,
  CloneSeveralHooks,
  ClonePartlyGated,
  // Disabled asserts (hotpath-noop-assert).
  UsesNeedEvaluation, // Subject: the macro; Count: the uses
  /// Subject: the macro; Count: the uses; Detail: where the first is and
  /// what it does.
  UsesInProjectNeedEvaluation,
  /// Subject: the macro; Detail: the header that defines it.
  UsesUnknownWithoutIndex,
};

/// A reason, where it holds, and what its text names.
struct NoFix {
  NoFix(NoFixReason Reason, clang::SourceLocation Loc = {}, std::string Subject = "",
        std::string Condition = "", std::string Detail = "", unsigned Count = 0)
      : Reason(Reason), Loc(Loc), Subject(std::move(Subject)),
        Condition(std::move(Condition)), Detail(std::move(Detail)), Count(Count) {}

  NoFixReason Reason;
  clang::SourceLocation Loc;
  std::string Subject;   // the function, macro, hook or name concerned
  std::string Condition; // a preprocessor condition, "#ifdef EXTRA"
  std::string Detail;    // a side effect, a hazard, what is not visible
  unsigned Count = 0;

  /// The reason in words, as the note "no fix: <text>" says it.
  std::string text() const;
  /// A stable id for tools ("variadic", "uses-need-evaluation").
  llvm::StringRef id() const { return idOf(Reason); }
  static llvm::StringRef idOf(NoFixReason R);
};

} // namespace hotpath

#endif // HOTPATH_TIDY_REWRITE_NOFIX_H
