//===--- HookGateTest.cpp - hotpath-hook-gate in process ------------------===//

#include "checks/HookGateCheck.h"
#include "TestHelpers.h"
#include "gtest/gtest.h"

using hotpath::HookGateCheck;
using hotpath::test::CheckTester;
using hotpath::test::Diag;
using hotpath::test::RunResult;

namespace {

const CheckTester<HookGateCheck> Gate("hotpath-hook-gate");

const char *const Warning = "hot call to hook 'hook', which does nothing unless switched "
                            "on; test an inline gate first so the disabled case makes no call";

const char *const HotLoop = R"c(static __attribute__((noinline)) int hook(int x)
{
	(void)x;
	return 0;
}

int f(int *a, int n)
{
	int i, s = 0;

	for (i = 0; i < n; i++)
		if (hook(a[i]))
			return -1;
	return s;
}
)c";

TEST(HookGate, DefaultGatesAtTheCallAsMaintainersWrite) {
  const std::map<std::string, std::string> Opts{{"NewGateWithSetters", "true"}};
  RunResult R = Gate.run(HotLoop, "input.c", Opts);
  ASSERT_EQ(R.errors().size(), 0u) << R.dump();
  std::string Fixed = R.fixed();
  EXPECT_NE(Fixed.find("\t\tif (hook_gate_enabled() && hook(a[i]))\n\t\t\treturn -1;\n"),
            std::string::npos)
      << Fixed;
  // Nothing cloned, nothing left over.
  EXPECT_EQ(Fixed.find("_hooked"), std::string::npos) << Fixed;
  EXPECT_EQ(Fixed.find("gated above"), std::string::npos) << Fixed;
  EXPECT_EQ(Gate.run(Fixed, "input.c", Opts).dump(), "");
}

TEST(HookGate, NoSwitchAndNoEnablerMeansNoFix) {
  RunResult R = Gate.run(HotLoop);
  ASSERT_EQ(R.diagsOfLevel("warning").size(), 1u) << R.dump();
  EXPECT_EQ(R.fixed(), HotLoop);
  bool Note = false;
  for (const Diag &D : R.diagsOfLevel("note"))
    Note |= llvm::StringRef(D.Message).starts_with(
        "no fix: the hook tests no switch of its own, and nothing names what switches it on: a "
        "new gate would keep it off until something calls hook_gate_enable()");
  EXPECT_TRUE(Note) << R.dump();
}

TEST(HookGate, CloneKeepsTheCallerALeaf) {
  const std::map<std::string, std::string> Opts{{"CloneCallers", "true"},
                                                {"NewGateWithSetters", "true"}};
  RunResult R = Gate.run(HotLoop, "input.c", Opts);
  ASSERT_EQ(R.errors().size(), 0u) << R.dump();
  std::vector<Diag> W = R.diagsOfLevel("warning");
  ASSERT_EQ(W.size(), 1u) << R.dump();
  EXPECT_EQ(W[0], Gate.warning(12, 7, Warning));
  std::string Fixed = R.fixed();
  EXPECT_NE(Fixed.find("__attribute__((noinline, cold)) static int f_hooked(int *a, int n)\n"),
            std::string::npos)
      << Fixed;
  EXPECT_NE(Fixed.find("\tif (hook_gate_enabled())\n\t\treturn f_hooked(a, n);\n"),
            std::string::npos)
      << Fixed;
  EXPECT_NE(Fixed.find("if (0 /* gated above: hook(a[i]) */)"), std::string::npos) << Fixed;
  // The fixed code compiles and a second run leaves it alone.
  EXPECT_EQ(Gate.run(Fixed, "input.c", Opts).dump(), "");
}

const char *const Lukewarm = R"c(static __attribute__((noinline)) int hook(int x) { (void)x; return 0; }
int f(int x) { return hook(x); }
)c";

TEST(HookGate, ColdOrUnmarkedOrLukewarmIsNotAHookCall) {
  // Not kept out of line: the compiler inlines it, nothing to gate.
  // Nothing at all is emitted: a configuration error would fail this too.
  EXPECT_EQ(Gate.run(R"c(static int hook(int x) { (void)x; return 0; }
int f(int *a, int n) { int s = 0; for (int i = 0; i < n; i++) s += hook(a[i]); return s; }
)c").dump(),
            "");
  // One call, not in a loop, from a function nobody calls: not hot.
  EXPECT_EQ(Gate.run(Lukewarm).dump(), "");
}

// Negative control of the "nothing emitted" assertions: the lukewarm case
// with a broken option emits a configuration error and no warning, so
// "no warning" passed it and dump() == "" fails it.
TEST(HookGate, NothingEmittedFailsOnAConfigurationError) {
  RunResult R = Gate.run(Lukewarm, "input.c", {{"GateStyle", "jump-label"}});
  EXPECT_TRUE(R.diagsOfLevel("warning").empty()) << R.dump();
  ASSERT_EQ(R.Diags.size(), 1u) << R.dump();
  EXPECT_EQ(R.Diags[0].Level, "error");
  EXPECT_EQ(R.Diags[0].CheckName, "clang-tidy-config");
  EXPECT_NE(R.dump(), "");
}

TEST(HookGate, SideEffectInArgumentMeansNoFix) {
  const char *Code = R"c(static __attribute__((noinline)) void hook(int x) { (void)x; }
void f(int *a, int n) { for (int i = 0; i < n;) hook(a[i++]); }
)c";
  RunResult R = Gate.run(Code, "input.c", {{"NewGateWithSetters", "true"}});
  EXPECT_TRUE(R.errors().empty()) << R.dump();
  ASSERT_EQ(R.diagsOfLevel("warning").size(), 1u) << R.dump();
  EXPECT_EQ(R.fixed(), Code);
  bool Note = false;
  for (const Diag &D : R.diagsOfLevel("note"))
    Note |= llvm::StringRef(D.Message).starts_with("no fix: the call's arguments have a side effect");
  EXPECT_TRUE(Note) << R.dump();
}

// A check function kept out of line and called in a loop is not a hook
// (e2fsprogs' debugfs check_fs_open()); each half of the rule has a control
// that keeps the hook: a report that returns the disabled value is a
// tracing hook, a failure on a flag without a report is fault injection.
std::string checkOrHook(const char *Cond, const char *Active) {
  return std::string(R"c(#include <stdio.h>
static int *state;
static int fail_next;
static __attribute__((noinline)) int hook(int x)
{
	(void)x;
	if ()c") + Cond + ") {\n\t\t" + Active + R"c(
	}
	return 0;
}

int f(int *a, int n)
{
	for (int i = 0; i < n; i++)
		if (hook(a[i]))
			return -1;
	return 0;
}
)c";
}

TEST(HookGate, CheckFunctionsAreNotHooks) {
  // Reports and returns a failure: a check function.
  EXPECT_EQ(Gate.run(checkOrHook("fail_next", "fprintf(stderr, \"x\\n\");\n\t\treturn 1;")).dump(),
            "");
  // Acts while a pointer is null, reporting or not, however spelt.
  for (const char *Cond : {"!state", "state == NULL", "NULL == state", "fail_next && !state"})
    EXPECT_EQ(Gate.run(checkOrHook(Cond, "return 1;")).dump(), "") << Cond;
  // Controls: the same bodies that are hooks.
  for (auto [Cond, Active] :
       {std::pair{"fail_next", "fprintf(stderr, \"x\\n\");\n\t\treturn 0;"},
        std::pair{"fail_next", "return 1;"}, std::pair{"state", "return 1;"},
        std::pair{"state != NULL", "fprintf(stderr, \"x\\n\");\n\t\treturn 0;"}}) {
    RunResult R = Gate.run(checkOrHook(Cond, Active));
    EXPECT_EQ(R.diagsOfLevel("warning").size(), 1u) << Cond << " " << Active << R.dump();
  }
}

TEST(HookGate, OptionsRoundTrip) {
  std::map<std::string, std::string> Opts = hotpath::test::dumpOptions<HookGateCheck>(
      Gate.name(), {{"hotpath-hook-gate.HookFunctions", "should_fail=false"},
                    {"hotpath-hook-gate.GateVisibility", "default"}});
  EXPECT_EQ(Opts["hotpath-hook-gate.HookFunctions"], "should_fail=false");
  EXPECT_EQ(Opts["hotpath-hook-gate.GateVisibility"], "default");
  EXPECT_EQ(Opts["hotpath-hook-gate.GateStyle"], "plain");
  EXPECT_EQ(Opts["hotpath-hook-gate.CloneMaxLines"], "40");
  EXPECT_EQ(Opts["hotpath-hook-gate.CloneCallers"], "false");
  EXPECT_EQ(Opts["hotpath-hook-gate.NewGateWithSetters"], "false");
  std::vector<Diag> Config;
  hotpath::test::dumpOptions<HookGateCheck>(
      Gate.name(), {{"hotpath-hook-gate.GateStyle", "jump-label"}}, &Config);
  ASSERT_EQ(Config.size(), 1u);
  EXPECT_NE(Config[0].Message.find("GateStyle 'jump-label'"), std::string::npos);
  Config.clear();
  hotpath::test::dumpOptions<HookGateCheck>(
      Gate.name(), {{"hotpath-hook-gate.CloneCallers", "yes"}}, &Config);
  ASSERT_EQ(Config.size(), 1u);
  EXPECT_NE(Config[0].Message.find("option CloneCallers 'yes' is not 'true' or 'false'"),
            std::string::npos);
}

} // namespace
