//===--- Options.cpp - reading the hotpath checks' options ----------------===//

#include "core/Options.h"
#include "llvm/ADT/STLExtras.h"

namespace hotpath {

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
