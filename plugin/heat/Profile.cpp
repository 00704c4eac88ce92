//===--- Profile.cpp - sample profiles as evidence of heat ----------------===//

#include "heat/Profile.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace hotpath {
namespace {

Error lineError(StringRef Name, size_t Line, const Twine &What) {
  return createStringError(inconvertibleErrorCode(), "profile '%s': line %zu: %s",
                           Name.str().c_str(), Line, What.str().c_str());
}

bool parsePercent(StringRef Token, double &Out) {
  return Token.consume_back("%") && !Token.getAsDouble(Out) && Out >= 0 && Out <= 100;
}

/// "a;b;c 123": the last field is the count.
bool looksFolded(StringRef Line) {
  size_t Space = Line.rfind(' ');
  unsigned long long Count;
  return Space != StringRef::npos && !Line.contains('%') &&
         !Line.drop_front(Space + 1).getAsInteger(10, Count);
}

} // namespace

std::string Profile::normalizeSymbol(StringRef Symbol) {
  Symbol = Symbol.trim();
  // Demangled C++: cut the parameter list, keep the qualified name.
  if (size_t Paren = Symbol.find('('); Paren != StringRef::npos && Paren > 0)
    Symbol = Symbol.take_front(Paren);
  // GCC clones: f.constprop.0, f.isra.0, f.part.0, f.cold, f.lto_priv.0.
  if (size_t Dot = Symbol.find('.'); Dot != StringRef::npos && Dot > 0)
    Symbol = Symbol.take_front(Dot);
  return Symbol.str();
}

Expected<Profile> Profile::parse(StringRef Text, StringRef Name) {
  Profile P;
  P.Name = sys::path::filename(Name).str();
  if (size_t Nul = Text.find('\0'); Nul != StringRef::npos)
    return createStringError(inconvertibleErrorCode(),
                             "profile '%s': not a text profile (NUL byte at offset %zu)",
                             Name.str().c_str(), Nul);

  SmallVector<StringRef, 0> Lines;
  Text.split(Lines, '\n');
  std::optional<bool> Folded;
  StringMap<unsigned long long> SelfCount, InclusiveCount;
  unsigned long long Total = 0;

  for (size_t I = 0; I < Lines.size(); ++I) {
    StringRef Line = Lines[I].rtrim("\r").rtrim();
    StringRef Trimmed = Line.ltrim();
    if (Trimmed.empty() || Trimmed.starts_with("#"))
      continue;
    if (!Folded)
      Folded = looksFolded(Trimmed);

    if (*Folded) {
      size_t Space = Trimmed.rfind(' ');
      unsigned long long Count;
      if (Space == StringRef::npos ||
          Trimmed.drop_front(Space + 1).getAsInteger(10, Count))
        return lineError(Name, I + 1, "expected 'frame;frame;... COUNT' (folded stacks)");
      SmallVector<StringRef, 16> Frames;
      Trimmed.take_front(Space).split(Frames, ';', -1, /*KeepEmpty=*/false);
      if (Frames.empty())
        return lineError(Name, I + 1, "a folded stack with no frames");
      Total += Count;
      SelfCount[normalizeSymbol(Frames.back())] += Count;
      StringSet<> Seen; // Recursion counts a frame once per stack.
      for (StringRef F : Frames)
        if (Seen.insert(normalizeSymbol(F)).second)
          InclusiveCount[normalizeSymbol(F)] += Count;
      continue;
    }

    // perf report --stdio: "[children%] self% command dso [.] symbol". The
    // call graph printed under an entry is indented and carries no leading
    // percentage ("|--7.38%--main", "---main", "  __libc_start_main"); skip it.
    if (Total > 0 && Line.starts_with("  ") && !isdigit(static_cast<unsigned char>(Trimmed[0])))
      continue;
    SmallVector<StringRef, 8> Fields;
    Trimmed.split(Fields, ' ', -1, /*KeepEmpty=*/false);
    double First, Second;
    if (Fields.empty() || !parsePercent(Fields[0], First))
      return lineError(Name, I + 1,
                       "expected a perf report line ('5.10%  command  object  [.] symbol') "
                       "or folded stacks ('a;b;c 123')");
    bool Children = Fields.size() > 1 && parsePercent(Fields[1], Second);
    // The symbol follows the one-letter mode column: "[.] " user, "[k] " kernel.
    size_t Marker = StringRef::npos;
    for (size_t At = Trimmed.find('['); At != StringRef::npos; At = Trimmed.find('[', At + 1))
      if (At + 3 < Trimmed.size() && Trimmed[At + 2] == ']' && Trimmed[At + 3] == ' ' &&
          (At == 0 || Trimmed[At - 1] == ' ')) {
        Marker = At;
        break;
      }
    if (Marker == StringRef::npos)
      return lineError(Name, I + 1, "no '[.] symbol' or '[k] symbol' column");
    std::string Symbol = normalizeSymbol(Trimmed.drop_front(Marker + 4));
    double SelfPct = Children ? Second : First;
    double InclPct = First; // Without --children, self is all we know.
    P.Self[Symbol] += SelfPct;
    P.Inclusive[Symbol] = std::max(P.Inclusive.lookup(Symbol), InclPct);
    ++Total;
  }

  if (Total == 0)
    return createStringError(inconvertibleErrorCode(), "profile '%s': no samples in it",
                             Name.str().c_str());
  if (Folded && *Folded) {
    for (const auto &E : SelfCount)
      P.Self[E.getKey()] = 100.0 * E.getValue() / Total;
    for (const auto &E : InclusiveCount)
      P.Inclusive[E.getKey()] = 100.0 * E.getValue() / Total;
  }
  return P;
}

Expected<Profile> Profile::load(StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> File = MemoryBuffer::getFile(Path);
  if (!File)
    return createStringError(File.getError(), "profile '%s': cannot read: %s",
                             Path.str().c_str(), File.getError().message().c_str());
  return parse((*File)->getBuffer(), Path);
}

std::optional<double> Profile::percentOf(StringRef QualifiedName, StringRef Name,
                                         Metric M) const {
  const StringMap<double> &Map = M == Metric::Self ? Self : Inclusive;
  for (StringRef Key : {QualifiedName, Name})
    if (auto It = Map.find(Key); It != Map.end())
      return It->getValue();
  return std::nullopt;
}

} // namespace hotpath
