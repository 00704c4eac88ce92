#!/usr/bin/env bash
# Installs what is missing, then configures and builds hotpath-tidy into
# ${HOTPATH_BUILD_DIR:-build}. Used by run-samples.sh and test.sh.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${HOTPATH_BUILD_DIR:-$root/build}
"$root/scripts/install-deps.sh"
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$root" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
        -DHOTPATH_LLVM_MAJOR="${HOTPATH_LLVM_MAJOR:-19}" >/dev/null
fi
cmake --build "$build" -j "${HOTPATH_JOBS:-2}"
