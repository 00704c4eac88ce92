#!/usr/bin/env bash
# Makes the "after" variant: a copy of this sample fixed by the tool itself.
# usage: fix.sh OUTDIR [CLANG_TIDY [PLUGIN]]   (findings go to stdout)
# With PLUGIN empty, CLANG_TIDY is taken to be hotpath-tidy (checks built in).
# FIX_CC and FIX_CFLAGS: the compile command to fix for (../fix-command.sh).
# ASSERT lives in a header every file includes: its rewrite needs the uses
# of all three, which the project index records (without one, no route
# rewrites a header's assert). So always a compile database (cc when FIX_CC
# is not given), the index built by the hotpath-tidy binary beside the
# plugin, then clang-tidy pointed at it, as README.md's run-clang-tidy route
# does.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=$1 tidy=${2:-clang-tidy-19} plugin=${3:-}
rm -rf "$out"
mkdir -p "$out"
cp "$here"/*.c "$here"/*.h "$out"/
load=() driver=$tidy
if [ -n "$plugin" ]; then
  load=(--load="$(realpath "$plugin")")
  driver=$(dirname "$(realpath "$plugin")")/hotpath-tidy
fi
cd "$out"
# shellcheck source=../fix-command.sh
source "$here/../fix-command.sh"
FIX_CC=${FIX_CC:-cc} fix_inputs -std=c11 -- list.c sorted.c main.c
"$driver" --index-only -p . >/dev/null 2>&1
"$tidy" "${load[@]}" -checks='-*,hotpath-*' --header-filter='.*' \
    -config="{CheckOptions: {ProjectIndex: $PWD/hotpath-index}}" --fix "${tidy_inputs[@]}" 2>/dev/null |
  grep -E '^[^ ].*: (warning|note|error): ' | grep -v 'FIX-IT applied' | sed "s|$out/||"
rm -rf compile_commands.json hotpath-index
