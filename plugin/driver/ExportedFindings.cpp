//===--- driver/ExportedFindings.cpp - what each clang-tidy run found -----===//
#include "ExportedFindings.h"
#include "Paths.h"

#include "clang/Tooling/DiagnosticsYaml.h"
#include "llvm/Support/MemoryBuffer.h"

namespace hotpath::driver {

namespace {

using namespace clang;

const char *levelName(tooling::Diagnostic::Level L) {
  switch (L) {
  case tooling::Diagnostic::Error:
    return "error";
  case tooling::Diagnostic::Remark:
    return "remark";
  default:
    return "warning";
  }
}

} // namespace

bool readExportedDiagnostics(llvm::StringRef YamlPath, llvm::StringRef TU,
                             std::vector<Finding> &Out, std::string &Err) {
  auto Buf = llvm::MemoryBuffer::getFile(YamlPath);
  if (!Buf) {
    Err = "cannot read " + YamlPath.str() + ": " + Buf.getError().message();
    return false;
  }
  tooling::TranslationUnitDiagnostics Doc;
  llvm::yaml::Input YIn((*Buf)->getBuffer());
  YIn >> Doc;
  if (YIn.error()) {
    Err = "cannot parse " + YamlPath.str() + ": " + YIn.error().message();
    return false;
  }
  for (const tooling::Diagnostic &D : Doc.Diagnostics) {
    auto Msg = [&](const tooling::DiagnosticMessage &M) {
      Message R;
      if (!M.FilePath.empty())
        R.File = canonicalPath(M.FilePath, D.BuildDirectory);
      R.Offset = M.FileOffset;
      R.Text = M.Message;
      return R;
    };
    Finding F;
    F.Check = D.DiagnosticName;
    F.Level = levelName(D.DiagLevel);
    F.Main = Msg(D.Message);
    F.TU = TU.str();
    for (const tooling::DiagnosticMessage &N : D.Notes)
      F.Notes.push_back(Msg(N));
    for (const auto &KV : D.Message.Fix)
      for (const tooling::Replacement &R : KV.second)
        F.Fix.push_back(Edit{canonicalPath(R.getFilePath(), D.BuildDirectory), R.getOffset(),
                             R.getLength(), std::string(R.getReplacementText())});
    for (const tooling::FileByteRange &R : D.Message.Ranges)
      if (!R.FilePath.empty())
        F.Related.push_back(
            Range{canonicalPath(R.FilePath, D.BuildDirectory), R.FileOffset, R.Length});
    // The code the fix rewrites is part of what the finding is about
    // (every call site a gate covers, the header a fast path goes into);
    // a pure insertion is not: it lands next to code, not in it.
    for (const Edit &E : F.Fix)
      if (E.Length)
        F.Related.push_back(Range{E.File, E.Offset, E.Length});
    Out.push_back(std::move(F));
  }
  return true;
}

} // namespace hotpath::driver
