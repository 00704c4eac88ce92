#!/usr/bin/env bash
# End to end on a tree of our own whose hook and check sit under feature
# macros (tests/e2e/configurations/): trace_op() is a hook declared only
# without NO_HOOKS (an inline stand-in with it) whose body acts only with
# TRACE_VERBOSE; ring_check() is a check declared only with RING_CHECKS,
# against a limit RING_STRICT chooses, whose reports print __func__;
# stats_get() is a hook declared under an #ifdef RING_STATS with no #else
# (a macro of its own #if stands in for it without RING_STATS), whose value,
# 3, main() adds up. The real clang-tidy fixes a copy seeing one
# configuration (-DRING_CHECKS -DRING_STATS); the fixed tree must then
# compile with -Wall -Wextra -Werror under gcc and clang and give the same
# stdout, stderr and exit status as the original in every one of the 16
# combinations of NO_HOOKS, RING_CHECKS, RING_STRICT and TRACE_VERBOSE, with
# RING_STATS on in half of them (those with an odd number of the four on, so
# each of the four is seen with and without it), on inputs that make the
# checks and the hook report and that make the program fail. Negative
# controls: the fixed tree without the stand-in gate in trace.h's #else does
# not build with -DNO_HOOKS, nor without the #else the fix adds to stats.h
# without -DRING_STATS, and with __func__ put back in the slow path it
# prints another name; each control's builds are checked to have built and
# run.
# Usage: configurations.sh CLANG_TIDY PLUGIN
set -euo pipefail
tidy=$1 plugin=$(realpath "$2")
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck source=lib.sh
source "$here/lib.sh"

srcs=(check.c ring.c trace.c main.c stats.c)
cp -r "$here/configurations" "$work/before"
cp -r "$here/configurations" "$work/after"
# The callers are in ring.c, the check and the hook in files of their own:
# name them hot, as a profile would, and the hooks with their disabled values
# (their callers cannot see their bodies), as the linux-kernel rule set names
# should_failslab, with what switches them on (a new gate needs that named).
config='{Checks: "-*,hotpath-*", CheckOptions: [{key: HotFunctions, value: "ring_check;ring_put"},
  {key: hotpath-hook-gate.HookFunctions, value: "trace_op=false;stats_get=3"},
  {key: hotpath-hook-gate.HookEnablers, value: "trace_op=a tracing build or a debugger;stats_get=a statistics tool"}]}'
tidy_flags=(-std=c11 -DRING_CHECKS -DRING_STATS)
(cd "$work/after" && "$tidy" --load="$plugin" --config="$config" --fix "${srcs[@]}" -- "${tidy_flags[@]}") \
  >"$work/tidy.out" 2>&1 || { cat "$work/tidy.out"; bad "clang-tidy --fix failed"; }

for want in "check.c:6:6: warning: check function 'ring_check' tests 2 conditions" \
  "ring.c:13:6: warning: hot call to hook 'trace_op'" \
  "trace.h:9:6: warning: hook 'trace_op' has no inline gate" \
  "trace.c:8:32: warning: hook 'trace_op' is called out of line even while it does nothing" \
  "main.c:45:14: warning: hot call to hook 'stats_get'" \
  "stats.h:9:5: warning: hook 'stats_get' has no inline gate"; do
  if grep -q -F "$want" "$work/tidy.out"; then ok "finding: $want"; else bad "finding missing: $want"; fi
done
# What makes every configuration work, in the fixed text.
if grep -q -F '"ring_check", idx' "$work/after/check.c" && ! grep -q __func__ "$work/after/check.c"; then
  ok "__func__ in the slow path became \"ring_check\""
else
  bad "__func__ not replaced"; grep -n 'fprintf' "$work/after/check.c"
fi
if awk '/^#else/ { e = 1 } e && /trace_op_gate_enabled\(void\)/ { f = 1 } e && f && /return 1;/ { ok = 1 }
        END { exit !ok }' "$work/after/trace.h"; then
  ok "trace.h's #else (NO_HOOKS) has a gate that is always on"
else
  bad "no stand-in gate in trace.h's #else"; cat "$work/after/trace.h"
fi
# The #ifdef RING_STATS around stats_get()'s declaration had no #else: the
# fix gives it one, with the stand-in gate main.c needs without RING_STATS.
if awk '/^#ifdef RING_STATS/ { i = 1 } i && /^#else/ { e = 1 } i && /^#endif/ { i = 0 }
        e && /stats_get_gate_enabled\(void\)/ { f = 1 } e && f && /return 1;/ { ok = 1 }
        END { exit !ok }' "$work/after/stats.h" &&
   grep -q -F 'weight += (stats_get_gate_enabled() ? stats_get(idx) : 3);' "$work/after/main.c"; then
  ok "stats.h's #ifdef RING_STATS got an #else with a gate that is always on; main.c's call is gated, yielding 3"
else
  bad "no #else with a stand-in gate in stats.h, or main.c's call not gated"; cat "$work/after/stats.h"
fi
if grep -q -F 'static inline bool ring_check(' "$work/after/ring.h" &&
   awk '/^#ifdef RING_CHECKS/ { i = 1 } /^#else/ { i = 0 } i && /static inline bool ring_check\(/ { ok = 1 }
        END { exit !ok }' "$work/after/ring.h"; then
  ok "ring.h: the fast path is in the RING_CHECKS branch"
else
  bad "ring.h: fast path not where expected"; cat "$work/after/ring.h"
fi

build() { # dir cc out flags...
  local dir=$1 cc=$2 out=$3
  shift 3
  (cd "$dir" && "$cc" -std=c11 -O2 -Wall -Wextra -Werror "$@" -o "$out" "${srcs[@]}") 2>"$out.log"
}
runs=("5000 1 0" "5000 2 97" "3000 3 7" "20000 4 1000" "1 2 3 4")
configs=0 reports=0 traces=0 stats=0
for n in $(seq 0 15); do
  flags=()
  [ $((n & 1)) = 0 ] || flags+=(-DNO_HOOKS)
  [ $((n & 2)) = 0 ] || flags+=(-DRING_CHECKS)
  [ $((n & 4)) = 0 ] || flags+=(-DRING_STRICT)
  [ $((n & 8)) = 0 ] || flags+=(-DTRACE_VERBOSE)
  [ $(((n ^ n >> 1 ^ n >> 2 ^ n >> 3) & 1)) = 0 ] || flags+=(-DRING_STATS)
  tag="${flags[*]:-(none)}"
  for cc in gcc clang-19; do
    if ! build "$work/before" "$cc" "$work/b" "${flags[@]}"; then
      bad "$cc $tag: the original does not build"; cat "$work/b.log"; continue
    fi
    if ! build "$work/after" "$cc" "$work/a" "${flags[@]}"; then
      bad "$cc $tag: the fixed tree does not build"; head -5 "$work/a.log"; continue
    fi
    same=1
    for args in "${runs[@]}"; do
      # shellcheck disable=SC2086
      if same_behaviour "$work/b" "$work/a" $args; then
        reports=$((reports + $(grep -c '^ring_check: ' "$work/beh/a.err" || true)))
        traces=$((traces + $(grep -c '^trace: ' "$work/beh/a.err" || true)))
        stats=$((stats + $(grep -c -E 'weight=[1-9]' "$work/beh/a.out" || true)))
      else
        same=0
      fi
    done
    if [ "$same" = 1 ]; then
      ok "$cc $tag: builds, and the same stdout, stderr and exit status on ${#runs[@]} inputs"
      configs=$((configs + 1))
    else
      bad "$cc $tag: behaviour differs"
    fi
  done
done
# The comparison means something only if the checks and the hooks reported.
if [ "$configs" = 32 ] && [ "$reports" -gt 0 ] && [ "$traces" -gt 0 ] && [ "$stats" -gt 0 ]; then
  ok "32 of 32 builds behave the same; they printed $reports check reports, $traces hook traces and $stats weights"
else
  bad "$configs of 32 builds behave the same, $reports check reports, $traces hook traces, $stats weights"
fi

# Negative controls: without what the fix adds for other configurations,
# the same comparison fails. Each first shows that what it compares built
# and ran, so that it fails for the reason it names and not for a missing
# program ("stderr differs" also holds between a program and none).
# controls_ran: the last same_behaviour's two programs both ran (exit 0 or
# 1, as main.c exits) and printed the same non-empty stdout.
controls_ran() {
  local d=$work/beh
  grep -qx '[01]' "$d/a.rc" && cmp -s "$d/a.rc" "$d/b.rc" && [ -s "$d/a.out" ] && cmp -s "$d/a.out" "$d/b.out" &&
    return 0
  echo "  the control's programs did not both run alike: exit $(cat "$d/a.rc") and $(cat "$d/b.rc")," \
    "stdout of $(wc -c <"$d/a.out") and $(wc -c <"$d/b.out") bytes"
  return 1
}
cp -r "$work/after" "$work/nostandin"
python3 - "$work/nostandin/trace.h" <<'PY'
import re, sys
p = sys.argv[1]
s = open(p).read()
# Drop the stand-in the fix put into the #else: its comment and the three
# functions after it.
s = re.sub(r'/\* trace_op\(\) is not the hook analysed here.*?(?=#endif)', '', s, flags=re.S)
open(p, 'w').write(s)
PY
compile_ring() { # DIR FILE FLAGS...: compiles one file of DIR with gcc
  local dir=$1 file=$2
  shift 2
  (cd "$dir" && gcc -std=c11 -Wall -Wextra -Werror "$@" -c "$file" -o /dev/null)
}
if compile_ring "$work/nostandin" ring.c -DRING_CHECKS; then
  expect_failure "no stand-in gate in trace.h's #else, built with -DNO_HOOKS" "trace_op_gate_enabled" \
    compile_ring "$work/nostandin" ring.c -DNO_HOOKS -DRING_CHECKS
else
  bad "control: ring.c with trace.h's stand-in dropped does not build even without -DNO_HOOKS"
fi
# The #else the fix added to stats.h's #ifdef RING_STATS, dropped.
cp -r "$work/after" "$work/noelse"
python3 - "$work/noelse/stats.h" <<'PY'
import re, sys
p = sys.argv[1]
s = open(p).read()
t = re.sub(r'#else\n/\* stats_get\(\) is not the hook analysed here.*?(?=#endif)', '', s, flags=re.S)
if t == s:
    sys.exit('control: no #else with a stand-in in ' + p)
open(p, 'w').write(t)
PY
if compile_ring "$work/noelse" main.c -DRING_STATS; then
  expect_failure "no #else in stats.h's #ifdef RING_STATS, built without it" "stats_get_gate_enabled" \
    compile_ring "$work/noelse" main.c
else
  bad "control: main.c with stats.h's new #else dropped does not build even with -DRING_STATS"
fi
cp -r "$work/after" "$work/funcname"
sed -i 's/"ring_check", idx/__func__, idx/' "$work/funcname/check.c"
rm -f "$work/f" "$work/b"
if build "$work/funcname" gcc "$work/f" -DRING_CHECKS && build "$work/before" gcc "$work/b" -DRING_CHECKS; then
  expect_failure "__func__ left in the slow path" "stderr differs" same_behaviour "$work/b" "$work/f" 3000 3 7
  if controls_ran; then
    ok "control: both programs ran, same exit status and stdout: only the reports' name differs"
  else
    bad "control: __func__ left in the slow path: the comparison is not between two programs that ran"
  fi
else
  bad "control: __func__ left in the slow path: does not build"; cat "$work/f.log" "$work/b.log"
fi

# Idempotent: a second run exits 0, finds nothing and changes nothing.
if second_run_clean "$work/after" "$work/tidy2.out" \
     "$tidy" --load="$plugin" --config="$config" --fix "${srcs[@]}" -- "${tidy_flags[@]}"; then
  ok "second --fix run: exit 0, no findings, no changes"
else
  bad "second --fix run"
fi
finish
