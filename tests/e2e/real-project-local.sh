#!/usr/bin/env bash
# scripts/real-project.py on a local tree, in CI (no download): the
# extent-buffer sample as a small make project with its own test suite
# (`make check`: every out-of-bounds op reported once, nothing written past
# the buffer). With --fix --twice the fixes change files, the fixed project
# must be compiled and linked again by its own make (every changed source
# recompiled), and its tests must pass. Negative controls: a test suite that
# fails only with the fixes, a second run that crashes, and a Makefile that
# never recompiles an object, must each make real-project.py fail, saying so.
# Usage: real-project-local.sh CLANG_TIDY PLUGIN
set -euo pipefail
tidy=$(command -v "$1" || echo "$1") plugin=$(realpath "$2")
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck source=lib.sh
source "$here/lib.sh"

tree=$work/eb-project
mkdir "$tree"
cp "$root"/samples/extent-buffer/*.c "$root"/samples/extent-buffer/*.h "$tree/"
cat >"$tree/Makefile" <<'MK'
CFLAGS ?= -O2 -Wall -Wextra
eb: main.o accessors.o check.o
	$(CC) $(CFLAGS) -o $@ $^
%.o: %.c extent_buffer.h
	$(CC) $(CFLAGS) -std=c11 -c -o $@ $<
check: eb
	./run-tests.sh
.PHONY: check
MK
cat >"$tree/run-tests.sh" <<'SH'
#!/bin/sh
# 50000 ops, every 5th out of bounds: each is reported once on stderr, and
# nothing is written past the buffer (the program exits 3 if it is).
./eb 50000 3 5 >out.txt 2>err.txt || { echo "eb exited $?"; exit 1; }
bad=$(sed -n 's/^bad_ops=//p' err.txt)
reports=$(grep -c '^bad eb member' err.txt)
[ "$bad" = 10000 ] && [ "$reports" = "$bad" ] || { echo "bad_ops=$bad, $reports reports"; exit 1; }
echo "tests passed: $reports reports for $bad bad ops"
SH
chmod +x "$tree/run-tests.sh"

# real_project NAME [ARGS...]: real-project.py --fix --twice on a copy of
# $tree named NAME; its log in $work/NAME.log.
real_project() {
  local name=$1 rc=0
  shift
  rm -rf "${work:?}/$name" && cp -r "$tree" "$work/$name"
  python3 "$root/scripts/real-project.py" --fix --twice --jobs 2 --work "$work/rp" \
    --tidy "$tidy" --plugin "$plugin" "$@" "$work/$name" >"$work/$name.log" 2>&1 || rc=$?
  grep -E '^  (files changed|TUs syntax|second run|build of|package tests)' "$work/$name.log"
  return $rc
}

if out=$(real_project fixed); then
  echo "$out"
  if grep -q 'files changed by fixes: 2: check.c, extent_buffer.h' <<<"$out" &&
     grep -q 'build of the fixed package: ok, compiled and linked (3 TUs recompiled, every changed source' <<<"$out" &&
     grep -q "package tests: passed ('make check'" <<<"$out"; then
    ok "fixed project: 2 files changed, rebuilt and linked by its make, its tests pass"
  else
    bad "fixed project: not the expected report"; cat "$work/fixed.log"
  fi
else
  bad "real-project.py failed on the local project"; cat "$work/fixed.log"
fi

# Controls. Tests that pass on the original and fail with the fixes:
expect_failure "a test suite that fails only with the fixes" \
  "package tests: FAILED with the fixes ('git diff --quiet' exited 1" \
  real_project fails-fixed --test-command 'git diff --quiet'
# A second run that crashes (the tree is fixed by then) changes nothing, but
# is no no-op.
cat >"$work/crash-when-fixed" <<EOF2
#!/bin/sh
for a; do case \$a in *.c) d=\$(dirname "\$a") ;; esac; done
if grep -q check_setget_bounds_report "\$d/check.c"; then echo 'PLEASE submit a bug report' >&2; exit 139; fi
exec "$tidy" "\$@"
EOF2
chmod +x "$work/crash-when-fixed"
expect_failure "a second run that crashes" "second run changed nothing: NO (crash 3)" \
  real_project crash-second --tidy "$work/crash-when-fixed"
# A build that never recompiles check.o: the fixed code would not be linked.
sed -i 's/^%.o: %.c extent_buffer.h$/main.o accessors.o check.o:/; s/ -o \$@ \$<$/ -o $@ $(@:.o=.c)/' "$tree/Makefile"
expect_failure "a build that leaves a changed source out" \
  "build of the fixed package: FAILED: changed sources not recompiled: check.c" real_project stale-build
finish
