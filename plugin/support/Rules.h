//===--- Rules.h - hotpath-tidy rule sets -----------------------*- C++ -*-===//
//
// A rule set says which calls report, which leave, which are pure, which
// macros are asserts, how to spell the emitted code and how much evidence of
// heat a finding needs. Rule sets are YAML files read with LLVM's YAML I/O;
// the presets in rules/ are compiled into the plugin.
//
//===----------------------------------------------------------------------===//

#ifndef HOTPATH_TIDY_RULES_H
#define HOTPATH_TIDY_RULES_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/GlobPattern.h"
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace hotpath {

struct RuleSet {
  std::string Name;
  std::vector<std::string> ReportingFunctions;
  std::vector<std::string> ReportingMacros;
  std::vector<std::string> NoreturnFunctions;
  std::vector<std::string> PureFunctions;
  std::vector<std::string> AssertMacros;
  /// Glob patterns (`*ASSERT*`, `*_BUGON`, `DCHECK*`) naming more assert-like
  /// macros: a macro they name is one when its disabled definition only
  /// evaluates its condition (hotpath-noop-assert).
  std::vector<std::string> AssertMacroPatterns;
  /// Assert-like macros that must evaluate their argument (WARN_ON, BUG_ON,
  /// VERIFY): their value is used or their effect is wanted in every build.
  std::vector<std::string> MustEvaluateMacros;
  /// Functions named hot: each one is hot itself (hot_functions).
  std::vector<std::string> HotFunctions;
  /// Glob patterns (`kmem_cache_alloc`, `kmalloc_node`, `my_alloc*`) naming
  /// functions that run often by nature, wherever they are called from: a
  /// chain of calls down from one counts it as running as often as a hot
  /// chain must, each branch on the way halving it (heat/CallGraph.h,
  /// HeatModel::entryChainIsHot). An allocator is called from everywhere,
  /// often in loops no file of it shows.
  std::vector<std::string> HotEntryPoints;

  struct SpellingRules {
    std::vector<std::string> UnlikelyMacros;
    std::vector<std::string> ColdMacros;
    std::string ReportSuffix = "_report";
  } Spellings;

  struct HotnessRules {
    unsigned MultiBranchThreshold = 3;
    unsigned SingleBranchThreshold = 8;
  } Hotness;

  /// A hook whose body lives in another translation unit (hotpath-hook-gate):
  /// its name and the value it returns while it does nothing ("" when unknown
  /// or void).
  struct HookFunction {
    std::string Name;
    std::string Disabled;
    /// What switches the hook on in the program (a fault-injection
    /// attribute's setup, a debug option): where a new gate's setter must be
    /// called. A new gate is added only for a hook whose enabler is named
    /// (or with NewGateWithSetters), so no hook goes quiet unnoticed.
    std::string EnabledBy;
  };
  std::vector<HookFunction> HookFunctions;

  /// How hotpath-hook-gate spells the gates it adds.
  struct HookGateRules {
    /// "plain": a global bool read under __builtin_expect (never slower,
    /// HookGateCheck.cpp); "atomic": a C11 atomic_bool / C++
    /// std::atomic<bool> read relaxed, for gates switched while other
    /// threads run; "static_key": DEFINE_STATIC_KEY_FALSE and friends.
    std::string Style = "plain";
    /// "hidden" or "default": visibility of the gate variable (atomic style).
    std::string Visibility = "hidden";
    /// Macros that mark a function as an error-injection point
    /// (ALLOW_ERROR_INJECTION(fn, ...)): kept out of line on purpose.
    std::vector<std::string> ErrorInjectionMacros;
    /// Evidence score a call site needs (hook and caller together).
    unsigned Threshold = 2;
    /// Largest caller (in lines) that is cloned so its fast path stays a leaf.
    unsigned CloneMaxLines = 40;
    /// Clone small callers into a cold copy instead of gating each call in
    /// place. Off: the clone duplicates the caller's source, which every
    /// later edit must then change twice; the in-place gate is the shape
    /// maintainers write (docs/checks/hotpath-hook-gate.md has both measured).
    bool CloneCallers = false;
    /// Add a new gate with setters to a hook that has no switch of its own
    /// even when nothing names what switches it on: the gate starts off, so
    /// the hook stays quiet until someone calls the setter.
    bool NewGateWithSetters = false;
  } HookGate;
};

/// Glob patterns over identifiers ("*ASSERT*", "DCHECK*"), with the text of
/// each.
class NamePatterns {
public:
  /// Adds \p Pattern; an error names it when it is not a glob of identifier
  /// characters.
  llvm::Error add(llvm::StringRef Pattern);
  /// The first pattern that matches \p Name, or "".
  llvm::StringRef match(llvm::StringRef Name) const;
  bool empty() const { return Globs.empty(); }

private:
  // A GlobPattern points into the text it was made from: a deque keeps
  // every text where it is.
  std::deque<std::string> Texts;
  std::vector<llvm::GlobPattern> Globs;
};

/// Fast membership tests over a loaded rule set.
struct RuleIndex {
  llvm::StringSet<> ReportingFunctions, ReportingMacros, NoreturnFunctions,
      PureFunctions, AssertMacros, HotFunctions, MustEvaluateMacros;
  /// AssertMacroPatterns (parseRuleSet rejects a malformed one).
  NamePatterns AssertPatterns;
  /// HotEntryPoints, as written (parseRuleSet rejects a malformed one): the
  /// call graph matches them (heat/CallGraph.h).
  std::vector<std::string> HotEntryPoints;
  /// What the project index knows of a function whose body is in another
  /// file, by clang's USR: "" when its body only reads, why not when it does
  /// more ("assigns to 'total'"), none when the index does not know it. Not
  /// set without a project index (analysis/Purity.h).
  std::function<std::optional<std::string>(llvm::StringRef USR)> ProjectPurity;
  explicit RuleIndex(const RuleSet &Rules);
};

/// Names of the presets compiled in from rules/*.yaml.
std::vector<llvm::StringRef> presetNames();

/// Loads a preset by name, or a rule-set file by path. Errors name the file
/// (or preset) and, for malformed YAML, the line and column.
llvm::Expected<RuleSet> loadRuleSet(llvm::StringRef PresetOrPath);
/// Whether \p PresetOrPath names a rule-set file rather than a preset: no
/// preset's name, and a `/` in it or a `.yaml` or `.yml` ending.
bool namesRuleSetFile(llvm::StringRef PresetOrPath);

/// Parses rule-set YAML text; BufferName appears in error messages.
llvm::Expected<RuleSet> parseRuleSet(llvm::StringRef Text,
                                     llvm::StringRef BufferName);

} // namespace hotpath

#endif // HOTPATH_TIDY_RULES_H
