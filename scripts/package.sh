#!/usr/bin/env bash
# Builds the Debian package hotpath-tidy-<N> for one LLVM major (default 19):
#   scripts/package.sh [19|22]
# -> build-package-<N>/hotpath-tidy-<N>_<version>-<release>_<arch>.deb, named
# and laid out like clang-tidy-<N> so that the packages of two majors install
# side by side (packaging/Packaging.cmake: the paths, Depends, copyright,
# changelog, the hotpath-tidy alternative). It installs only what building
# and packaging need (install-deps.sh --build), and builds in its own
# directory, configured for /usr, so that the paths compiled in are the
# installed ones. ctest -R package.deb runs lintian on a package of the build;
# scripts/package-chroot.sh installs both majors' in a clean Debian 12.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
major=${1:-${HOTPATH_LLVM_MAJOR:-19}}
case $major in
  "" | *[!0-9]*) echo "package.sh: the LLVM major is a number (19, 22), not '$major'" >&2; exit 2 ;;
esac
build=${HOTPATH_PACKAGE_DIR:-$root/build-package-$major}
HOTPATH_LLVM_MAJOR=$major "$root/scripts/install-deps.sh" --build
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
# Debian's hardening of the link (dpkg-buildflags: relro, immediate binding).
# Not its compile flags (_FORTIFY_SOURCE, lintian's info
# hardening-no-fortify-functions): the objects then differ from the test
# builds' and ccache cannot share them (a cold build is ~20 min a major here).
ldflags=$(DEB_BUILD_MAINT_OPTIONS=hardening=+all dpkg-buildflags --get LDFLAGS)
cmake -S "$root" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_EXE_LINKER_FLAGS="$ldflags" -DCMAKE_SHARED_LINKER_FLAGS="$ldflags" -DCMAKE_MODULE_LINKER_FLAGS="$ldflags" \
      -DHOTPATH_LLVM_MAJOR="$major" -DCMAKE_INSTALL_PREFIX=/usr -DHOTPATH_BUILD_TESTS=OFF >/dev/null
cmake --build "$build" -j "${HOTPATH_JOBS:-2}" --target hotpath-tidy hotpathTidyModule
(cd "$build" && rm -f hotpath-tidy-*.deb && cpack -G DEB >/dev/null)
deb=$(ls "$build"/hotpath-tidy-"$major"_*.deb)
echo "$deb"
dpkg-deb --field "$deb" Package Version Section Priority Depends Recommends
