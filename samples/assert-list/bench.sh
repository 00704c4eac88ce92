#!/usr/bin/env bash
# Benchmark variants of the assert-list sample under callgrind.
#
# usage: bench.sh [OUTDIR] [NAME=DIR ...]
#   OUTDIR   build/output directory (default build/bench); may be omitted
#            when the first argument is already NAME=DIR.
#   NAME=DIR a variant: DIR's *.c/*.h are laid over this directory's sources
#            (a full copy, e.g. fix.sh's output, or just dbg.h). Names "before"
#            and "noassert" are needed for the ratio columns.
#   With no NAME=DIR arguments, $BENCH_VARIANTS (space-separated NAME=DIR) is
#   used, else: before and noassert from this directory.
#
# environment: CCS="gcc clang-19"  CFLAGS=-O2  OPS=200000  LEN=32  SEED=1
#              JOBS=2 (parallel callgrind runs)  CHECK=1 (functional check)
#
# vs_noassert = Ir(variant) / Ir(noassert): 1 = as cheap as no assert at all.
# removed     = (Ir(before) - Ir(variant)) / (Ir(before) - Ir(noassert)).
# warnings    = compiler warnings with -Wall -Wextra (the build uses -Werror).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=build/bench
if [ $# -gt 0 ] && [[ $1 != *=* ]]; then
	out=$1
	shift
fi
CCS=${CCS:-gcc clang-19}
CFLAGS=${CFLAGS:--O2}
OPS=${OPS:-200000}
LEN=${LEN:-32}
SEED=${SEED:-1}
JOBS=${JOBS:-2}
CHECK=${CHECK:-1}

specs=("$@")
if [ ${#specs[@]} -eq 0 ]; then
	if [ -n "${BENCH_VARIANTS:-}" ]; then
		read -r -a specs <<<"$BENCH_VARIANTS"
	else
		specs=("before=$here" "noassert=$here/variants/noassert")
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

mkdir -p "$out"
out=$(cd "$out" && pwd)

# ---- build ---------------------------------------------------------------
declare -A warns=()
for cc in $CCS; do
	for name in "${names[@]}"; do
		b=$out/$cc/$name
		rm -rf "$b"
		mkdir -p "$b/src"
		cp "$here"/*.c "$here"/*.h "$b/src/"
		for f in "${dirs[$name]}"/*.c "${dirs[$name]}"/*.h; do
			[ -e "$f" ] && cp "$f" "$b/src/"
		done
		: >"$b/warnings.txt"
		for u in list sorted main; do
			$cc -std=c11 -Wall -Wextra -Werror $CFLAGS -c "$b/src/$u.c" -o "$b/$u.o" 2>>"$b/warnings.txt"
		done
		$cc $CFLAGS "$b"/list.o "$b"/sorted.o "$b"/main.o -o "$b/list"
		warns[$cc/$name]=$(grep -c 'warning:' "$b/warnings.txt" || true)
	done
done

# ---- functional check: same output as "before" -----------------------------
declare -A func=()
if [ "$CHECK" = 1 ]; then
	for cc in $CCS; do
		for name in "${names[@]}"; do
			b=$out/$cc/$name
			{ "$b/list" 20000 "$SEED" "$LEN" 2>&1; echo "rc=$?"
			  "$b/list" 5000 7 300 2>&1; echo "rc=$?"
			  "$b/list" 100 3 0 2>&1; echo "rc=$?"; } >"$b/func.txt" || true
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
	(cd "$b" && valgrind --tool=callgrind --callgrind-out-file=callgrind.out \
		./list "$OPS" "$SEED" "$LEN" >run.stdout 2>valgrind.log)
}
export -f run_one
export OPS SEED LEN
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
printf '%-9s %-12s %12s %12s %12s %11s %8s %8s %5s\n' \
	compiler variant Ir before noassert vs_noassert removed warnings func
for cc in $CCS; do
	bef=
	noa=
	[ -n "${dirs[before]:-}" ] && bef=$(ir "$out/$cc/before")
	[ -n "${dirs[noassert]:-}" ] && noa=$(ir "$out/$cc/noassert")
	for name in "${names[@]}"; do
		b=$out/$cc/$name
		v=$(ir "$b")
		vs=$(awk -v n="$noa" -v v="$v" 'BEGIN { if (n == "") print "-"; else printf "%.4f", v / n }')
		removed=$(awk -v b="$bef" -v n="$noa" -v v="$v" 'BEGIN {
			if (b == "" || n == "" || b == n) print "-"; else printf "%.3f", (b - v) / (b - n) }')
		printf '%-9s %-12s %12s %12s %12s %11s %8s %8s %5s\n' \
			"$cc" "$name" "$v" "${bef:--}" "${noa:--}" "$vs" "$removed" \
			"${warns[$cc/$name]}" "${func[$cc/$name]:--}"
	done
done
} | tee "$out/table.txt"
