//===--- driver/Patch.cpp - the patch a --diff run checks -----------------===//
#include "Patch.h"
#include "Paths.h"
#include "Process.h"
#include "UnifiedDiff.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <vector>

namespace hotpath::driver {

namespace {

llvm::Error error(const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg);
}

/// Runs `git -C Root Args...`; its exit status, with its output trimmed in
/// \p Out (its errors when it failed with more than 1).
int git(llvm::StringRef Git, llvm::StringRef Root, llvm::ArrayRef<llvm::StringRef> Args,
        std::string &Out) {
  std::vector<llvm::StringRef> Full = {Git, "-C", Root};
  Full.insert(Full.end(), Args.begin(), Args.end());
  ProcessResult R = runProcess(Full);
  Out = llvm::StringRef(R.Status != 0 && R.Status != 1 ? R.Err : R.Out).trim().str();
  return R.Status;
}

/// The revision to run `git diff <base>` against (the working tree) for
/// --diff=<Rev>. "A...B" is the merge base of A and B (git's meaning: the
/// changes of B since it forked from A), "A..B" is A; either way B (HEAD
/// when empty) must be the checked-out commit, since the files analysed are
/// the working tree's. A plain revision that is not an ancestor of HEAD
/// (the target branch moved on) gets a note: its own later changes show up
/// as changes of the working tree.
bool diffBase(llvm::StringRef Git, llvm::StringRef Root, llvm::StringRef Rev,
              std::string &Base, std::string &Err) {
  auto GitOut = [&](std::vector<llvm::StringRef> Args, std::string &Out) {
    return git(Git, Root, Args, Out);
  };
  size_t Dots = Rev.find("..");
  if (Dots == llvm::StringRef::npos) {
    Base = Rev.str();
    std::string Out;
    if (GitOut({"merge-base", "--is-ancestor", Rev, "HEAD"}, Out) == 1)
      llvm::errs() << "hotpath-tidy: note: " << Rev
                   << " is not an ancestor of HEAD: the diff also holds what " << Rev
                   << " changed since HEAD forked from it; --diff=" << Rev
                   << "...HEAD checks only the changes of HEAD\n";
    return true;
  }
  bool Three = Rev.substr(Dots).starts_with("...");
  llvm::StringRef A = Rev.take_front(Dots), B = Rev.drop_front(Dots + (Three ? 3 : 2));
  if (A.empty())
    A = "HEAD";
  if (B.empty())
    B = "HEAD";
  std::string BId, HeadId;
  if (GitOut({"rev-parse", "--verify", "-q", (B + "^{commit}").str()}, BId) != 0 || BId.empty()) {
    Err = "--diff=" + Rev.str() + ": '" + B.str() + "' is not a commit";
    return false;
  }
  if (GitOut({"rev-parse", "--verify", "-q", "HEAD^{commit}"}, HeadId) != 0 || BId != HeadId) {
    Err = "--diff=" + Rev.str() + ": the files checked are the working tree's, so '" + B.str() +
          "' must be the checked-out commit (HEAD)";
    return false;
  }
  if (!Three) {
    Base = A.str();
    return true;
  }
  if (GitOut({"merge-base", A, B}, Base) != 0 || Base.empty()) {
    Err = "--diff=" + Rev.str() + ": no merge base of '" + A.str() + "' and '" + B.str() +
          "'" + (Base.empty() ? "" : ": " + Base);
    return false;
  }
  return true;
}

/// The text of the diff: standard input's, or git's.
llvm::Expected<std::string> diffText(llvm::StringRef Rev, const std::optional<std::string> &Git,
                                     llvm::StringRef Root, bool InWorkTree,
                                     std::string &Base) {
  if (Rev == "-") {
    auto Buf = llvm::MemoryBuffer::getSTDIN();
    if (!Buf)
      return error("cannot read the diff from standard input");
    return (*Buf)->getBuffer().str();
  }
  if (!Git)
    return error("--diff=" + Rev + " needs git, which is not on PATH");
  // Outside a work tree git diff falls back to comparing two paths and
  // prints its whole usage: say what is wrong instead.
  if (!InWorkTree)
    return error("--diff=" + Rev + " needs a git work tree, and '" + Root +
                 "' is not in a git repository (for any unified diff: --diff=- on standard "
                 "input)");
  std::string Err;
  if (!diffBase(*Git, Root, Rev, Base, Err))
    return error(Err);
  ProcessResult R =
      runProcess({*Git, "-C", Root, "diff", "--no-color", "--no-ext-diff", "--no-textconv",
                  "--src-prefix=a/", "--dst-prefix=b/", "-U0", Base, "--"});
  if (R.Status != 0)
    return error("git diff " + Rev + " failed: " + llvm::StringRef(R.Err).trim());
  return std::move(R.Out);
}

} // namespace

std::string workTreeRoot(const std::optional<std::string> &Git, llvm::StringRef Cwd) {
  if (!Git)
    return Cwd.str();
  ProcessResult R = runProcess({*Git, "-C", Cwd, "rev-parse", "--show-toplevel"});
  if (R.Status == 0 && !llvm::StringRef(R.Out).trim().empty())
    return canonicalPath(llvm::StringRef(R.Out).trim(), Cwd);
  return Cwd.str();
}

bool inWorkTree(const std::optional<std::string> &Git, llvm::StringRef Cwd) {
  if (!Git)
    return false;
  ProcessResult R = runProcess({*Git, "-C", Cwd, "rev-parse", "--is-inside-work-tree"});
  return R.Status == 0 && llvm::StringRef(R.Out).trim() == "true";
}

llvm::Expected<ChangedLines> readPatch(llvm::StringRef Rev, const std::optional<std::string> &Git,
                                       llvm::StringRef Root, bool InWorkTree,
                                       std::optional<unsigned> Strip, std::string *Base) {
  std::string BaseRev;
  llvm::Expected<std::string> Text = diffText(Rev, Git, Root, InWorkTree, BaseRev);
  if (!Text)
    return Text.takeError();
  if (Base)
    *Base = std::move(BaseRev);
  ChangedLines Changed;
  std::string Err;
  if (!parseUnifiedDiff(*Text, Root, Strip, Changed, Err))
    return error("cannot read the diff: " + Err);
  return Changed;
}

} // namespace hotpath::driver
