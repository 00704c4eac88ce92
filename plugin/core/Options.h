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
// A relative path in an option of kind Path resolves as clang-tidy users
// expect of a configuration: against the directory of the `.clang-tidy`
// that sets it, or, set by `-config`, `-config-file` or the command line,
// against the directory clang-tidy was started in. Never against the compile
// command's directory, which ClangTool changes into before the checks of
// each TU are made.
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

/// The directory clang-tidy was started in. Taken when the module is loaded
/// (by `--load` while clang-tidy parses its command line, or before main in
/// the linked binary), so before ClangTool changes into the directory of the
/// first compile command.
const std::string &launchDirectory();

/// The value of a Path option as the check opens it.
struct OptionPath {
  std::string Path;    ///< What to open: absolute when Written was relative.
  std::string Written; ///< The value as the configuration spells it.
  /// Where a relative value was resolved: the `.clang-tidy` that sets it,
  /// or empty for the launch directory (-config, -config-file, the
  /// command line). Meaningless when Written is absolute or empty.
  std::string ConfigFile;
  bool Relative = false;

  /// For an error about the file: " (RuleSet 'tools/x.yaml' is relative to
  /// the directory of /src/.clang-tidy, which sets it)", or "" when the
  /// value was absolute.
  std::string origin(llvm::StringRef Name) const;
};

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
  /// \p Context (optional) tells where each option was set, for relative
  /// paths; without it they resolve against the launch directory.
  OptionReader(const clang::tidy::ClangTidyCheck::OptionsView &View, llvm::StringRef Check,
               std::function<void(const std::string &)> OnError,
               const clang::tidy::ClangTidyContext *Context = nullptr)
      : View(View), Context(Context), Check(Check.str()), OnError(std::move(OnError)) {}

  std::string text(llvm::StringRef Name, llvm::StringRef Default = "");
  /// `true` or `false`.
  bool flag(llvm::StringRef Name, bool Default);
  /// A non-negative integer.
  unsigned count(llvm::StringRef Name, unsigned Default);
  /// A number from 0 to 100.
  double percent(llvm::StringRef Name, double Default);
  /// Items separated by `;` or `,`, each trimmed, empty ones dropped.
  std::vector<std::string> list(llvm::StringRef Name);
  /// A path (kind Path), resolved as the file comment says.
  OptionPath path(llvm::StringRef Name);
  /// Paths separated by `;`, each resolved the same way (InlineRemarks).
  OptionPath pathList(llvm::StringRef Name);
  /// \p Value, read from option \p Name, resolved as a path: for an option
  /// that is a path only sometimes (RuleSet names a preset or a file).
  OptionPath resolvePath(llvm::StringRef Name, llvm::StringRef Value) const;
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
  /// The directory relative paths in option \p Name resolve against, and
  /// the `.clang-tidy` that sets it (empty: the launch directory).
  std::pair<std::string, std::string> baseOf(llvm::StringRef Name) const;

  const clang::tidy::ClangTidyCheck::OptionsView &View;
  const clang::tidy::ClangTidyContext *Context;
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
