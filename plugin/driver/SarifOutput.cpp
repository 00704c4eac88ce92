//===--- driver/SarifOutput.cpp - findings as SARIF 2.1.0 -----------------===//
#include "SarifOutput.h"
#include "TextOutput.h"
#include "ExportedFindings.h"
#include "Paths.h"
#include "SourceFiles.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"

#include <algorithm>
#include <map>

namespace hotpath::driver {

namespace {

std::string percentEncode(llvm::StringRef S) {
  std::string R;
  for (unsigned char C : S) {
    if (llvm::isAlnum(C) || C == '/' || C == '-' || C == '_' || C == '.' || C == '~')
      R += C;
    else {
      R += '%';
      R += llvm::hexdigit(C >> 4);
      R += llvm::hexdigit(C & 15);
    }
  }
  return R;
}

/// What code scanning shows about a rule: the hotpath checks' text comes
/// from their pages in docs/checks (GenRuleHelp.py, at build time).
struct RuleHelp {
  const char *Id, *Short, *Full, *Text, *Markdown;
};
const RuleHelp HotpathRules[] = {
#include "RuleHelp.inc"
};

llvm::json::Object ruleDescriptor(llvm::StringRef Id) {
  using llvm::json::Object;
  for (const RuleHelp &R : HotpathRules)
    if (Id == R.Id)
      return Object{{"id", Id},
                    {"name", Id},
                    {"shortDescription", Object{{"text", R.Short}}},
                    {"fullDescription", Object{{"text", R.Full}}},
                    {"help", Object{{"text", R.Text}, {"markdown", R.Markdown}}},
                    {"helpUri", std::string(HOTPATH_DOCS_URL) + Id.str() + ".md"}};
  // Not ours: compiler diagnostics and other clang-tidy checks (-checks=...).
  bool Compiler = isCompilerDiagnostic(Id);
  std::string Uri = Compiler ? "https://clang.llvm.org/docs/DiagnosticsReference.html"
                             : "https://clang.llvm.org/extra/clang-tidy/checks/list.html";
  std::string Text = Compiler ? "The compiler diagnostic " + Id.str() + "."
                              : "The clang-tidy check " + Id.str() + ".";
  return Object{{"id", Id},
                {"name", Id},
                {"shortDescription", Object{{"text", Text}}},
                {"fullDescription", Object{{"text", Text}}},
                {"help", Object{{"text", Text + " See " + Uri},
                                {"markdown", Text + " See [its documentation](" + Uri + ")."}}},
                {"helpUri", Uri}};
}

using llvm::json::Array;
using llvm::json::Object;
using llvm::json::Value;

/// A file, relative to the SRCROOT base when it is below Root.
Value artifact(llvm::StringRef Path, llvm::StringRef Root) {
  std::string Rel = relativeTo(Path, Root);
  if (llvm::sys::path::is_absolute(Rel))
    return Object{{"uri", "file://" + percentEncode(Rel)}};
  return Object{{"uri", percentEncode(Rel)}, {"uriBaseId", "SRCROOT"}};
}

Value physical(const Message &M, llvm::StringRef Root) {
  Object P{{"artifactLocation", artifact(M.File, Root)}};
  if (M.Line)
    P["region"] = Object{{"startLine", M.Line}, {"startColumn", M.CodePointCol}};
  return P;
}

/// The notes, as related locations.
Array relatedLocations(const Finding &F, llvm::StringRef Root) {
  Array Related;
  int64_t Id = 0;
  for (const Message &N : F.Notes) {
    Object L{{"id", Id++}, {"message", Object{{"text", N.Text}}}};
    if (!N.File.empty())
      L["physicalLocation"] = physical(N, Root);
    Related.push_back(std::move(L));
  }
  return Related;
}

/// The fix-it, one artifact change per file.
Array fixes(const Finding &F, llvm::StringRef Root) {
  std::map<std::string, Array> ByFile;
  for (const Edit &E : F.Fix) {
    Pos B = position(E.File, E.Offset), End = position(E.File, E.Offset + E.Length);
    ByFile[E.File].push_back(
        Object{{"deletedRegion", Object{{"startLine", B.Line},
                                        {"startColumn", B.CodePointCol},
                                        {"endLine", End.Line},
                                        {"endColumn", End.CodePointCol}}},
               {"insertedContent", Object{{"text", E.Text}}}});
  }
  Array Changes;
  for (auto &[File, Reps] : ByFile)
    Changes.push_back(
        Object{{"artifactLocation", artifact(File, Root)}, {"replacements", std::move(Reps)}});
  return Array{Object{{"description", Object{{"text", "Apply the fix-it of " + F.Check}}},
                      {"artifactChanges", std::move(Changes)}}};
}

Object result(const Finding &F, const std::vector<std::string> &Rules,
              llvm::StringRef Fingerprint, llvm::StringRef Root) {
  Object R;
  R["ruleId"] = F.Check;
  R["ruleIndex"] =
      int64_t(std::lower_bound(Rules.begin(), Rules.end(), F.Check) - Rules.begin());
  std::string Level = F.shownLevel();
  R["level"] = Level == "error" ? "error" : Level == "remark" ? "note" : "warning";
  R["message"] = Object{{"text", F.Main.Text}};
  R["partialFingerprints"] = Object{{"hotpathFinding/v1", Fingerprint}};
  if (!F.Main.File.empty())
    R["locations"] = Array{Object{{"physicalLocation", physical(F.Main, Root)}}};
  if (Array Related = relatedLocations(F, Root); !Related.empty())
    R["relatedLocations"] = std::move(Related);
  if (!F.Fix.empty())
    R["fixes"] = fixes(F, Root);
  return R;
}

/// Where a notification points: the TU, at its first error when that is
/// in the TU itself.
Object failureLocation(const Failure &X, llvm::StringRef Root) {
  if (!X.CompileErrors.empty() && X.CompileErrors.front().File == X.TU &&
      X.CompileErrors.front().Line)
    return Object{{"physicalLocation", physical(X.CompileErrors.front(), Root)}};
  return Object{{"physicalLocation", Object{{"artifactLocation", artifact(X.TU, Root)}}}};
}

/// A configuration note: at its file (a .clang-tidy that does not parse),
/// or of no place (the checks' word on their options).
Object configNotification(const ConfigNote &N, llvm::StringRef Root) {
  Object Note{{"level", N.Error ? "error" : "warning"},
              {"message", Object{{"text", N.Where.Text}}}};
  if (!N.Where.File.empty())
    Note["locations"] = Array{Object{{"physicalLocation", physical(N.Where, Root)}}};
  return Note;
}

/// Whether the run was complete, the TUs that could not be analysed, and
/// what the configuration says.
Object invocation(const std::vector<Failure> &Failures, const std::vector<ConfigNote> &Config,
                  bool Successful, llvm::StringRef Root) {
  Array Notifications, ConfigNotifications;
  for (const Failure &X : Failures)
    Notifications.push_back(Object{{"level", "error"},
                                   {"message", Object{{"text", failureText(X, Root)}}},
                                   {"locations", Array{failureLocation(X, Root)}}});
  for (const ConfigNote &N : Config)
    ConfigNotifications.push_back(configNotification(N, Root));
  Object Invocation{{"executionSuccessful", Successful}};
  if (!Notifications.empty())
    Invocation["toolExecutionNotifications"] = std::move(Notifications);
  if (!ConfigNotifications.empty())
    Invocation["toolConfigurationNotifications"] = std::move(ConfigNotifications);
  return Invocation;
}

Object tool(const std::vector<std::string> &Rules, llvm::StringRef ToolVersion) {
  Array RuleArray;
  for (const std::string &R : Rules)
    RuleArray.push_back(ruleDescriptor(R));
  return Object{{"driver", Object{{"name", "hotpath-tidy"},
                                  {"version", ToolVersion},
                                  {"informationUri", "https://clang.llvm.org/extra/clang-tidy/"},
                                  {"rules", std::move(RuleArray)}}}};
}

} // namespace

std::vector<std::string> fingerprints(const std::vector<Finding> &Findings, llvm::StringRef Root,
                                      const std::map<std::string, std::string> &ReadFrom) {
  std::vector<std::string> Out;
  std::map<std::string, unsigned> Seen;
  for (const Finding &F : Findings) {
    auto From = ReadFrom.find(F.Main.File);
    llvm::StringRef Text =
        lineText(From == ReadFrom.end() ? F.Main.File : From->second, F.Main.Line);
    llvm::SmallVector<llvm::StringRef, 16> Words;
    Text.split(Words, ' ', -1, /*KeepEmpty=*/false);
    std::string Line;
    for (llvm::StringRef W : Words)
      for (llvm::StringRef T : llvm::split(W, '\t'))
        if (!T.empty())
          Line += (Line.empty() ? "" : " ") + T.str();
    std::string Key = F.Check + '\0' + relativeTo(F.Main.File, Root) + '\0' +
                      F.Subject + '\0' + Line;
    Key += '\0' + std::to_string(Seen[Key]++);
    std::array<uint8_t, 32> H =
        llvm::SHA256::hash(llvm::ArrayRef<uint8_t>(
            reinterpret_cast<const uint8_t *>(Key.data()), Key.size()));
    Out.push_back(llvm::toHex(H, /*LowerCase=*/true));
  }
  return Out;
}

void writeSarif(llvm::raw_ostream &OS, const std::vector<Finding> &Findings,
                const std::vector<Failure> &Failures, const std::vector<ConfigNote> &Config,
                bool Successful, llvm::StringRef Root,
                llvm::StringRef ToolVersion) {
  std::vector<std::string> Rules;
  for (const Finding &F : Findings)
    Rules.push_back(F.Check);
  llvm::sort(Rules);
  Rules.erase(std::unique(Rules.begin(), Rules.end()), Rules.end());

  Array Results;
  std::vector<std::string> Prints = fingerprints(Findings, Root);
  for (size_t I = 0; I < Findings.size(); ++I)
    Results.push_back(result(Findings[I], Rules, Prints[I], Root));

  std::string RootUri = "file://" + percentEncode(Root);
  if (!llvm::StringRef(RootUri).ends_with("/"))
    RootUri += "/";
  Object Run{{"tool", tool(Rules, ToolVersion)},
             {"originalUriBaseIds", Object{{"SRCROOT", Object{{"uri", RootUri}}}}},
             {"columnKind", "unicodeCodePoints"},
             {"invocations", Array{invocation(Failures, Config, Successful, Root)}},
             {"results", std::move(Results)}};
  Value Log = Object{{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
                     {"version", "2.1.0"},
                     {"runs", Array{std::move(Run)}}};
  OS << llvm::formatv("{0:2}", Log) << '\n';
}

} // namespace hotpath::driver
