#!/usr/bin/env bash
# End to end on samples/extent-buffer: the real clang-tidy with the module
# fixes a copy of the sample; the fixed program must compile with
# -Wall -Wextra -Werror under gcc and clang and give the same stdout, stderr
# and exit status as the original on the same inputs (inputs that make each
# of the check's two reports fire, and inputs that make the program fail);
# in the linked binary, each accessor's fast path must reach no out-of-line
# check and have exactly one conditional branch more than the build without
# the check (the unfixed build, run through the same check, must fail it);
# a second --fix must exit 0, find nothing and change nothing.
# Usage: sample-extent-buffer.sh CLANG_TIDY PLUGIN
set -euo pipefail
tidy=$1 plugin=$(realpath "$2")
here=$(cd "$(dirname "$0")" && pwd)
sample="$here/../../samples/extent-buffer"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck source=lib.sh
source "$here/lib.sh"

srcs=(check.c accessors.c main.c)
cp -r "$sample" "$work/before"
cp -r "$sample" "$work/after"
cp -r "$sample" "$work/nocheck" && cp "$sample"/variants/nocheck/* "$work/nocheck/"
(cd "$work/after" && "$tidy" --load="$plugin" -checks='-*,hotpath-*' --fix "${srcs[@]}" -- -std=c11) \
  >"$work/tidy.out" 2>&1 || { cat "$work/tidy.out"; bad "clang-tidy --fix failed"; }

# The finding, exactly.
want="check.c:5:6: warning: check function 'check_setget_bounds' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]"
if grep -q -F "$want" "$work/tidy.out"; then ok "finding reported"; else bad "finding missing"; cat "$work/tidy.out"; fi
if grep -q -F "static inline bool check_setget_bounds(" "$work/after/extent_buffer.h" &&
   grep -q -F "bool check_setget_bounds_report(const struct extent_buffer *eb" "$work/after/check.c"; then
  ok "fast path in the header, slow path in check.c"
else
  bad "fix not where expected"; diff -u "$work/before/extent_buffer.h" "$work/after/extent_buffer.h" || true
fi

build() { # dir cc out
  (cd "$1" && "$2" -std=c11 -O2 -Wall -Wextra -Werror -o "$3" "${srcs[@]}")
}
# inputs_fire PROG RUNS...: the runs make both of the check's reports fire
# and at least two of them exit non-zero.
inputs_fire() {
  local prog=$1 args starts=0 ends=0 failing=0
  shift
  for args in "$@"; do
    # shellcheck disable=SC2086
    run_captured "$work/cov" "$prog" $args
    starts=$((starts + $(grep -c '^bad eb member start' "$work/cov.err" || true)))
    ends=$((ends + $(grep -c '^bad eb member end' "$work/cov.err" || true)))
    [ "$(cat "$work/cov.rc")" = 0 ] || failing=$((failing + 1))
  done
  if [ "$starts" -gt 0 ] && [ "$ends" -gt 0 ] && [ "$failing" -ge 2 ]; then
    echo "inputs fired both reports ($starts start, $ends end) and $failing runs exited non-zero"
  else
    echo "inputs too weak: $starts start reports, $ends end reports, $failing failing runs"; return 1
  fi
}
accessors=(get_u8 get_u16 get_u32 get_u64 set_u8 set_u16 set_u32 set_u64)
fastpath() { # binary cc func
  python3 "$here/fastpath.py" "$1" "$3" --baseline "$work/nocheck-$2" --plus 1 \
    --slow check_setget_bounds_report --forbid check_setget_bounds
}
for cc in gcc clang-19; do
  if build "$work/before" "$cc" "$work/before-$cc" && build "$work/after" "$cc" "$work/after-$cc" &&
     build "$work/nocheck" "$cc" "$work/nocheck-$cc"; then
    ok "original and fixed compile with $cc -Wall -Wextra -Werror"
  else
    bad "compile with $cc"; continue
  fi
  # Same stdout, stderr and exit status on the same inputs: random workloads
  # with out-of-bounds offsets, the differential input files, the edges, and
  # runs that fail (missing input file: exit 1; no file named: exit 2).
  runs=("200000 1 0" "200000 7 97" "50000 3 5")
  for seed in 1 2 3 4 5; do
    python3 "$here/gen_extent_inputs.py" "$seed" 3000 >"$work/in-$seed.txt"
    runs+=("--inputs $work/in-$seed.txt")
  done
  cp "$sample/inputs/edges.txt" "$work/"
  runs+=("--inputs $work/edges.txt" "--inputs $work/no-such-input.txt" "--inputs")
  for args in "${runs[@]}"; do
    # shellcheck disable=SC2086
    if same_behaviour "$work/before-$cc" "$work/after-$cc" $args; then
      ok "$cc '${args//$work\//}': same stdout, stderr ($(wc -l <"$work/beh/a.err") lines), exit $(cat "$work/beh/a.rc")"
    else
      bad "$cc '${args//$work\//}': behaviour differs"
    fi
  done
  # The comparison means something only if the inputs made each report fire.
  if out=$(inputs_fire "$work/before-$cc" "${runs[@]}"); then ok "$cc: $out"; else bad "$cc: $out"; fi
  if [ "$cc" = gcc ]; then  # negative control: in-bounds work alone fires nothing
    expect_failure "in-bounds workloads only" "inputs too weak: 0 start reports" inputs_fire "$work/before-$cc" "200000 1 0"
  fi

  # The fast path of each accessor in the linked binary.
  for fn in "${accessors[@]}"; do
    if r=$(fastpath "$work/after-$cc" "$cc" "$fn"); then ok "$cc ${r#ok }"; else bad "$cc ${r#FAIL }"; fi
  done
  # Negative control: the unfixed accessors call the check out of line, so
  # their path has its two branches too.
  expect_failure "$cc unfixed get_u32" "reaches check_setget_bounds" fastpath "$work/before-$cc" "$cc" get_u32
done

# The real perf profiles of this sample name the check's share of samples.
for prof in perf-report.txt:"17.5% of self samples of its space (user or kernel) in 'perf-report.txt'" folded.txt:"17.4% of samples removable (inclusive) in 'folded.txt'"; do
  file=${prof%%:*} want=${prof#*:} rc=0
  out=$(cd "$work/before" && "$tidy" --load="$plugin" -checks='-*,hotpath-*' \
        -config="{CheckOptions: [{key: hotpath-check-split.Profile, value: $sample/profile/$file}]}" check.c -- -std=c11 2>&1) || rc=$?
  if [ "$rc" = 0 ] && grep -qF "note: 'check_setget_bounds' is hot: $want" <<<"$out"; then ok "profile $file: $want"
  else bad "profile $file (exit $rc)"; echo "$out" | grep -E 'note|error'; fi
done

# Both together, through hotpath-tidy (built beside the module), give the note
# README.md and docs/profile.md show.
binary=$(dirname "$plugin")/hotpath-tidy
python3 - "$work/before" <<'PY'
import json, sys
d = sys.argv[1]
json.dump([{"directory": d, "file": f, "arguments": ["cc", "-O2", "-std=c11", "-c", f]}
           for f in ("check.c", "accessors.c", "main.c")], open(d + "/compile_commands.json", "w"))
PY
want="check.c:5:6: note: 'check_setget_bounds' is hot: 17.5% of self samples of its space (user or kernel) in 'perf-report.txt', 4 of 4 call sites not inlined; called from 8 macro-generated accessors in accessors.c"
rc=0
out=$(cd "$work/before" && "$binary" --profile=profile/perf-report.txt --inline-remarks -p . 2>&1) || rc=$?
if [ "$rc" = 1 ] && grep -qxF "$want" <<<"$out" && claimed "$here/../../docs/profile.md" "4 of 4 call sites not"; then
  ok "profile + inline remarks: the documented note, exit 1 (findings)"
else
  bad "profile + inline remarks (exit $rc)"; echo "$out" | grep -E 'note|error'
fi
rm "$work/before/compile_commands.json"

# Idempotent: a second run exits 0, finds nothing and changes nothing.
if second_run_clean "$work/after" "$work/tidy2.out" \
     "$tidy" --load="$plugin" -checks='-*,hotpath-*' --fix "${srcs[@]}" -- -std=c11; then
  ok "second --fix run: exit 0, no findings, no changes"
else
  bad "second --fix run"
fi
finish
