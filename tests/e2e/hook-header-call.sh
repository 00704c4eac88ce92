#!/usr/bin/env bash
# No gate without its calls, and the hot call in a header (issue 26), on
# tests/e2e/projects/slab-header: mm/ in small. should_failslab() is
# declared in include/fault-inject.h and defined in src/slab_common.c; its
# one call is in include/slab.h's static inline slab_pre_alloc_hook(), which
# slab_common.c, slub.c and main.c all include (on Debian linux 6.1 the fix
# declared and defined the gate and gated no call). Each TU's run on its own
# proposes the same three header-and-definition edits; `hotpath-tidy -p
# build --fix` applies each once: exactly the expected findings and fixed
# text (projects/slab-header/fixed.diff), the call gated once in slab.h. The
# fixed program builds with -Wall -Wextra -Werror under gcc and clang and
# gives the same stdout, stderr and exit status as the original; with the
# enabler calling the gate's setter, as the note asks, the injected faults
# come out at the same steps. A second run finds nothing and changes
# nothing. Plain clang-tidy without a header filter keeps no header edit,
# so it makes no gate either (the definition alone would test nothing).
# Usage: hook-header-call.sh HOTPATH_TIDY CLANG_TIDY PLUGIN
set -euo pipefail
binary=$(realpath "$1") tidy=$2 plugin=$(realpath "$3")
here=$(cd "$(dirname "$0")" && pwd)
project=$here/projects/slab-header
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# KEEP=DIR: leave the findings and the fixed diff there (to review a change).
[ -n "${KEEP:-}" ] && trap 'cp "$work/fix.txt" "$work/fixed.diff" "$KEEP"/; rm -rf "$work"' EXIT
# shellcheck source=lib.sh
source "$here/lib.sh"

tree() { # DEST: a copy of the project, its .clang-tidy included, with build/compile_commands.json
  rm -rf "$1" && mkdir -p "$1/build"
  cp -r "$project/include" "$project/src" "$project/.clang-tidy" "$1/"
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
gated='should_failslab_gate_enabled() && should_failslab(s, flags)'

before=$work/before after=$work/after
tree "$before"; tree "$after"

# Each TU on its own proposes the gated call in slab.h (and the gate).
for tu in slab_common slub main; do
  one=$work/one-$tu
  tree "$one"
  (cd "$one" && "$binary" -p build --no-cache "$one/src/$tu.c" --fix-patch="$work/$tu.patch") \
    >/dev/null 2>"$work/$tu.err" || true
  if [ "$(grep -cxF "+	if ($gated)" "$work/$tu.patch" 2>/dev/null)" = 1 ] &&
     grep -qxF '+void should_failslab_gate_enable(void);' "$work/$tu.patch"; then
    ok "$tu.c alone: gates the call in include/slab.h and declares the gate in fault-inject.h"
  else
    bad "$tu.c alone: no gated call in slab.h"; cat "$work/$tu.err" "$work/$tu.patch" 2>/dev/null
  fi
done

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
  ok "the fixed files are exactly projects/slab-header/fixed.diff"
else
  bad "fixed text"
fi
if [ "$(grep -cF "$gated" "$after/include/slab.h")" = 1 ] &&
   [ "$(grep -c '^bool should_failslab_gate;' "$after/src/slab_common.c")" = 1 ] &&
   [ "$(grep -c 'should_failslab_gate;' "$after/include/fault-inject.h")" = 1 ]; then
  ok "three TUs' identical edits applied once: one gated call, one declaration, one definition"
else
  bad "edits not applied exactly once"
fi

# The enabler switches the gate on, as the fix's note asks.
enabled=$work/enabled
cp -r "$after" "$enabled"
sed -i 's/^\tfail_every = every;$/&\n\tif (every)\n\t\tshould_failslab_gate_enable();/' "$enabled/src/slab_common.c"
grep -q 'should_failslab_gate_enable();' "$enabled/src/slab_common.c" || bad "enabler not edited"
for cc in gcc clang-19; do
  built=1
  for v in before after enabled; do
    (cd "$work/$v" && "$cc" -std=c11 -O2 -Wall -Wextra -Werror -Iinclude -o "prog-$cc" src/*.c) \
      >"$work/build.log" 2>&1 || { built=0; bad "$v: $cc -Wall -Wextra -Werror"; cat "$work/build.log"; }
  done
  [ "$built" = 1 ] || continue
  ok "$cc: original and fixed build with -Wall -Wextra -Werror"
  same_behaviour_on "$cc: before vs after" "$before/prog-$cc" "$after/prog-$cc" "1000" "0"
  same_behaviour_on "$cc: before vs after with the enabler" "$before/prog-$cc" "$enabled/prog-$cc" \
    "1000" "1000 7" "10 3"
  # Without the enabler's call the gate stays off: the faults are lost.
  expect_failure "$cc: a gate nothing switches on" "stdout differs" \
    same_behaviour "$before/prog-$cc" "$after/prog-$cc" 1000 7
done

rc=0
cp -r "$after" "$work/snapshot"
(cd "$after" && "$binary" -p build --fix -j2) >"$work/again.out" 2>&1 || rc=$?
if [ "$rc" = 0 ] && [ -z "$(findings "$work/again.out")" ] &&
   diff -r -x build "$work/snapshot" "$after" >/dev/null; then
  ok "a second run finds nothing and changes nothing"
else
  bad "second run (exit $rc)"; cat "$work/again.out"
fi

# Plain clang-tidy with the index and no header filter: slab.h's edits
# would be dropped, so no gate is made from slab_common.c either.
plain=$work/plain
tree "$plain"
(cd "$plain" && "$binary" --index-only -p build >/dev/null 2>&1)
(cd "$plain" && "$tidy" --load="$plugin" -p build --fix \
   -config='{CheckOptions: {ProjectIndex: build/hotpath-index}}' src/slab_common.c src/slub.c) \
  >"$work/plain.out" 2>&1 || true
if [ -z "$(cd "$work" && diff -r -x build -x "prog-*" before plain)" ] && [ -z "$(findings "$work/plain.out")" ]; then
  ok "plain clang-tidy without -header-filter: no header edit kept, so no gate made"
else
  bad "plain clang-tidy without -header-filter made a gate"; cat "$work/plain.out"
  (cd "$work" && diff -r -x build -x "prog-*" before plain) || true
fi
finish
