//===--- CheckSplitCheck.h - hotpath-check-split ----------------*- C++ -*-===//
//
// Finds hot check functions (a side-effect-free preamble, then branches that
// only report and leave, then a plain success return) and splits each into an
// inline fast path with one unlikely branch and an out-of-line cold slow path
// that is the original body, unchanged.
//
//===----------------------------------------------------------------------===//

#ifndef HOTPATH_TIDY_CHECKSPLITCHECK_H
#define HOTPATH_TIDY_CHECKSPLITCHECK_H

#include "analysis/CheckShape.h"
#include "core/HotpathCheck.h"
#include "rewrite/NoFix.h"
#include <optional>

namespace hotpath {

class CheckSplitCheck : public HotpathCheck {
public:
  CheckSplitCheck(llvm::StringRef Name, clang::tidy::ClangTidyContext *Context);

protected:
  void run(TUContext &TU) override;

private:
  /// The check-function shape of a candidate, or none (explain mode says
  /// why).
  std::optional<CheckShape> shapeOf(const clang::FunctionDecl *FD, bool Explain,
                                    const clang::ASTContext &Ctx);
  /// The finding for a hot check function, without its fix.
  Finding finding(const clang::FunctionDecl *FD, const CheckShape &Shape,
                  const HeatVerdict &V, TUContext &TU);
  /// Plans the fix of \p F's function and has the rewrite layer write it
  /// into \p F: its fix-its and notes, or why there is none.
  void fix(Finding &F, const clang::FunctionDecl *FD, const CheckShape &Shape,
           const HeatVerdict &V, TUContext &TU);
  /// Why the TU's build mode rules the fix out (clang -flto), if it does;
  /// \p Discard: a call here that throws the result away, or null.
  static std::optional<NoFix> refuseForBuildMode(const clang::FunctionDecl *FD,
                                                 const clang::CallExpr *Discard,
                                                 TUContext &TU);
  /// Option AssumeNoWrap: an offset plus a size never wraps, so "off > len"
  /// implies "off + size > len" whatever their widths; off by default,
  /// since it is an assumption, and the note says when it was used.
  bool AssumeNoWrap = false;
  /// Explain mode, for a name this TU declares but does not define.
  void explainDeclarations(clang::ASTContext &Ctx);
};

} // namespace hotpath

#endif // HOTPATH_TIDY_CHECKSPLITCHECK_H
