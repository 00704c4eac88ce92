#!/usr/bin/env bash
# hotpath-tidy --inline-remarks, end to end: a project where clang -O2
# inlines a small static check in its own TU (check_index) and cannot inline
# an external one defined in another TU (check_range: NoDefinition), plus a
# hook called out of line. Both checks are named hot, so without remarks
# both are reported; with them only check_range, with "2 of 2 call sites not
# inlined"; the hook too. The build's own files (objects, dependency files)
# are left alone; a TU clang cannot compile is named (exit 2); combined with
# --profile and with --diff. Usage: inline-remarks.sh HOTPATH_TIDY
set -euo pipefail
tidy=$(realpath "$1")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "ok   $*"; }
bad() { failed=$((failed + 1)); echo "FAIL $*"; }
expect_rc() { if [ "$2" -eq "$1" ]; then ok "$3: exit $2"; else bad "$3: exit $2, expected $1"; fi; }
show() { echo "---- $1"; sed 's/^/    /' "$2"; echo "----"; }
has() { # has WHAT FILE TEXT
  if grep -qF -- "$3" "$2"; then ok "$1"; else bad "$1: no '$3'"; show "$1" "$2"; fi
}
hasnt() {
  if grep -qF -- "$3" "$2"; then bad "$1: '$3'"; show "$1" "$2"; else ok "$1"; fi
}
g() { git -c user.name=t -c user.email=t@example.com "$@"; }

p=$work/proj
mkdir -p "$p/src" "$p/include" && cd "$p"
cat >include/buf.h <<'H'
#ifndef BUF_H
#define BUF_H
#include <stdbool.h>
struct buf { unsigned long len; unsigned char *data; };
bool check_range(const struct buf *b, unsigned long off, unsigned long size);
int should_fail_read(unsigned long size);
#endif
H
cat >src/check.c <<'C'
#include <stdio.h>
#include "buf.h"

bool check_range(const struct buf *b, unsigned long off, unsigned long size)
{
	unsigned long end = off + size;

	if (off > b->len) {
		fprintf(stderr, "bad start %lu\n", off);
		return false;
	}
	if (end > b->len) {
		fprintf(stderr, "bad end %lu\n", end);
		return false;
	}
	return true;
}

int should_fail_read(unsigned long size)
{
	(void)size;
	return 0;
}
C
cat >src/access.c <<'C'
#include <stdio.h>
#include "buf.h"

static bool check_index(const struct buf *b, unsigned long i)
{
	if (i >= b->len) {
		fprintf(stderr, "bad index %lu\n", i);
		return false;
	}
	if (i + 1 > b->len) {
		fprintf(stderr, "bad index end %lu\n", i);
		return false;
	}
	return true;
}

unsigned get_u8(const struct buf *b, unsigned long i)
{
	if (should_fail_read(1))
		return 0;
	if (!check_index(b, i))
		return 0;
	return b->data[i];
}

unsigned get_u16(const struct buf *b, unsigned long off)
{
	if (!check_range(b, off, 2))
		return 0;
	return b->data[off] | b->data[off + 1] << 8;
}

unsigned get_u32(const struct buf *b, unsigned long off)
{
	if (!check_range(b, off, 4))
		return 0;
	if (!check_index(b, off + 3))
		return 0;
	return b->data[off] | (unsigned)b->data[off + 3] << 24;
}
C
# The build's flags: -O0 and dependency files, which the remarks compile
# must override and not write.
python3 - "$p" <<'PY'
import json, sys
d = sys.argv[1]
json.dump([{"directory": d, "file": "src/%s.c" % n,
            "arguments": ["ccache", "cc", "-std=c11", "-O0", "-Iinclude", "-MD", "-MF", "%s.d" % n,
                          "-c", "src/%s.c" % n, "-o", "%s.o" % n]}
           for n in ("check", "access")], open(d + "/compile_commands.json", "w"), indent=1)
PY
cfg="{CheckOptions: {hotpath-check-split.HotFunctions: 'check_range;check_index', hotpath-hook-gate.HookFunctions: 'should_fail_read=0'}}"

run() { # run NAME WANT_RC ARGS...
  local name=$1 want=$2; shift 2
  set +e
  "$tidy" "$@" >"$work/$name.out" 2>"$work/$name.err"; local rc=$?
  set -e
  expect_rc "$want" $rc "$name"
}

# 1. Without remarks (plain clang-tidy): both checks reported.
set +e
"$tidy" -checks='-*,hotpath-*' -config="$cfg" -p . src/check.c src/access.c >"$work/plain.out" 2>/dev/null
set -e
has "plain: check_range reported" "$work/plain.out" "check function 'check_range'"
has "plain: check_index reported" "$work/plain.out" "check function 'check_index'"

# 2. With remarks: check_index (inlined at both sites) is gone; check_range
#    and the hook stay, saying how many calls stay out of line.
run remarks 1 --inline-remarks -p . -config="$cfg"
show "hotpath-tidy --inline-remarks -p . -config=..." "$work/remarks.out"
has "remarks: check_range reported" "$work/remarks.out" "check function 'check_range' tests 2 conditions"
has "remarks: check_range's count" "$work/remarks.out" "note: 'check_range' is hot: 2 of 2 call sites not inlined"
hasnt "remarks: check_index (inlined) not reported" "$work/remarks.out" "check_index"
has "remarks: the hook reported" "$work/remarks.out" "hot call to hook 'should_fail_read'"
has "remarks: the hook's count" "$work/remarks.out" "note: 'should_fail_read' is hot: 1 of 1 call site not inlined"
ls *.o *.d *.opt.yaml src/*.opt.yaml >/dev/null 2>&1 && bad "remarks: files written into the project" || ok "remarks: no object, dependency or record file written"

# 3. Named sources: the calls in the other TU still count.
run named 1 --inline-remarks -p . -config="$cfg" src/check.c
has "named: check_range from the calls in access.c" "$work/named.out" "2 of 2 call sites not inlined"

# 4. With a profile: both notes in one.
printf 'main;get_u16;check_range 40\nmain;get_u8 50\nmain 10\n' >prof.folded
run profile 1 --inline-remarks --profile=prof.folded -p . -config="$cfg"
has "profile: share and count" "$work/profile.out" "'check_range' is hot: 40.0% of samples removable (inclusive) in 'prof.folded', 2 of 2 call sites not inlined"

# 5. With --diff: only the changed lines, still with the count.
g init -q && g add include src/access.c compile_commands.json && g commit -qm base
g add -N src/check.c
run diff 1 --diff=HEAD --inline-remarks -p . -config="$cfg"
has "diff: check_range" "$work/diff.out" "2 of 2 call sites not inlined"
hasnt "diff: unchanged access.c not reported" "$work/diff.out" "src/access.c:"

# 6. A TU clang cannot compile: skipped and named with its error; the rest
# still counted, and its finding decides the exit status.
printf 'int broken(void) { return missing; }\n' >src/broken.c
python3 - "$p" <<'PY'
import json, sys
d = sys.argv[1]
db = json.load(open(d + "/compile_commands.json"))
db.append({"directory": d, "file": "src/broken.c", "arguments": ["cc", "-c", "src/broken.c"]})
json.dump(db, open(d + "/compile_commands.json", "w"), indent=1)
PY
run broken 1 --inline-remarks -p . -config="$cfg" src/check.c
has "broken: named" "$work/broken.err" "hotpath-tidy: error: src/broken.c: skipped: clang cannot compile it for its inline remarks (clang-"
has "broken: the compiler's error" "$work/broken.err" "src/broken.c:1:27: error: use of undeclared identifier 'missing'"
has "broken: the summary" "$work/broken.err" "hotpath-tidy: 1 of 2 translation units skipped, clang cannot compile it: src/broken.c"
has "broken: the rest still reported" "$work/broken.out" "2 of 2 call sites not inlined"

# 7. A bad InlineRemarks file given as a check option: the check's error.
printf 'check_range two 2\n' >bad-summary.txt
set +e
"$tidy" -checks='-*,hotpath-*' -config="{CheckOptions: {hotpath-check-split.InlineRemarks: bad-summary.txt}}" \
  -p . src/check.c >"$work/bad.out" 2>&1; rc=$?
set -e
[ "$rc" -ne 0 ] && [ "$rc" -lt 128 ] && ok "bad summary: exit $rc" || bad "bad summary: exit $rc"
has "bad summary: file and line" "$work/bad.out" "bad-summary.txt:1: expected 'function not_inlined call_sites'"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
