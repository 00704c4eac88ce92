//===--- driver/GithubOutput.cpp - findings as GitHub annotations ---------===//
#include "GithubOutput.h"
#include "TextOutput.h"
#include "Paths.h"

namespace hotpath::driver {

namespace {

// Workflow command escaping (actions/toolkit command.ts).
std::string escapeData(llvm::StringRef S) {
  std::string R;
  for (char C : S) {
    if (C == '%') R += "%25";
    else if (C == '\r') R += "%0D";
    else if (C == '\n') R += "%0A";
    else R += C;
  }
  return R;
}
std::string escapeProperty(llvm::StringRef S) {
  std::string R;
  for (char C : escapeData(S)) {
    if (C == ':') R += "%3A";
    else if (C == ',') R += "%2C";
    else R += C;
  }
  return R;
}

} // namespace

void writeGithub(llvm::raw_ostream &OS, const std::vector<Finding> &Findings,
                 const std::vector<Failure> &Failures, const std::vector<ConfigNote> &Config,
                 llvm::StringRef Root) {
  // First: a setting that was not taken explains what follows. An
  // annotation without a file shows in the run's summary.
  for (const ConfigNote &N : Config) {
    OS << "::" << (N.Error ? "error" : "warning");
    if (!N.Where.File.empty()) {
      OS << " file=" << escapeProperty(relativeTo(N.Where.File, Root));
      if (N.Where.Line)
        OS << ",line=" << N.Where.Line << ",col=" << N.Where.Col << ",";
      else
        OS << ",";
    } else {
      OS << " ";
    }
    OS << "title=hotpath-tidy configuration::" << escapeData(N.Where.Text) << '\n';
  }
  for (const Finding &F : Findings) {
    std::string Msg = F.Main.Text;
    for (const Message &N : F.Notes) {
      Msg += "\n";
      if (!N.File.empty())
        Msg += relativeTo(N.File, Root) + ":" + std::to_string(N.Line) + ":" +
               std::to_string(N.Col) + ": ";
      Msg += "note: " + N.Text;
    }
    OS << "::" << (F.shownLevel() == "error" ? "error" : "warning")
       << " file=" << escapeProperty(relativeTo(F.Main.File, Root))
       << ",line=" << F.Main.Line << ",col=" << F.Main.Col
       << ",title=" << escapeProperty(F.Check) << "::" << escapeData(Msg) << '\n';
  }
  for (const Failure &X : Failures) {
    OS << "::error file=" << escapeProperty(relativeTo(X.TU, Root));
    // At the TU's first error when it is in the TU itself, as SARIF says.
    if (!X.CompileErrors.empty() && X.CompileErrors.front().File == X.TU &&
        X.CompileErrors.front().Line)
      OS << ",line=" << X.CompileErrors.front().Line << ",col=" << X.CompileErrors.front().Col;
    OS << ",title=hotpath-tidy::" << escapeData(failureText(X, Root)) << '\n';
  }
}

} // namespace hotpath::driver
