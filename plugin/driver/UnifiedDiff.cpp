//===--- driver/UnifiedDiff.cpp - added lines of a unified diff -----------===//
#include "UnifiedDiff.h"
#include "Paths.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace hotpath::driver {

// git quotes names with unusual bytes: "b/dir/a\tb.c", with C escapes.
static std::string unquote(llvm::StringRef S) {
  if (S.size() < 2 || !S.starts_with("\"") || !S.ends_with("\""))
    return std::string(S);
  S = S.drop_front().drop_back();
  std::string R;
  for (size_t I = 0; I < S.size(); ++I) {
    if (S[I] != '\\' || I + 1 == S.size()) {
      R += S[I];
      continue;
    }
    char C = S[++I];
    switch (C) {
    case 'n': R += '\n'; break;
    case 't': R += '\t'; break;
    case 'a': R += '\a'; break;
    case 'b': R += '\b'; break;
    case 'f': R += '\f'; break;
    case 'r': R += '\r'; break;
    case 'v': R += '\v'; break;
    default:
      if (C >= '0' && C <= '7' && I + 2 < S.size()) {
        unsigned V = 0;
        for (int K = 0; K < 3 && I < S.size() && S[I] >= '0' && S[I] <= '7'; ++K, ++I)
          V = V * 8 + (S[I] - '0');
        --I;
        R += char(V);
      } else {
        R += C;
      }
    }
  }
  return R;
}

// "+++ b/path\t2024-01-01 ..." -> "b/path" (diff -u appends a timestamp).
static std::string headerPath(llvm::StringRef Rest) {
  Rest = Rest.rtrim("\r");
  if (Rest.starts_with("\""))
    return unquote(Rest.substr(0, Rest.find('"', 1) + 1));
  return std::string(Rest.split('\t').first.rtrim(" "));
}

// "@@ -a,b +c,d @@" -> c, d (d defaults to 1).
static bool parseHunk(llvm::StringRef L, unsigned &Start, unsigned &Count) {
  size_t Plus = L.find(" +");
  if (Plus == llvm::StringRef::npos)
    return false;
  llvm::StringRef New = L.substr(Plus + 2);
  New = New.take_until([](char C) { return C == ' '; });
  auto [S, N] = New.split(',');
  if (S.getAsInteger(10, Start))
    return false;
  Count = 1;
  if (!N.empty() && N.getAsInteger(10, Count))
    return false;
  return true;
}

/// \p Path without its first \p N components ("a/src/x.c", 1: "src/x.c"),
/// as patch -pN reads it; none left is an error.
static std::optional<std::string> stripComponents(llvm::StringRef Path, unsigned N) {
  for (unsigned I = 0; I < N; ++I) {
    size_t Slash = Path.find('/');
    if (Slash == llvm::StringRef::npos)
      return std::nullopt;
    Path = Path.drop_front(Slash + 1).ltrim('/');
  }
  if (Path.empty())
    return std::nullopt;
  return Path.str();
}

bool parseUnifiedDiff(llvm::StringRef Text, llvm::StringRef Root, std::optional<unsigned> Strip,
                      ChangedLines &Out, std::string &Err) {
  llvm::SmallVector<llvm::StringRef, 0> Lines;
  Text.split(Lines, '\n');
  std::string OldPath;
  std::string File; // current new-side file, empty when deleted/binary
  unsigned NewLine = 0, NewLeft = 0, OldLeft = 0;
  bool SawHunk = false;
  for (size_t I = 0; I < Lines.size(); ++I) {
    llvm::StringRef L = Lines[I];
    if (NewLeft || OldLeft) {
      // Inside a hunk: every line is ' ', '+', '-' or "\ No newline".
      if (L.starts_with("\\"))
        continue;
      char C = L.empty() ? ' ' : L[0];
      if (C == '+') {
        if (!File.empty())
          Out[File].Lines.insert(NewLine);
        ++NewLine;
        if (NewLeft)
          --NewLeft;
      } else if (C == '-') {
        // A removed line changes what surrounds it: the declaration it was
        // part of is touched even when nothing is added in its place.
        if (!File.empty())
          Out[File].DeletedBefore.insert(NewLine);
        if (OldLeft)
          --OldLeft;
      } else if (C == ' ' || L.empty()) {
        ++NewLine;
        if (NewLeft)
          --NewLeft;
        if (OldLeft)
          --OldLeft;
      } else {
        Err = "line " + std::to_string(I + 1) + ": hunk ends early: '" + L.str() + "'";
        return false;
      }
      continue;
    }
    if (L.starts_with("--- ")) {
      OldPath = headerPath(L.drop_front(4));
      continue;
    }
    if (L.starts_with("+++ ")) {
      std::string P = headerPath(L.drop_front(4));
      if (P == "/dev/null") {
        File.clear();
        continue;
      }
      // git style without --strip: "--- a/x" / "+++ b/x" (or "--- /dev/null"
      // for a new file).
      if (Strip) {
        std::optional<std::string> Stripped = stripComponents(P, *Strip);
        if (!Stripped) {
          Err = "line " + std::to_string(I + 1) + ": --strip=" + std::to_string(*Strip) +
                " leaves nothing of the path '" + P + "'";
          return false;
        }
        P = std::move(*Stripped);
      } else if (llvm::StringRef(P).starts_with("b/") &&
                 (llvm::StringRef(OldPath).starts_with("a/") || OldPath == "/dev/null"))
        P = P.substr(2);
      File = canonicalPath(P, Root);
      continue;
    }
    if (L.starts_with("@@ ")) {
      unsigned Count;
      if (!parseHunk(L, NewLine, Count)) {
        Err = "line " + std::to_string(I + 1) + ": not a hunk header: '" + L.str() + "'";
        return false;
      }
      // Old-side count, to know where the hunk ends.
      unsigned OldStart, OldCount = 1;
      llvm::StringRef O = L.drop_front(3);
      if (!O.consume_front("-")) {
        Err = "line " + std::to_string(I + 1) + ": not a hunk header";
        return false;
      }
      auto [S, N] = O.take_until([](char C) { return C == ' '; }).split(',');
      if (S.getAsInteger(10, OldStart) || (!N.empty() && N.getAsInteger(10, OldCount))) {
        Err = "line " + std::to_string(I + 1) + ": not a hunk header";
        return false;
      }
      NewLeft = Count;
      OldLeft = OldCount;
      if (Count == 0)
        ++NewLine; // "+c,0": nothing added, c is the line before
      SawHunk = true;
      continue;
    }
    // Anything else between files: "diff --git", "index", mode lines,
    // "Binary files ... differ", commit messages of format-patch output.
  }
  if (!SawHunk && !Text.trim().empty() && !Text.contains("\ndiff --git ") &&
      !Text.starts_with("diff --git ") && !Text.contains("Binary files ")) {
    Err = "no hunk found: not a unified diff";
    return false;
  }
  return true;
}

} // namespace hotpath::driver
