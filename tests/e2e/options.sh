#!/usr/bin/env bash
# One option for all checks, and no silent typo: the shared options
# (RuleSet, HotFunctions, Profile, ...) are read with getLocalOrGlobal, so a
# key without a prefix sets all three checks and `hotpath-<check>.<Option>`
# one of them (winning over the global key); a hotpath option key no check
# reads is a warning naming it.
# Usage: options.sh CLANG_TIDY PLUGIN
set -euo pipefail
tidy=$1 plugin=$(realpath "$2")
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "ok   $*"; }
bad() { failed=$((failed + 1)); echo "FAIL $*"; }
cd "$work"
# Needs RuleSet=linux-kernel to be found by check-split: btrfs_warn, made a
# macro over a function no rule set and no name marks as a logger (emit),
# reports only under that rule set (reporting_macros); noop-assert finds its
# ASSERT either way. The lines stay where they were.
sed '1d; /CHECK-MESSAGES:/d' "$here/../checks/hotpath-check-split/kernel-spellings.c" |
  sed '8s/^$/#define btrfs_warn(fs, ...) emit(__VA_ARGS__)/;
       s/^void btrfs_warn(const struct fs_info \*fs, const char \*fmt, ...);$/void emit(const char *fmt, ...);/' >k.c
grep -q '^void emit' k.c && grep -q '^#define btrfs_warn' k.c || { echo "FAIL k.c: the fixture changed"; exit 1; }
run() { # CONFIG -> the warnings, one per line, paths dropped
  "$tidy" --load="$plugin" -checks='-*,hotpath-*' -config="$1" k.c -- -std=c11 2>&1 |
    grep -E '(warning|error):' | sed 's|^[^ ]*k\.c:|k.c:|' || true
}
rulesets() { # CONFIG -> the RuleSet each check ends up with
  "$tidy" --load="$plugin" -checks='-*,hotpath-*' -config="$1" --dump-config k.c 2>/dev/null |
    grep '\.RuleSet:' | sed 's/^ *//' | sort || true
}
split="k.c:14:13: warning: check function 'check_setget_bounds' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]"
assert="k.c:29:9: warning: disabled assert 'ASSERT' still evaluates its argument; make it type-check the argument without evaluating it [hotpath-noop-assert]"

expect() { # WHAT EXPECTED GOT
  if [ "$2" = "$3" ]; then ok "$1"; else bad "$1"; diff <(echo "$2") <(echo "$3") | sed 's/^/    /' || true; fi
}

expect "default rule set: no check-split finding (the control)" "$assert" "$(run '{}')"
expect "global RuleSet: every check reads it" \
  "$(printf 'hotpath-check-split.RuleSet: linux-kernel\nhotpath-hook-gate.RuleSet: linux-kernel\nhotpath-noop-assert.RuleSet: linux-kernel')" \
  "$(rulesets '{CheckOptions: {RuleSet: linux-kernel}}')"
expect "global RuleSet: check-split finds the kernel-style check" "$(printf '%s\n%s' "$split" "$assert")" \
  "$(run '{CheckOptions: {RuleSet: linux-kernel}}')"
expect "the check's own key wins over the global one" \
  "$(printf 'hotpath-check-split.RuleSet: generic-gnu-c\nhotpath-hook-gate.RuleSet: linux-kernel\nhotpath-noop-assert.RuleSet: linux-kernel')" \
  "$(rulesets '{CheckOptions: {RuleSet: linux-kernel, hotpath-check-split.RuleSet: generic-gnu-c}}')"
expect "  and so check-split keeps quiet" "$assert" \
  "$(run '{CheckOptions: {RuleSet: linux-kernel, hotpath-check-split.RuleSet: generic-gnu-c}}')"
# The same through a .clang-tidy file, the way a project sets it.
printf 'Checks: "-*,hotpath-*"\nCheckOptions:\n  RuleSet: linux-kernel\n  HotFunctions: check_setget_bounds\n' >.clang-tidy
got=$("$tidy" --load="$plugin" --dump-config k.c 2>/dev/null | grep -E '\.(RuleSet|HotFunctions):' | sed 's/^ *//' | sort || true)
expect ".clang-tidy: one line per option configures the three checks" \
  "$(printf 'hotpath-check-split.HotFunctions: check_setget_bounds\nhotpath-check-split.RuleSet: linux-kernel\nhotpath-hook-gate.HotFunctions: check_setget_bounds\nhotpath-hook-gate.RuleSet: linux-kernel\nhotpath-noop-assert.HotFunctions: check_setget_bounds\nhotpath-noop-assert.RuleSet: linux-kernel')" "$got"
rm .clang-tidy

# Unknown keys: a warning naming each, the run goes on.
cfg='{CheckOptions: {RuleSet: linux-kernel, hotpath-check-split.RuleSte: cxx20, hotpath-hook-gate.GateStyl: static_key, hotpath-noop-assert.Whatever: 1, hotpath.RuleSet: cxx20, hotpath-chek-split.Profile: p.txt}}'
expect "unknown keys: one warning each, naming it" \
  "$(printf '%s\n' \
"warning: unknown option 'hotpath-check-split.RuleSte' is ignored: hotpath-check-split has no option 'RuleSte' (did you mean 'RuleSet'?) [clang-tidy-config]" \
"warning: unknown option 'hotpath-chek-split.Profile' is ignored: there is no check 'hotpath-chek-split'; an option for every hotpath check has no prefix ('Profile'), one for a single check has its name ('hotpath-check-split.Profile') [clang-tidy-config]" \
"warning: unknown option 'hotpath-hook-gate.GateStyl' is ignored: hotpath-hook-gate has no option 'GateStyl' (did you mean 'GateStyle'?) [clang-tidy-config]" \
"warning: unknown option 'hotpath-noop-assert.Whatever' is ignored: hotpath-noop-assert has no option 'Whatever' [clang-tidy-config]" \
"warning: unknown option 'hotpath.RuleSet' is ignored: there is no check 'hotpath'; an option for every hotpath check has no prefix ('RuleSet'), one for a single check has its name ('hotpath-check-split.RuleSet') [clang-tidy-config]" \
"$split" "$assert" | sort)" "$(run "$cfg" | sort)"
# Only the enabled checks speak: with check-split alone, the orphans are its to report.
got=$("$tidy" --load="$plugin" -checks='-*,hotpath-check-split' -config="$cfg" k.c -- -std=c11 2>&1 | grep -c "unknown option" || true)
expect "  with one check enabled: its own key and the two orphans, once each" 3 "$got"
# Every documented option is known: no warning (the control).
known='{CheckOptions: {RuleSet: linux-kernel, HotFunctions: f, ProfileThreshold: "1", ProfileMetric: self, ReportColdFunctions: "false", hotpath-check-split.MultiBranchThreshold: "3", hotpath-check-split.SingleBranchThreshold: "8", hotpath-check-split.ReportSuffix: _report, ProjectIndex: "", hotpath-check-split.AssumeNoWrap: "false", hotpath-hook-gate.HookFunctions: "", hotpath-hook-gate.GateStyle: atomic, hotpath-hook-gate.GateVisibility: hidden, hotpath-hook-gate.HookThreshold: "2", hotpath-hook-gate.CloneMaxLines: "40", hotpath-hook-gate.CloneCallers: "false", hotpath-hook-gate.HookEnablers: "", hotpath-hook-gate.NewGateWithSetters: "false", hotpath-noop-assert.AssertMacros: "", hotpath-noop-assert.MustEvaluateMacros: "", hotpath-noop-assert.CheckFunctionCalls: "false"}}'
got=$(run "$known" | grep -c "unknown option" || true)
expect "every documented option: no unknown-option warning" 0 "$got"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
