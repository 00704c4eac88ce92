#!/usr/bin/env bash
# hotpath-tidy --profile, end to end, on a three-TU project with a folded
# profile: findings ordered by their function's share of samples (highest
# first, not file order), a cold check left out, in text, GitHub and SARIF;
# named sources only; the option merged into a user's -config, -config-file
# and .clang-tidy; a conflicting -config, a bad profile and a missing -p
# refused (exit 2, the reason on stderr); with --diff, ordered too.
# Usage: profile-order.sh HOTPATH_TIDY
set -euo pipefail
tidy=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "ok   $*"; }
bad() { failed=$((failed + 1)); echo "FAIL $*"; }
expect_rc() { # expect_rc WANT GOT WHAT
  if [ "$2" -eq "$1" ]; then ok "$3: exit $2"; else bad "$3: exit $2, expected $1"; fi
}
show() { echo "---- $1"; sed 's/^/    /' "$2"; echo "----"; }
g() { git -c user.name=t -c user.email=t@example.com "$@"; }
# The function names of the warnings, in output order.
order() { grep -o "warning: check function '[a-z_]*'" "$1" | sed "s/.*'\(.*\)'/\1/" | paste -sd' '; }
same_order() { # same_order WHAT WANT FILE
  local got; got=$(order "$3")
  if [ "$got" = "$2" ]; then ok "$1: $got"; else bad "$1: '$got', expected '$2'"; show "$1" "$3"; fi
}

p=$work/proj
mkdir -p "$p" && cd "$p"
printf '#include <stdbool.h>\nbool check_alpha(unsigned a, unsigned b);\nbool check_beta(unsigned a, unsigned b);\nbool check_gamma(unsigned a, unsigned b);\n' >checks.h
for n in alpha beta gamma; do
  cat >"$n.c" <<C
#include <stdio.h>
#include "checks.h"

bool check_$n(unsigned a, unsigned b)
{
	if (a > b) {
		fprintf(stderr, "$n: %u > %u\n", a, b);
		return false;
	}
	if (a + 1 > b) {
		fprintf(stderr, "$n: %u + 1 > %u\n", a, b);
		return false;
	}
	return true;
}
C
done
python3 - "$p" <<'PY'
import json, sys
d = sys.argv[1]
json.dump([{"directory": d, "file": "%s.c" % n,
            "arguments": ["cc", "-std=c11", "-c", "%s.c" % n, "-o", "%s.o" % n]}
           for n in ("alpha", "beta", "gamma")], open(d + "/compile_commands.json", "w"), indent=1)
PY
# 1000 samples: check_beta 30%, check_alpha 5%, check_gamma 0.1% (below the
# default threshold of 0.5%).
cat >prof.folded <<'F'
main;run;check_beta 300
main;run;check_alpha 50
main;run;check_gamma 1
main;run 649
F

run() { # run NAME WANT_RC ARGS...: output in $work/NAME.{out,err}
  local name=$1 want=$2; shift 2
  set +e
  "$tidy" "$@" >"$work/$name.out" 2>"$work/$name.err"; local rc=$?
  set -e
  expect_rc "$want" $rc "$name"
}

# 1. All TUs of the database: beta (30%) before alpha (5%), gamma cold.
run all 1 --profile=prof.folded -p .
show "hotpath-tidy --profile=prof.folded -p ." "$work/all.out"
same_order "all: by share of samples" "check_beta check_alpha" "$work/all.out"
grep -qF "note: 'check_beta' is hot: 30.0% of samples removable (inclusive) in 'prof.folded'" "$work/all.out" &&
  ok "all: the note says the share" || bad "all: no share in the note"

# 2. The other formats, same order.
run github 1 --profile=prof.folded -p . --format=github
got=$(grep -o "::warning file=[a-z]*\.c" "$work/github.out" | sed 's/.*=//' | paste -sd' ')
[ "$got" = "beta.c alpha.c" ] && ok "github: $got" || { bad "github: '$got'"; show github "$work/github.out"; }
run sarif 1 --profile=prof.folded -p . --format=sarif
got=$(python3 -c 'import json,sys; print(" ".join(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in json.load(open(sys.argv[1]))["runs"][0]["results"]))' "$work/sarif.out")
[ "$got" = "beta.c alpha.c" ] && ok "sarif: $got" || { bad "sarif: '$got'"; show sarif "$work/sarif.out"; }

# 3. Named sources only.
run named 1 --profile=prof.folded -p . gamma.c alpha.c
same_order "named sources" "check_alpha" "$work/named.out"
run not-in-db 2 --profile=prof.folded -p . nope.c
grep -qF "'nope.c' is not in the compilation database" "$work/not-in-db.err" && ok "not-in-db: says so" || { bad "not-in-db message"; show err "$work/not-in-db.err"; }

# 4. Merged with the user's configuration: a lower threshold brings gamma in, last.
run config 1 --profile=prof.folded -p . -config="{CheckOptions: {hotpath-check-split.ProfileThreshold: '0.05'}}"
same_order "-config merged" "check_beta check_alpha check_gamma" "$work/config.out"
printf 'CheckOptions:\n  hotpath-check-split.ProfileThreshold: "0.05"\n' >"$work/cfg.yaml"
run config-file 1 --profile=prof.folded -p . -config-file="$work/cfg.yaml"
same_order "-config-file merged" "check_beta check_alpha check_gamma" "$work/config-file.out"
printf 'Checks: "-*,hotpath-*"\nCheckOptions:\n  hotpath-check-split.ProfileThreshold: "0.05"\n' >.clang-tidy
run dot-clang-tidy 1 --profile=prof.folded -p .
same_order ".clang-tidy still read" "check_beta check_alpha check_gamma" "$work/dot-clang-tidy.out"
rm .clang-tidy
run conflict 2 --profile=prof.folded -p . -config="{CheckOptions: {hotpath-check-split.Profile: other.txt}}"
grep -qF "sets hotpath-check-split.Profile to 'other.txt', and the command line to '$p/prof.folded': give it once" "$work/conflict.err" &&
  ok "conflict: says so" || { bad "conflict message"; show err "$work/conflict.err"; }
[ ! -s "$work/conflict.out" ] && ok "conflict: no findings printed" || bad "conflict: output"

# 5. Bad input: the checks' own message, exit 2, nothing on stdout.
printf 'main;a;b 10\nmain;c\n' >bad.folded
run bad-profile 2 --profile=bad.folded -p .
grep -qF "profile '$p/bad.folded': line 2: expected 'frame;frame;... COUNT' (folded stacks)" "$work/bad-profile.err" &&
  ok "bad profile: file and line" || { bad "bad profile message"; show err "$work/bad-profile.err"; }
printf 'main;a 1\n\x00\x01' >bin.folded
run binary-profile 2 --profile=bin.folded -p .
grep -qF "not a text profile" "$work/binary-profile.err" && ok "binary profile: says so" || bad "binary profile message"
run no-p 2 --profile=prof.folded alpha.c
grep -qF -- "--profile needs -p <build-dir>" "$work/no-p.err" && ok "no -p: says so" || bad "no -p message"
run fix 2 --diff=HEAD --profile=prof.folded -p . --fix
grep -qF -- "--fix-patch=<file>" "$work/fix.err" && ok "--diff --fix: points to --fix-patch" || bad "--fix message"

# 6. With --diff, only the changed functions, still by share.
g init -q && g add checks.h gamma.c compile_commands.json prof.folded && g commit -qm base
g add -N alpha.c beta.c
run diff 1 --diff=HEAD --profile=prof.folded -p .
same_order "--diff --profile" "check_beta check_alpha" "$work/diff.out"
run fix-patch 1 --profile=prof.folded -p . --fix-patch="$work/fixes.diff"
git apply --check "$work/fixes.diff" && ok "--fix-patch: applies" || bad "--fix-patch does not apply"

# 7. --fix applies what the profile shows hot, once; a second run finds nothing.
run fix 1 --profile=prof.folded -p . --fix
grep -qF "applied the fixes of 2 findings to 3 files" "$work/fix.err" && ok "--fix: says what it applied" ||
  { bad "--fix message"; show err "$work/fix.err"; }
grep -q check_beta_report beta.c && grep -q check_alpha_report alpha.c && ! grep -q check_gamma_report gamma.c &&
  ok "--fix: beta and alpha split, gamma (cold) left" || bad "--fix: files"
run fix-again 0 --profile=prof.folded -p . --fix

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
