//===--- TUContext.cpp - what the checks of one TU share ------------------===//

#include "core/TUContext.h"
#include "clang/Lex/Preprocessor.h"
#include <map>
#include <tuple>

using namespace clang;

namespace hotpath {

namespace {
/// The contexts alive, by what they are shared under: the clang-tidy
/// context of the run, the assert macros the call-site walk counts, the
/// project index. An entry expires with the last check of its TU.
using Key = std::tuple<const tidy::ClangTidyContext *, std::string, const void *>;
std::map<Key, std::weak_ptr<TUContext>> &registry() {
  static std::map<Key, std::weak_ptr<TUContext>> Live;
  return Live;
}
} // namespace

std::shared_ptr<TUContext> TUContext::join(const tidy::ClangTidyContext *Tidy,
                                           const RuleSet &Rules,
                                           std::shared_ptr<const index::ProjectIndex> Project) {
  std::string Asserts;
  for (const std::string &M : Rules.AssertMacros)
    Asserts += M + ";";
  std::weak_ptr<TUContext> &Slot = registry()[{Tidy, Asserts, Project.get()}];
  std::shared_ptr<TUContext> TU = Slot.lock();
  if (!TU) {
    TU = std::make_shared<TUContext>(Rules, std::move(Project));
    TU->Tidy = Tidy;
    Slot = TU;
  }
  TU->checkJoined();
  return TU;
}

TUContext::TUContext(const RuleSet &Rules, std::shared_ptr<const index::ProjectIndex> Project)
    : Rules(Rules), Index(this->Rules), Project(std::move(Project)) {}

TUContext::~TUContext() = default;

void TUContext::recordPreprocessor(const SourceManager &SM, Preprocessor &NewPP) {
  if (PP == &NewPP)
    return;
  PP = &NewPP;
  Mode.reset();
  Sites.clear();
  Includes.clear();
  Layout.clear();
  NewPP.addPPCallbacks(makePreprocessorRecorder(Sites, Includes, SM));
  NewPP.addPPCallbacks(Layout.makeRecorder(SM));
}

void TUContext::setAST(ASTContext &NewCtx) {
  if (Ctx == &NewCtx)
    return;
  // Never hand out pointers into a freed AST.
  if (Ctx) {
    Definitions.reset();
    BodiesIndexed = false;
    Calls.reset();
  }
  Ctx = &NewCtx;
}

const BuildMode &TUContext::buildMode() {
  if (!Mode)
    Mode = PP && Tidy ? buildModeOf(*PP, Tidy->getCurrentBuildDirectory(), Tidy->getCurrentFile())
                      : BuildMode{};
  return *Mode;
}

const TUDefinitions &TUContext::definitions() {
  assert(Ctx && "definitions asked for before the TU was seen");
  if (!Definitions)
    Definitions = collectDefinitions(*Ctx);
  return *Definitions;
}

const CallSiteIndex &TUContext::callSites() {
  if (!BodiesIndexed) {
    Sites.indexDefinitions(definitions(), *Ctx, Index);
    BodiesIndexed = true;
  }
  return Sites;
}

const ProjectCalls &TUContext::calls() {
  if (!Calls)
    Calls = std::make_unique<ProjectCalls>(*Ctx, Project.get(), callSites());
  return *Calls;
}

bool TUContext::checkFinished(bool &NobodyExplained) {
  if (++Finished < Joined)
    return false;
  NobodyExplained = !ExplainFound;
  Finished = 0;
  ExplainFound = false;
  return true;
}

} // namespace hotpath
