#!/usr/bin/env bash
# End to end on a kernel-derived user-space tree of our own
# (tests/e2e/kerncompat/): the accessors and their bounds check in one file,
# as in the kernel's fs/btrfs/accessors.c, compiled against a kerncompat.h
# where __cold and noinline are defined empty and unlikely(x) as (x), as in
# btrfs-progs. With the linux-kernel rule set, which names those macros, the
# fix must not trust them by name: it spells the attributes and the builtin
# itself (and says so), wraps no hint in another, changes the accessors'
# generated code (objdump: no fprintf left in get_u32, fewer instructions;
# with gcc the path to the report split off as get_u32.cold), and keeps
# stdout, stderr and exit status. Negative control: the same fix spelled
# with the kernel's macros (what trusting the names gave) fails the code check.
# Usage: kerncompat.sh CLANG_TIDY PLUGIN
set -euo pipefail
tidy=$1 plugin=$(realpath "$2")
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck source=lib.sh
source "$here/lib.sh"

srcs=(accessors.c main.c)
# The workload is extent-buffer's (same accessors, same inputs).
for d in before after; do
  cp -r "$here/kerncompat" "$work/$d"
  cp "$here/../../samples/extent-buffer/main.c" "$work/$d/"
done
config='{Checks: "-*,hotpath-*", CheckOptions: [{key: RuleSet, value: linux-kernel}]}'
(cd "$work/after" && "$tidy" --load="$plugin" --config="$config" --fix "${srcs[@]}" -- -std=c11) \
  >"$work/tidy.out" 2>&1 || { cat "$work/tidy.out"; bad "clang-tidy --fix failed"; }

want="accessors.c:9:13: note: the fix spells its hints itself: 'unlikely(x)' is '(x)', 'noinline' is empty and '__cold' is empty here, which does not do what the fix needs"
if grep -q -x -F "$work/after/$want" "$work/tidy.out" || grep -q -F "$want" "$work/tidy.out"; then
  ok "the note says which macros were not trusted and why"
else
  bad "note missing: $want"; grep -E 'warning|note' "$work/tidy.out"
fi
if grep -q -F 'static __attribute__((__noinline__, cold)) bool check_setget_bounds_report(' "$work/after/accessors.c" &&
   grep -q -F 'if (__builtin_expect(end > eb->len, 0)) {' "$work/after/accessors.c"; then
  ok "spelled directly: __attribute__((__noinline__, cold)) and __builtin_expect"
else
  bad "not spelled directly"; diff -u "$work/before/accessors.c" "$work/after/accessors.c" || true
fi
# No hint wrapped in another: neither unlikely() nor __builtin_expect()
# inside one of them, in any fixed file.
if grep -n -E '(unlikely|__builtin_expect)\(.*(unlikely|__builtin_expect)\(' "$work/after"/*.c "$work/after"/*.h; then
  bad "a hint wrapped in another"
else
  ok "no hint wrapped in another"
fi

# A copy of the fix with the kernel's macros, as trusting their names gave.
cp -r "$work/after" "$work/trusted"
sed -i 's/__attribute__((__noinline__, cold))/noinline __cold/; s/__builtin_expect(end > eb->len, 0)/unlikely(end > eb->len)/' \
  "$work/trusted/accessors.c"

build() { # dir cc out
  (cd "$1" && "$2" -std=c11 -O2 -Wall -Wextra -Werror -o "$3" "${srcs[@]}")
}
code_of() { # binary func: the disassembly of func's own symbol
  objdump -d --no-show-raw-insn "$1" >"$work/dis.txt"
  awk -v f="<$2>:" '$2 == f { on = 1; next } on && NF == 0 { exit } on' "$work/dis.txt"
}
insns() { # binary func: instructions of func's own symbol
  code_of "$1" "$2" | grep -c '^ *[0-9a-f]*:' || true
}
# accessor_code BEFORE AFTER CC: get_u32's code changed the way the fix means.
accessor_code() {
  local b=$1 a=$2 cc=$3 nb na
  nb=$(insns "$b" get_u32) na=$(insns "$a" get_u32)
  if code_of "$a" get_u32 | grep -q 'call.*<fprintf'; then
    echo "  get_u32 still calls fprintf itself: the report was inlined back ($na instructions, $nb before)"
    return 1
  fi
  if [ "$na" -ge "$nb" ]; then
    echo "  get_u32 has $na instructions, $nb before: the code did not shrink"; return 1
  fi
  # Not `objdump | grep -q` under pipefail: grep leaving at the first match
  # can kill objdump with SIGPIPE, and the pipeline then fails (LLVM 16
  # matrix run, 1 in 3).
  if [ "$cc" = gcc ] && ! grep -q ' get_u32\.cold$' <<<"$(objdump -t "$a")"; then
    echo "  no get_u32.cold: gcc did not treat the path to the report as cold"; return 1
  fi
  echo "get_u32: $nb -> $na instructions"
}
for cc in gcc clang-19; do
  if build "$work/before" "$cc" "$work/before-$cc" && build "$work/after" "$cc" "$work/after-$cc" &&
     build "$work/trusted" "$cc" "$work/trusted-$cc"; then
    ok "$cc: original, fixed and macro-spelled builds compile with -Wall -Wextra -Werror"
  else
    bad "$cc: compile"; continue
  fi
  if r=$(accessor_code "$work/before-$cc" "$work/after-$cc" "$cc"); then ok "$cc $r"; else bad "$cc $r"; fi
  expect_failure "$cc, the fix spelled with the kernel's empty macros" \
    "$( [ "$cc" = gcc ] && echo 'no get_u32.cold' || echo 'still calls fprintf')" \
    accessor_code "$work/before-$cc" "$work/trusted-$cc" "$cc"
  runs=("20000 1 0" "20000 7 97" "5000 3 5" "--inputs $here/../../samples/extent-buffer/inputs/edges.txt"
        "--inputs $work/no-such-file")
  for args in "${runs[@]}"; do
    # shellcheck disable=SC2086
    if same_behaviour "$work/before-$cc" "$work/after-$cc" $args; then
      ok "$cc '${args##*/}': same stdout, stderr ($(wc -l <"$work/beh/a.err") lines), exit $(cat "$work/beh/a.rc")"
    else
      bad "$cc '${args##*/}': behaviour differs"
    fi
  done
done

if second_run_clean "$work/after" "$work/tidy2.out" \
     "$tidy" --load="$plugin" --config="$config" --fix "${srcs[@]}" -- -std=c11; then
  ok "second --fix run: exit 0, no findings, no changes"
else
  bad "second --fix run"
fi
finish
