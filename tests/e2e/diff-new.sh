#!/usr/bin/env bash
# hotpath-tidy --diff reports what is new (issue 25): the findings of the
# working tree minus the same findings at the base, matched by SARIF's
# fingerprints, the base side checked through a VFS overlay with the index
# as it was there. In a git repository made here (a btrfs-shaped check in
# check.c made hot by a loop in sum.c, through the project index):
#  1. the issue's case: a patch adding a check function made hot, and
#     editing the line of the old hot call: exactly the new finding (text,
#     SARIF); --diff-filter=touched: both; a diff on standard input: both
#     (no base revision), and --diff-filter=new there is an error;
#  2. a patch adding a hot call, in another TU, to an old cold check: new
#     (the base side's index has no such call);
#  3. a patch removing the hot call: nothing reported;
#  4. a TU the patch adds, and a header it adds that shadows an old one on
#     the include path (the overlay cannot hide it: all that TU's findings,
#     with a note);
#  5. an old finding whose own line the patch moves: not new;
#  6. the issue's case with a header renamed (deleted at the head, read at
#     the base through the overlay);
#  7. the base side's index shards are kept and reused while what they read
#     at the base holds (patch 1 again, patch 2, patch 1 rebased).
# Usage: diff-new.sh HOTPATH_TIDY
set -euo pipefail
tidy=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
sarif_check="python3 $here/ci-sarif-required.py"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$here/lib.sh"
g() { git -c user.name=t -c user.email=t@example.com "$@"; }
show() { echo "---- $1"; sed 's/^/    /' "$2"; echo "----"; }
same() { # same WHAT EXPECTED_FILE GOT_FILE
  if diff -u "$2" "$3" >"$work/same.diff"; then ok "$1"; else bad "$1"; cat "$work/same.diff"; fi
}
# run NAME ARGS...: hotpath-tidy -p . ARGS, in $work/NAME.{out,err}, exit in $rc.
run() {
  name=$1 # for expect_rc
  shift
  set +e
  "$tidy" -p . "$@" >"$work/$name.out" 2>"$work/$name.err"
  rc=$?
  set -e
  show "$name: $* (exit $rc)" "$work/$name.out"
}
expect_rc() { # WANT WHAT
  if [ "$rc" -eq "$1" ]; then ok "$2: exit $rc"; else bad "$2: exit $rc, expected $1"; cat "$work/$name.err"; fi
}
warnings() { grep ': warning: ' "$1" || true; }

repo=$work/repo
mkdir -p "$repo/src" "$repo/include" && cd "$repo" && git init -q -b main
cat >include/buf.h <<'H'
#ifndef BUF_H
#define BUF_H
#include <stdbool.h>
struct buf { unsigned long len; unsigned char *data; };
bool check_bounds(const struct buf *b, unsigned int off, unsigned int size);
bool check_range(const struct buf *b, unsigned int off, unsigned int size);
unsigned sum8(const struct buf *b);
#endif
H
# check_bounds and check_range: the two-branch check of the check-split tests.
check_fn() { # NAME: its definition, with its messages
  cat <<C

bool $1(const struct buf *b, unsigned int off, unsigned int size)
{
	const unsigned long end = (unsigned long)off + size;

	if (off > b->len) {
		fprintf(stderr, "$1: start %u beyond %lu\n", off, b->len);
		return false;
	}
	if (end > b->len) {
		fprintf(stderr, "$1: end %lu beyond %lu\n", end, b->len);
		return false;
	}
	return true;
}
C
}
{ printf '#include <stdio.h>\n#include "buf.h"\n'; check_fn check_bounds; check_fn check_range; } >src/check.c
cat >src/sum.c <<'C'
#include "buf.h"

unsigned sum8(const struct buf *b)
{
	unsigned s = 0;
	for (unsigned int i = 0; i < 8; i++)
		s += check_bounds(b, i, 1) ? b->data[i] : 0;
	return s;
}
C
cat >src/main.c <<'C'
#include "buf.h"

int main(void)
{
	unsigned char d[8] = {0};
	struct buf b = {8, d};
	return (int)sum8(&b) + check_range(&b, 0, 8);
}
C
# A small program: one loop counts as hot (as in ci-diff.sh).
printf 'CheckOptions:\n  ChainHeatThreshold: 5\n' >.clang-tidy
db() { # the compile database of src/*.c
  python3 - "$repo" <<'PY'
import glob, json, os, sys
d = sys.argv[1]
json.dump([{"directory": d, "file": f, "arguments": ["cc", "-std=c11", "-Iinclude", "-c", f]}
           for f in sorted(os.path.relpath(p, d) for p in glob.glob(d + "/src/*.c"))],
          open(d + "/compile_commands.json", "w"), indent=1)
PY
}
db
g add -A && g commit -qm main

# 0. At main, check_bounds is reported (hot through sum.c's loop, read from
#    the project index), check_range is not (called once).
run main
expect_rc 1 "main, every TU"
warnings "$work/main.out" >"$work/main.w"
cat >"$work/main.w.expected" <<'E'
src/check.c:4:6: warning: check function 'check_bounds' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]
E
same "main: check_bounds alone is hot" "$work/main.w.expected" "$work/main.w"

# 1. The issue's case, on a branch: a new check function check_size, made
#    hot by a new call in sum.c's loop, and the line of the old hot call
#    edited (an argument renamed).
g checkout -q -b patch1
check_fn check_size >>src/check.c
sed -i 's/^unsigned sum8.*/bool check_size(const struct buf *b, unsigned int off, unsigned int size);\n&/' include/buf.h
sed -i 's/check_bounds(b, i, 1)/check_bounds(b, i, sizeof(unsigned char))/' src/sum.c
sed -i 's/^\treturn s;/\tfor (unsigned int i = 0; i < 8; i++)\n\t\ts += check_size(b, i, 2) ? b->data[i] : 0;\n&/' src/sum.c
g commit -qam "check_size, and the old call's size spelt out"
git show --stat --format= HEAD | sed 's/^/    /'
cat >"$work/new.expected" <<'E'
src/check.c:34:6: warning: check function 'check_size' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]
bool check_size(const struct buf *b, unsigned int off, unsigned int size)
     ^
src/check.c:34:6: note: 'check_size' is hot: called in a loop in sum8 (sum.c:9)
bool check_size(const struct buf *b, unsigned int off, unsigned int size)
     ^
src/check.c:38:6: note: this condition implies 'end > b->len' (the sum cannot wrap), so the fast path tests only that one
	if (off > b->len) {
	    ^
E
run new --diff=main...HEAD
expect_rc 1 "1: --diff=main...HEAD"
same "1: exactly the new finding, check_size's" "$work/new.expected" "$work/new.out"
grep -qxF "hotpath-tidy: 1 of 2 findings new since $(git merge-base main HEAD | cut -c1-12), the others there already (--diff-filter=touched reports any the patch touches)" "$work/new.err" \
  && ok "1: says 1 of 2 findings is new" || { bad "1: the summary line"; cat "$work/new.err"; }
base_index() { # NAME PARSED OF: the base side's index line of run NAME
  local units="translation units"
  [ "$3" = 1 ] && units="translation unit"
  grep -qxF "hotpath-tidy: the index at the base: $2 of $3 $units the patch affects parsed through the overlay, $(($3 - $2)) reused" "$work/$1.err" \
    && ok "$1: the index at the base: $2 of $3 TUs parsed, the others reused" \
    || { bad "$1: the base index line"; grep "index at the base" "$work/$1.err"; }
}
base_index new 3 3
run new-sarif --diff=main...HEAD --format=sarif
expect_rc 1 "1: SARIF"
$sarif_check "$work/new-sarif.out" --results 1 --rule hotpath-check-split --file src/check.c --line 34 --col 6 --fixes \
  && ok "1: SARIF: valid, one result, hotpath-check-split at src/check.c:34:6" || bad "1: SARIF"
python3 - "$work/new-sarif.out" <<'PY' && ok "1: SARIF: the result is check_size's" || bad "1: SARIF message"
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]["results"]
assert [x["message"]["text"].split("'")[1] for x in r] == ["check_size"], r
PY
base_index new-sarif 0 3
run new-default --diff=main...HEAD --diff-filter=new
same "1: --diff-filter=new is the default" "$work/new.out" "$work/new-default.out"

cat >"$work/touched.w.expected" <<'E'
src/check.c:4:6: warning: check function 'check_bounds' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]
src/check.c:34:6: warning: check function 'check_size' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]
E
run touched --diff=main...HEAD --diff-filter=touched
expect_rc 1 "1: --diff-filter=touched"
warnings "$work/touched.out" >"$work/touched.w"
same "1: --diff-filter=touched: the old finding too (its hot call's line is touched)" \
  "$work/touched.w.expected" "$work/touched.w"
run touched-sarif --diff=main...HEAD --diff-filter=touched --format=sarif
$sarif_check "$work/touched-sarif.out" --results 2 --rule hotpath-check-split \
  && ok "1: --diff-filter=touched SARIF: 2 results" || bad "1: touched SARIF"

git diff main HEAD >"$work/patch1.diff"
set +e
"$tidy" -p . --diff=- <"$work/patch1.diff" >"$work/stdin.out" 2>"$work/stdin.err"; rc=$?
set -e
name=stdin; expect_rc 1 "1: --diff=- (no base revision)"
warnings "$work/stdin.out" >"$work/stdin.w"
same "1: --diff=- reports what the patch touches, as --diff-filter=touched" \
  "$work/touched.w.expected" "$work/stdin.w"
set +e
"$tidy" -p . --diff=- --diff-filter=new <"$work/patch1.diff" >"$work/stdin-new.out" 2>"$work/stdin-new.err"; rc=$?
set -e
name=stdin-new; expect_rc 2 "1: --diff=- --diff-filter=new"
grep -qxF "hotpath-tidy: error: --diff-filter=new needs a base revision, and a diff on standard input (--diff=-) has none: --diff=<rev> or --diff=A...B, or --diff-filter=touched (see --help)" "$work/stdin-new.err" \
  && ok "  says why" || { bad "  the reason"; cat "$work/stdin-new.err"; }
run bad-filter --diff=main...HEAD --diff-filter=old
expect_rc 2 "--diff-filter=old"
grep -qF "error: --diff-filter must be new or touched, not 'old'" "$work/bad-filter.err" \
  && ok "  says why" || { bad "  the reason"; cat "$work/bad-filter.err"; }
run no-diff --diff-filter=new
expect_rc 2 "--diff-filter without --diff"
grep -qF "error: --diff-filter is not supported with a run over the compile database: it filters a --diff run's findings" "$work/no-diff.err" \
  && ok "  says why" || { bad "  the reason"; cat "$work/no-diff.err"; }

# 2. An old check, cold at main, made hot by a new call in another TU: new.
#    (With the head's index the base side would see that call too, and
#    check_range would not be new: the base side reads its own index.)
g checkout -q main && g checkout -q -b patch2
sed -i 's/^\treturn s;/\tfor (unsigned int i = 0; i < 8; i++)\n\t\ts += check_range(b, i, 4) ? b->data[i] : 0;\n&/' src/sum.c
g commit -qam "check_range in the loop"
run hot --diff=main...HEAD
expect_rc 1 "2: a hot call of an old cold check"
warnings "$work/hot.out" >"$work/hot.w"
echo "src/check.c:19:6: warning: check function 'check_range' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]" >"$work/hot.w.expected"
same "2: check_range is new, check_bounds is not" "$work/hot.w.expected" "$work/hot.w"
base_index hot 0 2  # the same base as patch 1's: its shards hold
grep -qF "2 of 3 translation units to check (1 changed, 0 through 0 changed headers, 1 through the project index)" "$work/hot.err" \
  && ok "2: check.c is checked through the index" || { bad "2: TU selection"; cat "$work/hot.err"; }

# 3. A patch that removes the hot call: check_bounds goes, nothing is new.
g checkout -q main && g checkout -q -b patch3
sed -i 's/check_bounds(b, i, 1) ? b->data\[i\] : 0/b->data[i]/' src/sum.c
g commit -qam "no check in the loop"
run gone --diff=main...HEAD
expect_rc 0 "3: a finding removed"
[ ! -s "$work/gone.out" ] && ok "3: nothing reported" || bad "3: reported"
run gone-sarif --diff=main...HEAD --format=sarif
$sarif_check "$work/gone-sarif.out" --results 0 && ok "3: SARIF: no result" || bad "3: SARIF"

# 4. Files the patch adds. A new TU: all its findings are new (it has no
#    base). A new header that shadows an old one on the include path: the
#    overlay cannot hide it, so the TU that reads it is reported in full,
#    with a note.
g checkout -q main && g checkout -q -b patch4
{ printf '#include <stdio.h>\n#include "buf.h"\n'; check_fn check_tail
  printf '\nunsigned tail8(const struct buf *b)\n{\n\tunsigned s = 0;\n\tfor (unsigned int i = 0; i < 8; i++)\n\t\ts += check_tail(b, i, 1) ? b->data[i] : 0;\n\treturn s;\n}\n'; } >src/tail.c
db
g add -A && g commit -qm "tail.c"
run added --diff=main...HEAD
expect_rc 1 "4: a TU added"
warnings "$work/added.out" >"$work/added.w"
echo "src/tail.c:4:6: warning: check function 'check_tail' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]" >"$work/added.w.expected"
same "4: its finding is new" "$work/added.w.expected" "$work/added.w"
# buf.h shadowed for sum.c by a header in src/ (found first: "..." looks
# beside the including file), which spells the same declarations.
cp include/buf.h src/buf.h
g add -A && g commit -qm "src/buf.h"
run shadow --diff=main...HEAD
expect_rc 1 "4: a header added that shadows another"
grep -F "note: --diff:" "$work/shadow.err" >"$work/shadow.notes" || true
# (Every TU in src/ reads it; only those that found something are checked at
# the base, so only check.c is named.)
echo "hotpath-tidy: note: --diff: src/check.c still reads a file the patch adds when compiled as at the base (the overlay cannot hide it): its findings are all reported as new" \
  >"$work/shadow.notes.expected"
same "4: the TU with a finding that reads it is named in a note" "$work/shadow.notes.expected" "$work/shadow.notes"
base_index shadow 1 1  # a header added: no kept base shard is trusted
warnings "$work/shadow.out" >"$work/shadow.w"
{ sed 's/:4:6:.*/:4:6/' "$work/main.w.expected"; sed 's/:4:6:.*/:4:6/' "$work/added.w.expected"; } >"$work/shadow.w.expected"
sed -i 's/:4:6:.*/:4:6/' "$work/shadow.w"
same "4: so check_bounds is reported with check_tail" "$work/shadow.w.expected" "$work/shadow.w"

# 5. An old finding whose line moves (lines added above it): not new; in
#    the same file, a new finding is.
g checkout -q main && g checkout -q -b patch5
sed -i '2a /* bounds checks */\n/* of struct buf */' src/check.c
g commit -qam "comments"
run moved --diff=main...HEAD
expect_rc 0 "5: an old finding moved down two lines"
[ ! -s "$work/moved.out" ] && ok "5: not new" || bad "5: reported"
run moved-touched --diff=main...HEAD --diff-filter=touched
expect_rc 0 "5: --diff-filter=touched: the lines added are outside the function"

# 6. Patch 1 with the header renamed (git diff --no-renames: a deletion and
#    an addition): the base side reads include/buf.h, which the working tree
#    no longer has, through the overlay; still only check_size is new.
g checkout -q -b patch6 patch1
git mv include/buf.h include/buffer.h
sed -i 's/"buf.h"/"buffer.h"/' src/*.c
g commit -qam "buf.h renamed"
run renamed --diff=main...HEAD
expect_rc 1 "6: patch 1 with its header renamed"
same "6: exactly the new finding" "$work/new.expected" "$work/renamed.out"
if grep -qF "note: --diff:" "$work/renamed.err"; then bad "6: a note"; cat "$work/renamed.err"; else ok "6: no note"; fi

# 7. main moves on (sum.c changes) and patch 1 is rebased onto it: the base
#    side's shard of sum.c no longer holds and is parsed again, the others
#    are reused; still only check_size is new.
g checkout -q main
sed -i '1i /* sums */' src/sum.c
g commit -qam "a comment in sum.c"
g checkout -q -b patch7 patch1
g rebase -q main
run rebased --diff=main...HEAD
expect_rc 1 "7: patch 1 on the new main"
base_index rebased 1 3
warnings "$work/rebased.out" >"$work/rebased.w"
warnings "$work/new.out" >"$work/new.w"
same "7: exactly check_size's finding" "$work/new.w" "$work/rebased.w"

finish
