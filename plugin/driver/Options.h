//===--- driver/Options.h - the command line, one table ------- -*- C++ -*-===//
//
// Every option the driver knows is one row of a table (Options.cpp): its
// name and alias, whether it takes a value, the modes it belongs to, its
// help text, and what it sets. The table decides what a command line asks
// for (classify), parses a run over the compile database (parseRunOptions),
// takes --explain out of a plain clang-tidy command line, tells the header
// filter which arguments are values, and writes --help: as clang-tidy's
// cl::opt carry their descriptions, nothing about an option is said twice.
//
// clang-tidy's own options are rows too, without help (clang-tidy's --help
// describes them): the table must know which of them take a value, since
// "-checks X" makes X no source file.
//
//===----------------------------------------------------------------------===//
#ifndef HOTPATH_DRIVER_OPTIONS_H
#define HOTPATH_DRIVER_OPTIONS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
}

namespace hotpath::driver {

/// The modes of hotpath-tidy: plain clang-tidy, and the runs over a compile
/// database (one clang-tidy process per TU). An option belongs to a set of
/// them; a run is in every mode its options select (--diff with --profile),
/// or in Database when none.
enum Mode : unsigned {
  ClangTidy = 1u << 0,     // sources named, no mode option: clang-tidy itself
  Database = 1u << 1,      // -p and no source: every TU of the database
  Diff = 1u << 2,          // --diff
  Profile = 1u << 3,       // --profile
  InlineRemarks = 1u << 4, // --inline-remarks
  IndexOnly = 1u << 5,     // --index-only
};
constexpr unsigned AnyRun = Database | Diff | Profile | InlineRemarks | IndexOnly;

/// One --format: the format, and the file it is written to ("" for
/// standard output).
struct OutputFormat {
  std::string Name; // text, github, sarif or codeclimate
  std::string File;
};

/// What a run over the compile database was asked to do.
struct RunOptions {
  unsigned Modes = 0;  // the modes selected (Database when none)
  std::string Diff;    // a git revision, or "-" for stdin
  /// --strip=N: leading path components removed from the diff's paths;
  /// none: git's a/ and b/ when the diff has them.
  std::optional<unsigned> Strip;
  /// --diff-filter: "new" (findings not at the base revision) or "touched"
  /// (findings the patch touches); empty: new, or touched with --diff=-.
  std::string DiffFilter;
  bool Strict = false; // --strict: warnings about the run's input are errors
  std::string BuildDir;
  unsigned Jobs = 0;   // 0: the number of cores
  /// Every --format, in the order given. Standard output carries the one
  /// without a file, or clang-tidy's text when each names a file
  /// (Report.h's RunOutputs).
  std::vector<OutputFormat> Formats;
  std::string FixPatch;
  std::string ExportFixes; // --export-fixes: clang-tidy's YAML of the findings reported
  /// --warnings-as-errors: clang-tidy's globs of the checks whose warnings
  /// are errors.
  std::optional<std::string> WarningsAsErrors;
  bool Progress = false;
  std::string Checks = "-*,hotpath-*";
  std::string Profile;        // --profile
  std::string Explain;        // --explain: the checks' Explain option
  // None: each run's default, the project's own headers (HeaderFilter.h).
  std::optional<std::string> HeaderFilter;
  std::optional<std::string> Config, ConfigFile;
  std::vector<std::string> Sources;     // without --diff
  std::vector<std::string> PassThrough; // given to each per-TU run
  /// -extra-arg-before / -extra-arg: also in PassThrough, and given as
  /// clang-tidy gives them to every other compile of a TU the run makes
  /// (the project index, the inline remarks).
  std::vector<std::string> ExtraArgsBefore, ExtraArgs;
  bool Fix = false;       // --fix: apply the fixes (not with --diff)
  bool Reindex = false;   // --reindex
  bool NoIndex = false;   // --no-index
  std::string IndexDir;   // --index-dir (default <build-dir>/hotpath-index)
  std::string CacheDir;   // --cache-dir (default <build-dir>/hotpath-cache)
  bool NoCache = false;   // --no-cache
  unsigned SliceK = 0, SliceN = 0; // --shard=K/N

  bool in(Mode M) const { return Modes & M; }
  /// --diff reports only what is new at the checked-out tree (PatchFilter.h).
  bool onlyNew() const {
    return in(Mode::Diff) && (DiffFilter.empty() ? Diff != "-" : DiffFilter == "new");
  }
};

/// Where --help shows an option.
enum class Section { Modes, Run, Index, PassedToRuns, Hidden };

/// What an option is for, besides setting RunOptions.
enum class Role {
  Option,     // an option of some mode
  Selects,    // selects the mode named by OptionSpec::Selects
  Query,      // a clang-tidy query (--list-checks): no run, whatever else is given
  Help,       // --help
  HelpHidden, // --help-hidden
  Version,    // --version
};

/// One option: a row of the table.
struct OptionSpec {
  enum ValueKind { Flag, Value, Sources };
  llvm::StringLiteral Name;  // "diff": matched as -diff and --diff; "" for the sources
  llvm::StringLiteral Alias; // "j" for jobs, or ""
  ValueKind Kind;
  llvm::StringLiteral Meta;  // the value in --help: "<rev>|-"
  unsigned Modes;            // the Mode bits it belongs to
  Role Is;
  Mode Selects;              // with Role::Selects
  Section Where;
  /// Shown by --help: one paragraph for Name=Meta, then one per further
  /// form, each "<value>\t<text>" ("A...B\tthe changes since ...").
  llvm::StringLiteral Help;
  /// Why it is refused in the modes it does not belong to ("" for the
  /// general message).
  llvm::StringLiteral Refusal;
  /// For the modes' own options: stores \p Value into \p O; false, with
  /// \p Err, when the value is not one it takes.
  bool (*Apply)(RunOptions &O, llvm::StringRef Value, std::string &Err);
  /// For a mode's option: what follows it on its USAGE line.
  llvm::StringLiteral Synopsis = "";
};

/// Every option the driver knows, in the order --help shows them.
llvm::ArrayRef<OptionSpec> optionTable();

/// One argument of a command line, as the table reads it.
struct Argument {
  const OptionSpec *Spec = nullptr; // none: an option the table does not know
  llvm::StringRef Text;             // as given: "-j8", "--diff=HEAD", "src/a.c"
  llvm::StringRef Value;            // its value, inline or the next argument's
  bool MissingValue = false;        // a valued option last on the line
  bool EndOfOptions = false;        // "--": compile flags follow
  size_t Index = 0, Count = 1;      // the arguments it spans
};

/// The arguments of \p Args (argv without the program name) up to and
/// including "--", each with its row of the table.
std::vector<Argument> scanArguments(llvm::ArrayRef<const char *> Args);

/// What a command line asks for.
enum class Request { Help, HelpHidden, Version, Run, ClangTidy };

/// --help or --version anywhere before "--"; a run over the compile
/// database when a mode option comes first (before a clang-tidy query), or
/// -p is given and no source; else plain clang-tidy.
Request classify(llvm::ArrayRef<const char *> Args);

/// Parses a run's command line (argv without the program name). False with
/// Err set on an option the runs do not take, a bad value, or options that
/// contradict each other.
bool parseRunOptions(llvm::ArrayRef<const char *> Args, RunOptions &O, std::string &Err);

/// Takes --explain=<name> (or --explain <name>) out of a plain clang-tidy
/// command line \p Args (with the program name) into \p Name; false, with
/// Err, when it names nothing.
bool takeExplain(std::vector<const char *> &Args, std::string &Name, std::string &Err);

/// True when clang-tidy's or the driver's option \p Name (without dashes)
/// takes a value, which may be the next argument.
bool takesValue(llvm::StringRef Name);

/// The option that selects the first mode of \p Modes ("--diff"), or "a
/// run over the compile database" when none does: how messages name a run.
std::string modeOption(unsigned Modes);

/// hotpath-tidy's own modes and options, printed by --help before
/// clang-tidy's, and after a usage error.
void printUsage(llvm::raw_ostream &OS);

} // namespace hotpath::driver

#endif
