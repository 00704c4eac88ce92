#!/usr/bin/env bash
# CI slice of scripts/robustness.sh: 20 csmith programs (fixed seeds, each
# plain and with the injected check/assert/hook fragment, every fix compiled,
# run and compared with the original, then re-run for idempotency) and one
# small Debian package (lz4, --fix --twice, default and lowered thresholds).
# Fails on any crash, hang, fix that does not compile, behaviour difference or
# non-idempotent fix, or when the injected programs produced no fix at all
# (the run would then prove nothing). Needs root (or sudo) for apt and the
# network for the download; about 1-2 minutes on 2 cores once lz4 is cached.
# The full run is scripts/robustness.sh (docs/robustness.md).
# Usage: robustness-slice.sh [CLANG_TIDY [PLUGIN]]
#   env: HOTPATH_SLICE_WORK (default: a temp dir, removed afterwards)
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
tidy=${1:-${CLANG_TIDY:-clang-tidy-19}}
plugin=${2:-${HOTPATH_PLUGIN:-$root/build/plugin/libhotpathTidyModule.so}}
if [ -n "${HOTPATH_SLICE_WORK:-}" ]; then work=$HOTPATH_SLICE_WORK
else work=$(mktemp -d); trap 'rm -rf "$work"' EXIT; fi
tidy=$(command -v "$tidy" || echo "$tidy")
mkdir -p "$work"
t0=$(date +%s)
CLANG_TIDY=$tidy HOTPATH_PLUGIN=$plugin "$root/scripts/robustness.sh" \
  --seeds 20 --first-seed 1 --packages lz4 --work "$work" | tee "$work/slice.log"
rc=${PIPESTATUS[0]}
passed=0 failed=0
summary=$(sed -n 's/^ROBUSTNESS //p' "$work/slice.log")
if [ "$rc" = 0 ]; then passed=$((passed + 1)); echo "ok   robustness.sh slice ($(($(date +%s) - t0))s)"
else failed=$((failed + 1)); echo "FAIL robustness.sh slice exited $rc"; fi
if [ -n "$summary" ] && python3 - "$summary" <<'EOF'
import json, sys
s = json.loads(sys.argv[1])
ok = s.get('csmith_tus', 0) >= 40 and s.get('project_tus', 0) > 0 and \
     s.get('files_changed', 0) >= 20 and s.get('behaviour_same', 0) >= 15
sys.exit(0 if ok else 1)
EOF
then passed=$((passed + 1)); echo "ok   counts: 40 csmith runs, lz4 TUs, >= 20 fixed programs, >= 15 compared and the same"
else failed=$((failed + 1)); echo "FAIL counts too low: $summary"; fi
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
