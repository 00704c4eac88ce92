#!/usr/bin/env bash
# What the index and the result cache save on a whole project, as CI sees it:
# a first whole-project run, an unchanged second run, a run after a .c edit
# and one after a header edit, each with its CPU time (user + sys of the
# run and its children) and the TUs it parsed (the run's summary line).
#
# Usage: scripts/project-scale.sh BUILD_DIR SOURCE.c HEADER.h [HOTPATH_TIDY]
#   BUILD_DIR  where compile_commands.json is (the project's top must be a
#              git work tree: the edits are undone with git checkout)
#   SOURCE.c   a TU to edit; HEADER.h a header some TUs include
# The index and cache directories of BUILD_DIR are removed first, so that
# the first run is a cold one. Prints one table row per run.
set -euo pipefail
build=$(realpath "${1:?usage: project-scale.sh BUILD_DIR SOURCE.c HEADER.h [HOTPATH_TIDY]}")
src=$(realpath "${2:?a .c file to edit}") hdr=$(realpath "${3:?a header to edit}")
tidy=${4:-$(cd "$(dirname "$0")/.." && pwd)/build/plugin/hotpath-tidy}
[ -f "$build/compile_commands.json" ] || { echo "project-scale.sh: no compile_commands.json in $build" >&2; exit 2; }
top=$(git -C "$(dirname "$src")" rev-parse --show-toplevel)
git -C "$top" diff --quiet -- "$src" "$hdr" ||
  { echo "project-scale.sh: $src or $hdr has uncommitted changes; the script edits and restores them" >&2; exit 2; }
trap 'git -C "$top" checkout -q -- "$src" "$hdr"' EXIT
rm -rf "$build/hotpath-index" "$build/hotpath-cache"
out=$(mktemp -d)
jobs=${HOTPATH_JOBS:-2}
first_cpu=
run() { # LABEL
  local label=$1 rc=0
  /usr/bin/time -f '%U %S %e' -o "$out/time" "$tidy" -p "$build" -j "$jobs" >"$out/$label.out" 2>"$out/$label.err" || rc=$?
  [ $rc -le 1 ] || { echo "project-scale.sh: $label: exit $rc" >&2; tail -20 "$out/$label.err" >&2; exit 1; }
  read -r user sys wall <"$out/time"
  local cpu summary findings
  cpu=$(echo "$user + $sys" | bc)
  [ -n "$first_cpu" ] || first_cpu=$cpu
  summary=$(sed -n 's/^hotpath-tidy: \([0-9]* TUs\{0,1\} checked: .*\)$/\1/p' "$out/$label.err" | tail -1)
  findings=$(grep -c ': warning: ' "$out/$label.out" || true)
  printf '| %s | %.1f s | %.1f s | %.2f | %s | %s |\n' "$label" "$cpu" "$wall" \
    "$(echo "$cpu / $first_cpu" | bc -l)" "${summary:-?}" "$findings"
}
echo "| run | CPU (user+sys) | wall | CPU / first run | TUs | warnings |"
echo "| --- | --- | --- | --- | --- | --- |"
run first
run unchanged
printf '\n/* project-scale.sh: an edit */\n' >>"$src"
run "edit-$(basename "$src")"
printf '\n/* project-scale.sh: an edit */\n' >>"$hdr"
run "edit-$(basename "$hdr")"
rm -rf "$out"
