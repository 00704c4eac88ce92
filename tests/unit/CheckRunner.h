//===--- CheckRunner.h - in-process clang-tidy check harness ----*- C++ -*-===//
//
// Runs one clang-tidy check over an in-memory translation unit and returns
// what clang-tidy would: the diagnostics (with their notes) and the files
// after `--fix` (fixes attached to notes are not applied, as in clang-tidy's
// default). Compiler errors in the code under test come back as diagnostics
// with Level "error", so a test can assert that its input compiles.
//
//   auto R = hotpath::test::runCheck<MyCheck>("hotpath-my-check", Code);
//   ASSERT_EQ(R.Diags.size(), 1u);
//   EXPECT_EQ(R.fixed(), Expected);
//
// Compile with -fno-rtti, like the checks (hotpathChecks) and upstream LLVM.
//
//===----------------------------------------------------------------------===//

#ifndef HOTPATH_TIDY_TESTS_UNIT_CHECKRUNNER_H
#define HOTPATH_TIDY_TESTS_UNIT_CHECKRUNNER_H

#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/StringRef.h"

#include <functional>
#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace clang {
class ASTUnit;
} // namespace clang

namespace hotpath::test {

struct Diag {
  /// 1-based, in the file named by File; 0/0 for diagnostics without a
  /// location (e.g. configurationDiag()).
  unsigned Line = 0, Column = 0;
  /// "warning", "error", "remark" or "note".
  std::string Level;
  /// The message without the trailing " [check-name]".
  std::string Message;
  /// The check that emitted it ("clang-tidy-config" for configurationDiag(),
  /// "clang-diagnostic-error" etc. for compiler diagnostics). Notes carry the
  /// name of the diagnostic they belong to.
  std::string CheckName;
  /// Empty for the main file and for diagnostics without a location;
  /// otherwise the file's name as given in ExtraFiles (or as clang spelled it
  /// for a file read from disk).
  std::string File;

  /// "<main>:3:6: warning: message [check]" ("buf.h:..." in a header, no
  /// position prefix without a location) — for failure messages.
  std::string str() const;
};

bool operator==(const Diag &A, const Diag &B);
inline bool operator!=(const Diag &A, const Diag &B) { return !(A == B); }
/// Lets GoogleTest print a Diag in assertion failures.
void PrintTo(const Diag &D, std::ostream *OS);
std::ostream &operator<<(std::ostream &OS, const Diag &D);

struct RunResult {
  /// Main diagnostics in the order the check emitted them, each followed by
  /// its notes (Level "note").
  std::vector<Diag> Diags;
  /// Every file after applying all fix-its: the main file and each of the
  /// ExtraFiles (changed or not), plus any file on disk a fix touched.
  std::map<std::string, std::string> Files;
  /// Name of the main file (key into Files).
  std::string MainFile;

  /// The main file after fixes.
  std::string fixed() const;
  /// Diags with Level "error" (compiler errors and harness failures).
  std::vector<Diag> errors() const;
  /// Diags of the given level ("warning", "note", ...).
  std::vector<Diag> diagsOfLevel(llvm::StringRef Level) const;
  /// All diagnostics, one str() per line — for failure messages.
  std::string dump() const;
};

namespace detail {
using CheckFactory = std::function<std::unique_ptr<clang::tidy::ClangTidyCheck>(
    llvm::StringRef CheckName, clang::tidy::ClangTidyContext *Context)>;

RunResult runCheckImpl(const CheckFactory &Factory, llvm::StringRef CheckName,
                       llvm::StringRef Code, llvm::StringRef FileName,
                       std::vector<std::string> Args,
                       std::map<std::string, std::string> CheckOptions,
                       std::map<std::string, std::string> ExtraFiles);

std::map<std::string, std::string>
dumpOptionsImpl(const CheckFactory &Factory, llvm::StringRef CheckName,
                std::map<std::string, std::string> CheckOptions,
                std::vector<Diag> *ConfigDiags);

template <typename CheckT> CheckFactory factoryFor() {
  return [](llvm::StringRef Name, clang::tidy::ClangTidyContext *Context)
             -> std::unique_ptr<clang::tidy::ClangTidyCheck> {
    return std::make_unique<CheckT>(Name, Context);
  };
}
} // namespace detail

/// Runs the check \p CheckT, registered under \p CheckName (its options are
/// looked up as "<CheckName>.<Option>"), on \p Code as file \p FileName.
///
/// \param Args extra compiler arguments, e.g. "-std=c11", "-DFOO=1".
///   The harness adds -fsyntax-only and, unless given, -resource-dir so that
///   clang's builtin headers (<stddef.h>, <stdbool.h>, ...) are found.
/// \param CheckOptions e.g. {"hotpath-check-split.RuleSet", "linux-kernel"};
///   "<CheckName>.HeaderFilterRegex" sets clang-tidy's header filter instead
///   (default ".*").
/// \param ExtraFiles virtual files, e.g. {"buf.h", "..."}, reachable from the
///   main file with #include "buf.h". Diagnostics in them are reported
///   (HeaderFilterRegex is ".*") and fixes in them are applied.
template <typename CheckT>
RunResult runCheck(llvm::StringRef CheckName, llvm::StringRef Code,
                   llvm::StringRef FileName = "input.c",
                   std::vector<std::string> Args = {},
                   std::map<std::string, std::string> CheckOptions = {},
                   std::map<std::string, std::string> ExtraFiles = {}) {
  return detail::runCheckImpl(detail::factoryFor<CheckT>(), CheckName, Code,
                              FileName, std::move(Args),
                              std::move(CheckOptions), std::move(ExtraFiles));
}

/// Constructs the check with \p CheckOptions and returns what its
/// storeOptions() writes (keys are "<CheckName>.<Option>"), i.e. what
/// `clang-tidy --dump-config` would show. Diagnostics the constructor emits
/// (configurationDiag() for bad values) go to \p ConfigDiags if given.
template <typename CheckT>
std::map<std::string, std::string>
dumpOptions(llvm::StringRef CheckName,
            std::map<std::string, std::string> CheckOptions = {},
            std::vector<Diag> *ConfigDiags = nullptr) {
  return detail::dumpOptionsImpl(detail::factoryFor<CheckT>(), CheckName,
                                 std::move(CheckOptions), ConfigDiags);
}

/// The AST of \p Code as \p FileName, for tests of the shared analysis that
/// run no check. Like runCheck: -fsyntax-only and clang's resource dir are
/// added to \p Args; \p Headers are in-memory files \p Code can include.
/// Null when the driver fails; compiler errors are in the unit's diagnostics.
std::unique_ptr<clang::ASTUnit>
buildAST(llvm::StringRef Code, llvm::StringRef FileName, std::vector<std::string> Args,
         std::vector<std::pair<std::string, std::string>> Headers = {});

} // namespace hotpath::test

#endif // HOTPATH_TIDY_TESTS_UNIT_CHECKRUNNER_H
