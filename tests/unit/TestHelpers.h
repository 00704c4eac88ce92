//===--- TestHelpers.h - what the checks' unit tests share ------*- C++ -*-===//
//
// Every check's tests run it the same way: options named without the check's
// prefix, the language standard taken from the file name, expected
// diagnostics built from line, column and text, and fixed code run again to
// show that it compiles and is left alone.
//
//   const hotpath::test::CheckTester<MyCheck> My("hotpath-my-check");
//   RunResult R = My.run(Code, "input.c", {{"RuleSet", "linux-kernel"}});
//   EXPECT_EQ(R.Diags, (std::vector<Diag>{My.warning(3, 6, "..."),
//                                         My.note(3, 6, "...")}));
//   expectStable(My.run(R.fixed()));
//
//===----------------------------------------------------------------------===//

#ifndef HOTPATH_TIDY_TESTS_UNIT_TESTHELPERS_H
#define HOTPATH_TIDY_TESTS_UNIT_TESTHELPERS_H

#include "CheckRunner.h"
#include "gtest/gtest.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace hotpath::test {

/// A check under test, by name, with the compiler arguments all its runs add.
template <typename CheckT> class CheckTester {
public:
  using Options = std::map<std::string, std::string>;

  /// \p ExtraArgs go after every run's own arguments (e.g. "-Wall").
  explicit CheckTester(std::string Name, std::vector<std::string> ExtraArgs = {})
      : Name(std::move(Name)), ExtraArgs(std::move(ExtraArgs)) {}

  const std::string &name() const { return Name; }

  /// Runs the check on \p Code as \p File. \p Opts are named without the
  /// check's prefix ("RuleSet"); \p Extra are headers by name; \p Args are
  /// the compiler arguments, by default the language standard: -std=c++17 for
  /// a .cpp file, -std=c11 otherwise.
  RunResult run(llvm::StringRef Code, llvm::StringRef File = "input.c", Options Opts = {},
                Options Extra = {}, std::vector<std::string> Args = {}) const {
    if (Args.empty())
      Args = {File.ends_with(".cpp") ? "-std=c++17" : "-std=c11"};
    Args.insert(Args.end(), ExtraArgs.begin(), ExtraArgs.end());
    Options Qualified;
    for (const auto &[K, V] : Opts)
      Qualified[Name + "." + K] = V;
    return runCheck<CheckT>(Name, Code, File, std::move(Args), std::move(Qualified),
                            std::move(Extra));
  }

  /// What the check says at \p Line:\p Col ("" for the main file).
  Diag warning(unsigned Line, unsigned Col, std::string Msg, std::string File = "") const {
    return Diag{Line, Col, "warning", std::move(Msg), Name, std::move(File)};
  }
  Diag note(unsigned Line, unsigned Col, std::string Msg, std::string File = "") const {
    return Diag{Line, Col, "note", std::move(Msg), Name, std::move(File)};
  }

private:
  std::string Name;
  std::vector<std::string> ExtraArgs;
};

/// A file with the given text (a rule set, a profile), removed with it.
class TempFile {
public:
  TempFile(llvm::StringRef Text, llvm::StringRef Suffix = "yaml") {
    EXPECT_FALSE(llvm::sys::fs::createTemporaryFile("hotpath-test", Suffix, Path));
    std::error_code EC;
    llvm::raw_fd_ostream(Path, EC) << Text;
  }
  ~TempFile() { llvm::sys::fs::remove(Path); }
  std::string path() const { return std::string(Path); }

private:
  llvm::SmallString<128> Path;
};

/// A run on fixed code: it compiles and the check finds nothing more to fix
/// (notes of other findings may remain).
inline void expectStable(const RunResult &Again) {
  EXPECT_TRUE(Again.errors().empty()) << Again.dump();
  EXPECT_TRUE(Again.diagsOfLevel("warning").empty()) << Again.dump();
}

/// A run on fixed code: it compiles and the check says nothing at all.
inline void expectQuiet(const RunResult &Again) {
  EXPECT_TRUE(Again.errors().empty()) << Again.dump();
  EXPECT_TRUE(Again.Diags.empty()) << Again.dump();
}

} // namespace hotpath::test

#endif // HOTPATH_TIDY_TESTS_UNIT_TESTHELPERS_H
