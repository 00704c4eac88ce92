//===--- Finding.h - what a check found, before it is emitted ---*- C++ -*-===//
//
// A check decides; the base check (HotpathCheck::emit) says it: the warning,
// the notes that always go with it, then either "no fix: <reason>" (NoFix)
// or the fix-its and the notes about the fix; and, for tools, the same as
// data (FindingData). So "no fix" and "is hot" are worded in one place, and
// nothing downstream parses a message.
//
//===----------------------------------------------------------------------===//

#ifndef HOTPATH_TIDY_CORE_FINDING_H
#define HOTPATH_TIDY_CORE_FINDING_H

#include "analysis/CallSites.h"
#include "core/FindingData.h"
#include "rewrite/NoFix.h"
#include "clang/AST/Decl.h"
#include "clang/Basic/Diagnostic.h"
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace hotpath {

/// One argument of a diagnostic's format: %0, %1...
using DiagArg = std::variant<std::string, unsigned, const clang::NamedDecl *>;

/// A diagnostic's text: a format and its arguments, as clang's DiagnosticBuilder
/// takes them ("check function %0 tests %1 conditions", FD, 2).
struct Message {
  clang::SourceLocation Loc;
  std::string Format;
  std::vector<DiagArg> Args;
};

/// The kinds of findings, for tools (FindingData::Kind).
namespace kind {
inline constexpr llvm::StringLiteral CheckFunction = "check-function";
inline constexpr llvm::StringLiteral InlineReporting = "inline-reporting";
inline constexpr llvm::StringLiteral HookCall = "hook-call";
inline constexpr llvm::StringLiteral HookGateDeclaration = "hook-gate-declaration";
inline constexpr llvm::StringLiteral HookGateDefinition = "hook-gate-definition";
inline constexpr llvm::StringLiteral HookSwitchAccessor = "hook-switch-accessor";
inline constexpr llvm::StringLiteral NoopAssert = "noop-assert";
inline constexpr llvm::StringLiteral AssertArgumentEffect = "assert-argument-effect";
inline constexpr llvm::StringLiteral AssertArgumentNotScalar = "assert-argument-not-scalar";
} // namespace kind

struct Finding {
  llvm::StringRef Kind;
  std::string Subject;  // the function or macro it is about
  Message Warning;
  /// Said with the warning, fix or not: why it is hot (HotpathCheck::
  /// heatNote), what the hook is.
  std::vector<Message> Notes;
  /// Why no fix is offered; none: Fixes are offered and FixNotes said.
  std::optional<NoFix> Refused;
  std::vector<clang::FixItHint> Fixes;
  std::vector<Message> FixNotes;
  /// Replacements of code by its own text: they change nothing, but make
  /// clang-tidy (or clang-apply-replacements) drop a rewrite of that code
  /// another TU offers (rewrite/AssertMacro.h keepDefinition). Said with or
  /// without a fix, since what they protect holds either way.
  std::vector<clang::FixItHint> Guards;
  /// For tools: the code it is about (none: the declaration or statement at
  /// the warning), evidence in other files.
  std::vector<clang::CharSourceRange> Extent;
  std::vector<FindingData::Lines> Evidence;
  /// The profile's share of samples that made it hot, if a profile did.
  std::optional<double> ProfileShare;
};

} // namespace hotpath

#endif // HOTPATH_TIDY_CORE_FINDING_H
