#!/usr/bin/env bash
# The project index, end to end, on two multi-file trees of tests/e2e/projects:
#   c:   a two-branch check_range() in check.c, called from four accessors a
#        macro in access.h writes (check.c does not include access.h) and in
#        a loop in main.c; an empty hook in fault.c and a switched one in
#        trace.c, both called in main.c's loop;
#   cxx: Buffer::checkRange() defined out of class in buffer.cpp, called in a
#        loop in main.cpp and from the readers in reader.cpp.
# For each: `hotpath-tidy -p build --fix` gives exactly the expected
# findings and fixes them; the fixed program builds with -Wall -Wextra
# -Werror under gcc and clang, gives the same stdout, stderr and exit status
# as the original on the same inputs (failing ones included), and runs fewer
# instructions under callgrind (before / after / no check, as ratios); a
# second run finds nothing. Plain clang-tidy with the module and the
# ProjectIndex option gives the same findings (and without it, not).
# Incremental: an unchanged second index run parses no TU, a time stamp
# alone none, an edited header exactly the TUs that include it. Patch mode
# across two files (--diff): a check added in one and its hot call in
# another, and a hot call alone added to an old check: exit 1, the finding,
# in SARIF. Negative controls beside each check.
# Usage: project-index.sh HOTPATH_TIDY CLANG_TIDY PLUGIN
set -euo pipefail
binary=$(realpath "$1") tidy=$2 plugin=$(realpath "$3")
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[ -n "${HOTPATH_KEEP_FIXED_DIFF:-}" ] && trap 'cp "$work"/*-fixed.diff "$HOTPATH_KEEP_FIXED_DIFF"/; rm -rf "$work"' EXIT
# shellcheck source=lib.sh
source "$here/lib.sh"
sarif_check="python3 $here/ci-sarif-required.py"

# tree NAME DEST: a copy of projects/NAME (without its variants, with its
# .clang-tidy) with build/compile_commands.json. Each project's .clang-tidy
# sets ChainHeatThreshold (5; 4 in c, see there): a small program, one loop
# counts as hot; heat itself is tested by chain-heat.sh and the unit tests.
tree() {
  local name=$1 dest=$2 ext=c cc=cc std=c11
  [ "$name" = cxx ] && ext=cpp cc=c++ std=c++17
  rm -rf "$dest" && mkdir -p "$dest/build"
  cp -r "$here/projects/$name/include" "$here/projects/$name/src" "$dest/"
  cp "$here/projects/$name/.clang-tidy" "$dest/"
  python3 - "$dest" "$ext" "$cc" "$std" <<'PY'
import glob, json, os, sys
d, ext, cc, std = sys.argv[1:]
json.dump([{"directory": d, "file": f, "arguments": [cc, "-std=" + std, "-O2", "-Iinclude", "-c", f,
            "-o", "build/" + os.path.basename(f) + ".o"]}
           for f in sorted(os.path.relpath(p, d) for p in glob.glob(d + "/src/*." + ext))],
          open(d + "/build/compile_commands.json", "w"), indent=1)
PY
}
# fixdiff NAME: what the fix changed in NAME-after, as diff -ruN (paths a/
# and b/, no time stamps).
fixdiff() {
  (cd "$work" && diff -ruN -x build "$1-before" "$1-after") |
    sed -E -e "s#^(---|\+\+\+) $1-(before|after)/([^\t]*)\t.*#\1 \3#" -e "s#^diff -ruN -x build .*#diff#" || true
}
# findings FILE: the diagnostic lines of a clang-tidy or hotpath-tidy log.
findings() { grep -E '^[^ ]+:[0-9]+:[0-9]+: (warning|note|error): ' "$1" || true; }
# same_lines WHAT EXPECTED GOT: the two files hold the same lines.
same_lines() {
  diff -u "$2" "$3" >"$work/lines.diff" && return 0
  echo "  $1:"; sed 's/^/    /' "$work/lines.diff" | head -30; return 1
}
IR_ARGS="200000 1"

expect_c=$work/expect-c.txt expect_cxx=$work/expect-cxx.txt
# In the order of the TUs (the text streams as each is checked): check.c's,
# then fault.c's (the header's finding among them), then main.c's.
cat >"$expect_c" <<'E'
src/check.c:5:6: warning: check function 'check_range' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]
src/check.c:5:6: note: 'check_range' is hot: called in a loop in main.c:73 and from 4 macro-generated accessors in access.c
src/check.c:9:6: note: this condition implies 'end > b->len' (the sum cannot wrap: every call site in the project passes a constant from 1 to 8 for 'size'), so the fast path tests only that one
include/buf.h:25:5: warning: hook 'should_fail' has no inline gate; declare one next to it, off by default, with setters to switch the hook on at run time [hotpath-hook-gate]
src/fault.c:3:5: note: the hook is defined here
src/fault.c:3:5: warning: hook 'should_fail' is called out of line even while it does nothing; define its gate here, next to it [hotpath-hook-gate]
src/fault.c:3:5: note: 'should_fail' is a hook: its body only returns 0 in this configuration, and calls from other files (main.c in the project index) cannot inline it without LTO
src/main.c:66:7: warning: hot call to hook 'should_fail', which does nothing unless switched on; test an inline gate first so the disabled case makes no call [hotpath-hook-gate]
include/buf.h:25:5: note: 'should_fail' is a hook: its body in fault.c only returns 0 (project index)
include/buf.h:25:5: note: the new gate starts off: a fault-injection build that replaces fault.c must call should_fail_gate_enable(), or the hook stays quiet
src/main.c:70:3: warning: hot call to hook 'trace_event', which does nothing unless switched on; test an inline gate first so the disabled case makes no call [hotpath-hook-gate]
include/buf.h:20:6: note: 'trace_event' is a hook: in trace.c it does something only while 'trace_on' holds (project index)
include/buf.h:20:6: note: its gate is the switch 'trace_on' it tests in trace.c, tested at the call site
E
cat >"$expect_cxx" <<'E'
src/buffer.cpp:14:14: warning: check function 'checkRange' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]
src/buffer.cpp:14:14: note: 'checkRange' is hot: called in a loop in main (main.cpp:31)
src/buffer.cpp:17:7: note: this condition implies 'End > Len' (the sum cannot wrap), so the fast path tests only that one
E

for name in c cxx; do
  if [ "$name" = c ]; then ccs=(gcc clang-19) std=-std=c11 ext=c expect=$expect_c
  else ccs=(g++ clang++-19) std=-std=c++17 ext=cpp expect=$expect_cxx; fi
  before=$work/$name-before after=$work/$name-after nocheck=$work/$name-nocheck
  tree "$name" "$before"; tree "$name" "$after"; tree "$name" "$nocheck"
  cp -r "$here/projects/$name/variants/nocheck/"* "$nocheck/"

  # 1. The whole project, fixed: exactly the expected findings.
  rc=0
  (cd "$after" && "$binary" -p build --fix -j2) >"$work/$name-fix.out" 2>"$work/$name-fix.err" || rc=$?
  findings "$work/$name-fix.out" >"$work/$name-fix.txt"
  if [ "$rc" = 1 ] && same_lines "$name: findings" "$expect" "$work/$name-fix.txt"; then
    ok "$name: hotpath-tidy -p build --fix: exit 1, the $(grep -c ': warning: ' "$expect") expected findings, exactly"
  else
    bad "$name: hotpath-tidy -p build --fix (exit $rc)"; cat "$work/$name-fix.err"
  fi
  # The fixed text, exactly (tests/e2e/projects/NAME/fixed.diff).
  fixdiff "$name" >"$work/$name-fixed.diff"
  if same_lines "$name: fixed text" "$here/projects/$name/fixed.diff" "$work/$name-fixed.diff"; then
    ok "$name: the fixed files are exactly projects/$name/fixed.diff"
  else
    bad "$name: fixed text"
  fi
  # Negative control: without the index the cross-file findings are not there.
  rm -rf "$work/noindex" && cp -r "$before" "$work/noindex"
  (cd "$work/noindex" && "$binary" -p build --no-index) >"$work/$name-noindex.out" 2>&1 || true
  findings "$work/$name-noindex.out" >"$work/$name-noindex.txt"
  expect_failure "$name: --no-index, each TU on its own" "$name: findings:" \
    same_lines "$name: findings" "$expect" "$work/$name-noindex.txt"

  # 2. Builds with -Wall -Wextra -Werror, same behaviour.
  for cc in "${ccs[@]}"; do
    built=1
    for v in before after nocheck; do
      (cd "$work/$name-$v" && "$cc" "$std" -O2 -Wall -Wextra -Werror -Iinclude -o "prog-$cc" src/*."$ext") \
        >"$work/build.log" 2>&1 || { built=0; bad "$name $v: $cc -Wall -Wextra -Werror"; cat "$work/build.log"; }
    done
    [ "$built" = 1 ] || continue
    ok "$name: before, after and no-check build with $cc -Wall -Wextra -Werror"
    runs=("200000 1" "50000 3 7" "20000 5 3" "" "not-a-number")
    [ "$name" = c ] && runs+=("-t 40 2 9" "-t")
    for args in "${runs[@]}"; do
      # shellcheck disable=SC2086
      if same_behaviour "$before/prog-$cc" "$after/prog-$cc" $args; then
        ok "$name $cc '$args': same stdout, stderr ($(wc -l <"$work/beh/a.err") lines), exit $(cat "$work/beh/a.rc")"
      else
        bad "$name $cc '$args': behaviour differs"
      fi
    done
    # The comparison means something only if the checks fired and runs failed.
    # shellcheck disable=SC2086
    { run_captured "$work/fire" "$before/prog-$cc" 50000 3 7; }
    if grep -q '^bad start' "$work/fire.err" && grep -q '^bad end' "$work/fire.err" &&
       [ "$(cat "$work/fire.rc")" = 3 ]; then
      ok "$name $cc: the failing inputs fire both reports and exit 3"
    else
      bad "$name $cc: the failing inputs fire nothing"
    fi
    if r=$(fewer_instructions "$before/prog-$cc" "$after/prog-$cc" "$nocheck/prog-$cc" 0.75); then
      ok "$name $cc: $r"
    else
      bad "$name $cc: $r"
    fi
    expect_failure "$name $cc: the unfixed build as 'after'" "is not below before" \
      fewer_instructions "$before/prog-$cc" "$before/prog-$cc" "$nocheck/prog-$cc" 0.75
  done

  # 3. A second run: nothing more to fix. (The fix changed sources, so the
  #    index is refreshed first: the second run must then change no file,
  #    the index's included; --no-cache: every TU analysed again, and no
  #    entry written into build/.)
  (cd "$after" && "$binary" --index-only -p build) >/dev/null 2>&1
  if second_run_clean "$after" "$work/$name-again.log" "$binary" -p build --fix -j2 --no-cache; then
    ok "$name: second --fix run: exit 0, no findings, no changes"
  else
    bad "$name: second --fix run"
  fi

  # 4. Plain clang-tidy with the module, pointed at the index: the same findings.
  plain=$work/$name-plain
  tree "$name" "$plain"
  (cd "$plain" && "$binary" --index-only -p build) >/dev/null 2>&1
  # -config overrides the project's .clang-tidy, so each one below repeats
  # its ChainHeatThreshold (a small program: one loop counts as hot; heat
  # itself is tested by chain-heat.sh and the unit tests), and the controls
  # differ from the real run in the ProjectIndex key alone.
  heat=$(sed -n 's/^ *ChainHeatThreshold: *//p' "$here/projects/$name/.clang-tidy")
  : "${heat:?no ChainHeatThreshold in projects/$name/.clang-tidy}"
  plain_run() { # OPTION: clang-tidy over every source, with -config OPTION
    (cd "$plain" && "$tidy" --load="$plugin" -checks='-*,hotpath-*' -p build -config="$1" src/*."$ext") \
      >"$work/$name-plain.out" 2>/dev/null || true
    findings "$work/$name-plain.out" | sort -u
  }
  sort -u "$expect" >"$work/$name-expect-sorted.txt"
  plain_run "{CheckOptions: {ProjectIndex: build/hotpath-index, ChainHeatThreshold: $heat, hotpath-hook-gate.HookEnablers: 'should_fail=a fault-injection build that replaces fault.c'}}" >"$work/$name-plain.txt"
  if same_lines "$name: clang-tidy findings" "$work/$name-expect-sorted.txt" "$work/$name-plain.txt"; then
    ok "$name: clang-tidy --load with ProjectIndex: the same findings"
  else
    bad "$name: clang-tidy --load with ProjectIndex"
  fi
  plain_run "{CheckOptions: {ChainHeatThreshold: $heat, hotpath-hook-gate.HookEnablers: 'should_fail=a fault-injection build that replaces fault.c'}}" >"$work/$name-plain-none.txt"
  expect_failure "$name: clang-tidy --load without ProjectIndex" "$name: clang-tidy findings:" \
    same_lines "$name: clang-tidy findings" "$work/$name-expect-sorted.txt" "$work/$name-plain-none.txt"
  # The per-check key sets that check alone.
  plain_run "{CheckOptions: {hotpath-check-split.ProjectIndex: build/hotpath-index, ChainHeatThreshold: $heat}}" >"$work/$name-plain-one.txt"
  grep -F '[hotpath-check-split]' "$expect" >"$work/$name-split-only.txt"
  if grep -F ': warning: ' "$work/$name-plain-one.txt" | grep -vF '[hotpath-check-split]' | grep -q . ||
     ! grep -qF -f "$work/$name-split-only.txt" "$work/$name-plain-one.txt"; then
    bad "$name: hotpath-check-split.ProjectIndex: not that check alone"; cat "$work/$name-plain-one.txt"
  else
    ok "$name: hotpath-check-split.ProjectIndex sets that check alone"
  fi
done

# 5. Incremental: what a second run parses.
inc=$work/inc
tree c "$inc"
indexed() { # WANT ARGS...: hotpath-tidy --index-only says "WANT translation units indexed"
  local want=$1 out
  shift
  out=$(cd "$inc" && "$binary" --index-only -p build "$@" 2>&1) || { echo "  exit $?: $out"; return 1; }
  grep -qF "project index build/hotpath-index: $want" <<<"$out" && return 0
  echo "  wanted '$want', got: $out"; return 1
}
step() { # WHAT WANT ARGS...
  local what=$1 want=$2
  shift 2
  if indexed "$want" "$@"; then ok "incremental: $what: $want"; else bad "incremental: $what"; fi
}
step "first run" "5 of 5 translation units indexed, 0 up to date"
step "unchanged second run" "0 of 5 translation units indexed, 5 up to date"
# The index state vouches for every key at once: with a shard's key made
# unreadable (same size, same time stamp), an unchanged run reads no key, so
# still all up to date; with the state gone, the keys are read: the error
# names the shard. The state is written again from the keys.
edit_keeping_stamp() { # FILE OLD NEW: the first OLD made NEW (as long), size and time stamp kept
  python3 - "$@" <<'PY'
import os, sys
p, old, new = sys.argv[1:4]
st = os.stat(p)
data = open(p, 'rb').read()
open(p, 'wb').write(data.replace(old.encode(), new.encode(), 1))
os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns))
PY
}
spoil_key() { edit_keeping_stamp "$1" '"format"' '"formaX"'; } # FILE: its key line unreadable
shard=$(ls "$inc"/build/hotpath-index/shards/check.c.*.json)
cp -p "$shard" "$work/check-shard.json"
spoil_key "$shard"
step "unchanged run, a key unreadable: the index state vouches, no key read" "0 of 5 translation units indexed, 5 up to date"
mv "$inc/build/hotpath-index/index-state" "$work/index-state"
out=$(cd "$inc" && "$binary" --index-only -p build 2>&1) && status=0 || status=$?
if [ "$status" = 2 ] && grep -qF "check.c." <<<"$out"; then
  ok "incremental: no index state: the keys are read, the unreadable one named (exit 2)"
else
  bad "incremental: no index state, an unreadable key: exit $status: $out"
fi
cp -p "$work/check-shard.json" "$shard"
step "no index state: the keys read, all holding" "0 of 5 translation units indexed, 5 up to date"
if [ -s "$inc/build/hotpath-index/index-state" ] && grep -q "^tu .* $inc/src/check.c\$" "$inc/build/hotpath-index/index-state"; then
  ok "incremental: the index state written again from the keys"
else
  bad "incremental: no index state after a run that read the keys"
fi
printf 'not an index state\n' >"$inc/build/hotpath-index/index-state"
step "a malformed index state is none: the keys read" "0 of 5 translation units indexed, 5 up to date"
touch "$inc/include/access.h" "$inc/src/check.c"
step "time stamps moved, contents the same (a fresh checkout)" "0 of 5 translation units indexed, 5 up to date"
printf '/* edited */\n' >>"$inc/include/access.h"
step "access.h edited: access.c and main.c, which include it" "2 of 5 translation units indexed, 3 up to date"
expect_failure "incremental: an edited header, claimed to re-index nothing" "wanted '0 of 5" \
  bash -c "printf '/* again */\n' >>'$inc/include/buf.h' && cd '$inc' && out=\$('$binary' --index-only -p build 2>&1); grep -qF '0 of 5' <<<\"\$out\" || { echo \"  wanted '0 of 5', got: \$out\"; exit 1; }"
python3 - "$inc/build/compile_commands.json" <<'PY'
import json, sys
p = sys.argv[1]
d = json.load(open(p))
for e in d:
    if e["file"].endswith("fault.c"):
        e["arguments"].insert(1, "-DFAULT=1")
json.dump(d, open(p, "w"))
PY
step "fault.c's compile command changed" "1 of 5 translation units indexed, 4 up to date"
# The state keeps the commands' hashes with the database file's stamp: while
# the stamp holds, no command is read (a same-size edit with the time stamp
# put back goes unseen, as a key's does above); a new stamp, the commands
# are read and hashed again, and the state follows the file.
state=$inc/build/hotpath-index/index-state
commands_line() { grep '^commands ' "$state" || true; }
before=$(commands_line)
edit_keeping_stamp "$inc/build/compile_commands.json" -DFAULT=1 -DFAULT=2
step "the database edited, its stamp put back: the state's command hashes vouch" "0 of 5 translation units indexed, 5 up to date"
touch "$inc/build/compile_commands.json"
step "the database's time stamp moved: the commands read again, fault.c's changed" "1 of 5 translation units indexed, 4 up to date"
after=$(commands_line)
if [ -n "$before" ] && [ -n "$after" ] && [ "$before" != "$after" ]; then
  ok "incremental: the index state's commands line follows the database file"
else
  bad "incremental: the index state's commands line: before '$before', after '$after'"
fi
step "--reindex" "5 of 5 translation units indexed, 0 up to date" --reindex
python3 - "$inc/build/compile_commands.json" <<'PY'
import json, sys
p = sys.argv[1]
d = json.load(open(p))
json.dump([e for e in d if not e["file"].endswith("trace.c")], open(p, "w"))
PY
step "trace.c left the database: its shard goes" "0 of 4 translation units indexed, 4 up to date, 1 removed"
# An assembly TU is not indexed; the state names it, so that the next run
# knows without reading each command's language; the state goes stale with
# the database file, and the language is asked again.
printf '\t.text\n' >"$inc/src/crc.S"
python3 - "$inc/build/compile_commands.json" "$inc" <<'PY'
import json, sys
p = sys.argv[1]
d = json.load(open(p))
d.append({"directory": sys.argv[2], "file": "src/crc.S", "arguments": ["cc", "-c", "src/crc.S"]})
json.dump(d, open(p, "w"))
PY
step "an assembly TU joined the database: not indexed" "0 of 4 translation units indexed, 4 up to date"
if grep -qxF "uncheckable $inc/src/crc.S" "$state"; then
  ok "incremental: the index state names the assembly TU"
else
  bad "incremental: the index state does not name src/crc.S: $(grep -v '^file ' "$state")"
fi
step "unchanged, the state says which TU is not C" "0 of 4 translation units indexed, 4 up to date"

# 6. Patch mode across two files.
g() { git -c user.name=t -c user.email=t@example.com "$@"; }
repo=$work/repo
mkdir -p "$repo/src" "$repo/include" && cd "$repo" && git init -q
# A small program: one loop counts as hot (ChainHeatThreshold 5); heat itself
# is tested by chain-heat.sh and the unit tests.
printf 'CheckOptions:\n  ChainHeatThreshold: 5\n' >.clang-tidy
cat >include/len.h <<'H'
#ifndef LEN_H
#define LEN_H
#include <stdbool.h>
struct rec { unsigned long len; unsigned char *data; };
unsigned total(const struct rec *r, unsigned n);
#endif
H
printf '#include <stdio.h>\n#include "len.h"\n' >src/check.c
cat >src/loop.c <<'C'
#include "len.h"

unsigned total(const struct rec *r, unsigned n)
{
	unsigned s = 0;
	for (unsigned i = 0; i < n; i++)
		s += r[i].data[0];
	return s;
}
C
python3 - "$repo" <<'PY'
import json, sys
d = sys.argv[1]
json.dump([{"directory": d, "file": "src/%s.c" % n,
            "arguments": ["cc", "-std=c11", "-Iinclude", "-c", "src/%s.c" % n, "-o", "%s.o" % n]}
           for n in ("check", "loop")], open(d + "/compile_commands.json", "w"), indent=1)
PY
g add -A && g commit -qm base
# The patch: a two-branch check in check.c (declared in len.h), called in
# total()'s loop in loop.c.
sed -i 's|^unsigned total|bool check_rec(const struct rec *r, unsigned int off, unsigned int size);\nunsigned total|' include/len.h
cat >>src/check.c <<'C'

bool check_rec(const struct rec *r, unsigned int off, unsigned int size)
{
	const unsigned long end = (unsigned long)off + size;

	if (off > r->len) {
		fprintf(stderr, "bad start %u\n", off);
		return false;
	}
	if (end > r->len) {
		fprintf(stderr, "bad end %lu\n", end);
		return false;
	}
	return true;
}
C
sed -i 's|\t\ts += r\[i\].data\[0\];|\t\tif (check_rec(\&r[i], 0, 1))\n\t\t\ts += r[i].data[0];|' src/loop.c
want_finding="src/check.c:4:6: warning: check function 'check_rec' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]"
want_note="src/check.c:4:6: note: 'check_rec' is hot: called in a loop in total (loop.c:7)"
# patch_finds NAME ARGS...: --diff=HEAD exits 1 with the finding and its note.
patch_finds() {
  local name=$1 rc=0
  shift
  "$binary" --diff=HEAD -p . "$@" >"$work/$name.out" 2>"$work/$name.err" || rc=$?
  [ "$rc" = 1 ] || { echo "  exit $rc"; cat "$work/$name.err"; return 1; }
  grep -qxF "$want_finding" "$work/$name.out" || { echo "  no finding: $(cat "$work/$name.out")"; return 1; }
  grep -qF "$want_note" "$work/$name.out" || { echo "  no note '$want_note'"; return 1; }
}
if patch_finds two-files; then ok "patch across two files: exit 1, the finding on the added lines"; else bad "patch across two files"; fi
expect_failure "patch across two files, --no-index" "exit 0" patch_finds two-files-noindex --no-index
if "$binary" --diff=HEAD -p . --format=sarif >"$work/two-files.sarif" 2>/dev/null; [ $? = 1 ] &&
   $sarif_check "$work/two-files.sarif" --results 1 --rule hotpath-check-split --file src/check.c --line 4 --col 6; then
  ok "patch across two files: in SARIF (valid, 1 result at src/check.c:4:6)"
else
  bad "patch across two files: SARIF"
fi
# The check committed with a cold call; the patch adds only the hot call in
# loop.c: the finding's evidence changed, check.c did not.
python3 - <<'PY'
p = "src/loop.c"
s = open(p).read()
s = s.replace("\t\tif (check_rec(&r[i], 0, 1))\n\t\t\ts += r[i].data[0];", "\t\ts += r[i].data[0];")
s = s.replace("\treturn s;", "\treturn check_rec(r, 0, 1) ? s : 0;")
open(p, "w").write(s)
PY
g add -A && g commit -qm "check_rec, called once"
if "$binary" --diff=HEAD -p . >/dev/null 2>&1; then ok "a cold call: nothing to report"; else bad "a cold call reported"; fi
sed -i 's|\t\ts += r\[i\].data\[0\];|\t\tif (check_rec(\&r[i], 0, 1))\n\t\t\ts += r[i].data[0];|' src/loop.c
if patch_finds evidence-only && grep -qF "2 of 2 translation units to check (1 changed, 0 through 0 changed headers, 1 through the project index)" "$work/evidence-only.err"; then
  ok "a hot call alone added in loop.c: check.c checked through the index, exit 1, the finding"
else
  bad "a hot call alone added in loop.c"; cat "$work/evidence-only.err"
fi
expect_failure "a hot call alone, --no-index" "exit 0" patch_finds evidence-only-noindex --no-index
finish
