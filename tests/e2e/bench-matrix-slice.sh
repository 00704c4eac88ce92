#!/usr/bin/env bash
# The CI slice of the build-mode matrix (scripts/bench-matrix.sh --slice):
# the tool's fix of samples/bounds-copy (check and accessors in separate
# files) at -O2, -flto and PGO+LTO and of samples/slab-alloc with -flto,
# gcc and clang, each made for its cell's compile command, callgrind
# before / after / floor; every cell after/before <= 1.005, no exception,
# and the same behaviour in every cell. With clang -flto the tool makes no
# fix (its note gives the figures, which the check's page states); with gcc
# -flto it does. Negative controls: the `|` shape in
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
if [ "$rc" = 0 ] && [ "$(grep -c -E '^(bounds-copy|slab-alloc) ' "$work/slice.txt")" = 8 ]; then
  ok "slice: 8 cells, none slower than the original, same behaviour in each"
else
  bad "slice: exit $rc"
fi
findings=$work/slice/bounds-copy
if grep -q "no fix: built with clang-19 -flto (this compile command).*1.076.*1.085" \
     "$findings/after-clang-19-O2-flto.findings.txt" &&
   ! grep -q "no fix" "$findings/after-gcc-O2-flto.findings.txt" &&
   claimed "$root/docs/checks/hotpath-check-split.md" "1.076" &&
   claimed "$root/docs/checks/hotpath-check-split.md" "1.085"; then
  ok "clang -flto: no fix, with the figures the check's page states; gcc -flto: the fix"
else
  bad "the clang -flto cell's fix or note is not what the check's page says"
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
