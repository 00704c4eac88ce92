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
  /// Assert-like macros that must evaluate their argument (WARN_ON, BUG_ON,
  /// VERIFY): their value is used or their effect is wanted in every build.
  std::vector<std::string> MustEvaluateMacros;
  std::vector<std::string> HotFunctions;

  struct SpellingRules {
    std::vector<std::string> UnlikelyMacros;
    std::vector<std::string> ColdMacros;
    std::string ReportSuffix = "_report";
  } Spellings;

  struct HotnessRules {
    unsigned MultiBranchThreshold = 3;
    unsigned SingleBranchThreshold = 8;
  } Hotness;
};

/// Fast membership tests over a loaded rule set.
struct RuleIndex {
  llvm::StringSet<> ReportingFunctions, ReportingMacros, NoreturnFunctions,
      PureFunctions, AssertMacros, HotFunctions, MustEvaluateMacros;
  explicit RuleIndex(const RuleSet &Rules);
};

/// Names of the presets compiled in from rules/*.yaml.
std::vector<llvm::StringRef> presetNames();

/// Loads a preset by name, or a rule-set file by path. Errors name the file
/// (or preset) and, for malformed YAML, the line and column.
llvm::Expected<RuleSet> loadRuleSet(llvm::StringRef PresetOrPath);

/// Parses rule-set YAML text; BufferName appears in error messages.
llvm::Expected<RuleSet> parseRuleSet(llvm::StringRef Text,
                                     llvm::StringRef BufferName);

} // namespace hotpath

#endif // HOTPATH_TIDY_RULES_H
