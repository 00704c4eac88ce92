#!/usr/bin/env bash
# The speed claim for hotpath-hook-gate, in callgrind instruction counts: on
# samples/slab-alloc with gcc and clang at -O2, the tool's own fix removes at
# least half of what the empty hook costs,
# (before - after) / (before - nohook) >= 0.5, with the same output.
# Usage: bench-slab-alloc-hook.sh CLANG_TIDY PLUGIN
set -euo pipefail
tidy=$1 plugin=$(realpath "$2")
sample=$(cd "$(dirname "$0")/../../samples/slab-alloc" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$sample/fix.sh" "$work/after" "$tidy" "$plugin" >/dev/null
OPS=${OPS:-300000} "$sample/bench.sh" "$work/bench" before="$sample" after="$work/after" \
  nohook="$sample/variants/nohook" >/dev/null
cat "$work/bench/table.txt"
awk '
  NR == 1 { next }
  { ratio[$1 " " $2] = $6; func_[$1 " " $2] = $8; ccs[$1] = 1 }
  END {
    bad = 0; n = 0
    for (cc in ccs) {
      a = cc " after"
      if (ratio[a] + 0 >= 0.5) { n++; print "ok   " cc ": the gate removes " ratio[a] " of the hook cost (>= 0.5)" }
      else { bad++; print "FAIL " cc ": the gate removes only " ratio[a] }
      if (func_[a] == "same") { n++; print "ok   " cc ": same output as before" }
      else { bad++; print "FAIL " cc ": output differs from before" }
    }
    print n " passed, " bad " failed"
    exit bad > 0
  }' "$work/bench/table.txt"
