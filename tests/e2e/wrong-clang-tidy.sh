#!/usr/bin/env bash
# The module refuses to run in a clang-tidy of another LLVM major, with an
# error naming both versions and a non-zero exit, instead of listing its
# checks and silently finding nothing (what a module built for 19 did in
# clang-tidy 22), or being ignored by the dynamic loader while clang-tidy
# runs its other checks (a module built for 16 in clang-tidy 19 or 22).
# The right clang-tidy finds the sample's check (the control).
# Usage: wrong-clang-tidy.sh CLANG_TIDY PLUGIN BUILT_VERSION OTHER_CLANG_TIDY
set -uo pipefail
tidy=$1 plugin=$(realpath "$2") built=$3 other=${4:-}
here=$(cd "$(dirname "$0")" && pwd)
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "ok   $*"; }
bad() { failed=$((failed + 1)); echo "FAIL $*"; }
if [ -z "$other" ] || [ ! -x "$other" ]; then
  echo "FAIL no clang-tidy of another LLVM major to load the module into:" \
       "scripts/install-deps.sh installs clang-tidy-22 (clang-tidy-19 for a build for 22)"
  exit 1
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sample=$here/../../samples/extent-buffer
major() { "$1" --version | sed -n 's/.*version \([0-9][0-9]*\).*/\1/p' | head -1; }
bmajor=${built%%.*} omajor=$(major "$other")
echo "module built for LLVM $built; the other clang-tidy is $omajor"

"$tidy" --load="$plugin" -checks='-*,hotpath-*' "$sample/check.c" "$sample/accessors.c" \
  -- -std=c11 >"$work/own.out" 2>&1; rc=$?
grep -q "check.c:5:6: warning: check function 'check_setget_bounds' tests 2 conditions" "$work/own.out" \
  && [ $rc -eq 0 ] && ok "clang-tidy $bmajor: the sample's finding (the control)" \
  || { bad "clang-tidy $bmajor: no finding (exit $rc)"; cat "$work/own.out"; }

want="error: the hotpath-tidy module was built for clang-tidy $bmajor (LLVM $built) and cannot run in this clang-tidy $omajor ("
# "run+" enables a check of clang-tidy's own besides: a module the host
# merely ignored would leave that one running and exit 0.
for mode in run run+ list; do
  if [ $mode = list ]; then
    "$other" --load="$plugin" -checks='-*,hotpath-*' --list-checks >"$work/out" 2>"$work/err"; rc=$?
  else
    checks='-*,hotpath-*'; [ $mode = run+ ] && checks="$checks,bugprone-assert-side-effect"
    "$other" --load="$plugin" -checks="$checks" "$sample/check.c" "$sample/accessors.c" \
      -- -std=c11 >"$work/out" 2>"$work/err"; rc=$?
  fi
  what="clang-tidy $omajor ($mode)"
  echo "---- $what: exit $rc"; sed 's/^/    /' "$work/err" "$work/out"
  [ $rc -eq 1 ] && ok "$what: exit 1" || bad "$what: exit $rc, wanted 1"
  if grep -qF -- "$want" "$work/err" && grep -qF "): its checks would find nothing. Load it into clang-tidy-$bmajor, or build it for this one with cmake -DHOTPATH_LLVM_MAJOR=$omajor." "$work/err"; then
    ok "$what: the error names both versions"
  else
    bad "$what: no error naming both versions"
  fi
  [ ! -s "$work/out" ] && ok "$what: nothing on standard output (no checks listed, no findings)" \
    || bad "$what: it ran anyway"
done
# The loader without the checks beside it: an error naming the file.
cp "$plugin" "$work/libhotpathTidyModule.so"
"$tidy" --load="$work/libhotpathTidyModule.so" -checks='-*,hotpath-*' --list-checks >"$work/out" 2>"$work/err"; rc=$?
[ $rc -eq 1 ] && grep -qF "error: the hotpath-tidy module cannot load its checks: $work/libhotpathTidyChecks.so: cannot open shared object file" "$work/err" \
  && ok "the module without libhotpathTidyChecks.so beside it: exit 1, naming the file" \
  || { bad "the module without its checks: exit $rc"; cat "$work/err"; }
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
