#!/usr/bin/env bash
# hotpath-hook-gate follows the switch a hook already has (issue 12), on
# tests/e2e/projects/callback: fault_sim() in fault.c runs a callback that
# fault_install() sets (SQLite's sqlite3FaultSim shape), and is called in
# checksum()'s loop in work.c, which cannot see the callback pointer.
# `hotpath-tidy -p build --fix` finds the hook through the project index and
# gates the call on that same pointer, through an inline accessor next to
# the hook's declaration in fault.h: exactly the expected findings and
# fixed text (projects/callback/fixed.diff). The fixed program builds with
# -Wall -Wextra -Werror under gcc and clang and gives the same stdout,
# stderr and exit status as the original, failing inputs included, and the
# callback installed through fault_install() still fires (the faults come
# out at the same steps). Callgrind: before / after / no hook, as ratios;
# after below before, at least half of the hook's cost removed (measured:
# 0.778 with gcc, 0.571 with clang). Negative controls: a gate that ignores the callback
# (a new flag nobody sets) must change behaviour; the unfixed build as
# "after" must not pass the instruction check. A second run finds nothing.
# Usage: callback-hook.sh HOTPATH_TIDY
set -euo pipefail
binary=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
project=$here/projects/callback
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# KEEP=DIR: leave the findings and the fixed diff there (to review a change).
[ -n "${KEEP:-}" ] && trap 'cp "$work/fix.txt" "$work/fixed.diff" "$KEEP"/; rm -rf "$work"' EXIT
# shellcheck source=lib.sh
source "$here/lib.sh"

tree() { # DEST: a copy of the project, its .clang-tidy included, with build/compile_commands.json
  rm -rf "$1" && mkdir -p "$1/build"
  cp -r "$project/include" "$project/src" "$1/"
  # The project's .clang-tidy: a small program, one loop counts as hot
  # (ChainHeatThreshold 5); heat itself is tested by chain-heat.sh and the
  # unit tests.
  cp "$project/.clang-tidy" "$1/"
  python3 - "$1" <<'PY'
import glob, json, os, sys
d = sys.argv[1]
json.dump([{"directory": d, "file": f, "arguments": ["cc", "-std=c11", "-O2", "-Iinclude", "-c", f,
            "-o", "build/" + os.path.basename(f) + ".o"]}
           for f in sorted(os.path.relpath(p, d) for p in glob.glob(d + "/src/*.c"))],
          open(d + "/build/compile_commands.json", "w"), indent=1)
PY
}
findings() { grep -E '^[^ ]+:[0-9]+:[0-9]+: (warning|note|error): ' "$1" || true; }
IR_ARGS=200000

before=$work/before after=$work/after nohook=$work/nohook
tree "$before"; tree "$after"; tree "$nohook"
cp "$project/variants/nohook/src/"* "$nohook/src/"

rc=0
(cd "$after" && "$binary" -p build --fix -j2) >"$work/fix.out" 2>"$work/fix.err" || rc=$?
findings "$work/fix.out" >"$work/fix.txt"
if [ "$rc" = 1 ] && diff -u "$project/findings.txt" "$work/fix.txt"; then
  ok "hotpath-tidy -p build --fix: exit 1, exactly the expected findings"
else
  bad "hotpath-tidy -p build --fix (exit $rc)"; cat "$work/fix.err"
fi
(cd "$work" && diff -ruN -x build before after) |
  sed -E -e "s#^(---|\+\+\+) (before|after)/([^\t]*)\t.*#\1 \3#" -e "s#^diff -ruN -x build .*#diff#" \
  >"$work/fixed.diff" || true
if diff -u "$project/fixed.diff" "$work/fixed.diff"; then
  ok "the fixed files are exactly projects/callback/fixed.diff"
else
  bad "fixed text"
fi

# The gate a new flag would be (off, nobody sets it): the callback is lost.
silenced=$work/silenced
cp -r "$after" "$silenced"
sed -i 's/return __builtin_expect(!!(fault_callback), 0);/return 0;/' "$silenced/include/fault.h"

for cc in gcc clang-19; do
  built=1
  for v in before after nohook silenced; do
    (cd "$work/$v" && "$cc" -std=c11 -O2 -Wall -Wextra -Werror -Iinclude -o "prog-$cc" src/*.c) \
      >"$work/build.log" 2>&1 || { built=0; bad "$v: $cc -Wall -Wextra -Werror"; cat "$work/build.log"; }
  done
  [ "$built" = 1 ] || continue
  ok "before, after, no hook build with $cc -Wall -Wextra -Werror"
  for args in "100000" "1000 7" "5000 13" "1 1" "" "0" "10 x"; do
    # shellcheck disable=SC2086
    if same_behaviour "$before/prog-$cc" "$after/prog-$cc" $args; then
      ok "$cc '$args': same stdout, stderr, exit $(cat "$work/beh/a.rc")"
    else
      bad "$cc '$args': behaviour differs"
    fi
  done
  run_captured "$work/fire" "$after/prog-$cc" 1000 7
  if [ "$(cat "$work/fire.rc")" = 2 ] && grep -qx 'fault at step 6 of pass 3' "$work/fire.err"; then
    ok "$cc: the callback installed with fault_install() still fires after the fix (step 6 of pass 3)"
  else
    bad "$cc: the installed callback does not fire after the fix"
  fi
  expect_failure "$cc: a gate that ignores the installed callback" "stderr differs" \
    same_behaviour "$before/prog-$cc" "$silenced/prog-$cc" 1000 7
  if r=$(fewer_instructions "$before/prog-$cc" "$after/prog-$cc" "$nohook/prog-$cc" 0.5); then
    ok "$cc: $r"
  else
    bad "$cc: $r"
  fi
  expect_failure "$cc: the unfixed build as 'after'" "is not below before" \
    fewer_instructions "$before/prog-$cc" "$before/prog-$cc" "$nohook/prog-$cc" 0.5
done

# The index refreshed first and no result cache (every TU analysed again,
# nothing written into build/): the second run changes no file.
(cd "$after" && "$binary" --index-only -p build) >/dev/null 2>&1
if second_run_clean "$after" "$work/again.log" "$binary" -p build --fix -j2 --no-cache; then
  ok "second --fix run: exit 0, no findings, no changes"
else
  bad "second --fix run"
fi
finish
