//===--- driver/PatchFilter.cpp - which findings a patch touches ----------===//
#include "PatchFilter.h"

namespace hotpath::driver {

namespace {

/// Lines First..Last of a file whose changes are C.
bool touchesLines(const FileChanges &C, unsigned First, unsigned Last) {
  if (!First || Last < First)
    return false;
  auto L = C.Lines.lower_bound(First);
  if (L != C.Lines.end() && *L <= Last)
    return true;
  // Lines removed between N-1 and N are inside when both neighbours are.
  auto D = C.DeletedBefore.upper_bound(First);
  return D != C.DeletedBefore.end() && *D <= Last;
}

} // namespace

bool patchTouches(const Finding &F, const ChangedLines &Changed) {
  auto In = [&](const std::string &File, unsigned First, unsigned Last) {
    auto It = Changed.find(File);
    return It != Changed.end() && touchesLines(It->second, First, Last);
  };
  if (In(F.Main.File, F.Main.Line, F.Main.Line))
    return true;
  for (const Range &R : F.Related)
    if (In(R.File, R.FirstLine, R.LastLine))
      return true;
  return false;
}

} // namespace hotpath::driver
