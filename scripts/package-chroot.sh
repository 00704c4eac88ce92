#!/usr/bin/env bash
# The package away from the build tree: builds the .deb from a fresh clone of
# this repository (scripts/package.sh), installs it with apt into a clean
# Debian 12 made by debootstrap, and there runs the steps of docs/ci.md's
# GitHub Actions job, as written in that file, on a pull request to a real
# project from Debian's sources (lz4, CMake): one that adds a hot check
# function must exit 1 with the annotation, a SARIF file with the result and
# a fix patch that `git apply` takes; one that adds nothing must exit 0.
# Not part of CTest (a debootstrap, ~300 MB of packages; ~10 minutes).
#   scripts/package-chroot.sh [WORKDIR]      (default /var/tmp/hotpath-chroot)
# Needs root (debootstrap, chroot, mount) and the network.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-/var/tmp/hotpath-chroot}
major=${HOTPATH_LLVM_MAJOR:-19}
chroot=$work/debian-12
mkdir -p "$work"
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }

# 1. The package, from a fresh clone (what is committed, nothing else).
rm -rf "$work/clone"
git clone -q "$root" "$work/clone"
HOTPATH_PACKAGE_DIR=$work/clone/build-package "$work/clone/scripts/package.sh" "$major" >"$work/package.log" 2>&1 ||
  { tail -20 "$work/package.log"; exit 2; }
deb=$(grep '\.deb$' "$work/package.log" | tail -1)
echo "package-chroot: $deb"

# 2. A clean Debian 12 (kept between runs; remove WORKDIR for a new one).
command -v debootstrap >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -q debootstrap
if [ ! -x "$chroot/usr/bin/apt-get" ]; then
  rm -rf "$chroot"
  debootstrap --variant=minbase bookworm "$chroot" http://deb.debian.org/debian >"$work/debootstrap.log" 2>&1 ||
    { tail -20 "$work/debootstrap.log"; exit 2; }
fi
# This machine's binary sources (bookworm-updates has LLVM 19 and 22).
rm -f "$chroot"/etc/apt/sources.list.d/* "$chroot/etc/apt/sources.list"
[ -f /etc/apt/sources.list.d/debian.sources ] && cp /etc/apt/sources.list.d/debian.sources "$chroot/etc/apt/sources.list.d/"
[ -f /etc/apt/sources.list ] && cp /etc/apt/sources.list "$chroot/etc/apt/sources.list"
cp /etc/resolv.conf "$chroot/etc/resolv.conf"
mountpoint -q "$chroot/proc" || mount -t proc proc "$chroot/proc"
trap 'umount "$chroot/proc" 2>/dev/null || true' EXIT
in_chroot() { chroot "$chroot" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 bash -euo pipefail -c "$1"; }
if in_chroot 'command -v hotpath-tidy' >/dev/null 2>&1; then
  in_chroot 'apt-get purge -y -q --autoremove hotpath-tidy >/dev/null'  # with clang-tidy-N: the install pulls it in
fi

# 3. The project: lz4 from Debian's sources, as a git repository whose main
# branch is the package as released.
if [ ! -d "$work/lz4-src" ]; then
  mkdir -p "$work/lz4-dl"
  # The deb-src entry as scripts/real-project.py adds it.
  python3 -c 'import importlib.util as u, sys
spec = u.spec_from_file_location("rp", sys.argv[1]); m = u.module_from_spec(spec)
spec.loader.exec_module(m); m.ensure_deb_src()' "$root/scripts/real-project.py"
  (cd "$work/lz4-dl" && apt-get source -q lz4 >/dev/null 2>&1)
  mv "$(ls -d "$work"/lz4-dl/lz4-*/ | head -1)" "$work/lz4-src"
fi
rm -rf "$chroot/work" && mkdir -p "$chroot/work"
cp "$deb" "$chroot/work/hotpath-tidy.deb"
cp -r "$work/lz4-src" "$chroot/work/lz4"

# 4. The job's steps, read from docs/ci.md: its install step (the .deb from
# a file instead of a URL), and the pull-request step as written.
python3 - "$root/docs/ci.md" "$chroot/work" <<'PY'
import re, sys
doc, out = sys.argv[1], sys.argv[2]
text = open(doc).read()
gh = re.search(r'```yaml\n# \.github/workflows/hotpath-tidy\.yml\n(.*?)```', text, re.S).group(1)
steps = re.findall(r'- name: (.*?)\n(.*?)(?=\n      - |\Z)', gh, re.S)
def run_block(body):
    m = re.search(r'run: \|\n((?:          .*\n?)+)', body)
    return '\n'.join(l[10:] for l in m.group(1).splitlines())
for name, body in steps:
    if name.startswith('Install'):
        s = run_block(body).replace('curl -fsSL -o /tmp/hotpath-tidy.deb "$HOTPATH_TIDY_DEB_URL"',
                                    'cp /work/hotpath-tidy.deb /tmp/hotpath-tidy.deb')
        open(out + '/install.sh', 'w').write(s + '\n')
    elif name.startswith('hotpath-tidy on the pull request'):
        open(out + '/pull-request.sh', 'w').write(run_block(body) + '\n')
PY
[ -s "$chroot/work/install.sh" ] && [ -s "$chroot/work/pull-request.sh" ] ||
  { bad "docs/ci.md: the GitHub job's install or pull-request step not found"; exit 1; }
if in_chroot 'export DEBIAN_FRONTEND=noninteractive; bash -e /work/install.sh' >"$work/install.log" 2>&1; then
  ok "the GitHub job's install step: $(grep -m1 'hotpath-tidy version' "$work/install.log")"
else
  bad "the install step failed:"; tail -20 "$work/install.log"; exit 1
fi
in_chroot 'dpkg -s hotpath-tidy | sed -n "s/^Version: /hotpath-tidy installed: /p"; ls /usr/lib/x86_64-linux-gnu/hotpath-tidy/'

# The pull requests: one adds a check function called in a loop; the other
# a comment. The job's own build step makes the compile database.
in_chroot '
cd /work/lz4
git init -q -b main . && git add -A && git -c user.name=ci -c user.email=ci@localhost commit -q -m "lz4 as released"
cmake -S build/cmake -B build -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null
git checkout -q -b hot
cat >>programs/bench.c <<EOF

/* A bounds check called for every byte of a buffer (added by the pull request). */
static int check_span(size_t len, size_t off, size_t size)
{
	if (off > len) {
		fprintf(stderr, "span start %zu beyond %zu\n", off, len);
		return 0;
	}
	if (off + size > len) {
		fprintf(stderr, "span end %zu beyond %zu\n", off + size, len);
		return 0;
	}
	return 1;
}

size_t BMK_countValid(const unsigned char *buf, size_t len)
{
	size_t i, n = 0;
	for (i = 0; i < len; i++)
		n += (size_t)(buf[i] != 0 && check_span(len, i, 1));
	return n;
}
EOF
git -c user.name=ci -c user.email=ci@localhost commit -q -am "bench: count valid spans"
git checkout -q -b quiet main
sed -i "1i /* a comment (added by the pull request) */" programs/bench.c
git -c user.name=ci -c user.email=ci@localhost commit -q -am "util: a comment"
'
run_pr() { # BRANCH: the job step on that branch; prints its exit status
  in_chroot "cd /work/lz4 && git checkout -q $1 && rm -f hotpath.sarif hotpath-fixes.diff &&
             BASE=main bash -e /work/pull-request.sh" >"$work/pr-$1.log" 2>&1 && echo 0 || echo $?
}
rc=$(run_pr hot)
if [ "$rc" = 1 ] && grep -q "^::warning file=programs/bench.c,line=.*title=hotpath-check-split::check function 'check_span'" "$work/pr-hot.log"; then
  ok "pull request adding a hot check: exit 1, annotation: $(grep -m1 '^::warning' "$work/pr-hot.log" | cut -c1-110)..."
else
  bad "pull request adding a hot check: exit $rc"; cat "$work/pr-hot.log"
fi
if in_chroot 'cd /work/lz4 && python3 -c "import json; r = json.load(open(\"hotpath.sarif\"))[\"runs\"][0][\"results\"]; assert [x[\"ruleId\"] for x in r] == [\"hotpath-check-split\"], r"' 2>/dev/null ||
   in_chroot 'cd /work/lz4 && grep -q "\"ruleId\": *\"hotpath-check-split\"" hotpath.sarif'; then
  ok "hotpath.sarif holds the result"
else
  bad "hotpath.sarif lacks the hotpath-check-split result"
fi
if in_chroot 'cd /work/lz4 && test -s hotpath-fixes.diff && git apply --check hotpath-fixes.diff && git apply hotpath-fixes.diff &&
              cmake --build build -j2 >/dev/null && git diff --stat'; then
  ok "hotpath-fixes.diff applies with git apply and the fixed lz4 builds"
else
  bad "the fix patch does not apply or the fixed tree does not build"
fi
in_chroot 'cd /work/lz4 && git checkout -q -f .'
rc=$(run_pr quiet)
if [ "$rc" = 0 ]; then ok "pull request adding a comment: exit 0"
else bad "pull request adding a comment: exit $rc"; cat "$work/pr-quiet.log"; fi
echo "$pass passed, $fail failed (logs in $work)"
[ "$fail" = 0 ]
