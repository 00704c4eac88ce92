#!/usr/bin/env bash
# Gated hooks whose disabled value is not 0 (issue 24: a fix that wrote 0
# in its place passed every test): the golden cases
# tests/checks/hotpath-hook-gate/disabled-value{,-clone}.c (gated in place,
# and with CloneCallers) are programs that add the hooks' values (5 and -3)
# into sums in hot loops. The real clang-tidy fixes a copy of each, which
# must be the case's .fixed file; the original and the tool's fixed code
# are built with gcc and clang at -O2 -Wall -Wextra -Werror, and give the
# same stdout,
# stderr and exit status on several inputs: with the gates off (the
# disabled value stands in for the call), and with every gate switched on
# through its setter (the hook is called: the clone's hooked copy runs).
# Negative controls: the fixed file with a disabled value made 0 prints
# another total, in each shape.
# Usage: hook-values-behaviour.sh CLANG_TIDY PLUGIN [CLANG]
set -euo pipefail
tidy=$1 plugin=$(realpath "$2") clang=${3:-clang-19}
here=$(cd "$(dirname "$0")" && pwd)
cases=$here/../checks/hotpath-hook-gate
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck source=lib.sh
source "$here/lib.sh"

# The case's main() is called by a driver that first switches on every gate
# the fixed code defines, when GATES_ON is set; the original defines none.
cat >"$work/driver.c" <<'EOF'
#include <stdlib.h>
int case_main(int argc, char **argv);
void item_weight_gate_enable(void) __attribute__((weak));
void step_bias_gate_enable(void) __attribute__((weak));
int main(int argc, char **argv)
{
	if (getenv("GATES_ON")) {
		if (item_weight_gate_enable)
			item_weight_gate_enable();
		if (step_bias_gate_enable)
			step_bias_gate_enable();
	}
	return case_main(argc, argv);
}
EOF

build() { # CC SRC OUT: fails with the compiler's messages on stdout
  "$1" -x c -std=c11 -O2 -Wall -Wextra -Werror -Dmain=case_main -c -o "$3.o" "$2" >"$3.log" 2>&1 &&
    "$1" -std=c11 -O2 -Wall -Wextra -Werror -o "$3" "$work/driver.c" "$3.o" >>"$3.log" 2>&1 ||
    { cat "$3.log"; return 1; }
}
inputs=("1" "1 2 3" "7 -40 9 100000 3" "")

# The tool's own fix of each case, with the case's options: it must be the
# .fixed file, and it is what is built below.
for c in disabled-value disabled-value-clone; do
  cp "$cases/$c.c" "$work/$c.tool.c"
  opts=$(sed -n 's|^// hotpath-options: *||p' "$cases/$c.c" |
    awk -F'; *' '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); printf "%s{key: hotpath-hook-gate.%s, value: \"%s\"}", (i > 1 ? ", " : ""), kv[1], kv[2] } }')
  if ! "$tidy" --load="$plugin" --config="{Checks: '-*,hotpath-hook-gate', CheckOptions: [$opts]}" --fix \
       "$work/$c.tool.c" -- -std=c11 >"$work/$c.tidy.log" 2>&1; then
    bad "$c: clang-tidy --fix failed"; tail -5 "$work/$c.tidy.log"
  elif diff -u "$cases/$c.c.fixed" "$work/$c.tool.c" >"$work/$c.diff"; then
    ok "$c: the tool's fix is $c.c.fixed"
  else
    bad "$c: the tool's fix is not $c.c.fixed:"; head -20 "$work/$c.diff"
  fi
done

for cc in gcc "$clang"; do
  for c in disabled-value disabled-value-clone; do
    tag="$(basename "$cc") $c"
    if ! build "$cc" "$cases/$c.c" "$work/$c.before" || ! build "$cc" "$work/$c.tool.c" "$work/$c.after"; then
      bad "$tag: does not build"
      continue
    fi
    same_behaviour_on "$tag, gates off" "$work/$c.before" "$work/$c.after" "${inputs[@]}"
    GATES_ON=1 same_behaviour_on "$tag, gates on" "$work/$c.before" "$work/$c.after" "${inputs[@]}"
  done
done

# The comparison means something only if the disabled value reaches the
# output: the fixed code with 0 in its place must print another total.
sabotage() { # CASE FROM TO: the fixed case with FROM made TO, built with gcc
  local c=$1 out=$work/$1.zero
  python3 - "$cases/$c.c.fixed" "$out.c" "$2" "$3" <<'PY'
import sys
src, dst, old, new = sys.argv[1:]
s = open(src).read()
if old not in s:
    sys.exit('sabotage: %r not in %s' % (old, src))
open(dst, 'w').write(s.replace(old, new))
PY
  build gcc "$out.c" "$out" >/dev/null || { bad "control $c: the sabotaged copy does not build"; return 1; }
}
if sabotage disabled-value ': 5)' ': 0)'; then
  expect_failure "in place, 'gate ? item_weight(...) : 0' instead of ': 5'" "stdout differs" \
    same_behaviour "$work/disabled-value.before" "$work/disabled-value.zero" 1 2 3
fi
if sabotage disabled-value-clone 'sum += items[i] * 5 ' 'sum += items[i] * 0 '; then
  expect_failure "cloned, 'items[i] * 0' where the call was instead of '* 5'" "stdout differs" \
    same_behaviour "$work/disabled-value-clone.before" "$work/disabled-value-clone.zero" 1 2 3
fi
finish
