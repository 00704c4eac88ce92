#!/usr/bin/env bash
# End to end on samples/slab-alloc (hotpath-hook-gate): the real clang-tidy
# with the module fixes a copy of the sample (C11, and the same sources as
# C++17); the fixed program compiles with -Wall -Wextra -Werror under gcc
# and clang in both languages, prints the same results as the original with
# the gate off, and with the gate switched on at run time injects exactly the
# same failures as the original in a fault-injection build; the fast path of
# kmem_cache_alloc makes no call; --export-fixes + clang-apply-replacements
# gives the same files as --fix; a second --fix changes nothing.
# Usage: sample-slab-alloc-hook.sh CLANG_TIDY PLUGIN
set -euo pipefail
tidy=$1 plugin=$(realpath "$2")
here=$(cd "$(dirname "$0")" && pwd)
sample=$(cd "$here/../../samples/slab-alloc" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "ok   $*"; }
bad() { failed=$((failed + 1)); echo "FAIL $*"; }
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
if [ "$(grep -c '^#include <stdatomic.h>' "$work/after/slab.h")" = 1 ] &&
   [ "$(grep -c '^atomic_bool should_fail_alloc_gate;' "$work/after/fault.c")" = 1 ] &&
   ! grep -q should_fail_alloc_gate "$work/after/main.c"; then
  ok "gate declared once in slab.h, defined once in fault.c"
else
  bad "gate not declared/defined exactly once"; cat "$work/after/slab.h"
fi

# The switch that turns the gate on at run time, linked into the fixed program.
cat >"$work/gate_on.c" <<'C'
#include "slab.h"
__attribute__((constructor)) static void gate_on(void) { should_fail_alloc_gate_enable(); }
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
     (cd "$work/$dir" && cp "$work/gate_on.c" . && "$cc" $lang -O2 -Wall -Wextra -Werror -DCONFIG_FAIL_ALLOC \
        -o "$work/fixed-fi-on" "${srcs[@]}" gate_on.c && rm gate_on.c); then
    ok "$tag: original and fixed compile with -Wall -Wextra -Werror"
  else
    bad "$tag: compile"; continue
  fi
  for args in "20000 1 0" "20000 5 0"; do
    # shellcheck disable=SC2086
    if cmp -s <("$work/before" $args) <("$work/fixed" $args); then ok "$tag '$args': same results"
    else bad "$tag '$args': results differ"; fi
  done
  for args in "5000 1 3" "5000 2 7" "20000 3 97" "300 4 1"; do
    # shellcheck disable=SC2086
    "$work/before-fi" $args >"$work/b.out"
    # shellcheck disable=SC2086
    "$work/fixed-fi-on" $args >"$work/a.out"
    n=$(grep -c '^fail ' "$work/b.out" || true)
    if [ "$n" -gt 0 ] && cmp -s "$work/b.out" "$work/a.out"; then
      ok "$tag fault injection '$args', gate on: the same $n failures at the same steps"
    else
      bad "$tag fault injection '$args': failure sequences differ"; diff "$work/b.out" "$work/a.out" | head -5 || true
    fi
    # shellcheck disable=SC2086
    if [ "$("$work/fixed-fi" $args | grep -c '^fail ' || true)" = 0 ]; then
      ok "$tag fault injection '$args', gate off: the hook is not called"
    else
      bad "$tag '$args': failures injected with the gate off"
    fi
  done
done

# The fast path makes no call: kmem_cache_alloc's entry block sets up no frame.
for cc in gcc clang-19; do
  (cd "$work/after" && "$cc" -std=c11 -O2 -c slab.c -o "$work/slab-$cc.o")
  r=$(bash "$sample/count-branches.sh" "$work/slab-$cc.o" kmem_cache_alloc)
  if [[ $r != *frame* ]] && ! objdump -d "$work/slab-$cc.o" | awk '/<kmem_cache_alloc>:/,/^$/' | grep -q 'call.*should_fail_alloc'; then
    ok "$cc: kmem_cache_alloc keeps no frame and does not call the hook ($r)"
  else
    bad "$cc: kmem_cache_alloc fast path: $r"
  fi
done

# Whole-project route: one --export-fixes per TU, clang-apply-replacements.
bin=$(dirname "$(realpath "$(command -v "$tidy")")")
car=$bin/clang-apply-replacements
[ -x "$car" ] || car=$(command -v clang-apply-replacements-19 || true)
if [ -n "$car" ]; then
  mkdir -p "$work/exp" "$work/fixes"
  cp "$sample"/*.c "$sample"/*.h "$work/exp/"
  config='{Checks: "-*,hotpath-*", CheckOptions: [{key: hotpath-hook-gate.HookFunctions, value: "should_fail_alloc=false"}]}'
  for f in "${srcs[@]}" slab.c; do
    (cd "$work/exp" && "$tidy" --load="$plugin" --config="$config" \
       --export-fixes="$work/fixes/$RANDOM-$f.yaml" "$f" -- -std=c11 >/dev/null 2>&1) || true
  done
  "$car" "$work/fixes"
  if diff -r -x '*.o' "$work/after" "$work/exp" >/dev/null; then
    ok "export-fixes + clang-apply-replacements = --fix (header edit deduplicated)"
  else
    bad "export-fixes route differs"; diff -ru "$work/after" "$work/exp" | head -30
  fi
fi

# Idempotent: a second run finds nothing and changes nothing.
for dir in after afterxx; do
  lang=-std=c11
  [ "$dir" = afterxx ] && lang="-x c++ -std=c++17"
  cp -r "$work/$dir" "$work/again-$dir"
  (cd "$work/again-$dir" && "$tidy" --load="$plugin" -checks='-*,hotpath-*' \
     --config='{CheckOptions: [{key: hotpath-hook-gate.HookFunctions, value: "should_fail_alloc=false"}]}' \
     --fix "${srcs[@]}" -- $lang) >"$work/tidy2.out" 2>&1 || true
  if diff -r "$work/$dir" "$work/again-$dir" >/dev/null && ! grep -q 'hotpath-hook-gate\]' "$work/tidy2.out"; then
    ok "$dir: second --fix run: no findings, no changes"
  else
    bad "$dir: second run changed something"; grep 'warning' "$work/tidy2.out"; diff -ru "$work/$dir" "$work/again-$dir" | head -20
  fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
