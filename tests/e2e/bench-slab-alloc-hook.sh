#!/usr/bin/env bash
# The speed claims for hotpath-hook-gate, in callgrind instruction counts: on
# samples/slab-alloc with gcc and clang at -O2, the share of what the empty
# hook costs that each shape of the tool's own fix removes,
# (before - after) / (before - nohook), with the same output, as README.md
# and docs/checks/hotpath-hook-gate.md claim (gated within 0.005):
#   after  the default, `if (gate() && hook(...))` at the call:
#          0.750 with gcc, 0.375 with clang (which keeps the stack frame the
#          call needs on the fast path);
#   clone  CloneCallers (CLONE=1 fix.sh): the caller tests the gate on entry
#          and tail-calls a cold copy of itself: 0.750 with both.
# Negative controls: shape-a (the call-site gate with an atomic flag) removes
# 0.125 with clang and must fail the default's gate; shape-c (gate on entry,
# a visible gate variable) 0.500 with clang, and shape-d (the same with a
# hidden atomic gate) 0.625, must fail the clone's.
# Usage: bench-slab-alloc-hook.sh CLANG_TIDY PLUGIN
set -euo pipefail
tidy=$1 plugin=$(realpath "$2")
here=$(cd "$(dirname "$0")" && pwd)
sample=$(cd "$here/../../samples/slab-alloc" && pwd)
readme=$here/../../README.md
doc=$here/../../docs/checks/hotpath-hook-gate.md
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck source=lib.sh
source "$here/lib.sh"
"$sample/fix.sh" "$work/after" "$tidy" "$plugin" >/dev/null
CLONE=1 "$sample/fix.sh" "$work/clone" "$tidy" "$plugin" >/dev/null
if grep -q '_hooked' "$work/after/slab.c" || ! grep -q 'kmem_cache_alloc_hooked' "$work/clone/slab.c"; then
  bad "the default fix clones, or CLONE=1 does not"
else
  ok "the default fix gates at the call; CloneCallers clones"
fi
OPS=${OPS:-300000} "$sample/bench.sh" "$work/bench" before="$sample" after="$work/after" \
  clone="$work/clone" nohook="$sample/variants/nohook" shape-a="$sample/variants/shape-a" \
  shape-c="$sample/variants/shape-c" shape-d="$sample/variants/shape-d" >/dev/null
table=$work/bench/table.txt
cat "$table"

gcc_claim=0.750 clang_claim=0.375 clone_claim=0.750
for f in "$readme" "$doc"; do
  if claimed "$f" "removes $gcc_claim of the hook's cost with gcc and $clang_claim with clang" &&
     claimed "$f" "$clone_claim with both"; then
    ok "$(basename "$f") claims $gcc_claim / $clang_claim, and $clone_claim cloned"
  else
    bad "$(basename "$f") figures"
  fi
done
gate_report "the default fix removes $(table_value "$table" gcc after ratio) (gcc), $(table_value "$table" clang-19 after ratio) (clang) of the hook's cost, as claimed; same output" \
  share_gate "$table" after gcc:$gcc_claim clang-19:$clang_claim
gate_report "the clone removes $(table_value "$table" gcc clone ratio) (gcc), $(table_value "$table" clang-19 clone ratio) (clang), as claimed; same output" \
  share_gate "$table" clone gcc:$clone_claim clang-19:$clone_claim
expect_failure "shape-a, the call-site gate with an atomic flag" "clang-19: shape-a removes = 0.125" \
  share_gate "$table" shape-a gcc:$gcc_claim clang-19:$clang_claim
expect_failure "shape-c, gate on entry with a visible gate variable" "clang-19: shape-c removes = 0.500" \
  share_gate "$table" shape-c gcc:$clone_claim clang-19:$clone_claim
expect_failure "shape-d, the hidden atomic gate" "clang-19: shape-d removes = 0.625" \
  share_gate "$table" shape-d gcc:$clone_claim clang-19:$clone_claim
finish
