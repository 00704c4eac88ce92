#!/usr/bin/env bash
# End to end on samples/extent-buffer: the real clang-tidy with the module
# fixes a copy of the sample; the fixed program must compile with
# -Wall -Wextra -Werror under gcc and clang, print the same results and the
# same reports as the original on the same inputs (out-of-bounds ones
# included), have exactly one conditional branch more than the no-check
# build in each accessor, and a second --fix must change nothing.
# Usage: sample-extent-buffer.sh CLANG_TIDY PLUGIN
set -euo pipefail
tidy=$1 plugin=$(realpath "$2")
here=$(cd "$(dirname "$0")" && pwd)
sample="$here/../../samples/extent-buffer"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "ok   $*"; }
bad() { failed=$((failed + 1)); echo "FAIL $*"; }

srcs=(check.c accessors.c main.c)
cp -r "$sample" "$work/before"
cp -r "$sample" "$work/after"
(cd "$work/after" && "$tidy" --load="$plugin" -checks='-*,hotpath-*' --fix "${srcs[@]}" -- -std=c11) \
  >"$work/tidy.out" 2>&1 || { cat "$work/tidy.out"; bad "clang-tidy --fix failed"; }

# The finding, exactly.
want="check.c:5:6: warning: check function 'check_setget_bounds' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]"
if grep -q -F "$want" "$work/tidy.out"; then ok "finding reported"; else bad "finding missing"; cat "$work/tidy.out"; fi
if grep -q -F "static inline bool check_setget_bounds(" "$work/after/extent_buffer.h" &&
   grep -q -F "bool check_setget_bounds_report(const struct extent_buffer *eb" "$work/after/check.c"; then
  ok "fast path in the header, slow path in check.c"
else
  bad "fix not where expected"; diff -u "$work/before/extent_buffer.h" "$work/after/extent_buffer.h" || true
fi

build() { # dir cc out
  (cd "$1" && "$2" -std=c11 -O2 -Wall -Wextra -Werror -o "$3" "${srcs[@]}")
}
for cc in gcc clang-19; do
  if build "$work/before" "$cc" "$work/before-$cc" && build "$work/after" "$cc" "$work/after-$cc"; then
    ok "original and fixed compile with $cc -Wall -Wextra -Werror"
  else
    bad "compile with $cc"; continue
  fi
  # Same results and same reports on the same workloads, failing ones included.
  for args in "200000 1 0" "200000 7 97" "50000 3 5"; do
    # shellcheck disable=SC2086
    "$work/before-$cc" $args >"$work/b.out" 2>"$work/b.err"; rb=$?
    # shellcheck disable=SC2086
    "$work/after-$cc" $args >"$work/a.out" 2>"$work/a.err"; ra=$?
    if [ "$rb" = "$ra" ] && cmp -s "$work/b.out" "$work/a.out" && cmp -s "$work/b.err" "$work/a.err"; then
      ok "$cc workload '$args': same output, same $(wc -l <"$work/b.err") reports"
    else
      bad "$cc workload '$args' differs"; diff "$work/b.err" "$work/a.err" | head -5 || true
    fi
  done
  for seed in 1 2 3 4 5; do
    python3 "$here/gen_extent_inputs.py" "$seed" 3000 >"$work/in.txt"
    "$work/before-$cc" --inputs "$work/in.txt" >"$work/b.out" 2>"$work/b.err"
    "$work/after-$cc" --inputs "$work/in.txt" >"$work/a.out" 2>"$work/a.err"
    if cmp -s "$work/b.out" "$work/a.out" && cmp -s "$work/b.err" "$work/a.err" &&
       [ -s "$work/b.err" ]; then
      ok "$cc differential seed $seed: same results, same $(wc -l <"$work/b.err") reports"
    else
      bad "$cc differential seed $seed"; diff "$work/b.out" "$work/a.out" | head -5 || true
    fi
  done

  # One conditional branch per check in the compiled fast path.
  (cd "$work/after" && "$cc" -std=c11 -O2 -c accessors.c -o "$work/acc-after-$cc.o")
  rm -rf "$work/nocheck" && cp -r "$sample" "$work/nocheck" && cp "$sample"/variants/nocheck/* "$work/nocheck/"
  (cd "$work/nocheck" && "$cc" -std=c11 -O2 -c accessors.c -o "$work/acc-nocheck-$cc.o")
  if objdump -d "$work/acc-after-$cc.o" | grep -q 'call.*<check_setget_bounds>'; then
    bad "$cc: fixed accessors still call check_setget_bounds out of line"
  else
    ok "$cc: fixed accessors inline the check (only the cold _report is called)"
  fi
  for fn in get_u8 get_u16 get_u32 get_u64 set_u8 set_u16 set_u32 set_u64; do
    a=$(bash "$sample/count-branches.sh" "$work/acc-after-$cc.o" "$fn" | awk '{print $NF}')
    n=$(bash "$sample/count-branches.sh" "$work/acc-nocheck-$cc.o" "$fn" | awk '{print $NF}')
    if [ "$a" = "$((n + 1))" ]; then
      ok "$cc $fn: $a conditional branches, the check adds exactly one"
    else
      bad "$cc $fn: $a conditional branches with the fix, $n without the check"
    fi
  done
done

# The real perf profiles of this sample name the check's share of samples.
for prof in perf-report.txt:"17.3% of self samples in 'perf-report.txt'" folded.txt:"17.3% of self samples in 'folded.txt'"; do
  file=${prof%%:*} want=${prof#*:}
  out=$(cd "$work/before" && "$tidy" --load="$plugin" -checks='-*,hotpath-*' \
        -config="{CheckOptions: [{key: hotpath-check-split.Profile, value: $sample/profile/$file}]}" check.c -- -std=c11 2>&1)
  if grep -qF "note: 'check_setget_bounds' is hot: $want" <<<"$out"; then ok "profile $file: $want"
  else bad "profile $file"; echo "$out" | grep note; fi
done

# Idempotent: a second run finds nothing to change.
cp -r "$work/after" "$work/again"
(cd "$work/again" && "$tidy" --load="$plugin" -checks='-*,hotpath-*' --fix "${srcs[@]}" -- -std=c11) \
  >"$work/tidy2.out" 2>&1 || true
if diff -r "$work/after" "$work/again" >/dev/null && ! grep -q 'hotpath-check-split\]' "$work/tidy2.out"; then
  ok "second --fix run: no findings, no changes"
else
  bad "second run changed something"; cat "$work/tidy2.out"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
