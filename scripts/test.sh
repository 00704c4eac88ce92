#!/usr/bin/env bash
# The whole test suite on a fresh Debian 12 machine: installs what is missing,
# builds, then runs every test (unit, golden, end to end) through CTest.
#
# A CMake cache left in the build directory is reused only when it is
# configured as CI needs: tests on, the LLVM major asked for
# (HOTPATH_LLVM_MAJOR, default 19) and its prefix, a Release build (the cost
# figures are of one), this source tree. Otherwise it is removed and the
# build configures afresh: a reused cache with the tests switched off made
# CI green with nothing run. For the same reason ctest fails on an empty suite
# (--no-tests=error).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${HOTPATH_BUILD_DIR:-$root/build}
major=${HOTPATH_LLVM_MAJOR:-19}

# cache_mismatch BUILD: prints why BUILD's CMake cache cannot be reused and
# succeeds; fails, silent, when there is no cache or it can be reused.
cache_mismatch() {
  local cache=$1/CMakeCache.txt want key got
  [ -f "$cache" ] || return 1
  for want in HOTPATH_BUILD_TESTS=ON "HOTPATH_LLVM_MAJOR=$major" "HOTPATH_LLVM_ROOT=/usr/lib/llvm-$major" \
              CMAKE_BUILD_TYPE=Release "CMAKE_HOME_DIRECTORY=$root"; do
    key=${want%%=*}
    got=$(sed -n "s/^$key:[A-Z]*=//p" "$cache")
    [ "$key" = HOTPATH_BUILD_TESTS ] && case ${got^^} in ON|TRUE|YES|1) got=ON ;; esac
    if [ "$got" != "${want#*=}" ]; then
      echo "$cache: $key is '$got', CI needs '${want#*=}'"
      return 0
    fi
  done
  return 1
}

# run_ctest BUILD [CTEST ARGS...]: every test; no test at all is a failure.
run_ctest() {
  local dir=$1
  shift
  (cd "$dir" && ctest --no-tests=error --output-on-failure -j "${HOTPATH_JOBS:-2}" "$@")
}

main() {
  local why
  if why=$(cache_mismatch "$build"); then
    echo "test.sh: $why: configuring afresh"
    rm -rf "$build/CMakeCache.txt" "$build/CMakeFiles"
  fi
  "$root/scripts/build.sh"
  "$root/scripts/build-second-major.sh"
  run_ctest "$build" "$@"
}

# Sourced (tests/e2e/controls.sh), it only defines the functions above.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  main "$@"
fi
