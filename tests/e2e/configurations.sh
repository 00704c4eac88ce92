#!/usr/bin/env bash
# End to end on a tree of our own whose hook and check sit under feature
# macros (tests/e2e/configurations/): trace_op() is a hook declared only
# without NO_HOOKS (an inline stand-in with it) whose body acts only with
# TRACE_VERBOSE; ring_check() is a check declared only with RING_CHECKS,
# against a limit RING_STRICT chooses, whose reports print __func__. The
# real clang-tidy fixes a copy seeing one configuration (-DRING_CHECKS); the
# fixed tree must then compile with -Wall -Wextra -Werror under gcc and
# clang and give the same stdout, stderr and exit status as the original in
# every one of the 16 combinations of NO_HOOKS, RING_CHECKS, RING_STRICT and
# TRACE_VERBOSE, on inputs that make the checks and the hook report and that
# make the program fail. Negative controls: the fixed tree without the
# stand-in gate in trace.h's #else does not build with -DNO_HOOKS, and with
# __func__ put back in the slow path it prints another name.
# Usage: configurations.sh CLANG_TIDY PLUGIN
set -euo pipefail
tidy=$1 plugin=$(realpath "$2")
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck source=lib.sh
source "$here/lib.sh"

srcs=(check.c ring.c trace.c main.c)
cp -r "$here/configurations" "$work/before"
cp -r "$here/configurations" "$work/after"
# The callers are in ring.c, the check and the hook in files of their own:
# name them hot, as a profile would, and the hook with its disabled value
# (ring.c cannot see its body), as the linux-kernel rule set names
# should_failslab, with what switches it on (a new gate needs that named).
config='{Checks: "-*,hotpath-*", CheckOptions: [{key: HotFunctions, value: "ring_check;ring_put"},
  {key: hotpath-hook-gate.HookFunctions, value: "trace_op=false"},
  {key: hotpath-hook-gate.HookEnablers, value: "trace_op=a tracing build or a debugger"}]}'
(cd "$work/after" && "$tidy" --load="$plugin" --config="$config" --fix "${srcs[@]}" -- -std=c11 -DRING_CHECKS) \
  >"$work/tidy.out" 2>&1 || { cat "$work/tidy.out"; bad "clang-tidy --fix failed"; }

for want in "check.c:6:6: warning: check function 'ring_check' tests 2 conditions" \
  "ring.c:13:6: warning: hot call to hook 'trace_op'" \
  "trace.h:9:6: warning: hook 'trace_op' has no inline gate" \
  "trace.c:8:32: warning: hook 'trace_op' is called out of line even while it does nothing"; do
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
configs=0 reports=0 traces=0
for n in $(seq 0 15); do
  flags=()
  [ $((n & 1)) = 0 ] || flags+=(-DNO_HOOKS)
  [ $((n & 2)) = 0 ] || flags+=(-DRING_CHECKS)
  [ $((n & 4)) = 0 ] || flags+=(-DRING_STRICT)
  [ $((n & 8)) = 0 ] || flags+=(-DTRACE_VERBOSE)
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
# The comparison means something only if the checks and the hook reported.
if [ "$configs" = 32 ] && [ "$reports" -gt 0 ] && [ "$traces" -gt 0 ]; then
  ok "32 of 32 builds behave the same; they printed $reports check reports and $traces hook traces"
else
  bad "$configs of 32 builds behave the same, $reports check reports, $traces hook traces"
fi

# Negative controls: without what the fix adds for other configurations,
# the same comparison fails.
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
expect_failure "no stand-in gate in trace.h's #else, built with -DNO_HOOKS" "trace_op_gate_enabled" \
  bash -c 'cd "$1" && gcc -std=c11 -Wall -Wextra -Werror -DNO_HOOKS -DRING_CHECKS -c ring.c -o /dev/null' _ \
  "$work/nostandin"
cp -r "$work/after" "$work/funcname"
sed -i 's/"ring_check", idx/__func__, idx/' "$work/funcname/check.c"
build "$work/funcname" gcc "$work/f" -DRING_CHECKS && build "$work/before" gcc "$work/b" -DRING_CHECKS
expect_failure "__func__ left in the slow path" "stderr differs" same_behaviour "$work/b" "$work/f" 3000 3 7

# Idempotent: a second run exits 0, finds nothing and changes nothing.
if second_run_clean "$work/after" "$work/tidy2.out" \
     "$tidy" --load="$plugin" --config="$config" --fix "${srcs[@]}" -- -std=c11 -DRING_CHECKS; then
  ok "second --fix run: exit 0, no findings, no changes"
else
  bad "second --fix run"
fi
finish
