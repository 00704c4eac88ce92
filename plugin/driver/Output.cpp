//===--- driver/Output.cpp - text, SARIF, GitHub annotations, fix patch ---===//
#include "Output.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"

#include <algorithm>
#include <memory>

namespace hotpath::driver {

namespace {

/// The bytes of each file a finding points into, with its line starts.
struct SourceFile {
  std::string Text;
  std::vector<unsigned> LineStarts; // offset of each line's first byte
  bool Ok = false;
};

SourceFile &source(llvm::StringRef Path) {
  static std::map<std::string, SourceFile> Cache;
  auto [It, New] = Cache.try_emplace(Path.str());
  SourceFile &F = It->second;
  if (New) {
    if (auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                               /*RequiresNullTerminator=*/false)) {
      F.Text = (*Buf)->getBuffer().str();
      F.Ok = true;
    }
    F.LineStarts.push_back(0);
    for (unsigned I = 0; I < F.Text.size(); ++I)
      if (F.Text[I] == '\n' && I + 1 < F.Text.size())
        F.LineStarts.push_back(I + 1);
  }
  return F;
}

struct Pos {
  unsigned Line = 0, Col = 0, CodePointCol = 0;
};

Pos position(llvm::StringRef Path, unsigned Offset) {
  SourceFile &F = source(Path);
  Pos P;
  if (!F.Ok)
    return P;
  Offset = std::min<unsigned>(Offset, F.Text.size());
  auto It = std::upper_bound(F.LineStarts.begin(), F.LineStarts.end(), Offset);
  unsigned Line = It - F.LineStarts.begin(); // 1-based
  unsigned Start = F.LineStarts[Line - 1];
  P.Line = Line;
  P.Col = Offset - Start + 1;
  P.CodePointCol = 1;
  for (unsigned I = Start; I < Offset; ++I)
    if ((static_cast<unsigned char>(F.Text[I]) & 0xC0) != 0x80)
      ++P.CodePointCol;
  return P;
}

llvm::StringRef lineText(llvm::StringRef Path, unsigned Line) {
  SourceFile &F = source(Path);
  if (!F.Ok || Line == 0 || Line > F.LineStarts.size())
    return "";
  llvm::StringRef T(F.Text);
  return T.substr(F.LineStarts[Line - 1]).split('\n').first.rtrim("\r");
}

void writeMessage(llvm::raw_ostream &OS, const Message &M, llvm::StringRef Level,
                  llvm::StringRef Check, llvm::StringRef Cwd) {
  if (!M.File.empty())
    OS << relativeTo(M.File, Cwd) << ':' << M.Line << ':' << M.Col << ": ";
  OS << Level << ": " << M.Text;
  if (!Check.empty())
    OS << " [" << Check << ']';
  OS << '\n';
  if (M.File.empty() || !M.Line)
    return;
  llvm::StringRef L = lineText(M.File, M.Line);
  OS << L << '\n';
  for (unsigned I = 0; I + 1 < M.Col && I < L.size(); ++I)
    OS << (L[I] == '\t' ? '\t' : ' ');
  OS << "^\n";
}

// Workflow command escaping (actions/toolkit command.ts).
std::string escapeData(llvm::StringRef S) {
  std::string R;
  for (char C : S) {
    if (C == '%') R += "%25";
    else if (C == '\r') R += "%0D";
    else if (C == '\n') R += "%0A";
    else R += C;
  }
  return R;
}
std::string escapeProperty(llvm::StringRef S) {
  std::string R;
  for (char C : escapeData(S)) {
    if (C == ':') R += "%3A";
    else if (C == ',') R += "%2C";
    else R += C;
  }
  return R;
}

std::string percentEncode(llvm::StringRef S) {
  std::string R;
  for (unsigned char C : S) {
    if (llvm::isAlnum(C) || C == '/' || C == '-' || C == '_' || C == '.' || C == '~')
      R += C;
    else {
      R += '%';
      R += llvm::hexdigit(C >> 4);
      R += llvm::hexdigit(C & 15);
    }
  }
  return R;
}

/// What code scanning shows about a rule: the hotpath checks' text comes
/// from their pages in docs/checks (GenRuleHelp.py, at build time).
struct RuleHelp {
  const char *Id, *Short, *Full, *Text, *Markdown;
};
const RuleHelp HotpathRules[] = {
#include "RuleHelp.inc"
};

llvm::json::Object ruleDescriptor(llvm::StringRef Id) {
  using llvm::json::Object;
  for (const RuleHelp &R : HotpathRules)
    if (Id == R.Id)
      return Object{{"id", Id},
                    {"name", Id},
                    {"shortDescription", Object{{"text", R.Short}}},
                    {"fullDescription", Object{{"text", R.Full}}},
                    {"help", Object{{"text", R.Text}, {"markdown", R.Markdown}}},
                    {"helpUri", std::string(HOTPATH_DOCS_URL) + Id.str() + ".md"}};
  // Not ours: compiler diagnostics and other clang-tidy checks (-checks=...).
  bool Compiler = Id.starts_with("clang-diagnostic-");
  std::string Uri = Compiler ? "https://clang.llvm.org/docs/DiagnosticsReference.html"
                             : "https://clang.llvm.org/extra/clang-tidy/checks/list.html";
  std::string Text = Compiler ? "The compiler diagnostic " + Id.str() + "."
                              : "The clang-tidy check " + Id.str() + ".";
  return Object{{"id", Id},
                {"name", Id},
                {"shortDescription", Object{{"text", Text}}},
                {"fullDescription", Object{{"text", Text}}},
                {"help", Object{{"text", Text + " See " + Uri},
                                {"markdown", Text + " See [its documentation](" + Uri + ")."}}},
                {"helpUri", Uri}};
}

/// partialFingerprints for code scanning, which matches a result across
/// pushes by it: the same for the same finding after edits elsewhere in
/// the file, so no line or column goes in. What does: the check, the file,
/// the declaration the finding is about (its data's subject), the text of the line with its
/// whitespace collapsed, and which of equal ones it is.
std::vector<std::string> fingerprints(const std::vector<Finding> &Findings,
                                      llvm::StringRef Root) {
  std::vector<std::string> Out;
  std::map<std::string, unsigned> Seen;
  for (const Finding &F : Findings) {
    llvm::SmallVector<llvm::StringRef, 16> Words;
    lineText(F.Main.File, F.Main.Line).split(Words, ' ', -1, /*KeepEmpty=*/false);
    std::string Line;
    for (llvm::StringRef W : Words)
      for (llvm::StringRef T : llvm::split(W, '\t'))
        if (!T.empty())
          Line += (Line.empty() ? "" : " ") + T.str();
    std::string Key = F.Check + '\0' + relativeTo(F.Main.File, Root) + '\0' +
                      F.Subject + '\0' + Line;
    Key += '\0' + std::to_string(Seen[Key]++);
    std::array<uint8_t, 32> H =
        llvm::SHA256::hash(llvm::ArrayRef<uint8_t>(
            reinterpret_cast<const uint8_t *>(Key.data()), Key.size()));
    Out.push_back(llvm::toHex(H, /*LowerCase=*/true));
  }
  return Out;
}

} // namespace

std::string relativeTo(llvm::StringRef Path, llvm::StringRef Dir) {
  llvm::SmallString<256> D(Dir);
  if (!llvm::StringRef(D).ends_with("/"))
    D += "/";
  if (Path.starts_with(D))
    return Path.drop_front(D.size()).str();
  return Path.str();
}

void locate(std::vector<Finding> &Findings) {
  auto Fill = [](Message &M) {
    if (M.File.empty())
      return;
    Pos P = position(M.File, M.Offset);
    M.Line = P.Line;
    M.Col = P.Col;
    M.CodePointCol = P.CodePointCol;
  };
  for (Finding &F : Findings) {
    Fill(F.Main);
    for (Message &N : F.Notes)
      Fill(N);
    for (Range &R : F.Related) {
      R.FirstLine = position(R.File, R.Offset).Line;
      // The last byte of the range, not the one after it: a range ending
      // at a newline does not reach into the next line.
      R.LastLine = position(R.File, R.Offset + (R.Length ? R.Length - 1 : 0)).Line;
    }
  }
}

void writeText(llvm::raw_ostream &OS, const std::vector<Finding> &Findings,
               llvm::StringRef Cwd) {
  for (const Finding &F : Findings) {
    writeMessage(OS, F.Main, F.Level, F.Check, Cwd);
    for (const Message &N : F.Notes)
      writeMessage(OS, N, "note", "", Cwd);
  }
}

void writeGithub(llvm::raw_ostream &OS, const std::vector<Finding> &Findings,
                 const std::vector<Failure> &Failures, llvm::StringRef Root) {
  for (const Finding &F : Findings) {
    std::string Msg = F.Main.Text;
    for (const Message &N : F.Notes) {
      Msg += "\n";
      if (!N.File.empty())
        Msg += relativeTo(N.File, Root) + ":" + std::to_string(N.Line) + ":" +
               std::to_string(N.Col) + ": ";
      Msg += "note: " + N.Text;
    }
    OS << "::" << (F.Level == "error" ? "error" : "warning")
       << " file=" << escapeProperty(relativeTo(F.Main.File, Root))
       << ",line=" << F.Main.Line << ",col=" << F.Main.Col
       << ",title=" << escapeProperty(F.Check) << "::" << escapeData(Msg) << '\n';
  }
  for (const Failure &X : Failures)
    OS << "::error file=" << escapeProperty(relativeTo(X.TU, Root))
       << ",title=hotpath-tidy::" << escapeData("could not be analysed: " + X.Reason) << '\n';
}

void writeSarif(llvm::raw_ostream &OS, const std::vector<Finding> &Findings,
                const std::vector<Failure> &Failures, llvm::StringRef Root,
                llvm::StringRef ToolVersion) {
  using llvm::json::Array;
  using llvm::json::Object;
  using llvm::json::Value;

  std::vector<std::string> Rules;
  for (const Finding &F : Findings)
    Rules.push_back(F.Check);
  llvm::sort(Rules);
  Rules.erase(std::unique(Rules.begin(), Rules.end()), Rules.end());

  auto Artifact = [&](llvm::StringRef Path) -> Value {
    std::string Rel = relativeTo(Path, Root);
    if (llvm::sys::path::is_absolute(Rel))
      return Object{{"uri", "file://" + percentEncode(Rel)}};
    return Object{{"uri", percentEncode(Rel)}, {"uriBaseId", "SRCROOT"}};
  };
  auto Physical = [&](const Message &M) -> Value {
    Object P{{"artifactLocation", Artifact(M.File)}};
    if (M.Line)
      P["region"] = Object{{"startLine", M.Line}, {"startColumn", M.CodePointCol}};
    return P;
  };

  Array RuleArray;
  for (const std::string &R : Rules)
    RuleArray.push_back(ruleDescriptor(R));

  Array Results;
  std::vector<std::string> Prints = fingerprints(Findings, Root);
  for (size_t I = 0; I < Findings.size(); ++I) {
    const Finding &F = Findings[I];
    Object R;
    R["ruleId"] = F.Check;
    R["ruleIndex"] =
        int64_t(std::lower_bound(Rules.begin(), Rules.end(), F.Check) - Rules.begin());
    R["level"] = F.Level == "error" ? "error" : F.Level == "remark" ? "note" : "warning";
    R["message"] = Object{{"text", F.Main.Text}};
    R["partialFingerprints"] = Object{{"hotpathFinding/v1", Prints[I]}};
    if (!F.Main.File.empty())
      R["locations"] = Array{Object{{"physicalLocation", Physical(F.Main)}}};
    Array Related;
    int64_t Id = 0;
    for (const Message &N : F.Notes) {
      Object L{{"id", Id++}, {"message", Object{{"text", N.Text}}}};
      if (!N.File.empty())
        L["physicalLocation"] = Physical(N);
      Related.push_back(std::move(L));
    }
    if (!Related.empty())
      R["relatedLocations"] = std::move(Related);
    if (!F.Fix.empty()) {
      std::map<std::string, Array> ByFile;
      for (const Edit &E : F.Fix) {
        Pos B = position(E.File, E.Offset), End = position(E.File, E.Offset + E.Length);
        ByFile[E.File].push_back(Object{
            {"deletedRegion", Object{{"startLine", B.Line},
                                     {"startColumn", B.CodePointCol},
                                     {"endLine", End.Line},
                                     {"endColumn", End.CodePointCol}}},
            {"insertedContent", Object{{"text", E.Text}}}});
      }
      Array Changes;
      for (auto &[File, Reps] : ByFile)
        Changes.push_back(
            Object{{"artifactLocation", Artifact(File)}, {"replacements", std::move(Reps)}});
      R["fixes"] = Array{Object{{"description", Object{{"text", "Apply the fix-it of " + F.Check}}},
                                {"artifactChanges", std::move(Changes)}}};
    }
    Results.push_back(std::move(R));
  }

  Array Notifications;
  for (const Failure &X : Failures)
    Notifications.push_back(Object{
        {"level", "error"},
        {"message", Object{{"text", "could not be analysed: " + X.Reason}}},
        {"locations", Array{Object{{"physicalLocation",
                                    Object{{"artifactLocation", Artifact(X.TU)}}}}}}});
  Object Invocation{{"executionSuccessful", Failures.empty()}};
  if (!Notifications.empty())
    Invocation["toolExecutionNotifications"] = std::move(Notifications);

  std::string RootUri = "file://" + percentEncode(Root);
  if (!llvm::StringRef(RootUri).ends_with("/"))
    RootUri += "/";
  Object Run{
      {"tool", Object{{"driver", Object{{"name", "hotpath-tidy"},
                                        {"version", ToolVersion},
                                        {"informationUri",
                                         "https://clang.llvm.org/extra/clang-tidy/"},
                                        {"rules", std::move(RuleArray)}}}}},
      {"originalUriBaseIds", Object{{"SRCROOT", Object{{"uri", RootUri}}}}},
      {"columnKind", "unicodeCodePoints"},
      {"invocations", Array{std::move(Invocation)}},
      {"results", std::move(Results)}};
  Value Log = Object{{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
                     {"version", "2.1.0"},
                     {"runs", Array{std::move(Run)}}};
  OS << llvm::formatv("{0:2}", Log) << '\n';
}

// ---------------------------------------------------------------------------
// Fix patch

namespace {

constexpr unsigned Context = 3;

bool overlaps(const Edit &A, const Edit &B) {
  if (A.File != B.File || A == B)
    return false;
  if (A.Length == 0 && B.Length == 0)
    return A.Offset == B.Offset; // two insertions: order unknown
  if (A.Length == 0)
    return A.Offset > B.Offset && A.Offset < B.Offset + B.Length;
  if (B.Length == 0)
    return B.Offset > A.Offset && B.Offset < A.Offset + A.Length;
  return A.Offset < B.Offset + B.Length && B.Offset < A.Offset + A.Length;
}

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

/// A unified diff of one file from its sorted, non-overlapping edits, with
/// exactly Context lines of context on both sides of each hunk (fewer only
/// at the ends of the file), as diff -u writes it: `patch --fuzz=0` takes a
/// hunk only when its context matches exactly that.
std::string fileDiff(llvm::StringRef Old, const std::vector<Edit> &Edits) {
  std::vector<llvm::StringRef> Lines = splitLines(Old);
  std::vector<unsigned> Starts; // Starts[i]: offset of line i; Starts[n] = size
  unsigned Off = 0;
  for (llvm::StringRef L : Lines) {
    Starts.push_back(Off);
    Off += L.size();
  }
  Starts.push_back(Old.size());
  unsigned N = Lines.size();
  auto LineOf = [&](unsigned Offset) -> unsigned {
    // The line holding byte Offset; N for the end of a file ending in '\n'.
    return std::upper_bound(Starts.begin(), Starts.begin() + N, Offset) - Starts.begin() - 1 +
           (Offset == Old.size() && (N == 0 || Old.ends_with("\n")) ? 1 : 0);
  };

  // 1. Edits on the same or adjacent lines, rewritten together: the old
  //    lines [OldBegin, OldEnd) become NewLines, once the lines that come
  //    out unchanged at either end are dropped.
  struct Change {
    unsigned OldBegin, OldEnd;
    std::vector<std::string> NewLines;
  };
  std::vector<Change> Changes;
  for (size_t I = 0; I < Edits.size();) {
    unsigned First = std::min(LineOf(Edits[I].Offset), N);
    unsigned Last = First; // inclusive
    size_t J = I;
    for (; J < Edits.size(); ++J) {
      const Edit &E = Edits[J];
      unsigned F = LineOf(E.Offset);
      if (J > I && F > Last + 1)
        break;
      Last = std::max(Last, E.Length ? LineOf(E.Offset + E.Length - 1) : F);
    }
    Last = std::min(Last, N ? N - 1 : 0);
    unsigned Begin = Starts[First], End = Starts[std::min(Last + 1, N)];
    std::string New;
    unsigned Pos = Begin;
    for (size_t K = I; K < J; ++K) {
      New += Old.slice(Pos, Edits[K].Offset);
      New += Edits[K].Text;
      Pos = Edits[K].Offset + Edits[K].Length;
    }
    New += Old.slice(std::max(Pos, Begin), std::max(End, Pos));
    I = J;
    std::vector<llvm::StringRef> OldBlock = splitLines(Old.slice(Begin, End));
    std::vector<llvm::StringRef> NewBlock = splitLines(New);
    size_t Pre = 0;
    while (Pre < OldBlock.size() && Pre < NewBlock.size() && OldBlock[Pre] == NewBlock[Pre])
      ++Pre;
    size_t Suf = 0;
    while (Suf < OldBlock.size() - Pre && Suf < NewBlock.size() - Pre &&
           OldBlock[OldBlock.size() - 1 - Suf] == NewBlock[NewBlock.size() - 1 - Suf])
      ++Suf;
    if (Pre == OldBlock.size() && Pre == NewBlock.size())
      continue; // the edits change nothing
    Change C{unsigned(First + Pre), unsigned(First + OldBlock.size() - Suf), {}};
    for (size_t K = Pre; K < NewBlock.size() - Suf; ++K)
      C.NewLines.push_back(NewBlock[K].str());
    if (!Changes.empty() && C.OldBegin < Changes.back().OldEnd)
      C.OldBegin = Changes.back().OldEnd; // cannot happen with sorted edits
    Changes.push_back(std::move(C));
  }

  // 2. Hunks: changes whose contexts would meet share one.
  std::string Out;
  long Delta = 0; // new line number minus old, before the current hunk
  for (size_t I = 0; I < Changes.size();) {
    size_t J = I + 1;
    while (J < Changes.size() && Changes[J].OldBegin - Changes[J - 1].OldEnd <= 2 * Context)
      ++J;
    unsigned From = Changes[I].OldBegin >= Context ? Changes[I].OldBegin - Context : 0;
    unsigned To = std::min(N, Changes[J - 1].OldEnd + Context);
    std::string Body;
    unsigned OldCount = 0, NewCount = 0;
    unsigned Line = From;
    for (size_t K = I; K < J; ++K) {
      for (; Line < Changes[K].OldBegin; ++Line, ++OldCount, ++NewCount)
        emitLine(Body, ' ', Lines[Line]);
      for (; Line < Changes[K].OldEnd; ++Line, ++OldCount)
        emitLine(Body, '-', Lines[Line]);
      for (const std::string &L : Changes[K].NewLines) {
        emitLine(Body, '+', L);
        ++NewCount;
      }
    }
    for (; Line < To; ++Line, ++OldCount, ++NewCount)
      emitLine(Body, ' ', Lines[Line]);
    // "-s,0" names the line before an empty range, "-s,n" its first line.
    unsigned OldStart = From + (OldCount ? 1 : 0);
    unsigned NewStart = unsigned(long(From) + Delta) + (NewCount ? 1 : 0);
    Out += "@@ -" + std::to_string(OldStart) + "," + std::to_string(OldCount) + " +" +
           std::to_string(NewStart) + "," + std::to_string(NewCount) + " @@\n" + Body;
    Delta += long(NewCount) - long(OldCount);
    I = J;
  }
  return Out;
}

} // namespace

namespace {

/// The edits of \p Findings, once each, by file and in order. A finding whose
/// edit overlaps a different edit loses its whole fix, and so does the other
/// side: which one is right is not ours to guess.
std::map<std::string, std::vector<Edit>> chooseEdits(const std::vector<Finding> &Findings,
                                                     llvm::StringRef Root,
                                                     std::vector<std::string> &Dropped) {
  // Unique edits, each with the findings that want it.
  std::map<Edit, std::vector<size_t>> Owners;
  for (size_t I = 0; I < Findings.size(); ++I)
    for (const Edit &E : Findings[I].Fix)
      Owners[E].push_back(I);
  std::set<size_t> Lost;
  std::vector<const Edit *> All;
  for (auto &KV : Owners)
    All.push_back(&KV.first);
  for (size_t I = 0; I < All.size(); ++I)
    for (size_t J = I + 1; J < All.size() && All[J]->File == All[I]->File &&
                           All[J]->Offset <= All[I]->Offset + All[I]->Length;
         ++J)
      if (overlaps(*All[I], *All[J])) {
        for (size_t O : Owners[*All[I]])
          Lost.insert(O);
        for (size_t O : Owners[*All[J]])
          Lost.insert(O);
      }
  for (size_t O : Lost)
    Dropped.push_back(relativeTo(Findings[O].Main.File, Root) + ":" +
                      std::to_string(Findings[O].Main.Line) + ": the fix of [" +
                      Findings[O].Check + "] overlaps another fix; left out");

  std::map<std::string, std::vector<Edit>> ByFile;
  for (auto &[E, Os] : Owners)
    if (llvm::any_of(Os, [&](size_t O) { return !Lost.count(O); }))
      ByFile[E.File].push_back(E);
  for (auto &[File, Edits] : ByFile)
    llvm::sort(Edits, [](const Edit &A, const Edit &B) {
      return std::make_pair(A.Offset, A.Length) < std::make_pair(B.Offset, B.Length);
    });
  return ByFile;
}

} // namespace

bool writeFixPatch(llvm::StringRef Path, const std::vector<Finding> &Findings,
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

  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC);
  if (EC) {
    Err = "cannot write " + Path.str() + ": " + EC.message();
    return false;
  }
  OS << Patch;
  return true;
}

bool applyFixes(const std::vector<Finding> &Findings, llvm::StringRef Root,
                std::vector<std::string> &Dropped, unsigned &FilesChanged, std::string &Err) {
  FilesChanged = 0;
  for (auto &[File, Edits] : chooseEdits(Findings, Root, Dropped)) {
    SourceFile &S = source(File);
    if (!S.Ok) {
      Err = "cannot read " + File;
      return false;
    }
    // Back to front, so that each edit's offsets still hold; insertions at
    // one offset keep their order.
    std::string Text = S.Text;
    for (auto It = Edits.rbegin(); It != Edits.rend(); ++It) {
      if (It->Offset + It->Length > Text.size()) {
        Err = File + ": a fix reaches past the end of the file (did it change during the run?)";
        return false;
      }
      Text.replace(It->Offset, It->Length, It->Text);
    }
    if (Text == S.Text)
      continue;
    std::error_code EC;
    llvm::raw_fd_ostream OS(File, EC);
    if (EC) {
      Err = "cannot write " + File + ": " + EC.message();
      return false;
    }
    OS << Text;
    ++FilesChanged;
  }
  return true;
}

} // namespace hotpath::driver
