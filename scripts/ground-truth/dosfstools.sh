#!/bin/bash
# dosfstools.sh: ground truth on dosfstools 4.2 (Debian 12): fsck.fat, a
# file-system checker of the Linux tool style (docs/ground-truth/dosfstools.md).
#
# Fetches the Debian source and builds it as the buildds do (gt_debian_build:
# dpkg-buildpackage -T build-arch under bear; dh, autotools, hardening=+all,
# --disable-dependency-tracking, so a patched tree has its objects removed).
# The image, made once with the before build's mkfs.fat and mtools:
#   tree/   gen-fat-tree.py: 15,360 files with long mixed-case names in 216
#           directories, 117 MB, fixed time stamps
#   fat.img mkfs.fat --invariant -F 32 -n GTFAT -C fat.img 262144, then
#           mcopy -s -m of the tree (MTOOLS_SKIP_CHECK=1)
# Workloads, under callgrind for each build, on the same image (opened
# read-only: -n):
#   check:  fsck.fat -n fat.img        (boot sector, FAT, every directory
#                                       entry and cluster chain)
#   verify: fsck.fat -n -V -v fat.img  (the same, a verification pass after
#                                       it, and every file named as it goes)
# stdout, stderr and exit status are compared across builds byte for byte.
#
#   scripts/ground-truth/dosfstools.sh [--work DIR] [--out DIR] [--jobs 2]
#       [--tool PATH [--evaluate [--fix-from-patch]]] [--no-install] [--no-perf]
. "$(dirname "$0")/common.sh"
gt_parse_args "$@"

PKG=dosfstools
SRCPKG=dosfstools
TARGETS="get_owner file_type file_find"
SPLIT_PATCH=$PATCHES/dosfstools-split.patch
FLOOR_PATCH=$PATCHES/dosfstools-floor.patch
WORKLOADS="check verify"
EXPLAIN="get_owner:src/fat.c file_type:src/file.c file_find:src/file.c"
gt_install $SRCPKG
[ "$INSTALL" = 0 ] || DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 \
	install -y -q mtools >/dev/null

gt_rebuild() {
	cd "$1"
	rm -f src/*.o src/fsck.fat src/mkfs.fat src/fatlabel
	DEB_BUILD_OPTIONS="nocheck nodoc parallel=$JOBS" dh_auto_build
}

gt_inputs() {
	[ -f "$WL/fat.img" ] && return 0
	log "generating the tree and fat.img"
	python3 "$GT_SCRIPTS/gen-fat-tree.py" "$WL/tree" >&2
	rm -f "$WL/fat.img.tmp"
	"$B_BEFORE/src/mkfs.fat" --invariant -F 32 -n GTFAT -C "$WL/fat.img.tmp" 262144 >&2
	(cd "$WL/tree" && MTOOLS_SKIP_CHECK=1 mcopy -s -m -i "$WL/fat.img.tmp" ./* ::/)
	mv "$WL/fat.img.tmp" "$WL/fat.img"
}

gt_workload() {
	local w=$1 v=$2 dir=$3
	case $w in
	check)  (cd "$WL" && gt_callgrind "$RES/$v.$w.cg" "$RES/$v.$w" "$dir/src/fsck.fat" -n fat.img) ;;
	verify) (cd "$WL" && gt_callgrind "$RES/$v.$w.cg" "$RES/$v.$w" "$dir/src/fsck.fat" -n -V -v fat.img) ;;
	esac
}

gt_perf_workloads() {
	(cd "$WL" && gt_perf dosfstools-check "$1/src/fsck.fat" -n fat.img)
	(cd "$WL" && gt_perf dosfstools-verify "$1/src/fsck.fat" -n -V -v fat.img)
}

gt_program
