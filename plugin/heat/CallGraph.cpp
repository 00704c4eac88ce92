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
  if (Loops == 0 || Steps.empty())
    return "";
  std::string Out;
  for (size_t I = 0; I < Steps.size(); ++I) {
    const Step &S = Steps[I];
    std::string Where = S.Caller + " (" + S.File + ":" + std::to_string(S.Line) + ")";
    std::string How = S.Loops      ? "called " + loopsText(S.Loops) + " in " + Where
                      : S.Accessor ? "called by the macro-generated accessor " + Where
                                   : "called by " + Where;
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
    bool Accessor = !C.Accessor.empty();
    int Score = stepScore(C.Loops, Accessor, C.Branches);
    unsigned Loops = C.Loops + (Accessor ? 1 : 0), Branches = C.Branches;
    if (!C.CallerUSR.empty()) {
      const Best &Up = bestOfIndexed(C.CallerUSR, Left - 1);
      Score += Up.Score;
      Loops += Up.Loops;
      Branches += Up.Branches;
    }
    if (!Any || Score > B.Score) {
      Any = true;
      B.Score = Score;
      B.Loops = Loops;
      B.Branches = Branches;
      B.Via = {C.Caller, llvm::sys::path::filename(C.Loc.File).str(), C.Loc.Line, C.Loops,
               Accessor, C.Branches};
      B.Next = C.CallerUSR;
    }
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
    const Best &Up = bestOfLocal(Caller, Depth + 1);
    int Score = stepScore(S.Loops, S.InAccessor, S.Branches) + Up.Score;
    if (!Any || Score > B.Score) {
      Any = true;
      const SourceManager &SM = S.Caller->getASTContext().getSourceManager();
      B.Score = Score;
      B.Loops = S.Loops + (S.InAccessor ? 1 : 0) + Up.Loops;
      B.Branches = S.Branches + Up.Branches;
      B.Via = {S.Caller->getNameAsString(), fileNameAt(S.Call->getBeginLoc(), SM),
               SM.getExpansionLineNumber(S.Call->getBeginLoc()), S.Loops, S.InAccessor,
               S.Branches};
      B.NextLocal = Caller;
    }
  }
  OnLocalChain.erase(FD);
  B.Done = Depth <= MaxLocalDepth;
  return B;
}

HeatChain CallGraph::chainOf(const FunctionDecl *FD) const {
  std::string USR = Project ? index::RecordMaker::usr(FD) : "";
  if (Project && !USR.empty() && Project->find(USR))
    return follow(&bestOfIndexed(USR, MaxChain), /*Indexed=*/true);
  return follow(&bestOfLocal(FD, 0), /*Indexed=*/false);
}

HeatChain CallGraph::chainOfIndexed(const std::string &USR) const {
  if (!Project || !Project->find(USR))
    return HeatChain();
  return follow(&bestOfIndexed(USR, MaxChain), /*Indexed=*/true);
}

HeatChain CallGraph::follow(const Best *B, bool Indexed) const {
  HeatChain Out;
  Out.Loops = B->Loops;
  Out.Branches = B->Branches;
  Out.Score = B->Score;
  // Follow the best chain out to the last call that has loops around it.
  for (unsigned Left = Out.Loops, I = 1; Left > 0 && I <= MaxLocalDepth; ++I) {
    Out.Steps.push_back(B->Via);
    unsigned Here = B->Via.Loops + (B->Via.Accessor ? 1 : 0);
    Left = Left > Here ? Left - Here : 0;
    if (Indexed ? B->Next.empty() : !B->NextLocal)
      break;
    if (Indexed && I >= MaxChain)
      break;
    B = Indexed ? &bestOfIndexed(B->Next, MaxChain - I) : &bestOfLocal(B->NextLocal, 0);
  }
  return Out;
}

} // namespace hotpath
