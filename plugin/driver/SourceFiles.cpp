//===--- driver/SourceFiles.cpp - the files findings point into -----------===//
#include "SourceFiles.h"

#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <map>

namespace hotpath::driver {

SourceFile &source(llvm::StringRef Path) {
  static std::map<std::string, SourceFile> Cache;
  auto [It, New] = Cache.try_emplace(Path.str());
  SourceFile &F = It->second;
  if (New) {
    if (auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                               /*RequiresNullTerminator=*/false)) {
      F.Text = (*Buf)->getBuffer().str();
      F.Ok = true;
    }
    F.LineStarts.push_back(0);
    for (unsigned I = 0; I < F.Text.size(); ++I)
      if (F.Text[I] == '\n' && I + 1 < F.Text.size())
        F.LineStarts.push_back(I + 1);
  }
  return F;
}

Pos position(llvm::StringRef Path, unsigned Offset) {
  SourceFile &F = source(Path);
  Pos P;
  if (!F.Ok)
    return P;
  Offset = std::min<unsigned>(Offset, F.Text.size());
  auto It = std::upper_bound(F.LineStarts.begin(), F.LineStarts.end(), Offset);
  unsigned Line = It - F.LineStarts.begin(); // 1-based
  unsigned Start = F.LineStarts[Line - 1];
  P.Line = Line;
  P.Col = Offset - Start + 1;
  P.CodePointCol = 1;
  for (unsigned I = Start; I < Offset; ++I)
    if ((static_cast<unsigned char>(F.Text[I]) & 0xC0) != 0x80)
      ++P.CodePointCol;
  return P;
}

llvm::StringRef lineText(llvm::StringRef Path, unsigned Line) {
  SourceFile &F = source(Path);
  if (!F.Ok || Line == 0 || Line > F.LineStarts.size())
    return "";
  llvm::StringRef T(F.Text);
  return T.substr(F.LineStarts[Line - 1]).split('\n').first.rtrim("\r");
}

void locate(std::vector<Finding> &Findings) {
  auto Fill = [](Message &M) {
    if (M.File.empty())
      return;
    Pos P = position(M.File, M.Offset);
    M.Line = P.Line;
    M.Col = P.Col;
    M.CodePointCol = P.CodePointCol;
  };
  for (Finding &F : Findings) {
    Fill(F.Main);
    for (Message &N : F.Notes)
      Fill(N);
    for (Range &R : F.Related) {
      R.FirstLine = position(R.File, R.Offset).Line;
      // The last byte of the range, not the one after it: a range ending
      // at a newline does not reach into the next line.
      R.LastLine = position(R.File, R.Offset + (R.Length ? R.Length - 1 : 0)).Line;
    }
  }
}

} // namespace hotpath::driver
