#!/usr/bin/env bash
# The build-mode matrix: for each sample, the tool's fix against the original
# and the floor (the sample without the costly code), under callgrind, in
# every cell of {gcc, clang} x {-O2, -O2 -flto, PGO, PGO + LTO}. The fix
# must never cost more than the original: after/before <= 1.005 in every
# cell, with no exception. Each cell's fix is the one the tool makes for
# that cell's compile command (FIX_CC=cc FIX_CFLAGS="-O2 [-flto]", through a
# compile_commands.json: samples/fix-command.sh): with clang -flto a check
# function that other files call gets no fix (no fast-path shape measured is
# as fast there: docs/checks/hotpath-check-split.md, "Build modes"), so that
# cell measures what the user gets, the original. The profile flags are
# left out of the fix's command (the tool's choices do not depend on them;
# the profile is the measured build's own). bounds-copy and extent-buffer
# define their check in another file than the accessors that call it, as
# btrfs does, and are linked with -flto in the lto cells.
#
# usage: scripts/bench-matrix.sh [--slice] [SAMPLE...]
#   SAMPLE   names under samples/ (default: every sample with fix.sh)
#   --slice  the CI slice (tests/e2e/bench-matrix-slice.sh): bounds-copy at
#            -O2, -flto and PGO+LTO, slab-alloc with -flto, OPS=100000
# environment: CCS="gcc clang-19"  MODES="O2 lto pgo pgo-lto"  OPS (each
#              sample's default)  HOTPATH_BUILD_DIR  OUT (default
#              $build/matrix)  AFTER=DIR: judge DIR (a variant of the one
#              sample named) instead of the tool's fix (negative controls)
# Prints one line a cell (sample, compiler, mode, Ir before / after / floor,
# after/before, share of the cost removed, the functional check) and exits 1
# when a cell is slower than 1.005, or when the fixed program behaves
# differently in some cell.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${HOTPATH_BUILD_DIR:-$root/build}
out=${OUT:-$build/matrix}
tidy=/usr/lib/llvm-${HOTPATH_LLVM_MAJOR:-19}/bin/clang-tidy
plugin="$build/plugin/libhotpathTidyModule.so"
CCS=${CCS:-gcc clang-19}
MODES=${MODES:-O2 lto pgo pgo-lto}

samples=()
slice=0
for a in "$@"; do
  case $a in
  --slice) slice=1 ;;
  -*) echo "bench-matrix.sh: unknown option '$a'" >&2; exit 2 ;;
  *) samples+=("$a") ;;
  esac
done
declare -A only_modes=()
if [ "$slice" = 1 ]; then
  samples=(bounds-copy slab-alloc)
  only_modes=([bounds-copy]="O2 lto pgo-lto" [slab-alloc]="lto")
  export OPS=${OPS:-100000}
fi
if [ ${#samples[@]} -eq 0 ]; then
  for d in "$root"/samples/*/; do
    [ -x "$d/fix.sh" ] && samples+=("$(basename "$d")")
  done
fi
[ -f "$plugin" ] || { echo "bench-matrix.sh: no $plugin: build first (scripts/build.sh)" >&2; exit 2; }
mkdir -p "$out"

fmt="%-13s %-9s %-8s %12s %12s %12s %12s %7s %5s %s\n"
# shellcheck disable=SC2059
printf "$fmt" sample compiler mode before after floor after/before share func ""
status=0
for name in "${samples[@]}"; do
  sample=$root/samples/$name
  [ -x "$sample/fix.sh" ] || { echo "bench-matrix.sh: no sample '$name'" >&2; exit 2; }
  mkdir -p "$out/$name"
  ref=$(bash -c 'source "$1/bench.conf"; echo "${refs[0]}"' _ "$sample")
  for mode in ${only_modes[$name]:-$MODES}; do
    case $mode in lto | pgo-lto) flags="-O2 -flto" ;; *) flags="-O2" ;; esac
    for cc in $CCS; do
      # The fix for this cell's compile command, made once per command.
      after=$out/$name/after-$cc${flags// /}
      if [ -n "${AFTER:-}" ]; then
        rm -rf "$after"
        cp -r "$sample" "$after"
        cp "$AFTER"/* "$after/"
      elif [ ! -d "$after" ]; then
        FIX_CC=$cc FIX_CFLAGS=$flags "$sample/fix.sh" "$after" "$tidy" "$plugin" \
          >"$after.findings.txt"
      fi
      MODE=$mode CCS=$cc "$sample/bench.sh" "$out/$name/$mode" before="$sample" \
        after="$after" "$ref=$sample/variants/$ref" >"$out/$name/$mode-$cc.log" 2>&1 ||
        { cat "$out/$name/$mode-$cc.log" >&2; exit 1; }
      table=$out/$name/$mode/table.txt
      read -r bef aft flo func < <(awk -v cc="$cc" -v ref="$ref" '
        NR == 1 { for (i = 1; i <= NF; i++) if ($i == "func") f = i; next }
        $1 == cc && $2 == "before" { b = $3 } $1 == cc && $2 == "after" { a = $3; fa = $f }
        $1 == cc && $2 == ref { r = $3 } END { print b, a, r, fa }' "$table")
      ratio=$(awk -v a="$aft" -v b="$bef" 'BEGIN { printf "%.4f", a / b }')
      # The share of the cost removed means nothing where the original
      # costs what the floor does (LTO removed the costly code already).
      share=$(awk -v a="$aft" -v b="$bef" -v f="$flo" 'BEGIN {
        if (b - f < b / 200) print "-"; else printf "%.3f", (b - a) / (b - f) }')
      verdict=""
      if awk -v r="$ratio" 'BEGIN { exit !(r > 1.005) }'; then
        verdict="SLOWER than the original"
        status=1
      fi
      if [ "$func" != same ]; then
        verdict="$verdict behaviour: $func"
        status=1
      fi
      # shellcheck disable=SC2059
      printf "$fmt" "$name" "$cc" "$mode" "$bef" "$aft" "$flo" "$ratio" "$share" "$func" "$verdict"
    done
  done
done
exit $status
