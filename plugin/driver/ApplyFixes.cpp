//===--- driver/ApplyFixes.cpp - hotpath-tidy --fix over many TUs ---------===//
#include "ApplyFixes.h"
#include "FixEdits.h"
#include "SourceFiles.h"

#include "llvm/Support/raw_ostream.h"

namespace hotpath::driver {

bool applyFixes(const std::vector<Finding> &Findings, llvm::StringRef Root,
                std::vector<std::string> &Dropped, unsigned &FilesChanged, std::string &Err) {
  FilesChanged = 0;
  for (auto &[File, Edits] : chooseEdits(Findings, Root, Dropped)) {
    SourceFile &S = source(File);
    if (!S.Ok) {
      Err = "cannot read " + File;
      return false;
    }
    // Back to front, so that each edit's offsets still hold; insertions at
    // one offset keep their order.
    std::string Text = S.Text;
    for (auto It = Edits.rbegin(); It != Edits.rend(); ++It) {
      if (It->Offset + It->Length > Text.size()) {
        Err = File + ": a fix reaches past the end of the file (did it change during the run?)";
        return false;
      }
      Text.replace(It->Offset, It->Length, It->Text);
    }
    if (Text == S.Text)
      continue;
    std::error_code EC;
    llvm::raw_fd_ostream OS(File, EC);
    if (EC) {
      Err = "cannot write " + File + ": " + EC.message();
      return false;
    }
    OS << Text;
    ++FilesChanged;
  }
  return true;
}

} // namespace hotpath::driver
