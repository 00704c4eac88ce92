#!/usr/bin/env bash
# Benchmark variants of the slab-alloc sample under callgrind.
#
# usage: bench.sh [OUTDIR] [NAME=DIR ...]
#   OUTDIR   build/output directory (default build/bench); may be omitted
#            when the first argument is already NAME=DIR.
#   NAME=DIR a variant: DIR's *.c/*.h are laid over the shared sources of this
#            directory (slab.h, slab.c, fault.c, main.c).  Names "before" and
#            "nohook" (or "nocheck") are needed for the ratio column.
#   With no NAME=DIR arguments, $BENCH_VARIANTS (space-separated NAME=DIR) is
#   used, else: before, nohook and every variants/shape-* of this directory.
#
# environment: CCS="gcc clang-19"  CFLAGS=-O2  OPS=300000  SEED=1
#              JOBS=2 (parallel callgrind runs)  CHECK=1 (functional check)
#
# ratio = (Ir(before) - Ir(variant)) / (Ir(before) - Ir(nohook)): the share
# of the hook's cost that the variant removes (1 = as cheap as no hook).
# jcc:alloc = conditional branches in kmem_cache_alloc's own symbol, with
# "+f" when its entry block sets up a stack frame.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=build/bench
if [ $# -gt 0 ] && [[ $1 != *=* ]]; then
	out=$1
	shift
fi
CCS=${CCS:-gcc clang-19}
CFLAGS=${CFLAGS:--O2}
OPS=${OPS:-300000}
SEED=${SEED:-1}
JOBS=${JOBS:-2}
CHECK=${CHECK:-1}

specs=("$@")
if [ ${#specs[@]} -eq 0 ]; then
	if [ -n "${BENCH_VARIANTS:-}" ]; then
		read -r -a specs <<<"$BENCH_VARIANTS"
	else
		specs=("before=$here" "nohook=$here/variants/nohook")
		for d in "$here"/variants/shape-*/; do
			[ -d "$d" ] && specs+=("$(basename "$d")=$d")
		done
	fi
fi

names=()
declare -A dirs=()
for spec in "${specs[@]}"; do
	name=${spec%%=*}
	dir=${spec#*=}
	if [[ $spec != *=* || -z $name || ! -d $dir ]]; then
		echo "bench.sh: bad variant '$spec' (want NAME=DIR, DIR must exist)" >&2
		exit 2
	fi
	[ -n "${dirs[$name]:-}" ] || names+=("$name")
	dirs[$name]=$(cd "$dir" && pwd)
done
ref=
for r in nohook nocheck; do
	[ -n "${dirs[$r]:-}" ] && { ref=$r; break; }
done

mkdir -p "$out"
out=$(cd "$out" && pwd)
units=(main slab fault)

# ---- build ---------------------------------------------------------------
for cc in $CCS; do
	for name in "${names[@]}"; do
		b=$out/$cc/$name
		rm -rf "$b"
		mkdir -p "$b/src"
		cp "$here"/main.c "$here"/slab.c "$here"/fault.c "$here"/slab.h "$b/src/"
		for f in "${dirs[$name]}"/*.c "${dirs[$name]}"/*.h; do
			[ -e "$f" ] && cp "$f" "$b/src/"
		done
		for u in "${units[@]}"; do
			$cc -std=c11 -Wall -Wextra -Werror $CFLAGS -c "$b/src/$u.c" -o "$b/$u.o"
		done
		$cc $CFLAGS "$b"/main.o "$b"/slab.o "$b"/fault.o -o "$b/slab"
	done
done

# ---- functional check: same output as "before" -----------------------------
declare -A func=()
if [ "$CHECK" = 1 ]; then
	for cc in $CCS; do
		for name in "${names[@]}"; do
			b=$out/$cc/$name
			{ "$b/slab" 20000 "$SEED" 0 2>&1; echo "rc=$?"; } >"$b/func.txt" || true
			if [ -z "${dirs[before]:-}" ]; then
				func[$cc/$name]=?
			elif cmp -s "$b/func.txt" "$out/$cc/before/func.txt"; then
				func[$cc/$name]=same
			else
				func[$cc/$name]=DIFF
			fi
		done
	done
fi

# ---- callgrind --------------------------------------------------------------
run_one() {
	local b=$1
	# Run as ./slab from inside the build dir: the binary's path length shows
	# up (a little) in the loader's instruction count.
	(cd "$b" && valgrind --tool=callgrind --callgrind-out-file=callgrind.out \
		./slab "$OPS" "$SEED" 0 >run.stdout 2>valgrind.log)
}
export -f run_one
export OPS SEED
for cc in $CCS; do
	for name in "${names[@]}"; do
		echo "$out/$cc/$name"
	done
done | xargs -P "$JOBS" -I{} bash -c 'run_one "$@"' _ {}

ir() {
	awk '/^totals:/ { t = $2 } /^summary:/ { s = $2 } END { print (t != "" ? t : s) }' "$1/callgrind.out"
}

# ---- table --------------------------------------------------------------------
{
printf '%-9s %-18s %12s %12s %12s %8s %9s %5s\n' \
	compiler variant Ir before nohook ratio jcc:alloc func
for cc in $CCS; do
	bef=
	noc=
	[ -n "${dirs[before]:-}" ] && bef=$(ir "$out/$cc/before")
	[ -n "$ref" ] && noc=$(ir "$out/$cc/$ref")
	for name in "${names[@]}"; do
		b=$out/$cc/$name
		v=$(ir "$b")
		jcc=$("$here/count-branches.sh" "$b/slab" kmem_cache_alloc | awk '{ print $2 ($3 == "frame" ? "+f" : "") }')
		ratio=$(awk -v b="$bef" -v n="$noc" -v v="$v" 'BEGIN {
			if (b == "" || n == "" || b == n) print "-"; else printf "%.3f", (b - v) / (b - n) }')
		printf '%-9s %-18s %12s %12s %12s %8s %9s %5s\n' \
			"$cc" "$name" "$v" "${bef:--}" "${noc:--}" "$ratio" "$jcc" "${func[$cc/$name]:--}"
	done
done
} | tee "$out/table.txt"
