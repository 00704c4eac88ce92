//===--- driver/TextStream.cpp - the text as the TUs are checked ----------===//
#include "TextStream.h"
#include "ExportedFindings.h"
#include "Parallel.h"
#include "Paths.h"
#include "Report.h"
#include "TextOutput.h"

#include "llvm/ADT/STLExtras.h"

namespace hotpath::driver {

TextStream::TextStream(std::vector<llvm::raw_ostream *> Outs, ProgressLine &Progress,
                       const std::vector<std::string> &TUs, llvm::StringRef Cwd, KeepFn Keep,
                       std::optional<std::string> WarningsAsErrors)
    : Outs(std::move(Outs)), Progress(Progress), Cwd(Cwd.str()), Keep(std::move(Keep)),
      WarningsAsErrors(std::move(WarningsAsErrors)), Ready(TUs.size()) {
  for (size_t I = 0; I < TUs.size(); ++I)
    Position.emplace(TUs[I], I);
}

/// The TU's findings, as the end of the run reads them, in file order. The
/// failures and configuration notes read here are the end's to report.
std::vector<Finding> TextStream::findingsOf(const TURun &R) {
  std::vector<Finding> Found;
  std::vector<Failure> Failures;
  std::vector<ConfigNote> Config;
  // No data file: the text needs only what clang-tidy exported; a TU
  // clang cannot compile gives none. An export that does not read is the
  // end's to report.
  if (llvm::Error E = collectFindings({R}, "", Cwd, Found, Failures, Config)) {
    llvm::consumeError(std::move(E));
    return {};
  }
  llvm::erase_if(Found, [&](const Finding &F) { return !Keep(F); });
  markWarningsAsErrors(Found, WarningsAsErrors);
  llvm::stable_sort(Found, [](const Finding &A, const Finding &B) {
    return std::tie(A.Main.File, A.Main.Line, A.Main.Col, A.Check) <
           std::tie(B.Main.File, B.Main.Line, B.Main.Col, B.Check);
  });
  return Found;
}

/// The findings of each TU whose turn it is, each once.
void TextStream::printReady() {
  for (; Next < Ready.size() && Ready[Next]; ++Next) {
    std::vector<Finding> New;
    for (Finding &F : *Ready[Next])
      if (Printed.insert({F.Check, F.Main.File, F.Main.Offset, F.Main.Text}).second)
        New.push_back(std::move(F));
    Ready[Next].reset();
    if (New.empty())
      continue;
    Progress.clear();
    for (llvm::raw_ostream *OS : Outs) {
      writeText(*OS, New, Cwd);
      OS->flush();
    }
  }
}

void TextStream::finished(const TURun &R) {
  std::lock_guard<std::mutex> Lock(M);
  auto It = Position.find(R.TU);
  if (It == Position.end())
    return;
  Progress.show("checked", ++Done, Ready.size(), relativeTo(R.TU, Cwd));
  if (Outs.empty())
    return;
  Ready[It->second] = findingsOf(R);
  printReady();
}

} // namespace hotpath::driver
