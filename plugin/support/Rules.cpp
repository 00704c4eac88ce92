//===--- Rules.cpp - hotpath-tidy rule sets -------------------------------===//

#include "support/Rules.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLTraits.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;


LLVM_YAML_IS_SEQUENCE_VECTOR(hotpath::RuleSet::HookFunction)

namespace llvm::yaml {
template <> struct MappingTraits<hotpath::RuleSet::SpellingRules> {
  static void mapping(IO &Io, hotpath::RuleSet::SpellingRules &S) {
    Io.mapOptional("unlikely_macros", S.UnlikelyMacros);
    Io.mapOptional("cold_macros", S.ColdMacros);
    Io.mapOptional("report_suffix", S.ReportSuffix);
  }
};
template <> struct MappingTraits<hotpath::RuleSet::HotnessRules> {
  static void mapping(IO &Io, hotpath::RuleSet::HotnessRules &H) {
    Io.mapOptional("multi_branch_threshold", H.MultiBranchThreshold);
    Io.mapOptional("single_branch_threshold", H.SingleBranchThreshold);
  }
};
template <> struct MappingTraits<hotpath::RuleSet::HookFunction> {
  static void mapping(IO &Io, hotpath::RuleSet::HookFunction &H) {
    Io.mapRequired("name", H.Name);
    Io.mapOptional("disabled", H.Disabled);
    Io.mapOptional("enabled_by", H.EnabledBy);
  }
};
template <> struct MappingTraits<hotpath::RuleSet::HookGateRules> {
  static void mapping(IO &Io, hotpath::RuleSet::HookGateRules &G) {
    Io.mapOptional("style", G.Style);
    Io.mapOptional("visibility", G.Visibility);
    Io.mapOptional("error_injection_macros", G.ErrorInjectionMacros);
    Io.mapOptional("threshold", G.Threshold);
    Io.mapOptional("clone_max_lines", G.CloneMaxLines);
    Io.mapOptional("clone_callers", G.CloneCallers);
    Io.mapOptional("new_gate_with_setters", G.NewGateWithSetters);
  }
};
template <> struct MappingTraits<hotpath::RuleSet> {
  static void mapping(IO &Io, hotpath::RuleSet &R) {
    Io.mapOptional("name", R.Name);
    Io.mapOptional("reporting_functions", R.ReportingFunctions);
    Io.mapOptional("reporting_macros", R.ReportingMacros);
    Io.mapOptional("noreturn_functions", R.NoreturnFunctions);
    Io.mapOptional("pure_functions", R.PureFunctions);
    Io.mapOptional("assert_macros", R.AssertMacros);
    Io.mapOptional("assert_macro_patterns", R.AssertMacroPatterns);
    Io.mapOptional("must_evaluate_macros", R.MustEvaluateMacros);
    Io.mapOptional("hot_functions", R.HotFunctions);
    Io.mapOptional("hot_entry_points", R.HotEntryPoints);
    Io.mapOptional("spellings", R.Spellings);
    Io.mapOptional("hotness", R.Hotness);
    Io.mapOptional("hook_functions", R.HookFunctions);
    Io.mapOptional("hook_gate", R.HookGate);
  }
};
} // namespace llvm::yaml

namespace hotpath {
namespace {
struct Preset {
  const char *Name;
  const char *Text;
};
const Preset Presets[] = {
#include "Presets.inc"
};

void insertAll(StringSet<> &Set, const std::vector<std::string> &Names) {
  for (const std::string &N : Names)
    Set.insert(N);
}
} // namespace

RuleIndex::RuleIndex(const RuleSet &Rules) {
  insertAll(ReportingFunctions, Rules.ReportingFunctions);
  insertAll(ReportingMacros, Rules.ReportingMacros);
  insertAll(NoreturnFunctions, Rules.NoreturnFunctions);
  insertAll(PureFunctions, Rules.PureFunctions);
  insertAll(AssertMacros, Rules.AssertMacros);
  insertAll(HotFunctions, Rules.HotFunctions);
  insertAll(MustEvaluateMacros, Rules.MustEvaluateMacros);
  for (const std::string &P : Rules.AssertMacroPatterns)
    consumeError(AssertPatterns.add(P)); // parseRuleSet rejected a bad one
  HotEntryPoints = Rules.HotEntryPoints;
}

Error NamePatterns::add(StringRef Pattern) {
  // Identifiers and glob syntax only: a pattern is matched against macro
  // names, so anything else is a typo that would silently match nothing.
  if (Pattern.empty() ||
      Pattern.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                "0123456789_*?[]!-^") != StringRef::npos)
    return createStringError(inconvertibleErrorCode(),
                             "pattern '%s' is not a glob of identifier characters "
                             "('*ASSERT*', '*_BUGON', 'DCHECK*')",
                             Pattern.str().c_str());
  Texts.push_back(Pattern.str());
  Expected<GlobPattern> G = GlobPattern::create(Texts.back());
  if (!G) {
    Texts.pop_back();
    return createStringError(inconvertibleErrorCode(), "pattern '%s': %s",
                             Pattern.str().c_str(), toString(G.takeError()).c_str());
  }
  Globs.push_back(std::move(*G));
  return Error::success();
}

StringRef NamePatterns::match(StringRef Name) const {
  for (size_t I = 0; I < Globs.size(); ++I)
    if (Globs[I].match(Name))
      return Texts[I];
  return "";
}

std::vector<StringRef> presetNames() {
  std::vector<StringRef> Names;
  for (const Preset &P : Presets)
    Names.push_back(P.Name);
  return Names;
}

Expected<RuleSet> parseRuleSet(StringRef Text, StringRef BufferName) {
  // YAML I/O reports through a SourceMgr whose buffer carries the file name,
  // so messages read "rules.yaml:3:5: error: ...".
  std::string Message;
  auto Handler = [](const SMDiagnostic &D, void *Ctx) {
    auto *Out = static_cast<std::string *>(Ctx);
    if (!Out->empty())
      return; // The first error is the cause; later ones are follow-ups.
    raw_string_ostream OS(*Out);
    OS << D.getFilename() << ":" << D.getLineNo() << ":" << (D.getColumnNo() + 1)
       << ": " << D.getMessage();
  };
  std::unique_ptr<MemoryBuffer> Buffer =
      MemoryBuffer::getMemBuffer(Text, BufferName, /*RequiresNullTerminator=*/false);
  // An empty document parses as all defaults: say so instead.
  bool HasContent = false;
  for (StringRef Line : llvm::split(Text, '\n')) {
    Line = Line.trim();
    HasContent |= !Line.empty() && !Line.starts_with("#") && Line != "---" && Line != "...";
  }
  if (!HasContent)
    return createStringError(inconvertibleErrorCode(),
                             "%s: the rule set is empty; give at least 'name:'",
                             BufferName.str().c_str());
  RuleSet Rules;
  yaml::Input In(Buffer->getMemBufferRef(), /*Ctxt=*/nullptr, Handler, &Message);
  In >> Rules;
  if (In.error()) {
    if (Message.empty())
      Message = (BufferName + ": malformed rule set").str();
    return createStringError(inconvertibleErrorCode(), "%s", Message.c_str());
  }
  if (Rules.Spellings.ReportSuffix.empty() ||
      StringRef(Rules.Spellings.ReportSuffix)
              .find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") !=
          StringRef::npos)
    return createStringError(inconvertibleErrorCode(),
                             "%s: spellings.report_suffix '%s' is not an identifier suffix",
                             BufferName.str().c_str(),
                             Rules.Spellings.ReportSuffix.c_str());
  NamePatterns Patterns;
  for (const std::string &P : Rules.AssertMacroPatterns)
    if (Error E = Patterns.add(P))
      return createStringError(inconvertibleErrorCode(), "%s: assert_macro_patterns: %s",
                               BufferName.str().c_str(), toString(std::move(E)).c_str());
  for (const std::string &P : Rules.HotEntryPoints)
    if (Error E = Patterns.add(P))
      return createStringError(inconvertibleErrorCode(), "%s: hot_entry_points: %s",
                               BufferName.str().c_str(), toString(std::move(E)).c_str());
  if (Rules.HookGate.Style != "plain" && Rules.HookGate.Style != "atomic" &&
      Rules.HookGate.Style != "static_key")
    return createStringError(inconvertibleErrorCode(),
                             "%s: hook_gate.style '%s' is not 'plain', 'atomic' or 'static_key'",
                             BufferName.str().c_str(), Rules.HookGate.Style.c_str());
  if (Rules.HookGate.Visibility != "hidden" && Rules.HookGate.Visibility != "default")
    return createStringError(inconvertibleErrorCode(),
                             "%s: hook_gate.visibility '%s' is not 'hidden' or 'default'",
                             BufferName.str().c_str(), Rules.HookGate.Visibility.c_str());
  return Rules;
}

bool namesRuleSetFile(StringRef PresetOrPath) {
  for (const Preset &P : Presets)
    if (PresetOrPath == P.Name)
      return false;
  return PresetOrPath.contains('/') || PresetOrPath.ends_with(".yaml") ||
         PresetOrPath.ends_with(".yml");
}

Expected<RuleSet> loadRuleSet(StringRef PresetOrPath) {
  for (const Preset &P : Presets)
    if (PresetOrPath == P.Name)
      return parseRuleSet(P.Text, (Twine("preset '") + P.Name + "'").str());
  if (!namesRuleSetFile(PresetOrPath)) {
    std::string Known;
    for (const Preset &P : Presets)
      Known += (Known.empty() ? "" : ", ") + std::string(P.Name);
    return createStringError(inconvertibleErrorCode(),
                             "unknown rule set '%s': give a preset (%s) or a path to a .yaml file",
                             PresetOrPath.str().c_str(), Known.c_str());
  }
  ErrorOr<std::unique_ptr<MemoryBuffer>> File = MemoryBuffer::getFile(PresetOrPath);
  if (!File)
    return createStringError(File.getError(), "rules file '%s': cannot read: %s",
                             PresetOrPath.str().c_str(),
                             File.getError().message().c_str());
  return parseRuleSet((*File)->getBuffer(), PresetOrPath);
}

} // namespace hotpath
