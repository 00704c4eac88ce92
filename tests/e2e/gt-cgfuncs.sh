#!/bin/bash
# scripts/ground-truth/cgfuncs.py, which the ground truths of
# docs/ground-truth/ are written from, on a program whose counts are known:
# check() is called 1000 times from main's loop and its failure branch never
# runs; sum3() is inlined into main. Negative controls: a file that is not a
# callgrind.out, and a function that did not run, are errors that say so.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CG=$ROOT/scripts/ground-truth/cgfuncs.py
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

cat > "$T/gtcg.c" <<'C'
#include <stdio.h>
__attribute__((noinline)) static int check(int x) {
  if (x < 0) {
    fprintf(stderr, "negative: %d\n", x);
    return -1;
  }
  return x;
}
static inline int sum3(int a) { return a + a + a; }
int main(int argc, char **argv) {
  long s = 0;
  (void)argv;
  for (int i = 0; i < 1000; i++)
    s += check(i - (argc > 5)) + sum3(i);
  printf("%ld\n", s);
  return 0;
}
C
gcc -O1 -g -o "$T/gtcg" "$T/gtcg.c"
(cd "$T" && valgrind --tool=callgrind --dump-instr=yes --collect-jumps=yes \
	--callgrind-out-file=gtcg.cg ./gtcg > out.txt 2> vg.txt)
[ "$(cat "$T/out.txt")" = 1998000 ] || fail "the program printed $(cat "$T/out.txt")"

# The function list: check at its call count.
python3 "$CG" "$T/gtcg.cg" --min 0 > "$T/list.txt"
grep -qE '^ +[0-9]+ +[0-9.]+% +1000 +[0-9]+ +[0-9.]+  check$' "$T/list.txt" ||
	fail "check with 1000 calls not listed: $(cat "$T/list.txt")"

# The lines of check: the test ran, the report (line 4) never did.
python3 "$CG" "$T/gtcg.cg" --lines check --src "$T" > "$T/lines.txt"
head -1 "$T/lines.txt" | grep -q '^check: self [0-9]*, inclusive [0-9]* ([0-9.]*%), calls 1000$' ||
	fail "header: $(head -1 "$T/lines.txt")"
grep -qE '^gtcg\.c:3 +[0-9]+ +.*if \(x < 0\) \{$' "$T/lines.txt" ||
	fail "line 3 (the test): $(cat "$T/lines.txt")"
if grep -q '^gtcg\.c:4 ' "$T/lines.txt"; then fail "line 4 listed though it never ran"; fi
# Jumps: callgrind writes a conditional jump only where it was taken; the
# loop's is, on 999 or 1000 of its 1000 executions (by gcc's layout).
python3 "$CG" "$T/gtcg.cg" --lines main --src "$T" > "$T/main.txt"
grep -qE '^gtcg\.c:1[34] +[0-9]+ +(999|1000)/1000 ' "$T/main.txt" ||
	fail "the loop's jump counts: $(cat "$T/main.txt")"

# By source lines: sum3 has no out-of-line copy (nothing to list).
if python3 "$CG" "$T/gtcg.cg" --lines sum3 > "$T/sum3.txt" 2>&1; then
	fail "sum3 (inlined everywhere) reported as a function that ran"
fi
grep -q 'no function sum3 ran' "$T/sum3.txt" || fail "sum3: $(cat "$T/sum3.txt")"

# Negative control: not a callgrind file.
echo "hello" > "$T/bad.cg"
if python3 "$CG" "$T/bad.cg" > "$T/bad.txt" 2>&1; then fail "a non-callgrind file was accepted"; fi
grep -q 'not a callgrind.out file' "$T/bad.txt" || fail "bad file: $(cat "$T/bad.txt")"
echo "gt-cgfuncs: ok"
