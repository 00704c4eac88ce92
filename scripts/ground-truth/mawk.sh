#!/bin/bash
# mawk.sh: ground truth on mawk 1.3.4-20200120 (Debian 12): an awk
# interpreter, a bytecode machine over tagged cells (docs/ground-truth/mawk.md).
#
# Fetches the Debian source and builds it as the buildds do (gt_debian_build:
# dpkg-buildpackage -T build-arch under bear; dh, autoconf, hardening=+all,
# `dh_auto_build -- mawk`); a patched tree has its objects removed and is
# built again by debian/rules override_dh_auto_build. The input:
#   text   gen-text.py --mb 8: 8 MiB of lines of words from a fixed
#          vocabulary with numbers mixed in (deterministic)
# Workloads, under callgrind for each build:
#   wordfreq: mawk '{ for (i = 1; i <= NF; i++) n[$i]++ }
#                   END { for (w in n) print n[w], w }' text
#   numbers:  mawk '{ c += length($0); for (i = 1; i <= NF; i++)
#                     if ($i ~ /^[0-9]+$/) { s += $i; k++ } }
#                   END { printf "%d %d %d %.0f\n", NR, c, k, s }' text
# stdout, stderr and exit status are compared across builds byte for byte.
#
#   scripts/ground-truth/mawk.sh [--work DIR] [--out DIR] [--jobs 2]
#       [--tool PATH [--evaluate [--fix-from-patch]]] [--no-install] [--no-perf]
. "$(dirname "$0")/common.sh"
gt_parse_args "$@"

PKG=mawk
SRCPKG=mawk
TARGETS="test compare"
SPLIT_PATCH=$PATCHES/mawk-split.patch
FLOOR_PATCH=$PATCHES/mawk-floor.patch
WORKLOADS="wordfreq numbers"
EXPLAIN="test:execute.c compare:execute.c"
gt_install $SRCPKG

gt_rebuild() {
	cd "$1"
	rm -f ./*.o mawk
	DEB_BUILD_OPTIONS="nocheck nodoc parallel=$JOBS" debian/rules override_dh_auto_build
}

gt_inputs() {
	[ -f "$WL/text" ] && return 0
	python3 "$GT_SCRIPTS/gen-text.py" "$WL/text.tmp" --mb 8
	mv "$WL/text.tmp" "$WL/text"
}

WORDFREQ='{ for (i = 1; i <= NF; i++) n[$i]++ } END { for (w in n) print n[w], w }'
NUMBERS='{ c += length($0); for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+$/) { s += $i; k++ } }
END { printf "%d %d %d %.0f\n", NR, c, k, s }'

gt_workload() {
	local w=$1 v=$2 dir=$3
	case $w in
	wordfreq) (cd "$WL" && gt_callgrind "$RES/$v.$w.cg" "$RES/$v.$w" "$dir/mawk" "$WORDFREQ" text) ;;
	numbers)  (cd "$WL" && gt_callgrind "$RES/$v.$w.cg" "$RES/$v.$w" "$dir/mawk" "$NUMBERS" text) ;;
	esac
}

gt_perf_workloads() {
	(cd "$WL" && gt_perf mawk-wordfreq "$1/mawk" "$WORDFREQ" text)
	(cd "$WL" && gt_perf mawk-numbers "$1/mawk" "$NUMBERS" text)
}

gt_program
