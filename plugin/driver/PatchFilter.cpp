//===--- driver/PatchFilter.cpp - which findings a patch touches ----------===//
#include "PatchFilter.h"
#include "SarifOutput.h"

#include <set>

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

std::vector<Finding> newFindings(std::vector<Finding> Head, const std::vector<Finding> &Base,
                                 llvm::StringRef Root,
                                 const std::map<std::string, std::string> &BaseText) {
  // A print holds which of equal findings it is: a set is a multiset here.
  std::vector<std::string> Old = fingerprints(Base, Root, BaseText);
  std::set<std::string> AtBase(Old.begin(), Old.end());
  std::vector<std::string> Prints = fingerprints(Head, Root);
  std::vector<Finding> New;
  // --explain's remarks explain, they are not findings: all of them stay.
  for (size_t I = 0; I < Head.size(); ++I)
    if (Head[I].Level == "remark" || !AtBase.count(Prints[I]))
      New.push_back(std::move(Head[I]));
  return New;
}

} // namespace hotpath::driver
