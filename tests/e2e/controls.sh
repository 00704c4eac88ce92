#!/usr/bin/env bash
# Negative controls of the checks the other tests share: each check, run on a
# deliberately broken input, must fail with a clear message. A check that
# cannot fail proves nothing; these keep that from coming back.
#   * lib.sh same_behaviour: builds differing only in exit status, stderr or
#     stdout (the differential tests once compared stdout alone, or lost the
#     exit status under set -e);
#   * lib.sh second_run_clean: a second --fix run that crashes, stops on a
#     compile error, or still finds and changes something (the idempotency
#     checks once ignored the exit status);
#   * tests/golden/run_golden.py: a configuration error (no file:line:col), a
#     second run that fails, noise on stderr, a missing compiler, no cases,
#     and CHECK-MESSAGES directives that are wrong: a wrong text, a wrong
#     line offset, a misspelt directive, a note or a warning printed that no
#     directive expects;
#   * scripts/bench-cost.sh: a hotpath run that crashes, timed or under
#     callgrind (it once lowered the count and passed the goal);
#   * scripts/test.sh: a CMake cache with the tests off or another LLVM major,
#     and a build directory with no tests (CTest was green on it);
#   * tests/e2e/layers.py: an include from a lower layer to a higher one, and
#     a directory that is no layer.
# The sample-specific controls (the unfixed build through the disassembly
# check, the known worse shapes through the figure gates, an empty export)
# live in the tests they control.
# Usage: controls.sh CLANG_TIDY PLUGIN
set -euo pipefail
tidy=$1 plugin=$(realpath "$2")
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck source=lib.sh
source "$here/lib.sh"
sample=$root/samples/extent-buffer
srcs=(check.c accessors.c main.c)

# --- same_behaviour ---------------------------------------------------------
(cd "$sample" && gcc -std=c11 -O2 -o "$work/eb" "${srcs[@]}")
wrap() { # NAME SHELL-LINE: a program that runs eb as the line says
  printf '#!/bin/sh\n%s\n' "$2" >"$work/$1" && chmod +x "$work/$1"
}
wrap exit3 "\"$work/eb\" \"\$@\"; exit 3"
wrap quiet "\"$work/eb\" \"\$@\" 2>/dev/null"
wrap louder "\"$work/eb\" \"\$@\"; echo extra"
if same_behaviour "$work/eb" "$work/eb" 50000 3 5; then ok "same_behaviour: a build against itself"
else bad "same_behaviour: a build differs from itself"; fi
expect_failure "same_behaviour, exit status differs" "exit status 0 vs 3" same_behaviour "$work/eb" "$work/exit3" 50000 3 5
expect_failure "same_behaviour, stderr lost" "stderr differs" same_behaviour "$work/eb" "$work/quiet" 50000 3 5
expect_failure "same_behaviour, stdout differs" "stdout differs" same_behaviour "$work/eb" "$work/louder" 50000 3 5

# --- second_run_clean -------------------------------------------------------
"$sample/fix.sh" "$work/fixed" "$tidy" "$plugin" >/dev/null
again() { # DIR TOOL: a second --fix run of TOOL over DIR
  second_run_clean "$1" "$work/again.log" "$2" --load="$plugin" -checks='-*,hotpath-*' --fix "${srcs[@]}" -- -std=c11
}
if again "$work/fixed" "$tidy"; then ok "second_run_clean: the fixed sample"; else bad "second_run_clean on the fixed sample"; fi
fake_tool "$work/crashing-tidy" 139
expect_failure "second run crashes" "exit status 139" again "$work/fixed" "$work/crashing-tidy"
cp -r "$work/fixed" "$work/broken" && printf '\nint broken = ;\n' >>"$work/broken/main.c"
expect_failure "second run stops on a compile error" "exit status 1" again "$work/broken" "$tidy"
cp -r "$sample" "$work/unfixed"
expect_failure "second run still finds and fixes" "a finding;files changed" again "$work/unfixed" "$tidy"

# --- run_golden.py ------------------------------------------------------------
golden() { python3 "$root/tests/golden/run_golden.py" --tidy "$tidy" --plugin "$plugin" "$@"; }
cases=$root/tests/checks/hotpath-check-split
case_copy() { # DIR CASE: a copy of a golden case in DIR/hotpath-check-split
  mkdir -p "$1/hotpath-check-split" && cp "$cases/$2".* "$1/hotpath-check-split/"
}
if golden "$cases/already-fast.c" "$cases/two-branch-subsumed.c" >"$work/golden.log"; then
  ok "run_golden: two real cases pass"
else
  bad "run_golden on two real cases"; cat "$work/golden.log"
fi
# already-fast.c expects no finding; a rule set that does not exist gives a
# configuration error and no finding either, with no file:line:col.
case_copy "$work/g1" already-fast
echo '// hotpath-options: RuleSet=/nonexistent/rules.yaml' >>"$work/g1/hotpath-check-split/already-fast.c"
expect_failure "run_golden, a configuration error" "error: hotpath-check-split: rules file '/nonexistent/rules.yaml'" \
  golden "$work/g1/hotpath-check-split/already-fast.c"
expect_failure "run_golden, a configuration error" "clang-tidy exited 1" golden "$work/g1/hotpath-check-split/already-fast.c"
# A clang-tidy that fixes as the real one, then stops on its second run.
cat >"$work/second-run-fails" <<EOF2
#!/bin/sh
if [ -e "$work/ran-once" ]; then echo 'error: too many errors emitted' >&2; exit 1; fi
touch "$work/ran-once"
exec "$tidy" "\$@"
EOF2
chmod +x "$work/second-run-fails"
expect_failure "run_golden, the second run exits 1" "second --fix run: clang-tidy exited 1" \
  python3 "$root/tests/golden/run_golden.py" --tidy "$work/second-run-fails" --plugin "$plugin" "$cases/two-branch-subsumed.c"
cat >"$work/noisy" <<EOF2
#!/bin/sh
"$tidy" "\$@"; rc=\$?
echo 'warning: something the case does not expect' >&2
exit \$rc
EOF2
chmod +x "$work/noisy"
expect_failure "run_golden, noise on stderr" "unexpected on stderr: warning: something the case does not expect" \
  python3 "$root/tests/golden/run_golden.py" --tidy "$work/noisy" --plugin "$plugin" "$cases/two-branch-subsumed.c"
expect_failure "run_golden, a compiler missing" "compiler 'no-such-gcc' not found" \
  golden --cc "clang-19 no-such-gcc" "$cases/two-branch-subsumed.c"
mkdir "$work/no-cases"
expect_failure "run_golden, no cases" "FAIL no cases" golden "$work/no-cases"
# The CHECK-MESSAGES directives: each kind of wrong expectation fails, with
# the line it gets wrong in the diff ("-" expected, "+" printed).
sub=two-branch-subsumed
if_line=$(grep -n 'if (off > b->len) {' "$cases/$sub.c" | cut -d: -f1)
implies="note: this condition implies 'end > b->len' (the sum cannot wrap), so the fast path tests only that one"
directive_case() { # NAME SED-SCRIPT: a copy of two-branch-subsumed.c with SED-SCRIPT applied
  case_copy "$work/$1" "$sub" && sed -i "$2" "$work/$1/hotpath-check-split/$sub.c"
  cmp -s "$cases/$sub.c" "$work/$1/hotpath-check-split/$sub.c" && echo "controls.sh: '$2' changed nothing" >&2
  echo "$work/$1/hotpath-check-split/$sub.c"
}
expect_failure "run_golden, a directive's text is wrong" "-$sub.c:8:13: note: 'check_bounds' is hot: called by get16 (two-branch-subsumed.c:26)" \
  golden "$(directive_case d-text "s/is hot: called by get8 (/is hot: called by get16 (/")"
expect_failure "run_golden, a note printed that no directive expects" "+$sub.c:$if_line:6: $implies" \
  golden "$(directive_case d-extra-note "/CHECK-MESSAGES: .*this condition implies/d")"
expect_failure "run_golden, a directive's line offset is wrong" "-$sub.c:$((if_line - 1)):6: $implies" \
  golden "$(directive_case d-offset "/this condition implies/s/@LINE-1/@LINE-2/")"
expect_failure "run_golden, a directive misspelt (CHECK-MESSAGE:)" 'not a "// CHECK-MESSAGES:" directive' \
  golden "$(directive_case d-misspelt "/this condition implies/s/CHECK-MESSAGES:/CHECK-MESSAGE:/")"
# A warning with no directive: side-effects.c's "it increments 'seen'" has no notes.
fx=$root/tests/checks/hotpath-noop-assert
mkdir -p "$work/d-missing/hotpath-noop-assert" && cp "$fx"/side-effects.* "$work/d-missing/hotpath-noop-assert/"
sed -i "/CHECK-MESSAGES: .*(it increments 'seen')/d" "$work/d-missing/hotpath-noop-assert/side-effects.c"
seen_line=$(grep -n 'ASSERT(seen++ == 0);' "$fx/side-effects.c" | cut -d: -f1)
expect_failure "run_golden, a warning printed that no directive expects" \
  "+side-effects.c:$seen_line:2: warning: argument of 'ASSERT' has a side effect (it increments 'seen')" \
  golden "$work/d-missing/hotpath-noop-assert/side-effects.c"
# --write-messages writes directives that the check then accepts (a case with
# no fixed file: the directives it writes are in no .fixed file yet).
mkdir -p "$work/rewrite/hotpath-check-split" && cp "$cases"/refuse-shapes.* "$work/rewrite/hotpath-check-split/"
sed -i '/CHECK-MESSAGES:/d' "$work/rewrite/hotpath-check-split/refuse-shapes.c"
expect_failure "run_golden, a case with its directives removed" "+refuse-shapes.c:" \
  golden "$work/rewrite/hotpath-check-split/refuse-shapes.c"
if golden --write-messages "$work/rewrite/hotpath-check-split/refuse-shapes.c" >"$work/rewrite.log" &&
   golden "$work/rewrite/hotpath-check-split/refuse-shapes.c" >>"$work/rewrite.log"; then
  ok "run_golden --write-messages: the directives it writes pass"
else
  bad "run_golden --write-messages"; cat "$work/rewrite.log"
fi

# --- bench-cost.sh ------------------------------------------------------------
printf 'int add(int a, int b) { return a + b; }\n' >"$work/tiny.c"
cat >"$work/crash-hotpath" <<EOF2
#!/bin/sh
# Crashes when the module is loaded: on every run, or (with ONLY_SECOND) only
# on the second such run, the one under callgrind. Not exec: valgrind follows
# no exec, and must see the exit status.
case "\$*" in *--load=*)
  if [ -z "\${ONLY_SECOND:-}" ] || [ -e "$work/hotpath-ran" ]; then
    echo 'PLEASE submit a bug report' >&2; exit 139
  fi
  touch "$work/hotpath-ran" ;;
esac
"$tidy" "\$@"
EOF2
chmod +x "$work/crash-hotpath"
bench() { CLANG_TIDY=$work/crash-hotpath HOTPATH_PLUGIN=$plugin "$root/scripts/bench-cost.sh" \
            --file "$work/tiny.c" --reps 1 --callgrind --strict --work "$work/bench"; }
expect_failure "bench-cost, the hotpath run crashes" "bench-cost: hotpath exited 139" bench
export ONLY_SECOND=1
expect_failure "bench-cost, the hotpath run crashes under callgrind" "bench-cost: hotpath (callgrind) exited 139" bench
unset ONLY_SECOND

# --- scripts/test.sh ------------------------------------------------------------
# shellcheck source=../../scripts/test.sh disable=SC2154  # major: set by test.sh
source "$root/scripts/test.sh"
mkcache() { # DIR KEY=VALUE...: a CMake cache as CI configures it, with KEY=VALUE changed
  local d=$1
  shift
  mkdir -p "$d"
  printf '%s\n' "CMAKE_BUILD_TYPE:STRING=Release" "CMAKE_HOME_DIRECTORY:INTERNAL=$root" \
    "HOTPATH_BUILD_TESTS:BOOL=ON" "HOTPATH_LLVM_MAJOR:STRING=$major" \
    "HOTPATH_LLVM_ROOT:PATH=/usr/lib/llvm-$major" >"$d/CMakeCache.txt"
  local kv
  for kv in "$@"; do sed -i "s|^${kv%%=*}:\([A-Z]*\)=.*|${kv%%=*}:\1=${kv#*=}|" "$d/CMakeCache.txt"; done
}
cache_usable() { # BUILD: cache_mismatch as a check: fails, saying why
  local why
  if why=$(cache_mismatch "$1"); then echo "$why"; return 1; fi
}
mkcache "$work/cache-ok"
if cache_usable "$work/cache-ok"; then ok "test.sh: a cache as CI configures it is reused"
else bad "test.sh: a cache as CI configures it is rejected"; fi
mkcache "$work/cache-off" HOTPATH_BUILD_TESTS=OFF
expect_failure "test.sh, a cache with the tests off" "HOTPATH_BUILD_TESTS is 'OFF', CI needs 'ON'" \
  cache_usable "$work/cache-off"
mkcache "$work/cache-18" HOTPATH_LLVM_MAJOR=18 HOTPATH_LLVM_ROOT=/usr/lib/llvm-18
expect_failure "test.sh, a cache of another LLVM major" "HOTPATH_LLVM_MAJOR is '18', CI needs '$major'" \
  cache_usable "$work/cache-18"
mkdir "$work/no-tests"
expect_failure "test.sh, a build directory without tests" "No tests were found" run_ctest "$work/no-tests"

# --- layers.py --------------------------------------------------------------
cp -r "$root/plugin" "$work/layers-up"
printf '#include "checks/CheckSplitCheck.h"\n' >>"$work/layers-up/analysis/CallSites.h"
expect_failure "layers, analysis/ includes checks/" \
  'analysis/ includes "checks/CheckSplitCheck.h" of the higher layer checks/' \
  python3 "$here/layers.py" "$work/layers-up"
cp -r "$root/plugin" "$work/layers-dir"
mkdir "$work/layers-dir/misc" && printf '#include "support/Rules.h"\n' >"$work/layers-dir/misc/x.h"
expect_failure "layers, a directory that is no layer" "directory 'misc' is not a layer" \
  python3 "$here/layers.py" "$work/layers-dir"
finish
