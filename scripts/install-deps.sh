#!/usr/bin/env bash
# Installs what hotpath-tidy needs on a Debian 12 machine. Idempotent:
# packages already present are skipped, so a second run costs one dpkg query.
#   install-deps.sh          building, testing, samples and benchmarks (test.sh,
#                            run-samples.sh: CI runs on a clean machine)
#   install-deps.sh --build  building and packaging only (scripts/package.sh)
set -euo pipefail

LLVM_MAJOR="${HOTPATH_LLVM_MAJOR:-19}"
case "${1:-}" in
  "" | --build) ;;
  *) echo "usage: install-deps.sh [--build]" >&2; exit 2 ;;
esac
# Building hotpath-tidy for LLVM_MAJOR and its package: the compilers,
# LLVM's and clang's libraries and CMake files (ClangConfig.cmake is in
# clang-N, not libclang-N-dev: package-chroot.sh's clean machine showed it),
# cpack's DEB generator (dpkg-shlibdeps, file; strip from binutils).
packages=(
  cmake ninja-build ccache make gcc g++ python3 binutils dpkg-dev file
  "clang-${LLVM_MAJOR}" "libclang-${LLVM_MAJOR}-dev" "llvm-${LLVM_MAJOR}-dev"
  libsqlite3-dev  # the project index's store (docs/project-index.md)
)
# The tests, the samples and the benchmarks besides.
test_packages=(
  git bear valgrind
  "clang-tidy-${LLVM_MAJOR}" "clang-tools-${LLVM_MAJOR}"
  "libclang-rt-${LLVM_MAJOR}-dev"  # clang's profile runtime: PGO cells of scripts/bench-matrix.sh
  libgtest-dev libbenchmark-dev csmith libcsmith-dev linux-perf tcl bc
  util-linux  # setpriv: the unreadable-file cases run as nobody when CI runs as root
  python3-jsonschema  # SARIF output validated against the official schema
  python3-yaml  # tests/e2e/gha-emulate.py and ci-docs.sh read the CI recipes as YAML
  lintian  # the packages checked (ctest -R package.deb)
)
# The second major CI builds (scripts/build-second-major.sh), whose
# clang-tidy also shows the module refusing a foreign host.
second=${HOTPATH_SECOND_LLVM_MAJOR:-}
[ -n "$second" ] || { second=22; [ "$LLVM_MAJOR" = 22 ] && second=19; }
test_packages+=("clang-tidy-$second" "libclang-$second-dev" "llvm-$second-dev")
# npm fetches that schema (tests/e2e/fetch-sarif-schema.sh); Node's own npm,
# when there is one, is as good as Debian's.
command -v npm >/dev/null || test_packages+=(npm)
[ "${1:-}" = --build ] || packages+=("${test_packages[@]}")

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ "${#missing[@]}" -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "install-deps: installing ${missing[*]}"
$SUDO apt-get update -q
DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -q --no-install-recommends "${missing[@]}"
