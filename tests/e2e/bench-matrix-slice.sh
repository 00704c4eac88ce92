#!/usr/bin/env bash
# The CI slice of the build-mode matrix (scripts/bench-matrix.sh --slice):
# the tool's fix of samples/bounds-copy at -O2 and PGO+LTO and of
# samples/slab-alloc with -flto, gcc and clang, callgrind before / after /
# floor; every cell after/before <= 1.005 but the documented clang
# exception, and the same behaviour in every cell. The check's page must
# still state the exception's figure. Negative controls: the `|` shape in
# bounds-copy's gcc PGO+LTO cell (1.038) and the atomic gate in slab-alloc's
# gcc -flto cell (1.058) must fail the matrix.
# Usage: bench-matrix-slice.sh BUILD_DIR
set -euo pipefail
build=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
root=$here/../..
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck source=lib.sh
source "$here/lib.sh"

rc=0
HOTPATH_BUILD_DIR=$build OUT=$work/slice "$root/scripts/bench-matrix.sh" --slice >"$work/slice.txt" 2>&1 || rc=$?
cat "$work/slice.txt"
if [ "$rc" = 0 ] && [ "$(grep -c -E '^(bounds-copy|slab-alloc) ' "$work/slice.txt")" = 6 ]; then
  ok "slice: 6 cells, none slower than the original but the documented one, same behaviour in each"
else
  bad "slice: exit $rc"
fi
if claimed "$root/docs/checks/hotpath-check-split.md" "1.085" &&
   grep -q 'bounds-copy   clang-19  pgo-lto .*slower: documented' "$work/slice.txt"; then
  ok "the documented exception (clang PGO+LTO on bounds-copy) is on the check's page"
else
  bad "the exception is not documented, or not where the slice finds it"
fi

control() { # what sample mode cc variant want
  HOTPATH_BUILD_DIR=$build OUT=$work/$1 MODES=$3 CCS=$4 OPS=100000 AFTER=$root/samples/$2/variants/$5 \
    "$root/scripts/bench-matrix.sh" "$2"
}
expect_failure "bounds-copy gcc PGO+LTO with | for ||" "SLOWER than the original" \
  control c1 bounds-copy pgo-lto gcc shape-bitor
expect_failure "slab-alloc gcc -flto with the atomic gate" "SLOWER than the original" \
  control c2 slab-alloc lto gcc shape-d
finish
