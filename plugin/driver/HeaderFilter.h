//===--- driver/HeaderFilter.h - the project's headers -------- -*- C++ -*-===//
//
// clang-tidy (before LLVM 22) reports nothing in headers unless
// -header-filter says which: "Suppressed 1 warnings (1 in non-user code)",
// and an assert macro in the project's dbg.h is not rewritten. hotpath-tidy
// in its plain clang-tidy mode defaults to the project's own headers: every
// file under the compile database's source root. An explicit -header-filter,
// or a HeaderFilterRegex in -config, -config-file or a .clang-tidy file,
// wins; system headers stay out as ever (-system-headers).
//
//===----------------------------------------------------------------------===//
#ifndef HOTPATH_DRIVER_HEADERFILTER_H
#define HOTPATH_DRIVER_HEADERFILTER_H

#include "llvm/ADT/ArrayRef.h"
#include <optional>
#include <string>

namespace hotpath::driver {

/// The source root of a run with the clang-tidy arguments \p Args (argv
/// without the program name): the directory that holds every source file of
/// the compile database (-p, or the compile_commands.json found above the
/// first source, or the sources themselves after "--") and every directory
/// its commands run in (the current one after "--"); the sources' alone
/// when that is "/", and the directory of compile_commands.json when even
/// they share no other.
/// None when the run names no source.
std::optional<std::string> sourceRoot(llvm::ArrayRef<const char *> Args);

/// The header filter matching the files under \p Root and files named by a
/// relative path (found through a relative -I, from the build's directory).
std::string headerFilterFor(llvm::StringRef Root);

/// The "--header-filter=..." argument to add to \p Args, or none: when they
/// give one, when a configuration they select sets HeaderFilterRegex, or
/// when they name no source.
std::optional<std::string> defaultHeaderFilterArg(llvm::ArrayRef<const char *> Args);

} // namespace hotpath::driver

#endif
