#!/usr/bin/env bash
# CI slice of scripts/bench-cost.sh: the worst case on sqlite3.c (a check
# function appended, so the call-site index walks every body), counted in
# instructions under callgrind, which repeat where CPU time does not. Fails
# when any run fails (bench-cost.sh exits 2), when clang-tidy with hotpath-*
# takes more than the DESIGN.md goal of 1.10 times the instructions of clang
# -fsyntax-only (README.md and docs/robustness.md claim 1.095, measured for
# issue 26; the tree was over the goal from issue 23 to then), or when
# the run did not walk the bodies at all (it would then
# measure the cheap case). Needs root for apt (sqlite3 source, tcl, valgrind)
# and the network once; about 3 minutes on 2 cores.
# Usage: bench-cost-slice.sh [CLANG_TIDY [PLUGIN [WORK]]]
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
tidy=${1:-${CLANG_TIDY:-clang-tidy-19}}
plugin=${2:-${HOTPATH_PLUGIN:-$root/build/plugin/libhotpathTidyModule.so}}
work=${3:-$root/build/bench-cost}
# shellcheck source=lib.sh
source "$root/tests/e2e/lib.sh"
claim=1.095 gate=1.100 goal=1.10
CLANG_TIDY=$tidy HOTPATH_PLUGIN=$plugin "$root/scripts/bench-cost.sh" \
  --only sqlite-check --reps 1 --callgrind --strict --work "$work" | tee "$work.slice.log"
rc=${PIPESTATUS[0]}
line=$(grep '^BENCH-COST-IR sqlite-check ' "$work.slice.log")
field() { sed -n "s/.* $1=\([0-9.]*\).*/\1/p" <<<"$line"; }
ratio=$(field hotpath_clang_ir)
# Where clang-tidy alone already costs more than the goal over its clang
# (clang-tidy-22: 1.133 times clang-22 on this TU, against 1.067 with 19),
# no module can meet it; there the module's own share is gated instead, at
# what the gate leaves it over LLVM 19's clang-tidy: 1.100 / 1.068.
alone=$(echo "$(field tidy-pp_ir) / $(field clang_ir)" | bc -l 2>/dev/null)
module=$(echo "$(field hotpath_ir) / $(field tidy-pp_ir)" | bc -l 2>/dev/null)
module_gate=1.030
# Exit 1 of --strict is "over the 1.10 goal": judged here against the gate.
if { [ "$rc" != 0 ] && [ "$rc" != 1 ]; } || [ -z "$line" ] || [ -z "$alone" ]; then
  bad "bench-cost.sh exited $rc (a run failed)"
elif out=$(at_most "hotpath/clang instructions" "$ratio" "$gate"); then
  ok "instructions within $gate of clang (claimed $claim): $ratio"
elif awk -v a="$alone" 'BEGIN {exit !(a > 1.10)}' &&
     out2=$(at_most "hotpath/clang-tidy instructions" "$module" "$module_gate"); then
  ok "clang-tidy alone costs $(printf %.3f "$alone") of clang, over the goal; the module adds" \
     "$(printf %.3f "$module") (at most $module_gate): $ratio in all"
else
  bad "over the claimed figure:$out${out2:+;$out2}"
fi
# The goal's line: said, so that the gap is in every run's log.
if awk -v r="$ratio" -v g="$goal" 'BEGIN {exit !(r != "" && r <= g)}'; then
  echo "note the DESIGN.md goal of $goal is met: $ratio"
else
  echo "note over the DESIGN.md goal of $goal: $ratio (docs/robustness.md, 'Issue 25')"
fi
if claimed "$root/README.md" "$claim when every body is walked" &&
   claimed "$root/docs/robustness.md" "| **$claim** |"; then
  ok "README.md and docs/robustness.md claim $claim"
else
  bad "the documents no longer claim $claim"
fi
# The appended check function must have made the index walk sqlite3.c.
walked=$(callgrind_annotate --inclusive=yes --threshold=100 "$work/callgrind.sqlite-check.hotpath" 2>/dev/null |
         grep -c 'CallSiteIndex::indexDefinitions')
if [ "${walked:-0}" -ge 1 ]; then ok "the call-site index walked the bodies"
else bad "no call-site index walk in the hotpath run: the worst case was not measured"; fi
finish
