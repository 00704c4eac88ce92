#!/bin/bash
# zstd.sh: negative control: zstd 1.5.4 (Debian 12, source package libzstd).
#
# Installs the tools and build dependencies (apt-get), fetches the Debian
# source and builds it as the buildds do (dpkg-buildpackage -T clean, then
# -T build-arch under bear: dh, hardening=+all, the Makefile build, the CMake
# build and pzstd), then runs
#   zstd -q -f data -o data.zst        (data: 60 MiB, deterministic text-like,
#                                       gen-text.py)
#   zstd -d -q -f data.zst -o data.out
# under callgrind and lists the functions with the highest self and
# inclusive cost: no check function costs 0.5% or more, so every finding on
# this workload's path is false.
#
# bear also records CMake's TryCompile probes, whose directories CMake
# removes; they are dropped from compile_commands.json (the raw one is kept
# as compile_commands.raw.json), as scripts/real-project.py does.
#
# With --tool: the tool's defaults. With --evaluate: the evaluation
# (evaluate.sh: defaults, and the workload's profiles; no fix to measure).
#
#   scripts/ground-truth/zstd.sh [--work DIR] [--out DIR] [--jobs 2]
#       [--tool PATH [--evaluate]] [--no-install] [--no-perf]
. "$(dirname "$0")/common.sh"
gt_parse_args "$@"

PKG=zstd
TARGET=
MEASURED=
RES=$WORK/results/zstd
WL=$WORK/workload/zstd
mkdir -p "$RES" "$WL"
gt_install libzstd
SRC=$(gt_fetch libzstd)
log "source: $SRC"
B_BEFORE=$(gt_variant zstd-before "$SRC")
[ -f "$B_BEFORE/.gt-built" ] || gt_debian_build "$B_BEFORE" build-arch
gt_db_prune "$B_BEFORE"
ZSTD=$B_BEFORE/programs/zstd

if [ ! -f "$WL/data" ]; then
	log "generating data"
	python3 "$GT_SCRIPTS/gen-text.py" "$WL/data.tmp"
	mv "$WL/data.tmp" "$WL/data"
fi
if [ ! -f "$RES/decompress.rc" ]; then
	log "callgrind: zstd compress"
	rm -f "$WL/data.zst" "$WL/data.out"
	gt_callgrind "$RES/compress.cg" "$RES/compress" "$ZSTD" -q -f "$WL/data" -o "$WL/data.zst"
	log "callgrind: zstd decompress"
	gt_callgrind "$RES/decompress.cg" "$RES/decompress" "$ZSTD" -d -q -f "$WL/data.zst" -o "$WL/data.out"
fi
cp "$RES/compress.cg" "$OUT/profiles/zstd-compress.callgrind.out"
cp "$RES/decompress.cg" "$OUT/profiles/zstd-decompress.callgrind.out"
roundtrip=no
cmp -s "$WL/data" "$WL/data.out" && roundtrip=yes
{
	echo "zstd 1.5.4 (negative control)"
	echo "workload: zstd -q -f data ($(stat -c %s "$WL/data") bytes) -o data.zst ($(stat -c %s "$WL/data.zst") bytes); zstd -d -q -f data.zst -o data.out; round trip exact: $roundtrip"
	for w in compress decompress; do
		echo "[$w] instructions (callgrind Ir): $(gt_total "$RES/$w.cg"), exit status $(cat "$RES/$w.rc")"
		echo "[$w] top self cost:"
		gt_top_self "$RES/$w.cg" 15 | sed 's/^/  /'
		echo "[$w] functions at >= 0.5% inclusive (callgrind_annotate --inclusive=yes):"
		callgrind_annotate --inclusive=yes --threshold=100 "$RES/$w.cg" 2>/dev/null |
			awk '/file:function/ {h=1; next} h==1 && /^-+$/ {l=1; h=2; next} l && !NF {l=0} l { if (match($0, /\( *[0-9.]+%\)/)) { p=substr($0, RSTART+1, RLENGTH-3); if (p+0 >= 0.5) print "  " $0 } }'
	done
} | tee "$OUT/RESULTS-zstd.txt"

if [ "$PERF" = 1 ] && [ ! -f "$OUT/profiles/zstd-decompress.perf.txt" ]; then
	gt_perf zstd-compress "$ZSTD" -q -f "$WL/data" -o "$WL/perf.zst"
	gt_perf zstd-decompress "$ZSTD" -d -q -f "$WL/perf.zst" -o "$WL/perf.out"
fi

status=0
[ "$roundtrip" = yes ] || status=1
if [ -n "$TOOL" ]; then
	if [ "$EVALUATE" = 1 ]; then
		PROFILES=("$OUT/profiles/zstd-compress.callgrind.out" "$OUT/profiles/zstd-decompress.callgrind.out")
		gt_evaluate || status=1
	else
		gt_tool default
		echo "hotpath-tidy -p (defaults): $(gt_tool_summary default), listed in $OUT/tool/$PKG-default.findings"
	fi
fi
exit $status
