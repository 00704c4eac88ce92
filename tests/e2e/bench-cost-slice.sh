#!/usr/bin/env bash
# CI slice of scripts/bench-cost.sh: the worst case on sqlite3.c (a check
# function appended, so the call-site index walks every body), counted in
# instructions under callgrind, which repeat where CPU time does not. Fails
# when any run fails (bench-cost.sh exits 2), when clang-tidy with hotpath-*
# takes more than the instructions README.md and docs/robustness.md claim,
# 1.086 times those of clang -fsyntax-only (gated at 1.096; the DESIGN.md goal
# is 1.10), or when the run did not walk the bodies at all (it would then
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
claim=1.086 gate=1.096
CLANG_TIDY=$tidy HOTPATH_PLUGIN=$plugin "$root/scripts/bench-cost.sh" \
  --only sqlite-check --reps 1 --callgrind --strict --work "$work" | tee "$work.slice.log"
rc=${PIPESTATUS[0]}
line=$(grep '^BENCH-COST-IR sqlite-check ' "$work.slice.log")
ratio=$(sed -n 's/.*hotpath_clang_ir=\([0-9.]*\).*/\1/p' <<<"$line")
if [ "$rc" != 0 ] || [ -z "$line" ]; then
  bad "bench-cost.sh exited $rc (a run failed, or over 1.10 in instructions)"
elif out=$(at_most "hotpath/clang instructions" "$ratio" "$gate"); then
  ok "instructions within $gate of clang (claimed $claim): $ratio"
else
  bad "over the claimed figure:$out"
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
