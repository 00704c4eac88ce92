#!/bin/bash
# sample.sh: the ground-truth harness on samples/extent-buffer, in under a
# minute: the CI slice of the Debian runs (ctest -R ground-truth.sample).
#
# The same steps as xfsprogs.sh and friends, on a project whose answer is
# known: the sample's three files built with make (gcc -O2 -g, a
# compile_commands.json written beside them), and
#   after: variants/expert (the hand split of check_setget_bounds)
#   floor: variants/nocheck (the check deleted)
# as patches, each a copy of the built tree rebuilt. Workload, under
# callgrind: ./eb 200000 1 0 (no bad offset); behaviour, plain: ./eb 20000 1 7
# (every 7th offset bad: the reports on stderr) and ./eb --inputs edges.txt.
# With --tool PATH --evaluate: evaluate.sh (the tool's findings, with the
# workload's callgrind profile, and its fix built, run, compared, measured).
#
# Unlike the Debian scripts it asserts: exit 1 unless the hand split removes
# at least 80% of the removable cost, and, with --evaluate, the profile finds
# check_setget_bounds, the fix keeps every output and removes at least 80%.
#
#   scripts/ground-truth/sample.sh --work DIR --no-install --no-perf
#       [--tool PATH --evaluate [--fix-from-patch]]
. "$(dirname "$0")/common.sh"
gt_parse_args "$@"

PKG=extent-buffer
TARGET=check_setget_bounds
MEASURED=run
RES=$WORK/results/$PKG
SAMPLE=$GT_ROOT/samples/extent-buffer
mkdir -p "$RES" "$WORK/patches" "$WORK/src"

# mkpatch NAME VARIANT: the sample's files against variants/VARIANT's, as
# patch -p1 reads them.
mkpatch() {
	local out=$WORK/patches/$1.patch f
	: > "$out"
	for f in extent_buffer.h check.c; do
		diff -u --label "a/$f" --label "b/$f" "$SAMPLE/$f" "$SAMPLE/variants/$2/$f" >> "$out" || true
	done
	echo "$out"
}
SPLIT_PATCH=$(mkpatch split expert)
FLOOR_PATCH=$(mkpatch floor nocheck)

# The pristine tree: the sample's sources, a Makefile, the compile database.
SRC=$WORK/src/extent-buffer
if [ ! -f "$SRC/Makefile" ]; then
	rm -rf "$SRC"; mkdir -p "$SRC"
	cp "$SAMPLE"/*.c "$SAMPLE"/*.h "$SRC/"
	printf '%s\n' 'CFLAGS = -O2 -g -std=c11' 'OBJS = check.o accessors.o main.o' \
		'eb: $(OBJS)' '	$(CC) -o $@ $(OBJS)' '$(OBJS): extent_buffer.h' > "$SRC/Makefile"
fi

# build VARIANT [PATCH] -> the tree, built with make (a copy of the built
# before tree for the others, as the Debian scripts do).
build() {
	local v=$1 patch=${2:-} dir
	if [ "$v" = before ]; then
		dir=$(gt_variant $PKG-before "$SRC")
	else
		dir=$(gt_variant $PKG-$v "$WORK/build/$PKG-before" "$patch")
	fi
	[ ! -f "$dir/.gt-built" ] || { echo "$dir"; return 0; }
	log "building $PKG ($v) in $dir"
	make -C "$dir" > "$WORK/build/$PKG-$v.build.log" 2>&1 ||
		{ tail -30 "$WORK/build/$PKG-$v.build.log" >&2; exit 1; }
	if [ "$v" = before ]; then
		python3 - "$dir" <<'EOF'
import json, sys
d = sys.argv[1]
json.dump([{'directory': d, 'file': f, 'arguments': ['cc', '-O2', '-g', '-std=c11', '-c', f]}
           for f in ('check.c', 'accessors.c', 'main.c')], open(d + '/compile_commands.json', 'w'))
EOF
	fi
	gt_db_retarget "$dir"
	gt_mark_built "$dir"
	rm -f "$RES/$v".*
	echo "$dir"
}

# gt_plain LOGPREFIX CMD...: CMD's stdout, stderr, exit status.
gt_plain() {
	local pre=$1 rc=0; shift
	"$@" > "$pre.out" 2> "$pre.err" || rc=$?
	echo "$rc" > "$pre.rc"
}

# run_variant VARIANT TREE: the workload under callgrind, then the runs with
# bad offsets (not for the floor, which has no check to stop them).
run_variant() {
	local v=$1 b=$2
	[ ! -f "$RES/$v.run.rc" ] || return 0
	if [ "$v" != floor ]; then
		gt_plain "$RES/$v.oob" "$b/eb" 20000 1 7
		gt_plain "$RES/$v.edges" "$b/eb" --inputs "$SAMPLE/inputs/edges.txt"
	fi
	log "callgrind: eb 200000 1 0 ($v)"
	gt_callgrind "$RES/$v.run.cg" "$RES/$v.run" "$b/eb" 200000 1 0
}

# same_as_before VARIANT: every run's stdout, stderr and exit status, the
# failing ones' reports included.
same_as_before() {
	local w ok=0
	for w in run oob edges; do
		gt_same "$RES/before.$w" "$RES/$1.$w" || { ok=1; log "output differs: $w before vs $1"; }
	done
	return $ok
}

B_BEFORE=$(build before)
B_AFTER=$(build after "$SPLIT_PATCH")
B_FLOOR=$(build floor "$FLOOR_PATCH")
run_variant before "$B_BEFORE"
run_variant after "$B_AFTER"
run_variant floor "$B_FLOOR"

status=0
b=$(gt_total "$RES/before.run.cg") a=$(gt_total "$RES/after.run.cg") f=$(gt_total "$RES/floor.run.cg")
split=$(gt_ratio "$b" "$a" "$f")
{
	echo "extent-buffer sample: check_setget_bounds; workload eb 200000 1 0"
	echo "instructions (callgrind Ir): before $b, after (variants/expert) $a, floor (variants/nocheck) $f"
	echo "removable share (before-floor)/before: $(gt_pct "$b" "$f")%"
	echo "hand split removes (before-after)/(before-floor): $split%"
	echo "outputs of the hand split identical to before: $(same_as_before after && echo yes || echo NO)"
} | tee "$OUT/RESULTS-$PKG.txt"
same_as_before after || status=1
python3 -c "import sys; sys.exit(float(sys.argv[1]) < 80)" "$split" || status=1

if [ "$EVALUATE" = 1 ]; then
	PROFILES=("$RES/before.run.cg")
	gt_evaluate || status=1
	ev=$OUT/EVALUATION-$PKG.txt
	grep -q "^(b) --profile=before.run.cg: .*$TARGET FOUND" "$ev" ||
		{ echo "sample: the callgrind profile does not make the tool find $TARGET" >&2; status=1; }
	grep -q 'identical to before: yes' "$ev" ||
		{ echo "sample: the fix was not built, run and compared" >&2; status=1; }
	removed=$(sed -n 's/.*fix removes \([0-9.]*\)% of the removable cost.*/\1/p' "$ev")
	python3 -c "import sys; sys.exit(not sys.argv[1] or float(sys.argv[1]) < 80)" "$removed" ||
		{ echo "sample: the fix removes '${removed}'% (< 80%)" >&2; status=1; }
	if [ "$FIX_FROM_PATCH" = 1 ] && [ "$removed" != "$split" ]; then
		echo "sample: the self-test gives $removed%, the hand split $split%" >&2; status=1
	fi
fi
exit $status
