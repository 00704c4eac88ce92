#!/usr/bin/env bash
# usage: count-branches.sh BINARY_OR_OBJECT FUNC...
# Prints "FUNC N": conditional jumps in FUNC's own symbol (not FUNC.cold), and
# "FUNC N frame" when FUNC's first block pushes or moves the stack pointer,
# i.e. the fast path keeps a stack frame.
set -euo pipefail
bin=$1
shift
dis=$(objdump -d --no-show-raw-insn "$bin")
status=0
for fn in "$@"; do
	r=$(awk -v fn="$fn" '
		$0 ~ "^[0-9a-f]+ <" && index($0, "<" fn ">:") { infn = 1; found = 1; first = 1; next }
		infn && NF == 0 { infn = 0 }
		infn {
			n = split($0, f, "\t"); if (n < 2) next
			split(f[2], w, " "); m = w[1]
			if (m == "bnd" || m == "notrack") m = w[2]
			if (first && (m ~ /^push/ || (m ~ /^sub/ && f[2] ~ /%rsp/))) frame = 1
			if (m ~ /^j/ || m ~ /^ret/) first = 0
			if (m ~ /^j/ && m !~ /^jmp/) cnt++
		}
		END { if (!found) print "missing"; else print cnt + 0 (frame ? " frame" : "") }
	' <<<"$dis")
	if [ "$r" = missing ]; then
		echo "$fn: not found in $bin" >&2
		status=1
		continue
	fi
	echo "$fn $r"
done
exit $status
