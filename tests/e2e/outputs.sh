#!/usr/bin/env bash
# One run, every output (issue 25), on a 4-TU project (the extent-buffer
# sample, whose check's fast path goes into a shared header, and a static
# check function in src/buf.c):
# 1. One run writes clang-tidy's text (stdout), SARIF (a file, valid against
#    the 2.1.0 schema, helpUri on the web), GitLab Code Quality JSON (a file,
#    valid against a schema written from GitLab's table, SARIF's
#    fingerprints), a fix patch and exported fixes, and leaves the tree
#    alone; the patch (patch -p1) and the export (clang-apply-replacements)
#    each give exactly the files --fix gives.
# 2. Errors before anything is indexed or checked (exit 2, the exact
#    message, no index made, nothing on stdout): two formats on stdout, one
#    file named twice, a file that cannot be written; and a file that fails
#    when written (/dev/full): exit 2, the message, no crash.
# 3. --warnings-as-errors: clang-tidy's "error: ... [check,-warnings-as-errors]",
#    the count line, SARIF level error, Code Quality severity major, exported
#    as an error; a glob list that excludes the check changes nothing; a
#    .clang-tidy's WarningsAsErrors the same as the option (exit 1, not 2).
# 4. Streaming: with -j1 and --progress (stdout and stderr in one file), the
#    finding of the 2nd TU is printed before the 4th TU is checked; the text
#    is the same with -j2.
# 5. Progress off a terminal: nothing without --progress; with it at most
#    one line per 5 s plus the first and the last (12 TUs).
# Usage: outputs.sh HOTPATH_TIDY LLVM_BIN_DIR DOCS_URL
#   (HOTPATH_SARIF_SCHEMA: the SARIF 2.1.0 schema, fetch-sarif-schema.sh)
set -euo pipefail
ht=$(realpath "$1") bin=$2 docs_url=$3
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck source=lib.sh
source "$here/lib.sh"

# run DIR NAME ARGS...: hotpath-tidy ARGS in DIR; $work/NAME.{out,err,rc}.
same_file() { # LABEL EXPECTED GOT
  if diff -u "$2" "$3" >"$work/same.diff"; then ok "$1"; else bad "$1"; head -30 "$work/same.diff"; fi
}
# same_tree LABEL A B: the same sources (the database, the index and the
# run's outputs aside).
same_tree() {
  if diff -r -x hotpath-index -x hotpath-cache -x compile_commands.json "$2" "$3" >"$work/tree.diff"; then ok "$1"
  else bad "$1"; head -30 "$work/tree.diff"; fi
}

# project DIR: the 4 TUs, a .clang-tidy for a small program (one loop
# counts as hot, ChainHeatThreshold 5: heat itself is tested by
# chain-heat.sh), and a compile database with DIR's absolute path.
project() {
  rm -rf "$1"
  mkdir -p "$1/ext" "$1/src"
  cp "$root"/samples/extent-buffer/{check.c,accessors.c,main.c,extent_buffer.h} "$1/ext/"
  sed '/CHECK-MESSAGES:/d' "$root/tests/checks/hotpath-check-split/two-branch-subsumed.c" >"$1/src/buf.c"
  printf 'CheckOptions:\n  ChainHeatThreshold: 5\n' >"$1/.clang-tidy"
  python3 - "$(cd "$1" && pwd)" <<'PY'
import json, sys
d = sys.argv[1]
json.dump([{"directory": d, "file": f, "arguments": ["cc", "-std=gnu11", "-c", f]}
           for f in ("ext/check.c", "ext/accessors.c", "ext/main.c", "src/buf.c")],
          open(d + "/compile_commands.json", "w"), indent=1)
PY
}

project "$work/ref"
run "$work/ref" ref -p . --fix
rc_is ref 1 "--fix (the reference)"
project "$work/orig"

cat >"$work/text.expected" <<'E'
ext/check.c:5:6: warning: check function 'check_setget_bounds' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]
bool check_setget_bounds(const struct extent_buffer *eb, unsigned int off, unsigned int size)
     ^
ext/check.c:5:6: note: 'check_setget_bounds' is hot: called from 8 macro-generated accessors in accessors.c
bool check_setget_bounds(const struct extent_buffer *eb, unsigned int off, unsigned int size)
     ^
ext/check.c:9:6: note: this condition implies 'end > eb->len' (the sum cannot wrap), so the fast path tests only that one
	if (off > eb->len) {
	    ^
src/buf.c:8:13: warning: check function 'check_bounds' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]
static bool check_bounds(const struct buf *b, unsigned int off, unsigned int size)
            ^
src/buf.c:8:13: note: 'check_bounds' is hot: called by get8 (buf.c:23), which is called in a loop in sum8 (buf.c:32)
static bool check_bounds(const struct buf *b, unsigned int off, unsigned int size)
            ^
src/buf.c:12:6: note: this condition implies 'end > b->len' (the sum cannot wrap), so the fast path tests only that one
	if (off > b->len) {
	    ^
E

# 1. One run, every output.
out=$work/out
mkdir -p "$out/fixes"
project "$work/one"
run "$work/one" one -p . -j1 --format=text --format=sarif:"$out/h.sarif" \
  --format=codeclimate:"$out/gl-code-quality.json" --fix-patch="$out/fix.diff" \
  --export-fixes="$out/fixes/hotpath.yaml"
rc_is one 1 "one run, every output"
same_file "one run: the text on stdout" "$work/text.expected" "$work/one.out"
same_tree "one run: the tree is left alone" "$work/orig" "$work/one"
if python3 "$here/ci-sarif-required.py" "$out/h.sarif" --results 2 --rule hotpath-check-split \
     --file ext/check.c --line 5 --col 6 --fixes >"$work/sarif.check"; then
  ok "one run: SARIF valid against the 2.1.0 schema, 2 results"
else bad "one run: SARIF"; cat "$work/sarif.check"; fi
if python3 - "$out/h.sarif" "$docs_url" <<'PY'
import json, sys
log, url = json.load(open(sys.argv[1])), sys.argv[2]
rules = log["runs"][0]["tool"]["driver"]["rules"]
uris = {r["id"]: r["helpUri"] for r in rules}
want = {"hotpath-check-split": url + "hotpath-check-split.md"}
if uris != want or not url.startswith(("https://", "http://")):
    sys.exit("helpUri %r, expected %r on the web" % (uris, want))
PY
then ok "one run: SARIF helpUri is the docs' web URL ($docs_url...)"; else bad "one run: helpUri"; fi
cq_check() { # CODECLIMATE SARIF SEVERITY: the Code Quality report against the schema and SARIF
  python3 - "$1" "$here/gitlab-code-quality.schema.json" "$2" "$3" <<'PY'
import json, sys
import jsonschema
report, schema, sarif, severity = (json.load(open(sys.argv[1])), json.load(open(sys.argv[2])),
                                   json.load(open(sys.argv[3])), sys.argv[4])
problems = ["%s: %s" % (list(e.path), e.message)
            for e in jsonschema.Draft7Validator(schema).iter_errors(report)]
if problems:
    sys.exit("\n".join(problems))
got = [(i["check_name"], i["location"]["path"], i["location"]["lines"]["begin"], i["severity"])
       for i in report]
want = [("hotpath-check-split", "ext/check.c", 5, severity),
        ("hotpath-check-split", "src/buf.c", 8, severity)]
if got != want:
    problems.append("issues %r, expected %r" % (got, want))
prints = [r["partialFingerprints"]["hotpathFinding/v1"] for r in sarif["runs"][0]["results"]]
if [i["fingerprint"] for i in report] != prints:
    problems.append("fingerprints are not SARIF's")
if len(set(prints)) != len(prints):
    problems.append("fingerprints not unique")
if problems:
    sys.exit("\n".join(problems))
PY
}
if cq_check "$out/gl-code-quality.json" "$out/h.sarif" minor; then
  ok "one run: Code Quality JSON valid against GitLab's format, SARIF's fingerprints"
else bad "one run: Code Quality JSON"; fi
python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); del r[0]["location"]; json.dump(r, open(sys.argv[2], "w"))' \
  "$out/gl-code-quality.json" "$work/cq-broken.json"
expect_failure "a Code Quality issue without its location" "'location' is a required property" \
  cq_check "$work/cq-broken.json" "$out/h.sarif" minor
project "$work/pat"
if (cd "$work/pat" && patch -p1 --fuzz=0 -s <"$out/fix.diff"); then
  same_tree "one run: the fix patch gives the files --fix gives" "$work/ref" "$work/pat"
else bad "one run: patch -p1 --fuzz=0 refuses the fix patch"; fi
if grep -q -x "MainSourceFile:  ''" "$out/fixes/hotpath.yaml" &&
   [ "$(grep -c -x '  - DiagnosticName:  hotpath-check-split' "$out/fixes/hotpath.yaml")" = 2 ] &&
   [ "$(grep -c -x "    BuildDirectory:  '$(cd "$work/one" && pwd)'" "$out/fixes/hotpath.yaml")" = 2 ]; then
  ok "one run: the export is clang-tidy's YAML, 2 diagnostics with their build directory"
else bad "one run: the export's YAML"; head -20 "$out/fixes/hotpath.yaml"; fi
if "$bin/clang-apply-replacements" "$out/fixes" 2>"$work/car.err"; then
  same_tree "one run: clang-apply-replacements on the export gives the files --fix gives" \
    "$work/ref" "$work/one"
else bad "one run: clang-apply-replacements failed"; cat "$work/car.err"; fi

# 2. Errors found before anything is indexed or checked.
nothing_done() { # NAME LABEL: no index made, nothing on stdout, no TU checked
  if [ ! -e "$work/e/hotpath-index" ] && [ ! -s "$work/$1.out" ] && ! grep -q checked "$work/$1.err"; then
    ok "$2: nothing indexed or checked"
  else bad "$2: something was done"; ls "$work/e"; cat "$work/$1.out"; fi
}
project "$work/e"
touch "$work/afile"
run "$work/e" two_stdout -p . --format=text --format=sarif
rc_is two_stdout 2 "two formats on stdout"
has_line two_stdout err "hotpath-tidy: error: --format=text and --format=sarif both write to standard output: give all but one of them a file (--format=sarif:<file>) (see --help)" \
  "two formats on stdout: the message names both"
nothing_done two_stdout "two formats on stdout"
run "$work/e" same_file -p . --format=sarif:"$work/x.out" --format=codeclimate:"$work/x.out"
rc_is same_file 2 "one file named twice"
has_line same_file err "hotpath-tidy: error: --format=sarif:$work/x.out and --format=codeclimate:$work/x.out name the same file: each output needs a file of its own (see --help)" \
  "one file named twice: the message names both"
run "$work/e" same_file2 -p . --fix-patch=x.diff --export-fixes=./sub/../x.diff
rc_is same_file2 2 "--fix-patch and --export-fixes naming one file, spelt differently"
nothing_done same_file2 "one file named twice"
for opt in "--format=sarif:$work/afile/h.sarif" "--export-fixes=$work/afile/h.yaml" "--fix-patch=$work/afile/h.diff"; do
  run "$work/e" unwritable -p . "$opt"
  rc_is unwritable 2 "$opt (a file under a file)"
  has_line unwritable err "hotpath-tidy: error: cannot write $opt: Not a directory" \
    "$opt: the message names the option and why"
  nothing_done unwritable "$opt"
done

# A file that takes no bytes (a full disk) is found only when written: the
# error names it, exit 2, and no crash (raw_fd_ostream's "IO failure").
run "$work/e" full -p . --format=codeclimate:/dev/full
rc_is full 2 "--format=codeclimate:/dev/full (no space left)"
has_line full err "hotpath-tidy: error: cannot write --format=codeclimate:/dev/full: No space left on device" \
  "--format=codeclimate:/dev/full: the message names the option and why"

# 3. --warnings-as-errors (on a fresh copy: the export fixed the first).
project "$work/two"
run "$work/two" wae -p . -j1 --warnings-as-errors='-*,hotpath-check-*' --format=sarif:"$out/wae.sarif" \
  --format=codeclimate:"$out/wae.json" --format=text --export-fixes="$out/wae.yaml"
rc_is wae 1 "--warnings-as-errors"
sed -e 's/: warning: \(.*\) \[hotpath-check-split\]$/: error: \1 [hotpath-check-split,-warnings-as-errors]/' \
  "$work/text.expected" >"$work/wae.expected"
same_file "--warnings-as-errors: clang-tidy's 'error: ... [check,-warnings-as-errors]'" \
  "$work/wae.expected" "$work/wae.out"
if [ "$(tail -1 "$work/wae.err")" = "hotpath-tidy: 2 warnings treated as errors" ]; then
  ok "--warnings-as-errors: standard error ends with the count"
else bad "--warnings-as-errors: last line '$(tail -1 "$work/wae.err")'"; fi
if python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["runs"][0]["results"]; sys.exit([x["level"] for x in r] != ["error", "error"])' "$out/wae.sarif" &&
   cq_check "$out/wae.json" "$out/wae.sarif" major; then
  ok "--warnings-as-errors: SARIF level error, Code Quality severity major"
else bad "--warnings-as-errors: SARIF levels or Code Quality severities"; fi
if [ "$(grep -c -x '    Level:           Error' "$out/wae.yaml")" = 2 ]; then
  ok "--warnings-as-errors: exported as errors, as clang-tidy exports them"
else bad "--warnings-as-errors: exported levels"; grep Level "$out/wae.yaml"; fi
run "$work/two" wae_none -p . -j1 --warnings-as-errors='hotpath-*,-hotpath-check-split'
rc_is wae_none 1 "--warnings-as-errors that excludes the check"
same_file "--warnings-as-errors that excludes the check: the text unchanged" "$work/text.expected" "$work/wae_none.out"
no_line wae_none err "treated as error" "--warnings-as-errors that excludes the check: no count"
# The configuration's WarningsAsErrors: the same, not a failed check run
# (clang-tidy exits 1 for it).
printf 'WarningsAsErrors: "hotpath-check-split"\nCheckOptions:\n  ChainHeatThreshold: 5\n' >"$work/two/.clang-tidy"
run "$work/two" wae_config -p . -j1
rc_is wae_config 1 ".clang-tidy WarningsAsErrors"
same_file ".clang-tidy WarningsAsErrors: the same text as --warnings-as-errors" "$work/wae.expected" "$work/wae_config.out"
if [ "$(tail -1 "$work/wae_config.err")" = "hotpath-tidy: 2 warnings treated as errors" ]; then
  ok ".clang-tidy WarningsAsErrors: standard error ends with the count"
else bad ".clang-tidy WarningsAsErrors: stderr"; cat "$work/wae_config.err"; fi
printf 'CheckOptions:\n  ChainHeatThreshold: 5\n' >"$work/two/.clang-tidy"

# 4. Streaming: each TU's findings as it is checked.
(cd "$work/two" && "$ht" -p . -j1 --progress >"$work/stream.log" 2>&1) || true
line_of() { grep -n -x -F -- "$1" "$work/stream.log" | head -1 | cut -d: -f1; }
first=$(line_of "hotpath-tidy: [1/4] checked ext/accessors.c")
found=$(line_of "ext/check.c:5:6: warning: check function 'check_setget_bounds' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]")
last=$(line_of "hotpath-tidy: [4/4] checked src/buf.c")
found2=$(line_of "src/buf.c:8:13: warning: check function 'check_bounds' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]")
if [ -n "$first" ] && [ -n "$found" ] && [ -n "$last" ] && [ -n "$found2" ] &&
   [ "$first" -lt "$found" ] && [ "$found" -lt "$last" ] && [ "$last" -lt "$found2" ]; then
  ok "streaming: ext/check.c's finding (TU 2) printed before src/buf.c (TU 4) is checked"
else bad "streaming: lines $first (1/4), $found (finding of TU 2), $last (4/4), $found2 (finding of TU 4)"
  sed 's/^/    /' "$work/stream.log" | head -30; fi
run "$work/two" j2 -p . -j2
same_file "streaming: the same text with -j2" "$work/text.expected" "$work/j2.out"

# 5. Progress off a terminal, rate-limited.
mkdir -p "$work/many"
python3 - "$work/many" <<'PY'
import json, sys
d = sys.argv[1]
for i in range(12):
    open("%s/f%02d.c" % (d, i), "w").write("int f%d(int x) { return x + %d; }\n" % (i, i))
json.dump([{"directory": d, "file": "f%02d.c" % i, "arguments": ["cc", "-c", "f%02d.c" % i]}
           for i in range(12)], open(d + "/compile_commands.json", "w"))
PY
run "$work/many" quiet -p . --no-index -j2
no_line quiet err '\[[0-9]+/12\]' "progress off a terminal: nothing without --progress"
start=$(date +%s%N)
run "$work/many" progress -p . --no-index -j2 --progress
elapsed=$(awk -v s="$start" -v e="$(date +%s%N)" 'BEGIN { printf "%.1f", (e - s) / 1e9 }')
lines=$(grep -c -E '^hotpath-tidy: \[[0-9]+/12\] checked f[0-9]+\.c$' "$work/progress.err" || true)
allowed=$(awk -v e="$elapsed" 'BEGIN { print 2 + int(e / 5) }')
if grep -q -E '^hotpath-tidy: \[1/12\] checked ' "$work/progress.err" &&
   [ "$(grep -E '\] checked ' "$work/progress.err" | tail -1 | cut -d' ' -f2)" = "[12/12]" ] &&
   [ "$lines" -le "$allowed" ]; then
  ok "--progress off a terminal: $lines lines for 12 TUs in $elapsed s (the first, the last, one per 5 s)"
else bad "--progress off a terminal: $lines lines in $elapsed s, at most $allowed allowed"; cat "$work/progress.err"; fi
finish
