#!/bin/bash
# expat.sh: ground truth on expat 2.5.0 (Debian 12): the stream-oriented
# XML parser, a tokenizer of macros and state functions
# (docs/ground-truth/expat.md).
#
# Fetches the Debian source and builds it as the buildds do (gt_debian_build:
# dpkg-buildpackage -T build-arch under bear). Debian's rules copy expat/
# into src/ (and srcw/, the XML_UNICODE library) and build with autotools in
# build/ (and buildw/): the compile database names src/lib/*.c, so the
# patches do too, and a patched tree is rebuilt with `make -C build` after its
# library objects are removed. Workloads, under callgrind for each build
# (xmlwf from build/xmlwf/.libs, run against that build's libexpat.so,
# checked with ldd), on expat's own benchmark files (testdata/largefiles,
# README.txt there):
#   canon: xmlwf -d out nes96.xml wordnet_glossary-20010201.rdf
#          (17.3 MB: no namespaces and mixed content; ISO-8859-1, internal
#          entities, attributes; each written out in canonical form)
#   ns:    xmlwf -n ns_att_test.xml  (35.7 MB, 28 prefixed attributes an
#          element on average: namespace processing, the duplicate
#          attribute check; well-formedness only)
# stdout, stderr, exit status and the written files are compared across
# builds byte for byte.
#
#   scripts/ground-truth/expat.sh [--work DIR] [--out DIR] [--jobs 2]
#       [--tool PATH [--evaluate [--fix-from-patch]]] [--no-install] [--no-perf]
. "$(dirname "$0")/common.sh"
gt_parse_args "$@"

PKG=expat
SRCPKG=expat
TARGETS=
SPLIT_PATCH=$PATCHES/expat-split.patch
FLOOR_PATCH=$PATCHES/expat-floor.patch
WORKLOADS="canon ns"
gt_install $SRCPKG

gt_rebuild() {
	cd "$1"
	find build \( -name '*.o' -o -name '*.lo' \) -exec rm -f {} +
	make -j"$JOBS" -C build
}

gt_inputs() {
	local src f
	src=$(gt_fetch $SRCPKG)
	for f in nes96.xml wordnet_glossary-20010201.rdf ns_att_test.xml; do
		[ -f "$WL/$f" ] || cp "$src/testdata/largefiles/$f" "$WL/$f"
	done
}

xmlwf_of() {
	local bin=$1/build/xmlwf/.libs/xmlwf
	[ -x "$bin" ] || bin=$1/build/xmlwf/.libs/lt-xmlwf
	gt_loads_own "$bin" "$1/build/lib/.libs" libexpat.so.1
	echo "$bin"
}

gt_workload() {
	local w=$1 v=$2 dir=$3 bin
	bin=$(xmlwf_of "$dir")
	case $w in
	canon)
		rm -rf "$WL/$v.canon"; mkdir -p "$WL/$v.canon"
		(cd "$WL" && LD_LIBRARY_PATH="$dir/build/lib/.libs" gt_callgrind "$RES/$v.$w.cg" "$RES/$v.$w" \
			"$bin" -d "$v.canon" nes96.xml wordnet_glossary-20010201.rdf)
		gt_digest "$WL/$v.canon"/* > "$RES/$v.$w.files" ;;
	ns)
		(cd "$WL" && LD_LIBRARY_PATH="$dir/build/lib/.libs" gt_callgrind "$RES/$v.$w.cg" "$RES/$v.$w" \
			"$bin" -n ns_att_test.xml) ;;
	esac
}

gt_perf_workloads() {
	local bin
	bin=$(xmlwf_of "$1")
	rm -rf "$WL/perf.canon"; mkdir -p "$WL/perf.canon"
	(cd "$WL" && LD_LIBRARY_PATH="$1/build/lib/.libs" gt_perf expat-canon "$bin" -d perf.canon nes96.xml wordnet_glossary-20010201.rdf)
	(cd "$WL" && LD_LIBRARY_PATH="$1/build/lib/.libs" gt_perf expat-ns "$bin" -n ns_att_test.xml)
}

gt_program
