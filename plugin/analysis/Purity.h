//===--- Purity.h - which calls only read -----------------------*- C++ -*-===//
//
// A call is pure when evaluating it again, or not at all, changes nothing but
// its value: it only reads. SideEffects.h asks this of every callee, so a
// split check's conditions, a disabled assert's argument and a gated hook's
// arguments get one answer.
//
// A function is pure when one of these holds, tried in this order:
//  - it is declared so: `__attribute__((pure))` / `const`, a builtin that
//    only computes (`__builtin_bswap32`, `__builtin_expect`, ...), an
//    observer of a standard container or iterator (see below), a pure
//    function of the rule set;
//  - its body is visible (an inline or static inline function, any function
//    defined in the TU, a const member, an instantiated template) and only
//    reads: it writes nothing but its own locals (and, called on a local
//    object, that object), reads no volatile or atomic storage, runs no
//    asm, keeps no non-const static local, allocates, frees or throws
//    nothing, and calls only pure functions -- followed transitively, at
//    most MaxDepth calls deep, recursion taken for pure until shown
//    otherwise; memoised for the life of the analysis;
//  - its body is not visible but the project index records it as pure (the
//    rule index's ProjectPureFunctions, by USR).
//
// The C++ standard library is judged by its documented contract, not by its
// bodies, which differ between libraries, versions and debug modes
// (_GLIBCXX_ASSERTIONS adds a reporting check to vector::operator[]): a
// fixed list of observers (docs/purity.md). `at()` is in it: it throws
// std::out_of_range where `operator[]` would be undefined, and evaluated again
// on the same state it throws again at the same point, so a condition that
// calls it decides the same both times; a disabled assert that drops it
// drops a check, as it drops any other.
//
//===----------------------------------------------------------------------===//

#ifndef HOTPATH_TIDY_ANALYSIS_PURITY_H
#define HOTPATH_TIDY_ANALYSIS_PURITY_H

#include "analysis/SideEffects.h"
#include "support/Rules.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "llvm/ADT/DenseMap.h"
#include <optional>
#include <string>

namespace hotpath {

/// What a call to a function does, as far as purity goes.
struct PurityVerdict {
  /// Why it is not pure: the first thing its body does besides reading
  /// (Where is in the innermost body followed, Via the calls followed from
  /// the function's own body to it), or the function itself when its body
  /// cannot be judged (CallsInvisible, CallsThroughPointer, ...). None when
  /// pure.
  std::optional<SideEffect> Impurity;
  /// A pure body runs a loop (itself or in a callee): work the compiler
  /// must keep even when the value is unused (SideEffectOptions::forKeptWork).
  bool Loops = false;

  bool pure() const { return !Impurity; }
};

class PurityAnalysis {
public:
  /// Calls followed below the function judged.
  static constexpr unsigned MaxDepth = 8;

  PurityAnalysis(const RuleIndex &Rules, const clang::ASTContext &Ctx);

  /// The analysis of the TU \p Ctx under \p Rules, shared by every question
  /// asked of it (SideEffects.h makes one walk per expression; the checks of
  /// a TU ask about the same callees thousands of times on sqlite3.c). It
  /// lives as long as the AST: ASTContext::AddDeallocation drops it, so no
  /// verdict outlives the declarations it points to. \p Rules must outlive
  /// the AST's use too (a check's rule index does).
  static PurityAnalysis &forTU(const RuleIndex &Rules, const clang::ASTContext &Ctx);

  /// Whether calling \p FD only reads. With \p OnLocalObject, \p FD is a
  /// member called on (or constructing, or destroying) an object local to
  /// the caller: writes to that object's members are the caller's own.
  PurityVerdict judge(const clang::FunctionDecl *FD, bool OnLocalObject = false);

  /// Declared pure without reading a body: pure/const attributes, builtins
  /// that only compute, the standard library's observers, the rule set's
  /// pure functions.
  bool isDeclaredPure(const clang::FunctionDecl *FD) const;

private:
  class BodyWalker;
  PurityVerdict judgeAt(const clang::FunctionDecl *FD, bool OnLocalObject, unsigned Depth);
  PurityVerdict judgeWithoutBody(const clang::FunctionDecl *FD) const;

  const RuleIndex &Rules;
  const clang::ASTContext &Ctx;
  llvm::DenseMap<std::pair<const clang::FunctionDecl *, unsigned>, PurityVerdict> Memo;
  /// Functions being judged, with their depth: met again, taken for pure.
  llvm::DenseMap<std::pair<const clang::FunctionDecl *, unsigned>, unsigned> InProgress;
  /// The shallowest function in progress that the current judgement took
  /// for pure: a verdict resting on one shallower than itself is not final.
  unsigned LowLink = ~0u;
};

/// A member of the C++ standard library (namespace std or __gnu_cxx, and
/// their inner namespaces).
bool isStandardLibrary(const clang::Decl *D);

/// The standard library's functions known to only read (docs/purity.md):
/// container observers (size, empty, data, operator[] of sequences, at,
/// begin/end, find, ...), iterator operators, std::min/max/clamp.
bool isStandardObserver(const clang::FunctionDecl *FD);

} // namespace hotpath

#endif // HOTPATH_TIDY_ANALYSIS_PURITY_H
