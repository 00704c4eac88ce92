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

/// The one PPCallbacks of the checks on a preprocessor: each event the
/// recorders or a check's callbacks take goes to each of them in turn, and
/// the events none takes stop here.
class PPFanout final : public compat::IncludeCallbacks {
public:
  explicit PPFanout(CallSiteIndex &Sites) : Sites(Sites) {}

  void add(std::unique_ptr<compat::IncludeCallbacks> CB) {
    if (const auto *Watched = CB->watchedMacros())
      Watching.push_back({CB.get(), Watched});
    Listeners.push_back(std::move(CB));
  }

  // Every expansion of the TU comes here (sqlite3.c: 99,000). Only the
  // function-like ones matter: the call sites' record of expanded macros
  // (a function-like macro that calls a function generates calls) is
  // written here, and a listener hears only of the macros it watches.
  void MacroExpands(const Token &Name, const MacroDefinition &MD, SourceRange Range,
                    const MacroArgs *Args) override {
    if (!Args)
      return;
    const IdentifierInfo *II = Name.getIdentifierInfo();
    if (II != LastExpanded) { // a set insertion a use: a macro met again is in it
      LastExpanded = II;
      Sites.recordMacroExpansion(II);
    }
    for (const Watcher &W : Watching)
      if (W.Macros->contains(II))
        W.Listener->MacroExpands(Name, MD, Range, Args);
  }
  void MacroDefined(const Token &Name, const MacroDirective *MD) override {
    for (auto &L : Listeners)
      L->MacroDefined(Name, MD);
  }
  void SourceRangeSkipped(SourceRange Range, SourceLocation EndifLoc) override {
    for (auto &L : Listeners)
      L->SourceRangeSkipped(Range, EndifLoc);
  }
  void If(SourceLocation Loc, SourceRange Cond, ConditionValueKind Value) override {
    for (auto &L : Listeners)
      L->If(Loc, Cond, Value);
  }
  void Ifdef(SourceLocation Loc, const Token &Name, const MacroDefinition &MD) override {
    for (auto &L : Listeners)
      L->Ifdef(Loc, Name, MD);
  }
  void Ifndef(SourceLocation Loc, const Token &Name, const MacroDefinition &MD) override {
    for (auto &L : Listeners)
      L->Ifndef(Loc, Name, MD);
  }
  void Elif(SourceLocation Loc, SourceRange Cond, ConditionValueKind Value,
            SourceLocation IfLoc) override {
    for (auto &L : Listeners)
      L->Elif(Loc, Cond, Value, IfLoc);
  }
  void Elifdef(SourceLocation Loc, const Token &Name, const MacroDefinition &MD) override {
    for (auto &L : Listeners)
      L->Elifdef(Loc, Name, MD);
  }
  void Elifdef(SourceLocation Loc, SourceRange Cond, SourceLocation IfLoc) override {
    for (auto &L : Listeners)
      L->Elifdef(Loc, Cond, IfLoc);
  }
  void Elifndef(SourceLocation Loc, const Token &Name, const MacroDefinition &MD) override {
    for (auto &L : Listeners)
      L->Elifndef(Loc, Name, MD);
  }
  void Elifndef(SourceLocation Loc, SourceRange Cond, SourceLocation IfLoc) override {
    for (auto &L : Listeners)
      L->Elifndef(Loc, Cond, IfLoc);
  }
  void Defined(const Token &Name, const MacroDefinition &MD, SourceRange Range) override {
    for (auto &L : Listeners)
      L->Defined(Name, MD, Range);
  }
  void Else(SourceLocation Loc, SourceLocation IfLoc) override {
    for (auto &L : Listeners)
      L->Else(Loc, IfLoc);
  }
  void Endif(SourceLocation Loc, SourceLocation IfLoc) override {
    for (auto &L : Listeners)
      L->Endif(Loc, IfLoc);
  }
  void inclusion(SourceLocation HashLoc, OptionalFileEntryRef File,
                 SrcMgr::CharacteristicKind Kind) override {
    for (auto &L : Listeners)
      L->inclusion(HashLoc, File, Kind);
  }
  void includeDirective(SourceLocation HashLoc, StringRef FileName, bool IsAngled) override {
    for (auto &L : Listeners)
      L->includeDirective(HashLoc, FileName, IsAngled);
  }

private:
  struct Watcher {
    compat::IncludeCallbacks *Listener;
    const llvm::SmallPtrSetImpl<const IdentifierInfo *> *Macros;
  };
  CallSiteIndex &Sites;
  const IdentifierInfo *LastExpanded = nullptr;
  std::vector<std::unique_ptr<compat::IncludeCallbacks>> Listeners;
  std::vector<Watcher> Watching;
};

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
  auto All = std::make_unique<PPFanout>(Sites);
  All->add(makePreprocessorRecorder(Sites, Includes, SM));
  All->add(Layout.makeRecorder(SM));
  Fanout = All.get();
  NewPP.addPPCallbacks(std::move(All));
}

void TUContext::addPPCallbacks(std::unique_ptr<compat::IncludeCallbacks> CB) {
  assert(Fanout && "callbacks added before the preprocessor was recorded");
  Fanout->add(std::move(CB));
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
