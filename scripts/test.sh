#!/usr/bin/env bash
# The whole test suite on a fresh Debian 12 machine: installs what is missing,
# builds, then runs every test (unit, golden, end to end) through CTest.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${HOTPATH_BUILD_DIR:-$root/build}
"$root/scripts/build.sh"
"$root/scripts/build-second-major.sh"
cd "$build"
ctest --output-on-failure -j "${HOTPATH_JOBS:-2}" "$@"
