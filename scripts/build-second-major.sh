#!/usr/bin/env bash
# CI builds a second LLVM major besides the default, so that the build for
# it cannot rot unseen (scripts/test-matrix.sh runs the whole suite on 16,
# 19 and 22): it installs that major, builds everything into build-<N>
# (module, hotpath-tidy, unit tests) and runs a smoke slice: the golden
# tests with that clang-tidy, and the module refusing the default major's
# clang-tidy. HOTPATH_SECOND_LLVM_MAJOR picks it (default 22, or 19 when the
# default is 22; install-deps.sh installs it); HOTPATH_BUILD_SECOND_MAJOR=0
# skips this build (scripts/test-matrix.sh builds every major anyway).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
first=${HOTPATH_LLVM_MAJOR:-19}
second=${HOTPATH_SECOND_LLVM_MAJOR:-}
[ -n "$second" ] || { second=22; [ "$first" = 22 ] && second=19; }
[ "${HOTPATH_BUILD_SECOND_MAJOR:-1}" = 0 ] && exit 0
build=$root/build-$second
echo "build-second-major: LLVM $second in $build"
HOTPATH_LLVM_MAJOR=$second HOTPATH_BUILD_DIR=$build "$root/scripts/build.sh"
cd "$build"
ctest --output-on-failure -j "${HOTPATH_JOBS:-2}" -R '^(golden\.|e2e\.wrong-clang-tidy)' |
  sed "s/^/[LLVM $second] /"
exit "${PIPESTATUS[0]}"
