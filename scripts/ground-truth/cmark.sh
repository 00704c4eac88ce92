#!/bin/bash
# cmark.sh: ground truth on cmark 0.30.2 (Debian 12): the CommonMark
# reference parser, a modern C library built with CMake
# (docs/ground-truth/cmark.md).
#
# Fetches the Debian source and builds it as the buildds do (gt_debian_build:
# dpkg-buildpackage -T build-arch under bear; dh --buildsystem=cmake, into
# obj-x86_64-linux-gnu; a patched tree is configured and built again by
# dh_auto_configure and dh_auto_build: a copied CMake build directory still
# names the tree it was made in). The input, made once from the
# package's own benchmark corpus (upstream's `make newbench` feeds each of
# bench/samples/*.md 200 times to cmark):
#   bench.md  each bench/samples/*.md 100 times, then test/spec.txt (the
#             CommonMark specification) 10 times: 3.1 MB
# Workloads, under callgrind for each build:
#   html:       cmark bench.md                  (to HTML)
#   commonmark: cmark --to commonmark bench.md  (parse and render back)
# stdout, stderr and exit status are compared across builds byte for byte.
#
#   scripts/ground-truth/cmark.sh [--work DIR] [--out DIR] [--jobs 2]
#       [--tool PATH [--evaluate [--fix-from-patch]]] [--no-install] [--no-perf]
. "$(dirname "$0")/common.sh"
gt_parse_args "$@"

PKG=cmark
SRCPKG=cmark
TARGETS="cmark_strbuf_grow cmark_node_get_literal"
SPLIT_PATCH=$PATCHES/cmark-split.patch
FLOOR_PATCH=$PATCHES/cmark-floor.patch
WORKLOADS="html commonmark"
EXPLAIN="cmark_strbuf_grow:src/buffer.c cmark_node_get_literal:src/node.c"
gt_install $SRCPKG

# A CMake build directory names its tree by absolute paths: make in a copy
# of it would rebuild the before tree. The copy is configured afresh, as
# dh does it.
gt_rebuild() {
	cd "$1"
	rm -rf obj-x86_64-linux-gnu
	export DEB_BUILD_OPTIONS="nocheck nodoc parallel=$JOBS"
	dh_auto_configure --buildsystem=cmake
	dh_auto_build --buildsystem=cmake
}

gt_inputs() {
	[ -f "$WL/bench.md" ] && return 0
	local src
	src=$(gt_fetch $SRCPKG)
	python3 - "$src" "$WL/bench.md.tmp" <<'PY'
import glob, os, sys
src, out = sys.argv[1:]
with open(out, 'wb') as f:
    for sample in sorted(glob.glob(os.path.join(src, 'bench/samples/*.md'))):
        f.write(open(sample, 'rb').read() * 100)
    f.write(open(os.path.join(src, 'test/spec.txt'), 'rb').read() * 10)
PY
	mv "$WL/bench.md.tmp" "$WL/bench.md"
}

# The cmark binary of a build, and the libcmark it loads (if shared) its own.
cmark_of() {
	local bin=$1/obj-x86_64-linux-gnu/src/cmark libs
	libs=$(ldd "$bin")
	if grep -q libcmark <<<"$libs" && ! grep -qF "$1/" <<<"$libs"; then
		echo "$bin does not load its own tree's libcmark" >&2; exit 1
	fi
	echo "$bin"
}

gt_workload() {
	local w=$1 v=$2 bin
	bin=$(cmark_of "$3")
	case $w in
	html)       (cd "$WL" && gt_callgrind "$RES/$v.$w.cg" "$RES/$v.$w" "$bin" bench.md) ;;
	commonmark) (cd "$WL" && gt_callgrind "$RES/$v.$w.cg" "$RES/$v.$w" "$bin" --to commonmark bench.md) ;;
	esac
}

gt_perf_workloads() {
	local bin
	bin=$(cmark_of "$1")
	(cd "$WL" && gt_perf cmark-html "$bin" bench.md)
	(cd "$WL" && gt_perf cmark-commonmark "$bin" --to commonmark bench.md)
}

gt_program
