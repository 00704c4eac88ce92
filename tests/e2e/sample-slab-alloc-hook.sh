#!/usr/bin/env bash
# End to end on samples/slab-alloc (hotpath-hook-gate): the real clang-tidy
# with the module fixes a copy of the sample (C11, and the same sources as
# C++17); the fixed program compiles with -Wall -Wextra -Werror under gcc
# and clang in both languages, gives the same stdout, stderr and exit status
# as the original, also in the fault-injection build (-DCONFIG_FAIL_ALLOC),
# where the hook's body differs and its gate starts on: exactly the same
# failures at the same steps, and none once the gate is switched off at run
# time; the call site reads `if (gate() && hook(...))`, nothing cloned and
# nothing left over; with CloneCallers (CLONE=1 fix.sh), in the linked
# binary, kmem_cache_alloc's fast path reaches no hook, keeps no stack frame
# and has one conditional branch more than the build without the hook (the
# unfixed build must fail that check); --export-fixes +
# clang-apply-replacements gives the same files as --fix; a second --fix
# exits 0, finds nothing and changes nothing.
# Usage: sample-slab-alloc-hook.sh CLANG_TIDY PLUGIN
set -euo pipefail
tidy=$1 plugin=$(realpath "$2")
here=$(cd "$(dirname "$0")" && pwd)
sample=$(cd "$here/../../samples/slab-alloc" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck source=lib.sh
source "$here/lib.sh"
srcs=(slab.c fault.c main.c)

"$sample/fix.sh" "$work/after" "$tidy" "$plugin" >"$work/findings.txt"
LANG_ARGS="-x c++ -std=c++17" "$sample/fix.sh" "$work/afterxx" "$tidy" "$plugin" >"$work/findings-xx.txt"
for want in \
  "slab.c:61:6: warning: hot call to hook 'should_fail_alloc', which does nothing unless switched on; test an inline gate first so the disabled case makes no call [hotpath-hook-gate]" \
  "slab.h:26:6: warning: hook 'should_fail_alloc' has no inline gate; declare one next to it, off by default, with setters to switch the hook on at run time [hotpath-hook-gate]" \
  "fault.c:20:32: warning: hook 'should_fail_alloc' is called out of line even while it does nothing; define its gate here, next to it [hotpath-hook-gate]"; do
  if grep -q -F "$want" "$work/findings.txt" && grep -q -F "$want" "$work/findings-xx.txt"; then
    ok "finding: ${want%%:*}"
  else
    bad "finding missing: $want"; cat "$work/findings.txt"
  fi
done
if [ "$(grep -c '^extern .*bool should_fail_alloc_gate;' "$work/after/slab.h")" = 1 ] &&
   [ "$(grep -c '^bool should_fail_alloc_gate;' "$work/after/fault.c")" = 1 ] &&
   ! grep -q should_fail_alloc_gate "$work/after/main.c"; then
  ok "gate declared once in slab.h, defined once in fault.c"
else
  bad "gate not declared/defined exactly once"; cat "$work/after/slab.h"
fi
if grep -qxF $'\tif (should_fail_alloc_gate_enabled() && should_fail_alloc(s, flags)) {' "$work/after/slab.c" &&
   ! grep -qE '_hooked|gated above' "$work/after/slab.c" "$work/afterxx/slab.c" &&
   [ "$(diff "$sample/slab.c" "$work/after/slab.c" | grep -c '^>')" = 1 ]; then
  ok "the call site reads 'if (gate() && hook(...))': one line changed, nothing cloned or left over"
else
  bad "the default fix is not the one-line call-site gate"; diff "$sample/slab.c" "$work/after/slab.c"
fi
CLONE=1 "$sample/fix.sh" "$work/clone" "$tidy" "$plugin" >/dev/null

# The switch that turns the gate off at run time, linked into the fixed
# program. In the fault-injection build (-DCONFIG_FAIL_ALLOC) the hook's
# body is not the empty one the fix saw: its gate starts on there, so that
# build behaves as before with no switching, and the switch turns it off.
cat >"$work/gate_off.c" <<'C'
#include "slab.h"
__attribute__((constructor)) static void gate_off(void) { should_fail_alloc_gate_disable(); }
C

build() { # dir compiler lang-args out [extra defines/files...]
  local dir=$1 cc=$2 lang=$3 out=$4
  shift 4
  # shellcheck disable=SC2086
  (cd "$dir" && "$cc" $lang -O2 -Wall -Wextra -Werror "$@" -o "$out" "${srcs[@]}")
}
for pair in "gcc:-std=c11:after" "clang-19:-std=c11:after" "g++:-x c++ -std=c++17:afterxx" "clang++-19:-x c++ -std=c++17:afterxx"; do
  IFS=: read -r cc lang dir <<<"$pair"
  tag="$cc $(echo "$lang" | awk '{print $NF}')"
  if build "$sample" "$cc" "$lang" "$work/before" && build "$work/$dir" "$cc" "$lang" "$work/fixed" &&
     build "$sample" "$cc" "$lang" "$work/before-fi" -DCONFIG_FAIL_ALLOC &&
     build "$work/$dir" "$cc" "$lang" "$work/fixed-fi" -DCONFIG_FAIL_ALLOC &&
     (cd "$work/$dir" && cp "$work/gate_off.c" . && "$cc" $lang -O2 -Wall -Wextra -Werror -DCONFIG_FAIL_ALLOC \
        -o "$work/fixed-fi-off" "${srcs[@]}" gate_off.c && rm gate_off.c); then
    ok "$tag: original and fixed compile with -Wall -Wextra -Werror"
  else
    bad "$tag: compile"; continue
  fi
  for args in "20000 1 0" "20000 5 0" "20000 5 3"; do
    # shellcheck disable=SC2086
    if same_behaviour "$work/before" "$work/fixed" $args; then ok "$tag '$args': same stdout, stderr, exit status"
    else bad "$tag '$args': behaviour differs"; fi
  done
  for args in "5000 1 3" "5000 2 7" "20000 3 97" "300 4 1"; do
    # shellcheck disable=SC2086
    same_behaviour "$work/before-fi" "$work/fixed-fi" $args && same=1 || same=0
    n=$(grep -c '^fail ' "$work/beh/a.out" || true)
    if [ "$n" -gt 0 ] && [ "$same" = 1 ]; then
      ok "$tag fault injection '$args', gate as it starts: the same $n failures at the same steps, same stderr and exit status"
    else
      bad "$tag fault injection '$args': the hook fired $n times in the original; behaviour differs or it never fired"
    fi
    # shellcheck disable=SC2086
    run_captured "$work/off" "$work/fixed-fi-off" $args
    if [ "$(cat "$work/off.rc")" = 0 ] && ! grep -q '^fail ' "$work/off.out"; then
      ok "$tag fault injection '$args', gate switched off: the hook is not called"
    else
      bad "$tag '$args': failures injected with the gate switched off"
    fi
  done
done

# The fast path in the linked C binaries of the clone shape: kmem_cache_alloc
# tests the gate, reaches the hook only through its cold clone, and keeps no
# frame.
cp -r "$sample" "$work/nohook" && cp "$sample"/variants/nohook/* "$work/nohook/"
fastpath() { # binary cc
  python3 "$here/fastpath.py" "$1" kmem_cache_alloc --baseline "$work/nohook-$2" --plus 1 \
    --slow kmem_cache_alloc_hooked --slow alloc_from_new_slab --forbid should_fail_alloc --no-frame
}
for cc in gcc clang-19; do
  build "$sample" "$cc" -std=c11 "$work/before-$cc"
  build "$work/clone" "$cc" -std=c11 "$work/clone-$cc"
  build "$work/nohook" "$cc" -std=c11 "$work/nohook-$cc"
  if r=$(fastpath "$work/clone-$cc" "$cc"); then ok "$cc CloneCallers: ${r#ok }"; else bad "$cc CloneCallers: ${r#FAIL }"; fi
  if same_behaviour "$work/before-$cc" "$work/clone-$cc" 20000 5 3; then ok "$cc CloneCallers: same behaviour"
  else bad "$cc CloneCallers: behaviour differs"; fi
  # Negative control: the unfixed build calls the hook first thing.
  expect_failure "$cc unfixed kmem_cache_alloc" "reaches should_fail_alloc" fastpath "$work/before-$cc" "$cc"
done

# Whole-project route: one --export-fixes per TU, clang-apply-replacements
# (clang-tools-19, installed by scripts/install-deps.sh: missing is a failure).
bin=$(dirname "$(realpath "$(command -v "$tidy")")")
car=$bin/clang-apply-replacements
[ -x "$car" ] || car=$(command -v clang-apply-replacements-19 || true)
if [ -z "$car" ]; then
  bad "no clang-apply-replacements next to $tidy nor on PATH (scripts/install-deps.sh installs clang-tools-19)"
else
  mkdir -p "$work/exp" "$work/fixes"
  cp "$sample"/*.c "$sample"/*.h "$work/exp/"
  config='{Checks: "-*,hotpath-*", CheckOptions: [{key: hotpath-hook-gate.HookFunctions, value: "should_fail_alloc=false"}, {key: hotpath-hook-gate.HookEnablers, value: "should_fail_alloc=fault_inject_setup()"}]}'
  rcs=
  for f in "${srcs[@]}" slab.c; do
    rc=0
    (cd "$work/exp" && "$tidy" --load="$plugin" --config="$config" \
       --export-fixes="$work/fixes/$RANDOM-$f.yaml" "$f" -- -std=c11 >/dev/null 2>&1) || rc=$?
    rcs+=" $rc"
  done
  rc=0
  "$car" "$work/fixes" || rc=$?
  if [ "$rcs" != " 0 0 0 0" ] || [ "$rc" != 0 ]; then
    bad "export route: clang-tidy exited$rcs, clang-apply-replacements $rc"
  elif diff -r -x '*.o' "$work/after" "$work/exp" >/dev/null; then
    ok "export-fixes + clang-apply-replacements = --fix (header edit deduplicated)"
  else
    bad "export-fixes route differs"; diff -ru "$work/after" "$work/exp" | head -30
  fi
fi

# Idempotent: a second run exits 0, finds nothing and changes nothing.
for dir in after afterxx; do
  lang=(-std=c11)
  [ "$dir" = afterxx ] && lang=(-x c++ -std=c++17)
  if second_run_clean "$work/$dir" "$work/tidy2.out" "$tidy" --load="$plugin" -checks='-*,hotpath-*' \
       --config='{CheckOptions: [{key: hotpath-hook-gate.HookFunctions, value: "should_fail_alloc=false"}, {key: hotpath-hook-gate.HookEnablers, value: "should_fail_alloc=fault_inject_setup()"}]}' \
       --fix "${srcs[@]}" -- "${lang[@]}"; then
    ok "$dir: second --fix run: exit 0, no findings, no changes"
  else
    bad "$dir: second --fix run"
  fi
done
finish
