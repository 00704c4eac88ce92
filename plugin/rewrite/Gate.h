//===--- Gate.h - a hook's gate and its switch accessor ---------*- C++ -*-===//
//
// The code hotpath-hook-gate adds next to a hook: a new gate (its variable,
// the inline accessor its callers test, the setters that switch the hook
// on, and the always-on stand-in for configurations where the hook is not
// the one analysed), and the accessor of a switch that the hook's callers
// cannot see. The check's planner decides what goes where (GateSpec,
// GatePlacement, SwitchAccessorSpec); this file writes it.
//
//===----------------------------------------------------------------------===//

#ifndef HOTPATH_TIDY_REWRITE_GATE_H
#define HOTPATH_TIDY_REWRITE_GATE_H

#include "rewrite/Edits.h"
#include "source/SourceLayout.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/ArrayRef.h"
#include <optional>
#include <string>
#include <vector>

namespace hotpath {

/// How one hook's new gate is spelled.
struct GateSpec {
  std::string Hook;
  std::string Style = "plain";       // "plain", "atomic" or "static_key"
  std::string Visibility = "hidden"; // of an extern gate variable: "hidden" or "default"
  bool Cxx = false, Cxx20 = false;
  /// DECLARE_STATIC_KEY_FALSE is defined wherever the gate goes: no
  /// <linux/jump_label.h> to include.
  bool StaticKeyMacroVisible = false;
  /// `bool` is defined there (<stdbool.h>), in C.
  bool BoolVisible = false;
  std::string Unit; // one level of indentation
};

/// The text of one hook's gate. Styles, measured on samples/slab-alloc
/// (scripts/bench-matrix.sh, callgrind, after/before; the fix's clone shape):
///   plain   a plain global bool read under __builtin_expect:
///           gcc -O2 0.901, -flto 0.884, PGO+LTO 0.826; clang -O2 0.902,
///           -flto 1.000 (LTO folds a gate that is never switched on)
///   atomic  a relaxed atomic_bool: gcc -O2 0.917, but -flto 1.058 and
///           PGO+LTO 1.203, where LTO had hoisted the empty hook's call
///           out of the loop and cannot move or fold an atomic load
/// so plain is the default, never slower; atomic is for gates switched
/// while other threads run the gated code.
class GateWriter {
public:
  explicit GateWriter(GateSpec S);

  /// The kernel names a hook's key after what it says: should_failslab_active.
  std::string var() const;
  /// The inline function callers test: hook_gate_enabled.
  std::string accessor() const;
  /// The setter that switches the hook on: hook_gate_enable.
  std::string enabler() const;
  /// The test at a call site: a static key is read there, as the mm patch
  /// does (static_branch_unlikely(&should_failslab_active) && ...), unless
  /// another configuration has the always-on stand-in (\p Mirrored) or the
  /// gate is all in one file (\p Mirrored too: its accessor would be unused).
  std::string test(bool Mirrored) const;
  /// The header the gate's type needs, if any (angled).
  std::optional<std::string> header() const;

  /// Header declarations (header mode).
  /// \p Mirrored: another configuration has the always-on stand-in, so
  /// callers test the accessor; a static key otherwise needs none.
  std::string headerDecl(bool Mirrored) const;
  /// Definitions for the hook's own file (header mode); the gate starts on
  /// unless \p OffWhen holds (the configuration whose hook does nothing).
  std::string definition(llvm::StringRef Header, llvm::ArrayRef<ConditionLiteral> OffWhen) const;
  /// Everything in one file (no header): \p Static for a static hook.
  std::string local(bool Static, llvm::ArrayRef<ConditionLiteral> OffWhen) const;
  /// For configurations where the hook is not the one analysed (another
  /// branch of the #if around its declaration): a gate that is always on,
  /// so each gated call is made as before, and setters that do nothing.
  /// \p InMainFile: unused static functions there are warned about.
  std::string alwaysOn(bool InMainFile) const;

private:
  std::string params() const;
  std::string comment() const;
  std::string visibility() const;
  std::string type() const;
  std::string truth(bool On) const;
  std::string varDefinition(llvm::StringRef Prefix, bool On) const;
  std::string varDefinitions(llvm::StringRef Prefix,
                             llvm::ArrayRef<ConditionLiteral> OffWhen) const;
  std::string accessorText(llvm::StringRef Prefix) const;
  std::string setters(llvm::StringRef Prefix) const;

  GateSpec S;
  std::string Bool;
};

/// Where a new gate's text goes, as the planner decided.
struct GatePlacement {
  /// Header: declared next to the hook's declaration in its header, defined
  /// next to its body. OneFile: all of it after the hook's first declaration.
  enum class Mode { Header, OneFile } Where = Mode::OneFile;
  /// Where the declarations (or, OneFile, everything) go; invalid when the
  /// gate is declared already.
  clang::SourceLocation DeclAt;
  /// DeclAt is inside an #if of its file: every other branch gets the
  /// always-on stand-in.
  bool Mirrored = false;
  /// OneFile: the hook is static, and so is its gate.
  bool StaticHook = false;
  /// Header mode: the definitions, after the hook's body (invalid: none),
  /// under DefGuard (what the header's declaration needs beyond it), naming
  /// the header.
  clang::SourceLocation DefAt;
  std::vector<ConditionLiteral> DefGuard;
  std::string HeaderName;
  /// The configuration the hook's body was analysed in: the gate starts off
  /// there, on elsewhere.
  std::vector<ConditionLiteral> OffWhen;
};

/// The edits of one new gate.
struct GateEdits {
  /// Header mode: next to the header's declaration (with the stand-in in
  /// the other branches and the include the gate's type needs), and next
  /// to the hook's body.
  std::vector<clang::FixItHint> Declaration, Definition;
  /// OneFile: everything, in the file with the hook.
  std::vector<clang::FixItHint> OneFile;
};
GateEdits writeGate(const GateWriter &W, const GatePlacement &P, const SourceLayout &Layout,
                    const clang::SourceManager &SM, IncludeInserter &Includes);

/// An accessor for a switch that the hook tests in another file and its
/// callers cannot see, next to the hook's declaration in its header.
struct SwitchAccessorSpec {
  std::string Hook;
  std::string Switch;     // as the hook's file writes it
  std::string SwitchFile; // that file, as messages name it
  clang::SourceLocation At; // after the header's declaration of the hook
  /// The declaration is under an #if: a macro, 0 in the other branches,
  /// whose names need be visible only where it is used.
  bool Macro = false;
  /// Declarations of what the switch reads that the header does not see.
  std::vector<std::string> Externs;
};
/// "hook_switch_on", and the test that calls it, "hook_switch_on()".
std::string switchAccessorName(llvm::StringRef Hook);
std::string switchAccessorTest(llvm::StringRef Hook);
std::vector<clang::FixItHint> writeSwitchAccessor(const SwitchAccessorSpec &A,
                                                  const SourceLayout &Layout,
                                                  const clang::SourceManager &SM);

} // namespace hotpath

#endif // HOTPATH_TIDY_REWRITE_GATE_H
