#!/usr/bin/env bash
# Makes the "after" variant: a copy of this sample fixed by the tool itself.
# usage: fix.sh OUTDIR [CLANG_TIDY [PLUGIN]]   (findings go to stdout)
# With PLUGIN empty, CLANG_TIDY is taken to be hotpath-tidy (checks built in).
# FIX_CC and FIX_CFLAGS: the compile command to fix for (../fix-command.sh).
# LANG_ARGS (default -std=c11) selects the language: "-x c++ -std=c++17" fixes
# the C++ variant (the same sources compiled as C++).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=$1 tidy=${2:-clang-tidy-19} plugin=${3:-}
read -r -a lang <<<"${LANG_ARGS:--std=c11}"
rm -rf "$out"
mkdir -p "$out"
cp "$here"/*.c "$here"/*.h "$out"/
load=()
[ -n "$plugin" ] && load=(--load="$(realpath "$plugin")")
# should_fail_alloc() is defined in fault.c: slab.c, which calls it, cannot
# see its body, so the hook is named (with the value it returns while it
# does nothing), as the linux-kernel rule set names should_failslab(), with
# what switches it on (fault_inject_setup(), which must then call the new
# gate's setter). CLONE=1 asks for the clone shape (CloneCallers).
config='{Checks: "-*,hotpath-*", CheckOptions: [{key: hotpath-hook-gate.HookFunctions, value: "should_fail_alloc=false"}, {key: hotpath-hook-gate.HookEnablers, value: "should_fail_alloc=fault_inject_setup()"}]}'
[ "${CLONE:-0}" = 1 ] && config=${config%]\}}', {key: hotpath-hook-gate.CloneCallers, value: "true"}]}'
cd "$out"
# shellcheck source=../fix-command.sh
source "$here/../fix-command.sh"
fix_inputs "${lang[@]}" -- slab.c fault.c main.c
"$tidy" "${load[@]}" --config="$config" --fix "${tidy_inputs[@]}" 2>/dev/null |
  grep -E '^[^ ].*: (warning|note|error): ' | grep -v 'FIX-IT applied' | sed "s|$out/||"
