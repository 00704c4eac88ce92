#!/usr/bin/env bash
# Heat that follows the program (issue 23): a check function in one file,
# called only by a small helper in a second file, which a loop in a third
# file calls. No call site of the check is in a loop, and there are only
# two of them: by call-site counts it is cold. Over the project index's
# call graph it runs once per record of every block of every pass: four
# loops on the chain, estimated 2^20 runs (the default ChainHeatThreshold): `hotpath-tidy -p` finds it, says the
# chain, --fix splits it, the project still builds with -Wall -Werror, every
# input (failing ones included) gives the same output, and the fixed program
# runs fewer instructions (callgrind). Controls: with the loop taken out of
# walk.c, no finding (main's two loops are left on the chain, 2^10: the
# project index shows every caller, and main runs once); the check's behaviour comparison fails on a broken
# copy.
# Usage: chain-heat.sh HOTPATH_TIDY CLANG
set -euo pipefail
tidy=$(realpath "$1") cc=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

make_tree() { # make_tree DIR LOOP(1/0)
  local d=$1
  mkdir -p "$d/src" "$d/include"
  cat >"$d/include/rec.h" <<'H'
#ifndef REC_H
#define REC_H
struct rec { unsigned long len; const unsigned char *data; };
int check_rec(const struct rec *r, unsigned long off, unsigned long size);
unsigned rec_get(const struct rec *r, unsigned long off);
unsigned long walk(const struct rec *r);
#endif
H
  cat >"$d/src/check.c" <<'C'
#include <stdio.h>
#include "rec.h"

int check_rec(const struct rec *r, unsigned long off, unsigned long size)
{
	if (off > r->len) {
		fprintf(stderr, "offset %lu beyond %lu\n", off, r->len);
		return -1;
	}
	if (size > r->len - off) {
		fprintf(stderr, "size %lu at %lu beyond %lu\n", size, off, r->len);
		return -2;
	}
	return 0;
}
C
  cat >"$d/src/get.c" <<'C'
#include "rec.h"

unsigned rec_get(const struct rec *r, unsigned long off)
{
	if (check_rec(r, off, 1))
		return 0;
	return r->data[off];
}
C
  if [ "$2" = 1 ]; then
    cat >"$d/src/walk.c" <<'C'
#include "rec.h"

unsigned long walk(const struct rec *r)
{
	unsigned long s = 0;
	for (unsigned long blk = 0; blk < 4; blk++)
		for (unsigned long i = 0; i <= r->len; i++)
			s += rec_get(r, i * 2 + blk);
	return s;
}
C
  else
    cat >"$d/src/walk.c" <<'C'
#include "rec.h"

unsigned long walk(const struct rec *r)
{
	return rec_get(r, 0) + rec_get(r, r->len);
}
C
  fi
  cat >"$d/src/main.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include "rec.h"

int main(int argc, char **argv)
{
	static unsigned char buf[1 << 16];
	struct rec r = { argc > 1 ? strtoul(argv[1], 0, 10) : 0, buf };
	for (unsigned long i = 0; i < sizeof(buf); i++)
		buf[i] = (unsigned char)(i * 7);
	unsigned long passes = argc > 2 ? strtoul(argv[2], 0, 10) : 1, sum = 0;
	if (r.len > sizeof(buf))
		r.len = sizeof(buf);
	for (unsigned long p = 0; p < passes; p++)
		for (unsigned long f = 0; f < 2; f++)
			sum += walk(&r) >> f;
	printf("%lu\n", sum);
	return 0;
}
C
  python3 - "$d" <<'PY'
import json, sys
d = sys.argv[1]
json.dump([{"directory": d, "file": "src/%s.c" % n,
            "arguments": ["cc", "-std=c11", "-O2", "-Iinclude", "-c", "src/%s.c" % n, "-o", "%s.o" % n]}
           for n in ("check", "get", "walk", "main")], open(d + "/compile_commands.json", "w"), indent=1)
PY
}
build() { # build DIR OUT
  (cd "$1" && "$cc" -std=c11 -O2 -Wall -Werror -Iinclude src/*.c -o "$2")
}

make_tree "$work/tree" 1
cp -r "$work/tree" "$work/orig"
set +e
(cd "$work/tree" && "$tidy" -p . -j 2 --fix >"$work/run.out" 2>"$work/run.err"); rc=$?
set -e
echo "---- hotpath-tidy -p . --fix"; sed 's/^/    /' "$work/run.out"
warning="src/check.c:4:5: warning: check function 'check_rec' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]"
chain="src/check.c:4:5: note: 'check_rec' is hot: called by rec_get (get.c:5), which is called in 2 nested loops in walk (walk.c:8), which is called in 2 nested loops in main (main.c:16)"
grep -qxF "$warning" "$work/run.out" && ok "found through the chain of calls" || bad "no warning: $warning"
grep -qxF "$chain" "$work/run.out" && ok "the note says the chain" || bad "no chain note: $chain"
[ "$rc" -eq 1 ] && ok "exit 1 (findings)" || bad "exit $rc, expected 1"
grep -q 'check_rec_report' "$work/tree/src/check.c" && grep -q 'static inline int check_rec' "$work/tree/include/rec.h" &&
  ok "split: the slow path in check.c, the fast path in rec.h" || bad "not split as expected"

if build "$work/orig" "$work/before" && build "$work/tree" "$work/after"; then
  ok "before and after build with -Wall -Werror"
else
  bad "a build failed"
fi
# Lengths: empty, short, every size of the walk's failing offsets, full.
same_behaviour_on "before/after" "$work/before" "$work/after" 0 1 2 7 100 65535 65536 99999 "100 3"
expect_failure "behaviour differs from a broken copy" "stdout differs" \
  same_behaviour "$work/before" /bin/echo 100

count() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
  sed -n 's/.*Collected : \([0-9]*\).*/\1/p'; }
b=$(count "$work/before" 20000) a=$(count "$work/after" 20000)
echo "    callgrind Ir: before $b, after $a"
[ -n "$b" ] && [ -n "$a" ] && [ "$a" -lt "$b" ] && ok "fewer instructions after ($a < $b)" ||
  bad "instructions: before $b, after $a"

# Control: without the loops in walk.c the same check is not hot: main's two
# loops on the chain.
make_tree "$work/cold" 0
set +e
(cd "$work/cold" && "$tidy" -p . -j 2 >"$work/cold.out" 2>"$work/cold.err"); crc=$?
set -e
if [ "$crc" -eq 0 ] && ! grep -q "check_rec" "$work/cold.out"; then
  ok "control: no loop on any chain, no finding"
else
  bad "control: exit $crc"; cat "$work/cold.out"
fi
finish
