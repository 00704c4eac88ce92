#!/usr/bin/env bash
# usage: count-branches.sh [--with-cold] BINARY_OR_OBJECT FUNC...
#
# Prints "FUNC N" for each FUNC: N = conditional jumps (every j* mnemonic
# except jmp) in the disassembly of that function's own symbol.  A GCC-split
# "FUNC.cold" part is a separate symbol and is not counted unless
# --with-cold is given (or it is named explicitly).  Note clang keeps its
# unlikely blocks at the end of FUNC itself, so they are always counted.
# Exit status 1 if a function is not found.
set -euo pipefail
with_cold=0
if [ "${1:-}" = --with-cold ]; then
	with_cold=1
	shift
fi
if [ $# -lt 2 ]; then
	echo "usage: $0 [--with-cold] BINARY_OR_OBJECT FUNC..." >&2
	exit 2
fi
bin=$1
shift
dis=$(objdump -d --no-show-raw-insn "$bin")
status=0
for fn in "$@"; do
	n=$(awk -v fn="$fn" -v cold="$with_cold" '
		$0 ~ "^[0-9a-f]+ <" && index($0, "<" fn ">:") { infn = 1; found = 1; next }
		cold && $0 ~ "^[0-9a-f]+ <" && index($0, "<" fn ".cold>:") { infn = 1; next }
		infn && NF == 0 { infn = 0 }
		infn {
			# "  401136:\tjbe    401150 <get_u32+0x20>"
			n = split($0, f, "\t"); if (n < 2) next
			split(f[2], w, " "); m = w[1]
			if (m == "bnd" || m == "notrack" || m ~ /^ds$|^cs$/) m = w[2]
			if (m ~ /^j/ && m !~ /^jmp/) cnt++
		}
		END { if (!found) print "missing"; else print cnt + 0 }
	' <<<"$dis")
	if [ "$n" = missing ]; then
		echo "$fn: not found in $bin" >&2
		status=1
		continue
	fi
	echo "$fn $n"
done
exit $status
