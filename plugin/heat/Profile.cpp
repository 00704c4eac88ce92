//===--- Profile.cpp - sample profiles as evidence of heat ----------------===//

#include "heat/Profile.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
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

/// A callgrind output file: its first line, or the first that says which
/// tool wrote it.
bool isCallgrind(StringRef Text) {
  for (StringRef Line : llvm::split(Text, '\n')) {
    Line = Line.trim();
    if (Line.empty())
      continue;
    if (Line.starts_with("# callgrind format"))
      return true;
    if (Line.starts_with("creator:"))
      return Line.contains("callgrind");
    if (!Line.starts_with("version:") && !Line.starts_with("#"))
      return false;
  }
  return false;
}

/// "fn=(12) name" defines the name of 12, "fn=(12)" uses it, "fn=name" is
/// uncompressed (callgrind's name compression).
StringRef compressedName(StringRef Value, llvm::DenseMap<unsigned, std::string> &ById) {
  Value = Value.trim();
  if (!Value.consume_front("("))
    return Value;
  size_t Close = Value.find(')');
  unsigned Id = 0;
  if (Close == StringRef::npos || Value.take_front(Close).getAsInteger(10, Id))
    return Value;
  StringRef Rest = Value.drop_front(Close + 1).trim();
  if (!Rest.empty())
    ById[Id] = Rest.str();
  auto It = ById.find(Id);
  return It == ById.end() ? StringRef() : StringRef(It->second);
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
  if (size_t Nul = Text.find('\0'); Nul != StringRef::npos)
    return createStringError(inconvertibleErrorCode(),
                             "profile '%s': not a text profile (NUL byte at offset %zu)",
                             Name.str().c_str(), Nul);
  if (isCallgrind(Text))
    return parseCallgrind(Text, Name);
  for (StringRef Line : llvm::split(Text, '\n')) {
    StringRef Trimmed = Line.trim();
    if (!Trimmed.empty() && !Trimmed.starts_with("#"))
      return looksFolded(Trimmed) ? parseFolded(Text, Name) : parsePerfReport(Text, Name);
  }
  return createStringError(inconvertibleErrorCode(), "profile '%s': no samples in it",
                           Name.str().c_str());
}

Expected<Profile> Profile::parseFolded(StringRef Text, StringRef Name) {
  Profile P;
  P.Name = sys::path::filename(Name).str();
  P.From = Source::Folded;
  StringMap<unsigned long long> SelfCount, InclusiveCount;
  unsigned long long Total = 0;
  SmallVector<StringRef, 0> Lines;
  Text.split(Lines, '\n');
  for (size_t I = 0; I < Lines.size(); ++I) {
    StringRef Trimmed = Lines[I].trim();
    if (Trimmed.empty() || Trimmed.starts_with("#"))
      continue;
    size_t Space = Trimmed.rfind(' ');
    unsigned long long Count;
    if (Space == StringRef::npos || Trimmed.drop_front(Space + 1).getAsInteger(10, Count))
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
  }
  if (Total == 0)
    return createStringError(inconvertibleErrorCode(), "profile '%s': no samples in it",
                             Name.str().c_str());
  for (const auto &E : SelfCount)
    P.Self[E.getKey()] = 100.0 * E.getValue() / Total;
  for (const auto &E : InclusiveCount)
    P.Inclusive[E.getKey()] = 100.0 * E.getValue() / Total;
  // What a rewrite can remove: without call counts, the inclusive share.
  P.Removable = P.Inclusive;
  return P;
}

namespace {
/// One entry of a perf report: "[children%] self% command dso [.] symbol".
struct PerfEntry {
  std::string Symbol;
  double Self = 0, Inclusive = 0;
  bool Children = false, Kernel = false;
};

/// Reads an entry line; an error says what is wrong with it.
Expected<PerfEntry> perfEntry(StringRef Trimmed, StringRef Name, size_t Line) {
  SmallVector<StringRef, 8> Fields;
  Trimmed.split(Fields, ' ', -1, /*KeepEmpty=*/false);
  double First, Second;
  if (Fields.empty() || !parsePercent(Fields[0], First))
    return lineError(Name, Line,
                     "expected a perf report line ('5.10%  command  object  [.] symbol') "
                     "or folded stacks ('a;b;c 123')");
  PerfEntry E;
  E.Children = Fields.size() > 1 && parsePercent(Fields[1], Second);
  // The symbol follows the one-letter mode column: "[.] " user, "[k] " kernel.
  size_t Marker = StringRef::npos;
  for (size_t At = Trimmed.find('['); At != StringRef::npos; At = Trimmed.find('[', At + 1))
    if (At + 3 < Trimmed.size() && Trimmed[At + 2] == ']' && Trimmed[At + 3] == ' ' &&
        (At == 0 || Trimmed[At - 1] == ' ')) {
      Marker = At;
      break;
    }
  if (Marker == StringRef::npos)
    return lineError(Name, Line, "no '[.] symbol' or '[k] symbol' column");
  E.Symbol = Profile::normalizeSymbol(Trimmed.drop_front(Marker + 4));
  E.Self = E.Children ? Second : First;
  E.Inclusive = First; // Without --children, self is all we know.
  E.Kernel = Trimmed[Marker + 1] == 'k';
  return E;
}
} // namespace

Expected<Profile> Profile::parsePerfReport(StringRef Text, StringRef Name) {
  Profile P;
  P.Name = sys::path::filename(Name).str();
  // The self shares of user-space ([.]) and kernel ([k]) entries.
  double UserSelf = 0, KernelSelf = 0;
  StringSet<> KernelSymbols;
  unsigned Entries = 0;
  SmallVector<StringRef, 0> Lines;
  Text.split(Lines, '\n');
  for (size_t I = 0; I < Lines.size(); ++I) {
    StringRef Line = Lines[I].rtrim("\r").rtrim();
    StringRef Trimmed = Line.ltrim();
    if (Trimmed.empty() || Trimmed.starts_with("#"))
      continue;
    // The call graph printed under an entry is indented and carries no
    // leading percentage ("|--7.38%--main", "---main", "  __libc_start_main",
    // and frames perf could not name: "0", "0x7f3a2c"); skip it.
    double Pct;
    if (Entries > 0 && Line.starts_with(" ") && !parsePercent(Trimmed.split(' ').first, Pct))
      continue;
    Expected<PerfEntry> E = perfEntry(Trimmed, Name, I + 1);
    if (!E)
      return E.takeError();
    P.HasChildren |= E->Children;
    P.Self[E->Symbol] += E->Self;
    P.Inclusive[E->Symbol] = std::max(P.Inclusive.lookup(E->Symbol), E->Inclusive);
    (E->Kernel ? KernelSelf : UserSelf) += E->Self;
    if (E->Kernel)
      KernelSymbols.insert(E->Symbol);
    ++Entries;
  }
  if (Entries == 0)
    return createStringError(inconvertibleErrorCode(), "profile '%s': no samples in it",
                             Name.str().c_str());
  // What a rewrite can remove: without call counts, the inclusive share
  // where the profile has one, else the self share; as a share of the
  // samples in the function's own space (user or kernel): a rewrite of user
  // code cannot take the page faults' time off (xfs_repair under perf: half
  // its samples in the kernel, check_nsec 0.52% of all samples and 1.03% of
  // user space, 1.23% of its instructions).
  P.Removable = P.HasChildren ? P.Inclusive : P.Self;
  for (auto &E : P.Removable) {
    double Space = KernelSymbols.count(E.getKey()) ? KernelSelf : UserSelf;
    if (Space > 0)
      E.getValue() = std::min(100.0, 100.0 * E.getValue() / Space);
  }
  return P;
}

Expected<Profile> Profile::parseCallgrind(StringRef Text, StringRef Name) {
  Profile P;
  P.Name = sys::path::filename(Name).str();
  P.From = Source::Callgrind;
  llvm::DenseMap<unsigned, std::string> FnIds;
  StringMap<uint64_t> SelfCost, CallCost;
  unsigned Positions = 1; // "positions: line" unless said otherwise
  uint64_t Total = 0, Summed = 0, PendingCalls = 0;
  bool Pending = false, SawEvents = false;
  std::string Fn, CalledFn;
  SmallVector<StringRef, 0> Lines;
  Text.split(Lines, '\n');
  for (size_t I = 0; I < Lines.size(); ++I) {
    StringRef Line = Lines[I].trim();
    if (Line.empty() || Line.starts_with("#"))
      continue;
    if (Line.consume_front("positions:")) {
      SmallVector<StringRef, 2> Kinds;
      Line.split(Kinds, ' ', -1, /*KeepEmpty=*/false);
      Positions = std::max<size_t>(1, Kinds.size());
    } else if (Line.consume_front("events:")) {
      SawEvents = true;
    } else if (Line.consume_front("summary:") || Line.consume_front("totals:")) {
      uint64_t N = 0;
      if (!Line.trim().split(' ').first.getAsInteger(10, N))
        Total = std::max(Total, N);
    } else if (Line.consume_front("fn=")) {
      Fn = normalizeSymbol(compressedName(Line, FnIds));
      size_t Quote = Fn.find('\''); // "f'2": a recursion level of f
      if (Quote != std::string::npos && Quote > 0)
        Fn.resize(Quote);
    } else if (Line.consume_front("cfn=")) {
      CalledFn = normalizeSymbol(compressedName(Line, FnIds));
      size_t Quote = CalledFn.find('\'');
      if (Quote != std::string::npos && Quote > 0)
        CalledFn.resize(Quote);
    } else if (Line.consume_front("calls=")) {
      if (Line.split(' ').first.getAsInteger(10, PendingCalls))
        return lineError(Name, I + 1, "expected 'calls=COUNT TARGET'");
      Pending = true;
    } else if (isdigit(static_cast<unsigned char>(Line[0])) || Line[0] == '+' ||
               Line[0] == '-' || Line[0] == '*') {
      // A cost line: the positions, then the cost of each event; the first
      // event (instructions, Ir, by default) is the one read.
      SmallVector<StringRef, 8> Fields;
      Line.split(Fields, ' ', -1, /*KeepEmpty=*/false);
      uint64_t Cost = 0;
      if (Fields.size() > Positions && Fields[Positions].getAsInteger(10, Cost))
        return lineError(Name, I + 1, "expected a cost line ('POSITION COST...')");
      if (Pending) {
        CallCost[Fn] += Cost;
        P.Calls[CalledFn] += PendingCalls;
        Pending = false;
      } else {
        SelfCost[Fn] += Cost;
        Summed += Cost;
      }
    } else if (Line.contains('=') || Line.contains(':')) {
      continue; // fl=, fi=, fe=, ob=, cob=, cfi=, jump=, desc:, cmd:, ...
    } else {
      return lineError(Name, I + 1, "expected a callgrind line");
    }
  }
  if (!SawEvents)
    return createStringError(inconvertibleErrorCode(),
                             "profile '%s': a callgrind file with no 'events:' line",
                             Name.str().c_str());
  if (Total == 0)
    Total = Summed;
  if (Total == 0)
    return createStringError(inconvertibleErrorCode(), "profile '%s': no samples in it",
                             Name.str().c_str());
  for (const auto &E : SelfCost) {
    uint64_t Incl = E.getValue() + CallCost.lookup(E.getKey());
    P.Self[E.getKey()] = 100.0 * E.getValue() / Total;
    P.Inclusive[E.getKey()] = 100.0 * Incl / Total;
  }
  for (const auto &E : CallCost)
    if (!SelfCost.count(E.getKey()))
      P.Inclusive[E.getKey()] = 100.0 * E.getValue() / Total;
  for (const auto &E : P.Inclusive)
    P.Removable[E.getKey()] =
        E.getValue() + 100.0 * CallOverhead * P.Calls.lookup(E.getKey()) / Total;
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
  const StringMap<double> &Map = M == Metric::Self        ? Self
                                 : M == Metric::Inclusive ? Inclusive
                                                          : Removable;
  for (StringRef Key : {QualifiedName, Name})
    if (auto It = Map.find(Key); It != Map.end())
      return It->getValue();
  return std::nullopt;
}

std::optional<uint64_t> Profile::callsOf(StringRef QualifiedName, StringRef Name) const {
  if (From != Source::Callgrind)
    return std::nullopt;
  for (StringRef Key : {QualifiedName, Name})
    if (auto It = Calls.find(Key); It != Calls.end())
      return It->getValue();
  return uint64_t(0);
}

std::string Profile::describe(Metric M) const {
  bool Instructions = From == Source::Callgrind;
  std::string Unit = Instructions ? "instructions" : "samples";
  switch (M) {
  case Metric::Self:
    return "self " + Unit;
  case Metric::Inclusive:
    return Unit + " (inclusive)";
  case Metric::Removable:
    if (Instructions)
      return "instructions removable (inclusive, and " + std::to_string(CallOverhead) +
             " per call its callers make)";
    if (From == Source::Folded)
      return "samples removable (inclusive)";
    // Shares of the samples in the function's own space (parsePerf).
    return HasChildren ? "samples removable (inclusive, of its space: user or kernel)"
                       : "self samples of its space (user or kernel)";
  }
  return Unit;
}

} // namespace hotpath
