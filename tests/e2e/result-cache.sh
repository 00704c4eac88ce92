#!/usr/bin/env bash
# The result cache (docs/project-index.md), end to end, on a four-TU project
# made here: check.c defines a two-branch check_range() that nothing calls
# hot yet, sum.c a loop, main.c calls it, other.c stands apart (its own
# header). Each run's last line says how many TUs were parsed and how many
# came from the cache; the tests hold it to the exact numbers:
#   - a first run parses all 4; an unchanged second run none, and its text,
#     fix patch and SARIF are byte-identical to a run without the cache;
#   - an edit of other.c (a comment) parses other.c only;
#   - a call to check_range() added in sum.c's loop parses sum.c and check.c
#     (whose index answer changed: check_range is now hot) and reports the
#     new finding in check.c, exactly as a run without the cache does;
#   - --fix from the cache, in a copy elsewhere, edits the files exactly as
#     --fix without it;
#   - an edit of buf.h parses the three TUs that include it;
#   - another -checks, another -config: every TU parsed;
#   - the project copied to another directory with its build directory
#     (cache included): none parsed, the findings name the new directory;
#   - a corrupt entry: that TU parsed again, with a note naming the entry;
#   - --no-cache parses every TU and stores nothing; an unwritable cache
#     directory is a warning and the run goes on uncached; --no-cache with
#     --cache-dir is a usage error (exit 2).
# Usage: result-cache.sh HOTPATH_TIDY
set -euo pipefail
binary=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'chmod -R u+w "$work"; rm -rf "$work"' EXIT
# shellcheck source=lib.sh
source "$here/lib.sh"

# project DIR: the sources and build/compile_commands.json for DIR.
project() {
  local d=$1
  mkdir -p "$d/src" "$d/include" "$d/build"
  printf 'CheckOptions:\n  ChainHeatThreshold: 5\n' >"$d/.clang-tidy"
  cat >"$d/include/buf.h" <<'C'
#include <stdbool.h>

struct buf {
	unsigned long len;
	unsigned char *data;
};

bool check_range(const struct buf *b, unsigned int off, int size);
unsigned long sum_all(const struct buf *b, unsigned long n);
C
  cat >"$d/include/other.h" <<'C'
int version(void);
C
  cat >"$d/src/check.c" <<'C'
#include <stdio.h>

#include "buf.h"

bool check_range(const struct buf *b, unsigned int off, int size)
{
	const unsigned long end = (unsigned long)off + size;

	if (off > b->len) {
		fprintf(stderr, "bad start: offset %u size %d len %lu\n", off, size, b->len);
		return false;
	}
	if (end > b->len) {
		fprintf(stderr, "bad end: offset %u size %d len %lu\n", off, size, b->len);
		return false;
	}
	return true;
}
C
  # sum_all() writes a global first: the call added below leaves what the
  # index says of it (impure, and why) as it was, so only check_range's
  # answer changes.
  cat >"$d/src/sum.c" <<'C'
#include "buf.h"

unsigned long sums;

unsigned long sum_all(const struct buf *b, unsigned long n)
{
	unsigned long s = 0, i;

	sums++;
	for (i = 0; i < n; i++) {
		s += b->data[i % b->len];
	}
	return s;
}
C
  cat >"$d/src/main.c" <<'C'
#include <stdio.h>

#include "buf.h"
#include "other.h"

int main(int argc, char **argv)
{
	unsigned char mem[16] = {1, 2, 3};
	struct buf b = {16, mem};

	(void)argv;
	printf("%d %lu\n", version(), sum_all(&b, argc > 1 ? 1000000 : 10));
	return 0;
}
C
  cat >"$d/src/other.c" <<'C'
#include "other.h"

int version(void)
{
	return 3;
}
C
  python3 - "$d" <<'PY'
import json, sys
d = sys.argv[1]
json.dump([{"directory": d, "file": "src/%s.c" % n,
            "arguments": ["cc", "-std=c11", "-O2", "-I" + d + "/include", "-c", "src/%s.c" % n]}
           for n in ("check", "main", "other", "sum")],
          open(d + "/build/compile_commands.json", "w"), indent=1)
PY
}

# run NAME DIR ARGS...: hotpath-tidy -p build ARGS in DIR; stdout, stderr
# and the exit status in $work/NAME.{out,err,rc}.
run() {
  local name=$1 dir=$2 rc=0
  shift 2
  (cd "$dir" && "$binary" -p build -j2 "$@") >"$work/$name.out" 2>"$work/$name.err" || rc=$?
  echo "$rc" >"$work/$name.rc"
}
# summary NAME: the run's last line about the cache.
summary() { grep '^hotpath-tidy: [0-9]* TUs\? checked: ' "$work/$1.err" || echo "(no summary line)"; }
# expect_summary NAME WHAT PARSED CACHED: the summary line says exactly that.
expect_summary() {
  local want="hotpath-tidy: 4 TUs checked: $3 parsed, $4 from the result cache" got
  got=$(summary "$1")
  if [ "$got" = "$want" ]; then
    ok "$2: $3 parsed, $4 from the result cache"
  else
    bad "$2: '$got', not '$want'"; sed 's/^/    /' "$work/$1.err" | head -20
  fi
}
# same_file WHAT A B: byte-identical.
same_file() {
  if cmp -s "$2" "$3"; then ok "$1"; else bad "$1"; diff "$2" "$3" | head -10 | sed 's/^/    /'; fi
}
findings() { grep -E '^[^ ]+:[0-9]+:[0-9]+: (warning|note|error): ' "$1" || true; }

p=$work/proj
project "$p"

# 1. First run: every TU parsed; the second parses none, same bytes.
run first "$p" --fix-patch="$work/first.patch"
expect_summary first "first run" 4 0
[ "$(cat "$work/first.rc")" = 0 ] && ! findings "$work/first.out" | grep -q . &&
  ok "first run: exit 0, no finding (check_range is not hot yet)" ||
  bad "first run: exit $(cat "$work/first.rc")"
run second "$p" --fix-patch="$work/second.patch"
expect_summary second "unchanged second run" 0 4

# 2. A .c edit that changes no index answer: that TU only.
echo '/* version 3 */' >>"$p/src/other.c"
run other "$p"
expect_summary other "other.c edited (a comment)" 1 3

# 3. A hot call added in sum.c: sum.c, and check.c, whose check is now hot.
# The line is changed in place: a line more would move the end of sum_all()'s
# body, which the index records and main.c's checks read (main.c would be
# parsed too, rightly).
sed -i 's|^\t\ts += b->data\[i % b->len\];|\t\ts += check_range(b, i % 16, 1) ? b->data[i % b->len] : 0;|' \
  "$p/src/sum.c"
grep -q 'check_range(b, i % 16, 1)' "$p/src/sum.c" || bad "the test's edit of sum.c did not apply"
run hot "$p" --fix-patch="$work/hot.patch"
expect_summary hot "a hot call added in sum.c" 2 2
run hot-fresh "$p" --no-cache --fix-patch="$work/hot-fresh.patch"
expect_summary hot-fresh "--no-cache" 4 0
findings "$work/hot.out" >"$work/hot.txt"
if [ "$(cat "$work/hot.rc")" = 1 ] &&
   grep -q "^src/check.c:5:6: warning: check function 'check_range' tests 2 conditions on a hot path" \
     "$work/hot.txt"; then
  ok "the new finding in check.c is reported (exit 1)"
else
  bad "no finding in check.c after the hot call (exit $(cat "$work/hot.rc"))"; cat "$work/hot.out"
fi
same_file "text: cached run = run without the cache" "$work/hot-fresh.out" "$work/hot.out"
same_file "fix patch: cached run = run without the cache" "$work/hot-fresh.patch" "$work/hot.patch"
grep -q '^+++ b/src/check.c' "$work/hot.patch" && ok "the fix patch edits check.c" ||
  bad "the fix patch edits no check.c"
run again "$p" --fix-patch="$work/again.patch"
expect_summary again "unchanged again" 0 4
same_file "text of a run all from the cache = run without the cache" "$work/hot-fresh.out" "$work/again.out"
same_file "fix patch of a run all from the cache = run without the cache" "$work/hot-fresh.patch" "$work/again.patch"
# --fix from the cache edits exactly what --fix without it does (two copies,
# elsewhere: the entries are put back in their place).
for c in fix-cached fix-fresh; do
  cp -r "$p" "$work/$c"
  sed -i "s|$p|$work/$c|g" "$work/$c/build/compile_commands.json"
done
run fix-cached "$work/fix-cached" --fix
expect_summary fix-cached "--fix in a copy" 0 4
run fix-fresh "$work/fix-fresh" --fix --no-cache
if diff -r "$work/fix-fresh/src" "$work/fix-cached/src" >/dev/null &&
   diff -r "$work/fix-fresh/include" "$work/fix-cached/include" >/dev/null &&
   ! cmp -s "$p/src/check.c" "$work/fix-cached/src/check.c"; then
  ok "--fix from the cache: the same files as --fix without it, check.c rewritten"
else
  bad "--fix from the cache differs from --fix without it (or fixed nothing)"
fi
run sarif "$p" --format=sarif
expect_summary sarif "SARIF, first with the cache" 0 4
run sarif-fresh "$p" --format=sarif --no-cache
same_file "SARIF: cached run = run without the cache" "$work/sarif-fresh.out" "$work/sarif.out"
grep -q '"ruleId": "hotpath-check-split"' "$work/sarif.out" && ok "SARIF holds the finding" ||
  bad "SARIF without the finding"

# 4. A header edit: the TUs that include it.
echo '/* buffers */' >>"$p/include/buf.h"
run header "$p"
expect_summary header "buf.h edited" 3 1

# 5. Another -checks, another -config: every TU.
run checks "$p" -checks='-*,hotpath-check-split'
expect_summary checks "another -checks" 4 0
run config "$p" -config='{CheckOptions: {ChainHeatThreshold: 6}}'
expect_summary config "another -config" 4 0
run config2 "$p" -config='{CheckOptions: {ChainHeatThreshold: 6}}'
expect_summary config2 "the same -config again" 0 4

# 6. The project elsewhere, its build directory (and cache) copied along.
run before-copy "$p" --format=sarif
q=$work/elsewhere/proj2
mkdir -p "$work/elsewhere"
cp -r "$p" "$q"
sed -i "s|$p|$q|g" "$q/build/compile_commands.json"
run copy "$q" --format=sarif
expect_summary copy "the project copied to another directory" 0 4
run copy-fresh "$q" --format=sarif --no-cache
same_file "copy: SARIF from the cache = SARIF without it" "$work/copy-fresh.out" "$work/copy.out"
if grep -q "file://$q/" "$work/copy.out" && ! grep -q "$p/" "$work/copy.out"; then
  ok "copy: the SARIF names the new directory, never the old one"
else
  bad "copy: the SARIF does not name $q"
fi

# 7. A corrupt entry: a note, that TU parsed again, the same findings.
entry=$(grep -l '"tu":"@HOTPATH_ROOT@/src/check.c"' "$p"/build/hotpath-cache/*.entry | head -1)
entries=$(grep -l '"tu":"@HOTPATH_ROOT@/src/check.c"' "$p"/build/hotpath-cache/*.entry | wc -l)
[ -n "$entry" ] || bad "no entry of check.c found"
for e in $(grep -l '"tu":"@HOTPATH_ROOT@/src/check.c"' "$p"/build/hotpath-cache/*.entry); do
  echo '{"format": "hotpath-result-cache", "version": 1, "tu": [' >"$e"
done
run corrupt "$p"
expect_summary corrupt "corrupt entry of check.c ($entries)" 1 3
if grep -q "^hotpath-tidy: note: result cache: build/hotpath-cache/[0-9a-f]*\.entry: not JSON: .*; src/check.c is checked again$" \
     "$work/corrupt.err"; then
  ok "corrupt entry: a note names it and says check.c is checked again"
else
  bad "corrupt entry: no note"; cat "$work/corrupt.err"
fi
run header-fresh "$p" --no-cache
same_file "corrupt entry: same text as a run without the cache" "$work/header-fresh.out" "$work/corrupt.out"
run after-corrupt "$p"
expect_summary after-corrupt "the entry rewritten" 0 4

# 8. --no-cache stores nothing; an unwritable directory; contradictions.
n=$(find "$p/build/hotpath-cache" -name '*.entry' | wc -l)
echo '/* again */' >>"$p/src/main.c"
run nocache "$p" --no-cache
expect_summary nocache "--no-cache" 4 0
[ "$(find "$p/build/hotpath-cache" -name '*.entry' | wc -l)" = "$n" ] &&
  ok "--no-cache stored nothing" || bad "--no-cache stored entries"
if [ "$(id -u)" != 0 ]; then
  mkdir -p "$work/ro" && chmod a-w "$work/ro"
  run ro "$p" --cache-dir="$work/ro/cache"
  expect_summary ro "an unwritable cache directory" 4 0
  grep -q "^hotpath-tidy: warning: result cache .*ro/cache: cannot make the directory: Permission denied; the results of this run are not cached$" \
    "$work/ro.err" && ok "unwritable: the warning names the directory and why" ||
    { bad "unwritable: no warning"; cat "$work/ro.err"; }
else
  # root writes anywhere: a file where the directory should be.
  echo x >"$work/ro-file"
  run ro "$p" --cache-dir="$work/ro-file/cache"
  expect_summary ro "a cache directory that cannot be made" 4 0
  grep -q "^hotpath-tidy: warning: result cache .*ro-file/cache: cannot make the directory: Not a directory; the results of this run are not cached$" \
    "$work/ro.err" && ok "cannot make it: the warning names the directory and why" ||
    { bad "cannot make it: no warning"; cat "$work/ro.err"; }
fi
[ "$(cat "$work/ro.rc")" = 1 ] && same_file "uncached run: the same findings" "$work/nocache.out" "$work/ro.out" ||
  bad "uncached run: exit $(cat "$work/ro.rc")"
run both "$p" --no-cache --cache-dir="$work/c2"
[ "$(cat "$work/both.rc")" = 2 ] && grep -q -- "--no-cache and --cache-dir contradict each other" "$work/both.err" &&
  ok "--no-cache with --cache-dir: exit 2, says why" || bad "--no-cache with --cache-dir: exit $(cat "$work/both.rc")"

finish
