#!/usr/bin/env bash
# Builds the Debian package of hotpath-tidy for one LLVM major (default 19):
#   scripts/package.sh [16|19|22]
# -> build-package-<N>/hotpath-tidy_<version>+llvm<N>_<arch>.deb, installed
# under /usr (tool, module, rule presets, docs; see docs/ci.md), depending on
# clang-tidy-<N>. Its own build directory, configured for /usr, so that the
# paths compiled in (the SARIF rules' helpUri) are the installed ones.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
major=${1:-${HOTPATH_LLVM_MAJOR:-19}}
build=${HOTPATH_PACKAGE_DIR:-$root/build-package-$major}
HOTPATH_LLVM_MAJOR=$major "$root/scripts/install-deps.sh"
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
cmake -S "$root" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
      -DHOTPATH_LLVM_MAJOR="$major" -DCMAKE_INSTALL_PREFIX=/usr -DHOTPATH_BUILD_TESTS=OFF >/dev/null
cmake --build "$build" -j "${HOTPATH_JOBS:-2}" --target hotpath-tidy hotpathTidyModule
(cd "$build" && rm -f hotpath-tidy_*.deb && cpack -G DEB >/dev/null)
deb=$(ls "$build"/hotpath-tidy_*.deb)
echo "$deb"
dpkg-deb --field "$deb" Package Version Depends Recommends
