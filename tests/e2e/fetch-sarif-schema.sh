#!/usr/bin/env bash
# Puts the official SARIF 2.1.0 JSON schema at DEST, for the tests that
# validate hotpath-tidy's SARIF output. It is not kept in this repository:
# it comes from a registry package that ships it, Microsoft's SARIF SDK
# matchers on npm (@microsoft/jest-sarif, lib/schemas/sarif-2.1.0-rtm.5.json:
# 2.1.0-rtm.5 is the schema the OASIS SARIF 2.1.0 standard was published
# with), fetched with npm's own client, and its hash checked. Kept in DEST
# once there. Usage: fetch-sarif-schema.sh DEST
set -euo pipefail
dest=$1
package=@microsoft/jest-sarif@1.0.0-beta.0
member=package/lib/schemas/sarif-2.1.0-rtm.5.json
sha256=2d99159ae54a3eea97f81781cff48780548657c35949f4b7f25e99a2ba4de4f8
if [ -f "$dest" ] && echo "$sha256  $dest" | sha256sum -c --quiet 2>/dev/null; then
  echo "fetch-sarif-schema: $dest is there"
  exit 0
fi
command -v npm >/dev/null || { echo "fetch-sarif-schema: npm is not installed (scripts/install-deps.sh installs it)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --silent "$package" >pack.out 2>pack.err) || {
  echo "fetch-sarif-schema: npm pack $package failed:" >&2; cat "$tmp/pack.err" >&2; exit 1; }
tar -xzf "$tmp/$(tail -1 "$tmp/pack.out")" -C "$tmp" "$member"
echo "$sha256  $tmp/$member" | sha256sum -c --quiet || {
  echo "fetch-sarif-schema: $member of $package is not the schema expected (sha256 differs)" >&2; exit 1; }
mkdir -p "$(dirname "$dest")"
cp "$tmp/$member" "$dest"
echo "fetch-sarif-schema: $dest from $package"
