#!/usr/bin/env bash
# End to end on samples/assert-list: the real clang-tidy with the module fixes
# a copy of the sample; the fixed program compiles with -Wall -Wextra -Werror
# under gcc and clang (asserts off and on), prints the same output as the
# original, a second --fix changes nothing, and under callgrind the fixed
# build costs what the no-assert build costs (after / noassert <= 1.005)
# while the original clearly costs more.
# Usage: sample-noop-assert.sh CLANG_TIDY PLUGIN
set -euo pipefail
tidy=$1 plugin=$(realpath "$2")
sample=$(cd "$(dirname "$0")/../../samples/assert-list" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "ok   $*"; }
bad() { failed=$((failed + 1)); echo "FAIL $*"; }

"$sample/fix.sh" "$work/after" "$tidy" "$plugin" >"$work/findings.txt"
want="dbg.h:18:9: warning: disabled assert 'ASSERT' still evaluates its argument; make it type-check the argument without evaluating it [hotpath-noop-assert]"
if grep -q -F "$want" "$work/findings.txt"; then ok "finding reported"; else bad "finding missing"; cat "$work/findings.txt"; fi
if grep -q -F '#define ASSERT(x) ((void)(0 && !!(x)))' "$work/after/dbg.h" &&
   grep -q -F 'fprintf(stderr, "assertion failed' "$work/after/dbg.h"; then
  ok "disabled ASSERT rewritten, enabled one untouched"
else
  bad "dbg.h not fixed as expected"; diff -u "$sample/dbg.h" "$work/after/dbg.h" || true
fi

srcs=(list.c sorted.c main.c)
for cc in gcc clang-19; do
  for mode in "" -DLIST_DEBUG; do
    for d in "$sample" "$work/after"; do
      tag=$(basename "$d")-$cc$mode
      if (cd "$d" && "$cc" -std=c11 -O2 -Wall -Wextra -Werror $mode -o "$work/$tag" "${srcs[@]}" 2>"$work/$tag.warn"); then :; else
        bad "$tag does not compile"; cat "$work/$tag.warn"; continue 2
      fi
    done
    ok "original and fixed compile with $cc -Wall -Wextra -Werror ${mode:-(asserts off)}"
    for args in "20000 1 32" "5000 7 300" "100 3 0"; do
      # shellcheck disable=SC2086
      if cmp -s <("$work/assert-list-$cc$mode" $args 2>&1) <("$work/after-$cc$mode" $args 2>&1); then
        ok "$cc ${mode:-(asserts off)} '$args': same output"
      else
        bad "$cc ${mode:-(asserts off)} '$args': output differs"
      fi
    done
  done
done

cp -r "$work/after" "$work/again"
(cd "$work/again" && "$tidy" --load="$plugin" -checks='-*,hotpath-*' --header-filter='.*' --fix "${srcs[@]}" -- -std=c11) \
  >"$work/tidy2.out" 2>&1 || true
if diff -r "$work/after" "$work/again" >/dev/null && ! grep -q 'hotpath-noop-assert\]' "$work/tidy2.out"; then
  ok "second --fix run: no findings, no changes"
else
  bad "second run found or changed something"; cat "$work/tidy2.out"
fi

OPS=${OPS:-200000} "$sample/bench.sh" "$work/bench" before="$sample" after="$work/after" \
  noassert="$sample/variants/noassert" >/dev/null
cat "$work/bench/table.txt"
eval "$(awk '
  NR == 1 { next }
  { vs[$1 " " $2] = $6; w[$1 " " $2] = $8; f[$1 " " $2] = $9; ccs[$1] = 1 }
  END {
    for (cc in ccs) {
      a = cc " after"; b = cc " before"
      if (vs[a] + 0 <= 1.005) print "ok \"" cc ": after/noassert = " vs[a] " <= 1.005\""
      else print "bad \"" cc ": after/noassert = " vs[a] " > 1.005\""
      if (vs[b] + 0 >= 1.5) print "ok \"" cc ": before/noassert = " vs[b] " (the disabled assert cost)\""
      else print "bad \"" cc ": before/noassert = " vs[b] " is not clearly higher\""
      if (w[a] == 0 && f[a] == "same") print "ok \"" cc ": after builds without warnings, same output\""
      else print "bad \"" cc ": after has " w[a] " warnings, output " f[a] "\""
    }
  }' "$work/bench/table.txt")"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
