//===--- HookModel.h - what a hook is, for the checks and the index -*- C++ -*-===//
//
// The one answer to "is this function a hook?", read by hotpath-hook-gate
// for the functions a TU defines, names or calls, and by the project index
// (index/ShardBuilder) for the definitions it records, so that the two
// cannot disagree: the same candidates (a function that is not a method,
// has a name and is not inline), the same body shapes (HookShape.h), the
// same markers of a function kept out of line, the same switch a caller in
// another file can copy, and the same rule that a constant getter is no
// hook.
//
// What the model cannot see from the AST (the project index's record of a
// body in another file, calls from other files hot enough to matter) it is
// given through HookSources: the index and the heat model live above this
// layer.
//
//===----------------------------------------------------------------------===//

#ifndef HOTPATH_TIDY_ANALYSIS_HOOKMODEL_H
#define HOTPATH_TIDY_ANALYSIS_HOOKMODEL_H

#include "analysis/HookShape.h"
#include "support/Rules.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include <optional>
#include <string>
#include <vector>

namespace clang {
class Preprocessor;
} // namespace clang

namespace hotpath {

class IncludeGraph;

/// A hook's body as another file can use it: what the project index records
/// of a definition (index::HookShape, field for field) and what a check reads
/// back of a hook defined elsewhere.
struct PortableHook {
  HookBody::Kind Shape = HookBody::Kind::Empty;
  /// What it returns while it does nothing; "" for a void function.
  std::string Disabled;
  /// Kind::Switch: the condition it tests, as written, and the globals and
  /// macros it names (switchNames).
  std::string Switch;
  std::vector<std::string> Globals;
  /// For each of Globals, a declaration a header can carry (`extern int
  /// (*cb)(int);`), or "" when it has internal linkage, a type a header may
  /// not know, or is a macro.
  std::vector<std::string> Declarations;
  /// Why it is out of line on purpose ("noinline", "weak", ...), or "".
  std::string Marker;
};

/// A hook defined in another file, as the project index describes it.
struct RemoteHook {
  PortableHook Shape;
  /// The file of its first definition, as messages name it.
  std::string File;
  /// Each definition: its file as the index names it, first and last line.
  struct Lines {
    std::string File;
    unsigned First = 0, Last = 0;
  };
  std::vector<Lines> Definitions;
};

/// What the model knows of one function that is a hook.
struct Hook {
  const clang::FunctionDecl *FD = nullptr;  // canonical declaration
  const clang::FunctionDecl *Def = nullptr; // definition in the main file, if any
  bool Named = false;                       // named by the rule set or options
  bool KnownDisabled = false;
  std::string Disabled;                     // value while the hook does nothing
  std::string Why;                          // for the note "'f' is a hook: <Why>"
  const clang::Expr *GlobalGate = nullptr;  // hook acts only when this is true
  /// A hook whose body the project index describes: the switch it tests
  /// there, as written, and the names that switch reads.
  std::string RemoteSwitch;
  std::vector<std::string> SwitchNames;
  /// For each of SwitchNames, a declaration a header can carry, or "".
  std::vector<std::string> SwitchDeclarations;
  std::string SwitchFile;
  /// Recognised only because other files call it (the project index): hot
  /// by the index's count of its calls, which every TU reads alike, so the
  /// TU that defines its gate and those that test it agree.
  bool IndexHeatOnly = false;
  /// Its body only returns a constant.
  bool ConstantOnly = false;
  /// Known from the project index: its definitions in other files.
  std::vector<RemoteHook::Lines> DefinedElsewhere;

  bool hasSwitch() const { return GlobalGate || !RemoteSwitch.empty(); }
  bool knownFromIndex() const { return !DefinedElsewhere.empty(); }
};

/// What the model consults beyond the AST.
struct HookSources {
  const RuleIndex &Rules;
  /// Hooks named by the rule set and the options: name -> disabled value.
  const llvm::StringMap<std::string> &Named;
  /// Functions named by an error-injection macro in this TU.
  const llvm::StringSet<> &ErrorInjected;
  /// For an unmarked definition: the file (as messages name it) of a call
  /// from another file, when those calls are hot enough that a compiler
  /// without LTO leaves a cost to take off; none otherwise.
  llvm::function_ref<std::optional<std::string>(const clang::FunctionDecl *)> HotCallsElsewhere;
  /// For a function with no body here: its body elsewhere, when the project
  /// index records it as a hook.
  llvm::function_ref<std::optional<RemoteHook>(const clang::FunctionDecl *)> DefinedElsewhere;
};

/// True when \p FD is declared weak (`__weak`, `__attribute__((weak))`): a
/// default that a non-weak definition anywhere in what is linked with it
/// replaces (Linux's copy_from_kernel_nofault_allowed() in mm/maccess.c,
/// which arch/x86/mm/maccess.c overrides).
bool isWeak(const clang::FunctionDecl *FD);

/// A function that may be a hook at all: not a method, named, not inline.
bool isHookCandidate(const clang::FunctionDecl *FD);

/// \p FD as a hook: named by the rules; defined here with a hook's body and
/// kept out of line (or called hot from other files); or defined elsewhere
/// with a hook's body the project index recorded. None when it is no hook.
/// A weak definition (isWeak), here or in the index, is a hook only when
/// the rules name it: a non-weak one outside the database may replace it.
std::optional<Hook> recogniseHook(const clang::FunctionDecl *FD, const clang::ASTContext &Ctx,
                                  const HookSources &Sources);

/// The hook \p Def's body makes, as other files can use it (the project
/// index's record): a candidate whose disabled value is known and whose
/// switch, if any, is one range of a file. The index is built without rules
/// or error-injection macros, so neither counts here.
std::optional<PortableHook> portableHook(const clang::FunctionDecl *Def,
                                         const clang::ASTContext &Ctx);

/// True when a caller at \p Point can test a switch that names \p Name
/// (one of Hook::SwitchNames): a variable or enumerator declared at file
/// scope and visible there with a complete type, or a macro the switch
/// spells, defined where \p Point can see it.
bool switchNameVisibleAt(llvm::StringRef Name, clang::SourceLocation Point,
                         clang::ASTContext &Ctx, const clang::Preprocessor &PP,
                         const IncludeGraph &Includes);

/// Where the calls to a function are, as far as the checks know: for the
/// reason a function the compiler could inline is not taken for a hook.
struct CallsElsewhere {
  bool IndexGiven = false; // a project index was read
  unsigned Sites = 0;      // call sites in other files it holds
  std::string FirstFile;   // the first of them, "main.c"
};

/// Why \p FD is not a hook, in the order the model decides, for explain
/// mode ("it is inline: a call to it costs no call", ...). Whether it can
/// be inlined is said from where its calls are: in this file, a compiler
/// may inline an unmarked definition; from other files (\p Elsewhere), it
/// cannot without LTO.
std::string whyNotAHook(const clang::FunctionDecl *FD, const clang::ASTContext &Ctx,
                        const RuleIndex &Rules, const llvm::StringSet<> &ErrorInjected,
                        const CallsElsewhere &Elsewhere);

} // namespace hotpath

#endif // HOTPATH_TIDY_ANALYSIS_HOOKMODEL_H
