//===--- CallGraph.cpp - heat that follows the program --------------------===//

#include "heat/CallGraph.h"
#include "index/ShardBuilder.h"
#include "source/SourceText.h"
#include "llvm/Support/Path.h"

using namespace clang;

namespace hotpath {

namespace {
/// The calls an estimate follows out from a function. Each call hides the
/// early returns and conditions before it that a walk of its caller's body
/// does not count, so a longer chain is no evidence: e2fsprogs' 32-bit
/// bitmap test was "hot" through 16 calls from populating a file system,
/// xfs_repair's check_nsec() is 7 calls from its loops.
constexpr unsigned MaxChain = 10;
/// Without the index: chains longer than this are not followed further.
constexpr unsigned MaxLocalDepth = 24;

std::string loopsText(unsigned Loops) {
  return Loops == 1 ? "in a loop" : "in " + std::to_string(Loops) + " nested loops";
}
} // namespace

std::string HeatChain::text() const {
  std::string EntryText = "a hot entry point of " + EntryBy;
  if (Steps.empty())
    return Entry.empty() ? "" : "it is " + EntryText;
  if (Loops == 0 && Entry.empty())
    return "";
  std::string Out;
  for (size_t I = 0; I < Steps.size(); ++I) {
    const Step &S = Steps[I];
    std::string Where = S.Caller + " (" + S.File + ":" + std::to_string(S.Line) + ")";
    std::string How = S.Loops      ? "called " + loopsText(S.Loops) + " in " + Where
                      : S.Accessor ? "called by the macro-generated accessor " + Where
                                   : "called by " + Where;
    if (S.Entry)
      How += ", " + EntryText;
    Out += I == 0 ? How : ", which is " + How;
  }
  return Out;
}

namespace {
/// A loop multiplies by 32, a branch halves: powers of two.
constexpr int LoopWeight = 5;
int stepScore(unsigned Loops, bool Accessor, unsigned Branches) {
  return LoopWeight * static_cast<int>(Loops + (Accessor ? 1 : 0)) - static_cast<int>(Branches);
}
} // namespace

CallGraph::CallGraph(const index::ProjectIndex *Project, const CallSiteIndex &Local,
                     const EntryPoints &Entries)
    : Project(Project), Local(Local), Entries(Entries) {
  for (const std::string &P : Entries.Patterns)
    consumeError(EntryNames.add(P)); // parseRuleSet rejected a bad one
}

bool CallGraph::isEntry(StringRef Name) const {
  // The index names functions qualified; patterns are of plain names.
  size_t Colons = Name.rfind("::");
  if (Colons != StringRef::npos)
    Name = Name.drop_front(Colons + 2);
  return !EntryNames.empty() && !Name.empty() && !EntryNames.match(Name).empty();
}

HeatChain CallGraph::entryChain(StringRef Name) const {
  HeatChain C;
  C.Entry = Name.str();
  C.EntryBy = Entries.By;
  C.Score = Entries.Score;
  return C;
}

void CallGraph::consider(Best &B, bool &Any, const HeatChain::Step &Via, const Best *Up,
                         StringRef Next, const FunctionDecl *NextLocal) const {
  int Score = stepScore(Via.Loops, Via.Accessor, Via.Branches);
  unsigned Loops = Via.Loops + (Via.Accessor ? 1 : 0), Branches = Via.Branches;
  std::string Entry;
  if (Via.Entry) {
    // The chain starts at the entry point: what calls it is not followed.
    Score += Entries.Score;
    Entry = Via.Caller;
  } else if (Up) {
    Score += Up->Score;
    Loops += Up->Loops;
    Branches += Up->Branches;
    Entry = Up->Entry;
  }
  if (Any && Score <= B.Score)
    return;
  Any = true;
  B.Score = Score;
  B.Loops = Loops;
  B.Branches = Branches;
  B.Via = Via;
  B.Next = Next.str();
  B.NextLocal = NextLocal;
  B.Entry = std::move(Entry);
}

const CallGraph::Best &CallGraph::bestOfIndexed(const std::string &USR, unsigned Left) const {
  Best &B = Indexed[{USR, Left}];
  if (B.Done || Left == 0)
    return B; // known, or as far as an estimate follows: a root
  B.Done = true;
  OnChain.insert(USR);
  const index::Function *F = Project->find(USR);
  bool Any = false;
  for (const index::CallSite &C : F ? F->Calls : std::vector<index::CallSite>{}) {
    // A call that handles a failure runs when something went wrong; a
    // recursive call adds no loop to the calls that reach the function (a
    // tree walk in a loop over children visits each node once).
    if (C.Cold || OnChain.contains(C.CallerUSR))
      continue;
    HeatChain::Step Via{C.Caller,         llvm::sys::path::filename(C.Loc.File).str(),
                        C.Loc.Line,       C.Loops,
                        !C.Accessor.empty(), C.Branches,
                        isEntry(C.Caller)};
    const Best *Up = Via.Entry || C.CallerUSR.empty() ? nullptr
                                                      : &bestOfIndexed(C.CallerUSR, Left - 1);
    consider(B, Any, Via, Up, C.CallerUSR, nullptr);
  }
  OnChain.erase(USR);
  return B;
}

const CallGraph::Best &CallGraph::bestOfLocal(const FunctionDecl *FD, unsigned Depth) const {
  // Without the index, chains are this TU's and not limited to MaxChain
  // calls (the estimate is of loops only, HeatModel.h): one memo a function.
  FD = FD->getCanonicalDecl();
  Best &B = LocalBest[{FD, 0}];
  if (B.Done || OnLocalChain.contains(FD) || Depth > MaxLocalDepth)
    return B; // known, a cycle, or too deep: what is known so far
  OnLocalChain.insert(FD);
  bool Any = false;
  for (const CallSiteIndex::Site *P : Local.callersOf(FD)) {
    const CallSiteIndex::Site &S = *P;
    const FunctionDecl *Caller = S.Caller->getCanonicalDecl();
    if (S.Cold || Caller == FD) // as bestOfIndexed
      continue;
    const SourceManager &SM = S.Caller->getASTContext().getSourceManager();
    std::string Name = S.Caller->getNameAsString();
    bool Entry = isEntry(Name);
    HeatChain::Step Via{std::move(Name),
                        fileNameAt(S.Call->getBeginLoc(), SM),
                        SM.getExpansionLineNumber(S.Call->getBeginLoc()),
                        S.Loops,
                        S.InAccessor,
                        S.Branches,
                        Entry};
    consider(B, Any, Via, Entry ? nullptr : &bestOfLocal(Caller, Depth + 1), "", Caller);
  }
  OnLocalChain.erase(FD);
  B.Done = Depth <= MaxLocalDepth;
  return B;
}

HeatChain CallGraph::chainOf(const FunctionDecl *FD) const {
  if (FD->getIdentifier() && isEntry(FD->getName()))
    return entryChain(FD->getName());
  std::string USR = Project ? index::RecordMaker::usr(FD) : "";
  if (Project && !USR.empty() && Project->find(USR))
    return follow(&bestOfIndexed(USR, MaxChain), /*Indexed=*/true);
  return follow(&bestOfLocal(FD, 0), /*Indexed=*/false);
}

HeatChain CallGraph::chainOfIndexed(const std::string &USR) const {
  const index::Function *F = Project ? Project->find(USR) : nullptr;
  if (!F)
    return HeatChain();
  if (isEntry(F->Name))
    return entryChain(F->Name);
  return follow(&bestOfIndexed(USR, MaxChain), /*Indexed=*/true);
}

HeatChain CallGraph::follow(const Best *B, bool Indexed) const {
  HeatChain Out;
  Out.Loops = B->Loops;
  Out.Branches = B->Branches;
  Out.Score = B->Score;
  Out.Entry = B->Entry;
  if (!Out.Entry.empty())
    Out.EntryBy = Entries.By;
  // Follow the best chain out to the last call that has loops around it,
  // or to the hot entry point it starts at.
  for (unsigned Left = Out.Loops, I = 1; (Left > 0 || !Out.Entry.empty()) && I <= MaxLocalDepth;
       ++I) {
    Out.Steps.push_back(B->Via);
    unsigned Here = B->Via.Loops + (B->Via.Accessor ? 1 : 0);
    Left = Left > Here ? Left - Here : 0;
    if (B->Via.Entry || (Indexed ? B->Next.empty() : !B->NextLocal))
      break;
    if (Indexed && I >= MaxChain)
      break;
    B = Indexed ? &bestOfIndexed(B->Next, MaxChain - I) : &bestOfLocal(B->NextLocal, 0);
  }
  return Out;
}

} // namespace hotpath
