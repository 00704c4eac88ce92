//===--- driver/FixPatch.cpp - the fixes as one unified diff --------------===//
#include "FixPatch.h"
#include "FixEdits.h"
#include "Paths.h"
#include "SourceFiles.h"

#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <optional>

namespace hotpath::driver {

namespace {

constexpr unsigned Context = 3;

std::vector<llvm::StringRef> splitLines(llvm::StringRef S) {
  std::vector<llvm::StringRef> Out;
  while (!S.empty()) {
    size_t NL = S.find('\n');
    if (NL == llvm::StringRef::npos) {
      Out.push_back(S);
      break;
    }
    Out.push_back(S.take_front(NL + 1));
    S = S.drop_front(NL + 1);
  }
  return Out;
}

void emitLine(std::string &Out, char Tag, llvm::StringRef L) {
  Out += Tag;
  Out += L;
  if (!L.ends_with("\n"))
    Out += "\n\\ No newline at end of file\n";
}

/// The file as it is: its lines (each with its '\n') and where they start.
struct OldFile {
  llvm::StringRef Text;
  std::vector<llvm::StringRef> Lines;
  std::vector<unsigned> Starts; // Starts[i]: offset of line i; Starts[n] = size
  unsigned N = 0;               // the number of lines

  explicit OldFile(llvm::StringRef Text) : Text(Text), Lines(splitLines(Text)) {
    unsigned Off = 0;
    for (llvm::StringRef L : Lines) {
      Starts.push_back(Off);
      Off += L.size();
    }
    Starts.push_back(Text.size());
    N = Lines.size();
  }

  /// The line holding byte Offset; N for the end of a file ending in '\n'.
  unsigned lineOf(unsigned Offset) const {
    return std::upper_bound(Starts.begin(), Starts.begin() + N, Offset) - Starts.begin() - 1 +
           (Offset == Text.size() && (N == 0 || Text.ends_with("\n")) ? 1 : 0);
  }
};

/// The old lines [OldBegin, OldEnd) become NewLines.
struct Change {
  unsigned OldBegin, OldEnd;
  std::vector<std::string> NewLines;
};

/// Edits [I, J) rewrite old lines [First, Last]; the change they make,
/// once the lines that come out unchanged at either end are dropped. None
/// when they change nothing.
std::optional<Change> change(const OldFile &Old, const std::vector<Edit> &Edits, size_t I,
                             size_t J, unsigned First, unsigned Last) {
  unsigned Begin = Old.Starts[First], End = Old.Starts[std::min(Last + 1, Old.N)];
  std::string New;
  unsigned Pos = Begin;
  for (size_t K = I; K < J; ++K) {
    New += Old.Text.slice(Pos, Edits[K].Offset);
    New += Edits[K].Text;
    Pos = Edits[K].Offset + Edits[K].Length;
  }
  New += Old.Text.slice(std::max(Pos, Begin), std::max(End, Pos));
  std::vector<llvm::StringRef> OldBlock = splitLines(Old.Text.slice(Begin, End));
  std::vector<llvm::StringRef> NewBlock = splitLines(New);
  size_t Pre = 0;
  while (Pre < OldBlock.size() && Pre < NewBlock.size() && OldBlock[Pre] == NewBlock[Pre])
    ++Pre;
  size_t Suf = 0;
  while (Suf < OldBlock.size() - Pre && Suf < NewBlock.size() - Pre &&
         OldBlock[OldBlock.size() - 1 - Suf] == NewBlock[NewBlock.size() - 1 - Suf])
    ++Suf;
  if (Pre == OldBlock.size() && Pre == NewBlock.size())
    return std::nullopt;
  Change C{unsigned(First + Pre), unsigned(First + OldBlock.size() - Suf), {}};
  for (size_t K = Pre; K < NewBlock.size() - Suf; ++K)
    C.NewLines.push_back(NewBlock[K].str());
  return C;
}

/// Edits on the same or adjacent lines, rewritten together.
std::vector<Change> changes(const OldFile &Old, const std::vector<Edit> &Edits) {
  std::vector<Change> Changes;
  for (size_t I = 0; I < Edits.size();) {
    unsigned First = std::min(Old.lineOf(Edits[I].Offset), Old.N);
    unsigned Last = First; // inclusive
    size_t J = I;
    for (; J < Edits.size(); ++J) {
      const Edit &E = Edits[J];
      unsigned F = Old.lineOf(E.Offset);
      if (J > I && F > Last + 1)
        break;
      Last = std::max(Last, E.Length ? Old.lineOf(E.Offset + E.Length - 1) : F);
    }
    Last = std::min(Last, Old.N ? Old.N - 1 : 0);
    std::optional<Change> C = change(Old, Edits, I, J, First, Last);
    I = J;
    if (!C)
      continue; // the edits change nothing
    if (!Changes.empty() && C->OldBegin < Changes.back().OldEnd)
      C->OldBegin = Changes.back().OldEnd; // cannot happen with sorted edits
    Changes.push_back(std::move(*C));
  }
  return Changes;
}

/// The hunk of Changes [I, J), \p Delta (new line number minus old) before it.
std::string hunk(const OldFile &Old, const std::vector<Change> &Changes, size_t I, size_t J,
                 long &Delta) {
  unsigned From = Changes[I].OldBegin >= Context ? Changes[I].OldBegin - Context : 0;
  unsigned To = std::min(Old.N, Changes[J - 1].OldEnd + Context);
  std::string Body;
  unsigned OldCount = 0, NewCount = 0;
  unsigned Line = From;
  for (size_t K = I; K < J; ++K) {
    for (; Line < Changes[K].OldBegin; ++Line, ++OldCount, ++NewCount)
      emitLine(Body, ' ', Old.Lines[Line]);
    for (; Line < Changes[K].OldEnd; ++Line, ++OldCount)
      emitLine(Body, '-', Old.Lines[Line]);
    for (const std::string &L : Changes[K].NewLines) {
      emitLine(Body, '+', L);
      ++NewCount;
    }
  }
  for (; Line < To; ++Line, ++OldCount, ++NewCount)
    emitLine(Body, ' ', Old.Lines[Line]);
  // "-s,0" names the line before an empty range, "-s,n" its first line.
  unsigned OldStart = From + (OldCount ? 1 : 0);
  unsigned NewStart = unsigned(long(From) + Delta) + (NewCount ? 1 : 0);
  Delta += long(NewCount) - long(OldCount);
  return "@@ -" + std::to_string(OldStart) + "," + std::to_string(OldCount) + " +" +
         std::to_string(NewStart) + "," + std::to_string(NewCount) + " @@\n" + Body;
}

/// A unified diff of one file from its sorted, non-overlapping edits, with
/// exactly Context lines of context on both sides of each hunk (fewer only
/// at the ends of the file), as diff -u writes it: `patch --fuzz=0` takes a
/// hunk only when its context matches exactly that. Changes whose contexts
/// would meet share a hunk.
std::string fileDiff(llvm::StringRef Text, const std::vector<Edit> &Edits) {
  OldFile Old(Text);
  std::vector<Change> Changes = changes(Old, Edits);
  std::string Out;
  long Delta = 0;
  for (size_t I = 0; I < Changes.size();) {
    size_t J = I + 1;
    while (J < Changes.size() && Changes[J].OldBegin - Changes[J - 1].OldEnd <= 2 * Context)
      ++J;
    Out += hunk(Old, Changes, I, J, Delta);
    I = J;
  }
  return Out;
}

} // namespace

bool writeFixPatch(llvm::raw_ostream &OS, const std::vector<Finding> &Findings,
                   llvm::StringRef Root, std::vector<std::string> &Dropped,
                   std::string &Err) {
  std::string Patch;
  for (auto &[File, Edits] : chooseEdits(Findings, Root, Dropped)) {
    std::string Rel = relativeTo(File, Root);
    if (llvm::sys::path::is_absolute(Rel)) {
      Dropped.push_back(File + ": outside " + Root.str() + "; its edits are left out of the patch");
      continue;
    }
    SourceFile &S = source(File);
    if (!S.Ok) {
      Err = "cannot read " + File;
      return false;
    }
    std::string Body = fileDiff(S.Text, Edits);
    if (Body.empty())
      continue;
    Patch += "diff --git a/" + Rel + " b/" + Rel + "\n--- a/" + Rel + "\n+++ b/" + Rel + "\n";
    Patch += Body;
  }

  OS << Patch;
  return true;
}

} // namespace hotpath::driver
