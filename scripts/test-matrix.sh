#!/usr/bin/env bash
# The whole test suite once per LLVM major hotpath-tidy supports (Debian 12
# ships clang-tidy 16, 19 and 22): each installs what it needs, builds into
# its own directory and runs every CTest test. Takes about three times
# scripts/test.sh; CI runs the default major in full and builds 22 only.
#   scripts/test-matrix.sh            # 16 19 22
#   scripts/test-matrix.sh 16 22      # some of them
# Build directories: build-16, build (19, the default's), build-22, unless
# HOTPATH_BUILD_DIR_<N> says otherwise. Extra ctest arguments go after --.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
majors=() ctest_args=()
while [ $# -gt 0 ]; do
  if [ "$1" = -- ]; then shift; ctest_args=("$@"); break; fi
  majors+=("$1"); shift
done
[ ${#majors[@]} -gt 0 ] || majors=(16 19 22)
summary=() status=0
for m in "${majors[@]}"; do
  case $m in 16|19|22) ;; *) echo "test-matrix: LLVM $m is not supported (16, 19 or 22)" >&2; exit 2 ;; esac
  var=HOTPATH_BUILD_DIR_$m
  default=$root/build-$m; [ "$m" = 19 ] && default=$root/build
  dir=${!var:-$default}
  echo "=== LLVM $m: $dir"
  mkdir -p "$dir"
  start=$(date +%s)
  HOTPATH_LLVM_MAJOR=$m HOTPATH_BUILD_DIR=$dir HOTPATH_BUILD_SECOND_MAJOR=0 "$root/scripts/test.sh" "${ctest_args[@]}" \
    2>&1 | tee "$dir/matrix.log"
  rc=${PIPESTATUS[0]}
  line=$(grep -E 'tests passed|tests failed' "$dir/matrix.log" | tail -1)
  summary+=("LLVM $m: ${line:-no test result} (exit $rc, $(( $(date +%s) - start )) s)")
  [ "$rc" -eq 0 ] || status=1
done
printf '%s\n' "${summary[@]}"
exit $status
