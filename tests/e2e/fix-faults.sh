#!/usr/bin/env bash
# Fault injection in --fix (issue 41): a SIGINT while --fix wrote its files
# left a source file at 0 bytes and part of a fix set applied. The tree:
# samples/extent-buffer (a check split: the fast path into extent_buffer.h,
# the slow path in check.c) and samples/slab-alloc (a hook gate: declared in
# slab.h, defined in fault.c, tested in slab.c), one compile database: one
# fix set of 5 files, whose 17 writes are the 5 copies of the old content,
# the journal, 5 staged files, 5 renames and the journal's removal
# (driver/FixJournal.h). For each N = 1..17 and each of SIGINT and SIGKILL,
# the test hook HOTPATH_TIDY_TEST_STOP_AT_WRITE=N:SIG raises the signal
# just before the Nth write; then:
#   - every source file is byte for byte its old or its new version (N=18:
#     the run is not stopped, so there are exactly 17 writes);
#   - SIGINT: nothing else is left in the tree or the journal directory, and
#     the one line the run ends with says which: no file changed (all old),
#     or the fixes applied to all 5 (all new);
#   - SIGKILL: a journal left behind (from write 7 on) makes the next run
#     say, on one line, that it completed the set (always, once a file was
#     renamed) or rolled it back; before it, the set directory holds only
#     copies, which the next run removes saying nothing; only staged files
#     (FILE.hotpath-fix-*) are left in the tree;
#   - a second --fix reaches the same tree as an uninterrupted run.
# Then: a file of the set edited while the run is stopped (SIGSTOP) before
# its first staged write: exit 2, the file named, the edit kept, no file
# changed; a file edited after a SIGKILL between two renames: named and
# kept, the others rolled back; a journal that does not read: exit 2, what
# to check and remove, no file touched.
# Controls: the check "old or new" fails on a file cut to 0 bytes (the
# in-place write's damage), and "the same tree" on a half-applied set.
# Usage: fix-faults.sh HOTPATH_TIDY
set -euo pipefail
ht=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck source=lib.sh
source "$here/lib.sh"

tree=$work/tree orig=$work/orig ref=$work/ref
mkdir -p "$orig/eb" "$orig/slab" "$tree/build"
cp "$here/../../samples/extent-buffer/"{check.c,accessors.c,main.c,extent_buffer.h} "$orig/eb/"
cp "$here/../../samples/slab-alloc/"{slab.c,fault.c,main.c,slab.h} "$orig/slab/"
python3 - "$tree" <<'PY'
import json, sys
t = sys.argv[1]
tus = [("eb", f) for f in ("check.c", "accessors.c", "main.c")] + \
      [("slab", f) for f in ("slab.c", "fault.c", "main.c")]
json.dump([{"directory": "%s/%s" % (t, d), "file": f,
            "arguments": ["cc", "-std=c11", "-O2", "-c", f]} for d, f in tus],
          open(t + "/build/compile_commands.json", "w"))
PY
# A mode the fixed file keeps (a rename of a new file would give 0644).
chmod 0640 "$orig/slab/fault.c"
cfg="{CheckOptions: {HookFunctions: 'should_fail_alloc=false', HookEnablers: 'should_fail_alloc=fault_inject_setup()'}}"
files=(eb/check.c eb/accessors.c eb/main.c eb/extent_buffer.h slab/slab.c slab/fault.c slab/main.c slab/slab.h)

# The tree as it was, its files' times kept, so that the index and the
# result cache in build/ stay valid from run to run (each run is then quick).
restore() { rm -rf "$tree/eb" "$tree/slab"; cp -a "$orig/eb" "$orig/slab" "$tree/"; }
# fixrun NAME [VAR=VALUE...]: hotpath-tidy -p build --fix in the tree;
# $work/NAME.{err,rc}.
fixrun() {
  local name=$1 rc=0
  shift
  # The braces keep bash's "Killed" notice off the log.
  { (cd "$tree" && ulimit -c 0 && env "$@" timeout 300 "$ht" -p build --fix -config="$cfg") \
      >"$work/$name.out" 2>"$work/$name.err"; } 2>/dev/null || rc=$?
  echo "$rc" >"$work/$name.rc"
}

# old_or_new TREE: "old", "new" or "mixed" when every file of TREE is its
# version in $orig or in $ref; otherwise what is neither, and failure.
old_or_new() {
  local t=$1 f old=0 new=0 neither=()
  for f in "${files[@]}"; do
    if cmp -s "$t/$f" "$orig/$f"; then old=$((old + 1)); fi
    if cmp -s "$t/$f" "$ref/$f"; then new=$((new + 1)); fi
    cmp -s "$t/$f" "$orig/$f" || cmp -s "$t/$f" "$ref/$f" || neither+=("$f ($(wc -c <"$t/$f" 2>/dev/null || echo missing) bytes)")
  done
  if [ "${#neither[@]}" -gt 0 ]; then
    echo "  neither old nor new: ${neither[*]}"
    return 1
  fi
  if [ "$old" = "${#files[@]}" ]; then echo old; elif [ "$new" = "${#files[@]}" ]; then echo new; else echo mixed; fi
}
# extras TREE: files in TREE's source directories that are not sources.
extras() {
  (cd "$1" && find eb slab -type f | sort | grep -v -x -F -f <(printf '%s\n' "${files[@]}")) || true
}
# same_tree TREE: TREE's sources are $ref's, nothing more.
same_tree() {
  local e
  diff -r -q "$ref/eb" "$1/eb" >/dev/null && diff -r -q "$ref/slab" "$1/slab" >/dev/null && return 0
  echo "  differs from the uninterrupted run's tree:"
  diff -r -q "$ref/eb" "$1/eb" | sed 's/^/    /' || true
  diff -r -q "$ref/slab" "$1/slab" | sed 's/^/    /' || true
  e=$(extras "$1"); [ -z "$e" ] || echo "    extra: $e"
  return 1
}

# The uninterrupted run: the reference tree.
restore
fixrun ref
rm -rf "$ref" && mkdir -p "$ref" && cp -a "$tree/eb" "$tree/slab" "$ref/"
changed=$(for f in "${files[@]}"; do cmp -s "$orig/$f" "$ref/$f" || echo "$f"; done | paste -sd' ')
if [ "$changed" = "eb/check.c eb/extent_buffer.h slab/slab.c slab/fault.c slab/slab.h" ] &&
   grep -q -x "hotpath-tidy: applied the fixes of [0-9]* findings to 5 files" "$work/ref.err"; then
  ok "uninterrupted: one fix set of 5 files ($changed)"
else
  bad "uninterrupted: changed '$changed'"; sed 's/^/    /' "$work/ref.err"
fi
[ "$(stat -c %a "$ref/slab/fault.c")" = 640 ] && ok "uninterrupted: slab/fault.c keeps its mode 0640" ||
  bad "uninterrupted: slab/fault.c has mode $(stat -c %a "$ref/slab/fault.c"), not 0640"
for d in eb slab; do
  (cd "$ref/$d" && gcc -std=c11 -O2 -Wall -Werror -o prog ./*.c 2>&1 && rm prog) >"$work/build-$d.log" ||
    { bad "uninterrupted: $d does not build"; cat "$work/build-$d.log"; }
done
[ ! -e "$tree/build/hotpath-fix" ] && ok "uninterrupted: nothing left of the journal (no build/hotpath-fix)" ||
  bad "uninterrupted: left: $(ls -A "$tree/build/hotpath-fix" 2>&1)"

writes=17
for sig in INT KILL; do
  for n in $(seq 1 $((writes + 1))); do
    restore
    rm -rf "$tree/build/hotpath-fix"
    fixrun "$sig-$n" HOTPATH_TIDY_TEST_STOP_AT_WRITE="$n:$sig"
    rc=$(cat "$work/$sig-$n.rc")
    label="SIG$sig at write $n"
    if [ "$n" -gt "$writes" ]; then
      # Past the last write: not stopped, the whole set applied.
      if [ "$rc" -le 1 ] && same_tree "$tree" >/dev/null; then
        ok "$label: there are $writes writes; this run is not stopped and applies the set"
      else
        bad "$label: exit $rc"; sed 's/^/    /' "$work/$sig-$n.err"
      fi
      continue
    fi
    want=$([ $sig = INT ] && echo 130 || echo 137)
    [ "$rc" = "$want" ] || { bad "$label: exit $rc, expected $want"; sed 's/^/    /' "$work/$sig-$n.err"; continue; }
    if ! state=$(old_or_new "$tree"); then
      bad "$label: $state"; continue
    fi
    journal=$(ls "$tree"/build/hotpath-fix/set-*/journal.json 2>/dev/null || true)
    state_dir=$([ -e "$tree/build/hotpath-fix" ] && echo "build/hotpath-fix" || true)
    left=$(extras "$tree")
    if [ $sig = INT ]; then
      said=$(grep "^hotpath-tidy: interrupted by SIGINT" "$work/$sig-$n.err" || true)
      case $state in
        old) want_said="hotpath-tidy: interrupted by SIGINT: 0 child processes stopped, temporary files removed; --fix changed no file (the fixes of 5 files were not applied)" ;;
        new) want_said="hotpath-tidy: interrupted by SIGINT: 0 child processes stopped, temporary files removed; --fix had applied its fixes to all 5 files" ;;
        *) want_said="(a whole set)" ;;
      esac
      if [ "$said" = "$want_said" ] && [ -z "$state_dir" ] && [ -z "$left" ]; then
        ok "$label: every file $state, said on one line; no journal, nothing left in the tree"
      else
        bad "$label: files $state, said '$said', left '$state_dir' '$left'"
      fi
    else
      bad_left=$(grep -v -E '\.hotpath-fix-[A-Za-z0-9]{6}$' <<<"$left" || true)
      if [ -z "$bad_left" ]; then
        ok "$label: every file old or new ($state); in the tree only staged files${left:+ ($(wc -l <<<"$left"))}"
      else
        bad "$label: left in the tree: $bad_left"
      fi
    fi
    # The next run: it completes or rolls back what a journal names, says
    # which, and then reaches the uninterrupted run's tree.
    fixrun "$sig-$n-again"
    said=$(grep -E "^hotpath-tidy: an interrupted --fix was" "$work/$sig-$n-again.err" || true)
    case "$journal:$state" in
      :*) want_said="" ;;
      *:old) want_said="rolled back" ;;
      *) want_said="completed" ;;
    esac
    case "$want_said:$said" in
      :) ok "$label, next run: no journal, nothing to say" ;;
      "rolled back:hotpath-tidy: an interrupted --fix was rolled back: its 5 files ("*") hold their text from before it") ok "$label, next run: rolled back, on one line" ;;
      "completed:hotpath-tidy: an interrupted --fix was completed: its 5 files ("*") hold its fixes") ok "$label, next run: completed, on one line" ;;
      *) bad "$label, next run: said '$said' (journal '$journal', files $state; expected '$want_said')" ;;
    esac
    sets=$(ls -d "$tree"/build/hotpath-fix 2>/dev/null || true)
    if out=$(same_tree "$tree") && [ -z "$sets" ]; then
      ok "$label, next run: the uninterrupted run's tree (exit $(cat "$work/$sig-$n-again.rc")), nothing left of the journal"
    else
      bad "$label, next run: ${out:-} ${sets:+sets left: $sets}"; sed 's/^/    /' "$work/$sig-$n-again.err" | head -20
    fi
  done
done

# A file of the set edited while the run is stopped before its first
# staged write (SIGSTOP, then SIGCONT): the edit is kept, no file changed.
restore
rm -rf "$tree/build/hotpath-fix"
rc=0
{ (cd "$tree" && HOTPATH_TIDY_TEST_STOP_AT_WRITE=7:STOP exec "$ht" -p build --fix -config="$cfg") \
    >"$work/edit.out" 2>"$work/edit.err" & } 2>/dev/null
pid=$!
for i in $(seq 1 600); do
  [ "$(ps -o stat= -p "$pid" 2>/dev/null | cut -c1)" = T ] && break
  sleep 0.1
done
echo '/* edited during the run */' >>"$tree/slab/fault.c"
cp "$tree/slab/fault.c" "$work/fault.c.edited"
kill -CONT "$pid"
wait "$pid" || rc=$?
others=yes
for f in "${files[@]}"; do
  [ "$f" = slab/fault.c ] && continue
  cmp -s "$tree/$f" "$orig/$f" || others=no
done
if [ "$rc" = 2 ] && grep -q -x "hotpath-tidy: error: $tree/slab/fault.c changed while the fixes were made; no file was changed" "$work/edit.err" &&
   cmp -s "$tree/slab/fault.c" "$work/fault.c.edited" && [ $others = yes ] && [ -z "$(extras "$tree")" ] &&
   [ ! -e "$tree/build/hotpath-fix" ]; then
  ok "a file edited during the run: exit 2, named; the edit kept, every other file old, nothing left"
else
  bad "a file edited during the run: exit $rc, others old: $others, left: $(extras "$tree")"; sed 's/^/    /' "$work/edit.err"
fi

# Killed before its third rename (writes 12 to 16 are the renames), then a
# file not yet renamed is edited: the set cannot be completed; the renamed
# files are rolled back, the edited one is kept and named.
restore
rm -rf "$tree/build/hotpath-fix"
fixrun kill-edit HOTPATH_TIDY_TEST_STOP_AT_WRITE=14:KILL
state=$(old_or_new "$tree" || true)
edited=$(for f in eb/check.c eb/extent_buffer.h slab/fault.c slab/slab.c slab/slab.h; do
  cmp -s "$tree/$f" "$orig/$f" && { echo "$f"; break; }; done)
echo '/* edited after the kill */' >>"$tree/$edited"
cp "$tree/$edited" "$work/edited"
fixrun kill-edit-again
grep -E "^hotpath-tidy: (warning: .* changed since|an interrupted)" "$work/kill-edit-again.err" >"$work/kill-edit.said" || true
# The rest of that run fixed the tree again: the uninterrupted run's
# tree, with the edit.
cp -a "$ref" "$work/ref-edited"
echo '/* edited after the kill */' >>"$work/ref-edited/$edited"
if [ "$state" = mixed ] &&
   grep -q -x "hotpath-tidy: warning: $edited changed since an interrupted --fix (build/hotpath-fix/set-[A-Za-z0-9]*/journal.json): left as it is" "$work/kill-edit.said" &&
   grep -q -x "hotpath-tidy: an interrupted --fix was rolled back: 4 of its 5 files (.*) hold their text from before it" "$work/kill-edit.said" &&
   diff -r "$work/ref-edited/eb" "$tree/eb" >/dev/null && diff -r "$work/ref-edited/slab" "$tree/slab" >/dev/null; then
  ok "SIGKILL at write 14, $edited edited after: named and kept, the other 4 rolled back; then fixed again, with the edit"
else
  bad "SIGKILL at write 14, $edited edited after: files $state; said:"; sed 's/^/    /' "$work/kill-edit.said" "$work/kill-edit-again.err" | head -20
fi

# A journal that does not read: exit 2, the message says what to check and
# remove; no file is touched.
restore
rm -rf "$tree/build/hotpath-fix"
fixrun broken HOTPATH_TIDY_TEST_STOP_AT_WRITE=13:KILL
set_dir=$(ls -d "$tree"/build/hotpath-fix/set-* | head -1)
printf '{"format": "hotpath-tidy-fix-journal", "vers' >"$set_dir/journal.json"
mkdir -p "$work/broken.before" && cp -a "$tree/eb" "$tree/slab" "$work/broken.before/"
fixrun broken-again
token=${set_dir##*-}
if [ "$(cat "$work/broken-again.rc")" = 2 ] &&
   grep -q -x -F "hotpath-tidy: error: build/hotpath-fix/set-$token/journal.json: an interrupted --fix's journal that does not read (not valid JSON: [1:44, byte=44]: Unterminated string): the files it names may hold part of its fixes; check them, then remove build/hotpath-fix/set-$token and the files named *.hotpath-fix-$token beside them" "$work/broken-again.err" &&
   diff -r "$work/broken.before/eb" "$tree/eb" >/dev/null && diff -r "$work/broken.before/slab" "$tree/slab" >/dev/null &&
   ! grep -q "checked" "$work/broken-again.err"; then
  ok "a journal that does not read: exit 2, what to check and remove; nothing checked, no file touched"
else
  bad "a journal that does not read: exit $(cat "$work/broken-again.rc")"; sed 's/^/    /' "$work/broken-again.err" | head
fi

# Controls.
restore
truncate -s 0 "$tree/slab/slab.c"
expect_failure "slab.c cut to 0 bytes (an in-place write stopped)" "neither old nor new: slab/slab.c (0 bytes)" old_or_new "$tree"
restore
cp "$ref/slab/slab.c" "$ref/slab/slab.h" "$tree/slab/"
expect_failure "a half-applied set: the gate declared and tested, not defined" "differs from the uninterrupted run's tree" same_tree "$tree"
finish
