#!/usr/bin/env bash
# The check-function shapes hotpath-check-split normalises (issue 14: the
# success return in an else, a local assigned after its declaration, nested
# ifs, the guard written the other way round, '(void)param;'; issue 23:
# failure paths that do anything, early success exits): each golden
# case's program, built from the case and from its .fixed file (which
# golden.hotpath-check-split proves is what --fix writes), gives the same
# stdout, stderr and exit status on inputs that take every branch, the
# failing ones included. Negative control: a fixed file with its merged
# condition sabotaged ('||' made '&&') must differ.
# Usage: check-shapes-behaviour.sh [CC]
set -euo pipefail
cc=${1:-gcc}
here=$(cd "$(dirname "$0")" && pwd)
cases=$here/../checks/hotpath-check-split
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck source=lib.sh
source "$here/lib.sh"

build() { # SRC OUT
  "$cc" -x c -std=c11 -O2 -Wall -Wextra -Werror -o "$2" "$1"
}
# compare CASE INPUT...: each INPUT (one quoted word list) run on both builds.
compare() {
  local c=$1
  shift
  build "$cases/$c.c" "$work/$c.before" && build "$cases/$c.c.fixed" "$work/$c.after" ||
    { bad "$c: does not build"; return; }
  same_behaviour_on "$c" "$work/$c.before" "$work/$c.after" "$@"
}

compare shape-else "0" "5 16" "17 100" "0 3 17"
compare shape-assigned-later "4 4" "0 0" "10 10" "99 1" "18446744073709551615 2" "3 0 2 2 12 5"
compare shape-nested "1 8" "1 17" "1 5" "0 100" "0 32" "0 40" "0 8 1 9 1 20"
compare shape-inverted-guard "1 2 3" "9 16 7 6 0" "4" "5 4 1" "8 3"
# Purity from visible bodies (issue 23): static inline readers and byte swaps.
compare purity-static-inline "3 8 5" "1 0 5" "1 8 5" "3 0 5" "2 0 1000000000" "3 8 999999999" \
  "3 8 5 1 0 5 2 0 1000000000"

# Issue 23: failure paths that do anything, early success exits folded.
compare shape-failure-work "0x15a 5" "0x5b 150" "0x45a 250" "0x100045a 7" "0x80005a 101 0x25a 100"
compare shape-early-exit "0 1" "4 5" "16 40" "42 43" "0 4 5 16 40 42" "200" "8 202 200"
compare shape-xfs-nsec "r 3 5 2000000000" "n 3 5 2000000000" "n 2 4000000000 1" \
  "r 2 999999999 1000000000 3 1000000000 0x7fffffff 2 1 2"
compare shape-check-magic "0xdeb0c5 2" "0xdeb0c5 4 0xdeb0c5 1 0xdeb0c5 0x8000" "0xb0c5c0de 2" \
  "0x1234 2"

# A fast path in a header, with the static helper it calls moved there: the
# program built from the case's .c and .h (fixed or not) with a second
# translation unit that includes the header and calls the check.
hdr=shape-check-magic-header
mkdir -p "$work/$hdr.before" "$work/$hdr.after"
cp "$cases/$hdr.c" "$cases/$hdr.h" "$work/$hdr.before/"
cp "$cases/$hdr.c.fixed" "$work/$hdr.after/$hdr.c"
cp "$cases/$hdr.h.fixed" "$work/$hdr.after/$hdr.h"
for side in before after; do
  cat >"$work/$hdr.$side/other.c" <<'EOF2'
#include "shape-check-magic-header.h"
int other_tu_check(struct archive *a);
int other_tu_check(struct archive *a)
{
	return __archive_check_magic(a, ARCHIVE_WRITE_MAGIC, ARCHIVE_STATE_NEW, "other");
}
EOF2
  (cd "$work/$hdr.$side" && "$cc" -std=c11 -O2 -Wall -Wextra -Werror -o prog "$hdr.c" other.c) ||
    bad "$hdr ($side): the .c and a second translation unit do not build together"
done
same_behaviour_on "$hdr" "$work/$hdr.before/prog" "$work/$hdr.after/prog" "0xdeb0c5 2" \
  "0xdeb0c5 4 0xdeb0c5 1 0xdeb0c5 0x8000" "0xb0c5c0de 2" "0x1234 2"

# The exit status of a failing input must be seen to differ from a passing
# one, or the inputs would not take the failure branches.
build "$cases/shape-nested.c" "$work/nested"
run_captured "$work/pass" "$work/nested" 0 8
run_captured "$work/fail" "$work/nested" 1 17
if [ "$(cat "$work/pass.rc")" = 0 ] && [ "$(cat "$work/fail.rc")" != 0 ] && [ -s "$work/fail.err" ]; then
  ok "the failing inputs take a failure branch (exit $(cat "$work/fail.rc"), a report on stderr)"
else
  bad "the inputs do not take the failure branches"
fi

# Negative control: the merged condition with '||' made '&&'.
sed 's/ || / \&\& /g' "$cases/shape-nested.c.fixed" >"$work/sabotaged.c"
cmp -s "$cases/shape-nested.c.fixed" "$work/sabotaged.c" && bad "control: the sabotage did not apply"
build "$cases/shape-nested.c" "$work/control.before"
build "$work/sabotaged.c" "$work/control.after"
expect_failure "a sabotaged fix" "stderr differs" \
  same_behaviour "$work/control.before" "$work/control.after" 1 5
finish
