#!/usr/bin/env bash
# Makes the "after" variant: a copy of this sample fixed by the tool itself.
# usage: fix.sh OUTDIR [CLANG_TIDY [PLUGIN]]   (findings go to stdout)
# With PLUGIN empty, CLANG_TIDY is taken to be hotpath-tidy (checks built in).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=$1 tidy=${2:-clang-tidy-19} plugin=${3:-}
rm -rf "$out"
mkdir -p "$out"
cp "$here"/*.c "$here"/*.h "$out"/
load=()
[ -n "$plugin" ] && load=(--load="$(realpath "$plugin")")
cd "$out"
"$tidy" "${load[@]}" -checks='-*,hotpath-*' --header-filter='.*' --fix list.c sorted.c main.c -- -std=c11 2>/dev/null |
  grep -E '^[^ ].*: (warning|note|error): ' | grep -v 'FIX-IT applied' | sed "s|$out/||"
