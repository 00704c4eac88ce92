# shellcheck shell=bash
# Shared by the end-to-end tests (source it after `set -euo pipefail` and
# after setting $work): pass/fail counters, the behaviour comparison, the
# second-run check, and negative controls that prove a check can fail.
#
# Each check function below is silent and returns 0 when the check holds;
# otherwise it prints why and returns 1. A test calls it as
#   if same_behaviour A B args; then ok "..."; else bad "..."; fi
# and a negative control runs the same function on a broken input with
#   expect_failure "what is broken" "message it must print" same_behaviour ...

passed=0 failed=0
ok() { passed=$((passed + 1)); echo "ok   $*"; }
bad() { failed=$((failed + 1)); echo "FAIL $*"; }
finish() { echo "$passed passed, $failed failed"; [ "$failed" -eq 0 ]; }

# run_captured OUT PROG ARGS...: runs PROG (60 s at most, no core file, as
# argv[0] "prog" so that two builds print the same usage line) with stdout,
# stderr and the exit status in OUT.out, OUT.err, OUT.rc. Never fails itself.
run_captured() {
  local o=$1 rc=0
  shift
  # The braces keep bash's "Aborted" notice of a crashing PROG off the log.
  { (ulimit -c 0; timeout 60 bash -c 'exec -a prog "$@"' _ "$@") >"$o.out" 2>"$o.err"; } 2>/dev/null ||
    rc=$?
  echo "$rc" >"$o.rc"
}

# same_behaviour PROG_A PROG_B ARGS...: A and B give the same stdout, the same
# stderr and the same exit status on ARGS. The runs are left in $work/beh/a.*
# and $work/beh/b.* (for counting reports).
same_behaviour() {
  local a=$1 b=$2 d=$work/beh why=()
  shift 2
  mkdir -p "$d"
  run_captured "$d/a" "$a" "$@"
  run_captured "$d/b" "$b" "$@"
  grep -qx 124 "$d/a.rc" "$d/b.rc" && why+=("timed out (60 s)")
  cmp -s "$d/a.rc" "$d/b.rc" || why+=("exit status $(cat "$d/a.rc") vs $(cat "$d/b.rc")")
  cmp -s "$d/a.out" "$d/b.out" || why+=("stdout differs")
  cmp -s "$d/a.err" "$d/b.err" || why+=("stderr differs")
  [ "${#why[@]}" -eq 0 ] && return 0
  local IFS=';'
  echo "  $(basename "$a") vs $(basename "$b") on '$*': ${why[*]}"
  diff "$d/a.out" "$d/b.out" | head -4 | sed 's/^/    stdout /'
  diff "$d/a.err" "$d/b.err" | head -4 | sed 's/^/    stderr /'
  return 1
}

# same_behaviour_on LABEL PROG_A PROG_B INPUT...: same_behaviour on each INPUT
# (a word list, split), one ok or FAIL line each, the exit status in the ok.
same_behaviour_on() {
  local label=$1 a=$2 b=$3 in
  shift 3
  for in in "$@"; do
    # shellcheck disable=SC2086
    if same_behaviour "$a" "$b" $in; then
      ok "$label '$in': same stdout, stderr, exit $(cat "$work/beh/a.rc")"
    else
      bad "$label '$in': behaviour differs"
    fi
  done
}

# second_run_clean DIR LOG CMD...: CMD (a --fix run) in DIR on already fixed
# code exits 0, reports no finding and no error, and changes no file. The
# exit status matters: a crash or a compile error also changes nothing.
second_run_clean() {
  local dir=$1 log=$2 rc=0 why=()
  shift 2
  rm -rf "$dir.snapshot"
  cp -r "$dir" "$dir.snapshot"
  (cd "$dir" && ulimit -c 0 && timeout 300 "$@") >"$log" 2>&1 || rc=$?
  [ "$rc" = 0 ] || why+=("exit status $rc")
  grep -q 'warning: .*\[hotpath-' "$log" && why+=("a finding")
  grep -q 'error: ' "$log" && why+=("an error")
  diff -r "$dir.snapshot" "$dir" >/dev/null || why+=("files changed")
  rm -rf "$dir.snapshot"
  [ "${#why[@]}" -eq 0 ] && return 0
  local IFS=';'
  echo "  second run: ${why[*]}"
  grep -E 'warning: |error: |Stack dump' "$log" | head -5 | sed 's/^/    /'
  return 1
}

# expect_failure WHAT WANT CMD...: a negative control. CMD, a check function
# run on a deliberately broken input (WHAT), must fail and say WANT.
expect_failure() {
  local what=$1 want=$2 out rc=0
  shift 2
  out=$("$@" 2>&1) || rc=$?
  if [ "$rc" != 0 ] && grep -qF -- "$want" <<<"$out"; then
    ok "control: $what -> fails ('$want')"
  else
    bad "control: $what: the check did not fail with '$want' (exit $rc)"
    sed 's/^/    /' <<<"$out" | head -10
  fi
}

# fake_tool PATH EXIT: a stand-in for clang-tidy or a compiler that prints
# a crash report and exits EXIT (139: as if killed by SIGSEGV).
fake_tool() {
  printf '#!/bin/sh\necho "PLEASE submit a bug report (a fake tool: negative control)" >&2\nexit %d\n' "$2" >"$1"
  chmod +x "$1"
}

# table_value TABLE COMPILER VARIANT COLUMN: one cell of a bench-variants.sh
# table (samples/*/bench.sh), by the column's header; empty when absent.
table_value() {
  awk -v cc="$2" -v v="$3" -v col="$4" '
    NR == 1 { for (i = 1; i <= NF; i++) if ($i == col) c = i; next }
    $1 == cc && $2 == v && c { print $c }' "$1"
}

# at_least WHAT VALUE MIN / at_most WHAT VALUE MAX / near WHAT VALUE WANT TOL:
# a measured figure against the figure claimed for it.
at_least() {
  awk -v x="$2" -v m="$3" 'BEGIN { exit !(x != "" && x != "-" && x + 0 >= m + 0) }' && return 0
  echo "  $1 = ${2:-nothing}, wanted >= $3"; return 1
}
at_most() {
  awk -v x="$2" -v m="$3" 'BEGIN { exit !(x != "" && x != "-" && x + 0 <= m + 0) }' && return 0
  echo "  $1 = ${2:-nothing}, wanted <= $3"; return 1
}
near() {
  awk -v x="$2" -v w="$3" -v t="$4" 'BEGIN { d = x - w; exit !(x != "" && x != "-" && d <= t + 0 && -d <= t + 0) }' &&
    return 0
  echo "  $1 = ${2:-nothing}, wanted $3 +- $4"; return 1
}

# claimed FILE TEXT: the document states the figure the gate holds it to, so
# a figure changed in one place and not the other fails.
claimed() {
  grep -qF -- "$2" "$1" && return 0
  echo "  $(basename "$1") no longer says '$2': update the gate and the document together"; return 1
}

# share_gate TABLE VARIANT CC:CLAIM...: in a bench-variants.sh table, VARIANT
# removes at least CLAIM - 0.005 of the cost (the ratio column) with each
# compiler CC, and gives the same output as "before".
share_gate() {
  local table=$1 v=$2 c cc rc=0
  shift 2
  for c in "$@"; do
    cc=${c%%:*}
    at_least "$cc: $v removes" "$(table_value "$table" "$cc" "$v" ratio)" \
      "$(awk -v w="${c#*:}" 'BEGIN { print w - 0.005 }')" || rc=1
    [ "$(table_value "$table" "$cc" "$v" func)" = same ] || { echo "  $cc: $v output differs from before"; rc=1; }
  done
  return $rc
}

# gate_report WHAT GATE ARGS...: ok when the gate holds for the fix, else the
# reasons.
gate_report() {
  local what=$1 out
  shift
  if out=$("$@"); then ok "$what"; else bad "$what: no"; echo "$out"; fi
}

# fewer_instructions BEFORE AFTER FLOOR_PROG FLOOR: callgrind counts of the
# three builds on one workload (IR_ARGS); AFTER below BEFORE, and the share
# of the cost removed, (before - after) / (before - floor), at least FLOOR.
fewer_instructions() {
  local b a n share
  b=$(ir "$1") a=$(ir "$2") n=$(ir "$3")
  share=$(awk -v b="$b" -v a="$a" -v n="$n" 'BEGIN { printf "%.3f", (b - a) / (b - n) }')
  echo "Ir before $b, after $a, floor $n: after/before $(awk -v b="$b" -v a="$a" 'BEGIN { printf "%.3f", a / b }'), share removed $share"
  [ "$a" -lt "$b" ] || { echo "  after ($a) is not below before ($b)"; return 1; }
  at_least "share removed" "$share" "$4"
}
# ir PROG: callgrind's instruction count of PROG on IR_ARGS.
ir() {
  # shellcheck disable=SC2086
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" ${IR_ARGS:-} >/dev/null 2>"$work/cg.err"
  sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$work/cg.err"
}

# slow_project DIR: 40 TUs of 40 small functions each in DIR/src, and
# DIR/compile_commands.json: a run with -j 2 takes a few seconds, long
# enough to interrupt it while it checks.
slow_project() {
  local i k
  mkdir -p "$1/src"
  for i in $(seq 1 40); do
    {
      echo '#include <stdio.h>'
      for k in $(seq 1 40); do
        echo "int f${i}_$k(int x) { int s = 0; for (int j = 0; j < x; j++) s += j * $k; if (s > 100) printf(\"%d\", s); return s; }"
      done
    } >"$1/src/t$i.c"
  done
  python3 - "$1" <<'PY'
import glob, json, sys
d = sys.argv[1]
json.dump([{"directory": d, "file": f, "arguments": ["cc", "-std=c11", "-c", f]}
           for f in sorted(glob.glob(d + "/src/*.c"))], open(d + "/compile_commands.json", "w"))
PY
}

# The driver runs of a test: run DIR NAME ARGS... runs $ht in DIR with ARGS,
# its output in $work/NAME.{out,err,rc}; the others judge them.
run() {
  local dir=$1 name=$2 rc=0
  shift 2
  (cd "$dir" && ulimit -c 0 && timeout 300 "$ht" "$@") >"$work/$name.out" 2>"$work/$name.err" || rc=$?
  echo "$rc" >"$work/$name.rc"
}
rc_is() { # NAME WANT LABEL
  local got
  got=$(cat "$work/$1.rc")
  if [ "$got" = "$2" ]; then ok "$3: exit $2"; else bad "$3: exit $got, expected $2"; sed 's/^/    /' "$work/$1.err" | head -20; fi
}
has_line() { # NAME STREAM LINE LABEL: LINE is exactly one line of the stream
  if grep -q -x -F -- "$3" "$work/$1.$2"; then ok "$4"; else
    bad "$4"; echo "    expected line: $3"; sed 's/^/    got: /' "$work/$1.$2" | head -20; fi
}
no_line() { # NAME STREAM ERE LABEL: no line of the stream matches ERE
  if ! grep -q -E -- "$3" "$work/$1.$2"; then ok "$4"; else
    bad "$4"; grep -E -- "$3" "$work/$1.$2" | sed 's/^/    got: /'; fi
}
