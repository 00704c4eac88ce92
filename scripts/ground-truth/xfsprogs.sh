#!/bin/bash
# xfsprogs.sh: ground truth on xfsprogs 6.1.0 (Debian 12): check_nsec.
#
# Installs the tools and build dependencies (apt-get), fetches the Debian
# source and builds it as Debian builds it (dpkg-buildpackage -T clean, then
# -T build under bear: configure --enable-lto ..., DEBUG=-DNDEBUG, -g -O2),
# then two variants of the built tree, each rebuilt the same way:
#   after: patches/xfsprogs-check_nsec-split.patch, the hand split in the
#          tool's form (noinline cold check_nsec_report = the original body,
#          static inline fast path with one __builtin_expect condition)
#   floor: patches/xfsprogs-check_nsec-floor.patch, check_nsec deleted
# Workload, under callgrind for each build: mkfs.xfs -p of a deterministic
# prototype tree (70,000 files, gen-xfs-proto.py) into a 1 GiB file image,
# then xfs_repair -n of the before build's image. Prints the figures and
# compares stdout, stderr and exit status across builds.
#
# With --tool: the tool's defaults and --explain=check_nsec. With
# --evaluate: the evaluation (evaluate.sh): findings with the defaults, with
# the workload's callgrind and perf profiles, and the tool's fix built, run,
# compared and measured (--fix-from-patch: the hand split instead).
#
#   scripts/ground-truth/xfsprogs.sh [--work DIR] [--out DIR] [--jobs 2]
#       [--tool PATH [--evaluate [--fix-from-patch]]] [--no-install] [--no-perf]
#
# The installer (udeb) pass of debian/rules, a separate -Os build of mkfs that
# is then "make distclean"ed, is skipped (its marker file is created first):
# it builds nothing the workload runs and would duplicate entries in the
# compile database.
. "$(dirname "$0")/common.sh"
gt_parse_args "$@"

PKG=xfsprogs
TARGET=check_nsec
UUID=6b1d4e6e-2e2b-4a55-9d0e-000000000023
SPLIT_PATCH=$PATCHES/xfsprogs-check_nsec-split.patch
MEASURED=repair
RES=$WORK/results/$PKG
WL=$WORK/workload/$PKG
mkdir -p "$RES" "$WL"
gt_install xfsprogs
SRC=$(gt_fetch $PKG)
log "source: $SRC"

# build VARIANT [PATCH] -> the tree. before: the pristine source under bear;
# the others: a copy of the built before tree with PATCH applied and
# debian/rules build run again (it recompiles what changed and relinks with
# LTO). A changed header makes every object be rebuilt.
build() {
	local v=$1 patch=${2:-} dir
	if [ "$v" = before ]; then
		dir=$(gt_variant $PKG-before "$SRC")
	else
		dir=$(gt_variant $PKG-$v "$WORK/build/$PKG-before" "$patch")
	fi
	[ ! -f "$dir/.gt-built" ] || { echo "$dir"; return 0; }
	log "building $PKG ($v) in $dir"
	local cmd=(dpkg-buildpackage -T build -uc -us)
	if [ "$v" = before ]; then
		# dpkg-buildpackage runs "debian/rules clean" before the build: it
		# removes .gitcensus, which the upstream tarball ships and which
		# otherwise makes debian/rules skip configure (--enable-lto,
		# DEBUG=-DNDEBUG ...).
		(cd "$dir" && dpkg-buildpackage -T clean -uc -us) \
			> "$WORK/build/$PKG-$v.clean.log" 2>&1
		cmd=(bear --output compile_commands.json -- "${cmd[@]}")
	else
		rm -f "$dir/built"
		if grep '^+++ ' "$patch" | grep -qv '\.c$'; then
			find "$dir" \( -name '*.o' -o -name '*.lo' -o -name '*.la' -o -name '*.a' \) -exec rm -f {} +
		fi
		grep '^+++ ' "$patch" | sed 's|^+++ b/||; s/\t.*//' | (cd "$dir" && xargs touch)
	fi
	touch "$dir/mkfs/mkfs.xfs-xfsprogs-udeb"
	(cd "$dir" && DEB_BUILD_OPTIONS="nocheck nodoc parallel=$JOBS" "${cmd[@]}") \
		> "$WORK/build/$PKG-$v.build.log" 2>&1 ||
		{ tail -30 "$WORK/build/$PKG-$v.build.log" >&2; exit 1; }
	gt_db_retarget "$dir"
	gt_mark_built "$dir"
	rm -f "$RES/$v".*
	echo "$dir"
}

# run_variant VARIANT TREE: mkfs.xfs -p builds the variant's own image;
# xfs_repair -n of every variant checks the before build's image, so that
# only the code differs.
run_variant() {
	local v=$1 b=$2
	[ ! -f "$RES/$v.repair.rc" ] || return 0
	log "callgrind: mkfs.xfs -p ($v)"
	rm -f "$WL/fs.img"; truncate -s 1G "$WL/fs.img" # mkfs.xfs prints its name
	(cd "$WL" && gt_callgrind "$RES/$v.mkfs.cg" "$RES/$v.mkfs" \
		"$b/mkfs/mkfs.xfs" -f -m uuid=$UUID -p proto.txt fs.img)
	mv "$WL/fs.img" "$WL/$v.img"
	log "callgrind: xfs_repair -n ($v)"
	(cd "$WL" && gt_callgrind "$RES/$v.repair.cg" "$RES/$v.repair" \
		"$b/repair/xfs_repair" -n -f before.img)
}

# image_check VARIANT: what the before build's xfs_repair -n says of the
# image the variant's mkfs.xfs made (natively, not under callgrind).
image_check() {
	[ -f "$RES/$1.image.rc" ] && [ "$RES/$1.image.rc" -nt "$WL/$1.img" ] && return 0
	local rc=0
	(cd "$WL" && "$B_BEFORE/repair/xfs_repair" -n -f "$1.img") \
		> "$RES/$1.image.out" 2> "$RES/$1.image.err" || rc=$?
	echo "$rc" > "$RES/$1.image.rc"
}

# same_as_before VARIANT: stdout, stderr and exit status of both programs,
# and of xfs_repair -n of the image mkfs.xfs made. The images themselves
# differ byte for byte between any two runs of mkfs.xfs, one build or two:
# the inodes carry the time of the run (the protofile sets none).
same_as_before() {
	local w ok=0
	for w in mkfs repair; do
		gt_same "$RES/before.$w" "$RES/$1.$w" || { ok=1; log "output differs: $w before vs $1"; }
	done
	image_check before; image_check "$1"
	gt_same "$RES/before.image" "$RES/$1.image" || { ok=1; log "image check differs: before vs $1"; }
	return $ok
}

B_BEFORE=$(build before)
# The before tree must be complete before it is copied, so one at a time.
B_AFTER=$(build after "$SPLIT_PATCH")
B_FLOOR=$(build floor "$PATCHES/xfsprogs-check_nsec-floor.patch")

if [ ! -f "$WL/proto.txt" ]; then
	log "generating the prototype tree"
	(cd "$WL" && python3 "$GT_SCRIPTS/gen-xfs-proto.py" tree proto.txt.tmp)
	mv "$WL/proto.txt.tmp" "$WL/proto.txt"
fi
run_variant before "$B_BEFORE"
run_variant after "$B_AFTER"
run_variant floor "$B_FLOOR"
# Run-to-run noise (xfs_repair runs threads): the before build's xfs_repair again.
if [ ! -f "$RES/before2.repair.rc" ]; then
	log "callgrind: xfs_repair -n (before, second run, for the noise)"
	(cd "$WL" && gt_callgrind "$RES/before2.repair.cg" "$RES/before2.repair" \
		"$B_BEFORE/repair/xfs_repair" -n -f before.img)
fi

same=yes
for v in after floor; do
	same_as_before $v || same=NO
done
cp "$RES/before.mkfs.cg" "$OUT/profiles/xfsprogs-mkfs.callgrind.out"
cp "$RES/before.repair.cg" "$OUT/profiles/xfsprogs-repair.callgrind.out"

declare -A T
for v in before after floor; do
	for w in mkfs repair; do
		T[$v.$w]=$(gt_total "$RES/$v.$w.cg")
	done
	T[$v.all]=$(( ${T[$v.mkfs]} + ${T[$v.repair]} ))
done
read -r self incl calls < <(gt_fn_cost "$RES/before.repair.cg" check_nsec)
read -r aself aincl acalls < <(gt_fn_cost "$RES/after.repair.cg" check_nsec_report)
{
	echo "xfsprogs 6.1.0: check_nsec (repair/dinode.c)"
	echo "workload: mkfs.xfs -f -m uuid=$UUID -p proto.txt (70,000 files) into a 1 GiB image; xfs_repair -n -f image"
	echo "compile command of repair/dinode.c (compile_commands.json):"
	python3 -c 'import json,sys; print("  "+" ".join(next(e.get("arguments") or [e["command"]] for e in json.load(open(sys.argv[1])) if e["file"].endswith("repair/dinode.c"))))' "$B_BEFORE/compile_commands.json"
	echo "instructions (callgrind Ir):"
	printf '  %-8s %16s %16s %16s\n' build mkfs.xfs xfs_repair total
	for v in before after floor; do
		printf '  %-8s %16s %16s %16s\n' $v ${T[$v.mkfs]} ${T[$v.repair]} ${T[$v.all]}
	done
	echo "run-to-run noise, xfs_repair before run twice: ${T[before.repair]} vs $(gt_total "$RES/before2.repair.cg") (output identical: $(gt_same "$RES/before.repair" "$RES/before2.repair" && echo yes || echo NO))"
	echo "check_nsec in xfs_repair (before): self $self, inclusive $incl, calls $calls ($(gt_pct ${T[before.repair]} $(( ${T[before.repair]} - incl )))% of xfs_repair inclusive)"
	echo "check_nsec_report in xfs_repair (after): self $aself, inclusive $aincl, calls $acalls"
	echo "removable share (before-floor)/before: xfs_repair $(gt_pct ${T[before.repair]} ${T[floor.repair]})%, mkfs+repair $(gt_pct ${T[before.all]} ${T[floor.all]})%"
	echo "hand split removes (before-after)/(before-floor): xfs_repair $(gt_ratio ${T[before.repair]} ${T[after.repair]} ${T[floor.repair]})%, mkfs+repair $(gt_ratio ${T[before.all]} ${T[after.all]} ${T[floor.all]})%"
	echo "output (stdout, stderr, exit status; xfs_repair -n of each image) identical before/after/floor: $same (exit: mkfs $(cat "$RES/before.mkfs.rc"), repair $(cat "$RES/before.repair.rc"))"
	echo "top self cost, xfs_repair (before):"
	gt_top_self "$RES/before.repair.cg" 15 | sed 's/^/  /'
	echo "top self cost, mkfs.xfs (before):"
	gt_top_self "$RES/before.mkfs.cg" 10 | sed 's/^/  /'
} | tee "$OUT/RESULTS-xfsprogs.txt"

# perf (cpu-clock where there are no hardware counters), before build only.
if [ "$PERF" = 1 ] && [ ! -f "$OUT/profiles/xfsprogs-repair.perf.txt" ]; then
	rm -f "$WL/perf.img"; truncate -s 1G "$WL/perf.img"
	(cd "$WL" && gt_perf xfsprogs-mkfs "$B_BEFORE/mkfs/mkfs.xfs" -f -m uuid=$UUID -p proto.txt perf.img)
	(cd "$WL" && gt_perf xfsprogs-repair "$B_BEFORE/repair/xfs_repair" -n -f perf.img)
fi

status=0
[ "$same" = yes ] || status=1
if [ -n "$TOOL" ]; then
	gt_explain check_nsec repair/dinode.c
	if [ "$EVALUATE" = 1 ]; then
		PROFILES=("$OUT/profiles/xfsprogs-repair.callgrind.out" "$OUT/profiles/xfsprogs-repair.perf.txt")
		gt_evaluate || status=1
	else
		gt_tool default
		echo "hotpath-tidy -p (defaults): $(gt_tool_summary default), listed in $OUT/tool/$PKG-default.findings"
	fi
fi
exit $status
