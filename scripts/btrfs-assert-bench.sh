#!/usr/bin/env bash
# What btrfs-progs' disabled ASSERT costs `btrfs check`, and how much of it
# the tool's fix takes off, in callgrind instruction counts.
#
# btrfs-progs never defines CONFIG_BTRFS_ASSERT, so its ASSERT is always
#   #define ASSERT(cond, args...)   (void)(cond)
# and every metadata accessor (kernel-shared/accessors.c) still runs
# ASSERT(check_setget_bounds(eb, ptr, off, sizeof(u##bits))): a bounds check
# on every field read and write. Three builds of the same upstream tree:
#   before   as released;
#   after    the hotpath checks' fixes applied, with the default settings
#            (hotpath-tidy over every translation unit, --export-fixes,
#            clang-apply-replacements, as scripts/real-project.py does);
#   no-check the two ASSERT(check_setget_bounds(...)) lines deleted by hand.
# Each runs `btrfs check` on one metadata-heavy image (mkfs.btrfs --rootdir
# over many small files) under callgrind. Prints the counts, the share of
# the check's cost the fix removes, (before - after) / (before - no-check),
# and whether the three runs print the same and exit the same. Exits 1 when
# the share is below 0.95 or an output differs, 2 when a step fails.
#
# The source is an upstream btrfs-progs git repository (a bare mirror will
# do; its tests/ directory, with images that may be missing from a mirror,
# is left out); none of its code is kept in this project. Needs root for
# apt (Debian's build dependencies of btrfs-progs, bear, valgrind). About
# 10 minutes on 2 cores. Not run by CI.
#
# Usage: scripts/btrfs-assert-bench.sh [--repo GIT_DIR] [--work DIR] [--files N]
#                                      [--tidy HOTPATH_TIDY] [--jobs N]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
repo=/work/.mirror/kdave+btrfs-progs/repo
work=$root/build/btrfs-bench
files=20000
tidy=$root/build/plugin/hotpath-tidy
jobs=${HOTPATH_JOBS:-2}
major=${HOTPATH_LLVM_MAJOR:-19}
while [ $# -gt 0 ]; do
  case $1 in
    --repo) repo=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    --files) files=$2; shift 2 ;;
    --tidy) tidy=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    *) echo "usage: $0 [--repo GIT_DIR] [--work DIR] [--files N] [--tidy HOTPATH_TIDY] [--jobs N]" >&2
       exit 2 ;;
  esac
done
die() { echo "btrfs-assert-bench: $*" >&2; exit 2; }
log() { echo "btrfs-assert-bench: $*"; }
[ -x "$tidy" ] || die "no hotpath-tidy at $tidy (build first: scripts/build.sh)"
git --git-dir="$repo" rev-parse -q --verify 'HEAD^{commit}' >/dev/null ||
  die "$repo is not a git repository with a HEAD"
apply=/usr/lib/llvm-$major/bin/clang-apply-replacements
[ -x "$apply" ] || die "no $apply"

# 1. Build dependencies, as Debian builds btrfs-progs.
if ! command -v bear >/dev/null || ! command -v valgrind >/dev/null || ! command -v autoreconf >/dev/null; then
  apt-get install -y -q bear valgrind autoconf automake pkg-config >/dev/null
fi
if [ ! -f "$work/.deps-installed" ]; then
  python3 -c "import runpy; runpy.run_path('$root/scripts/real-project.py', run_name='deps')['ensure_deb_src']()"
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 build-dep -y -q btrfs-progs >/dev/null
  mkdir -p "$work" && touch "$work/.deps-installed"
fi

# 2. The source, configured once; three copies of it.
commit=$(git --git-dir="$repo" rev-parse HEAD)
log "btrfs-progs $commit ($(git --git-dir="$repo" log -1 --format=%cs HEAD))"
rm -rf "$work/src" "$work/before" "$work/after" "$work/no-check" "$work/runs"
mkdir -p "$work/src" "$work/runs"
# One argument per top-level entry but tests/. (A mirror that lacks a test
# image makes ls-tree complain about it on stderr: not a file we read.)
# shellcheck disable=SC2046
git --git-dir="$repo" archive --format=tar HEAD \
    $(git --git-dir="$repo" ls-tree --name-only HEAD 2>/dev/null | grep -v -x tests) |
  tar -x -C "$work/src"
(cd "$work/src" && ./autogen.sh && ./configure --disable-documentation --disable-python) \
  >"$work/configure.log" 2>&1 || die "configure failed: $work/configure.log"
for v in before after no-check; do cp -a "$work/src" "$work/$v"; done

build() { # TREE: btrfs and mkfs.btrfs, under bear for the compile database
  (cd "$work/$1" && bear --output compile_commands.json -- make -j"$jobs" btrfs mkfs.btrfs) \
    >"$work/$1.build.log" 2>&1 || die "the $1 build failed: $work/$1.build.log"
}
build before

# 3. after: the tool's fixes, every TU, the default settings.
sed "s|$work/before|$work/after|g" "$work/before/compile_commands.json" >"$work/after/compile_commands.json"
(cd "$work/after" && git init -q && git add -A && git -c user.name=b -c user.email=b@b commit -qm pristine)
mkdir -p "$work/fixes"
rm -f "$work/fixes/"*.yaml
python3 - "$work/after/compile_commands.json" >"$work/tus.txt" <<'PY'
import json, os, sys
seen = set()
for e in json.load(open(sys.argv[1])):
    f = os.path.normpath(os.path.join(e['directory'], e['file']))
    if f.endswith('.c') and f not in seen:
        seen.add(f)
        print(f)
PY
# ASSERT is defined in a header: without the project index no TU may
# rewrite it (its uses elsewhere are unknown), so the index first, and every
# per-TU run pointed at it, as README.md's export route says.
"$tidy" --index-only -j "$jobs" -p "$work/after" >"$work/index.log" 2>&1 ||
  die "hotpath-tidy --index-only failed (see $work/index.log)"
log "hotpath-tidy over $(wc -l <"$work/tus.txt") translation units"
n=0
while read -r tu; do
  n=$((n + 1))
  printf '%s\0%s\0' "$n" "$tu"
done <"$work/tus.txt" |
  xargs -0 -n 2 -P "$jobs" sh -c '"$0" -checks="-*,hotpath-*" -p "$1" --quiet -config="{CheckOptions: {ProjectIndex: $1/hotpath-index}}" --export-fixes="$2/$3.yaml" "$4" >"$2/$3.log" 2>&1 || echo "$4: exit $?" >>"$2/failed"' \
    "$tidy" "$work/after" "$work/fixes"
[ ! -s "$work/fixes/failed" ] || die "hotpath-tidy failed on: $(cat "$work/fixes/failed")"
cat "$work/fixes/"*.log | grep -E 'warning: .*\[hotpath-' | sed "s|$work/after/||" | sort -u >"$work/findings.txt" || true
"$apply" "$work/fixes" || die "clang-apply-replacements failed"
rm -rf "$work/after/hotpath-index"
(cd "$work/after" && git diff) >"$work/fixes.diff"
changed=$(cd "$work/after" && git diff --name-only | tr '\n' ' ')
log "findings: $(wc -l <"$work/findings.txt") (in $work/findings.txt); files changed by the fixes: ${changed:-none}"
grep -q '^+#define ASSERT(cond, args...).*((void)(0 && !!(cond)))' "$work/fixes.diff" ||
  die "the fixes do not rewrite the disabled ASSERT (see $work/findings.txt, $work/fixes.diff)"
build after

# 4. no-check: the assert's argument removed by hand.
before_lines=$(grep -c 'ASSERT(check_setget_bounds(' "$work/no-check/kernel-shared/accessors.c")
sed -i '/ASSERT(check_setget_bounds(/d' "$work/no-check/kernel-shared/accessors.c"
[ "$before_lines" = 2 ] && ! grep -q 'ASSERT(check_setget_bounds(' "$work/no-check/kernel-shared/accessors.c" ||
  die "expected two ASSERT(check_setget_bounds(...)) lines in kernel-shared/accessors.c, found $before_lines"
# The check function is now unused: keep the build's warnings from failing it.
sed -i 's/^static bool check_setget_bounds(/static __attribute__((unused)) bool check_setget_bounds(/' \
  "$work/no-check/kernel-shared/accessors.c"
build no-check

# 5. A metadata-heavy image: many small files (inline extents), many dirs.
rm -rf "$work/rootdir" && mkdir -p "$work/rootdir"
python3 - "$work/rootdir" "$files" <<'PY'
import os, sys
top, n = sys.argv[1], int(sys.argv[2])
per = 100
for i in range(n):
    d = os.path.join(top, 'd%04d' % (i // per))
    if i % per == 0:
        os.makedirs(d)
    with open(os.path.join(d, 'f%03d' % (i % per)), 'w') as f:
        f.write('x' * (37 + (i * 7) % 300))
PY
rm -f "$work/image" && truncate -s 4G "$work/image"
"$work/before/mkfs.btrfs" -q --rootdir "$work/rootdir" --shrink -f "$work/image" >"$work/mkfs.log" 2>&1 ||
  die "mkfs.btrfs failed: $work/mkfs.log"

# 6. btrfs check under callgrind, each build.
declare -A ir
for v in before after no-check; do
  rc=0
  (cd "$work" && valgrind --tool=callgrind --callgrind-out-file="runs/callgrind.$v" \
     --log-file="runs/valgrind.$v.log" "$work/$v/btrfs" check image >"runs/$v.out" 2>"runs/$v.err") || rc=$?
  echo "$rc" >"$work/runs/$v.rc"
  ir[$v]=$(sed -n 's/^summary: //p' "$work/runs/callgrind.$v")
  [ -n "${ir[$v]}" ] || die "no callgrind summary for $v ($work/runs/valgrind.$v.log)"
done
same=yes
for v in after no-check; do
  for s in out err rc; do
    cmp -s "$work/runs/before.$s" "$work/runs/$v.$s" || { same=no; echo "  $v: $s differs from before's"; }
  done
done
python3 - "${ir[before]}" "${ir[after]}" "${ir[no-check]}" "$same" "$(cat "$work/runs/before.rc")" "$files" <<'PY'
import sys
before, after, nocheck = map(int, sys.argv[1:4])
same, rc, files = sys.argv[4], sys.argv[5], sys.argv[6]
cost = before - nocheck
removed = (before - after) / cost if cost else float('nan')
print('btrfs check on an image of %s small files, callgrind instructions:' % files)
print('| build | instructions | / no-check |')
print('| --- | --- | --- |')
for name, v in (('before', before), ('after (the fix)', after), ('no-check (argument removed)', nocheck)):
    print('| %s | %s | %.4f |' % (name, format(v, ','), v / nocheck))
print('the disabled ASSERT costs %.1f%% of before; the fix removes %.4f of it' %
      (100.0 * cost / before, removed))
print('same stdout, stderr and exit status (%s) in all three: %s' % (rc, same))
sys.exit(0 if removed >= 0.95 and same == 'yes' else 1)
PY
