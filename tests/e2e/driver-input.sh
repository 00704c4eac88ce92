#!/usr/bin/env bash
# No route changes behaviour, no setting is silently dropped (issue 24):
# 1. A malformed .clang-tidy (in the TU's directory or above), -config or
#    -config-file stops every run over the database: exit 2 and the file,
#    line and column, in -p, --fix, --diff, --diff --format=sarif
#    (executionSuccessful false) and --format=github; plain clang-tidy-19
#    is recorded as it is (it goes on with its defaults, exit 0). A
#    misspelt option is one warning, in every mode and format (SARIF:
#    toolConfigurationNotifications), once however many TUs read it; exit 2
#    with --strict.
# 2. --diff=- whose paths match no file: a warning naming them (exit 2 with
#    --strict); --strip=N removes N leading components.
# 3. The hotpath checks by default on every route, -j with named sources.
# 5. One line for --diff=<rev> outside a git work tree and for an unknown
#    option.
# Each with a negative control where one makes sense.
# Usage: driver-input.sh HOTPATH_TIDY CLANG_TIDY
set -euo pipefail
ht=$(realpath "$1") tidy=$2
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck source=lib.sh
source "$here/lib.sh"

# run NAME ARGS...: hotpath-tidy ARGS in the repository; $work/NAME.{out,err,rc}.
run() {
  local name=$1 rc=0
  shift
  (cd "$repo" && ulimit -c 0 && timeout 120 "$ht" "$@") >"$work/$name.out" 2>"$work/$name.err" </dev/null || rc=$?
  echo "$rc" >"$work/$name.rc"
}
run_stdin() { # NAME FILE ARGS...: as run, FILE on standard input
  local name=$1 in=$2 rc=0
  shift 2
  (cd "$repo" && timeout 120 "$ht" "$@") >"$work/$name.out" 2>"$work/$name.err" <"$in" || rc=$?
  echo "$rc" >"$work/$name.rc"
}
rc_is() { # NAME WANT LABEL
  local got
  got=$(cat "$work/$1.rc")
  if [ "$got" = "$2" ]; then ok "$3: exit $2"; else
    bad "$3: exit $got, expected $2"; sed 's/^/    /' "$work/$1.err" | head -10; fi
}
has_line() { # NAME STREAM LINE LABEL: LINE is exactly one line of the stream
  if grep -q -x -F -- "$3" "$work/$1.$2"; then ok "$4"; else
    bad "$4"; echo "    expected line: $3"; sed 's/^/    got: /' "$work/$1.$2" | head -10; fi
}
count_is() { # NAME STREAM FIXED-STRING WANT LABEL
  local got
  got=$(grep -c -F -- "$3" "$work/$1.$2" || true)
  if [ "$got" = "$4" ]; then ok "$5"; else bad "$5: $got lines with '$3', expected $4"; fi
}
lines_are() { # NAME STREAM WANT LABEL: the stream has exactly WANT lines
  local got
  got=$(wc -l <"$work/$1.$2")
  if [ "$got" = "$3" ]; then ok "$4"; else bad "$4: $got lines, expected $3"; sed 's/^/    /' "$work/$1.$2" | head -10; fi
}

# A repository with a compile database of three TUs, one of them in a
# subdirectory with a .clang-tidy of its own, and a patch adding a hot
# check function to src/buf.c (the ci-diff.sh project).
repo=$work/repo
mkdir -p "$repo/src/sub" "$repo/include"
cd "$repo"
git init -q
printf 'struct buf { unsigned long len; unsigned char *data; };\nunsigned sum(const struct buf *b);\n' >include/buf.h
printf '#include "buf.h"\nunsigned sum(const struct buf *b) { unsigned s = 0; for (unsigned long i = 0; i < b->len; i++) s += b->data[i]; return s; }\n' >src/buf.c
printf 'int other(int x) { return x + 1; }\n' >src/other.c
printf 'int deep(int x) { return x - 1; }\n' >src/sub/deep.c
# A small program: one loop counts as hot (ChainHeatThreshold 5).
good_config='CheckOptions:\n  ChainHeatThreshold: 5\n'
printf "$good_config" >.clang-tidy
python3 - "$repo" <<'PY'
import json, sys
d = sys.argv[1]
json.dump([{"directory": d, "file": f, "arguments": ["cc", "-std=c11", "-Iinclude", "-c", f]}
           for f in ("src/buf.c", "src/other.c", "src/sub/deep.c")], open(d + "/compile_commands.json", "w"))
PY
git -c user.name=t -c user.email=t@e add -A && git -c user.name=t -c user.email=t@e commit -qm base
{ echo; sed -n '/CHECK-MESSAGES:/d; /^static bool check_bounds/,$p' "$here/../checks/hotpath-check-split/two-branch-subsumed.c"; } >>src/buf.c
sed -i '1i #include <stdbool.h>\n#include <stdio.h>' src/buf.c
finding="src/buf.c:6:13: warning: check function 'check_bounds' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]"
run control -p .
rc_is control 1 "control: the project as is"
has_line control out "$finding" "control: the finding"

# --- 1. Malformed configurations ------------------------------------------
printf 'CheckOptions:\n  ChainHeatThreshold: [5\n' >.clang-tidy
bad_root="hotpath-tidy: error: .clang-tidy:2:25: malformed configuration: Could not find closing ]!"
modes=("-p ." "-p . --fix" "--diff=HEAD -p ." "--diff=HEAD -p . --format=sarif" "-p . --format=github" "-p . src/other.c")
cp src/buf.c "$work/buf.c.before"
for m in "${modes[@]}"; do
  # shellcheck disable=SC2086
  run malformed $m
  rc_is malformed 2 "malformed .clang-tidy, $m"
  has_line malformed err "$bad_root" "malformed .clang-tidy, $m: file, line and column"
done
cmp -s src/buf.c "$work/buf.c.before" && ok "malformed .clang-tidy, --fix: nothing fixed" || bad "--fix changed a file"
run malformed --diff=HEAD -p . --format=sarif
python3 - "$work/malformed.out" <<'PY' && ok "malformed .clang-tidy, SARIF: executionSuccessful false, the error as a configuration notification at 2:25" || bad "malformed .clang-tidy, SARIF"
import json, sys
inv = json.load(open(sys.argv[1]))["runs"][0]["invocations"][0]
assert inv["executionSuccessful"] is False, inv
n, = inv["toolConfigurationNotifications"]
assert n["level"] == "error" and n["message"]["text"] == "malformed configuration: Could not find closing ]!", n
loc = n["locations"][0]["physicalLocation"]
assert loc["artifactLocation"]["uri"] == ".clang-tidy" and loc["region"] == {"startLine": 2, "startColumn": 25}, loc
PY
if [ -n "${HOTPATH_SARIF_SCHEMA:-}" ]; then
  python3 "$here/ci-sarif-required.py" "$work/malformed.out" --results 0 --failed >/dev/null &&
    ok "malformed .clang-tidy, SARIF: valid against the schema" || bad "malformed SARIF: schema"
fi
run malformed -p . --format=github
has_line malformed out "::error file=.clang-tidy,line=2,col=25,title=hotpath-tidy configuration::malformed configuration: Could not find closing ]!" \
  "malformed .clang-tidy, GitHub: an error annotation on the file"
# What plain clang-tidy 19 does with the same file, recorded, not changed:
# "Error parsing" once per file it reads, its defaults, exit 0.
rc=0
(cd "$repo" && "$tidy" -checks='-*,misc-unused-parameters' src/other.c -- >"$work/plain.out" 2>&1) || rc=$?
echo "$rc" >"$work/plain.rc"
rc_is plain 0 "plain clang-tidy-19, malformed .clang-tidy (recorded: it goes on)"
has_line plain out "$repo/.clang-tidy:2:25: error: Could not find closing ]!" "plain clang-tidy-19: its message"
has_line plain out "Error parsing $repo/.clang-tidy: Invalid argument" "plain clang-tidy-19: and goes on"

# Only the files that apply: a malformed one below the TUs' directories
# does not stop a run of src/buf.c (control), one in src/sub/ stops a run
# that has src/sub/deep.c.
printf "$good_config" >.clang-tidy
printf 'Checks: [\n' >src/sub/.clang-tidy
run sub_only -p . src/buf.c
rc_is sub_only 1 "control: a malformed src/sub/.clang-tidy, a run of src/buf.c"
run sub_all -p .
rc_is sub_all 2 "a malformed src/sub/.clang-tidy, a run of every TU"
has_line sub_all err "hotpath-tidy: error: src/sub/.clang-tidy:1:10: malformed configuration: Could not find closing ]!" \
  "a malformed src/sub/.clang-tidy: named with line and column"
rm src/sub/.clang-tidy
# An unknown key is malformed to clang-tidy too (yaml::Input).
run typo_key -p . -config='{Chekcs: "-*,hotpath-*"}'
rc_is typo_key 2 "-config with an unknown key"
has_line typo_key err "hotpath-tidy: error: -config:1:2: malformed configuration: unknown key 'Chekcs'" "-config with an unknown key: named"
printf 'Checks: [\n' >"$work/bad.yaml"
run config_file -p . -config-file="$work/bad.yaml"
rc_is config_file 2 "malformed -config-file"
has_line config_file err "hotpath-tidy: error: $work/bad.yaml:1:10: malformed configuration: Could not find closing ]!" "malformed -config-file: named"
# -config without InheritParentConfig: the .clang-tidy files do not apply,
# as in clang-tidy (control).
printf 'CheckOptions:\n  ChainHeatThreshold: [5\n' >.clang-tidy
run config_stands_in -p . -config='{CheckOptions: {ChainHeatThreshold: 5}}'
rc_is config_stands_in 1 "control: -config stands in for a malformed .clang-tidy"
printf "$good_config" >.clang-tidy

# A misspelt option: one warning in every mode, however many TUs.
printf 'CheckOptions:\n  ChainHeatThreshold: 5\n  hotpath-check-split.RuleSte: cxx20\n' >.clang-tidy
typo="unknown option 'hotpath-check-split.RuleSte' is ignored: hotpath-check-split has no option 'RuleSte' (did you mean 'RuleSet'?) [clang-tidy-config]"
for m in "-p ." "--diff=HEAD -p ." "-p . --format=github" "--diff=HEAD -p . --format=sarif"; do
  # shellcheck disable=SC2086
  run typo $m
  rc_is typo 1 "misspelt option, $m (the finding decides)"
  has_line typo err "hotpath-tidy: warning: $typo" "misspelt option, $m: the warning"
  count_is typo err "RuleSte" 1 "misspelt option, $m: said once for 3 TUs"
done
run typo -p . --format=github
has_line typo out "::warning title=hotpath-tidy configuration::$typo" "misspelt option, GitHub: an annotation"
run typo --diff=HEAD -p . --format=sarif
python3 - "$work/typo.out" "$typo" <<'PY' && ok "misspelt option, --diff SARIF: one toolConfigurationNotification, level warning" || bad "misspelt option, SARIF"
import json, sys
inv = json.load(open(sys.argv[1]))["runs"][0]["invocations"][0]
assert inv["executionSuccessful"] is True, inv
assert inv["toolConfigurationNotifications"] == [{"level": "warning", "message": {"text": sys.argv[2]}}], inv
PY
run typo_strict --diff=HEAD -p . --strict
rc_is typo_strict 2 "misspelt option with --strict"
has_line typo_strict err "hotpath-tidy: error: $typo" "misspelt option with --strict: an error"
printf "$good_config" >.clang-tidy
run no_typo --diff=HEAD -p . --format=sarif
if [ -n "${HOTPATH_SARIF_SCHEMA:-}" ]; then
  python3 "$here/ci-sarif-required.py" "$work/typo.out" --results 1 >/dev/null &&
    ok "misspelt option, SARIF: valid against the schema" || bad "misspelt option SARIF: schema"
fi
python3 -c 'import json,sys; assert "toolConfigurationNotifications" not in json.load(open(sys.argv[1]))["runs"][0]["invocations"][0]' "$work/no_typo.out" &&
  ok "control: no misspelt option, no configuration notification" || bad "control: a notification without a typo"
# A value that does not parse: an error once, not one failure per TU.
run bad_value -p . -config='{CheckOptions: {ChainHeatThreshold: 5, hotpath-check-split.AssumeNoWrap: maybe}}'
rc_is bad_value 2 "an option value that does not parse"
has_line bad_value err "hotpath-tidy: error: hotpath-check-split: option AssumeNoWrap 'maybe' is not 'true' or 'false' [clang-tidy-config]" \
  "an option value that does not parse: said once"
count_is bad_value err "could not be analysed" 0 "an option value that does not parse: no failure per TU"

# --- 2. Patch mode input ---------------------------------------------------
git diff HEAD -- src | sed 's|^--- a/src|--- a/x/y/src|; s|^+++ b/src|+++ b/x/y/src|' >"$work/prefixed.diff"
run_stdin unmatched "$work/prefixed.diff" --diff=- -p .
rc_is unmatched 0 "a diff whose paths match nothing"
has_line unmatched err "hotpath-tidy: warning: --diff: the diff's path 'x/y/src/buf.c' matches no file under $repo nor in the compile database (--strip=N removes N leading components)" \
  "a diff whose paths match nothing: the paths named"
run_stdin unmatched_strict "$work/prefixed.diff" --diff=- -p . --strict
rc_is unmatched_strict 2 "a diff whose paths match nothing, --strict"
run_stdin stripped "$work/prefixed.diff" --diff=- -p . --strip=3
rc_is stripped 1 "--strip=3 on a/x/y/src/buf.c"
has_line stripped out "$finding" "--strip=3: the finding"
count_is stripped err "warning: --diff" 0 "--strip=3: no warning"
git diff HEAD -- src >"$work/git.diff"
run_stdin git_prefix "$work/git.diff" --diff=- -p .
rc_is git_prefix 1 "control: git's a/ b/ without --strip, as before"
count_is git_prefix err "warning: --diff" 0 "control: git's a/ b/, no warning"
run strip_rev --diff=HEAD -p . --strip=1
rc_is strip_rev 2 "--strip with a revision"
has_line strip_rev err "hotpath-tidy: error: --strip applies to a diff read from standard input (--diff=-): the paths of git's own diff are known (see --help)" \
  "--strip with a revision: why"

# --- 3. hotpath by default, -j with sources ------------------------------
cp src/buf.c src/unlisted.c
for m in "-p . src/unlisted.c" "-p . -j 2 src/unlisted.c" "-p . -j 2 src/buf.c" "-j 2 src/buf.c -- -std=c11 -Iinclude"; do
  # shellcheck disable=SC2086
  run default_checks $m
  count_is default_checks out "[hotpath-check-split]" 1 "$m: the hotpath finding"
  count_is default_checks out "[clang-analyzer" 0 "$m: no clang-analyzer finding"
done
run own_checks -checks='-*,clang-analyzer-security.*' src/buf.c -- -std=c11 -Iinclude
count_is own_checks out "[clang-analyzer-security" 2 "control: -checks says otherwise"
run unlisted_sarif -p . src/unlisted.c --format=sarif
rc_is unlisted_sarif 2 "a source the database does not list, with --format"
has_line unlisted_sarif err "hotpath-tidy: error: 'src/unlisted.c' is not in the compile database, so clang-tidy checks it on its own, and --format=sarif needs a run over the database" \
  "a source the database does not list, with --format: not dropped"
rm src/unlisted.c

# --- 5. Noise -----------------------------------------------------------
mkdir "$work/nogit"
cp -r src include compile_commands.json "$work/nogit/"
sed -i "s|$repo|$work/nogit|g" "$work/nogit/compile_commands.json"
repo_save=$repo repo=$work/nogit
run nogit --diff=origin/main -p .
repo=$repo_save
rc_is nogit 2 "--diff=origin/main outside a git work tree"
has_line nogit err "hotpath-tidy: error: --diff=origin/main needs a git work tree, and '$work/nogit' is not in a git repository (for any unified diff: --diff=- on standard input)" \
  "--diff=origin/main outside a git work tree: what failed"
lines_are nogit err 1 "--diff=origin/main outside a git work tree: one line"
run unknown_opt -p . --bogus
rc_is unknown_opt 2 "an unknown option"
lines_are unknown_opt err 1 "an unknown option: one line"
has_line unknown_opt err "hotpath-tidy: error: option '--bogus' is not supported in a run over the compile database (-p, --diff, --profile, --inline-remarks; see --help)" \
  "an unknown option: names it, see --help"

finish
