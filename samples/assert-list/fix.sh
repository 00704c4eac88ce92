#!/usr/bin/env bash
# Makes the "after" variant: a copy of this sample fixed by the tool itself.
# usage: fix.sh OUTDIR [CLANG_TIDY [PLUGIN]]   (findings go to stdout)
# With PLUGIN empty, CLANG_TIDY is taken to be hotpath-tidy (checks built in).
# ASSERT lives in a header every file includes: its rewrite needs the uses
# of all three, which the project index records (without one, no route
# rewrites a header's assert). So a compile database, the index built by the
# hotpath-tidy binary beside the plugin, then clang-tidy pointed at it, as
# README.md's run-clang-tidy route does.
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
srcs=(list.c sorted.c main.c)
printf '[' >compile_commands.json
sep=
for f in "${srcs[@]}"; do
  printf '%s{"directory": "%s", "file": "%s", "arguments": ["cc", "-std=c11", "-c", "%s"]}' \
    "$sep" "$PWD" "$f" "$f" >>compile_commands.json
  sep=,
done
printf ']\n' >>compile_commands.json
"$driver" --index-only -p . >/dev/null 2>&1
"$tidy" "${load[@]}" -checks='-*,hotpath-*' --header-filter='.*' -p . \
    -config='{CheckOptions: {ProjectIndex: hotpath-index}}' --fix "${srcs[@]}" 2>/dev/null |
  grep -E '^[^ ].*: (warning|note|error): ' | grep -v 'FIX-IT applied' | sed "s|$out/||"
rm -rf compile_commands.json hotpath-index
