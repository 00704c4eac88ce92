//===--- InlineRemarks.cpp - which calls the compiler left out of line ----===//

#include "heat/InlineRemarks.h"
#include "heat/Profile.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/Remarks/Remark.h"
#include "llvm/Remarks/RemarkFormat.h"
#include "llvm/Remarks/RemarkParser.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <map>
#include <set>

namespace hotpath {

namespace {
const char SummaryHeader[] = "# hotpath-tidy inline summary";

llvm::Error error(const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg);
}
} // namespace

std::string InlineRemarks::calleeName(llvm::StringRef Symbol) {
  std::string Demangled = llvm::demangle(Symbol.str()); // LLVM 16 takes only a std::string
  return Profile::normalizeSymbol(Demangled);
}

llvm::Error InlineRemarks::addOptimizationRecord(llvm::StringRef Yaml, llvm::StringRef File) {
  if (Yaml.trim().empty())
    return llvm::Error::success(); // a TU with no calls the inliner looked at
  auto Parser = llvm::remarks::createRemarkParser(llvm::remarks::Format::YAML, Yaml);
  if (!Parser)
    return error("cannot read optimization record '" + File +
                 "': " + llvm::toString(Parser.takeError()));
  // Per callee, per call site: per function the call ended up in, whether
  // some remark says it was inlined there.
  std::map<std::string, std::map<std::string, std::map<std::string, bool>>> Sites;
  while (true) {
    llvm::Expected<std::unique_ptr<llvm::remarks::Remark>> R = (*Parser)->next();
    if (!R) {
      llvm::Error E = R.takeError();
      if (E.isA<llvm::remarks::EndOfFileError>()) {
        llvm::consumeError(std::move(E));
        break;
      }
      return error("cannot read optimization record '" + File +
                   "': " + llvm::toString(std::move(E)));
    }
    const llvm::remarks::Remark &Rem = **R;
    if (Rem.PassName != "inline" && Rem.PassName != "always-inline")
      continue;
    bool Passed = Rem.RemarkType == llvm::remarks::Type::Passed;
    if (!Passed && Rem.RemarkType != llvm::remarks::Type::Missed)
      continue;
    llvm::StringRef Callee, Caller = Rem.FunctionName;
    for (const llvm::remarks::Argument &A : Rem.Args) {
      if (A.Key == "Callee")
        Callee = A.Val;
      else if (A.Key == "Caller")
        Caller = A.Val;
    }
    if (Callee.empty())
      continue;
    std::string Site = Rem.Loc ? (Rem.Loc->SourceFilePath + ":" +
                                  llvm::Twine(Rem.Loc->SourceLine) + ":" +
                                  llvm::Twine(Rem.Loc->SourceColumn))
                                     .str()
                               : ("in " + Caller).str();
    bool &Inlined = Sites[calleeName(Callee)][Site][Caller.str()];
    Inlined = Inlined || Passed;
  }
  for (const auto &[Callee, PerSite] : Sites) {
    InlineCount &C = Counts[Callee];
    for (const auto &[Site, PerCaller] : PerSite) {
      ++C.Sites;
      for (const auto &[Caller, Inlined] : PerCaller)
        if (!Inlined) {
          ++C.NotInlined;
          break;
        }
    }
  }
  return llvm::Error::success();
}

llvm::Error InlineRemarks::addSummary(llvm::StringRef Text, llvm::StringRef File) {
  llvm::SmallVector<llvm::StringRef, 64> Lines;
  Text.split(Lines, '\n');
  for (size_t I = 0; I < Lines.size(); ++I) {
    llvm::StringRef L = Lines[I].trim();
    if (L.empty() || L.starts_with("#"))
      continue;
    // The name may hold spaces ("operator new"): the counts are the last two.
    auto [Rest, SitesText] = L.rsplit(' ');
    auto [Function, NotText] = Rest.rtrim().rsplit(' ');
    Function = Function.trim();
    InlineCount C;
    if (Function.empty() || NotText.trim().getAsInteger(10, C.NotInlined) ||
        SitesText.trim().getAsInteger(10, C.Sites) || C.NotInlined > C.Sites)
      return error(File + ":" + llvm::Twine(I + 1) +
                   ": expected 'function not_inlined call_sites' (an inline summary) "
                   "or an optimization record (YAML from -fsave-optimization-record)");
    InlineCount &Into = Counts[Function];
    Into.Sites += C.Sites;
    Into.NotInlined += C.NotInlined;
  }
  return llvm::Error::success();
}

llvm::Expected<InlineRemarks> InlineRemarks::load(llvm::StringRef Paths) {
  InlineRemarks R;
  llvm::SmallVector<llvm::StringRef, 4> Files;
  Paths.split(Files, ';', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef P : Files) {
    P = P.trim();
    auto Buf = llvm::MemoryBuffer::getFile(P, /*IsText=*/true);
    if (!Buf)
      return error("cannot read inline remarks '" + P + "': " + Buf.getError().message());
    llvm::StringRef Text = (*Buf)->getBuffer();
    if (Text.find('\0') != llvm::StringRef::npos)
      return error("inline remarks '" + P +
                   "' is a binary file, not a YAML optimization record or a summary");
    llvm::StringRef First = Text.ltrim();
    llvm::Error E = First.starts_with("---") ? R.addOptimizationRecord(Text, P)
                                             : R.addSummary(Text, P);
    if (E)
      return E;
    R.Name += (R.Name.empty() ? "" : ", ") + llvm::sys::path::filename(P).str();
  }
  if (Files.empty())
    return error("InlineRemarks names no file");
  return R;
}

std::optional<InlineCount> InlineRemarks::countOf(llvm::StringRef QualifiedName,
                                                  llvm::StringRef Name) const {
  auto It = Counts.find(QualifiedName);
  if (It == Counts.end())
    It = Counts.find(Name);
  if (It == Counts.end())
    return std::nullopt;
  return It->second;
}

void InlineRemarks::writeSummary(llvm::raw_ostream &OS) const {
  OS << SummaryHeader << ": function, call sites not inlined, call sites\n";
  std::vector<llvm::StringRef> Keys;
  for (const auto &KV : Counts)
    Keys.push_back(KV.getKey());
  llvm::sort(Keys);
  for (llvm::StringRef K : Keys)
    OS << K << " " << Counts.lookup(K).NotInlined << " " << Counts.lookup(K).Sites << "\n";
}

} // namespace hotpath
