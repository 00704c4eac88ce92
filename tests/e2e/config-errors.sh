#!/usr/bin/env bash
# A broken rule set is an error that names the file (and line), with a
# non-zero exit, never a silent fallback to defaults and never a crash.
# The unreadable-file case runs as the unprivileged user nobody when the test
# runs as root (as CI does): root reads any file.
# Usage: config-errors.sh CLANG_TIDY PLUGIN
set -u
tidy=$1 plugin=$(realpath "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
chmod 755 "$work"   # nobody must reach input.c
as_user=()
[ "$(id -u)" = 0 ] && as_user=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
src="$(dirname "$0")/../checks/hotpath-check-split/two-branch-subsumed.c"
cp "$src" "$work/input.c"
fail=0 passed=0

expect_error() { # name rules-value expected-substring [option-key]
  local name=$1 value=$2 want=$3 key=${4:-RuleSet} out rc
  out=$("${as_user[@]}" "$tidy" --load="$plugin" -checks='-*,hotpath-*' \
        -config="{CheckOptions: [{key: hotpath-check-split.$key, value: '$value'}]}" \
        "$work/input.c" -- -std=c11 2>&1)
  rc=$?
  if [ "$rc" -ne 0 ] && [ "$rc" -lt 128 ] && grep -qF -- "$want" <<<"$out" &&
     ! grep -q 'hotpath-check-split]' <<<"$out" && ! grep -q 'Stack dump' <<<"$out"; then
    passed=$((passed + 1)); echo "ok   $name"
  else
    fail=$((fail + 1)); echo "FAIL $name (exit $rc), wanted: $want"; echo "$out" | sed 's/^/  /'
  fi
}

printf 'name: t\nhotness:\n  multi_branch_threshold: lots\n' > "$work/bad-number.yaml"
printf 'name: t\nreporting_functoins: [printf]\n' > "$work/unknown-key.yaml"
printf 'name: t\nreporting_functions: [printf\n' > "$work/unclosed.yaml"
printf 'name: t\nspellings:\n  report_suffix: "-slow"\n' > "$work/bad-suffix.yaml"
printf 'name: t\nreporting_functions: printf\n' > "$work/wrong-type.yaml"
printf '\x00\x01\x02binary' > "$work/binary.yaml"
printf '# nothing but a comment\n\n' > "$work/empty.yaml"
printf 'name: t\n' > "$work/unreadable.yaml"; chmod 000 "$work/unreadable.yaml"

expect_error bad-number  "$work/bad-number.yaml"  "bad-number.yaml:3:27: invalid number"
expect_error unknown-key "$work/unknown-key.yaml" "unknown-key.yaml:2:1: unknown key 'reporting_functoins'"
expect_error unclosed    "$work/unclosed.yaml"    "unclosed.yaml:2:29: Could not find closing ]!"
expect_error bad-suffix  "$work/bad-suffix.yaml"  "spellings.report_suffix '-slow' is not an identifier suffix"
expect_error wrong-type  "$work/wrong-type.yaml"  "wrong-type.yaml:2:22: not a sequence"
expect_error binary      "$work/binary.yaml"      "binary.yaml:1:"
expect_error empty       "$work/empty.yaml"       "empty.yaml: the rule set is empty; give at least 'name:'"
expect_error missing     "$work/missing.yaml"     "rules file '$work/missing.yaml': cannot read: No such file or directory"
expect_error unknown-preset "generic-gnu" "unknown rule set 'generic-gnu': give a preset (generic-gnu-c, linux-kernel, cxx20)"
expect_error unreadable "$work/unreadable.yaml" "unreadable.yaml': cannot read: Permission denied"
# Profiles: every defect named with the file and the line.
printf '# perf report\n    5.10%%  bench  bench  [.] check_bounds\ngarbage here\n' > "$work/bad-line.txt"
printf 'main;a;b 10\nmain;c\n' > "$work/bad-folded.txt"
printf '# only comments\n\n' > "$work/empty-profile.txt"
printf 'main;a 1\n\x00\x01' > "$work/binary-profile.txt"
expect_error profile-bad-line   "$work/bad-line.txt"   "profile '$work/bad-line.txt': line 3: expected a perf report line" Profile
expect_error profile-bad-folded "$work/bad-folded.txt" "profile '$work/bad-folded.txt': line 2: expected 'frame;frame;... COUNT' (folded stacks)" Profile
expect_error profile-empty      "$work/empty-profile.txt" "profile '$work/empty-profile.txt': no samples in it" Profile
expect_error profile-binary     "$work/binary-profile.txt" "profile '$work/binary-profile.txt': not a text profile (NUL byte at offset 9)" Profile
expect_error profile-missing    "$work/nope.txt" "profile '$work/nope.txt': cannot read: No such file or directory" Profile
expect_error profile-threshold  "lots" "ProfileThreshold 'lots' is not a percentage between 0 and 100" ProfileThreshold
expect_error profile-metric     "total" "ProfileMetric 'total' is not 'self', 'inclusive' or 'removable'" ProfileMetric
echo "$passed passed, $fail failed"
[ "$fail" -eq 0 ]
