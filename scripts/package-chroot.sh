#!/usr/bin/env bash
# The packages away from the build tree, in a clean Debian 12 made by
# debootstrap (kept between runs in WORKDIR/debian-12; remove it for a new
# one):
# 1. hotpath-tidy-19 and hotpath-tidy-22 built by scripts/package.sh from a
#    fresh clone of this repository (what is committed, nothing else);
# 2. both installed side by side (dpkg -i of both, apt-get -f install for
#    what they depend on), each run on the same project, samples/extent-buffer
#    with a compile_commands.json: hotpath-tidy-<N> over the database and
#    clang-tidy-<N> with the module of its package, all four with the same
#    findings; the hotpath-tidy alternative names the newest, and removing
#    that package leaves the other working;
# 3. docs/ci.md's GitHub Actions job, its steps as written in that file, with
#    the default major's package on a pull request to a real project from
#    Debian's sources (lz4, CMake): one that adds a hot check function must
#    exit 1 with the annotation, a SARIF file with the result and a fix patch
#    that `git apply` takes; one that adds nothing must exit 0;
# 4. then, on that machine, what install-deps.sh --build installs is enough
#    for package.sh of each major (its configure step, or all of it with
#    HOTPATH_CHROOT_PACKAGE=build).
# Not part of CTest (a debootstrap, ~400 MB of packages, two package builds:
# ~30 minutes on 2 cores, less with ccache: the clone's builds share the
# tree's objects when CCACHE_BASEDIR holds both at the same depth, e.g.
# CCACHE_BASEDIR=/work with the tree in /work/<x> and WORKDIR /work/<y>).
#   scripts/package-chroot.sh [WORKDIR]      (default /var/tmp/hotpath-chroot)
# HOTPATH_CHROOT_MAJORS (default "19 22") the majors packaged and compared;
# HOTPATH_CHROOT_DEBS="build-package-19/hotpath-tidy-19_*.deb ..." uses those
# packages instead of building them; HOTPATH_CHROOT_CI_JOB=0 stops after step 2.
# Needs root (debootstrap, chroot, mount) and the network.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-/var/tmp/hotpath-chroot}
read -r -a majors <<<"${HOTPATH_CHROOT_MAJORS:-19 22}"
major=${HOTPATH_LLVM_MAJOR:-19}  # the docs/ci.md job's
chroot=$work/debian-12
mkdir -p "$work"
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }

# 1. The packages, from a fresh clone (what is committed, nothing else), or
# those HOTPATH_CHROOT_DEBS names (built by scripts/package.sh, one a major).
rm -rf "$work/clone"
git clone -q "$root" "$work/clone"
debs=()
for m in "${majors[@]}"; do
  deb=$(printf '%s\n' ${HOTPATH_CHROOT_DEBS:-} | grep "/hotpath-tidy-${m}_[^/]*\.deb$" || true)
  if [ -n "$deb" ]; then
    debs+=("$(realpath "$deb")")
    echo "package-chroot: ${debs[-1]} (given; $(du -k "$deb" | cut -f1) KiB, installed $(dpkg-deb --field "$deb" Installed-Size) KiB)"
    continue
  fi
  HOTPATH_PACKAGE_DIR=$work/clone/build-package-$m "$work/clone/scripts/package.sh" "$m" >"$work/package-$m.log" 2>&1 ||
    { tail -20 "$work/package-$m.log"; exit 2; }
  debs+=("$(grep '\.deb$' "$work/package-$m.log" | tail -1)")
  echo "package-chroot: ${debs[-1]} ($(du -k "${debs[-1]}" | cut -f1) KiB, installed $(dpkg-deb --field "${debs[-1]}" Installed-Size) KiB)"
done

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
# dpkg without a terminal: no /dev/pts in the chroot.
echo 'Dpkg::Use-Pty "0";' >"$chroot/etc/apt/apt.conf.d/90hotpath-no-pty"
mountpoint -q "$chroot/proc" || mount -t proc proc "$chroot/proc"
trap 'umount "$chroot/proc" 2>/dev/null || true' EXIT
in_chroot() { chroot "$chroot" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 bash -euo pipefail -c "$1"; }
# Nothing of an earlier run: hotpath-tidy packages and what they pulled in.
in_chroot 'pkgs=$(dpkg-query -W -f "\${Package}\n" "hotpath-tidy*" 2>/dev/null || true)
           [ -z "$pkgs" ] || DEBIAN_FRONTEND=noninteractive apt-get purge -y -q --autoremove $pkgs >/dev/null'
rm -rf "$chroot/work" && mkdir -p "$chroot/work"

# The packages side by side, and the same project for each.
side_by_side() {
  local names=() m
  for m in "${majors[@]}"; do names+=("hotpath-tidy-$m"); done
  cp "${debs[@]}" "$chroot/work/"
  if in_chroot 'export DEBIAN_FRONTEND=noninteractive; apt-get update -q >/dev/null
                dpkg -i /work/hotpath-tidy-*.deb >/work/dpkg-i.log 2>&1 || true
                apt-get -f install -y -q --no-install-recommends >/work/apt-f.log 2>&1
                apt-get install -y -q --no-install-recommends gcc >/dev/null' >"$work/side-by-side.log" 2>&1 &&
     in_chroot "dpkg-query -W -f '\${Package} \${Status}\n' ${names[*]}" | grep -c "install ok installed" |
       grep -qx "${#majors[@]}"; then
    ok "${names[*]} installed side by side: $(in_chroot "dpkg-query -W -f '\${Package} \${Version}, ' ${names[*]}")"
  else
    bad "${names[*]} not installed side by side:"; cat "$work/side-by-side.log" "$chroot/work/dpkg-i.log" "$chroot/work/apt-f.log"
    return 1
  fi
  mkdir -p "$chroot/work/extent-buffer"
  cp "$root"/samples/extent-buffer/{check.c,accessors.c,main.c,extent_buffer.h} "$chroot/work/extent-buffer/"
  python3 - "$chroot/work/extent-buffer" <<'PY'
import json, sys
d = "/work/extent-buffer"
json.dump([{"directory": d, "file": d + "/" + f, "arguments": ["gcc", "-std=c11", "-O2", "-c", f]}
           for f in ("check.c", "accessors.c", "main.c")], open(sys.argv[1] + "/compile_commands.json", "w"), indent=1)
PY
  local mt first=""
  mt=$(dpkg-architecture -qDEB_HOST_MULTIARCH)  # the chroot is this machine's architecture
  for m in "${majors[@]}"; do
    in_chroot "cd /work/extent-buffer && rc=0 && { hotpath-tidy-$m -p . >/work/tool-$m.out 2>/work/tool-$m.err || rc=\$?; }
               echo \$rc >/work/tool-$m.rc
               hotpath-tidy-$m -p . --fix-patch=/work/fix-$m.diff >/dev/null 2>&1 || true
               clang-tidy-$m --load=/usr/lib/$mt/hotpath-tidy-$m/libhotpathTidyModule.so -checks='-*,hotpath-*' \
                 -header-filter='^/work/' -p . check.c accessors.c main.c >/work/module-$m.out 2>/work/module-$m.err || true"
    local n
    n=$(grep -c ': warning: ' "$chroot/work/tool-$m.out" || true)
    if [ "$(cat "$chroot/work/tool-$m.rc")" = 1 ] && [ "$n" -gt 0 ]; then
      ok "hotpath-tidy-$m -p . on extent-buffer: exit 1, $n findings"
    else
      bad "hotpath-tidy-$m: exit $(cat "$chroot/work/tool-$m.rc"), $n findings"; cat "$chroot/work/tool-$m.err"
    fi
    # (clang-tidy says a header's finding once for each TU that includes it.)
    grep ': warning: ' "$chroot/work/module-$m.out" | sort -u >"$work/module-$m.findings" || true
    grep ': warning: ' "$chroot/work/tool-$m.out" | sort -u >"$work/tool-$m.findings" || true
    if [ -s "$work/module-$m.findings" ] && cmp -s "$work/module-$m.findings" "$work/tool-$m.findings"; then
      ok "clang-tidy-$m --load=<its module>: the same $(wc -l <"$work/module-$m.findings") findings"
    else
      bad "clang-tidy-$m with the module differs from hotpath-tidy-$m:"
      diff "$work/tool-$m.findings" "$work/module-$m.findings" || true; cat "$chroot/work/module-$m.err"
    fi
    if [ -z "$first" ]; then
      first=$m
    elif cmp -s "$chroot/work/tool-$first.out" "$chroot/work/tool-$m.out"; then
      ok "hotpath-tidy-$m and hotpath-tidy-$first print the same findings and notes ($(wc -l <"$chroot/work/tool-$m.out") lines)"
    else
      bad "hotpath-tidy-$m and hotpath-tidy-$first differ:"; diff "$chroot/work/tool-$first.out" "$chroot/work/tool-$m.out" || true
    fi
    if [ "$first" = "$m" ]; then
      [ -s "$chroot/work/fix-$m.diff" ] && ok "hotpath-tidy-$m --fix-patch: $(grep -c '^[-+][^-+]' "$chroot/work/fix-$m.diff") lines changed" ||
        bad "hotpath-tidy-$m --fix-patch wrote no patch"
    elif cmp -s "$chroot/work/fix-$first.diff" "$chroot/work/fix-$m.diff"; then
      ok "hotpath-tidy-$m and hotpath-tidy-$first make the same fix patch"
    else
      bad "the fix patches of hotpath-tidy-$m and hotpath-tidy-$first differ:"; diff "$chroot/work/fix-$first.diff" "$chroot/work/fix-$m.diff" || true
    fi
  done
  sed 's/^/    /' "$chroot/work/tool-$first.out"
  local newest=${majors[-1]}
  in_chroot 'update-alternatives --query hotpath-tidy; hotpath-tidy --version' >"$work/alternatives.out" 2>&1 || true
  if grep -qx "Value: /usr/bin/hotpath-tidy-$newest" "$work/alternatives.out" &&
     grep -q "LLVM $newest\." "$work/alternatives.out"; then
    ok "hotpath-tidy is the alternative of the newest, hotpath-tidy-$newest"
  else
    bad "the hotpath-tidy alternative:"; cat "$work/alternatives.out"
  fi
  if [ "${#majors[@]}" -gt 1 ]; then
    in_chroot "DEBIAN_FRONTEND=noninteractive apt-get purge -y -q hotpath-tidy-$newest >/dev/null 2>&1" || true
    if in_chroot "cd /work/extent-buffer && rc=0 && { hotpath-tidy -p . >/work/after-purge.out 2>/dev/null || rc=\$?; }
                  test ! -e /usr/bin/hotpath-tidy-$newest && test \$rc = 1" &&
       cmp -s "$chroot/work/tool-$first.out" "$chroot/work/after-purge.out"; then
      ok "hotpath-tidy-$newest removed: hotpath-tidy is hotpath-tidy-$first again, the same findings"
    else
      bad "after removing hotpath-tidy-$newest"; in_chroot 'update-alternatives --display hotpath-tidy' || true
    fi
  fi
}
side_by_side || true
if [ "${HOTPATH_CHROOT_CI_JOB:-1}" = 0 ]; then
  echo "$pass passed, $fail failed (logs in $work; HOTPATH_CHROOT_CI_JOB=0: steps 3 and 4 not run)"
  [ "$fail" = 0 ]; exit
fi
# Then the docs/ci.md job installs one package on a machine without any.
in_chroot 'pkgs=$(dpkg-query -W -f "\${Package}\n" "hotpath-tidy*" 2>/dev/null || true)
           [ -z "$pkgs" ] || DEBIAN_FRONTEND=noninteractive apt-get purge -y -q $pkgs >/dev/null'
deb=$(printf '%s\n' "${debs[@]}" | grep "/hotpath-tidy-${major}_" || true)
[ -n "$deb" ] || { bad "no package of LLVM $major (the docs/ci.md job's) among HOTPATH_CHROOT_MAJORS"; echo "$pass passed, $fail failed"; exit 1; }

# 3. The docs/ci.md job. The project: lz4 from Debian's sources, as a git repository whose main
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
in_chroot "dpkg -s hotpath-tidy-$major | sed -n 's/^Version: /hotpath-tidy-$major installed: /p'"

# The pull requests: one adds a check function called in a loop; the other
# a comment. The job's own build step makes the compile database. The check
# is declared in bench.h (a static one called once is inlined: no call to
# save, no finding), and main's .clang-tidy lowers the heat threshold to
# what one loop gives (2^4: a loop 2^5, the && around the call halves it):
# lz4's own loops are not in this demonstration's reach.
in_chroot '
cd /work/lz4
printf "CheckOptions:\n  ChainHeatThreshold: 4\n" >.clang-tidy
git init -q -b main . && git add -A && git -c user.name=ci -c user.email=ci@localhost commit -q -m "lz4 as released"
cmake -S build/cmake -B build -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null
git checkout -q -b hot
python3 - programs/bench.h <<EOF
import sys
p = sys.argv[1]
text = open(p).read()
at = text.rindex("#endif")
open(p, "w").write(text[:at] + "int check_span(size_t len, size_t off, size_t size);\n\n" + text[at:])
EOF
cat >>programs/bench.c <<EOF

/* A bounds check called for every byte of a buffer (added by the pull request). */
int check_span(size_t len, size_t off, size_t size)
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

# 4. What package.sh installs is enough on a clean machine: in the chroot,
# the packages and what they pulled in removed again (the job's git, cmake,
# gcc stay), the clone's install-deps.sh --build of each major,
# then package.sh's configure step (HOTPATH_CHROOT_PACKAGE=build: the whole
# package.sh there, without ccache: ~20 minutes a major on 2 cores).
in_chroot 'pkgs=$(dpkg-query -W -f "\${Package}\n" "hotpath-tidy*" 2>/dev/null || true)
           DEBIAN_FRONTEND=noninteractive apt-get purge -y -q --autoremove $pkgs >/dev/null'
rm -rf "$chroot/work/src" && cp -r "$work/clone" "$chroot/work/src" && rm -rf "$chroot"/work/src/build-package-*
installed() { in_chroot "dpkg-query -W -f '\${db:Status-Abbrev} \${Package}\n'" | awk '/^ii/ { print $2 }' | sort; }
installed >"$work/before-build-deps"
for m in "${majors[@]}"; do
  if [ "${HOTPATH_CHROOT_PACKAGE:-configure}" = build ]; then
    step="HOTPATH_JOBS=2 /work/src/scripts/package.sh $m"
  else
    step="HOTPATH_LLVM_MAJOR=$m /work/src/scripts/install-deps.sh --build &&
          cmake -S /work/src -B /work/src/build-package-$m -G Ninja -DHOTPATH_LLVM_MAJOR=$m \
                -DCMAKE_INSTALL_PREFIX=/usr -DHOTPATH_BUILD_TESTS=OFF"
  fi
  if in_chroot "export DEBIAN_FRONTEND=noninteractive; $step" >"$work/clean-package-$m.log" 2>&1; then
    ok "a clean Debian 12 with only install-deps.sh --build for $m: package.sh's ${HOTPATH_CHROOT_PACKAGE:-configure} step works"
  else
    bad "package.sh's ${HOTPATH_CHROOT_PACKAGE:-configure} step for $m on a clean Debian 12:"; tail -20 "$work/clean-package-$m.log"
  fi
done
# What step 4 installed goes again: the next run's step 2 starts clean.
installed | comm -13 "$work/before-build-deps" - >"$work/build-deps"
[ ! -s "$work/build-deps" ] ||
  in_chroot "DEBIAN_FRONTEND=noninteractive apt-get purge -y -q --autoremove $(tr '\n' ' ' <"$work/build-deps") >/dev/null"
echo "$pass passed, $fail failed (logs in $work)"
[ "$fail" = 0 ]
