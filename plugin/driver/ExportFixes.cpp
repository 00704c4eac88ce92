//===--- driver/ExportFixes.cpp - the findings as clang-tidy's YAML -------===//
//
// clang's own YAML mapping of its diagnostics writes the document (the
// one clang-tidy's export uses, and ExportedFindings.cpp reads back), so
// that no field is spelt differently.
//
//===----------------------------------------------------------------------===//
#include "ExportFixes.h"
#include "FixEdits.h"

#include "clang/Tooling/DiagnosticsYaml.h"

#include <set>

namespace hotpath::driver {

namespace {

using namespace clang;

tooling::Diagnostic::Level level(llvm::StringRef Level) {
  if (Level == "error")
    return tooling::Diagnostic::Error;
  if (Level == "remark")
    return tooling::Diagnostic::Remark;
  return tooling::Diagnostic::Warning;
}

tooling::DiagnosticMessage message(const Message &M) {
  tooling::DiagnosticMessage D(M.Text);
  D.FilePath = M.File;
  D.FileOffset = M.Offset;
  return D;
}

/// \p F as clang-tidy exports it, with the edits of \p Left it proposes
/// (taken out of \p Left: each goes to the first finding that has it).
tooling::Diagnostic diagnostic(const Finding &F, std::set<Edit> &Left,
                               std::vector<std::string> &Dropped) {
  tooling::DiagnosticMessage Main = message(F.Main);
  for (const Edit &E : F.Fix) {
    if (!Left.erase(E))
      continue;
    // The edits of one fix came from one clang-tidy Replacements, and
    // chooseEdits kept no two that overlap: add() should take them all.
    if (llvm::Error Err = Main.Fix[E.File].add(
            tooling::Replacement(E.File, E.Offset, E.Length, E.Text)))
      Dropped.push_back(E.File + ":" + std::to_string(E.Offset) + ": an edit of [" + F.Check +
                        "] is left out of --export-fixes: " + llvm::toString(std::move(Err)));
  }
  llvm::SmallVector<tooling::DiagnosticMessage, 1> Notes;
  for (const Message &N : F.Notes)
    Notes.push_back(message(N));
  return tooling::Diagnostic(F.Check, Main, Notes, level(F.shownLevel()), F.BuildDirectory);
}

} // namespace

void writeExportFixes(llvm::raw_ostream &OS, const std::vector<Finding> &Findings,
                      llvm::StringRef Root, std::vector<std::string> &Dropped) {
  std::set<Edit> Left;
  for (auto &[File, Edits] : chooseEdits(Findings, Root, Dropped))
    Left.insert(Edits.begin(), Edits.end());
  tooling::TranslationUnitDiagnostics Doc;
  // clang-tidy's export of several TUs names none of them.
  Doc.MainSourceFile = "";
  for (const Finding &F : Findings)
    Doc.Diagnostics.push_back(diagnostic(F, Left, Dropped));
  llvm::yaml::Output YAML(OS);
  YAML << Doc;
}

} // namespace hotpath::driver
