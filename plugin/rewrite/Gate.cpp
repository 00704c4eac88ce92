//===--- Gate.cpp - a hook's gate and its switch accessor -----------------===//

#include "rewrite/Gate.h"

using namespace clang;

namespace hotpath {

//===----------------------------------------------------------------------===//
// GateWriter: the text.
//===----------------------------------------------------------------------===//

GateWriter::GateWriter(GateSpec Spec)
    : S(std::move(Spec)), Bool(S.Cxx || S.BoolVisible ? "bool" : "_Bool") {}

std::string GateWriter::var() const {
  return S.Hook + (S.Style == "static_key" ? "_active" : "_gate");
}

std::string GateWriter::accessor() const { return S.Hook + "_gate_enabled"; }

std::string GateWriter::enabler() const { return S.Hook + "_gate_enable"; }

std::string GateWriter::test(bool Mirrored) const {
  if (S.Style == "static_key" && !Mirrored)
    return "static_branch_unlikely(&" + var() + ")";
  return accessor() + "()";
}

std::optional<std::string> GateWriter::header() const {
  if (S.Style == "static_key")
    return S.StaticKeyMacroVisible ? std::nullopt
                                   : std::optional<std::string>("linux/jump_label.h");
  if (S.Style == "atomic")
    return std::string(S.Cxx ? "atomic" : "stdatomic.h");
  return std::nullopt;
}

std::string GateWriter::headerDecl(bool Mirrored) const {
  std::string Out = comment();
  if (S.Style == "static_key")
    Out += "DECLARE_STATIC_KEY_FALSE(" + var() + ");\n";
  else
    Out += "extern " + visibility() + type() + " " + var() + ";\n";
  if (S.Style != "static_key" || Mirrored)
    Out += accessorText("static inline ");
  Out += "void " + S.Hook + "_gate_enable(" + params() + ");\n";
  Out += "void " + S.Hook + "_gate_disable(" + params() + ");";
  return Out;
}

std::string GateWriter::definition(StringRef Header, ArrayRef<ConditionLiteral> OffWhen) const {
  std::string Out = "/* The gate of " + S.Hook + "(), declared in " + Header.str() + ". */\n";
  Out += varDefinitions("", OffWhen) + "\n";
  Out += setters("");
  return StringRef(Out).rtrim("\n").str();
}

std::string GateWriter::local(bool Static, ArrayRef<ConditionLiteral> OffWhen) const {
  std::string Out = comment();
  Out += varDefinitions(Static ? "static " : "", OffWhen) + "\n";
  Out += accessorText("static inline ");
  if (!Static) {
    Out += "void " + S.Hook + "_gate_enable(" + params() + ");\n";
    Out += "void " + S.Hook + "_gate_disable(" + params() + ");\n";
  }
  Out += setters(Static ? "static inline __attribute__((unused)) " : "");
  return StringRef(Out).rtrim("\n").str();
}

std::string GateWriter::alwaysOn(bool InMainFile) const {
  std::string Static = InMainFile ? "static inline __attribute__((unused)) " : "static inline ";
  const std::string &Hook = S.Hook, &Unit = S.Unit;
  return "/* " + Hook + "() is not the hook analysed here: its gate is always on. */\n" +
         Static + Bool + " " + accessor() + "(" + params() + ")\n{\n" + Unit + "return 1;\n}\n" +
         Static + "void " + Hook + "_gate_enable(" + params() + ")\n{\n}\n" + Static + "void " +
         Hook + "_gate_disable(" + params() + ")\n{\n}\n";
}

std::string GateWriter::params() const { return S.Cxx ? "" : "void"; }

std::string GateWriter::comment() const {
  return "/* Gate of " + S.Hook + "(): off at start, so callers skip the call;\n * " + S.Hook +
         "_gate_enable() switches the hook on at run time. */\n";
}

std::string GateWriter::visibility() const {
  return S.Visibility == "hidden" ? "__attribute__((visibility(\"hidden\"))) " : "";
}

std::string GateWriter::type() const {
  if (S.Style == "atomic")
    return S.Cxx ? "std::atomic<bool>" : "atomic_bool";
  return Bool;
}

std::string GateWriter::truth(bool On) const {
  return S.Cxx || Bool == "bool" ? (On ? "true" : "false") : (On ? "1" : "0");
}

std::string GateWriter::varDefinition(StringRef Prefix, bool On) const {
  if (S.Style == "static_key")
    return Prefix.str() + "DEFINE_STATIC_KEY_FALSE(" + var() + ");";
  std::string Vis = Prefix.empty() ? "" : visibility();
  if (Prefix.starts_with("static"))
    Vis = "";
  std::string Init;
  if (S.Style == "atomic" && S.Cxx)
    Init = "{" + truth(On) + "}";
  else if (On)
    Init = " = " + truth(On);
  else if (S.Cxx)
    Init = " = false";
  return Prefix.str() + Vis + type() + " " + var() + Init + ";";
}

/// Off where \p OffWhen holds, on elsewhere: where the body differs, the
/// hook may act, and the gate must not hide it.
std::string GateWriter::varDefinitions(StringRef Prefix,
                                       ArrayRef<ConditionLiteral> OffWhen) const {
  if (OffWhen.empty())
    return varDefinition(Prefix, false);
  return guardDirective(OffWhen) + "\n" + varDefinition(Prefix, false) +
         "\n#else /* the hook's body differs here: its gate starts on */\n" +
         varDefinition(Prefix, true) + "\n#endif";
}

std::string GateWriter::accessorText(StringRef Prefix) const {
  const std::string &Unit = S.Unit;
  std::string Out = Prefix.str() + Bool + " " + accessor() + "(" + params() + ")\n{\n";
  std::string Load = S.Style == "atomic"
                         ? (S.Cxx ? var() + ".load(std::memory_order_relaxed)"
                                  : "atomic_load_explicit(&" + var() + ", memory_order_relaxed)")
                         : var();
  if (S.Style == "static_key")
    Out += Unit + "return static_branch_unlikely(&" + var() + ");\n";
  else if (S.Cxx20)
    Out += Unit + "if (" + Load + ") [[unlikely]]\n" + Unit + Unit + "return true;\n" + Unit +
           "return false;\n";
  else
    Out += Unit + "return __builtin_expect(" + Load + ", 0);\n";
  return Out + "}\n";
}

std::string GateWriter::setters(StringRef Prefix) const {
  const std::string &Unit = S.Unit;
  std::string Out;
  for (bool On : {true, false}) {
    Out += "\n" + Prefix.str() + "void " + S.Hook + (On ? "_gate_enable(" : "_gate_disable(") +
           params() + ")\n{\n";
    if (S.Style == "static_key")
      Out += Unit + "static_branch_" + (On ? "enable" : "disable") + "(&" + var() + ");\n";
    else if (S.Style == "atomic" && S.Cxx)
      Out += Unit + var() + ".store(" + (On ? "true" : "false") + ");\n";
    else if (S.Style == "atomic")
      Out += Unit + "atomic_store(&" + var() + ", " + (On ? "1" : "0") + ");\n";
    else
      Out += Unit + var() + " = " + truth(On) + ";\n";
    Out += "}\n";
  }
  return Out;
}

//===----------------------------------------------------------------------===//
// Where the gate goes.
//===----------------------------------------------------------------------===//

namespace {

/// The always-on stand-in in every other branch of the #ifs around \p At,
/// and the include the gate's type needs in \p At's file.
void surround(const GateWriter &W, SourceLocation At, const SourceLayout &Layout,
              const SourceManager &SM, IncludeInserter &Includes,
              std::vector<FixItHint> &Fixes) {
  bool InMainFile = SM.isInMainFile(SM.getExpansionLoc(At));
  for (auto [Grp, Br] : Layout.enclosingInFile(At, SM))
    llvm::append_range(Fixes,
                       mirrorInOtherBranches(Grp, Br, W.alwaysOn(InMainFile), Layout, SM));
  if (std::optional<std::string> Header = W.header())
    if (std::optional<FixItHint> Inc =
            Includes.insert(SM.getFileID(SM.getExpansionLoc(At)), *Header, true))
      Fixes.push_back(*Inc);
}

} // namespace

GateEdits writeGate(const GateWriter &W, const GatePlacement &P, const SourceLayout &Layout,
                    const SourceManager &SM, IncludeInserter &Includes) {
  GateEdits E;
  if (P.Where == GatePlacement::Mode::Header) {
    if (P.DeclAt.isValid()) {
      E.Declaration.push_back(
          FixItHint::CreateInsertion(P.DeclAt, "\n" + W.headerDecl(P.Mirrored) + "\n"));
      surround(W, P.DeclAt, Layout, SM, Includes, E.Declaration);
    }
    if (P.DefAt.isValid())
      E.Definition.push_back(FixItHint::CreateInsertion(
          P.DefAt, "\n\n" + guarded(P.DefGuard, W.definition(P.HeaderName, P.OffWhen))));
  } else if (P.DeclAt.isValid()) {
    E.OneFile.push_back(
        FixItHint::CreateInsertion(P.DeclAt, "\n\n" + W.local(P.StaticHook, P.OffWhen)));
    surround(W, P.DeclAt, Layout, SM, Includes, E.OneFile);
  }
  return E;
}

//===----------------------------------------------------------------------===//
// The accessor of a switch in another file.
//===----------------------------------------------------------------------===//

std::string switchAccessorName(StringRef Hook) { return Hook.str() + "_switch_on"; }

std::string switchAccessorTest(StringRef Hook) { return switchAccessorName(Hook) + "()"; }

std::vector<FixItHint> writeSwitchAccessor(const SwitchAccessorSpec &A,
                                           const SourceLayout &Layout,
                                           const SourceManager &SM) {
  std::string Name = switchAccessorName(A.Hook);
  std::string Comment = "\n/* The switch " + A.Hook + "() tests in " + A.SwitchFile +
                        ", for its callers to test before the call. */\n";
  std::string Test = "__builtin_expect(!!(" + A.Switch + "), 0)";
  std::vector<FixItHint> Fixes;
  if (A.Macro) {
    std::string Define = "#define " + Name + "() ";
    Fixes.push_back(FixItHint::CreateInsertion(A.At, Comment + Define + Test));
    for (auto [Grp, Br] : Layout.enclosingInFile(A.At, SM))
      llvm::append_range(Fixes, mirrorInOtherBranches(Grp, Br, Define + "0\n", Layout, SM));
    return Fixes;
  }
  std::string Externs;
  for (const std::string &D : A.Externs)
    Externs += D + "\n";
  std::string Unit = indentUnit(A.At, SM, Layout);
  Fixes.push_back(FixItHint::CreateInsertion(
      A.At, Comment + Externs + "static inline int " + Name + "(void)\n{\n" + Unit + "return " +
                Test + ";\n}\n"));
  return Fixes;
}

} // namespace hotpath
