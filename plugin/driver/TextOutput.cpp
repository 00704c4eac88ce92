//===--- driver/TextOutput.cpp - findings as clang-tidy prints them -------===//
#include "TextOutput.h"
#include "Paths.h"
#include "SourceFiles.h"

namespace hotpath::driver {

namespace {

void writeMessage(llvm::raw_ostream &OS, const Message &M, llvm::StringRef Level,
                  llvm::StringRef Check, llvm::StringRef Cwd) {
  if (!M.File.empty())
    OS << relativeTo(M.File, Cwd) << ':' << M.Line << ':' << M.Col << ": ";
  OS << Level << ": " << M.Text;
  if (!Check.empty())
    OS << " [" << Check << ']';
  OS << '\n';
  if (M.File.empty() || !M.Line)
    return;
  llvm::StringRef L = lineText(M.File, M.Line);
  OS << L << '\n';
  for (unsigned I = 0; I + 1 < M.Col && I < L.size(); ++I)
    OS << (L[I] == '\t' ? '\t' : ' ');
  OS << "^\n";
}

} // namespace

void writeText(llvm::raw_ostream &OS, const std::vector<Finding> &Findings,
               llvm::StringRef Cwd) {
  for (const Finding &F : Findings) {
    writeMessage(OS, F.Main, F.shownLevel(),
                 F.WarningAsError ? F.Check + ",-warnings-as-errors" : F.Check, Cwd);
    for (const Message &N : F.Notes)
      writeMessage(OS, N, "note", "", Cwd);
  }
}

std::string errorLine(const Message &E, llvm::StringRef Base) {
  std::string Where;
  if (!E.File.empty())
    Where = relativeTo(E.File, Base) + ":" + std::to_string(E.Line) + ":" +
            std::to_string(E.Col) + ": ";
  return Where + "error: " + E.Text;
}

std::string failureText(const Failure &X, llvm::StringRef Base) {
  std::string Text = X.compileFailure() ? X.Reason : "could not be analysed: " + X.Reason;
  for (const Message &E : X.CompileErrors)
    Text += (&E == &X.CompileErrors.front() ? ": " : "; ") + errorLine(E, Base);
  if (size_t More = X.ErrorCount - X.CompileErrors.size())
    Text += "; " + std::to_string(More) + " more error" + (More == 1 ? "" : "s");
  return Text;
}

} // namespace hotpath::driver
