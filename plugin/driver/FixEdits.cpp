//===--- driver/FixEdits.cpp - the edits of many findings, once each ------===//
#include "FixEdits.h"
#include "Paths.h"

#include "llvm/ADT/STLExtras.h"

#include <set>

namespace hotpath::driver {

namespace {

bool overlaps(const Edit &A, const Edit &B) {
  if (A.File != B.File || A == B)
    return false;
  if (A.Length == 0 && B.Length == 0)
    return A.Offset == B.Offset; // two insertions: order unknown
  if (A.Length == 0)
    return A.Offset > B.Offset && A.Offset < B.Offset + B.Length;
  if (B.Length == 0)
    return B.Offset > A.Offset && B.Offset < A.Offset + A.Length;
  return A.Offset < B.Offset + B.Length && B.Offset < A.Offset + A.Length;
}

} // namespace

std::map<std::string, std::vector<Edit>> chooseEdits(const std::vector<Finding> &Findings,
                                                     llvm::StringRef Root,
                                                     std::vector<std::string> &Dropped) {
  // Unique edits, each with the findings that want it.
  std::map<Edit, std::vector<size_t>> Owners;
  for (size_t I = 0; I < Findings.size(); ++I)
    for (const Edit &E : Findings[I].Fix)
      Owners[E].push_back(I);
  std::set<size_t> Lost;
  std::vector<const Edit *> All;
  for (auto &KV : Owners)
    All.push_back(&KV.first);
  for (size_t I = 0; I < All.size(); ++I)
    for (size_t J = I + 1; J < All.size() && All[J]->File == All[I]->File &&
                           All[J]->Offset <= All[I]->Offset + All[I]->Length;
         ++J)
      if (overlaps(*All[I], *All[J])) {
        for (size_t O : Owners[*All[I]])
          Lost.insert(O);
        for (size_t O : Owners[*All[J]])
          Lost.insert(O);
      }
  for (size_t O : Lost)
    Dropped.push_back(relativeTo(Findings[O].Main.File, Root) + ":" +
                      std::to_string(Findings[O].Main.Line) + ": the fix of [" +
                      Findings[O].Check + "] overlaps another fix; left out");

  std::map<std::string, std::vector<Edit>> ByFile;
  for (auto &[E, Os] : Owners)
    if (llvm::any_of(Os, [&](size_t O) { return !Lost.count(O); }))
      ByFile[E.File].push_back(E);
  for (auto &[File, Edits] : ByFile)
    llvm::sort(Edits, [](const Edit &A, const Edit &B) {
      return std::make_pair(A.Offset, A.Length) < std::make_pair(B.Offset, B.Length);
    });
  return ByFile;
}

} // namespace hotpath::driver
