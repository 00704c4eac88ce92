//===--- CheckRegistry.h - the one list of hotpath checks -------*- C++ -*-===//
//
// Every hotpath check, once: its name, what it finds, and how to make it.
// The module registers them from here, the option guard knows their names
// from here, and a test holds docs/checks/ and the rule-set presets to the
// same list. Declared in core; defined in checks/Registry.cpp, the one file
// that knows every check class (adding a check: docs/architecture.md).
//
//===----------------------------------------------------------------------===//

#ifndef HOTPATH_TIDY_CORE_CHECKREGISTRY_H
#define HOTPATH_TIDY_CORE_CHECKREGISTRY_H

#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <memory>

namespace hotpath {

struct CheckInfo {
  using Factory = std::unique_ptr<clang::tidy::ClangTidyCheck> (*)(
      llvm::StringRef Name, clang::tidy::ClangTidyContext *Context);
  llvm::StringLiteral Name;    // "hotpath-check-split"
  llvm::StringLiteral Summary; // what it finds, one line
  Factory Make;
};

/// Every hotpath check, in the order they report.
llvm::ArrayRef<CheckInfo> hotpathChecks();
/// Their names.
llvm::ArrayRef<llvm::StringRef> hotpathCheckNames();

} // namespace hotpath

#endif // HOTPATH_TIDY_CORE_CHECKREGISTRY_H
