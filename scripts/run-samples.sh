#!/usr/bin/env bash
# The main job on a fresh Debian 12 machine: installs what is missing, builds
# hotpath-tidy, then for each sample prints the findings, applies the fixes to
# a copy (never to samples/ itself), shows the diff, and benchmarks before /
# after / expert / no-check side by side under callgrind with gcc and clang;
# then prints the build-mode matrix (scripts/bench-matrix.sh: every sample in
# every cell of {gcc, clang} x {-O2, -flto, PGO, PGO+LTO}, after/before).
# MATRIX=0 leaves the matrix out.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${HOTPATH_BUILD_DIR:-$root/build}
"$root/scripts/build.sh" >/dev/null
tidy=/usr/lib/llvm-${HOTPATH_LLVM_MAJOR:-19}/bin/clang-tidy
plugin="$build/plugin/libhotpathTidyModule.so"

for sample in "$root"/samples/*/; do
  name=$(basename "$sample")
  [ -x "$sample/fix.sh" ] || continue
  out="$build/samples/$name"
  echo "=== $name: findings (clang-tidy --load=$(realpath --relative-to="$root" "$plugin") -checks='-*,hotpath-*' --fix)"
  "$sample/fix.sh" "$out/after" "$tidy" "$plugin"
  echo
  echo "=== $name: what the fix changed"
  (cd "$sample" && for f in *.c *.h; do diff -u --label "before/$f" --label "after/$f" "$f" "$out/after/$f" || true; done)
  echo
  echo "=== $name: callgrind instruction counts, -O2; ratio = (before - variant) / (before - nocheck)"
  variants=(before="$sample" after="$out/after")
  for v in "$sample"/variants/*/; do
    v=$(basename "$v")
    case $v in shape-*) ;; *) variants+=("$v=$sample/variants/$v") ;; esac
  done
  "$sample/bench.sh" "$out/bench" "${variants[@]}" >/dev/null
  cat "$out/bench/table.txt"
  echo
done
if [ "${MATRIX:-1}" != 0 ]; then
  echo "=== the build-mode matrix (scripts/bench-matrix.sh): after/before <= 1.005 in every cell"
  HOTPATH_BUILD_DIR=$build "$root/scripts/bench-matrix.sh"
fi
