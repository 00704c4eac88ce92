//===--- Options.h - reading the hotpath checks' options --------*- C++ -*-===//
//
// One reader for every option of every hotpath check (the table is
// Options.def): each key is read for the check (`hotpath-hook-gate.GateStyle`)
// or, without a prefix, for every check that has it, the check's own key
// winning; one parser per kind of value (a flag is `true` or `false`, a list
// is separated by `;` or `,`); one error policy: a value that does not parse
// is an error naming the option and the value, and the check does not run
// (never a silent default). What was read is what storeOptions() writes, so
// `--dump-config` shows the values in effect.
//
//===----------------------------------------------------------------------===//

#ifndef HOTPATH_TIDY_CORE_OPTIONS_H
#define HOTPATH_TIDY_CORE_OPTIONS_H

#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace hotpath {

enum class OptionKind { Text, Path, Flag, Count, Percent, List, Choice };

/// One row of Options.def.
struct OptionInfo {
  llvm::StringLiteral Name;
  OptionKind Kind;
  llvm::StringLiteral Owner; // "" for every check
  llvm::StringLiteral Default;
  llvm::StringLiteral Doc;
};

/// Every option, in the order of Options.def.
llvm::ArrayRef<OptionInfo> optionTable();
/// The option \p Name, or null.
const OptionInfo *findOption(llvm::StringRef Name);
/// Whether \p Check reads option \p Name.
bool checkHasOption(llvm::StringRef Check, llvm::StringRef Name);

class OptionReader {
public:
  /// \p OnError is told each value that does not parse, as it is read.
  OptionReader(const clang::tidy::ClangTidyCheck::OptionsView &View, llvm::StringRef Check,
               std::function<void(const std::string &)> OnError)
      : View(View), Check(Check.str()), OnError(std::move(OnError)) {}

  std::string text(llvm::StringRef Name, llvm::StringRef Default = "");
  /// `true` or `false`.
  bool flag(llvm::StringRef Name, bool Default);
  /// A non-negative integer.
  unsigned count(llvm::StringRef Name, unsigned Default);
  /// A number from 0 to 100.
  double percent(llvm::StringRef Name, double Default);
  /// Items separated by `;` or `,`, each trimmed, empty ones dropped.
  std::vector<std::string> list(llvm::StringRef Name);
  /// One of \p Values (their names), as the value it stands for.
  template <typename T>
  T choice(llvm::StringRef Name, llvm::ArrayRef<std::pair<llvm::StringRef, T>> Values,
           llvm::StringRef Default) {
    std::string V = text(Name, Default);
    for (const auto &[Spelled, Value] : Values)
      if (V == Spelled)
        return Value;
    std::string Expected;
    for (size_t I = 0; I < Values.size(); ++I)
      Expected += (I == 0 ? "'" : I + 1 == Values.size() ? "' or '" : "', '") +
                  Values[I].first.str();
    fail(Name, V, Expected + "'");
    for (const auto &[Spelled, Value] : Values)
      if (Spelled == Default)
        return Value;
    return Values.front().second;
  }

  /// Records \p Value as what option \p Name is in effect, for
  /// storeOptions() (a value the rule set gave, read after it loaded).
  void set(llvm::StringRef Name, std::string Value);
  /// Whether some value did not parse ("option GateStyle 'x' is not
  /// 'plain', 'atomic' or 'static_key'").
  bool failed() const { return Failed; }
  /// Reports an error of the check's own making (a malformed list item).
  void fail(llvm::StringRef Name, llvm::StringRef Value, llvm::StringRef Expected);
  /// Writes every option read, with its value in effect.
  void store(clang::tidy::ClangTidyOptions::OptionMap &Opts,
             clang::tidy::ClangTidyCheck::OptionsView &Into) const;

private:
  const clang::tidy::ClangTidyCheck::OptionsView &View;
  std::string Check;
  std::function<void(const std::string &)> OnError;
  std::vector<std::pair<std::string, std::string>> Values; // in the order read
  bool Failed = false;
};

/// Warnings, through \p Warn, for each `hotpath*` key of \p Options that no
/// enabled hotpath check reads: a typo is otherwise silently a default.
/// \p Enabled says whether a check of that name is enabled.
void warnUnknownOptions(const clang::tidy::ClangTidyOptions::OptionMap &Options,
                        llvm::StringRef Check, llvm::ArrayRef<llvm::StringRef> CheckNames,
                        llvm::function_ref<bool(llvm::StringRef)> Enabled,
                        llvm::function_ref<void(const std::string &)> Warn);

} // namespace hotpath

#endif // HOTPATH_TIDY_CORE_OPTIONS_H
