//===--- Profile.h - sample profiles as evidence of heat -------*- C++ -*-===//
//
// Reads the profiles users already have: `perf report --stdio` output (with or
// without --children) and folded stacks ("a;b;c 123", as stackcollapse
// writes them), and says what share of the samples a function took.
//
//===----------------------------------------------------------------------===//

#ifndef HOTPATH_TIDY_PROFILE_H
#define HOTPATH_TIDY_PROFILE_H

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>

namespace hotpath {

class Profile {
public:
  enum class Metric { Self, Inclusive };

  /// Reads a profile file; errors name the file and the line.
  static llvm::Expected<Profile> load(llvm::StringRef Path);
  /// Parses profile text; \p Name appears in error messages.
  static llvm::Expected<Profile> parse(llvm::StringRef Text, llvm::StringRef Name);

  /// Percentage of all samples (0-100) that \p Function took, looked up by its
  /// qualified name, then by its plain name; none when it has no samples.
  std::optional<double> percentOf(llvm::StringRef QualifiedName, llvm::StringRef Name,
                                  Metric M) const;

  /// "perf.txt": for messages.
  const std::string &name() const { return Name; }

  /// Compiler clones and parameter lists removed: "f.constprop.0" -> "f",
  /// "ns::C::f(int) const" -> "ns::C::f".
  static std::string normalizeSymbol(llvm::StringRef Symbol);

private:
  std::string Name;
  llvm::StringMap<double> Self, Inclusive; // percentages
};

} // namespace hotpath

#endif // HOTPATH_TIDY_PROFILE_H
