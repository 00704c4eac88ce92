#!/bin/bash
# libarchive.sh: ground truth on libarchive 3.6.2 (Debian 12): __archive_check_magic.
#
# Installs the tools and build dependencies (apt-get), fetches the Debian
# source and builds it as the buildds do (dpkg-buildpackage -T clean, then
# -T build-arch under bear: dh, hardening=+all; "-T build" would find the
# source's own build/ directory and do nothing), then two variants of the
# built tree, each rebuilt with the same Makefiles (same flags):
#   after: patches/libarchive-__archive_check_magic-split.patch: the hand
#          split in the tool's form. The check has external linkage and is
#          declared in archive_private.h, so the static inline fast path goes
#          there, and the reporter __archive_check_magic_report (the original
#          body, noinline cold) stays in archive_check_magic.c
#   floor: patches/libarchive-__archive_check_magic-floor.patch: the check
#          deleted (the inline function returns ARCHIVE_OK)
# Workloads, under callgrind for each build (bsdtar from .libs, run against
# that build's libarchive.so):
#   rewrite: bsdtar -cf out.tar --format pax @in.tar  (in.tar: 110,110
#            entries, deterministic, gen-tar.py)
#   list:    bsdtar -tvf out.tar  (the before build's pax output)
# Prints the figures and compares stdout, stderr, exit status and the
# written archive across builds.
#
# With --tool: the tool's defaults and --explain=__archive_check_magic. With
# --evaluate: the evaluation (evaluate.sh; --fix-from-patch: the hand split
# instead of the tool's fix).
#
#   scripts/ground-truth/libarchive.sh [--work DIR] [--out DIR] [--jobs 2]
#       [--tool PATH [--evaluate [--fix-from-patch]]] [--no-install] [--no-perf]
. "$(dirname "$0")/common.sh"
gt_parse_args "$@"

PKG=libarchive
TARGET=__archive_check_magic
SPLIT_PATCH=$PATCHES/libarchive-__archive_check_magic-split.patch
MEASURED="rewrite list"
RES=$WORK/results/$PKG
WL=$WORK/workload/$PKG
mkdir -p "$RES" "$WL"
gt_install libarchive
SRC=$(gt_fetch $PKG)
log "source: $SRC"

# build VARIANT [PATCH] -> the tree: before from the pristine source under
# bear; the others a copy of the built before tree with PATCH applied and
# make run again. Debian configures with --disable-dependency-tracking, so
# make would not see a header change: the library's objects are removed.
build() {
	local v=$1 patch=${2:-} dir
	if [ "$v" = before ]; then
		dir=$(gt_variant $PKG-before "$SRC")
	else
		dir=$(gt_variant $PKG-$v "$WORK/build/$PKG-before" "$patch")
	fi
	[ ! -f "$dir/.gt-built" ] || { echo "$dir"; return 0; }
	log "building $PKG ($v) in $dir"
	if [ "$v" = before ]; then
		gt_debian_build "$dir" build-arch
	else
		rm -f "$dir"/libarchive/*.o "$dir"/libarchive/*.lo "$dir"/libarchive/.libs/*.o
		if grep '^+++ ' "$patch" | grep -qv '^+++ b/libarchive/'; then
			find "$dir" \( -name '*.o' -o -name '*.lo' \) -exec rm -f {} +
		fi
		(cd "$dir" && make -j"$JOBS" V=1) > "$WORK/build/$PKG-$v.build.log" 2>&1 ||
			{ tail -30 "$WORK/build/$PKG-$v.build.log" >&2; exit 1; }
	fi
	gt_db_retarget "$dir"
	gt_mark_built "$dir"
	rm -f "$RES/$v".*
	echo "$dir"
}

# bsdtar of a build: the real binary libtool left in .libs, run against that
# build's libarchive.so (checked with ldd: never the system's).
bsdtar_of() {
	local b=$1 bin
	for bin in "$b/.libs/bsdtar" "$b/.libs/lt-bsdtar" "$b/bsdtar"; do
		[ -x "$bin" ] && file "$bin" | grep -q ELF && break
	done
	# ldd's output read whole: grep -q stopping early would kill ldd with
	# SIGPIPE, and pipefail would take that for "not found".
	local libs
	libs=$(LD_LIBRARY_PATH="$b/.libs" ldd "$bin")
	if ! grep -qF "$b/.libs/libarchive.so" <<<"$libs"; then
		echo "bsdtar $bin does not load $b/.libs/libarchive.so" >&2; exit 1
	fi
	echo "$bin"
}

export TZ=UTC LC_ALL=C
# run_variant VARIANT TREE: both workloads; every build lists the before
# build's archive, so that only the code differs.
run_variant() {
	local v=$1 b=$2 bsdtar
	bsdtar=$(bsdtar_of "$b")
	if [ ! -f "$RES/$v.rewrite.rc" ]; then
		log "callgrind: bsdtar -cf --format pax @in.tar ($v)"
		rm -f "$WL/$v.out.tar"
		(cd "$WL" && LD_LIBRARY_PATH="$b/.libs" gt_callgrind "$RES/$v.rewrite.cg" "$RES/$v.rewrite" \
			"$bsdtar" -cf $v.out.tar --format pax @in.tar)
		sha256sum < "$WL/$v.out.tar" > "$RES/$v.rewrite.sha256"
	fi
	if [ ! -f "$RES/$v.list.rc" ]; then
		log "callgrind: bsdtar -tvf out.tar ($v)"
		(cd "$WL" && LD_LIBRARY_PATH="$b/.libs" gt_callgrind "$RES/$v.list.cg" "$RES/$v.list" \
			"$bsdtar" -tvf before.out.tar)
	fi
}

# same_as_before VARIANT: stdout, stderr and exit status of both workloads
# and the written archive (sha256).
same_as_before() {
	local w ok=0
	for w in rewrite list; do
		gt_same "$RES/before.$w" "$RES/$1.$w" || { ok=1; log "output differs: $w before vs $1"; }
	done
	cmp -s "$RES/before.rewrite.sha256" "$RES/$1.rewrite.sha256" ||
		{ ok=1; log "written archive differs: before vs $1"; }
	return $ok
}

B_BEFORE=$(build before)
B_AFTER=$(build after "$SPLIT_PATCH")
B_FLOOR=$(build floor "$PATCHES/libarchive-__archive_check_magic-floor.patch")

if [ ! -f "$WL/in.tar" ]; then
	log "generating in.tar"
	python3 "$GT_SCRIPTS/gen-tar.py" "$WL/in.tar.tmp" >&2
	mv "$WL/in.tar.tmp" "$WL/in.tar"
fi
for v in before after floor; do
	eval "run_variant $v \"\$B_${v^^}\""
done

same=yes
for v in after floor; do
	same_as_before $v || same=NO
done
cp "$RES/before.rewrite.cg" "$OUT/profiles/libarchive-rewrite.callgrind.out"
cp "$RES/before.list.cg" "$OUT/profiles/libarchive-list.callgrind.out"

declare -A T
for v in before after floor; do
	for w in rewrite list; do
		T[$v.$w]=$(gt_total "$RES/$v.$w.cg")
	done
done
{
	echo "libarchive 3.6.2: __archive_check_magic (libarchive/archive_check_magic.c)"
	echo "workloads: bsdtar -cf out.tar --format pax @in.tar (in.tar: $(python3 -c 'import tarfile,sys; print(sum(1 for _ in tarfile.open(sys.argv[1])))' "$WL/in.tar") entries); bsdtar -tvf out.tar"
	echo "compile command of libarchive/archive_check_magic.c (compile_commands.json):"
	python3 -c 'import json,sys; print("  "+" ".join(next(e.get("arguments") or [e["command"]] for e in json.load(open(sys.argv[1])) if e["file"].endswith("archive_check_magic.c"))))' "$B_BEFORE/compile_commands.json"
	for w in rewrite list; do
		read -r self incl calls < <(gt_fn_cost "$RES/before.$w.cg" __archive_check_magic)
		read -r aself aincl acalls < <(gt_fn_cost "$RES/after.$w.cg" __archive_check_magic_report)
		echo "[$w] instructions (callgrind Ir): before ${T[before.$w]}, after ${T[after.$w]}, floor ${T[floor.$w]}"
		echo "[$w] __archive_check_magic (before): self $self, inclusive $incl, calls $calls ($(gt_pct ${T[before.$w]} $(( ${T[before.$w]} - incl )))% inclusive)"
		echo "[$w] __archive_check_magic_report (after): self $aself, inclusive $aincl, calls $acalls"
		echo "[$w] removable share (before-floor)/before: $(gt_pct ${T[before.$w]} ${T[floor.$w]})%"
		echo "[$w] hand split removes (before-after)/(before-floor): $(gt_ratio ${T[before.$w]} ${T[after.$w]} ${T[floor.$w]})%"
		echo "[$w] exit status $(cat "$RES/before.$w.rc")"
	done
	echo "output (stdout, stderr, exit status, written archive) identical before/after/floor: $same"
	for w in rewrite list; do
		echo "top self cost, $w (before):"
		gt_top_self "$RES/before.$w.cg" 15 | sed 's/^/  /'
	done
} | tee "$OUT/RESULTS-libarchive.txt"

if [ "$PERF" = 1 ] && [ ! -f "$OUT/profiles/libarchive-list.perf.txt" ]; then
	BSDTAR=$(bsdtar_of "$B_BEFORE")
	(cd "$WL" && rm -f perf.out.tar && LD_LIBRARY_PATH="$B_BEFORE/.libs" \
		gt_perf libarchive-rewrite "$BSDTAR" -cf perf.out.tar --format pax @in.tar)
	(cd "$WL" && LD_LIBRARY_PATH="$B_BEFORE/.libs" gt_perf libarchive-list "$BSDTAR" -tvf perf.out.tar)
fi

status=0
[ "$same" = yes ] || status=1
if [ -n "$TOOL" ]; then
	gt_explain __archive_check_magic libarchive/archive_check_magic.c
	if [ "$EVALUATE" = 1 ]; then
		PROFILES=("$OUT/profiles/libarchive-rewrite.callgrind.out"
			"$OUT/profiles/libarchive-list.callgrind.out"
			"$OUT/profiles/libarchive-rewrite.perf.txt"
			"$OUT/profiles/libarchive-list.perf.txt")
		gt_evaluate || status=1
	else
		gt_tool default
		echo "hotpath-tidy -p (defaults): $(gt_tool_summary default), listed in $OUT/tool/$PKG-default.findings"
	fi
fi
exit $status
