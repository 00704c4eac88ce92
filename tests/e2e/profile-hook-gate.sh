#!/usr/bin/env bash
# A hook gate's fix set is planned as a unit with a profile too (issue 41):
# samples/slab-alloc's should_fail_alloc() is named as a hook (as the
# linux-kernel preset names should_failslab()), declared in slab.h, defined
# in fault.c, called in slab.c. With --profile the calls were gated and the
# gate declared, but fault.c, which has no hot call of its own, did not
# define it: "undefined reference to `should_fail_alloc_gate'". Now, on each
# route (hotpath-tidy with its index, with --no-index, and per-file
# clang-tidy --fix with Profile in -config):
#   - a profile where the hook is hot: the three parts, a program that links
#     with -Wall -Werror and behaves as the original (with and without
#     CONFIG_FAIL_ALLOC, failures injected or not);
#   - no profile: the same three parts;
#   - a profile where the hook is cold (0.1%): no part at all.
# Controls: the fixed tree with fault.c put back does not link, with the
# message of the report; the behaviour check fails on a program that
# behaves otherwise.
# Usage: profile-hook-gate.sh HOTPATH_TIDY CLANG_TIDY PLUGIN
set -euo pipefail
ht=$(realpath "$1") tidy=$2 plugin=$(realpath "$3")
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck source=lib.sh
source "$here/lib.sh"

orig=$work/orig
mkdir -p "$orig"
cp "$here/../../samples/slab-alloc/"{slab.c,fault.c,main.c,slab.h} "$orig/"
# database DIR: DIR's compile_commands.json, naming DIR.
database() {
  python3 - "$1" <<'PY'
import json, sys
d = sys.argv[1]
json.dump([{"directory": d, "file": f, "arguments": ["cc", "-std=c11", "-O2", "-c", f]}
           for f in ("slab.c", "fault.c", "main.c")], open(d + "/compile_commands.json", "w"))
PY
}
# The hook is named, with what switches it on (samples/slab-alloc/fix.sh).
opts="HookFunctions: 'should_fail_alloc=false', HookEnablers: 'should_fail_alloc=fault_inject_setup()'"
# 1000 samples: the hook 30% (hot), or 0.1% (below ProfileThreshold 0.5%).
printf 'main;kmem_cache_alloc;should_fail_alloc 300\nmain;kmem_cache_alloc 400\nmain 300\n' >"$work/hot.folded"
printf 'main;kmem_cache_alloc;should_fail_alloc 1\nmain;kmem_cache_alloc 400\nmain 599\n' >"$work/cold.folded"

# fix NAME ROUTE PROFILE: a copy of the sample fixed by ROUTE (hotpath-tidy,
# no-index, per-file) with PROFILE ("" for none); $work/NAME.log.
fix() {
  local name=$1 route=$2 prof=$3 t=$work/$1 rc=0 f
  rm -rf "$t"
  cp -r "$orig" "$t"
  database "$t"
  local popt=() cfg="{CheckOptions: {$opts}}"
  case $route in
    hotpath-tidy|no-index)
      [ -n "$prof" ] && popt=(--profile="$prof")
      [ "$route" = no-index ] && popt+=(--no-index)
      (cd "$t" && "$ht" -p . --fix "${popt[@]}" -config="$cfg") >"$work/$name.log" 2>&1 || rc=$?
      [ "$rc" -le 1 ] || { echo "  $name: hotpath-tidy exit $rc"; sed 's/^/    /' "$work/$name.log"; return 1; } ;;
    per-file)
      [ -n "$prof" ] && cfg="{CheckOptions: {$opts, Profile: '$prof'}}"
      for f in slab.c fault.c main.c; do
        (cd "$t" && "$tidy" --load="$plugin" -checks='-*,hotpath-*' -header-filter='.*' \
           -config="$cfg" -p . --fix "$f") >>"$work/$name.log" 2>&1 ||
          { echo "  $name: clang-tidy --fix $f: exit $?"; sed 's/^/    /' "$work/$name.log"; return 1; }
      done ;;
  esac
}

# parts TREE: which of the fix set's three parts TREE has.
parts() {
  local t=$1 p=()
  grep -q 'should_fail_alloc_gate_enabled(void)' "$t/slab.h" && p+=(declared)
  grep -qE '^bool should_fail_alloc_gate( = true)?;' "$t/fault.c" && p+=(defined)
  grep -q 'should_fail_alloc_gate_enabled() && should_fail_alloc(' "$t/slab.c" && p+=(gated)
  echo "${p[*]:-none}"
}

# build TREE OUT [CFLAGS...]: the program, -Wall -Werror.
build() {
  local t=$1 out=$2
  shift 2
  (cd "$t" && gcc -std=c11 -O2 -Wall -Wextra -Werror "$@" -o "$out" slab.c fault.c main.c) 2>&1
}

# behaves TREE: links and runs as the original, in both configurations.
behaves() {
  local t=$1 cfg flags
  for cfg in plain fail; do
    flags=()
    [ $cfg = fail ] && flags=(-DCONFIG_FAIL_ALLOC)
    build "$orig" "$work/orig-$cfg" "${flags[@]}" >/dev/null || { echo "  the original does not build ($cfg)"; return 1; }
    build "$t" "$t/prog-$cfg" "${flags[@]}" || { echo "  $(basename "$t") does not link ($cfg)"; return 1; }
    for args in "1000 1 0" "20000 7 0" "5000 3 7"; do
      # shellcheck disable=SC2086
      same_behaviour "$work/orig-$cfg" "$t/prog-$cfg" $args || return 1
    done
  done
}

for route in hotpath-tidy no-index per-file; do
  fix "$route-hot" "$route" "$work/hot.folded" || { bad "$route, hot profile: the route failed"; continue; }
  got=$(parts "$work/$route-hot")
  if [ "$got" = "declared defined gated" ]; then
    ok "$route, hot profile: the gate declared in slab.h, defined in fault.c, tested in slab.c"
  else
    bad "$route, hot profile: parts '$got'"; diff -u "$orig/fault.c" "$work/$route-hot/fault.c" || true
  fi
  if out=$(behaves "$work/$route-hot"); then
    ok "$route, hot profile: links with -Wall -Werror, behaves as the original (both configurations)"
  else
    bad "$route, hot profile: $out"
  fi

  fix "$route-none" "$route" "" || { bad "$route, no profile: the route failed"; continue; }
  got=$(parts "$work/$route-none")
  [ "$got" = "declared defined gated" ] && ok "$route, no profile: the same three parts" ||
    bad "$route, no profile: parts '$got'"
  for f in slab.h fault.c slab.c; do
    cmp -s "$work/$route-hot/$f" "$work/$route-none/$f" ||
      { bad "$route: $f differs with and without the profile"; diff -u "$work/$route-none/$f" "$work/$route-hot/$f" || true; }
  done

  fix "$route-cold" "$route" "$work/cold.folded" || { bad "$route, cold profile: the route failed"; continue; }
  got=$(parts "$work/$route-cold")
  [ "$got" = none ] && ok "$route, cold profile: no part (neither the gate nor a gated call)" ||
    bad "$route, cold profile: parts '$got'"
done

# Controls. The report's failure: the gate tested and declared, fault.c
# without its definition.
t=$work/control-link
rm -rf "$t" && cp -r "$work/hotpath-tidy-hot" "$t" && cp "$orig/fault.c" "$t/fault.c"
expect_failure "the fixed tree with fault.c's part left out" "undefined reference to \`should_fail_alloc_gate'" behaves "$t"
# A program that prints otherwise.
t=$work/control-behaviour
rm -rf "$t" && cp -r "$work/hotpath-tidy-hot" "$t"
sed -i 's/printf("ops=%lu/printf("opz=%lu/' "$t/main.c"
expect_failure "a fixed program that prints otherwise" "stdout differs" behaves "$t"
finish
