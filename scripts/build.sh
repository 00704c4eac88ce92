#!/usr/bin/env bash
# Installs what is missing, then configures and builds hotpath-tidy into
# ${HOTPATH_BUILD_DIR:-build}. Used by run-samples.sh and test.sh.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${HOTPATH_BUILD_DIR:-$root/build}
"$root/scripts/install-deps.sh"
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
major=${HOTPATH_LLVM_MAJOR:-19}
if [ -f "$build/CMakeCache.txt" ]; then
  cached=$(sed -n 's/^HOTPATH_LLVM_MAJOR:STRING=//p' "$build/CMakeCache.txt")
  if [ -n "$cached" ] && [ "$cached" != "$major" ]; then
    echo "build.sh: $build is configured for LLVM $cached, not $major: set HOTPATH_BUILD_DIR" \
         "to another directory (scripts/test-matrix.sh uses build-$major)" >&2
    exit 2
  fi
else
  cmake -S "$root" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
        -DHOTPATH_LLVM_MAJOR="$major" >/dev/null
fi
cmake --build "$build" -j "${HOTPATH_JOBS:-2}"
