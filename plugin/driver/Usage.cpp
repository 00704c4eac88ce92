//===--- driver/Usage.cpp - --help's text, written from the option table --===//
//
// The modes' part of --help: the options of each section of the table
// (Options.cpp) with their help, between a few lines about the modes no
// option selects and what the runs have in common.
//
//===----------------------------------------------------------------------===//
#include "Options.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/raw_ostream.h"

namespace hotpath::driver {

namespace {

constexpr size_t HelpColumn = 21, Width = 84;

// The package of each LLVM major has its own paths (packaging/Packaging.cmake).
#define HOTPATH_USAGE_STR2(X) #X
#define HOTPATH_USAGE_STR(X) HOTPATH_USAGE_STR2(X)
#define HOTPATH_USAGE_MAJOR HOTPATH_USAGE_STR(LLVM_VERSION_MAJOR)

const char Overview[] =
    "OVERVIEW: hotpath-tidy: clang-tidy with the hotpath-* checks built in, and three\n"
    "modes of its own that run it over a compile database, one process per TU.\n";

const char DatabaseMode[] =
    "  -p <build-dir> and no source: every TU of the compile database\n"
    "  -p <build-dir> <source>...: those TUs, run as the whole database is (the\n"
    "                     hotpath checks by default, the project index, -j)\n";
const char PlainMode[] =
    "  (none of them: sources after '--', an option only clang-tidy takes, such as\n"
    "  -line-filter, or sources with --export-fixes) plain clang-tidy, with the\n"
    "  clang-tidy options below\n";
const char PlainModeHeaders[] =
    "Headers: without -header-filter (or a HeaderFilterRegex), the project's own are "
    "checked: those under the compile database's source root, never system headers";

const char IndexHeader[] =
    "PROJECT INDEX (docs/project-index.md): every mode first brings the index of the\n"
    "whole database up to date (only TUs whose command or files changed are parsed)\n"
    "and hands it to the checks (option ProjectIndex).\n";

const char Footer[] =
    "Exit status of the modes: 0 nothing found, 1 findings, 2 could not run.\n"
    "A TU clang cannot compile is skipped: named with its first errors on standard\n"
    "error (and in SARIF's notifications), its fixes never applied; the other TUs'\n"
    "findings decide the exit status (2 when no TU could be checked).\n"
    "Assembly and other TUs clang-tidy cannot check are skipped with a note.\n"
    "Docs: README.md and docs/ci.md, docs/profile.md, docs/checks/ (installed in\n"
    "/usr/share/doc/hotpath-tidy-" HOTPATH_USAGE_MAJOR " by its package).\n";

/// \p Text in lines of at most Width columns, the first starting at
/// column \p At, the others at HelpColumn.
void wrap(llvm::raw_ostream &OS, llvm::StringRef Text, size_t At) {
  llvm::SmallVector<llvm::StringRef, 32> Words;
  Text.split(Words, ' ', -1, /*KeepEmpty=*/false);
  size_t Col = At;
  bool First = true;
  for (llvm::StringRef W : Words) {
    if (!First && Col + 1 + W.size() > Width) {
      OS << '\n' << std::string(HelpColumn, ' ');
      Col = HelpColumn;
      First = true;
    }
    if (!First) {
      OS << ' ';
      ++Col;
    }
    OS << W;
    Col += W.size();
    First = false;
  }
  OS << '\n';
}

/// One row: the option as written, and its help from HelpColumn on (on the
/// next line when the option is too long).
void row(llvm::raw_ostream &OS, llvm::StringRef Syntax, llvm::StringRef Help) {
  OS << "  " << Syntax;
  size_t Col = 2 + Syntax.size();
  if (Col + 1 > HelpColumn) {
    OS << '\n';
    Col = 0;
  }
  OS << std::string(HelpColumn - Col, ' ');
  wrap(OS, Help, HelpColumn);
}

/// How --help writes the option: "-p <build-dir>", "-j N, --jobs=N",
/// "--format=text|github|sarif", "--progress", "<source>...".
std::string syntax(const OptionSpec &S, llvm::StringRef Meta) {
  if (S.Kind == OptionSpec::Sources)
    return Meta.str();
  std::string Out;
  if (!S.Alias.empty())
    Out = "-" + S.Alias.str() + (Meta.empty() ? "" : " " + Meta.str()) + ", ";
  if (S.Name.size() == 1)
    return Out + "-" + S.Name.str() + (Meta.empty() ? "" : " " + Meta.str());
  return Out + "--" + S.Name.str() + (Meta.empty() ? "" : "=" + Meta.str());
}

/// Its rows: Name=Meta, then one per further form ("A...B\ttext").
void rows(llvm::raw_ostream &OS, const OptionSpec &S) {
  llvm::SmallVector<llvm::StringRef, 4> Forms;
  S.Help.split(Forms, '\n');
  row(OS, syntax(S, S.Meta), Forms.front());
  for (llvm::StringRef Form : llvm::ArrayRef(Forms).drop_front()) {
    auto [Value, Text] = Form.split('\t');
    row(OS, syntax(S, Value), Text);
  }
}

void section(llvm::raw_ostream &OS, Section Where) {
  for (const OptionSpec &S : optionTable())
    if (S.Where == Where)
      rows(OS, S);
}

void usageLines(llvm::raw_ostream &OS) {
  OS << "USAGE: hotpath-tidy -p <build-dir> [--fix] [options]\n";
  for (const OptionSpec &S : optionTable())
    if (S.Is == Role::Selects)
      OS << "       hotpath-tidy " << syntax(S, S.Meta) << ' ' << S.Synopsis << '\n';
  OS << "       hotpath-tidy [clang-tidy options] <source>... [-- <compile flags>]\n";
}

/// clang-tidy's options each run is given: "-checks= (default ...), ...".
void passedToRuns(llvm::raw_ostream &OS) {
  std::string List = "passed to each run:";
  for (const OptionSpec &S : optionTable())
    if (S.Where == Section::PassedToRuns)
      List += " -" + S.Name.str() + "=" + (S.Help.empty() ? "" : " (" + S.Help.str() + ")") +
              ",";
  List.pop_back();
  OS << "  ";
  wrap(OS, List, 2);
}

} // namespace

void printUsage(llvm::raw_ostream &OS) {
  OS << Overview << '\n';
  usageLines(OS);
  OS << "\nMODES:\n" << DatabaseMode;
  section(OS, Section::Modes);
  OS << PlainMode << std::string(HelpColumn, ' ');
  wrap(OS, PlainModeHeaders, HelpColumn);
  OS << "\nOPTIONS of the modes:\n";
  section(OS, Section::Run);
  OS << IndexHeader;
  section(OS, Section::Index);
  passedToRuns(OS);
  OS << Footer;
}

} // namespace hotpath::driver
