#!/usr/bin/env bash
# hotpath-tidy --diff, end to end, in a real git repository with a compile
# database: a clean commit; a patch adding a hot two-branch check function
# (exactly that finding, exit 1, in text, GitHub and SARIF; also from a diff
# on stdin; --fix-patch applies with git apply, leaves the tree alone, and
# the result compiles); a patch touching only unrelated lines (nothing,
# exit 0); a patch to a header alone (found through the TUs that include it,
# the header edit once in the fix patch); a TU that does not compile
# (skipped and named with its error; the findings elsewhere still reported
# and deciding the exit status, 1); usage errors (exit 2);
# what a patch touches beyond a finding's line: a check function's body (a
# line added, a line removed), a hook call's statement, an assert macro's
# continuation line, with controls next to each; an assembly file in the
# compile database (skipped with a note); main...HEAD after main moved on.
# Usage: ci-diff.sh HOTPATH_TIDY CC
set -euo pipefail
tidy=$(realpath "$1") cc=$2
here=$(cd "$(dirname "$0")" && pwd)
sarif_check="python3 $here/ci-sarif-required.py"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "ok   $*"; }
bad() { failed=$((failed + 1)); echo "FAIL $*"; }
expect_rc() { # expect_rc WANT GOT WHAT
  if [ "$2" -eq "$1" ]; then ok "$3: exit $2"; else bad "$3: exit $2, expected $1"; fi
}
same() { # same WHAT EXPECTED_FILE GOT_FILE
  if diff -u "$2" "$3" >"$work/same.diff"; then ok "$1"; else bad "$1"; cat "$work/same.diff"; fi
}
show() { # the output, for the log
  echo "---- $1"; sed 's/^/    /' "$2"; echo "----"
}
g() { git -c user.name=t -c user.email=t@example.com "$@"; }

repo=$work/repo
mkdir -p "$repo/src" "$repo/include" && cd "$repo" && git init -q
cat >include/buf.h <<'H'
#ifndef BUF_H
#define BUF_H
struct buf { unsigned long len; unsigned char *data; };
unsigned sum(const struct buf *b);
#endif
H
cat >src/buf.c <<'C'
#include <stdbool.h>
#include <stdio.h>
#include "buf.h"

unsigned sum(const struct buf *b)
{
	unsigned s = 0;
	for (unsigned long i = 0; i < b->len; i++)
		s += b->data[i];
	return s;
}
C
printf '#include "buf.h"\nint main(void) { struct buf b = {0, 0}; return (int)sum(&b); }\n' >src/main.c
printf 'int other(int x) { return x + 1; }\n' >src/other.c
# A small program: one loop counts as hot (ChainHeatThreshold 5); heat itself is tested by chain-heat.sh and the unit tests.
printf 'CheckOptions:\n  ChainHeatThreshold: 5\n' >.clang-tidy
python3 - "$repo" <<'PY'
import json, sys
d = sys.argv[1]
json.dump([{"directory": d, "file": "src/%s.c" % n,
            "arguments": ["cc", "-std=c11", "-Wall", "-Iinclude", "-c", "src/%s.c" % n, "-o", "%s.o" % n]}
           for n in ("buf", "main", "other")], open(d + "/compile_commands.json", "w"), indent=1)
PY
g add -A && g commit -qm base

run() { "$tidy" --diff=HEAD -p . "$@"; }
# fix_patch_exact WHAT PATCH: patch -p1 --fuzz=0 takes it in a copy of the
# repository, and every hunk has 3 lines of context before and after its
# changes (fewer only at the start or end of the file), as diff -u writes.
fix_patch_exact() {
  rm -rf "$work/pcopy" && cp -r "$repo" "$work/pcopy"
  if (cd "$work/pcopy" && patch -p1 --fuzz=0 --batch <"$2" >"$work/patch.log" 2>&1); then
    ok "$1: patch -p1 --fuzz=0 takes it"
  else
    bad "$1: patch -p1 --fuzz=0"; cat "$work/patch.log"
  fi
  if python3 - "$2" "$repo" <<'PY2'
import re, sys
patch, repo = sys.argv[1], sys.argv[2]
bad, path, hunks = [], None, 0
lines = open(patch).read().split("\n")
for i, l in enumerate(lines):
    if l.startswith("+++ b/"):
        path = l[6:]
        total = len(open(repo + "/" + path).read().splitlines())
    m = re.match(r"@@ -(\d+),(\d+) \+\d+,\d+ @@", l)
    if not m:
        continue
    hunks += 1
    start, count = int(m.group(1)), int(m.group(2))
    body = []
    for b in lines[i + 1:]:
        if not b or b[0] not in " +-\\":
            break
        if b[0] != "\\":
            body.append(b[0])
    lead = len(body) - len("".join(body).lstrip(" "))
    trail = len(body) - len("".join(body).rstrip(" "))
    want_lead = min(3, start - 1)
    want_trail = min(3, total - (start + count - 1) + trail)
    if lead != want_lead or trail != want_trail:
        bad.append("%s @@ -%d,%d: %d lines of context before, %d after" % (path, start, count, lead, trail))
if bad or not hunks:
    sys.exit("\n".join(bad) or "no hunk")
PY2
  then ok "$1: 3 lines of context on both sides of every hunk"; else bad "$1: context"; fi
}

# 0. A clean commit: nothing to check.
set +e
run >"$work/clean.out" 2>"$work/clean.err"; rc=$?
set -e
expect_rc 0 $rc "clean commit"
[ ! -s "$work/clean.out" ] && ok "clean commit: no output" || bad "clean commit: output"
run --format=sarif >"$work/clean.sarif" 2>/dev/null || true
$sarif_check "$work/clean.sarif" --results 0 && ok "clean commit: valid SARIF, no results" || bad "clean SARIF"

# 1. A patch adding a two-branch check function on a hot path.
# The check function and accessors of the check-split test, after a blank line.
{ echo; sed -n '/CHECK-MESSAGES:/d; /^static bool check_bounds/,$p' "$here/../checks/hotpath-check-split/two-branch-subsumed.c"; } >>src/buf.c
cat >"$work/a.expected" <<'E'
src/buf.c:13:13: warning: check function 'check_bounds' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]
static bool check_bounds(const struct buf *b, unsigned int off, unsigned int size)
            ^
src/buf.c:13:13: note: 'check_bounds' is hot: called by get8 (buf.c:28), which is called in a loop in sum8 (buf.c:37)
static bool check_bounds(const struct buf *b, unsigned int off, unsigned int size)
            ^
src/buf.c:17:6: note: this condition implies 'end > b->len' (the sum cannot wrap), so the fast path tests only that one
	if (off > b->len) {
	    ^
E
set +e
run >"$work/a.out" 2>"$work/a.err"; rc=$?
set -e
show "patch 1 (new check function), text, exit $rc" "$work/a.out"
show "patch 1, stderr" "$work/a.err"
expect_rc 1 $rc "patch 1 text"
same "patch 1 text: exactly the new finding" "$work/a.expected" "$work/a.out"
grep -q -F "1 of 3 translation units to check (1 changed, 0 through 0 changed headers)" "$work/a.err" \
  && ok "patch 1: only src/buf.c is run" || bad "patch 1: TU selection"

printf '%s\n' "::warning file=src/buf.c,line=13,col=13,title=hotpath-check-split::check function 'check_bounds' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function%0Asrc/buf.c:13:13: note: 'check_bounds' is hot: called by get8 (buf.c:28), which is called in a loop in sum8 (buf.c:37)%0Asrc/buf.c:17:6: note: this condition implies 'end > b->len' (the sum cannot wrap), so the fast path tests only that one" >"$work/a.gh.expected"
set +e
run --format=github >"$work/a.gh" 2>/dev/null; rc=$?
set -e
show "patch 1, --format=github, exit $rc" "$work/a.gh"
expect_rc 1 $rc "patch 1 github"
same "patch 1 github: one annotation" "$work/a.gh.expected" "$work/a.gh"

set +e
run --format=sarif >"$work/a.sarif" 2>/dev/null; rc=$?
set -e
expect_rc 1 $rc "patch 1 sarif"
if $sarif_check "$work/a.sarif" --results 1 --rule hotpath-check-split \
     --file src/buf.c --line 13 --col 13 --fixes; then
  ok "patch 1 SARIF: valid against the SARIF 2.1.0 schema, one result at src/buf.c:13:13 with its fix"
else
  bad "patch 1 SARIF"
fi
python3 - "$work/a.sarif" <<'PY' && ok "patch 1 SARIF: notes as related locations" || bad "patch 1 SARIF related locations"
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]["results"][0]
rel = [(l["physicalLocation"]["region"]["startLine"], l["message"]["text"]) for l in r["relatedLocations"]]
assert rel == [(13, "'check_bounds' is hot: called by get8 (buf.c:28), which is called in a loop in sum8 (buf.c:37)"),
               (17, "this condition implies 'end > b->len' (the sum cannot wrap), so the fast path tests only that one")], rel
PY

# The schema check can fail: a property the schema does not have, a line 0.
python3 - "$work/a.sarif" "$work/a.broken.sarif" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
r = d["runs"][0]["results"][0]
r["bogus"] = 1
r["locations"][0]["physicalLocation"]["region"]["startLine"] = 0
json.dump(d, open(sys.argv[2], "w"))
PY
if $sarif_check "$work/a.broken.sarif" >"$work/broken.out"; then
  bad "a SARIF log the schema rejects passes the check"
else
  grep -q "Additional properties are not allowed ('bogus' was unexpected)" "$work/broken.out" &&
    grep -q "0 is less than the minimum of 1" "$work/broken.out" &&
    ok "the official schema rejects a broken log (extra property, line 0)" ||
    { bad "broken log rejected, but not by the schema"; cat "$work/broken.out"; }
fi
# partialFingerprints: the same finding after lines are added above it (its
# line moves), another one for another function.
print_of() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["runs"][0]["results"][0]["partialFingerprints"]["hotpathFinding/v1"])' "$1" 2>/dev/null || echo "no fingerprint"; }
fp1=$(print_of "$work/a.sarif")
cp src/buf.c "$work/buf.c.keep"
sed -i '4a /* running sums */\n/* of bytes */' src/buf.c
run --format=sarif >"$work/moved.sarif" 2>/dev/null || true
line=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"])' "$work/moved.sarif")
[ "$line" = 15 ] && [ "$(print_of "$work/moved.sarif")" = "$fp1" ] \
  && ok "SARIF: partialFingerprints unchanged when the finding moves from line 13 to $line" \
  || bad "SARIF: fingerprint changed with the line (line $line)"
sed -i 's/check_bounds/check_range/g' src/buf.c
run --format=sarif >"$work/renamed.sarif" 2>/dev/null || true
[ "$(print_of "$work/renamed.sarif")" != "$fp1" ] && ok "  and different for another function" \
  || bad "  the same for another function"
cp "$work/buf.c.keep" src/buf.c

git diff HEAD >"$work/a.patch"
set +e
"$tidy" --diff=- -p . <"$work/a.patch" >"$work/a.stdin" 2>/dev/null; rc=$?
set -e
expect_rc 1 $rc "patch 1 from stdin"
same "patch 1 from stdin: same finding" "$work/a.expected" "$work/a.stdin"
set +e
(cd src && "$tidy" --diff=HEAD -p .. >"$work/a.subdir" 2>/dev/null); rc=$?
set -e
expect_rc 1 $rc "patch 1 from a subdirectory"
sed 's|^src/||' "$work/a.expected" >"$work/a.subdir.expected"
same "patch 1 from a subdirectory: paths relative to it" "$work/a.subdir.expected" "$work/a.subdir"

# --fix-patch: applies, leaves the working tree alone, compiles.
before=$(git diff HEAD | sha1sum)
set +e
run --fix-patch="$work/fix1.diff" >/dev/null 2>&1; rc=$?
set -e
expect_rc 1 $rc "patch 1 --fix-patch"
show "patch 1, --fix-patch" "$work/fix1.diff"
[ "$(git diff HEAD | sha1sum)" = "$before" ] && ok "--fix-patch leaves the working tree alone" \
  || bad "--fix-patch changed the working tree"
rm -rf "$work/copy" && cp -r "$repo" "$work/copy"
if (cd "$work/copy" && git apply "$work/fix1.diff"); then ok "fix patch 1: git apply takes it"; else bad "fix patch 1: git apply"; fi
fix_patch_exact "fix patch 1" "$work/fix1.diff"
if (cd "$work/copy" && "$cc" -std=c11 -Wall -Wextra -Werror -Iinclude -c src/buf.c -o /dev/null); then
  ok "fix patch 1 applied: src/buf.c compiles with -Wall -Wextra -Werror"
else
  bad "fix patch 1 applied: does not compile"
fi
grep -q "__builtin_expect(end > b->len, 0)" "$work/copy/src/buf.c" && ok "fix patch 1: the fast path is there" \
  || bad "fix patch 1: no fast path"
set +e
(cd "$work/copy" && "$tidy" --diff=HEAD -p . >"$work/again.out" 2>/dev/null); rc=$?
set -e
expect_rc 0 $rc "patch 1 with its fix applied: nothing left"

# 2. A patch touching only unrelated lines of a file with an old finding.
g commit -qam "check function"
sed -i 's/unsigned s = 0;/unsigned s = 0; \/* running total *\//' src/buf.c
printf 'int other(int x) { return x + 2; }\n' >src/other.c
git diff HEAD >"$work/b.patch"
show "patch 2 (unrelated lines)" "$work/b.patch"
for fmt in text github; do
  set +e
  run --format=$fmt >"$work/b.$fmt" 2>"$work/b.err"; rc=$?
  set -e
  show "patch 2, --format=$fmt, exit $rc" "$work/b.$fmt"
  expect_rc 0 $rc "patch 2 $fmt"
  [ ! -s "$work/b.$fmt" ] && ok "patch 2 $fmt: nothing reported" || bad "patch 2 $fmt: reported something"
done
show "patch 2, stderr" "$work/b.err"
set +e
run --format=sarif >"$work/b.sarif" 2>/dev/null; rc=$?
set -e
expect_rc 0 $rc "patch 2 sarif"
$sarif_check "$work/b.sarif" --results 0 && ok "patch 2 SARIF: valid, no results" || bad "patch 2 SARIF"
set +e
run --fix-patch="$work/fix2.diff" >/dev/null 2>&1
set -e
[ -f "$work/fix2.diff" ] && [ ! -s "$work/fix2.diff" ] && ok "patch 2: empty fix patch" || bad "patch 2: fix patch not empty"
git checkout -q -- .

# 3. A patch to a header alone.
python3 - <<'PY'
p = "include/buf.h"
# With a use that costs a call: a disabled assert no use pays for is not
# reported.
s = open(p).read().replace("#endif\n", "#ifdef DEBUG\n#define ASSERT(x) ((x) ? (void)0 : __builtin_trap())\n#else\n#define ASSERT(x) (void)(x)\n#endif\n"
                           "static inline unsigned char first_byte(const struct buf *b) { ASSERT(sum(b) > 0); return b->data[0]; }\n#endif\n")
open(p, "w").write(s)
PY
cat >"$work/c.expected" <<'E'
include/buf.h:8:9: warning: disabled assert 'ASSERT' still evaluates its argument; make it type-check the argument without evaluating it [hotpath-noop-assert]
#define ASSERT(x) (void)(x)
        ^
include/buf.h:10:63: note: its use here does work the compiler must keep: it calls 'sum', which runs a loop
static inline unsigned char first_byte(const struct buf *b) { ASSERT(sum(b) > 0); return b->data[0]; }
                                                              ^
E
set +e
run --fix-patch="$work/fix3.diff" --progress >"$work/c.out" 2>"$work/c.err"; rc=$?
set -e
show "patch 3 (header alone), exit $rc" "$work/c.out"
show "patch 3, stderr" "$work/c.err"
expect_rc 1 $rc "patch 3"
same "patch 3: the header's finding, once" "$work/c.expected" "$work/c.out"
grep -q -F "2 of 3 translation units to check (0 changed, 2 through 1 changed header)" "$work/c.err" \
  && ok "patch 3: the two TUs that include the header are run, not src/other.c" || bad "patch 3: TU selection"
grep -q -E "^hotpath-tidy: \[2/2\] checked src/(buf|main)\.c$" "$work/c.err" && ok "--progress: [done/total] and the TU" || bad "--progress"
show "patch 3, --fix-patch" "$work/fix3.diff"
[ "$(grep -c '^+#define ASSERT' "$work/fix3.diff")" = 1 ] && ok "fix patch 3: the header edit once (2 TUs)" \
  || bad "fix patch 3: header edit count"
rm -rf "$work/copy" && cp -r "$repo" "$work/copy"
fix_patch_exact "fix patch 3" "$work/fix3.diff"
if (cd "$work/copy" && git apply "$work/fix3.diff" && for f in src/*.c; do
      "$cc" -std=c11 -Wall -Wextra -Werror -Iinclude -c "$f" -o /dev/null || exit 1; done); then
  ok "fix patch 3 applies and every TU compiles"
else
  bad "fix patch 3"
fi
set +e
run --format=github >"$work/c.gh" 2>/dev/null; rc=$?
run --format=sarif >"$work/c.sarif" 2>/dev/null; rc2=$?
set -e
show "patch 3, --format=github, exit $rc" "$work/c.gh"
expect_rc 1 $rc "patch 3 github"
expect_rc 1 $rc2 "patch 3 sarif"
$sarif_check "$work/c.sarif" --results 1 --rule hotpath-noop-assert --file include/buf.h --line 8 --col 9 --fixes \
  && ok "patch 3 SARIF" || bad "patch 3 SARIF"
git checkout -q -- .

# 4. A TU that does not compile does not hide findings elsewhere.
g reset -q --hard HEAD~1
cat "$work/a.patch" | git apply
printf 'int other(int x) { return x + ; }\n' >src/other.c
set +e
run >"$work/d.out" 2>"$work/d.err"; rc=$?
run --format=sarif >"$work/d.sarif" 2>/dev/null
set -e
show "broken TU, stderr" "$work/d.err"
# Skipped, not a failed run: the others' finding decides the exit status.
expect_rc 1 $rc "a TU that does not compile, a finding elsewhere"
grep -q -x "hotpath-tidy: error: src/other.c: skipped: clang cannot compile it" "$work/d.err" &&
  grep -q -x "src/other.c:1:31: error: expected expression" "$work/d.err" \
  && ok "the broken TU is named with its first error" || bad "broken TU not reported"
same "the finding in src/buf.c is still reported" "$work/a.expected" "$work/d.out"
$sarif_check "$work/d.sarif" --results 1 --rule hotpath-check-split --notified src/other.c:1 \
  && ok "SARIF: the finding, executionSuccessful true, the broken TU notified" || bad "SARIF with a broken TU"
git checkout -q -- .

# 5. Could not run: exit 2 with the reason.
set +e
"$tidy" --diff=HEAD >/dev/null 2>"$work/e1.err"; rc1=$?
"$tidy" --diff=no-such-rev -p . >/dev/null 2>"$work/e2.err"; rc2=$?
echo 'not a diff' | "$tidy" --diff=- -p . >/dev/null 2>"$work/e3.err"; rc3=$?
"$tidy" --diff=HEAD -p . --format=xml >/dev/null 2>"$work/e4.err"; rc4=$?
set -e
echo 'x' >>src/buf.c  # a change, so that the database is needed
set +e
"$tidy" --diff=HEAD -p "$work/nowhere" >/dev/null 2>"$work/e5.err"; rc5=$?
set -e
git checkout -q -- .
expect_rc 2 $rc2 "unknown revision"; grep -q "git diff no-such-rev failed" "$work/e2.err" && ok "  says git diff failed" || bad "  reason"
expect_rc 2 $rc3 "not a diff on stdin"; grep -q "not a unified diff" "$work/e3.err" && ok "  says so" || bad "  reason"
expect_rc 2 $rc4 "bad --format"; grep -q "text, github, sarif or codeclimate" "$work/e4.err" && ok "  says so" || bad "  reason"
expect_rc 2 $rc5 "no compile database"; grep -q "cannot load the compilation database" "$work/e5.err" && ok "  says so" || bad "  reason"
[ $rc1 -eq 0 ] && ok "clean tree without -p: nothing to do, exit 0" || bad "clean tree without -p: exit $rc1"

# 6. Without --diff it is clang-tidy.
"$tidy" --list-checks -checks='-*,hotpath-*' | grep -q hotpath-check-split && ok "without --diff: clang-tidy" \
  || bad "without --diff"

# 6b. --help: the modes and their options first, then clang-tidy's;
#     --version: this tool's version and the LLVM it was built for, then LLVM's.
set +e
"$tidy" --help >"$work/help.out" 2>&1; rc=$?
set -e
expect_rc 0 $rc "--help"
python3 - "$work/help.out" <<'PY2' && ok "--help: --diff, --profile, --inline-remarks, --format, --fix-patch, --export-fixes, --warnings-as-errors, -j, then clang-tidy's -checks" || bad "--help order"
import sys
t = open(sys.argv[1]).read()
assert t.startswith("OVERVIEW: hotpath-tidy"), t[:80]
ours = [t.index(k) for k in ("--diff=<rev>", "--profile=<file>", "--inline-remarks", "--format=<format>[:<file>]", "--fix-patch=<file>", "--export-fixes=<file>", "--warnings-as-errors=<globs>", "-j N")]
theirs = t.index("--checks=<string>")
assert max(ours) < theirs, (ours, theirs)
PY2
"$tidy" --version >"$work/version.out" 2>&1
head -1 "$work/version.out" | grep -qx "hotpath-tidy version [0-9.]*" &&
  sed -n 2p "$work/version.out" | grep -q "built for LLVM [0-9][0-9.]* (clang-tidy-[0-9]*)" &&
  grep -q "LLVM version" "$work/version.out" && ok "--version: the tool's, the LLVM it was built for, LLVM's" \
  || { bad "--version"; cat "$work/version.out"; }

# 7. Patch mode misses nothing: with --diff-filter=touched, a finding belongs
#    to a patch that changes any line of what it is about, not only the line
#    it points at.
git apply "$work/a.patch" && g commit -qam "check function"
run_rc() { # NAME ARGS...: run with --diff, output in $work/NAME.{out,err}, exit in $rc
  local name=$1; shift
  set +e
  "$tidy" "$@" -p . >"$work/$name.out" 2>"$work/$name.err"; rc=$?
  set -e
  show "$name, exit $rc" "$work/$name.out"
}
# add_branch COND: a report-and-return branch before check_bounds' success return.
add_branch() {
  python3 - "$1" <<'PY2'
import sys
p = "src/buf.c"
s = open(p).read()
s = s.replace("\treturn true;\n}\n", "\tif (%s) {\n\t\tfprintf(stderr, \"bad size %%u\\n\", size);\n\t\treturn false;\n\t}\n\treturn true;\n}\n" % sys.argv[1], 1)
open(p, "w").write(s)
PY2
}
# edit_case WHAT HUNK WANT_RC [WARNING]: the working tree as edited, whose
# diff must have HUNK; with --diff-filter=touched, exit WANT_RC and, when
# given, WARNING alone reported. By default (--diff-filter=new) nothing: each
# finding is at HEAD already (issue 25: an old finding the patch edits is
# not new).
edit_case() {
  git diff -U0 HEAD | grep -qF "$2" || { bad "$1: unexpected patch"; git diff HEAD; }
  run_rc case --diff=HEAD --diff-filter=touched
  expect_rc "$3" $rc "$1"
  if [ -n "${4:-}" ]; then
    grep -qF "$4" "$work/case.out" && [ "$(grep -c ': warning: ' "$work/case.out")" = 1 ] \
      && ok "  reported, once" || bad "  not reported"
  else
    [ ! -s "$work/case.out" ] && ok "  nothing reported" || bad "  reported"
  fi
  run_rc case-new --diff=HEAD
  expect_rc 0 $rc "$1, --diff-filter=new"
  [ ! -s "$work/case-new.out" ] && ok "  not new: nothing reported" || bad "  reported as new"
  git checkout -q -- .
}
# 7a. A third report-and-return branch inside the function, the name line
#     untouched: reported on the function's name, line 13.
add_branch "size == 0"
edit_case "a branch added inside a check function's body" "@@ -24,0 +25,4 @@" 1 \
  "src/buf.c:13:13: warning: check function 'check_bounds' tests 3 conditions on a hot path"
# 7b. Only a removed line, inside the function.
sed -i '16{/^$/d}' src/buf.c
edit_case "a line removed inside a check function" "@@ -16 +15,0 @@" 1 \
  "src/buf.c:13:13: warning: check function 'check_bounds' tests 2 conditions"
# 7c. The control: the line right before the function is not the function.
sed -i '12s/^$/\/* bounds *\//' src/buf.c
edit_case "the line before the function: not part of it" "@@ -12 +12 @@" 0
# 7d. An assembly file in the compile database: skipped with a note.
printf '/* crc */\n\t.text\n\t.globl crc\ncrc:\n\tret\n' >src/crc.S
python3 - "$repo" <<'PY2'
import json, sys
d = sys.argv[1]
db = json.load(open(d + "/compile_commands.json"))
db.append({"directory": d, "file": "src/crc.S", "arguments": ["cc", "-c", "src/crc.S", "-o", "crc.o"]})
json.dump(db, open(d + "/compile_commands.json", "w"), indent=1)
PY2
g add -A && g commit -qm "assembly"
sed -i 's|/\* crc \*/|/* crc32 */|' src/crc.S
run_rc asm --diff=HEAD
expect_rc 0 $rc "a comment changed in an assembly file"
grep -qxF "hotpath-tidy: note: skipping src/crc.S: assembly, which clang-tidy does not check" "$work/asm.err" \
  && ok "  skipped with a note" || { bad "  no note"; cat "$work/asm.err"; }
grep -qF "1 changed file; 0 of 4 translation units to check" "$work/asm.err" && ok "  and no TU run" || bad "  TU count"
sed -i 's/x + 1/x + 5/' src/other.c
run_rc asm2 --diff=HEAD
expect_rc 0 $rc "assembly and C changed: the C file is checked"
grep -qF "2 changed files; 1 of 4 translation units to check (1 changed" "$work/asm2.err" && ok "  the C TU only" \
  || { bad "  TU count"; cat "$work/asm2.err"; }
git checkout -q -- .
# 7e. The target branch moved on: main...HEAD is the branch's own change.
git branch -q -M main
git checkout -q -b feature
sed -i 's/x + 1/x + 7/' src/other.c && g commit -qam "feature"
git checkout -q main
add_branch "size == 0"
g commit -qam "main moves on"
git checkout -q feature
# (--diff-filter=touched: main's change to check_bounds is no new finding,
# only a changed one.)
run_rc moved --diff=main --diff-filter=touched
expect_rc 1 $rc "--diff=main after main moved on: main's own change shows up"
grep -qF "hotpath-tidy: note: main is not an ancestor of HEAD: the diff also holds what main changed since HEAD forked from it; --diff=main...HEAD checks only the changes of HEAD" "$work/moved.err" \
  && ok "  with a note pointing at main...HEAD" || { bad "  no note"; cat "$work/moved.err"; }
run_rc mergebase --diff=main...HEAD
expect_rc 0 $rc "--diff=main...HEAD: only the branch's change"
[ ! -s "$work/mergebase.out" ] && ok "  nothing reported" || bad "  reported"
grep -qF "1 changed file; 1 of 4 translation units to check (1 changed" "$work/mergebase.err" \
  && ok "  src/other.c alone" || { bad "  TU selection"; cat "$work/mergebase.err"; }
run_rc mergebase2 --diff=main...
expect_rc 0 $rc "--diff=main... (B defaults to HEAD)"
run_rc notchecked --diff=feature...main
expect_rc 2 $rc "--diff=A...B with B not checked out"
grep -qF "the files checked are the working tree's, so 'main' must be the checked-out commit (HEAD)" "$work/notchecked.err" \
  && ok "  says why" || { bad "  reason"; cat "$work/notchecked.err"; }
# The same branch, now with a body edit of its own: main...HEAD finds it.
add_branch "size > 8"
run_rc mergebase3 --diff=main...HEAD --diff-filter=touched
expect_rc 1 $rc "--diff=main...HEAD with a body edit on the branch"
grep -q "^src/buf.c:13:13: warning: check function 'check_bounds' tests 3 conditions" "$work/mergebase3.out" \
  && ok "  reported" || bad "  not reported"
git checkout -q -- .
# 7f. A hook's call site statement and an assert macro's definition, each
#     over two lines; the finding is on the first, the patch on the second.
python3 - "$here/../checks/hotpath-hook-gate/empty-static-hook.c" "$repo" <<'PY2'
import json, sys
s = ''.join(l for l in open(sys.argv[1]) if 'CHECK-MESSAGES:' not in l).replace("\t\ttrace_lookup(&items[i], key);\n", "\t\ttrace_lookup(&items[i],\n\t\t\t     key);\n")
s += ("\n#ifdef DEBUG\n#define ASSERT(x) ((x) ? (void)0 : __builtin_trap())\n#else\n#define ASSERT(x) \\\n\t(void)(x)\n#endif\n"
      "\nint items_ok(const struct item *items); int first(const struct item *items) { ASSERT(items_ok(items)); return items[0].key; }\n")
open("src/hook.c", "w").write(s)
# Nothing in this file switches the hook on: a new gate needs the opt-in.
# This file replaces the root .clang-tidy for src/, so it repeats its
# ChainHeatThreshold (one loop counts as hot in this small program).
open("src/.clang-tidy", "w").write('CheckOptions:\n  hotpath-hook-gate.NewGateWithSetters: "true"\n  ChainHeatThreshold: 5\n')
d = sys.argv[2]
db = json.load(open(d + "/compile_commands.json"))
db.append({"directory": d, "file": "src/hook.c", "arguments": ["cc", "-std=c11", "-c", "src/hook.c", "-o", "hook.o"]})
json.dump(db, open(d + "/compile_commands.json", "w"), indent=1)
PY2
g add -A && g commit -qm "hook and assert"
[ "$(sed -n 16p src/hook.c)" = "$(printf '\t\ttrace_lookup(&items[i],')" ] && [ "$(sed -n 27p src/hook.c)" = '#define ASSERT(x) \' ] \
  || bad "7f: src/hook.c is not laid out as the cases expect"
sed -i '17s|key);|key /* k */);|' src/hook.c
edit_case "the second line of a hook's call statement" "@@ -17 +17 @@" 1 \
  "src/hook.c:16:3: warning: hot call to hook 'trace_lookup'"
sed -i '18s/if (items/if ( items/' src/hook.c
edit_case "the next statement after the hook call (the control)" "@@ -18 +18 @@" 0
sed -i '28s/(void)(x)/(void)((x))/' src/hook.c
edit_case "the continuation line of a disabled assert's definition" "@@ -28 +28 @@" 1 \
  "src/hook.c:27:9: warning: disabled assert 'ASSERT' still evaluates its argument"
sed -i '31s/items\[0\]/items[ 0]/' src/hook.c
edit_case "a use of the assert, outside its definition (the control)" "@@ -31 +31 @@" 0
# Both findings' fixes in one file: several hunks, line numbers shifted by
# the ones before.
sed -i -e '17s|key);|key /* k */);|' -e '28s/(void)(x)/(void)((x))/' src/hook.c
set +e
run --diff-filter=touched --fix-patch="$work/fix7.diff" >/dev/null 2>&1; rc=$?
set -e
expect_rc 1 $rc "hook call and assert changed, --fix-patch"
show "fix patch 7" "$work/fix7.diff"
[ "$(grep -c '^@@' "$work/fix7.diff")" -ge 2 ] && ok "fix patch 7: several hunks" || bad "fix patch 7: hunks"
fix_patch_exact "fix patch 7" "$work/fix7.diff"
if (cd "$work/pcopy" && "$cc" -std=c11 -Wall -Wextra -Werror -c src/hook.c -o /dev/null); then
  ok "fix patch 7 applied: src/hook.c compiles with -Wall -Wextra -Werror"
else
  bad "fix patch 7 applied: does not compile"
fi
git checkout -q -- .

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
