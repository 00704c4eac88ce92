#!/usr/bin/env bash
# Reproducer (a questionable fix, not a wrong one): hotpath-check-split treats
# an early *success* guard, `if (cmd->next) return;` (no reporting), as a
# failure branch and merges it into the unlikely condition:
#   if (__builtin_expect(!!(cmd->next) | (!(cmd->flags & output_format)), 0))
#           check_output_format_report(cmd);
# Behaviour is kept (the reporter re-checks and returns), but every call with
# cmd->next set -- here the common case -- now takes the cold, noinline call,
# marked unlikely. DESIGN.md: failure branches "only report (call a reporting
# function) and leave". Expected: the guard is part of the fast path (or no
# finding). Found by scripts/robustness.sh on btrfs-progs with
# MultiBranchThreshold=1.
# Usage: run.sh [CLANG_TIDY [PLUGIN]]   (exit 0 = still reproduces)
here=$(cd "$(dirname "$0")" && pwd)
tidy=${1:-clang-tidy-19}
plugin=${2:-$here/../../../../build/plugin/libhotpathTidyModule.so}
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
cp "$here/input.c" "$work/input.c"
"$tidy" --load="$plugin" -checks='-*,hotpath-*' --fix \
  -config="{CheckOptions: [{key: hotpath-check-split.MultiBranchThreshold, value: '1'}]}" \
  "$work/input.c" -- -std=c11 2>&1 | grep 'warning:'
diff -u "$here/input.c" "$work/input.c"
if grep -q '__builtin_expect(!!(cmd->next)' "$work/input.c"; then
  echo "REPRODUCES: the success guard 'cmd->next' is in the unlikely condition"; exit 0
fi
echo "fixed"; exit 1
