#!/usr/bin/env bash
# The Debian package of this build, as scripts/package.sh makes it (cpack,
# installed under /usr): named for its LLVM major like clang-tidy-<N>, every
# file it installs under a versioned path (so that the packages of two
# majors install side by side: scripts/package-chroot.sh does), a DEP-5
# copyright file, a changelog.Debian.gz of the package's version, the
# hotpath-tidy alternative, Depends computed by dpkg-shlibdeps; then lintian,
# which must report no error or warning but what the package's overrides
# accept (packaging/lintian-overrides.in, each with its reason). Leaves the package in
# package-test/hotpath-tidy.deb for e2e.ci-docs.
# Usage: package-deb.sh BUILD_DIR MAJOR   (run in BUILD_DIR)
set -euo pipefail
build=$(realpath "$1") m=$2
work=$build/package-test
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
source "$here/lib.sh"
rm -rf "$work"
(cd "$build" && cpack -G DEB -B "$work" -D CPACK_PACKAGING_INSTALL_PREFIX=/usr >"$work.log" 2>&1) ||
  { cat "$work.log"; exit 1; }
mv "$work"/hotpath-tidy-"$m"_*.deb "$work/hotpath-tidy.deb"
deb=$work/hotpath-tidy.deb
field() { dpkg-deb --field "$deb" "$1"; }
dpkg-deb --field "$deb" Package Version Section Priority Depends Recommends

[ "$(field Package)" = "hotpath-tidy-$m" ] && ok "Package: hotpath-tidy-$m" || bad "Package: $(field Package)"
version=$(field Version)
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+-[0-9]+$ ]] && ok "Version: $version (upstream-revision)" || bad "Version: $version"
[ "$(field Section)/$(field Priority)" = devel/optional ] && ok "Section devel, Priority optional" ||
  bad "Section/Priority: $(field Section)/$(field Priority)"
depends=$(field Depends)
# Each as a name of its own (libllvm19 is not libllvm19-dev); shlibdeps adds
# a version where the library's shlibs file has one.
for d in "clang-tidy-$m" "libclang-cpp$m" "libllvm$m" libc6 libstdc++6; do
  grep -qE "(^|, )$(sed 's/[+.]/\\&/g' <<<"$d")( \(|,|$)" <<<"$depends" && ok "Depends on $d" || bad "Depends lacks $d: $depends"
done

# Every file under a path of its own major; directories may be shared.
dpkg-deb --contents "$deb" | awk '$1 !~ /^d/ { print $6, $7, $8 }' | sed 's|^\./|/|; s| *$||' >"$work/files"
mt=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
unversioned=$(grep -vE "^/usr/(bin/hotpath-tidy-$m|lib/llvm-$m/bin/hotpath-tidy|lib/$mt/hotpath-tidy-$m/|share/hotpath-tidy-$m/|share/doc/hotpath-tidy-$m/|share/man/man1/hotpath-tidy-$m\.1\.gz|share/lintian/overrides/hotpath-tidy-$m)" "$work/files" || true)
[ -z "$unversioned" ] && ok "all $(wc -l <"$work/files") files under paths of LLVM $m" || bad "files outside versioned paths: $unversioned"
for f in "/usr/bin/hotpath-tidy-$m -> ../lib/llvm-$m/bin/hotpath-tidy" "/usr/lib/llvm-$m/bin/hotpath-tidy" \
         "/usr/lib/$mt/hotpath-tidy-$m/libhotpathTidyModule.so" "/usr/lib/$mt/hotpath-tidy-$m/libhotpathTidyChecks.so" \
         "/usr/share/hotpath-tidy-$m/rules/generic-gnu-c.yaml" "/usr/share/doc/hotpath-tidy-$m/copyright" \
         "/usr/share/doc/hotpath-tidy-$m/changelog.Debian.gz" "/usr/share/doc/hotpath-tidy-$m/checks/hotpath-check-split.md" \
         "/usr/share/man/man1/hotpath-tidy-$m.1.gz" "/usr/share/lintian/overrides/hotpath-tidy-$m"; do
  grep -qxF "$f" "$work/files" && ok "installs $f" || bad "does not install $f"
done

dpkg-deb -x "$deb" "$work/root" && dpkg-deb -e "$deb" "$work/control"
doc=$work/root/usr/share/doc/hotpath-tidy-$m
head -1 "$doc/copyright" | grep -qxF "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/" &&
  grep -q "^License: none$" "$doc/copyright" && grep -q "^License: Apache-2.0 WITH LLVM-exception$" "$doc/copyright" &&
  ok "copyright: DEP-5, no licence stated by the project, LLVM's for the linked clang-tidy" || bad "copyright"
first=$(gzip -dc "$doc/changelog.Debian.gz" | head -1)
[[ $first == "hotpath-tidy-$m ($version) "* ]] && ok "changelog.Debian.gz: $first" || bad "changelog.Debian.gz starts '$first'"
grep -qF "update-alternatives --install /usr/bin/hotpath-tidy hotpath-tidy /usr/bin/hotpath-tidy-$m $m" "$work/control/postinst" &&
  grep -qF "update-alternatives --remove hotpath-tidy /usr/bin/hotpath-tidy-$m" "$work/control/prerm" &&
  ok "postinst/prerm: the hotpath-tidy alternative, priority $m" || bad "postinst/prerm: no hotpath-tidy alternative"
readelf -d "$work/root/usr/lib/llvm-$m/bin/hotpath-tidy" | grep -qE 'RPATH|RUNPATH' &&
  bad "the tool has a RUNPATH" || ok "the tool has no RUNPATH"

# lintian: no error or warning left but the overridden (the overrides say
# why); its infos (hardening of a build without dpkg-buildflags, as this
# one; sections strip leaves) are shown, not failed on.
command -v lintian >/dev/null || { bad "lintian is not installed (scripts/install-deps.sh installs it)"; finish; exit; }
lintian --tag-display-limit 0 --display-info --show-overrides "$deb" >"$work/lintian.out" 2>&1 || true
sed 's/^/    /' "$work/lintian.out"
if grep -qE '^[EW]: ' "$work/lintian.out"; then
  bad "lintian: $(grep -cE '^[EW]: ' "$work/lintian.out") errors or warnings not overridden"
else
  ok "lintian: no error or warning beyond the $(grep -c '^O: ' "$work/lintian.out") overridden; $(grep -c '^I: ' "$work/lintian.out") infos"
fi
finish
