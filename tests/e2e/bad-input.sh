#!/usr/bin/env bash
# Bad input: each case gets a clear message and the documented exit status
# (docs/robustness.md), never a crash (no signal, no "Stack dump"), and never a
# partial write: the source, which holds a check the module would rewrite, is
# unchanged byte for byte (or, where clang-tidy goes on by design, exactly
# what a normal run gives). Run with the module loaded into clang-tidy and
# with the hotpath-tidy binary.
# Usage: bad-input.sh CLANG_TIDY PLUGIN [HOTPATH_TIDY]
set -u
tidy=$1 plugin=$(realpath "$2") binary=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'chmod -R u+rwX "$work"; rm -rf "$work"' EXIT
chmod 755 "$work"   # the unreadable case runs as nobody, who must reach it
passed=0 failed=0 xfailed=0
# Cases that fail today, each with a reproducer under tests/robustness/repro/.
# A case listed here that passes is reported XPASS: take it off the list.
# (rules-empty was one until the empty rule set became an error.)
known_failures=" "

src=$here/../checks/hotpath-check-split/two-branch-subsumed.c
cp "$src" "$work/pristine.c"
printf '\nint broken = ;\n' | cat "$src" - >"$work/noparse.pristine.c"
mkdir "$work/empty-db"
mkdir "$work/a-directory.c"
printf 'hotness: {multi_branch_threshold: [1]}\n' >"$work/wrong-type.yaml"
: >"$work/empty.yaml"
printf '\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x03\x00>\x00' >"$work/binary.yaml"
: >"$work/empty.perf"
printf '\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x03\x00>\x00' >"$work/binary.perf"

printf '{"format": "hotpath-project-index", "version": 7, "kind": ' >"$work/cut-index.json"
printf '{"format": "hotpath-project-index", "version": 99, "kind": "index", "files": [], "tus": [], "functions": []}\n' \
  >"$work/v99-index.json"

opt() { printf -- "-config={CheckOptions: [{key: hotpath-check-split.%s, value: '%s'}]}" "$1" "$2"; }

# why_not WANT_RC WANT_MESSAGE FILE MODE OUT -- CMD...: runs CMD, its output
# to OUT; prints what is wrong with the run (nothing when it is right).
#   MODE: same (file unchanged) | fixed (file equals the expected fix)
why_not() {
  local want_rc=$1 want=$2 file=$3 mode=$4 out=$5 rc=0; shift 6
  "$@" >"$out" 2>&1 || rc=$?
  if [ "$rc" -ge 128 ]; then echo "killed by signal $((rc - 128))"
  elif grep -q 'Stack dump\|PLEASE submit a bug report' "$out"; then echo "crash report in output"
  elif [ "$rc" != "$want_rc" ]; then echo "exit $rc, wanted $want_rc"
  elif ! grep -qF -- "$want" "$out"; then echo "no message '$want'"
  elif [ -n "$file" ] && [ "$mode" = same ] && ! cmp -s "$file" "$file.before"; then
    echo "file changed"
  elif [ -n "$file" ] && [ "$mode" = fixed ] && ! cmp -s "$file" "$expected_fixed"; then
    echo "file is neither the original nor the complete fix"
  fi
}

# check TOOL NAME WANT_RC WANT_MESSAGE FILE MODE -- ARGS...
check() {
  local tool=$1 name=$2 want_rc=$3 want=$4 file=$5 mode=$6; shift 7
  local label="$name ($(basename "${tool%% *}"))" why
  why=$(why_not "$want_rc" "$want" "$file" "$mode" "$work/out" -- "$@")
  if [ -z "$why" ]; then
    passed=$((passed + 1)); echo "ok    $label: exit $want_rc, '$want'"
  elif [[ $known_failures == *" $name "* ]]; then
    xfailed=$((xfailed + 1)); echo "xfail $label: $why (known: tests/robustness/repro/)"
  else
    failed=$((failed + 1)); echo "FAIL  $label: $why"; sed 's/^/      /' "$work/out" | head -20
  fi
  if [[ -z $why && $known_failures == *" $name "* ]]; then
    echo "XPASS $label: passes now, take it off known_failures"
  fi
}

# fresh NAME SOURCE: a copy of SOURCE to run on, and its .before twin.
fresh() { cp "$2" "$work/$1"; cp "$2" "$work/$1.before"; echo "$work/$1"; }

# clang before 17 says only "error reading '<file>'", without the reason:
# the file is named, the cause is the OS's to tell.
major=$("$tidy" --version | sed -n 's/.*version \([0-9]*\).*/\1/p' | head -1)
unreadable_msg="Permission denied" directory_msg="Is a directory"
if [ "${major:-0}" -lt 17 ]; then
  unreadable_msg="error reading '$work/unreadable.c'" directory_msg="error reading '$work/a-directory.c'"
fi

tools=("$tidy --load=$plugin")
[ -n "$binary" ] && tools+=("$binary")
# What a normal run makes of the source, for the missing-database case: the
# golden expectation of the same case, checked in and reviewed, never made by
# the tool under test (a tool that fixed nothing without flags would agree
# with itself).
expected_fixed=$src.fixed
for tool in "${tools[@]}"; do
  read -r -a t <<<"$tool"
  t+=(-checks='-*,hotpath-*' --fix)

  f=$(fresh noparse.c "$work/noparse.pristine.c")
  check "$tool" does-not-parse 1 "Fixes have NOT been applied" "$f" same -- "${t[@]}" "$f" -- -std=c11

  f=$(fresh no-db.c "$work/pristine.c")
  check "$tool" missing-compile-db 0 "Running without flags" "$f" fixed -- "${t[@]}" -p "$work/empty-db" "$f"

  f=$(fresh unreadable.c "$work/pristine.c"); chmod 000 "$f"
  if [ "$(id -u)" = 0 ]; then  # root reads anything: drop to nobody for this one
    check "$tool" unreadable-file 1 "$unreadable_msg" "" same -- \
      setpriv --reuid=nobody --regid=nogroup --clear-groups "${t[@]}" "$f" -- -std=c11
  else
    check "$tool" unreadable-file 1 "$unreadable_msg" "" same -- "${t[@]}" "$f" -- -std=c11
  fi
  chmod 644 "$f"; cmp -s "$f" "$f.before" || { failed=$((failed + 1)); echo "FAIL  unreadable-file: file changed"; }

  check "$tool" missing-file 1 "no such file or directory" "" same -- "${t[@]}" "$work/no-such.c" -- -std=c11
  check "$tool" directory-as-file 1 "$directory_msg" "" same -- "${t[@]}" "$work/a-directory.c" -- -std=c11

  f=$(fresh wrong-type.c "$work/pristine.c")
  check "$tool" rules-wrong-type 1 "wrong-type.yaml:1:" "$f" same -- \
    "${t[@]}" "$(opt RuleSet "$work/wrong-type.yaml")" "$f" -- -std=c11
  f=$(fresh empty-rules.c "$work/pristine.c")
  check "$tool" rules-empty 1 "empty.yaml: the rule set is empty" "$f" same -- \
    "${t[@]}" "$(opt RuleSet "$work/empty.yaml")" "$f" -- -std=c11
  f=$(fresh binary-rules.c "$work/pristine.c")
  check "$tool" rules-binary 1 "binary.yaml:1:" "$f" same -- \
    "${t[@]}" "$(opt RuleSet "$work/binary.yaml")" "$f" -- -std=c11
  f=$(fresh missing-rules.c "$work/pristine.c")
  check "$tool" rules-missing 1 "no-such-rules.yaml" "$f" same -- \
    "${t[@]}" "$(opt RuleSet "$work/no-such-rules.yaml")" "$f" -- -std=c11
  f=$(fresh empty-profile.c "$work/pristine.c")
  check "$tool" profile-empty 1 "empty.perf': no samples in it" "$f" same -- \
    "${t[@]}" "$(opt Profile "$work/empty.perf")" "$f" -- -std=c11
  f=$(fresh binary-profile.c "$work/pristine.c")
  check "$tool" profile-binary 1 "binary.perf': not a text profile" "$f" same -- \
    "${t[@]}" "$(opt Profile "$work/binary.perf")" "$f" -- -std=c11
  f=$(fresh cut-index.c "$work/pristine.c")
  check "$tool" index-malformed 1 "cut-index.json: not valid JSON" "$f" same -- \
    "${t[@]}" "$(opt ProjectIndex "$work/cut-index.json")" "$f" -- -std=c11
  f=$(fresh v99-index.c "$work/pristine.c")
  check "$tool" index-other-version 1 "v99-index.json: project index version 99, and this hotpath-tidy reads version 7" "$f" same -- \
    "${t[@]}" "$(opt ProjectIndex "$work/v99-index.json")" "$f" -- -std=c11
  f=$(fresh missing-index.c "$work/pristine.c")
  check "$tool" index-missing 1 "no-such-index.json: cannot read the project index" "$f" same -- \
    "${t[@]}" "$(opt ProjectIndex "$work/no-such-index.json")" "$f" -- -std=c11
done
# hotpath-tidy's own index: a shard that does not read stops the run (exit 2),
# naming it, before any TU is checked or fixed.
if [ -n "$binary" ]; then
  mkdir "$work/idx-db"
  cp "$work/pristine.c" "$work/idx-db/two.c"
  printf '[{"directory": "%s", "file": "two.c", "arguments": ["cc", "-std=c11", "-c", "two.c"]}]\n' \
    "$work/idx-db" >"$work/idx-db/compile_commands.json"
  "$binary" --index-only -p "$work/idx-db" >/dev/null 2>&1
  shard=$(ls "$work"/idx-db/hotpath-index/shards/*.json)
  printf '{"format": "hotpath-project-index", "version": 7, "kind": "shard", "files": [' >"$shard"
  cp "$work/idx-db/two.c" "$work/idx-db/two.c.before"
  check "$binary" index-shard-malformed 2 "$shard: not valid JSON" "$work/idx-db/two.c" same -- \
    "$binary" -p "$work/idx-db" --fix
  # An older hotpath-tidy's shard is a cache to rebuild, not an error.
  printf '{"format": "hotpath-project-index", "version": 2, "kind": "shard", "files": []}\n' >"$shard"
  check "$binary" index-shard-older 0 "1 of 1 translation unit indexed, 0 up to date, 1 rebuilt from an older hotpath-tidy" \
    "$work/idx-db/two.c" same -- "$binary" --index-only -p "$work/idx-db"
fi
# Negative control: a tool that goes on without flags, as clang-tidy does, but
# fixes nothing, must fail the missing-database case.
printf '#!/bin/sh\necho "Running without flags."\n' >"$work/no-fix-tool" && chmod +x "$work/no-fix-tool"
f=$(fresh control.c "$work/pristine.c")
why=$(why_not 0 "Running without flags" "$f" fixed "$work/out" -- "$work/no-fix-tool" -p "$work/empty-db" "$f")
if [ "$why" = "file is neither the original nor the complete fix" ]; then
  passed=$((passed + 1)); echo "ok    control: a tool that fixes nothing without a database -> fails ('$why')"
else
  failed=$((failed + 1)); echo "FAIL  control: a tool that fixes nothing without a database: '$why'"
fi
echo "$passed passed, $failed failed, $xfailed known failures"
[ "$failed" = 0 ]
