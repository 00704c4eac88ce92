#!/usr/bin/env bash
# The fast path hotpath-check-split writes, in the machine code it becomes
# (issue 24: the instruction-count gates passed with noinline, cold or the
# unlikely hint dropped from it; only exact-text tests noticed). The
# extent-buffer sample fixed by the tool, built with gcc and clang:
#   -O2: in each of the 8 accessors (get_u8 ... set_u64) the check is
#        inlined (no reference to check_setget_bounds) and the hot path,
#        from the entry to the first ret, makes no call; the reporter is in
#        .text.unlikely* of check.o (cold: placed apart from hot code);
#   -O2 with `cold` defined away (-Dcold=unused): still no call before the
#        first ret; the unlikely hint alone keeps the reporter's call off
#        the hot path (clang lays it out in line without the hint);
#   -O2 -flto: the reporter stays one function of its own (noinline): its
#        symbol is in the binary, and no accessor calls a printf itself
#        (clang inlines the reporter's body into its callers without it).
# Negative controls: the fixed sample with noinline, cold or the hint
# removed from its text fails the check that names it.
# Usage: fastpath-disasm.sh CLANG_TIDY PLUGIN [CLANG]
set -euo pipefail
tidy=$1 plugin=$(realpath "$2") clang=${3:-clang-19}
here=$(cd "$(dirname "$0")" && pwd)
sample=$(cd "$here/../../samples/extent-buffer" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck source=lib.sh
source "$here/lib.sh"

accessors=(get_u8 get_u16 get_u32 get_u64 set_u8 set_u16 set_u32 set_u64)
reporter=check_setget_bounds_report

# build SRC OUT CC FLAGS...: the sample in SRC compiled to objects and linked
# into OUT/eb (the objects stay in OUT); fails with the compiler's messages.
build() {
  local src=$1 out=$2 cc=$3 u
  shift 3
  mkdir -p "$out"
  for u in main accessors check; do
    "$cc" -std=c11 -O2 "$@" -c -o "$out/$u.o" "$src/$u.c" >>"$out/log" 2>&1 || { cat "$out/log"; return 1; }
  done
  "$cc" -O2 "$@" -o "$out/eb" "$out/main.o" "$out/accessors.o" "$out/check.o" >>"$out/log" 2>&1 ||
    { cat "$out/log"; return 1; }
}

# function_code BIN NAME: the disassembly of NAME and of its split-off
# NAME.cold part (gcc), one instruction a line.
function_code() {
  objdump -d --no-show-raw-insn "$1" |
    awk -v f="<$2>:" -v c="<$2.cold>:" '$2 == f || $2 == c { p = 1; next } /^$/ { p = 0 } p'
}

# hot_path_clean BIN: in each accessor the check is inlined and no call is
# made before the first ret.
hot_path_clean() {
  local bin=$1 f code rc=0
  for f in "${accessors[@]}"; do
    code=$(objdump -d --no-show-raw-insn "$bin" | awk -v f="<$f>:" '$2 == f { p = 1; next } /^$/ { p = 0 } p')
    if [ -z "$code" ] || ! grep -q -w ret <<<"$code"; then
      echo "  $f: not found, or no ret in it"; rc=1; continue
    fi
    if grep -q -E '<check_setget_bounds(\+0x[0-9a-f]+)?>' <<<"$code"; then
      echo "  $f: calls the check instead of inlining its fast path:"
      grep -E '<check_setget_bounds' <<<"$code" | head -2 | sed 's/^/    /'
      rc=1
    fi
    if awk '/\tret/ { exit } /\tcall/ { found = 1; print "    " $0 } END { exit !found }' <<<"$code"; then
      echo "  $f: a call on the hot path, before the first ret (above)"
      rc=1
    fi
  done
  return $rc
}

# reporter_cold OBJ: the reporter's section in OBJ is .text.unlikely*.
reporter_cold() {
  local ndx name
  ndx=$(readelf -sW "$1" | awk -v r="$reporter" '$8 == r { print $7 }')
  name=$(readelf -SW "$1" | sed -n "s/^ *\[ *$ndx\] \([^ ]*\) .*/\1/p")
  [[ -n $ndx && $name == .text.unlikely* ]] && return 0
  echo "  $reporter is in section '${name:-none}' of $(basename "$1"), not .text.unlikely*"
  return 1
}

# reporter_apart BIN: the reporter is a function of BIN, and no accessor
# calls a printf itself (its body is not inlined into them).
reporter_apart() {
  local bin=$1 f rc=0
  if ! nm "$bin" | grep -q -w "$reporter"; then
    echo "  no $reporter in the binary: inlined"; rc=1
  fi
  for f in "${accessors[@]}"; do
    if function_code "$bin" "$f" | grep -q -E '(call|jmp).*printf'; then
      echo "  $f calls a printf itself: the reporter was inlined into it"; rc=1
    fi
  done
  return $rc
}

"$sample/fix.sh" "$work/after" "$tidy" "$plugin" >"$work/fix.out"
if grep -q "^__attribute__((noinline, cold)) bool $reporter(" "$work/after/check.c" &&
   grep -q -F 'static inline bool check_setget_bounds(' "$work/after/extent_buffer.h"; then
  ok "the tool split check_setget_bounds: an inline fast path, a noinline cold reporter"
else
  bad "the fix is not the split this test reads"; cat "$work/fix.out"
fi

for cc in gcc "$clang"; do
  tag=$(basename "$cc")
  if ! build "$work/after" "$work/o2.$tag" "$cc" || ! build "$work/after" "$work/nocold.$tag" "$cc" -Dcold=unused ||
     ! build "$work/after" "$work/lto.$tag" "$cc" -flto; then
    bad "$tag: the fixed sample does not build"
    continue
  fi
  gate_report "$tag -O2: each accessor inlines the check, and its hot path makes no call" \
    hot_path_clean "$work/o2.$tag/eb"
  gate_report "$tag -O2: the reporter is in .text.unlikely" reporter_cold "$work/o2.$tag/check.o"
  gate_report "$tag -O2, cold defined away: the hint alone keeps the call off the hot path" \
    hot_path_clean "$work/nocold.$tag/eb"
  gate_report "$tag -O2 -flto: the reporter is a function apart, not inlined into the accessors" \
    reporter_apart "$work/lto.$tag/eb"
done

# Negative controls: the fixed sample with one ingredient taken out of its
# text fails the check that is there for it.
sabotaged() { # NAME FROM TO FILE...: a copy of the fixed sample with FROM made TO
  local d=$work/$1 from=$2 to=$3 f
  shift 3
  cp -r "$work/after" "$d"
  for f in "$@"; do
    grep -q -F -- "$from" "$d/$f" || { echo "control $1: '$from' not in $f" >&2; return 1; }
    sed -i "s/$(sed 's/[][\/.*^$]/\\&/g' <<<"$from")/$to/" "$d/$f"
  done
}
sabotaged no-noinline '__attribute__((noinline, cold))' '__attribute__((cold))' check.c extent_buffer.h &&
  build "$work/no-noinline" "$work/no-noinline.lto" "$clang" -flto >/dev/null &&
  expect_failure "noinline dropped: clang -flto inlines the reporter" "inlined" \
    reporter_apart "$work/no-noinline.lto/eb"
sabotaged no-cold '__attribute__((noinline, cold))' '__attribute__((noinline))' check.c extent_buffer.h &&
  build "$work/no-cold" "$work/no-cold.gcc" gcc >/dev/null &&
  build "$work/no-cold" "$work/no-cold.clang" "$clang" >/dev/null &&
  expect_failure "cold dropped (gcc)" "not .text.unlikely" reporter_cold "$work/no-cold.gcc/check.o" &&
  expect_failure "cold dropped (clang)" "not .text.unlikely" reporter_cold "$work/no-cold.clang/check.o"
sabotaged no-hint 'if (unlikely(end > eb->len))' 'if (end > eb->len)' extent_buffer.h &&
  build "$work/no-hint" "$work/no-hint.clang" "$clang" -Dcold=unused >/dev/null &&
  expect_failure "the unlikely hint dropped, cold defined away (clang)" "a call on the hot path" \
    hot_path_clean "$work/no-hint.clang/eb"
if ! [ -d "$work/no-noinline.lto" ] || ! [ -d "$work/no-cold.clang" ] || ! [ -d "$work/no-hint.clang" ]; then
  bad "a negative control could not be made (above)"
fi
finish
