#!/usr/bin/env bash
# hotpath-tidy on whole projects that are not clang-clean (issue 23):
# 1. A TU clang 19 cannot compile (an implicit declaration gcc accepts) is
#    skipped and named with its first error; the others are checked and
#    their findings decide the exit status; it is listed in the summary line
#    and in SARIF's notifications (executionSuccessful stays true); its
#    fixes, header edits included, are never applied; the index pass names
#    it instead of printing clang's bare "N errors generated.".
# 2. -extra-arg / -extra-arg-before reach the index pass: a -D that selects
#    a loop in another file makes the check hot, through the index only.
# 3. --explain in a run over the whole database: the TUs that know the name
#    explain it, the others are silent; "no function or macro" only when no
#    TU knew it.
# 4. -p <build-dir> <source>: a run over that TU of the database (issue 24):
#    the hotpath checks by default, the project index, -j; an option a run
#    does not take is one line of error, not the whole help.
# Each with a negative control that shows the assertion can fail.
# The trees are small programs: a .clang-tidy at each root sets
# ChainHeatThreshold 5, so one loop counts as hot; heat itself is tested by
# chain-heat.sh and the unit tests.
# Usage: whole-project.sh HOTPATH_TIDY CLANG
set -euo pipefail
ht=$(realpath "$1") cc=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
sarif_check=(python3 "$(dirname "$(realpath "$0")")/ci-sarif-required.py")

# run DIR NAME ARGS...: hotpath-tidy ARGS in DIR; $work/NAME.{out,err,rc}.
# small_program DIR: the .clang-tidy at the root of each tree below, with
# the comment why (see the top).
small_program() {
  printf '%s\n' "# A small program: one loop counts as hot (ChainHeatThreshold 5); heat itself is" \
    "# tested by chain-heat.sh and the unit tests." "CheckOptions:" "  ChainHeatThreshold: 5" >"$1/.clang-tidy"
}
# db DIR FILE...: a compile database of FILEs (C, -std=gnu11, -Iinclude).
db() {
  local d=$1 f sep=""
  shift
  mkdir -p "$d/build"
  {
    echo "["
    for f in "$@"; do
      echo "$sep{\"directory\": \"$d/build\", \"file\": \"$d/$f\","
      echo " \"arguments\": [\"cc\", \"-std=gnu11\", \"-I$d/include\", \"-c\", \"$d/$f\"]}"
      sep=","
    done
    echo "]"
  } >"$d/build/compile_commands.json"
}

# --- 1. A project clang cannot compile all of -------------------------------
mk_broken() { # DIR
  local p=$1
  mkdir -p "$p/src" "$p/include"
  small_program "$p"
  # gcc 12 accepts this (a warning); clang 19 rejects it by default.
  echo 'int main(void){ return undeclared_fn(); }' >"$p/src/bad.c"
  # A disabled assert whose argument does work: the TU's own run proposes
  # rewriting this header, and no other TU includes it.
  cat >"$p/include/dbg.h" <<'H'
#ifndef DBG_H
#define DBG_H
#define DBG_ASSERT(x) ((void)(x))
#endif
H
  cat >"$p/src/badhdr.c" <<'C'
#include "dbg.h"
int sorted(const int *v, int n);
int first(const int *v, int n)
{
	DBG_ASSERT(sorted(v, n));
	return v[0] + also_undeclared(n);
}
C
  # The check is called twice: a static function called once is inlined
  # into its caller, never hot with the project index.
  cat >"$p/src/hot.c" <<'C'
#include <stdio.h>
struct buf { unsigned long len; };
static int check_bounds(const struct buf *b, unsigned long off, int size)
{
	unsigned long end = off + size;
	if (off > b->len) { printf("start %lu\n", off); return 0; }
	if (end > b->len) { printf("end %lu\n", end); return 0; }
	return 1;
}
int main(void)
{
	struct buf b = { 100 };
	int s = 0;
	for (unsigned long i = 0; i < 1000; i++)
		for (unsigned long j = 0; j < 10; j++)
			s += check_bounds(&b, i * j, 4) + check_bounds(&b, i + j, 8);
	printf("%d\n", s);
	return 0;
}
C
  db "$p" src/bad.c src/badhdr.c src/hot.c
}
p=$work/broken
mk_broken "$p"
warning="src/hot.c:3:12: warning: check function 'check_bounds' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]"
bad_error="src/bad.c:1:24: error: call to undeclared function 'undeclared_fn'; ISO C99 and later do not support implicit function declarations"

run "$p" text -p build
rc_is text 1 "a TU clang cannot compile, a finding in another"
has_line text out "$warning" "the other TU's finding is reported"
no_line text out "dbg.h|bad\.c|badhdr\.c" "nothing of the skipped TUs on standard output"
has_line text err "hotpath-tidy: error: src/bad.c: skipped: clang cannot compile it" "the skipped TU named"
has_line text err "$bad_error" "  with its first error, file:line:col"
has_line text err "hotpath-tidy: 2 of 3 translation units skipped, clang cannot compile them: src/bad.c, src/badhdr.c" \
  "the summary line lists the skipped TUs"
has_line text err "hotpath-tidy: note: src/bad.c: indexed with 1 compile error, its calls may be missing: $bad_error" \
  "the index pass names the TU with its error"
no_line text err "^[0-9]+ errors? generated\.$" "no bare 'N errors generated.' line"
# The control: clang itself prints that line on this file (what the index
# pass used to let through), so the check above looks for something real.
(cd "$p/build" && "$cc" -fsyntax-only -c "$p/src/bad.c") >"$work/cc.out" 2>"$work/cc.err" || true
if grep -q -x "1 error generated." "$work/cc.err"; then ok "control: clang prints '1 error generated.' on bad.c"
else bad "control: clang did not reject bad.c as expected"; cat "$work/cc.err"; fi

run "$p" sarif -p build --format=sarif
rc_is sarif 1 "SARIF run"
if [ -n "${HOTPATH_SARIF_SCHEMA:-}" ]; then
  "${sarif_check[@]}" "$work/sarif.out" --results 1 --rule hotpath-check-split --notified src/bad.c:1 &&
    ok "SARIF: valid, one result, executionSuccessful true, bad.c notified at line 1" || bad "SARIF"
  # Negative control: the checker fails on a notification that is not there.
  if ! "${sarif_check[@]}" "$work/sarif.out" --notified src/hot.c >/dev/null; then
    ok "control: the SARIF checker refuses a notification that is not there"
  else bad "control: the SARIF checker found a notification about src/hot.c"; fi
fi
python3 - "$work/sarif.out" <<'PY' && ok "SARIF: two error notifications, each with its first error" || bad "SARIF notifications"
import json, sys
inv = json.load(open(sys.argv[1]))["runs"][0]["invocations"][0]
assert inv["executionSuccessful"] is True, inv
got = sorted((n["level"], n["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], n["message"]["text"])
             for n in inv["toolExecutionNotifications"])
want = [("error", "src/bad.c", "skipped: clang cannot compile it: src/bad.c:1:24: error: call to undeclared "
         "function 'undeclared_fn'; ISO C99 and later do not support implicit function declarations"),
        ("error", "src/badhdr.c", "skipped: clang cannot compile it: src/badhdr.c:6:16: error: call to undeclared "
         "function 'also_undeclared'; ISO C99 and later do not support implicit function declarations")]
assert got == want, got
PY

run "$p" github -p build --format=github
rc_is github 1 "GitHub annotations"
has_line github out "::error file=src/bad.c,line=1,col=24,title=hotpath-tidy::skipped: clang cannot compile it: $bad_error" \
  "  the skipped TU as an error annotation at its first error"

# --fix: the good TU's fix applied and compiling; the broken TU's header
# edit never, though its own run proposes it.
cp "$p/include/dbg.h" "$work/dbg.h.orig"
run "$p" fix -p build --fix
rc_is fix 1 "--fix with a TU clang cannot compile"
if cmp -s "$work/dbg.h.orig" "$p/include/dbg.h"; then ok "the skipped TU's header edit is not applied"
else bad "the skipped TU's header edit was applied"; diff "$work/dbg.h.orig" "$p/include/dbg.h" || true; fi
if grep -q "__builtin_expect" "$p/src/hot.c" && "$cc" -std=gnu11 -Wall -Werror -c "$p/src/hot.c" -o "$work/hot.o"; then
  ok "the other TU's fix is applied and compiles with -Wall -Werror"
else bad "hot.c not fixed, or the fix does not compile"; fi
# The control: the same TU made to compile proposes that header edit, and
# --fix applies it, so the check above can fail.
c=$work/control
mk_broken "$c"
sed -i 's/return v\[0\] + also_undeclared(n);/return v[0] + n;/' "$c/src/badhdr.c"
run "$c" control -p build --fix
if grep -q -F '((void)(0 && !!(x)))' "$c/include/dbg.h"; then ok "control: once badhdr.c compiles, its header edit is applied"
else bad "control: badhdr.c's header edit not applied once it compiles"; cat "$work/control.out" "$work/control.err"; fi

# Only TUs clang cannot compile: nothing was checked, which is no clean run.
o=$work/only
mk_broken "$o"
db "$o" src/bad.c
run "$o" only -p build
rc_is only 2 "every TU skipped"
has_line only err "hotpath-tidy: 1 of 1 translation unit skipped, clang cannot compile it: src/bad.c" "  the summary says so"
# A skipped TU and a clean one: exit 0, the skipped one still named.
echo 'int twice(int x) { return 2 * x; }' >"$o/src/clean.c"
db "$o" src/bad.c src/clean.c
run "$o" clean -p build
rc_is clean 0 "a skipped TU and a clean one"
has_line clean err "hotpath-tidy: 1 of 2 translation units skipped, clang cannot compile it: src/bad.c" "  the skipped TU still named"

# --- 2. -extra-arg reaches the index pass -----------------------------------
x=$work/extra
mkdir -p "$x/src" "$x/include"
small_program "$x"
cat >"$x/include/range.h" <<'H'
struct range { unsigned long lo, hi; };
int check_range(const struct range *r, unsigned long v);
H
cat >"$x/src/range.c" <<'C'
#include <stdio.h>
#include "range.h"
int check_range(const struct range *r, unsigned long v)
{
	if (v < r->lo) { fprintf(stderr, "below %lu\n", v); return 0; }
	if (v > r->hi) { fprintf(stderr, "above %lu\n", v); return 0; }
	return 1;
}
C
# The loop is in another file, and only with -DHOT_LOOP: the TU that defines
# the check sees the same code either way, so only the index can tell.
cat >"$x/src/main.c" <<'C'
#include <stdio.h>
#include "range.h"
int main(void)
{
	struct range r = { 0, 100 };
	int s = 0;
#ifdef HOT_LOOP
	for (unsigned long i = 0; i < 1000; i++)
		for (unsigned long j = 0; j < 100; j++)
#endif
			s += check_range(&r, 42);
	printf("%d\n", s);
	return 0;
}
C
db "$x" src/main.c src/range.c
range_warning="src/range.c:3:5: warning: check function 'check_range' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]"
indexed_all='^hotpath-tidy: project index build/hotpath-index: 2 of 2 translation units indexed, 0 up to date \('

run "$x" plain -p build
rc_is plain 0 "without -D: one call, not hot"
run "$x" extra -p build -extra-arg=-DHOT_LOOP
rc_is extra 1 "-extra-arg=-DHOT_LOOP: the loop in main.c makes it hot"
has_line extra out "$range_warning" "  the finding, on the check in range.c"
grep -q -E "$indexed_all" "$work/extra.err" && ok "  the index parsed again: the extra argument is part of each shard's key" ||
  { bad "  the index was not rebuilt for -extra-arg"; cat "$work/extra.err"; }
run "$x" before -p build -extra-arg-before=-DHOT_LOOP
rc_is before 1 "-extra-arg-before=-DHOT_LOOP"
has_line before out "$range_warning" "  the finding"
run "$x" again -p build
rc_is again 0 "without -D again: the shards of the plain command, not the -D ones"
# The negative control: without the index the TU checked never sees the
# loop, so the finding above came through the index pass.
run "$x" noindex -p build --no-index -extra-arg=-DHOT_LOOP
rc_is noindex 0 "control: --no-index with -DHOT_LOOP finds nothing"

# --- 3. --explain over the whole database -----------------------------------
run "$x" explain -p build -extra-arg=-DHOT_LOOP --explain=check_range
rc_is explain 1 "--explain=check_range in a run over the database"
has_line explain out "src/range.c:3:5: remark: explain 'check_range': a definition of function 'check_range'; the steps of hotpath-check-split follow [hotpath-check-split]" \
  "  the TU that defines it explains it"
no_line explain out "this translation unit|^src/main\.c|^include/" "  the TUs that only declare it are silent"
no_line explain err "no function or macro" "  no 'no function or macro' line"
run "$x" explain_main -p build --explain=main
rc_is explain_main 0 "--explain=main: a remark is no finding"
has_line explain_main out "src/main.c:3:5: remark: explain 'main': a definition of function 'main'; the steps of hotpath-check-split follow [hotpath-check-split]" \
  "  explained by main.c alone"
no_line explain_main out "^src/range\.c" "  range.c, which does not know it, says nothing"
run "$x" explain_none -p build --explain=frist
rc_is explain_none 0 "--explain of a name no TU knows"
has_line explain_none err "hotpath-tidy: explain 'frist': no function or macro of that name is defined or declared in any of the 2 translation units checked" \
  "  said once, for the whole run"
no_line explain_none out "." "  nothing on standard output"

# --- 4. A named source: a run over that TU ----------------------------------
run "$x" named -p build -j 2 -extra-arg=-DHOT_LOOP --explain=check_range src/range.c
rc_is named 1 "-p build -j 2 src/range.c: the hotpath checks without -checks, with -j"
has_line named out "$range_warning" "  the finding, which only the index (main.c's loop) makes"
has_line named out "src/range.c:3:5: remark: explain 'check_range': a definition of function 'check_range'; the steps of hotpath-check-split follow [hotpath-check-split]" \
  "  --explain in a per-file run"
grep -q -E '^hotpath-tidy: project index build/hotpath-index: ' "$work/named.err" &&
  ok "  the project index brought up to date first" || bad "  no index in a per-file run"
# The control: plain clang-tidy (an option only it takes) on the same TU has
# no index, so the same -D finds nothing there.
run "$x" plain_named -checks='-*,hotpath-*' -p build -export-fixes="$work/plain.yaml" -extra-arg=-DHOT_LOOP src/range.c
rc_is plain_named 0 "control: plain clang-tidy (-export-fixes) on src/range.c"
no_line plain_named out "warning:" "  no finding without the index"
run "$x" bogus -p build --bogus
rc_is bogus 2 "an option a run does not take"
if [ "$(cat "$work/bogus.err")" = "hotpath-tidy: error: option '--bogus' is not supported in a run over the compile database (-p, --diff, --profile, --inline-remarks; see --help)" ]; then
  ok "  one line, the error, no help text"
else bad "  not the one-line error"; head -5 "$work/bogus.err" | sed 's/^/    got: /'; fi
run "$x" badj -p build -j x
rc_is badj 2 "a bad -j value"
if [ "$(cat "$work/badj.err")" = "hotpath-tidy: error: bad -j value 'x' (see --help)" ]; then
  ok "  one line, with 'see --help'"
else bad "  not the one-line error"; head -5 "$work/badj.err" | sed 's/^/    got: /'; fi
finish
