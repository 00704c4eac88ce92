#!/usr/bin/env bash
# Every route README.md names gives the same result (issue 24): hotpath-tidy
# --fix; run-clang-tidy -fix (which passes -ignore-insert-conflict to
# clang-apply-replacements); per-file clang-tidy --fix, one file at a time;
# --export-fixes per file + clang-apply-replacements, with and without
# -ignore-insert-conflict. The clang-tidy routes run with the project index
# (ProjectIndex in -config, built by hotpath-tidy --index-only) and without.
#
# 1. effect/: a disabled ASSERT in dbg.h; a.c's use costs a call, b.c's
#    increments n. No route may rewrite ASSERT: the program prints the same
#    before and after, on every route.
# 2. clean/: the same with b.c's use harmless. With the index every route
#    gives exactly the same fixed dbg.h (the rewrite); without it every
#    route gives none (a header's uses are unknown), with the note naming
#    ProjectIndex.
# 3. hook/: a hook defined in hook.c (HookEnablers set), called hot in
#    user.c. A route makes the gate only with a gated call, never the gate
#    alone (a dead gate); with the index every route gives hotpath-tidy's
#    fixed files; the fixed program builds with -Wall -Werror and prints
#    the same.
# Usage: routes.sh LLVM_BIN_DIR PLUGIN HOTPATH_TIDY
set -euo pipefail
bin=$1 plugin=$(realpath "$2") driver=$(realpath "$3")
tidy=$bin/clang-tidy
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
major=$("$tidy" --version | sed -n 's/.*LLVM version \([0-9]*\).*/\1/p')
run_tidy_script=$(command -v "run-clang-tidy-$major" || echo "$bin/run-clang-tidy")

# database TREE FILES...: compile_commands.json in TREE for FILES.
database() {
  local tree=$1 sep= f
  shift
  {
    printf '['
    for f in "$@"; do
      printf '%s{"directory": "%s", "file": "%s", "arguments": ["cc", "-std=c11", "-c", "%s"]}' \
        "$sep" "$tree" "$f" "$f"
      sep=,
    done
    printf ']\n'
  } >"$tree/compile_commands.json"
}

mkdir -p "$work/effect"
cat >"$work/effect/dbg.h" <<'H'
#ifndef DBG_H
#define DBG_H
#ifdef DEBUG
#define ASSERT(x) ((x) ? (void)0 : __builtin_trap())
#else
#define ASSERT(x) (void)(x)
#endif
#endif
H
cat >"$work/effect/a.c" <<'C'
#include "dbg.h"
int sorted(const int *v, int n);
int first(const int *v, int n)
{
	ASSERT(sorted(v, n));
	return v[0];
}
C
cat >"$work/effect/b.c" <<'C'
#include "dbg.h"
int calls;
int next(int n)
{
	ASSERT((calls = ++n) > 0);
	return n;
}
C
cat >"$work/effect/main.c" <<'C'
#include <stdio.h>
int first(const int *v, int n);
int next(int n);
extern int calls;
int sorted(const int *v, int n)
{
	for (int i = 1; i < n; i++)
		if (v[i - 1] > v[i])
			return 0;
	return 1;
}
int main(void)
{
	int v[] = {1, 2, 3};
	int a = next(0), b = next(a);
	printf("%d %d %d %d\n", first(v, 3), a, b, calls);
	return 0;
}
C
cp -r "$work/effect" "$work/clean"
sed -i 's/ASSERT((calls = ++n) > 0);/ASSERT(n >= 0); calls = ++n;/' "$work/clean/b.c"
srcs=(a.c b.c main.c)

# route NAME TREE INDEX: fixes TREE by route NAME; INDEX yes or no. The
# clang-tidy routes get the index through -config, as README.md says.
route() {
  local name=$1 tree=$2 index=$3 rc=0 f
  local base=(-checks='-*,hotpath-*' -header-filter='.*')
  local opts="ChainHeatThreshold: 5, HookEnablers: 'trace_hook=trace_enable'"
  local cfg=(-config="{CheckOptions: {$opts}}")
  database "$tree" "${srcs[@]}"
  # hotpath-tidy builds and names its index itself.
  if [ "$index" = yes ] && [ "$name" != hotpath-tidy ]; then
    "$driver" --index-only -p "$tree" >"$tree/index.log" 2>&1 || { echo "  index: exit $?"; return 1; }
    cfg=(-config="{CheckOptions: {ProjectIndex: $tree/hotpath-index, $opts}}")
  fi
  case $name in
    hotpath-tidy)
      "$driver" -p "$tree" --fix "${cfg[@]}" >"$tree/route.log" 2>&1 || rc=$?
      [ "$rc" -le 1 ] || { echo "  hotpath-tidy: exit $rc"; cat "$tree/route.log"; return 1; } ;;
    run-clang-tidy)
      (cd "$tree" && "$run_tidy_script" -clang-tidy-binary "$tidy" \
         -clang-apply-replacements-binary "$bin/clang-apply-replacements" -load "$plugin" \
         "${base[@]}" "${cfg[@]}" -p . -fix -quiet) >"$tree/route.log" 2>&1 ||
        { echo "  run-clang-tidy: exit $?"; cat "$tree/route.log"; return 1; } ;;
    per-file)
      for f in "${srcs[@]}"; do
        (cd "$tree" && "$tidy" --load="$plugin" "${base[@]}" "${cfg[@]}" -p . --fix "$f") \
          >>"$tree/route.log" 2>&1 || { echo "  clang-tidy --fix $f: exit $?"; return 1; }
      done ;;
    export|export-ignore)
      mkdir -p "$tree/fixes"
      for f in "${srcs[@]}"; do
        (cd "$tree" && "$tidy" --load="$plugin" "${base[@]}" "${cfg[@]}" -p . \
           --export-fixes="fixes/$f.yaml" "$f") >>"$tree/route.log" 2>&1 ||
          { echo "  clang-tidy --export-fixes $f: exit $?"; return 1; }
      done
      local ignore=()
      [ "$name" = export-ignore ] && ignore=(-ignore-insert-conflict)
      "$bin/clang-apply-replacements" "${ignore[@]}" "$tree/fixes" >>"$tree/route.log" 2>&1 ||
        { echo "  clang-apply-replacements: exit $?"; return 1; }
      rm -rf "$tree/fixes" ;;
  esac
  rm -rf "$tree/hotpath-index" "$tree/compile_commands.json"
}

# output TREE: what the program built from TREE prints.
output() {
  (cd "$1" && gcc -std=c11 -O2 -Wall -Werror -o prog "${srcs[@]}" && ./prog) 2>&1
}

routes=(hotpath-tidy run-clang-tidy per-file export export-ignore)
want=$(output "$work/effect")
[ "$want" = "1 1 2 2" ] || bad "the original program prints '$want', not '1 1 2 2'"

# 1. A side-effecting use in another TU: no route changes behaviour.
for r in "${routes[@]}"; do
  for index in yes no; do
    [ "$r" = hotpath-tidy ] && [ "$index" = no ] && continue # it always indexes
    t=$work/effect-$r-$index
    cp -r "$work/effect" "$t"
    if route "$r" "$t" "$index" && got=$(output "$t") && [ "$got" = "$want" ] &&
       cmp -s "$work/effect/dbg.h" "$t/dbg.h"; then
      ok "effect, $r, index $index: dbg.h unchanged, prints '$got' as before"
    else
      bad "effect, $r, index $index: prints '${got:-?}' (before: '$want')"; diff -u "$work/effect/dbg.h" "$t/dbg.h" || true
    fi
  done
done

# Control: the rewrite these routes must refuse does change what it prints.
cp -r "$work/effect" "$work/effect-control"
sed -i 's|#define ASSERT(x) (void)(x)|#define ASSERT(x) ((void)(0 \&\& !!(x)))|' "$work/effect-control/dbg.h"
if [ "$(output "$work/effect-control")" != "$want" ]; then
  ok "control: the rewrite of ASSERT changes the output ('$(output "$work/effect-control")')"
else
  bad "control: the rewrite of ASSERT does not change the output"
fi

# 2. No such use: the same fixed files on every route.
rewritten='#define ASSERT(x) ((void)(0 && !!(x)))'
for index in yes no; do
  for r in "${routes[@]}"; do
    [ "$r" = hotpath-tidy ] && [ "$index" = no ] && continue
    t=$work/clean-$r-$index
    cp -r "$work/clean" "$t"
    route "$r" "$t" "$index" || { bad "clean, $r, index $index: the route failed"; continue; }
    if [ "$index" = yes ]; then
      grep -q -F "$rewritten" "$t/dbg.h" && cmp -s "$work/clean-hotpath-tidy-yes/dbg.h" "$t/dbg.h" &&
        same=yes || same=no
      what="dbg.h rewritten, the same as hotpath-tidy's"
    else
      cmp -s "$work/clean/dbg.h" "$t/dbg.h" &&
        grep -q "no fix: 'ASSERT' is defined in dbg.h, .* with ProjectIndex" "$t/route.log" && same=yes || same=no
      what="no fix, the note names ProjectIndex"
    fi
    if [ "$same" = yes ]; then
      ok "clean, $r, index $index: $what"
    else
      bad "clean, $r, index $index"; diff -u "$work/clean/dbg.h" "$t/dbg.h" || true; grep -i "no fix" "$t/route.log" || true
    fi
    [ "$(output "$t")" = "$(output "$work/clean")" ] || bad "clean, $r, index $index: the fixed program prints otherwise"
  done
done

# 3. A gate and its calls in two TUs.
mkdir -p "$work/hook"
cat >"$work/hook/hook.h" <<'H'
#ifndef HOOK_H
#define HOOK_H
int trace_hook(int v);
#endif
H
# noinline: a hook in its own TU without the index too, so that TU alone
# could make the gate (the dead gate of issue 24).
cat >"$work/hook/hook.c" <<'C'
#include "hook.h"
__attribute__((noinline)) int trace_hook(int v)
{
	(void)v;
	return 0;
}
C
cat >"$work/hook/user.c" <<'C'
#include <stdio.h>
#include "hook.h"
static long work(int n)
{
	long sum = 0;
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
			sum += trace_hook(i + j) + i;
	return sum;
}
int main(void)
{
	printf("%ld\n", work(100));
	return 0;
}
C
srcs=(hook.c user.c)
hook_output() { (cd "$1" && gcc -std=c11 -O2 -Wall -Werror -o prog hook.c user.c && ./prog) 2>&1; }
hwant=$(hook_output "$work/hook")
for r in "${routes[@]}"; do
  for index in yes no; do
    [ "$r" = hotpath-tidy ] && [ "$index" = no ] && continue
    t=$work/hook-$r-$index
    cp -r "$work/hook" "$t"
    route "$r" "$t" "$index" || { bad "hook, $r, index $index: the route failed"; continue; }
    gate=no gated=no
    grep -q 'trace_hook_gate' "$t/hook.c" && gate=yes
    grep -q 'trace_hook_gate.*trace_hook(' "$t/user.c" && gated=yes
    if [ "$index" = yes ] && [ "$r" != hotpath-tidy ]; then
      for f in hook.h hook.c user.c; do
        cmp -s "$work/hook-hotpath-tidy-yes/$f" "$t/$f" || { bad "hook, $r: $f is not hotpath-tidy's"; diff -u "$work/hook-hotpath-tidy-yes/$f" "$t/$f" || true; }
      done
    fi
    got=$(hook_output "$t" || true)
    if [ "$gate" = "$gated" ] && [ "$got" = "$hwant" ] && { [ "$index" = no ] || [ "$gate" = yes ]; }; then
      ok "hook, $r, index $index: gate defined $gate, call gated $gated; builds with -Wall -Werror, prints '$got'"
    else
      bad "hook, $r, index $index: gate defined $gate, call gated $gated, prints '$got' (before '$hwant')"
      diff -u "$work/hook/hook.c" "$t/hook.c" || true; diff -u "$work/hook/user.c" "$t/user.c" || true
    fi
  done
done
# Control: the dead-gate test notices a gate with no gated call.
t=$work/hook-hotpath-tidy-yes
if [ -d "$t" ] && cp "$work/hook/user.c" "$t/user.c" && ! grep -q 'trace_hook_gate.*trace_hook(' "$t/user.c" &&
   grep -q 'trace_hook_gate' "$t/hook.c"; then
  ok "control: hotpath-tidy's gate with user.c's call put back ungated reads as a dead gate"
else
  bad "control: no gate to leave dead"
fi
finish
