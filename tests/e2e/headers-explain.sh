#!/usr/bin/env bash
# hotpath-tidy in its plain clang-tidy mode: the project's own headers are
# checked and fixed without -header-filter (everything under the compile
# database's source root, never a system header), an explicit filter or a
# HeaderFilterRegex wins, and --explain=<name> tells the checks' steps.
# The stock clang-tidy with the module is the control: before LLVM 22,
# without a filter it suppresses the header finding (22's default filter is
# '.*', and it reports it); with the filter the docs give it, it does not.
# Usage: headers-explain.sh HOTPATH_TIDY CLANG_TIDY PLUGIN
set -euo pipefail
ht=$(realpath "$1") tidy=$2 plugin=$(realpath "$3")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

# A project: sources in src/, its headers in include/, a system header in
# sys/ (under the same root, included with -isystem), a build directory
# with the compile database in build/.
mkproj() { # DIR: the project, with its compile database in DIR/build
  local p=$1
  mkdir -p "$p/src" "$p/include" "$p/sys" "$p/build"
  cat >"$p/include/dbg.h" <<'H'
#ifndef DBG_H
#define DBG_H
#ifdef DEBUG
#define ASSERT(x) ((x) ? (void)0 : __builtin_trap())
#else
#define ASSERT(x) (void)(x)
#endif
#endif
H
  cat >"$p/sys/vendor.h" <<'H'
#define VENDOR_ASSERT(x) (void)(x)
int vendor_ok(int);
H
  cat >"$p/src/main.c" <<'C'
#include "dbg.h"
#include <vendor.h>
int sorted(const int *v, int n);
int first(const int *v, int n)
{
	ASSERT(sorted(v, n));
	VENDOR_ASSERT(vendor_ok(n));
	return v[0];
}
C
  cat >"$p/build/compile_commands.json" <<J
[{"directory": "$p/build", "file": "$p/src/main.c",
  "arguments": ["cc", "-std=c11", "-I$p/include", "-isystem", "$p/sys", "-c", "$p/src/main.c"]}]
J
}
p=$work/proj
mkproj "$p"
finding="include/dbg.h:6:9: warning: disabled assert 'ASSERT' still evaluates its argument; make it type-check the argument without evaluating it [hotpath-noop-assert]"
fixed_line='#define ASSERT(x) ((void)(0 && !!(x)))'
# -p and a source: a run over that TU of the database, whose exit status
# is 1 with findings (the output is what is checked here).
run_ht() { { (cd "$p" && "$ht" -checks='-*,hotpath-*' -p build "$@" src/main.c) || true; } 2>&1 | sed "s|$p/||"; }
run_tidy() { (cd "$p" && "$tidy" --load="$plugin" -checks='-*,hotpath-*' -p build "$@" src/main.c) 2>&1 | sed "s|$p/||"; }
has() { grep -q -F -- "$2" <<<"$1"; }

out=$(run_ht)
if has "$out" "$finding" && ! has "$out" "VENDOR_ASSERT"; then
  ok "hotpath-tidy: the header finding without -header-filter, the system header's left out"
else bad "hotpath-tidy: header finding missing, or the system header reported"; echo "$out"; fi
out=$(run_tidy)
# clang-tidy 22's default -header-filter is '.*' (all non-system headers);
# before, it is empty and header findings are suppressed.
tidy_major=$("$tidy" --version | sed -n 's/.*LLVM version \([0-9]*\).*/\1/p' | head -1)
if [ "${tidy_major:-0}" -ge 22 ]; then
  if has "$out" "$finding" && ! has "$out" "VENDOR_ASSERT"; then
    ok "clang-tidy $tidy_major without a filter reports it too (its default is '.*'), no system header"
  else bad "clang-tidy $tidy_major: the header finding missing without a filter, or a system header reported"; echo "$out"; fi
elif ! has "$out" "$finding" && ! has "$out" "VENDOR_ASSERT"; then
  # Not said at all: a finding clang-tidy would drop is neither planned nor
  # emitted (HotpathCheck::mayBeReported), so no "Suppressed" count either.
  ok "control: clang-tidy $tidy_major without a filter does not report it"
else bad "control: clang-tidy $tidy_major reported the header finding without a filter"; echo "$out"; fi
out=$(run_tidy -header-filter="^$p/")
if has "$out" "$finding" && ! has "$out" "VENDOR_ASSERT"; then ok "clang-tidy with the documented -header-filter='^<root>/'"
else bad "clang-tidy -header-filter='^<root>/'"; echo "$out"; fi
out=$(run_ht -header-filter='nomatch')
if ! has "$out" "$finding"; then ok "an explicit -header-filter wins"; else bad "-header-filter=nomatch still reports"; echo "$out"; fi
printf 'HeaderFilterRegex: nomatch\n' >"$p/.clang-tidy"
out=$(run_ht)
if ! has "$out" "$finding"; then ok "a .clang-tidy HeaderFilterRegex wins"; else bad ".clang-tidy HeaderFilterRegex ignored"; echo "$out"; fi
rm "$p/.clang-tidy"
out=$(run_ht -config='{HeaderFilterRegex: nomatch}')
if ! has "$out" "$finding"; then ok "a -config HeaderFilterRegex wins"; else bad "-config HeaderFilterRegex ignored"; echo "$out"; fi

mkproj "$work/fixed"
rc=0; (cd "$work/fixed" && "$ht" -checks='-*,hotpath-*' -p build --fix src/main.c) >"$work/fix.log" 2>&1 || rc=$?
[ "$rc" = 1 ] || { bad "hotpath-tidy --fix: exit $rc, expected 1 (findings)"; cat "$work/fix.log"; }
if grep -q -x -F "$fixed_line" "$work/fixed/include/dbg.h" && cmp -s "$p/sys/vendor.h" "$work/fixed/sys/vendor.h"; then
  ok "hotpath-tidy --fix rewrites the project header, not the system one"
else bad "hotpath-tidy --fix: header not rewritten as expected"; cat "$work/fixed/include/dbg.h"; fi

# Without a compile database, after "--": the sources' directory is the root.
out=$(cd "$p" && "$ht" -checks='-*,hotpath-noop-assert' src/main.c -- -std=c11 -I"$p/include" -isystem sys 2>&1 | sed "s|$p/||")
if has "$out" "$finding"; then ok "without a database: the root holds the sources and the current directory"
else bad "without a database: no header finding"; echo "$out"; fi

# --explain: a reported macro, a function that is not reported, a name
# nobody knows, and no name at all.
out=$(run_ht --explain=ASSERT)
expected="include/dbg.h:6:9: remark: explain 'ASSERT': a definition of macro 'ASSERT' (the one this build uses); the steps of hotpath-noop-assert follow [hotpath-noop-assert]
include/dbg.h:6:9: note: assert-like by name: the rule set's assert_macros list it
include/dbg.h:6:19: note: its body evaluates parameter 'x' and does nothing else with it: disabled, it still costs what its argument costs
src/main.c:6:2: note: 1 use(s) in this translation unit; this one's condition does work the compiler must keep: it calls 'sorted', whose body is not visible and which is not known to be pure
include/dbg.h:6:9: note: reported, with the fix: the body becomes '((void)(0 && !!(x)))'"
got=$(grep -E '(remark|note): ' <<<"$out" | grep -v 'expanded from' | grep -F -v 'in skipped' || true)
if [ "$(grep -c . <<<"$got")" -ge 5 ] && [ "$(grep -F -x -c -f <(echo "$expected") <<<"$got")" = 5 ]; then
  ok "--explain=ASSERT: found, by name, the body, the costly use, the fix"
else bad "--explain=ASSERT"; diff <(echo "$expected") <(echo "$got") || true; fi
out=$(run_ht --explain=first)
if has "$out" "src/main.c:4:5: remark: explain 'first': a definition of function 'first'; the steps of hotpath-check-split follow [hotpath-check-split]" &&
   has "$out" "src/main.c:6:2: note: not a check function: no 'if' that reports and leaves comes before the success path"; then
  ok "--explain=first: which shape rule it fails"
else bad "--explain=first"; echo "$out"; fi
out=$(run_ht --explain=frist)
if has "$out" "hotpath-tidy: explain 'frist': no function or macro of that name is defined or declared in any of the 1 translation unit checked"; then
  ok "--explain of an unknown name says so"
else bad "--explain=frist said nothing"; echo "$out"; fi
# The plain clang-tidy route (sources after --) says it per TU.
out=$(cd "$p" && "$ht" -checks='-*,hotpath-*' --explain=frist src/main.c -- -std=c11 -Iinclude -isystem sys 2>&1)
if has "$out" "remark: explain 'frist': no function or macro of that name is defined or declared in this translation unit"; then
  ok "--explain of an unknown name, plain clang-tidy: the TU says so"
else bad "--explain=frist, plain clang-tidy, said nothing"; echo "$out"; fi
# A run over the database (-p and a source) refuses it in one line, exit 2;
# plain clang-tidy, exit 1.
rc=0; out=$(cd "$p" && "$ht" --explain= -p build src/main.c 2>&1) || rc=$?
if [ "$rc" = 2 ] && [ "$out" = "hotpath-tidy: error: --explain needs the name of a function or macro (--explain=check_setget_bounds) (see --help)" ]; then
  ok "--explain= without a name: one line, exit 2"
else bad "--explain= : exit $rc"; echo "$out"; fi
rc=0; out=$(cd "$p" && "$ht" --explain= src/main.c -- -std=c11 2>&1) || rc=$?
if [ "$rc" = 1 ] && has "$out" "error: --explain needs the name of a function or macro"; then
  ok "--explain= without a name, plain clang-tidy: an error, exit 1"
else bad "--explain= , plain clang-tidy: exit $rc"; echo "$out"; fi
finish
