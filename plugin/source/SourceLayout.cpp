//===--- SourceLayout.cpp - what the files of a TU look like --------------===//

#include "source/SourceLayout.h"
#include "support/Compat.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/MacroInfo.h"
#include "llvm/ADT/STLExtras.h"
#include <functional>

using namespace clang;

namespace hotpath {

//===----------------------------------------------------------------------===//
// Condition literals.
//===----------------------------------------------------------------------===//

namespace {
bool isIdentifier(StringRef S) {
  return !S.empty() && isAsciiIdentifierStart(S.front()) &&
         llvm::all_of(S, [](char C) { return isAsciiIdentifierContinue(C); });
}

/// Balanced parentheses around the whole of \p S.
bool wrappedInParens(StringRef S) {
  if (S.size() < 2 || S.front() != '(' || S.back() != ')')
    return false;
  int Depth = 0;
  for (size_t I = 0; I < S.size(); ++I) {
    Depth += S[I] == '(' ? 1 : S[I] == ')' ? -1 : 0;
    if (Depth == 0 && I + 1 < S.size())
      return false;
  }
  return true;
}

/// One token, a call-like "defined(X)", or a parenthesised whole: needs no
/// parentheses after '!' or around '&&'.
bool isPrimary(StringRef S) {
  if (isIdentifier(S) || wrappedInParens(S))
    return true;
  size_t Open = S.find('(');
  return Open != StringRef::npos && isIdentifier(S.take_front(Open)) &&
         wrappedInParens(S.drop_front(Open));
}

/// The literal an #if expression is: "defined X" and "defined(X)" read the
/// same, a leading '!' of a primary is the literal negated, outer
/// parentheses are dropped.
ConditionLiteral literalOf(std::string Text) {
  ConditionLiteral L;
  StringRef T = StringRef(Text).trim();
  while (true) {
    if (wrappedInParens(T)) {
      T = T.drop_front().drop_back().trim();
      continue;
    }
    if (T.starts_with("!") && !T.starts_with("!=") && isPrimary(T.drop_front().ltrim())) {
      T = T.drop_front().ltrim();
      L.Positive = !L.Positive;
      continue;
    }
    break;
  }
  if (T.consume_front("defined")) {
    StringRef Name = T.trim();
    if (wrappedInParens(Name))
      Name = Name.drop_front().drop_back().trim();
    if (isIdentifier(Name)) {
      L.Cond = ("defined(" + Name + ")").str();
      return L;
    }
    L.Cond = ("defined" + T).str();
    return L;
  }
  L.Cond = T.str();
  return L;
}
} // namespace

std::string ConditionLiteral::text() const {
  if (Positive)
    return Cond;
  return isPrimary(Cond) ? "!" + Cond : "!(" + Cond + ")";
}

std::string guardDirective(ArrayRef<ConditionLiteral> Lits) {
  if (Lits.size() == 1 && StringRef(Lits[0].Cond).starts_with("defined(") &&
      isPrimary(Lits[0].Cond)) {
    StringRef Name = StringRef(Lits[0].Cond).drop_front(8).drop_back();
    return ((Lits[0].Positive ? "#ifdef " : "#ifndef ") + Name).str();
  }
  std::string Out = "#if ";
  for (size_t I = 0; I < Lits.size(); ++I) {
    std::string T = Lits[I].text();
    if (Lits.size() > 1 && !isPrimary(T) && !(T[0] == '!' && isPrimary(T.substr(1))))
      T = "(" + T + ")";
    Out += (I ? " && " : "") + T;
  }
  return Out;
}

std::vector<ConditionLiteral> missingConditions(ArrayRef<ConditionLiteral> Of,
                                                ArrayRef<ConditionLiteral> In) {
  std::vector<ConditionLiteral> Out;
  for (const ConditionLiteral &L : Of)
    if (!llvm::is_contained(In, L) && !llvm::is_contained(Out, L))
      Out.push_back(L);
  return Out;
}

//===----------------------------------------------------------------------===//
// The recorder.
//===----------------------------------------------------------------------===//

namespace {
StringRef bufferAt(SourceLocation Loc, const SourceManager &SM, unsigned &Offset) {
  std::pair<FileID, unsigned> D = SM.getDecomposedLoc(Loc);
  Offset = D.second;
  return SM.getBufferData(D.first);
}

/// The tokens of a directive's condition from \p Begin to the end of its
/// line, one space where the source had white space.
std::string conditionText(SourceLocation Begin, const SourceManager &SM) {
  if (!Begin.isFileID())
    return "";
  unsigned Off;
  StringRef Buf = bufferAt(Begin, SM, Off);
  Lexer L(SM.getLocForStartOfFile(SM.getFileID(Begin)), LangOptions(), Buf.begin(),
          Buf.begin() + Off, Buf.end());
  std::string Out;
  Token Tok;
  bool First = true;
  while (!L.LexFromRawLexer(Tok) || Tok.isNot(tok::eof)) {
    if (Tok.is(tok::eof) || (!First && Tok.isAtStartOfLine()))
      break;
    if (!First && Tok.hasLeadingSpace())
      Out += ' ';
    // The raw lexer has just read the token: it ends where the lexer is
    // (no SourceManager lookup per token).
    Out.append(L.getBufferLocation() - Tok.getLength(), Tok.getLength());
    First = false;
  }
  return Out;
}

/// The one token at \p Loc: the name an #ifdef tests.
std::string nameAt(SourceLocation Loc, const SourceManager &SM) {
  unsigned Off;
  StringRef Buf = bufferAt(Loc, SM, Off);
  Lexer L(SM.getLocForStartOfFile(SM.getFileID(Loc)), LangOptions(), Buf.begin(),
          Buf.begin() + Off, Buf.end());
  Token Tok;
  L.LexFromRawLexer(Tok);
  return Tok.is(tok::raw_identifier) ? Tok.getRawIdentifier().str() : "";
}
} // namespace

/// Records where each group's directives are and which branch was taken;
/// what they say is read from the source when a fix asks (SourceLayout::
/// read): building the text of every condition of a TU cost 13 M
/// instructions on sqlite3.c, for the few groups around a fix.
class SourceLayoutRecorder : public compat::IncludeCallbacks {
  using Opener = SourceLayout::Opener;

public:
  SourceLayoutRecorder(SourceLayout &Out, const SourceManager &SM) : Out(Out), SM(SM) {
    Out.SM = &SM;
  }

  // Each callback asks first whether the group is recorded at all (a
  // system header's are not).
  void If(SourceLocation Loc, SourceRange Cond, ConditionValueKind Value) override {
    if (!skipped(Loc))
      open(Loc, Opener::If, Cond.getBegin(), false, Value == CVK_True);
  }
  void Ifdef(SourceLocation Loc, const Token &Name, const MacroDefinition &MD) override {
    Out.Tested.insert(Name.getIdentifierInfo());
    if (!skipped(Loc))
      open(Loc, Opener::Ifdef, Name.getLocation(), true, bool(MD));
  }
  void Ifndef(SourceLocation Loc, const Token &Name, const MacroDefinition &MD) override {
    Out.Tested.insert(Name.getIdentifierInfo());
    if (!skipped(Loc))
      open(Loc, Opener::Ifndef, Name.getLocation(), true, !MD);
  }
  void Elif(SourceLocation Loc, SourceRange Cond, ConditionValueKind Value,
            SourceLocation) override {
    if (inRecordedGroup())
      branch(Loc, Opener::Elif, Cond.getBegin(), false, Value == CVK_True);
  }
  void Elifdef(SourceLocation Loc, const Token &Name, const MacroDefinition &MD) override {
    Out.Tested.insert(Name.getIdentifierInfo());
    if (inRecordedGroup())
      branch(Loc, Opener::Elifdef, Name.getLocation(), true, bool(MD));
  }
  void Elifdef(SourceLocation Loc, SourceRange Cond, SourceLocation) override {
    if (inRecordedGroup())
      branch(Loc, Opener::Elifdef, Cond.getBegin(), false, false);
  }
  void Elifndef(SourceLocation Loc, const Token &Name, const MacroDefinition &MD) override {
    Out.Tested.insert(Name.getIdentifierInfo());
    if (inRecordedGroup())
      branch(Loc, Opener::Elifndef, Name.getLocation(), true, !MD);
  }
  void Elifndef(SourceLocation Loc, SourceRange Cond, SourceLocation) override {
    if (inRecordedGroup())
      branch(Loc, Opener::Elifndef, Cond.getBegin(), false, false);
  }
  void Defined(const Token &Name, const MacroDefinition &, SourceRange) override {
    Out.Tested.insert(Name.getIdentifierInfo());
  }
  void Else(SourceLocation Loc, SourceLocation) override {
    if (inRecordedGroup())
      branch(Loc, Opener::Else, SourceLocation(), false, /*Taken=*/true);
  }
  void Endif(SourceLocation Loc, SourceLocation) override {
    if (Stack.empty())
      return;
    int G = Stack.back();
    Stack.pop_back();
    if (G < 0)
      return;
    SourceLayout::Group &Grp = Out.Groups[G];
    Grp.EndifHash = hashOf(Loc);
    // A guard wraps the whole file: nothing but comments after its #endif.
    if (Grp.IncludeGuard)
      Grp.IncludeGuard = firstTokenAfterLine(Loc).is(tok::eof);
  }

  void inclusion(SourceLocation Hash, OptionalFileEntryRef File,
                 SrcMgr::CharacteristicKind) override {
    if (File && Hash.isFileID())
      Out.IncludedAt[&File->getFileEntry()].push_back(Hash);
  }

  void includeDirective(SourceLocation Hash, StringRef FileName, bool IsAngled) override {
    if (!Hash.isFileID() || SM.isInSystemHeader(Hash))
      return;
    SourceLayout::Include I;
    I.Hash = Hash;
    I.NextLine = nextLine(Hash);
    I.Name = FileName.str();
    I.Angled = IsAngled;
    FileID F = SM.getFileID(Hash);
    I.Conditional = llvm::any_of(Stack, [&](int G) {
      return G >= 0 && Out.Groups[G].File == F && !Out.Groups[G].IncludeGuard;
    });
    Out.IncludesByFile[F].push_back(std::move(I));
  }

private:
  bool recorded(SourceLocation Loc) const {
    // A file on disk: <built-in> and <command line> are buffers with no
    // entry. (isWrittenInBuiltinFile asks for the presumed location, a line
    // table lookup: 0.8% of clang -fsyntax-only on sqlite3.c's #ifs.)
    return Loc.isFileID() && !SM.isInSystemHeader(Loc) &&
           SM.getFileEntryRefForID(SM.getFileID(Loc));
  }

  /// True, with the group marked unrecorded, for an #if/#ifdef/#ifndef at
  /// \p Loc that is not recorded.
  bool skipped(SourceLocation Loc) {
    if (recorded(Loc))
      return false;
    Stack.push_back(-1);
    return true;
  }

  /// Whether an #elif or #else belongs to a recorded group.
  bool inRecordedGroup() const { return !Stack.empty() && Stack.back() >= 0; }

  static SourceLayout::Branch branchAt(SourceLocation Hash, SourceLocation BodyBegin,
                                       Opener Kind, SourceLocation Test, bool TestIsName,
                                       bool Taken) {
    SourceLayout::Branch B;
    B.Hash = Hash;
    B.BodyBegin = BodyBegin;
    B.Kind = Kind;
    B.Test = Test;
    B.TestIsName = TestIsName;
    B.HasOwn = Kind != Opener::Else;
    B.Taken = Taken;
    return B;
  }

  /// Opens a recorded group (skipped() said no).
  void open(SourceLocation Loc, Opener Kind, SourceLocation Test, bool TestIsName, bool Taken) {
    SourceLayout::Group G;
    G.File = SM.getFileID(Loc);
    G.Branches.push_back(branchAt(hashOf(Loc), nextLine(Loc), Kind, Test, TestIsName, Taken));
    // An include guard: "#ifndef X" or "#if !defined(X)", the first thing
    // in its file, confirmed at #endif.
    auto [Listed, First] = Out.GroupsByFile.try_emplace(G.File);
    G.IncludeGuard = First && isGuardTest(Kind, Test) &&
                     firstTokenOfFile(G.File).getLocation() == G.Branches[0].Hash;
    unsigned Index = Out.Groups.size();
    Out.Groups.push_back(std::move(G));
    Listed->second.push_back(Index);
    Stack.push_back(static_cast<int>(Index));
  }

  bool isGuardTest(Opener Kind, SourceLocation Test) const {
    if (Kind == Opener::Ifndef)
      return true;
    if (Kind != Opener::If)
      return false;
    ConditionLiteral L = literalOf(conditionText(Test, SM));
    return StringRef(L.Cond).starts_with("defined(") && !L.Positive;
  }

  void branch(SourceLocation Loc, Opener Kind, SourceLocation Test, bool TestIsName,
              bool Taken) {
    SourceLayout::Group &G = Out.Groups[Stack.back()];
    G.IncludeGuard = false; // an #else: not a guard
    bool EarlierTaken = llvm::any_of(G.Branches, [](const auto &B) { return B.Taken; });
    G.Branches.push_back(
        branchAt(hashOf(Loc), nextLine(Loc), Kind, Test, TestIsName, Taken && !EarlierTaken));
  }

  /// The '#' that starts the directive whose keyword is at \p Loc.
  SourceLocation hashOf(SourceLocation Loc) const {
    unsigned Off;
    StringRef Buf = bufferAt(Loc, SM, Off);
    unsigned I = Off;
    while (I > 0 && (Buf[I - 1] == ' ' || Buf[I - 1] == '\t'))
      --I;
    if (I > 0 && Buf[I - 1] == '#')
      return Loc.getLocWithOffset(static_cast<int>(I) - static_cast<int>(Off) - 1);
    return Loc;
  }

  /// The start of the line after the (logical) line \p Loc is on.
  SourceLocation nextLine(SourceLocation Loc) const {
    unsigned Off;
    StringRef Buf = bufferAt(Loc, SM, Off);
    size_t I = Off;
    while (I < Buf.size()) {
      if (Buf[I] == '\n' && (I == 0 || Buf[I - 1] != '\\'))
        return Loc.getLocWithOffset(static_cast<int>(I + 1 - Off));
      ++I;
    }
    return Loc.getLocWithOffset(static_cast<int>(Buf.size() - Off));
  }

  Token firstTokenOfFile(FileID F) const {
    StringRef Buf = SM.getBufferData(F);
    Lexer L(SM.getLocForStartOfFile(F), LangOptions(), Buf.begin(), Buf.begin(), Buf.end());
    Token Tok;
    L.LexFromRawLexer(Tok);
    return Tok;
  }

  Token firstTokenAfterLine(SourceLocation Loc) const {
    SourceLocation Next = nextLine(Loc);
    unsigned Off;
    StringRef Buf = bufferAt(Next, SM, Off);
    Lexer L(SM.getLocForStartOfFile(SM.getFileID(Next)), LangOptions(), Buf.begin(),
            Buf.begin() + Off, Buf.end());
    Token Tok;
    L.LexFromRawLexer(Tok);
    return Tok;
  }

  SourceLayout &Out;
  const SourceManager &SM;
  std::vector<int> Stack; // open groups, -1 for one not recorded
};

const SourceLayout::Group &SourceLayout::read(unsigned I) const {
  Group &G = Groups[I];
  if (G.Read)
    return G;
  G.Read = true;
  for (size_t K = 0; K < G.Branches.size(); ++K) {
    Branch &B = G.Branches[K];
    std::string Test;
    if (B.Kind != Opener::Else)
      Test = B.TestIsName ? nameAt(B.Test, *SM) : conditionText(B.Test, *SM);
    switch (B.Kind) {
    case Opener::If:
    case Opener::Elif:
      B.Directive = (B.Kind == Opener::If ? "#if " : "#elif ") + Test;
      B.Own = literalOf(Test);
      break;
    case Opener::Ifdef:
    case Opener::Elifdef:
      B.Directive = (B.Kind == Opener::Ifdef ? "#ifdef " : "#elifdef ") + Test;
      B.Own = {"defined(" + Test + ")", true};
      break;
    case Opener::Ifndef:
    case Opener::Elifndef:
      B.Directive = (B.Kind == Opener::Ifndef ? "#ifndef " : "#elifndef ") + Test;
      B.Own = {"defined(" + Test + ")", false};
      break;
    case Opener::Else:
      B.Directive = "#else";
      break;
    }
    // Its own test, and every earlier one false.
    for (size_t P = 0; P < K; ++P)
      if (G.Branches[P].HasOwn)
        B.Needs.push_back(G.Branches[P].Own.negated());
    if (B.HasOwn)
      B.Needs.push_back(B.Own);
  }
  return G;
}

std::unique_ptr<compat::IncludeCallbacks> SourceLayout::makeRecorder(const SourceManager &SM) {
  return std::make_unique<SourceLayoutRecorder>(*this, SM);
}

void SourceLayout::clear() {
  Groups.clear();
  GroupsByFile.clear();
  IncludesByFile.clear();
  IncludedAt.clear();
  IndentCache.clear();
  Tested.clear();
}

//===----------------------------------------------------------------------===//
// Queries.
//===----------------------------------------------------------------------===//

// A group's directives are in the file the group is listed under, and so is
// the location it is compared with: locations of one file are in the order
// of their raw encodings, which is what isBeforeInTranslationUnit says of
// them at a lookup each (sqlite3.c's 2,700 groups, read for every fix: 8 M
// instructions).

std::vector<std::pair<unsigned, unsigned>>
SourceLayout::enclosingInFile(SourceLocation Loc, const SourceManager &SM) const {
  std::vector<std::pair<unsigned, unsigned>> Out;
  Loc = SM.getExpansionLoc(Loc);
  auto It = GroupsByFile.find(SM.getFileID(Loc));
  if (It == GroupsByFile.end())
    return Out;
  for (unsigned G : It->second) {
    const Group &Grp = Groups[G];
    if (Grp.IncludeGuard || Grp.EndifHash.isInvalid() || Loc < Grp.Branches.front().BodyBegin ||
        !(Loc < Grp.EndifHash))
      continue;
    unsigned B = 0;
    for (unsigned I = 0; I < Grp.Branches.size(); ++I)
      if (!(Loc < Grp.Branches[I].Hash))
        B = I;
    Out.emplace_back(G, B);
  }
  return Out;
}

std::vector<ConditionLiteral> SourceLayout::conditionsAt(SourceLocation Loc,
                                                         const SourceManager &SM) const {
  std::vector<ConditionLiteral> Out;
  Loc = SM.getExpansionLoc(Loc);
  for (int Depth = 0; Loc.isValid() && Depth < 64; ++Depth) {
    for (auto [G, B] : enclosingInFile(Loc, SM))
      for (const ConditionLiteral &L : read(G).Branches[B].Needs)
        if (!llvm::is_contained(Out, L))
          Out.push_back(L);
    Loc = SM.getIncludeLoc(SM.getFileID(Loc));
  }
  return Out;
}

bool SourceLayout::anyDirective(SourceLocation Begin, SourceLocation End,
                                const SourceManager &SM, const LangOptions &LO, bool Straddling,
                                llvm::function_ref<bool(StringRef, int, Lexer &)> F) {
  std::pair<FileID, unsigned> B = SM.getDecomposedLoc(Begin), E = SM.getDecomposedLoc(End);
  if (B.first != E.first || E.second < B.second)
    return Straddling;
  StringRef Buf = SM.getBufferData(B.first);
  // The raw lexer stops only at the buffer's NUL: the range's end is
  // checked by offset.
  Lexer L(SM.getLocForStartOfFile(B.first), LO, Buf.begin(), Buf.begin() + B.second,
          Buf.end());
  Token Tok;
  int Depth = 0;
  while (!L.LexFromRawLexer(Tok) || Tok.isNot(tok::eof)) {
    if (Tok.is(tok::eof) || SM.getFileOffset(Tok.getLocation()) >= E.second)
      break;
    if (!Tok.is(tok::hash) || !Tok.isAtStartOfLine())
      continue;
    if (L.LexFromRawLexer(Tok) || Tok.isNot(tok::raw_identifier))
      continue;
    StringRef D = Tok.getRawIdentifier();
    if (D == "endif")
      --Depth;
    if (F(D, Depth, L))
      return true;
    if (D.starts_with("if"))
      ++Depth;
  }
  return false;
}

void SourceLayout::addOwnConditions(SourceLocation Loc, const SourceManager &SM,
                                    llvm::function_ref<bool(const Group &, unsigned)> LeaveOut,
                                    std::vector<ConditionLiteral> &Out) const {
  for (auto [G, B] : enclosingInFile(Loc, SM)) {
    const Group &Grp = read(G);
    if (LeaveOut && LeaveOut(Grp, B))
      continue;
    for (const ConditionLiteral &L : Grp.Branches[B].Needs)
      if (!llvm::is_contained(Out, L))
        Out.push_back(L);
  }
}

std::vector<ConditionLiteral>
SourceLayout::definitionConditions(SourceLocation Def, const SourceManager &SM,
                                   llvm::function_ref<bool(const Group &, unsigned)> LeaveOut) const {
  std::vector<ConditionLiteral> Out;
  Def = SM.getExpansionLoc(Def);
  for (int Depth = 0; Def.isValid() && Depth < 64; ++Depth) {
    addOwnConditions(Def, SM, LeaveOut, Out);
    Def = SM.getIncludeLoc(SM.getFileID(Def));
  }
  return Out;
}

std::vector<ConditionLiteral>
SourceLayout::missingAt(SourceLocation Loc, ArrayRef<ConditionLiteral> Here, SourceLocation Before,
                        const SourceManager &SM,
                        llvm::function_ref<bool(const Group &, unsigned)> LeaveOut) const {
  // What reaching each file needs, by file, for this one question. A way in
  // that comes back to a file being worked out (an include cycle between
  // guarded headers, met only through another #include of a file) is no
  // way in: it counts as needing what nothing gives, so that alternative
  // fails; the first way in, up the include stack, never meets one.
  llvm::DenseMap<FileID, std::optional<std::vector<ConditionLiteral>>> Reach;
  std::function<std::vector<ConditionLiteral>(SourceLocation, int)> From =
      [&](SourceLocation L, int Depth) -> std::vector<ConditionLiteral> {
    std::vector<ConditionLiteral> Own;
    addOwnConditions(L, SM, LeaveOut, Own);
    std::vector<ConditionLiteral> Out = missingConditions(Own, Here);
    FileID F = SM.getFileID(L);
    SourceLocation In = SM.getIncludeLoc(F);
    if (In.isInvalid() || Depth >= 64)
      return Out;
    auto [It, New] = Reach.try_emplace(F);
    if (!New && !It->second) { // being worked out: no way in from here
      Out.push_back({"an include cycle", true});
      return Out;
    }
    if (New) {
      std::vector<ConditionLiteral> First = From(In, Depth + 1);
      if (!First.empty())
        if (OptionalFileEntryRef Entry = SM.getFileEntryRefForID(F)) {
          auto Sites = IncludedAt.find(&Entry->getFileEntry());
          if (Sites != IncludedAt.end())
            for (SourceLocation S : Sites->second)
              if (S != In && SM.isBeforeInTranslationUnit(S, Before) &&
                  From(S, Depth + 1).empty()) {
                First.clear();
                break;
              }
        }
      Reach[F] = std::move(First);
      It = Reach.find(F);
    }
    for (const ConditionLiteral &C : *It->second)
      if (!llvm::is_contained(Out, C))
        Out.push_back(C);
    return Out;
  };
  Loc = SM.getExpansionLoc(Loc);
  Before = SM.getExpansionLoc(Before);
  if (Loc.isInvalid())
    return {};
  return From(Loc, 0);
}

bool SourceLayout::definesInEveryBranch(StringRef Name, const Group &Grp,
                                        const SourceManager &SM) const {
  // "#define Name" outside any nested #if of the range.
  auto DefinesAtTop = [&](SourceLocation Begin, SourceLocation End) {
    return anyDirective(Begin, End, SM, LangOptions(), /*Straddling=*/false,
                        [&](StringRef D, int Depth, Lexer &L) {
                          Token Tok;
                          return D == "define" && Depth == 0 && !L.LexFromRawLexer(Tok) &&
                                 Tok.is(tok::raw_identifier) && Tok.getRawIdentifier() == Name;
                        });
  };
  // A group every branch of which defines it (an #else: none left out)
  // chooses a value by configuration, not whether it is defined.
  if (Grp.Branches.back().HasOwn)
    return false;
  for (unsigned I = 0; I < Grp.Branches.size(); ++I)
    if (!DefinesAtTop(Grp.Branches[I].BodyBegin, branchEnd(Grp, I)))
      return false;
  return true;
}

std::vector<ConditionLiteral> SourceLayout::macroConditions(StringRef Name, SourceLocation Def,
                                                            const SourceManager &SM) const {
  return definitionConditions(
      Def, SM, [&](const Group &Grp, unsigned) { return definesInEveryBranch(Name, Grp, SM); });
}

std::vector<ConditionLiteral> SourceLayout::macroMissingAt(StringRef Name, SourceLocation Def,
                                                           ArrayRef<ConditionLiteral> Here,
                                                           SourceLocation Before,
                                                           const SourceManager &SM) const {
  return missingAt(Def, Here, Before, SM, [&](const Group &Grp, unsigned) {
    return definesInEveryBranch(Name, Grp, SM);
  });
}

std::optional<unsigned> SourceLayout::firstGroupWithin(SourceRange Range,
                                                       const SourceManager &SM) const {
  SourceLocation B = SM.getExpansionLoc(Range.getBegin());
  SourceLocation E = SM.getExpansionLoc(Range.getEnd());
  FileID File = SM.getFileID(B);
  auto It = GroupsByFile.find(File);
  if (It == GroupsByFile.end())
    return std::nullopt;
  bool OneFile = SM.getFileID(E) == File;
  auto Inside = [&](SourceLocation L) {
    if (OneFile)
      return L.isValid() && B < L && L < E;
    return L.isValid() && SM.isBeforeInTranslationUnit(B, L) &&
           SM.isBeforeInTranslationUnit(L, E);
  };
  for (unsigned G : It->second) {
    const Group &Grp = Groups[G];
    if (Inside(Grp.EndifHash) ||
        llvm::any_of(Grp.Branches, [&](const Branch &Br) { return Inside(Br.Hash); }))
      return G;
  }
  return std::nullopt;
}

std::vector<ConditionLiteral> SourceLayout::takenWithin(SourceRange Range,
                                                        const SourceManager &SM) const {
  std::vector<ConditionLiteral> Out;
  SourceLocation B = SM.getExpansionLoc(Range.getBegin());
  SourceLocation E = SM.getExpansionLoc(Range.getEnd());
  FileID File = SM.getFileID(B);
  auto It = GroupsByFile.find(File);
  if (It == GroupsByFile.end())
    return Out;
  bool OneFile = SM.getFileID(E) == File;
  for (unsigned G : It->second) {
    SourceLocation Hash = Groups[G].Branches.front().Hash;
    if (OneFile ? !(B < Hash && Hash < E)
                : !SM.isBeforeInTranslationUnit(B, Hash) || !SM.isBeforeInTranslationUnit(Hash, E))
      continue;
    const Group &Grp = read(G);
    bool AnyTaken = false;
    for (const Branch &Br : Grp.Branches)
      if (Br.Taken) {
        AnyTaken = true;
        for (const ConditionLiteral &L : Br.Needs)
          if (!llvm::is_contained(Out, L))
            Out.push_back(L);
      }
    if (!AnyTaken) // no branch compiled: every test was false
      for (const Branch &Br : Grp.Branches)
        if (Br.HasOwn && !llvm::is_contained(Out, Br.Own.negated()))
          Out.push_back(Br.Own.negated());
  }
  return Out;
}

ArrayRef<SourceLayout::Include> SourceLayout::includes(FileID File) const {
  auto It = IncludesByFile.find(File);
  if (It == IncludesByFile.end())
    return {};
  return It->second;
}

const SourceLayout::Group *SourceLayout::includeGuard(FileID File) const {
  auto It = GroupsByFile.find(File);
  if (It == GroupsByFile.end() || It->second.empty())
    return nullptr;
  const Group &G = read(It->second.front());
  return G.IncludeGuard ? &G : nullptr;
}

SourceLayout::Indentation SourceLayout::indentation(FileID File,
                                                    const SourceManager &SM) const {
  if (auto It = IndentCache.find(File); It != IndentCache.end())
    return It->second;
  // Lines that start with white space then code: count tab-led and
  // space-led ones, and the steps by which space indentation grows. The
  // first thousand such lines say the file's habit; reading all of an
  // amalgamation (sqlite3.c: 8 MB) cost 2% of a clang-tidy run.
  constexpr unsigned EnoughLines = 1000;
  StringRef Buf = SM.getBufferData(File);
  unsigned TabLines = 0, SpaceLines = 0;
  llvm::DenseMap<unsigned, unsigned> Steps;
  unsigned Prev = 0;
  // By hand, not ltrim()/rtrim(): each builds a table of the characters
  // to trim, and sqlite3.c's comments make this read 26,000 lines (5.7 M
  // instructions that way).
  auto Blank = [](char C) { return C == ' ' || C == '\t'; };
  auto EndsContinued = [](StringRef Line) { // Line.rtrim().ends_with("\\")
    size_t End = Line.size();
    while (End > 0 && StringRef(" \t\n\v\f\r").contains(Line[End - 1]))
      --End;
    return End > 0 && Line[End - 1] == '\\';
  };
  while (!Buf.empty() && TabLines + SpaceLines < EnoughLines) {
    size_t Eol = Buf.find('\n');
    StringRef Line = Buf.take_front(Eol);
    Buf = Eol == StringRef::npos ? StringRef() : Buf.drop_front(Eol + 1);
    size_t Indent = 0;
    while (Indent < Line.size() && Blank(Line[Indent]))
      ++Indent;
    StringRef Code = Line.drop_front(Indent);
    if (Code.empty() || Code.front() == '*' || Code.starts_with("//") || Code.front() == '#' ||
        EndsContinued(Line))
      continue;
    unsigned Width = Line.size() - Code.size();
    if (Width == 0) {
      Prev = 0;
      continue;
    }
    if (Line.front() == '\t') {
      ++TabLines;
      continue;
    }
    ++SpaceLines;
    if (Line.take_front(Width).contains('\t'))
      continue;
    if (Width > Prev)
      ++Steps[Width - Prev];
    Prev = Width;
  }
  Indentation I;
  if (SpaceLines > TabLines) {
    I.Tabs = false;
    I.Width = 4;
    unsigned Best = 0;
    for (auto [Step, Count] : Steps)
      if (Step <= 8 && (Count > Best || (Count == Best && Step < I.Width))) {
        Best = Count;
        I.Width = Step;
      }
  }
  IndentCache[File] = I;
  return I;
}

} // namespace hotpath
