#!/bin/bash
# bzip2.sh: ground truth on bzip2 1.0.8 (Debian 12): a compressor of the
# 1990s, one library in a handful of large files (docs/ground-truth/bzip2.md).
#
# Fetches the Debian source and builds it as the buildds do (gt_debian_build:
# dpkg-buildpackage -T build-arch under bear; debian/rules passes Debian's
# hardening flags to the upstream Makefile, and bzip2 links the shared
# libbz2.so.1.0 of its own tree). Workloads, under callgrind for each build
# (LD_LIBRARY_PATH=the tree, checked with ldd):
#   compress:   bzip2 -c corpus.tar > corpus.tar.bz2  (corpus.tar: bzip2's
#               own upstream tarball, uncompressed: 3,143,680 bytes of C,
#               documentation and the sample files of its test suite)
#   decompress: bzip2 -dc corpus.tar.bz2 (the before build's) > corpus.out
# stdout (the written stream) is compared across builds byte for byte, and
# the round trip with the corpus. The ground truth is empty (a negative control, see
# the .md): no split patches.
#
#   scripts/ground-truth/bzip2.sh [--work DIR] [--out DIR] [--jobs 2]
#       [--tool PATH [--evaluate [--fix-from-patch]]] [--no-install] [--no-perf]
. "$(dirname "$0")/common.sh"
gt_parse_args "$@"

PKG=bzip2
SRCPKG=bzip2
TARGETS=
WORKLOADS="compress decompress"
gt_install $SRCPKG

# The upstream Makefile knows no header dependencies: every object goes.
gt_rebuild() {
	cd "$1"
	rm -f ./*.o libbz2.a libbz2.so* bzip2 bzip2recover
	DEB_BUILD_OPTIONS="nocheck nodoc parallel=$JOBS" debian/rules override_dh_auto_build-arch
}

gt_inputs() {
	[ -f "$WL/corpus.tar" ] && return 0
	zcat "$(dirname "$(gt_fetch $SRCPKG)")"/bzip2_*.orig.tar.gz > "$WL/corpus.tar.tmp"
	mv "$WL/corpus.tar.tmp" "$WL/corpus.tar"
}

bzip2_of() {
	gt_loads_own "$1/bzip2" "$1" libbz2.so.1.0
	echo "$1/bzip2"
}

# stdout is the written stream (compared byte for byte as the output).
gt_workload() {
	local w=$1 v=$2 dir=$3 bin
	bin=$(bzip2_of "$dir")
	case $w in
	compress)
		(cd "$WL" && LD_LIBRARY_PATH="$dir" gt_callgrind "$RES/$v.$w.cg" "$RES/$v.$w" \
			"$bin" -c corpus.tar)
		[ "$v" != before ] || cp "$RES/$v.$w.out" "$WL/before.tar.bz2" ;;
	decompress)
		(cd "$WL" && LD_LIBRARY_PATH="$dir" gt_callgrind "$RES/$v.$w.cg" "$RES/$v.$w" \
			"$bin" -dc before.tar.bz2)
		cmp -s "$WL/corpus.tar" "$RES/$v.$w.out" || log "round trip of $v is not exact" ;;
	esac
}

gt_perf_workloads() {
	local bin
	bin=$(bzip2_of "$1")
	(cd "$WL" && LD_LIBRARY_PATH="$1" gt_perf bzip2-compress "$bin" -c corpus.tar)
	(cd "$WL" && LD_LIBRARY_PATH="$1" gt_perf bzip2-decompress "$bin" -dc before.tar.bz2)
}

gt_program
