#!/usr/bin/env bash
# The real kernel tree hotpath-tidy is measured on (issue 26): Debian's linux
# 6.1.4-1 source, x86_64 defconfig plus the options that make the checks'
# subjects real code, mm/ and fs/btrfs/ built with clang 19, and their
# compile_commands.json.
#
#   scripts/kernel-tree.sh [DIR]        (DIR defaults to /work/real/linux)
#
# 1. Installs what the build needs (root: apt-get update, apt-get install).
# 2. Downloads the source package linux=6.1.4-1 into DIR/src: `apt-get source
#    --download-only` through a deb-src entry (scripts/real-project.py's), else
#    the .dsc and its files from the snapshot archive. Every file's sha256 is
#    checked against the .dsc's Checksums-Sha256.
# 3. Unpacks it with `dpkg-source -x` to DIR/linux-6.1.4. The package is
#    format 3.0 (quilt), so dpkg-source applies debian/patches/series (Debian's
#    bug fixes and features) by default: the tree is Debian's patched 6.1.4.
# 4. make LLVM=-19 defconfig; CONFIG_BTRFS_FS, FUNCTION_ERROR_INJECTION,
#    FAULT_INJECTION, FAILSLAB, FAIL_PAGE_ALLOC, WERROR =y (scripts/config,
#    then olddefconfig); make prepare; make -j2 mm/ fs/btrfs/ (its CPU time,
#    user+sys, printed and kept in DIR/build-time.txt).
# 5. scripts/clang-tools/gen_compile_commands.py: the whole database as
#    compile_commands.full.json, and compile_commands.json with the TUs under
#    mm/ and fs/btrfs/ only.
# 6. DIR/READY: the tree's path, then the limited compile_commands.json's.
#
# Re-runnable: a step whose result is there is skipped (the download, the
# unpack, a .config that has the options), and make rebuilds nothing that is
# up to date. Exit 1, with the step named, on any failure. A first run
# downloads ~135 MB and takes ~10-20 min of CPU on 2 cores.
set -euo pipefail

dir=${1:-/work/real/linux}
version=6.1.4-1
upstream=${version%-*}
jobs=${HOTPATH_JOBS:-2}
root=$(cd "$(dirname "$0")/.." && pwd)
tree=$dir/linux-$upstream
src=$dir/src
dsc=linux_$version.dsc
llvm=(LLVM=-19)

die() { echo "kernel-tree: $*" >&2; exit 1; }
step() { echo "kernel-tree: $*" >&2; }
trap 'rc=$?; [ $rc -eq 0 ] || echo "kernel-tree: FAILED (exit $rc) at line $LINENO" >&2' EXIT

mkdir -p "$dir" "$src"
dir=$(cd "$dir" && pwd)
tree=$dir/linux-$upstream
src=$dir/src

# 1. Tools.
tools=(flex bison bc make gcc python3 cpio rsync kmod perl
       libelf-dev libssl-dev dpkg-dev clang-19 llvm-19 lld-19 time curl)
missing=()
for p in "${tools[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  [ "$(id -u)" = 0 ] || die "missing packages ${missing[*]} and not root to install them"
  step "installing ${missing[*]}"
  apt-get update -q >/dev/null || die "apt-get update failed"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >/dev/null \
    || die "apt-get install ${missing[*]} failed"
fi

# Checks every file the .dsc lists against its sha256; 0 when all are there
# and match.
verify_dsc() {
  [ -f "$src/$dsc" ] || return 1
  local sums
  sums=$(awk '/^Checksums-Sha256:/ {on=1; next} /^[^ ]/ {on=0} on && NF==3 {print $1 "  " $3}' \
           "$src/$dsc")
  [ -n "$sums" ] || return 1
  (cd "$src" && echo "$sums" | sha256sum --quiet -c - >/dev/null 2>&1)
}

# 2. The source package, pinned.
if ! verify_dsc; then
  step "downloading linux=$version"
  if [ "$(id -u)" = 0 ]; then
    python3 - "$root/scripts/real-project.py" <<'PY' || step "no deb-src entry added"
import importlib.util, sys
spec = importlib.util.spec_from_file_location("real_project", sys.argv[1])
rp = importlib.util.module_from_spec(spec)
spec.loader.exec_module(rp)
rp.ensure_deb_src()
PY
  fi
  if ! (cd "$src" && apt-get source -q --download-only "linux=$version" >"$dir/apt-source.log" 2>&1); then
    step "apt-get source linux=$version failed ($dir/apt-source.log); trying the snapshot archive"
    base=https://snapshot.debian.org/archive/debian/20230107T000000Z/pool/main/l/linux
    (cd "$src" && curl -fsSLO "$base/$dsc") || die "cannot download $dsc from $base"
    for f in $(awk '/^Files:/ {on=1; next} /^[^ ]/ {on=0} on && NF==3 {print $3}' "$src/$dsc"); do
      (cd "$src" && curl -fsSLO "$base/$f") || die "cannot download $f from $base"
    done
  fi
  verify_dsc || die "the files of $src/$dsc do not match its Checksums-Sha256"
fi
step "source verified: $(grep -c . <(awk '/^Checksums-Sha256:/ {on=1; next} /^[^ ]/ {on=0} on && NF==3' "$src/$dsc")) files of $dsc match their sha256"

# 3. Unpacked (with Debian's patches: dpkg-source -x applies a 3.0 (quilt)
# package's series by default).
if [ ! -f "$tree/.kernel-tree-unpacked" ]; then
  rm -f "$dir/READY"
  rm -rf "$tree"
  step "unpacking to $tree"
  dpkg-source -x "$src/$dsc" "$tree" >"$dir/dpkg-source.log" 2>&1 \
    || die "dpkg-source -x failed ($dir/dpkg-source.log)"
  echo "$version" >"$tree/.kernel-tree-unpacked"
fi
cd "$tree"

# 4. Configured and built.
options=(BTRFS_FS FUNCTION_ERROR_INJECTION FAULT_INJECTION FAILSLAB FAIL_PAGE_ALLOC WERROR)
configured() {
  [ -f .config ] || return 1
  local o
  for o in "${options[@]}"; do grep -qx "CONFIG_$o=y" .config || return 1; done
}
if ! configured; then
  step "configuring (defconfig + ${options[*]})"
  make "${llvm[@]}" defconfig >/dev/null || die "make defconfig failed"
  args=()
  for o in "${options[@]}"; do args+=(--enable "$o"); done
  scripts/config "${args[@]}" || die "scripts/config failed"
  make "${llvm[@]}" olddefconfig >/dev/null || die "make olddefconfig failed"
  configured || die "an option did not stay =y after olddefconfig: $(for o in "${options[@]}"; do
                       grep -qx "CONFIG_$o=y" .config || printf 'CONFIG_%s ' "$o"; done)"
fi
step "make prepare"
make "${llvm[@]}" -j"$jobs" prepare >"$dir/prepare.log" 2>&1 \
  || die "make prepare failed (tail of $dir/prepare.log):$(echo; tail -20 "$dir/prepare.log")"
step "make -j$jobs mm/ fs/btrfs/"
/usr/bin/time -f '%U %S %e' -o "$dir/build-time.raw" \
  make "${llvm[@]}" -j"$jobs" mm/ fs/btrfs/ >"$dir/build.log" 2>&1 \
  || die "building mm/ fs/btrfs/ failed (tail of $dir/build.log):$(echo; tail -30 "$dir/build.log")"
read -r user sys wall <"$dir/build-time.raw"
cpu=$(echo "$user + $sys" | bc)
echo "build of mm/ fs/btrfs/ (this run): CPU ${cpu}s (user ${user}s + sys ${sys}s), wall ${wall}s" \
  | tee "$dir/build-time.txt" >&2

# 5. The compile databases.
python3 scripts/clang-tools/gen_compile_commands.py -d . -o compile_commands.full.json \
  || die "gen_compile_commands.py failed"
python3 - <<'PY' || die "could not write the limited compile_commands.json"
import json, os
db = json.load(open('compile_commands.full.json'))
top = os.getcwd()
def under(e):
    rel = os.path.relpath(os.path.join(e['directory'], e['file']), top)
    return rel.startswith('mm/') or rel.startswith('fs/btrfs/')
kept = [e for e in db if under(e)]
if not kept:
    raise SystemExit('kernel-tree: no TU under mm/ or fs/btrfs/ in the database')
json.dump(kept, open('compile_commands.json', 'w'), indent=2)
print('kernel-tree: compile_commands.json: %d TUs (mm/ + fs/btrfs/) of %d'
      % (len(kept), len(db)))
PY

# 6. Ready for the others.
printf '%s\n%s\n' "$tree" "$tree/compile_commands.json" >"$dir/READY"
step "ready: $dir/READY"
