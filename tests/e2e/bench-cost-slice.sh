#!/usr/bin/env bash
# CI slice of scripts/bench-cost.sh: the worst case on sqlite3.c (a check
# function appended, so the call-site index walks every body), counted in
# instructions under callgrind, which repeat where CPU time does not. Fails
# when clang-tidy with hotpath-* takes more than 1.10 times the instructions
# of clang -fsyntax-only while adding over 3.1% to clang-tidy's own run (with
# LLVM 22, clang-tidy alone is over 1.10), or when the run did not walk the bodies at all (it
# would then measure the cheap case). Needs root for apt (sqlite3 source,
# tcl, valgrind) and the network once; about 3 minutes on 2 cores.
# Usage: bench-cost-slice.sh [CLANG_TIDY [PLUGIN [WORK]]]
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
tidy=${1:-${CLANG_TIDY:-clang-tidy-19}}
plugin=${2:-${HOTPATH_PLUGIN:-$root/build/plugin/libhotpathTidyModule.so}}
work=${3:-$root/build/bench-cost}
failed=0
CLANG_TIDY=$tidy HOTPATH_PLUGIN=$plugin "$root/scripts/bench-cost.sh" \
  --only sqlite-check --reps 1 --callgrind --strict --work "$work" | tee "$work.slice.log"
rc=${PIPESTATUS[0]}
line=$(grep '^BENCH-COST-IR sqlite-check ' "$work.slice.log")
if [ "$rc" != 0 ] || [ -z "$line" ]; then
  echo "FAIL bench-cost.sh exited $rc (over 1.10 in instructions, or could not run)"; failed=1
else
  echo "ok   instructions within 1.10 of clang: ${line##* }"
fi
# The appended check function must have made the index walk sqlite3.c.
walked=$(callgrind_annotate --inclusive=yes --threshold=100 "$work/callgrind.sqlite-check.hotpath" 2>/dev/null |
         grep -c 'CallSiteIndex::indexDefinitions')
if [ "${walked:-0}" -ge 1 ]; then echo "ok   the call-site index walked the bodies"
else echo "FAIL no call-site index walk in the hotpath run: the worst case was not measured"; failed=1; fi
exit $failed
