#!/usr/bin/env bash
# A run stopped by SIGINT or SIGTERM (Ctrl-C, a CI job's timeout) leaves no
# temporary file in $TMPDIR and no child process, and exits 130 or 143 with
# one line saying so (issue 24). The negative control kills a run with
# SIGKILL, which nothing can catch: its temporary files stay, so the check
# for leftovers can fail.
# Usage: interrupt.sh HOTPATH_TIDY
set -euo pipefail
ht=$(realpath "$1")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
# Job control: a background job of a script otherwise ignores SIGINT.
set -m

# 40 TUs of 40 small functions each: a run with -j 2 takes a few seconds.
proj=$work/proj
slow_project "$proj"

# interrupt NAME SIGNAL: starts a run with TMPDIR a fresh directory, waits
# until its check runs have started (their files appear there), sends
# SIGNAL, and waits for it; $work/NAME.{err,rc}, $work/NAME.tmp the TMPDIR.
interrupt() {
  local name=$1 sig=$2 pid rc=0 i
  mkdir "$work/$name.tmp"
  (cd "$proj" && TMPDIR=$work/$name.tmp exec "$ht" -p . -j 2 --no-index) >/dev/null 2>"$work/$name.err" &
  pid=$!
  for i in $(seq 1 200); do
    [ -n "$(ls -A "$work/$name.tmp")" ] && break
    sleep 0.05
  done
  sleep 0.5
  kill "-$sig" "$pid"
  wait "$pid" || rc=$?
  echo "$rc" >"$work/$name.rc"
}
leftovers() { # NAME: the files left in its TMPDIR, and the children still running
  local left
  left=$(ls -A "$work/$1.tmp")
  [ -z "$left" ] || echo "  left in TMPDIR: $left"
  if pgrep -f -- "-p=. .*$proj/src" >/dev/null; then echo "  a check run is still running"; fi
  [ -z "$left" ]
}

interrupt int INT
[ "$(cat "$work/int.rc")" = 130 ] && ok "SIGINT: exit 130" || bad "SIGINT: exit $(cat "$work/int.rc"), expected 130"
if grep -q -x -E "hotpath-tidy: interrupted by SIGINT: [0-9]+ child process(es)? stopped, temporary files removed" "$work/int.err"; then
  ok "SIGINT: one line says so"
else
  bad "SIGINT: message"; sed 's/^/    /' "$work/int.err"
fi
leftovers int && ok "SIGINT: no temporary file, no child left" || bad "SIGINT: leftovers"

interrupt term TERM
[ "$(cat "$work/term.rc")" = 143 ] && ok "SIGTERM: exit 143" || bad "SIGTERM: exit $(cat "$work/term.rc"), expected 143"
grep -q "^hotpath-tidy: interrupted by SIGTERM: " "$work/term.err" && ok "SIGTERM: said" || bad "SIGTERM: message"
leftovers term && ok "SIGTERM: no temporary file, no child left" || bad "SIGTERM: leftovers"

# The control: SIGKILL cannot be caught, the files stay.
interrupt kill KILL
sleep 0.5
expect_failure "a run killed by SIGKILL" "left in TMPDIR" leftovers kill
# Its orphaned check runs end with their TU; wait for them before cleaning up.
for i in $(seq 1 200); do
  pgrep -f -- "-p=. .*$proj/src" >/dev/null || break
  sleep 0.1
done
finish
