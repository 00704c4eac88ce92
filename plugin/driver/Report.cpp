//===--- driver/Report.cpp - what a run reports, and its exit status ------===//
#include "Report.h"
#include "ApplyFixes.h"
#include "FixPatch.h"
#include "GithubOutput.h"
#include "Options.h"
#include "PatchFilter.h"
#include "SarifOutput.h"
#include "TextOutput.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/raw_ostream.h"

#include <set>
#include <tuple>

namespace hotpath::driver {

namespace {

llvm::Error error(const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg);
}

/// Highest share of samples first; findings without one (no function of
/// the profile behind them) after, in file order.
void orderByProfile(std::vector<Finding> &Findings) {
  std::vector<std::pair<double, Finding>> Keyed;
  for (Finding &F : Findings)
    Keyed.push_back({F.ProfileShare.value_or(-1), std::move(F)});
  llvm::stable_sort(Keyed, [](const auto &A, const auto &B) { return A.first > B.first; });
  Findings.clear();
  for (auto &KV : Keyed)
    Findings.push_back(std::move(KV.second));
}

void warn(const std::vector<std::string> &Dropped) {
  for (const std::string &D : Dropped)
    llvm::errs() << "hotpath-tidy: warning: " << D << "\n";
}

} // namespace

int fail(const llvm::Twine &Msg) {
  llvm::errs() << "hotpath-tidy: error: " << Msg << "\n";
  return ExitError;
}

std::vector<Finding> keepFindings(std::vector<Finding> All, const ChangedLines *Patch,
                                  bool ByProfile) {
  std::set<std::tuple<std::string, std::string, unsigned, std::string>> Seen;
  std::vector<Finding> Findings;
  for (Finding &F : All) {
    if (Patch && !patchTouches(F, *Patch))
      continue;
    if (!Seen.insert({F.Check, F.Main.File, F.Main.Offset, F.Main.Text}).second)
      continue; // the same finding in a header, from another TU
    Findings.push_back(std::move(F));
  }
  llvm::stable_sort(Findings, [](const Finding &A, const Finding &B) {
    return std::tie(A.Main.File, A.Main.Line, A.Main.Col, A.Check) <
           std::tie(B.Main.File, B.Main.Line, B.Main.Col, B.Check);
  });
  if (ByProfile)
    orderByProfile(Findings);
  return Findings;
}

llvm::Error applyAndTell(const std::vector<Finding> &Findings, llvm::StringRef Root) {
  std::vector<std::string> Dropped;
  unsigned Changed = 0;
  std::string Err;
  if (!applyFixes(Findings, Root, Dropped, Changed, Err))
    return error(Err);
  warn(Dropped);
  size_t Fixed = llvm::count_if(Findings, [](const Finding &F) { return !F.Fix.empty(); });
  llvm::errs() << "hotpath-tidy: applied the fixes of " << Fixed << " finding"
               << (Fixed == 1 ? "" : "s") << " to " << Changed << " file"
               << (Changed == 1 ? "" : "s") << "\n";
  return llvm::Error::success();
}

int report(const RunOptions &O, const std::vector<Finding> &Findings,
           const std::vector<Failure> &Failures, llvm::StringRef Root, llvm::StringRef Cwd) {
  if (O.Format == "sarif")
    writeSarif(llvm::outs(), Findings, Failures, Root,
               HOTPATH_VERSION " (LLVM " LLVM_VERSION_STRING ")");
  else if (O.Format == "github")
    writeGithub(llvm::outs(), Findings, Failures, Root);
  else
    writeText(llvm::outs(), Findings, Cwd);
  llvm::outs().flush();
  if (!O.FixPatch.empty()) {
    std::vector<std::string> Dropped;
    std::string Err;
    if (!writeFixPatch(O.FixPatch, Findings, Root, Dropped, Err))
      return fail(Err);
    warn(Dropped);
  }
  for (const Failure &X : Failures)
    llvm::errs() << "hotpath-tidy: error: " << X.TU << ": could not be analysed: " << X.Reason
                 << "\n";
  if (!Failures.empty())
    return ExitError;
  return Findings.empty() ? ExitClean : ExitFindings;
}

} // namespace hotpath::driver
