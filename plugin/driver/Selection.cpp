//===--- driver/Selection.cpp - which translation units a run checks ------===//
#include "Selection.h"
#include "CompileDatabase.h"
#include "Parallel.h"
#include "Paths.h"

#include "index/ProjectIndex.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace hotpath::driver {

namespace {

/// A file a patch may change that TUs include: a header, or a source
/// included by another.
bool isCFamilySource(llvm::StringRef Path) {
  llvm::StringRef Ext = llvm::sys::path::extension(Path).ltrim(".");
  static const char *const Exts[] = {"h", "hh", "hpp", "hxx", "h++", "H", "inc", "inl",
                                     "ipp", "tcc", "tpp", "def", "c", "cc", "cpp", "cxx",
                                     "c++", "C", "m", "mm", "cu", "x"};
  for (const char *E : Exts)
    if (Ext == E)
      return true;
  return false;
}

bool changedLine(const ChangedLines &Changed, const std::string &File, unsigned First,
                 unsigned Last) {
  auto It = Changed.find(File);
  if (It == Changed.end())
    return false;
  auto L = It->second.Lines.lower_bound(First);
  return L != It->second.Lines.end() && *L <= Last;
}

/// TUs whose findings may change through what the index knows: those that
/// define a function whose call sites the patch changes, and the TUs
/// (sources of the database) that call a hook whose body it changes.
std::set<std::string> touchedThroughIndex(const index::ProjectIndex &Idx,
                                          const ChangedLines &Changed) {
  std::set<std::string> Out;
  for (const index::Function &Fn : Idx.file().Functions) {
    for (const index::CallSite &C : Fn.Calls)
      if (changedLine(Changed, C.Loc.File, C.Loc.Line, C.Loc.Line)) {
        for (const index::Definition &D : Fn.Definitions)
          Out.insert(D.TU);
        break;
      }
    if (Fn.Hook && llvm::any_of(Fn.Definitions, [&](const index::Definition &D) {
          return changedLine(Changed, D.Loc.File, D.Loc.Line, D.EndLine);
        }))
      for (const index::CallSite &C : Fn.Calls)
        Out.insert(C.Loc.File);
  }
  return Out;
}

llvm::Error error(const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg);
}

} // namespace

TUSelection::TUSelection(Project &P, llvm::StringRef Cwd, ProgressLine &Progress)
    : P(P), Cwd(Cwd.str()), Progress(Progress) {}

const std::string *TUSelection::uncheckable(const std::string &TU) const {
  auto [It, New] = Languages.try_emplace(TU);
  if (New)
    It->second = P.uncheckableLanguage(TU);
  return It->second.empty() ? nullptr : &It->second;
}

void TUSelection::skip(const std::string &TU) const {
  llvm::errs() << "hotpath-tidy: note: skipping " << relativeTo(TU, Cwd) << ": "
               << *uncheckable(TU) << ", which clang-tidy does not check\n";
}

std::vector<std::string> TUSelection::checkable() const {
  std::vector<std::string> All;
  for (const auto &KV : P.files())
    if (!uncheckable(KV.first))
      All.push_back(KV.first);
  return All;
}

std::set<std::string> TUSelection::throughHeaders(const std::set<std::string> &Headers,
                                                  const std::set<std::string> &Selected,
                                                  unsigned Jobs) {
  std::vector<std::string> ToScan;
  for (const std::string &TU : checkable())
    if (!Selected.count(TU))
      ToScan.push_back(TU);
  auto Deps = P.includes(ToScan, Jobs, [&](size_t Done) {
    Progress.show("scanning includes", Done, ToScan.size());
  });
  std::set<std::string> Out;
  for (size_t I = 0; I < ToScan.size(); ++I)
    if (llvm::any_of(Deps[I], [&](const std::string &D) { return Headers.count(D); }))
      Out.insert(ToScan[I]);
  return Out;
}

std::set<std::string> TUSelection::touchedBy(const ChangedLines &Changed,
                                             const index::ProjectIndex *Index, unsigned Jobs) {
  const auto &Files = P.files();
  std::set<std::string> Selected, Headers; // headers: changed, not compiled on their own
  for (const auto &KV : Changed) {
    if (uncheckable(KV.first))
      skip(KV.first);
    else if (Files.count(KV.first))
      Selected.insert(KV.first);
    else if (isCFamilySource(KV.first))
      Headers.insert(KV.first);
  }
  size_t Direct = Selected.size(), ViaHeaders = 0, ViaIndex = 0;
  if (!Headers.empty())
    for (const std::string &TU : throughHeaders(Headers, Selected, Jobs))
      ViaHeaders += Selected.insert(TU).second;
  // The index's evidence: the TUs that define a function whose call sites
  // the patch changes (a new hot call makes an old check hot), and those
  // that call a hook whose body it changes.
  if (Index)
    for (const std::string &TU : touchedThroughIndex(*Index, Changed))
      if (Files.count(TU) && !uncheckable(TU) && Selected.insert(TU).second)
        ++ViaIndex;
  llvm::errs() << "hotpath-tidy: " << Changed.size() << " changed file"
               << (Changed.size() == 1 ? "" : "s") << "; " << Selected.size() << " of "
               << Files.size() << " translation units to check (" << Direct << " changed, "
               << ViaHeaders << " through " << Headers.size() << " changed header"
               << (Headers.size() == 1 ? "" : "s")
               << (ViaIndex ? ", " + std::to_string(ViaIndex) + " through the project index"
                            : std::string())
               << ")\n";
  return Selected;
}

llvm::Expected<std::set<std::string>> TUSelection::named(const std::vector<std::string> &Sources,
                                                         llvm::StringRef BuildDir) {
  std::set<std::string> Selected;
  for (const std::string &S : Sources) {
    std::string C = canonicalPath(S, Cwd);
    if (!P.files().count(C))
      return error("'" + S + "' is not in the compilation database in '" + BuildDir + "'");
    if (uncheckable(C))
      skip(C);
    else
      Selected.insert(C);
  }
  return Selected;
}

std::set<std::string> TUSelection::all() {
  std::set<std::string> Selected;
  for (const auto &KV : P.files())
    if (uncheckable(KV.first))
      skip(KV.first);
    else
      Selected.insert(KV.first);
  return Selected;
}

std::vector<std::string> slice(const std::vector<std::string> &All, unsigned K, unsigned N) {
  std::vector<std::string> Out;
  for (size_t I = 0; I < All.size(); ++I)
    if (I % N == K - 1)
      Out.push_back(All[I]);
  return Out;
}

} // namespace hotpath::driver
