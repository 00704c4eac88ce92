#!/usr/bin/env bash
# The speed claim for hotpath-hook-gate, in callgrind instruction counts: on
# samples/slab-alloc with gcc and clang at -O2, the tool's own fix removes
# the share of what the empty hook costs that README.md claims, 0.750 with
# both compilers (gated within 0.005),
# (before - after) / (before - nohook), with the same output. Negative
# controls: shape-c (gate on entry with a visible gate variable), 0.500 with
# clang, which passed the old 0.5 gate, and shape-d (the same with a hidden
# atomic gate, the fix before the plain bool), 0.625, must fail.
# Usage: bench-slab-alloc-hook.sh CLANG_TIDY PLUGIN
set -euo pipefail
tidy=$1 plugin=$(realpath "$2")
here=$(cd "$(dirname "$0")" && pwd)
sample=$(cd "$here/../../samples/slab-alloc" && pwd)
readme=$here/../../README.md
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck source=lib.sh
source "$here/lib.sh"
"$sample/fix.sh" "$work/after" "$tidy" "$plugin" >/dev/null
OPS=${OPS:-300000} "$sample/bench.sh" "$work/bench" before="$sample" after="$work/after" \
  nohook="$sample/variants/nohook" shape-c="$sample/variants/shape-c" \
  shape-d="$sample/variants/shape-d" >/dev/null
table=$work/bench/table.txt
cat "$table"

claim=0.750
if claimed "$readme" "the gate removes $claim of the"; then ok "README.md claims $claim"; else bad "README.md figure"; fi
gate_report "the gate removes $(table_value "$table" gcc after ratio) (gcc), $(table_value "$table" clang-19 after ratio) (clang) of the hook's cost, as claimed; same output" \
  share_gate "$table" after gcc:$claim clang-19:$claim
expect_failure "shape-c, gate on entry with a visible gate variable" "clang-19: shape-c removes = 0.500" \
  share_gate "$table" shape-c gcc:$claim clang-19:$claim
expect_failure "shape-d, the hidden atomic gate" "clang-19: shape-d removes = 0.625" \
  share_gate "$table" shape-d gcc:$claim clang-19:$claim
finish
