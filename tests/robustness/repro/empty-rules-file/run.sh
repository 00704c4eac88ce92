#!/usr/bin/env bash
# Reproducer: an empty rules file given as RuleSet is taken silently as the
# defaults, and --fix rewrites the source. DESIGN.md: "A missing or malformed
# rules file is a clear error naming the file and line, never a crash or a
# silent default." Expected: an error naming empty.yaml, exit 1, input
# unchanged. Today: exit 0, no message, the check is rewritten.
# Usage: run.sh [CLANG_TIDY [PLUGIN]]   (exit 0 = still reproduces)
here=$(cd "$(dirname "$0")" && pwd)
tidy=${1:-clang-tidy-19}
plugin=${2:-$here/../../../../build/plugin/libhotpathTidyModule.so}
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
cp "$here/input.c" "$work/input.c"
"$tidy" --load="$plugin" -checks='-*,hotpath-*' --fix \
  -config="{CheckOptions: [{key: hotpath-check-split.RuleSet, value: '$here/empty.yaml'}]}" \
  "$work/input.c" -- -std=c11 >"$work/out" 2>&1
rc=$?
cat "$work/out" | grep -v '^ '
if [ "$rc" = 0 ] && ! cmp -s "$here/input.c" "$work/input.c"; then
  echo "REPRODUCES: exit 0, no error about empty.yaml, input.c rewritten"; exit 0
fi
echo "fixed: exit $rc"; exit 1
