//===--- FindingData.cpp - a finding as data, for tools -------------------===//

#include "core/FindingData.h"
#include "support/AtomicFile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

namespace hotpath {

using llvm::json::Array;
using llvm::json::Object;
using llvm::json::Value;

bool FindingData::operator==(const FindingData &O) const {
  return toJSONLine(*this) == toJSONLine(O);
}

std::string toJSONLine(const FindingData &F) {
  Array Extent, Evidence;
  for (const FindingData::Span &S : F.Extent)
    Extent.push_back(Object{{"file", S.File}, {"offset", S.Offset}, {"length", S.Length}});
  for (const FindingData::Lines &L : F.Evidence)
    Evidence.push_back(Object{{"file", L.File}, {"first", L.First}, {"last", L.Last}});
  Object O{{"check", F.Check},   {"kind", F.Kind},
           {"subject", F.Subject}, {"file", F.File},
           {"offset", F.Offset}, {"extent", std::move(Extent)},
           {"evidence", std::move(Evidence)}, {"nofix", F.NoFix}};
  if (F.ProfileShare)
    O["profileShare"] = *F.ProfileShare;
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  OS << Value(std::move(O));
  return Out;
}

namespace {
/// Reads what fromJSONLine needs, failing with the first missing field.
class Reader {
public:
  explicit Reader(const Object &O) : O(O) {}
  std::string str(llvm::StringRef Key) { return str(O, Key); }
  std::string str(const Object &In, llvm::StringRef Key) {
    if (std::optional<llvm::StringRef> S = In.getString(Key))
      return S->str();
    fail(Key);
    return "";
  }
  unsigned num(const Object &In, llvm::StringRef Key) {
    if (std::optional<int64_t> N = In.getInteger(Key); N && *N >= 0)
      return static_cast<unsigned>(*N);
    fail(Key);
    return 0;
  }
  const Array *arr(llvm::StringRef Key) {
    if (const Array *A = O.getArray(Key))
      return A;
    fail(Key);
    return nullptr;
  }
  void fail(llvm::StringRef Key) {
    if (Missing.empty())
      Missing = Key.str();
  }
  std::string Missing;

private:
  const Object &O;
};
} // namespace

llvm::Expected<FindingData> fromJSONLine(llvm::StringRef Line) {
  llvm::Expected<Value> V = llvm::json::parse(Line);
  if (!V)
    return V.takeError();
  const Object *O = V->getAsObject();
  if (!O)
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "not a JSON object");
  Reader R(*O);
  FindingData F;
  F.Check = R.str("check");
  F.Kind = R.str("kind");
  F.Subject = R.str("subject");
  F.File = R.str("file");
  F.Offset = R.num(*O, "offset");
  F.NoFix = R.str("nofix");
  if (const Array *A = R.arr("extent"))
    for (const Value &E : *A)
      if (const Object *S = E.getAsObject())
        F.Extent.push_back({R.str(*S, "file"), R.num(*S, "offset"), R.num(*S, "length")});
  if (const Array *A = R.arr("evidence"))
    for (const Value &E : *A)
      if (const Object *L = E.getAsObject())
        F.Evidence.push_back({R.str(*L, "file"), R.num(*L, "first"), R.num(*L, "last")});
  if (std::optional<double> Share = O->getNumber("profileShare"))
    F.ProfileShare = *Share;
  if (!R.Missing.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "no valid '" + R.Missing + "'");
  return F;
}

llvm::Error appendFindings(llvm::StringRef Path, llvm::ArrayRef<FindingData> Findings) {
  if (Findings.empty())
    return llvm::Error::success();
  // The TU's lines in one append: runs of several processes share the
  // file, and a run stopped at any point leaves whole lines.
  std::string Lines;
  for (const FindingData &F : Findings)
    Lines += toJSONLine(F) + "\n";
  if (llvm::Error E = appendAtomically(Path, Lines)) {
    std::error_code EC = llvm::errorToErrorCode(std::move(E));
    return llvm::createStringError(EC, "cannot write findings to '" + Path + "': " +
                                           EC.message());
  }
  return llvm::Error::success();
}

llvm::Expected<std::vector<FindingData>> readFindings(llvm::StringRef Path) {
  std::vector<FindingData> Out;
  if (!llvm::sys::fs::exists(Path))
    return Out;
  auto Buf = llvm::MemoryBuffer::getFile(Path);
  if (!Buf)
    return llvm::createStringError(Buf.getError(), "cannot read findings '" + Path +
                                                       "': " + Buf.getError().message());
  llvm::SmallVector<llvm::StringRef, 32> Lines;
  (*Buf)->getBuffer().split(Lines, '\n', -1, /*KeepEmpty=*/false);
  for (size_t I = 0; I < Lines.size(); ++I) {
    llvm::Expected<FindingData> F = fromJSONLine(Lines[I]);
    if (!F)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     Path + ":" + llvm::Twine(I + 1) + ": " +
                                         llvm::toString(F.takeError()));
    Out.push_back(std::move(*F));
  }
  return Out;
}

} // namespace hotpath
