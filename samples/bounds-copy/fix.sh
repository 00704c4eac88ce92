#!/usr/bin/env bash
# Makes the "after" variant: a copy of this sample fixed by the tool itself.
# usage: fix.sh OUTDIR [CLANG_TIDY [PLUGIN]]   (findings go to stdout)
# With PLUGIN empty, CLANG_TIDY is taken to be hotpath-tidy (checks built in).
# FIX_CC and FIX_CFLAGS: the compile command to fix for (../fix-command.sh).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=$1 tidy=${2:-clang-tidy-19} plugin=${3:-}
rm -rf "$out"
mkdir -p "$out"
cp "$here"/*.c "$here"/*.h "$out"/
load=()
[ -n "$plugin" ] && load=(--load="$(realpath "$plugin")")
# The accessors that call the check are in copy.c, which check.c cannot see:
# the check is named hot, as a profile of the workload would show it.
config='{Checks: "-*,hotpath-*", CheckOptions: [{key: HotFunctions, value: buf_check_range}]}'
cd "$out"
# shellcheck source=../fix-command.sh
source "$here/../fix-command.sh"
fix_inputs -std=c11 -- check.c copy.c main.c
"$tidy" "${load[@]}" --config="$config" --fix "${tidy_inputs[@]}" 2>/dev/null |
  grep -E '^[^ ].*: (warning|note|error): ' | grep -v 'FIX-IT applied' | sed "s|$out/||"
