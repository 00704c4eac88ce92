//===--- driver/ApplyFixes.cpp - hotpath-tidy --fix over many TUs ---------===//
#include "ApplyFixes.h"
#include "FixEdits.h"
#include "FixJournal.h"
#include "SourceFiles.h"

namespace hotpath::driver {

bool applyFixes(const std::vector<Finding> &Findings, llvm::StringRef Root,
                llvm::StringRef StateDir, std::vector<std::string> &Dropped,
                unsigned &FilesChanged, std::string &Err) {
  FilesChanged = 0;
  // Every file's new text first: nothing is written unless all of them
  // can be made.
  std::vector<FixedFile> Set;
  for (auto &[File, Edits] : chooseEdits(Findings, Root, Dropped)) {
    SourceFile &S = source(File);
    if (!S.Ok) {
      Err = "cannot read " + File + "; no file was changed";
      return false;
    }
    // Back to front, so that each edit's offsets still hold; insertions at
    // one offset keep their order.
    std::string Text = S.Text;
    for (auto It = Edits.rbegin(); It != Edits.rend(); ++It) {
      if (It->Offset + It->Length > Text.size()) {
        Err = File + ": a fix reaches past the end of the file (did it change during the "
                     "run?); no file was changed";
        return false;
      }
      Text.replace(It->Offset, It->Length, It->Text);
    }
    if (Text != S.Text)
      Set.push_back({File, S.Text, std::move(Text)});
  }
  // One set: a gate's declaration, definition and call, a fast path and
  // its slow path are all written or none (FixJournal.h).
  if (llvm::Error E = applyFixSet(Set, StateDir)) {
    Err = llvm::toString(std::move(E));
    return false;
  }
  FilesChanged = Set.size();
  return true;
}

} // namespace hotpath::driver
