#!/usr/bin/env bash
# Benchmark variants of one sample under callgrind; samples/*/bench.sh call it.
#
# usage: bench-variants.sh SAMPLE [OUTDIR] [NAME=DIR ...]
#   SAMPLE   the sample's directory; its bench.conf says what differs between
#            samples (sources, binary, workloads, reference variant, columns).
#   OUTDIR   build/output directory (default build/bench); may be omitted
#            when the argument after SAMPLE is already NAME=DIR.
#   NAME=DIR a variant: DIR's *.c/*.h are laid over SAMPLE's *.c/*.h (a full
#            copy, e.g. fix.sh's output, or just the files that differ).
#            "before" and the reference variant (bench.conf: refs) are needed
#            for the ratio columns.
#   With no NAME=DIR arguments, $BENCH_VARIANTS (space-separated NAME=DIR) is
#   used, else bench.conf's default_variants.
#
# environment: CCS="gcc clang-19"  CFLAGS=-O2  OPS=300000 (or bench.conf's
#              default_ops)  SEED=1  JOBS=2 (parallel callgrind runs)
#              CHECK=1 (functional check), and what bench.conf reads.
#              MODE=O2 (CFLAGS alone), lto (CFLAGS -flto), pgo (a build
#              with -fprofile-generate / -fprofile-instr-generate, a training
#              run of run_args with SEED+1, then the build measured, with
#              -fprofile-use / -fprofile-instr-use), pgo-lto (both).
#
# The table (OUTDIR/table.txt) has compiler, variant, Ir, Ir(before),
# Ir(reference), then bench.conf's columns, from:
#   ratio    (Ir(before) - Ir(variant)) / (Ir(before) - Ir(reference)): the
#            share of the cost that the variant removes (1 = as cheap as the
#            reference, which lacks the costly code).
#   vs_ref   Ir(variant) / Ir(reference).
#   jcc      conditional branches in bench.conf's branch_func (by the sample's
#            count-branches.sh), "+f" when branch_frame=1 and its entry block
#            sets up a stack frame; "inlined" when -flto left no symbol.
#   warnings compiler warnings with -Wall -Wextra (the build uses -Werror).
#   func     the functional check: same stdout+stderr and exit codes as
#            "before" (same/DIFF; ? without "before", n/a for func_skip).
# $CCS and $CFLAGS are split into words on purpose.
# shellcheck disable=SC2086
set -euo pipefail

if [ $# -lt 1 ] || [ ! -f "$1/bench.conf" ]; then
	echo "usage: bench-variants.sh SAMPLE [OUTDIR] [NAME=DIR ...] (SAMPLE/bench.conf must exist)" >&2
	exit 2
fi
here=$(cd "$1" && pwd)
shift

# ---- bench.conf: see samples/*/bench.conf ---------------------------------
units=()            # translation units, in compile and link order
bin=                # the binary's name
refs=()             # reference variant names, first present wins; refs[0] heads its column
default_variants=() # NAME=DIR (DIR relative to the sample) or a glob of dirs
default_ops=300000
check_runs=()       # functional check: argument lists, each evaluated by bash
run_args=           # the callgrind run's arguments, evaluated by bash
func_skip=()        # variants whose output is not compared ("n/a")
branch_func=        # the function whose conditional branches "jcc" counts
branch_frame=0      # 1: "jcc" gets "+f" when it sets up a stack frame
variant_width=18    # width of the variant column
columns=()          # "KIND HEADER WIDTH", KIND one of the list above
# shellcheck source=/dev/null
source "$here/bench.conf"

out=build/bench
if [ $# -gt 0 ] && [[ $1 != *=* ]]; then
	out=$1
	shift
fi
CCS=${CCS:-gcc clang-19}
CFLAGS=${CFLAGS:--O2}
OPS=${OPS:-$default_ops}
SEED=${SEED:-1}
JOBS=${JOBS:-2}
CHECK=${CHECK:-1}
MODE=${MODE:-O2}
case $MODE in
O2 | pgo) ;;
lto | pgo-lto) CFLAGS="$CFLAGS -flto" ;;
*) echo "bench-variants.sh: MODE '$MODE' is not O2, lto, pgo or pgo-lto" >&2; exit 2 ;;
esac

specs=("$@")
if [ ${#specs[@]} -eq 0 ]; then
	if [ -n "${BENCH_VARIANTS:-}" ]; then
		read -r -a specs <<<"$BENCH_VARIANTS"
	else
		for v in "${default_variants[@]}"; do
			if [[ $v == *=* ]]; then
				specs+=("${v%%=*}=$here/${v#*=}")
			else
				for d in "$here"/$v; do
					[ -d "$d" ] && specs+=("$(basename "$d")=$d")
				done
			fi
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
for r in "${refs[@]}"; do
	[ -n "${dirs[$r]:-}" ] && { ref=$r; break; }
done
want_warnings=0
for c in "${columns[@]}"; do
	[ "${c%% *}" = warnings ] && want_warnings=1
done

mkdir -p "$out"
out=$(cd "$out" && pwd)

# ---- build ---------------------------------------------------------------
declare -A warns=()
# pgo_flags CC gen|use DIR: the profile flags of CC's instrumented build or
# of the build that uses its profile.
pgo_flags() {
	case $1:$2 in
	clang*:gen) echo "-fprofile-instr-generate" ;;
	clang*:use) echo "-fprofile-instr-use=$3/prof.profdata" ;;
	*:gen) echo "-fprofile-generate" ;;
	*:use) echo "-fprofile-use -fprofile-correction" ;;
	esac
}
# build_units CC DIR EXTRA: compiles DIR/src into DIR/$bin with $CFLAGS EXTRA.
build_units() {
	local cc=$1 b=$2 extra=$3 objs=() u
	if [ "$want_warnings" = 1 ]; then
		: >"$b/warnings.txt"
	fi
	for u in "${units[@]}"; do
		if [ "$want_warnings" = 1 ]; then
			$cc -std=c11 -Wall -Wextra -Werror $CFLAGS $extra -c "$b/src/$u.c" -o "$b/$u.o" 2>>"$b/warnings.txt" ||
				{ cat "$b/warnings.txt" >&2; exit 1; }
		else
			$cc -std=c11 -Wall -Wextra -Werror $CFLAGS $extra -c "$b/src/$u.c" -o "$b/$u.o"
		fi
		objs+=("$b/$u.o")
	done
	$cc $CFLAGS $extra "${objs[@]}" -o "$b/$bin"
}
for cc in $CCS; do
	for name in "${names[@]}"; do
		b=$out/$cc/$name
		rm -rf "$b"
		mkdir -p "$b/src"
		# Copy, don't -I: #include "x.h" looks next to the .c first.
		cp "$here"/*.c "$here"/*.h "$b/src/"
		for f in "${dirs[$name]}"/*.c "${dirs[$name]}"/*.h; do
			[ -e "$f" ] && cp "$f" "$b/src/"
		done
		if [[ $MODE == pgo* ]]; then
			# The profile of a training run on another seed, then the build
			# that is measured (gcc finds u.gcda beside u.o).
			build_units "$cc" "$b" "$(pgo_flags "$cc" gen "$b")"
			(cd "$b" && SEED=$((SEED + 1)) && export LLVM_PROFILE_FILE="$b/prof.profraw" &&
				eval "./$bin $run_args" >/dev/null 2>&1) || true
			if [[ $cc == clang* ]]; then
				"llvm-profdata-${cc#clang-}" merge -o "$b/prof.profdata" "$b/prof.profraw"
			fi
			build_units "$cc" "$b" "$(pgo_flags "$cc" use "$b")"
		else
			build_units "$cc" "$b" ""
		fi
		if [ "$want_warnings" = 1 ]; then
			warns[$cc/$name]=$(grep -c 'warning:' "$b/warnings.txt" || true)
		fi
	done
done

# ---- functional check: same stdout+stderr as "before" ---------------------
declare -A func=()
args=()
if [ "$CHECK" = 1 ]; then
	for cc in $CCS; do
		for name in "${names[@]}"; do
			b=$out/$cc/$name
			[[ " ${func_skip[*]} " == *" $name "* ]] && continue
			{ for r in "${check_runs[@]}"; do
				eval "args=($r)"
				"$b/$bin" "${args[@]}" 2>&1; echo "rc=$?"
			  done; } >"$b/func.txt" || true
		done
		# Compared once all are run: "before" may come after a variant.
		for name in "${names[@]}"; do
			if [[ " ${func_skip[*]} " == *" $name "* ]]; then
				func[$cc/$name]=n/a
			elif [ -z "${dirs[before]:-}" ]; then
				func[$cc/$name]='?'
			elif cmp -s "$out/$cc/$name/func.txt" "$out/$cc/before/func.txt"; then
				func[$cc/$name]=same
			else
				func[$cc/$name]=DIFF
			fi
		done
	done
fi

# ---- callgrind --------------------------------------------------------------
# Run as ./$bin from inside the build dir: the binary's path length shows up
# (a little) in the loader's instruction count, and so does the environment,
# which carries run_one: it is spelled out with the binary and run_args as
# text, as each sample's own bench.sh had it, so that counts stay comparable.
eval "run_one() {
	local b=\$1
	(cd \"\$b\" && valgrind --tool=callgrind --callgrind-out-file=callgrind.out \\
		./$bin $run_args >run.stdout 2>valgrind.log)
}"
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
fmt="%-9s %-${variant_width}s %12s %12s %12s"
heads=(compiler variant Ir before "${refs[0]}")
for c in "${columns[@]}"; do
	read -r _ head width <<<"$c"
	fmt+=" %${width}s"
	heads+=("$head")
done
fmt+='\n'
{
# shellcheck disable=SC2059
printf "$fmt" "${heads[@]}"
for cc in $CCS; do
	bef=
	noc=
	[ -n "${dirs[before]:-}" ] && bef=$(ir "$out/$cc/before")
	[ -n "$ref" ] && noc=$(ir "$out/$cc/$ref")
	for name in "${names[@]}"; do
		b=$out/$cc/$name
		v=$(ir "$b")
		row=("$cc" "$name" "$v" "${bef:--}" "${noc:--}")
		for c in "${columns[@]}"; do
			case ${c%% *} in
			ratio) row+=("$(awk -v b="$bef" -v n="$noc" -v v="$v" 'BEGIN {
				if (b == "" || n == "" || b == n) print "-"; else printf "%.3f", (b - v) / (b - n) }')") ;;
			vs_ref) row+=("$(awk -v n="$noc" -v v="$v" 'BEGIN {
				if (n == "") print "-"; else printf "%.4f", v / n }')") ;;
			jcc) row+=("$({ "$here/count-branches.sh" "$b/$bin" "$branch_func" 2>/dev/null ||
				echo "$branch_func inlined"; } |
				awk -v f="$branch_frame" '{ print $2 (f == 1 && $3 == "frame" ? "+f" : "") }')") ;;
			warnings) row+=("${warns[$cc/$name]}") ;;
			func) row+=("${func[$cc/$name]:--}") ;;
			*) echo "bench-variants.sh: unknown column '$c' in $here/bench.conf" >&2; exit 2 ;;
			esac
		done
		# shellcheck disable=SC2059
		printf "$fmt" "${row[@]}"
	done
done
} | tee "$out/table.txt"
