#!/usr/bin/env bash
# A run's outputs appear whole or not at all (issue 41: a run that stopped
# on an error left 0-byte .sarif and .json files). Each output is written
# to a temporary file beside it, made before anything is checked (so an
# unwritable path still stops the run at once), and renamed over it when
# the run has written it whole (support/AtomicFile.h):
# 1. an unwritable output (a read-only directory, as nobody when root) next
#    to writable ones: exit 2, the message names it, and no file appears,
#    not even the writable ones (they were left at 0 bytes);
# 2. a run that stops on an error after its outputs were opened (a profile
#    that is no profile): exit 2, the message, no output file, and outputs
#    of an earlier run byte for byte as they were;
# 3. a run stopped by SIGINT while it checks: no output file, no temporary;
# 4. an output that is no regular file (/dev/stdout) is written in place.
# Each time, nothing named *.hotpath-tmp-* is left. Controls: the check
# fails on a directory holding a 0-byte output, and on one holding a
# temporary file.
# Usage: output-atomic.sh HOTPATH_TIDY
set -euo pipefail
ht=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'chmod -R u+rwX "$work"; rm -rf "$work"' EXIT
chmod 755 "$work" # case 1 runs as nobody when root, who must reach it
# shellcheck source=lib.sh
source "$here/lib.sh"

p=$work/proj
mkdir -p "$p"
cp "$here/../../samples/extent-buffer/"{check.c,accessors.c,main.c,extent_buffer.h} "$p/"
python3 - "$p" <<'PY'
import json, sys
d = sys.argv[1]
json.dump([{"directory": d, "file": f, "arguments": ["cc", "-std=c11", "-c", f]}
           for f in ("check.c", "accessors.c", "main.c")], open(d + "/compile_commands.json", "w"))
PY
chmod -R a+rwX "$p"

# clean_dir DIR [FILE...]: no temporary file in DIR, and no 0-byte file
# among FILE (names in DIR).
clean_dir() {
  local d=$1 f tmp
  shift
  tmp=$(find "$d" -maxdepth 1 -name '*.hotpath-tmp-*' | sed "s|$d/||")
  [ -z "$tmp" ] || { echo "  temporary files left: $tmp"; return 1; }
  for f in "$@"; do
    if [ -e "$d/$f" ] && [ ! -s "$d/$f" ]; then echo "  $f is left at 0 bytes"; return 1; fi
  done
}
# absent DIR FILE...: none of FILE exists in DIR.
absent() {
  local d=$1 f there=()
  shift
  for f in "$@"; do [ -e "$d/$f" ] && there+=("$f"); done
  [ "${#there[@]}" -eq 0 ] || { echo "  written: ${there[*]}"; return 1; }
}
outputs=(x.sarif x.json x.yaml x.diff)
out_args() { # DIR: every output in DIR
  echo "--format=sarif:$1/x.sarif --format=codeclimate:$1/x.json --export-fixes=$1/x.yaml --fix-patch=$1/x.diff"
}

# 1. An unwritable output beside writable ones.
mkdir -p "$work/o1" "$work/ro"
chmod 777 "$work/o1"
chmod 555 "$work/ro"
# Root writes anything: drop to nobody for this one.
as=()
[ "$(id -u)" = 0 ] && as=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
rc=0
# shellcheck disable=SC2046
(cd "$p" && "${as[@]}" "$ht" -p . $(out_args "$work/o1") --format=text:"$work/ro/x.txt") \
  >"$work/ro.out" 2>"$work/ro.err" || rc=$?
echo "$rc" >"$work/ro.rc"
rc_is ro 2 "an unwritable output"
has_line ro err "hotpath-tidy: error: cannot write --format=text:$work/ro/x.txt: Permission denied" \
  "an unwritable output: the message names it and why"
if out=$(absent "$work/o1" "${outputs[@]}" && clean_dir "$work/o1" "${outputs[@]}" && clean_dir "$work/ro"); then
  ok "an unwritable output: no other output appears (none at 0 bytes), no temporary file"
else
  bad "an unwritable output: $out"; ls -la "$work/o1"
fi

# 2. An error after the outputs were opened: first a run that writes them,
# then one that stops on a profile that is no profile.
mkdir -p "$work/o2"
printf 'main;check_setget_bounds\0 12\n' >"$work/bad.folded"
run "$p" good -p . $(out_args "$work/o2")
rc_is good 1 "a run with findings writes every output"
if python3 -c 'import json,sys; json.load(open(sys.argv[1])); json.load(open(sys.argv[2]))' \
     "$work/o2/x.sarif" "$work/o2/x.json" && [ -s "$work/o2/x.yaml" ] && [ -s "$work/o2/x.diff" ]; then
  ok "that run: SARIF and Code Quality JSON parse, the export and the patch are there"
else
  bad "that run: an output is missing or does not parse"; ls -la "$work/o2"
fi
mkdir -p "$work/o2.before" && cp -a "$work/o2/." "$work/o2.before/"
run "$p" stops -p . --profile="$work/bad.folded" $(out_args "$work/o2")
rc_is stops 2 "a run that stops on an error (a binary profile)"
grep -q "^hotpath-tidy: error: .*bad.folded.*not a text profile" "$work/stops.err" &&
  ok "that run: the error names the profile" || { bad "that run: message"; cat "$work/stops.err"; }
if diff -r "$work/o2.before" "$work/o2" >/dev/null && out=$(clean_dir "$work/o2" "${outputs[@]}"); then
  ok "that run: each output of the run before is byte for byte as it was, no temporary file"
else
  bad "that run: outputs changed ${out:-}"; diff -r "$work/o2.before" "$work/o2" | head
fi
mkdir -p "$work/o3"
run "$p" stops-fresh -p . --profile="$work/bad.folded" $(out_args "$work/o3")
rc_is stops-fresh 2 "the same with no earlier outputs"
if out=$(absent "$work/o3" "${outputs[@]}" && clean_dir "$work/o3"); then
  ok "that run: no output file (none at 0 bytes), no temporary file"
else
  bad "that run: $out"
fi

# 3. SIGINT while the TUs are checked (40 of them: a few seconds).
big=$work/big
mkdir -p "$work/o4"
slow_project "$big"
set -m
# shellcheck disable=SC2046
(cd "$big" && exec "$ht" -p . -j 2 --no-index $(out_args "$work/o4")) >"$work/int.out" 2>"$work/int.err" &
pid=$!
for i in $(seq 1 200); do
  [ -n "$(find "$work/o4" -name '*.hotpath-tmp-*')" ] && break
  sleep 0.05
done
sleep 1
kill -INT "$pid"
rc=0
wait "$pid" || rc=$?
set +m
[ "$rc" = 130 ] && ok "SIGINT: exit 130" || bad "SIGINT: exit $rc"
if out=$(absent "$work/o4" "${outputs[@]}" && clean_dir "$work/o4"); then
  ok "SIGINT: no output file, no temporary file"
else
  bad "SIGINT: $out"; ls -la "$work/o4"
fi

# 4. /dev/stdout: no file to rename over; written in place.
run "$p" stdout -p . --format=sarif:/dev/stdout
rc_is stdout 1 "--format=sarif:/dev/stdout"
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$work/stdout.out" &&
  ok "--format=sarif:/dev/stdout: the SARIF on standard output" || bad "--format=sarif:/dev/stdout: no SARIF"

# Controls.
mkdir -p "$work/c"
: >"$work/c/x.sarif"
expect_failure "a 0-byte output" "x.sarif is left at 0 bytes" clean_dir "$work/c" x.sarif
rm -f "$work/c/x.sarif"
: >"$work/c/x.sarif.hotpath-tmp-abcdef"
expect_failure "a temporary file left" "temporary files left: x.sarif.hotpath-tmp-abcdef" clean_dir "$work/c"
finish
