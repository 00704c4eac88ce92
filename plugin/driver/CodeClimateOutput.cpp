//===--- driver/CodeClimateOutput.cpp - GitLab Code Quality JSON ----------===//
#include "CodeClimateOutput.h"
#include "Paths.h"
#include "SarifOutput.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

namespace hotpath::driver {

namespace {

/// GitLab's scale is info, minor, major, critical, blocker: a finding
/// costs time, it breaks nothing, so the top two stay for what does.
llvm::StringRef severity(const Finding &F) {
  std::string Level = F.shownLevel();
  return Level == "error" ? "major" : Level == "remark" ? "info" : "minor";
}

} // namespace

void writeCodeClimate(llvm::raw_ostream &OS, const std::vector<Finding> &Findings,
                      llvm::StringRef Root) {
  using llvm::json::Object;
  std::vector<std::string> Prints = fingerprints(Findings, Root);
  llvm::json::Array Issues;
  for (size_t I = 0; I < Findings.size(); ++I) {
    const Finding &F = Findings[I];
    if (F.Main.File.empty() || !F.Main.Line)
      continue; // GitLab places every issue at a line of a file
    Issues.push_back(Object{
        {"description", F.Main.Text},
        {"check_name", F.Check},
        {"fingerprint", Prints[I]},
        {"severity", severity(F)},
        {"location", Object{{"path", relativeTo(F.Main.File, Root)},
                            {"lines", Object{{"begin", F.Main.Line}}}}}});
  }
  OS << llvm::formatv("{0:2}", llvm::json::Value(std::move(Issues))) << '\n';
}

} // namespace hotpath::driver
