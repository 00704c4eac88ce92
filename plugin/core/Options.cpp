//===--- Options.cpp - reading the hotpath checks' options ----------------===//

#include "core/Options.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

namespace hotpath {

namespace tidy = clang::tidy;

const std::string &launchDirectory() {
  static const std::string Dir = [] {
    llvm::SmallString<256> D;
    return llvm::sys::fs::current_path(D) ? std::string() : std::string(D);
  }();
  return Dir;
}

namespace {
// Runs the function above when the module is loaded: the checks are made
// only after ClangTool has changed into the first compile command's
// directory, too late to see where clang-tidy was started.
[[maybe_unused]] const bool LaunchDirectoryTaken = !launchDirectory().empty();
} // namespace

namespace {
const OptionInfo Table[] = {
#define HOTPATH_OPTION(Name, Kind, Owner, Default, Doc)                                      \
  {Name, OptionKind::Kind, Owner, Default, Doc},
#include "core/Options.def"
#undef HOTPATH_OPTION
};
} // namespace

llvm::ArrayRef<OptionInfo> optionTable() { return Table; }

const OptionInfo *findOption(llvm::StringRef Name) {
  for (const OptionInfo &O : Table)
    if (O.Name == Name)
      return &O;
  return nullptr;
}

bool checkHasOption(llvm::StringRef Check, llvm::StringRef Name) {
  const OptionInfo *O = findOption(Name);
  return O && (O->Owner.empty() || O->Owner == Check);
}

std::string OptionReader::text(llvm::StringRef Name, llvm::StringRef Default) {
  assert(checkHasOption(Check, Name) && "an option missing from Options.def");
  std::string V = View.getLocalOrGlobal(Name, Default).str();
  set(Name, V);
  return V;
}

std::string OptionPath::origin(llvm::StringRef Name) const {
  if (!Relative)
    return "";
  std::string Where = ConfigFile.empty()
                          ? launchDirectory() +
                                ", where clang-tidy was started: -config, -config-file or the "
                                "command line sets it"
                          : "the directory of " + ConfigFile + ", which sets it";
  return " (" + Name.str() + " '" + Written + "' is relative to " + Where + ")";
}

namespace {

/// The key getLocalOrGlobal reads for option \p Name of \p Check: the
/// check's own, unless the global one comes from a later source (as
/// clang-tidy's findPriorityOption decides); empty when neither is set.
std::string keyRead(const tidy::ClangTidyOptions::OptionMap &Options, llvm::StringRef Check,
                    llvm::StringRef Name) {
  std::string Local = (Check + "." + Name).str();
  auto L = Options.find(Local);
  auto G = Options.find(Name);
  if (L == Options.end())
    return G == Options.end() ? "" : Name.str();
  if (G == Options.end() || L->getValue().Priority >= G->getValue().Priority)
    return Local;
  return Name.str();
}

/// The nearest `.clang-tidy` above \p File that sets \p Key, among those
/// clang-tidy merges for it (up to the first that does not inherit its
/// parent's), read the way clang-tidy reads them; empty when none does.
std::string configFileSetting(llvm::StringRef File, llvm::StringRef Key) {
  for (llvm::StringRef Dir = llvm::sys::path::parent_path(File); !Dir.empty();
       Dir = llvm::sys::path::parent_path(Dir)) {
    llvm::SmallString<256> Config(Dir);
    llvm::sys::path::append(Config, ".clang-tidy");
    auto Buf = llvm::MemoryBuffer::getFile(Config, /*IsText=*/true);
    // clang-tidy skips a directory whose file is empty or does not parse.
    if (!Buf || (*Buf)->getBuffer().empty())
      continue;
    llvm::ErrorOr<tidy::ClangTidyOptions> Parsed =
        tidy::parseConfiguration(llvm::MemoryBufferRef((*Buf)->getBuffer(), Config));
    if (!Parsed)
      continue;
    if (Parsed->CheckOptions.count(Key))
      return std::string(Config);
    if (!Parsed->InheritParentConfig.value_or(false))
      break;
  }
  return "";
}

} // namespace

// ClangTidyContext keeps its options provider, which knows the source of each
// value, to itself. What it does give: the priority of each value (the
// position of its source, the -config after every .clang-tidy) and the
// options of any file. A file at the root has no `.clang-tidy` of the
// project above it, so a key set there is one the -config sets; since the
// -config outranks every `.clang-tidy`, it is then the value read. Any other
// key comes from the nearest `.clang-tidy` that sets it.
std::pair<std::string, std::string> OptionReader::baseOf(llvm::StringRef Name) const {
  if (!Context)
    return {launchDirectory(), ""};
  std::string Key = keyRead(Context->getOptions().CheckOptions, Check, Name);
  if (Key.empty() || Context->getCurrentFile().empty())
    return {launchDirectory(), ""};
  if (Context->getOptionsForFile("/hotpath-tidy-option-probe.c").CheckOptions.count(Key))
    return {launchDirectory(), ""};
  // The checks are made in the compile command's directory, against which
  // clang-tidy itself makes a relative main file name absolute.
  llvm::SmallString<256> File(Context->getCurrentFile());
  llvm::sys::fs::make_absolute(File);
  llvm::sys::path::remove_dots(File, /*remove_dot_dot=*/true);
  std::string Config = configFileSetting(File, Key);
  if (Config.empty())
    return {launchDirectory(), ""};
  return {llvm::sys::path::parent_path(Config).str(), Config};
}

OptionPath OptionReader::resolvePath(llvm::StringRef Name, llvm::StringRef Value) const {
  OptionPath P;
  P.Written = Value.str();
  P.Path = Value.str();
  P.Relative = !Value.empty() && llvm::sys::path::is_relative(Value);
  if (!P.Relative)
    return P;
  std::string Base;
  std::tie(Base, P.ConfigFile) = baseOf(Name);
  llvm::SmallString<256> Abs(Base);
  llvm::sys::path::append(Abs, Value);
  llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/false);
  P.Path = std::string(Abs);
  return P;
}

OptionPath OptionReader::path(llvm::StringRef Name) { return resolvePath(Name, text(Name)); }

OptionPath OptionReader::pathList(llvm::StringRef Name) {
  OptionPath All = resolvePath(Name, "");
  All.Written = text(Name);
  llvm::SmallVector<llvm::StringRef, 4> Items;
  llvm::StringRef(All.Written).split(Items, ';', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef Item : Items) {
    OptionPath One = resolvePath(Name, Item.trim());
    All.Path += (All.Path.empty() ? "" : ";") + One.Path;
    if (One.Relative) {
      All.Relative = true;
      All.ConfigFile = One.ConfigFile;
    }
  }
  return All;
}

void OptionReader::set(llvm::StringRef Name, std::string Value) {
  for (auto &KV : Values)
    if (KV.first == Name) {
      KV.second = std::move(Value);
      return;
    }
  Values.emplace_back(Name.str(), std::move(Value));
}

void OptionReader::fail(llvm::StringRef Name, llvm::StringRef Value, llvm::StringRef Expected) {
  Failed = true;
  OnError("option " + Name.str() + " '" + Value.str() + "' is not " + Expected.str());
}

bool OptionReader::flag(llvm::StringRef Name, bool Default) {
  std::string V = text(Name, Default ? "true" : "false");
  if (V == "true" || V == "false")
    return V == "true";
  fail(Name, V, "'true' or 'false'");
  return Default;
}

unsigned OptionReader::count(llvm::StringRef Name, unsigned Default) {
  std::string V = text(Name, std::to_string(Default));
  unsigned N = 0;
  if (!llvm::StringRef(V).trim().getAsInteger(10, N))
    return N;
  fail(Name, V, "a non-negative whole number");
  return Default;
}

double OptionReader::percent(llvm::StringRef Name, double Default) {
  std::string Dflt = std::to_string(Default);
  // "0.500000" reads back as 0.5, but --dump-config shows what was given.
  while (Dflt.find('.') != std::string::npos && (Dflt.back() == '0' || Dflt.back() == '.'))
    Dflt.pop_back();
  std::string V = text(Name, Dflt);
  double D = 0;
  if (!llvm::StringRef(V).trim().getAsDouble(D) && D >= 0 && D <= 100)
    return D;
  fail(Name, V, "a percentage between 0 and 100");
  return Default;
}

std::vector<std::string> OptionReader::list(llvm::StringRef Name) {
  std::string V = text(Name, "");
  std::vector<std::string> Out;
  for (llvm::StringRef L = V; !L.empty();) {
    size_t Sep = L.find_first_of(";,");
    llvm::StringRef Item = L.take_front(Sep).trim();
    if (!Item.empty())
      Out.push_back(Item.str());
    L = Sep == llvm::StringRef::npos ? llvm::StringRef() : L.drop_front(Sep + 1);
  }
  return Out;
}

void OptionReader::store(clang::tidy::ClangTidyOptions::OptionMap &Opts,
                         clang::tidy::ClangTidyCheck::OptionsView &Into) const {
  for (const auto &[Name, Value] : Values)
    Into.store(Opts, Name, Value);
}

void warnUnknownOptions(const clang::tidy::ClangTidyOptions::OptionMap &Options,
                        llvm::StringRef Check, llvm::ArrayRef<llvm::StringRef> CheckNames,
                        llvm::function_ref<bool(llvm::StringRef)> Enabled,
                        llvm::function_ref<void(const std::string &)> Warn) {
  // Keys of no hotpath check at all ("hotpath-chek-split.RuleSet",
  // "hotpath.RuleSet") are reported once, by the first enabled check.
  llvm::StringRef Reporter;
  for (llvm::StringRef N : CheckNames)
    if (Reporter.empty() && Enabled(N))
      Reporter = N;
  for (const auto &KV : Options) {
    llvm::StringRef Key = KV.getKey();
    if (!Key.starts_with("hotpath"))
      continue;
    auto [Prefix, Option] = Key.split('.');
    if (Prefix == Check) {
      if (checkHasOption(Check, Option))
        continue;
      std::string Nearest;
      unsigned Best = 3; // at most two edits away, or no suggestion
      for (const OptionInfo &O : optionTable()) {
        if (!checkHasOption(Check, O.Name))
          continue;
        unsigned D = Option.edit_distance(O.Name, /*AllowReplacements=*/true, Best);
        if (D < Best) {
          Best = D;
          Nearest = O.Name.str();
        }
      }
      std::string Owner;
      if (const OptionInfo *O = findOption(Option))
        Owner = " (it is an option of " + O->Owner.str() + ")";
      Warn("unknown option '" + Key.str() + "' is ignored: " + Check.str() +
           " has no option '" + Option.str() + "'" +
           (Nearest.empty() ? Owner : " (did you mean '" + Nearest + "'?)"));
    } else if (Check == Reporter && !llvm::is_contained(CheckNames, Prefix)) {
      llvm::StringRef Name = Option.empty() ? Key : Option;
      Warn("unknown option '" + Key.str() + "' is ignored: there is no check '" +
           Prefix.str() + "'; an option for every hotpath check has no prefix ('" + Name.str() +
           "'), one for a single check has its name ('" + CheckNames.front().str() + "." +
           Name.str() + "')");
    }
  }
}

} // namespace hotpath
