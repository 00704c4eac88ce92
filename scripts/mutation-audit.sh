#!/usr/bin/env bash
# Mutation audit: does the test suite notice a one-line bug? Applies, one at
# a time, the mutations listed at the end of this file to a copy of the tree
# (the working tree as it is, copied under $MUTATION_WORK, so the main
# build is untouched), rebuilds that copy (ccache, -j1), runs the tests
# named to kill the mutation (ctest -R) and prints a table:
#   mutation -> killed / SURVIVED -> the test(s) that failed
# Before any mutation, the unmutated copy must pass every named test (a
# test that fails anyway would "kill" everything). Exit status: 0 when every
# mutation is killed, 1 when one survives, 2 when the audit cannot run (an
# original line not found, a build failure, a failing baseline).
#
# Each mutation is an exact (file, original line, mutated line) triple: the
# original must be exactly one line of the file, compared without its
# leading whitespace (which the mutated line keeps); otherwise the audit
# says "original line not found" (or "found N times") and stops, never
# patching something else. The tree changes under other work: re-run after
# a merge, and move a mutation whose line moved.
#
# Usage: scripts/mutation-audit.sh [--list] [NAME...]
#   NAME...  only these mutations (default: all)
#   --list   print the mutations and exit
# Environment: MUTATION_WORK (default build-mutation/ in the tree; ignored
# by git), HOTPATH_JOBS (default 1), CCACHE_BASEDIR (default: the tree's
# parent, so the copy shares the main build's ccache entries).
# Takes about 25 minutes for all on one core (5 to 80 s a mutation, once
# the copy is built).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
self=$root/scripts/mutation-audit.sh
work=${MUTATION_WORK:-$root/build-mutation}
jobs=${HOTPATH_JOBS:-1}
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$(dirname "$root")}

mutation_list() {
  cat <<'MUTATIONS'
# ---- plugin/source, plugin/analysis, plugin/heat: what is recognised ----
# Issue 24: ASSERT(...) whose condition is spelt __VA_ARGS__ never found.
@ va-args-not-a-parameter | plugin/source/MacroDefinitions.cpp | ^golden\.hotpath-noop-assert$
- Def.Params.push_back("__VA_ARGS__");
+ {}
@ increment-not-a-side-effect | plugin/analysis/SideEffects.cpp | ^golden\.hotpath-noop-assert$
- if (UO->isIncrementDecrementOp() && !isLocalTarget(UO->getSubExpr(), Fn))
+ if (false && UO->isIncrementDecrementOp() && !isLocalTarget(UO->getSubExpr(), Fn))
@ wrap-proof-skipped | plugin/analysis/Implication.cpp | ^golden\.hotpath-check-split$
- if (widthOf(X->getType(), Ctx) < SumWidth) {
+ if (widthOf(X->getType(), Ctx) <= SumWidth) {
@ hook-heat-threshold-off-by-one | plugin/heat/HeatModel.cpp | ^golden\.hotpath-hook-gate$|^HookGate | hotpath-unit-tests
- if (Site.Cold || score(HS) + score(CS) < Threshold)
+ if (Site.Cold || score(HS) + score(CS) <= Threshold)
@ heat-threshold-off-by-one | plugin/heat/HeatModel.cpp | ^golden\.hotpath-check-split$|^Heat|^CheckSplit | hotpath-unit-tests
- return score(S) > 0 && score(S) >= Threshold;
+ return score(S) > 0 && score(S) > Threshold;
@ chain-loops-off-by-one | plugin/heat/HeatModel.cpp | ^golden\.hotpath-check-split$|^e2e\.chain-heat$
- return wholeProgram() ? C.Score >= Settings.ChainHeatThreshold : C.Loops >= chainLoopsNeeded(P);
+ return wholeProgram() ? C.Score >= Settings.ChainHeatThreshold : C.Loops > chainLoopsNeeded(P);

# ---- plugin/checks: what is reported and when a fix is refused ----
@ recursive-refusal-skipped | plugin/checks/CheckSplitPlanner.cpp | ^golden\.hotpath-check-split$|^Cases/CheckSplitRefuses | hotpath-unit-tests
- if (callsItself(FD))
+ if (false && callsItself(FD))
@ address-taken-refusal-skipped | plugin/checks/CheckSplitPlanner.cpp | ^golden\.hotpath-check-split$
- if (In.Stats.AddressTaken)
+ if (false && In.Stats.AddressTaken)
@ success-does-more-refusal-skipped | plugin/checks/CheckSplitPlanner.cpp | ^golden\.hotpath-check-split$
- if (Shape.ExtraSuccessWork)
+ if (false && Shape.ExtraSuccessWork)
@ evaluated-again-refusal-skipped | plugin/checks/CheckSplitPlanner.cpp | ^golden\.hotpath-check-split$
- if (refuseEvaluatedAgain())
+ if (false && refuseEvaluatedAgain())
@ variadic-refusal-skipped | plugin/checks/CheckSplitPlanner.cpp | ^golden\.hotpath-check-split$|^CheckSplit|^Cases/CheckSplitRefuses | hotpath-unit-tests
- if (FD->isVariadic())
+ if (false && FD->isVariadic())
@ cold-function-a-candidate | plugin/checks/CheckSplitCheck.cpp | ^golden\.hotpath-check-split$
- if (FD->hasAttr<ColdAttr>() || FD->hasAttr<AlwaysInlineAttr>())
+ if (FD->hasAttr<AlwaysInlineAttr>())

# ---- plugin/rewrite: the code the fixes write ----
# Issue 24: a gated hook's disabled value hard-coded 0, gated in place and
# in a cloned caller; killed by behaviour, not by exact text.
@ disabled-value-zero-in-place | plugin/rewrite/GatedCall.cpp | ^e2e\.hook-values-behaviour$
- Text = "(" + T + " ? " + Call + " : " + Disabled.str() + ")";
+ Text = "(" + T + " ? " + Call + " : 0)";
@ disabled-value-zero-in-clone | plugin/rewrite/GatedCall.cpp | ^e2e\.hook-values-behaviour$
- std::string Off = C.isStatement() ? "(void)0" : inPlaceOfCall(Disabled);
+ std::string Off = C.isStatement() ? "(void)0" : std::string("0");
# Issue 24: the fast path's attributes and hint, killed by the disassembly.
@ noinline-dropped | plugin/rewrite/Spelling.cpp | ^e2e\.fastpath-disasm$
- std::vector<std::string> Needed{"noinline", "cold"};
+ std::vector<std::string> Needed{"cold"};
@ cold-dropped | plugin/rewrite/Spelling.cpp | ^e2e\.fastpath-disasm$
- std::vector<std::string> Needed{"noinline", "cold"};
+ std::vector<std::string> Needed{"noinline"};
@ unlikely-macro-dropped | plugin/rewrite/Spelling.cpp | ^e2e\.fastpath-disasm$
- return (UnlikelyMacro + "(" + Cond + ")").str();
+ return Cond.str();
@ builtin-expect-dropped | plugin/rewrite/Spelling.cpp | ^golden\.hotpath-check-split$
- return ("__builtin_expect(" + Cond + ", 0)").str();
+ return Cond.str();
@ cold-attribute-edit-dropped | plugin/rewrite/FastPath.cpp | ^golden\.hotpath-check-split$
- Fixes.push_back(coldAttributeInsertion(FD, P.Sp, Ctx));
+ {}
@ func-name-literal-dropped | plugin/rewrite/Edits.cpp | ^e2e\.configurations$
- Out.Fixes.push_back(replaceToken(Loc, Literal, SM));
+ {}
@ else-not-added | plugin/rewrite/Edits.cpp | ^e2e\.configurations$
- if (G.Branches.back().HasOwn) // no #else yet
+ if (false) // no #else yet
@ gate-test-dropped | plugin/rewrite/GatedCall.cpp | ^golden\.hotpath-hook-gate$
- Text = T + " && " + Call;
+ Text = Call;
@ gate-hint-dropped | plugin/rewrite/Gate.cpp | ^golden\.hotpath-hook-gate$
- Out += Unit + "return __builtin_expect(" + Load + ", 0);\n";
+ Out += Unit + "return " + Load + ";\n";
@ assert-evaluates-again | plugin/rewrite/AssertMacro.cpp | ^golden\.hotpath-noop-assert$
- return ("((void)(0 && !!(" + Param + ")))").str();
+ return ("((void)(1 && !!(" + Param + ")))").str();

# ---- plugin/driver: what a run reports ----
@ patch-filter-inverted | plugin/driver/PatchFilter.cpp | ^e2e\.ci-diff$
- if (In(F.Main.File, F.Main.Line, F.Main.Line))
+ if (!In(F.Main.File, F.Main.Line, F.Main.Line))
@ patch-deleted-lines-ignored | plugin/driver/PatchFilter.cpp | ^e2e\.ci-diff$
- return D != C.DeletedBefore.end() && *D <= Last;
+ return false;
@ diff-added-lines-dropped | plugin/driver/UnifiedDiff.cpp | ^e2e\.ci-diff$
- Out[File].Lines.insert(NewLine);
+ {}
@ exit-status-always-clean | plugin/driver/Report.cpp | ^e2e\.ci-diff$
- return Found ? ExitFindings : ExitClean;
+ return ExitClean;
# ---- issue 24's routes: the same result on every route, no setting dropped ----
@ index-assert-uses-ignored | plugin/checks/NoopAssertCheck.cpp | ^e2e\.routes$
- if (Uses.empty())
+ if (true)
@ header-assert-taken-for-this-tu-only | plugin/checks/NoopAssertCheck.cpp | ^e2e\.routes$|^golden\.hotpath-noop-assert$
- if (SM.isWrittenInMainFile(D.NameLoc))
+ if (true)
@ gate-without-gated-calls | plugin/checks/HookGateCandidates.cpp | ^e2e\.routes$
- H && !H->hasSwitch() && !Position.count(H->FD) && gatedElsewhere(In, *H))
+ H && !H->hasSwitch() && !Position.count(H->FD) && true)
@ fix-from-tu-with-errors | plugin/core/HotpathCheck.cpp | ^e2e\.compile-errors-no-fix$
- tu().ast().getDiagnostics().hasUncompilableErrorOccurred())
+ false)
@ index-pure-call-costs-nothing | plugin/analysis/SideEffects.cpp | ^Purity\.|^e2e\.sample-assert-list$ | hotpath-unit-tests
- if (V.pure() && Opts.LoopsAreEffects && !CompilerSeesIt)
+ if (false)
@ malformed-config-dropped | plugin/driver/ConfigValidation.cpp | ^e2e\.driver-input$
- Note = parse(*Config, "-config", "", Opts);
+ (void)parse(*Config, "-config", "", Opts);
MUTATIONS
}

list=0 only=()
for a in "$@"; do
  case $a in
  --list) list=1 ;;
  -h | --help) sed -n '2,/^set -euo/p' "$self" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
  -*) echo "mutation-audit.sh: unknown option $a" >&2; exit 2 ;;
  *) only+=("$a") ;;
  esac
done

# The mutations: the text of mutation_list (below), one block each:
#   @ NAME | FILE | CTEST REGEX | TARGETS (ninja; hotpathTidyModule if empty)
#   - original line
#   + mutated line
# parsed by a small Python reader into mutations.txt, fields separated by
# the ASCII unit separator (0x1f), which no source line holds.
mkdir -p "$work"
python3 -c "$(cat <<'PY'
import sys
text = sys.stdin.read()
rows, cur = [], None
for n, line in enumerate(text.splitlines(), 1):
    if not line.strip() or line.startswith('#'):
        continue
    if line.startswith('@ '):
        parts = [p.strip() for p in line[2:].split(' | ')]
        if len(parts) not in (3, 4):
            sys.exit('mutation list line %d: want "@ NAME | FILE | TESTS [| TARGETS]"' % n)
        cur = parts + [''] * (4 - len(parts)) + [None, None]
        rows.append(cur)
    elif line.startswith('- ') and cur and cur[4] is None:
        cur[4] = line[2:]
    elif line.startswith('+ ') and cur and cur[4] is not None and cur[5] is None:
        cur[5] = line[2:]
    else:
        sys.exit('mutation list line %d: unexpected %r' % (n, line))
names = set()
with open(sys.argv[1], 'w') as out:
    for r in rows:
        if r[4] is None or r[5] is None or r[4].strip() == r[5].strip():
            sys.exit('mutation %s: needs a "- original" and a different "+ mutated" line' % r[0])
        if r[0] in names:
            sys.exit('mutation %s: listed twice' % r[0])
        names.add(r[0])
        out.write('\x1f'.join(r) + '\n')
PY
)" "$work/mutations.txt" < <(mutation_list)
mapfile -t rows <"$work/mutations.txt"
if [ "$list" = 1 ]; then
  for r in "${rows[@]}"; do
    IFS=$'\x1f' read -r name file tests targets orig mut <<<"$r"
    printf '%s  %s  [%s]\n  - %s\n  + %s\n' "$name" "$file" "$tests" "$orig" "$mut"
  done
  exit 0
fi
selected=()
for r in "${rows[@]}"; do
  name=${r%%$'\x1f'*}
  if [ "${#only[@]}" = 0 ] || printf '%s\n' "${only[@]}" | grep -qxF "$name"; then selected+=("$r"); fi
done
for n in "${only[@]}"; do
  printf '%s\n' "${rows[@]}" | cut -d$'\x1f' -f1 | grep -qxF "$n" || { echo "mutation-audit.sh: no mutation '$n' (--list)" >&2; exit 2; }
done

# apply FILE ORIGINAL MUTATED: replaces the one line of FILE that is
# ORIGINAL (leading whitespace aside), keeping its indentation; or says
# why not and fails.
apply() {
  python3 - "$@" <<'PY'
import sys
path, orig, mut = sys.argv[1:]
try:
    lines = open(path).read().split('\n')
except OSError as e:
    sys.exit('cannot read %s: %s' % (path, e))
at = [i for i, l in enumerate(lines) if l.strip() == orig.strip()]
if len(at) != 1:
    sys.exit('original line %s in %s: %r' % ('not found' if not at else 'found %d times' % len(at),
                                              path, orig.strip()))
l = lines[at[0]]
lines[at[0]] = l[:len(l) - len(l.lstrip())] + mut.strip()
open(path, 'w').write('\n'.join(lines))
PY
}

# The copy: the tracked files of the working tree (uncommitted changes
# included), re-synced each run; the build directory inside it persists. A
# file is written only when its content differs, so that it gets a new
# mtime and ninja rebuilds what depends on it (a copy keeping the source's
# older mtime would leave objects of an earlier mutation in place).
src=$work/src
mkdir -p "$src"
(cd "$root" && git ls-files -z) | python3 -c "$(cat <<'PY'
import os, shutil, sys
root, dst = sys.argv[1:]
for rel in sys.stdin.read().split('\0'):
    if not rel or not os.path.isfile(os.path.join(root, rel)):
        continue
    a, b = os.path.join(root, rel), os.path.join(dst, rel)
    data = open(a, 'rb').read()
    if os.path.exists(b) and open(b, 'rb').read() == data:
        continue
    os.makedirs(os.path.dirname(b), exist_ok=True)
    with open(b, 'wb') as f:
        f.write(data)
    shutil.copymode(a, b)
PY
)" "$root" "$src"
# Check every selected mutation's original line before building anything.
missing=0
for r in "${selected[@]}"; do
  IFS=$'\x1f' read -r name file tests targets orig mut <<<"$r"
  cp "$src/$file" "$work/probe" 2>/dev/null || { echo "$name: no file $file"; missing=1; continue; }
  apply "$work/probe" "$orig" "$mut" 2>&1 | sed "s/^/$name: /" || true
  cmp -s "$src/$file" "$work/probe" && missing=1
done
[ "$missing" = 0 ] || { echo "mutation-audit.sh: fix the mutations above (original line not found)" >&2; exit 2; }

build=$src/build
if [ ! -f "$build/CMakeCache.txt" ]; then
  generator=()
  command -v ninja >/dev/null && generator=(-G Ninja)
  cmake -S "$src" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
    -DHOTPATH_LLVM_MAJOR="${HOTPATH_LLVM_MAJOR:-19}" >"$work/configure.log" 2>&1 ||
    { cat "$work/configure.log"; exit 2; }
fi
targets_of() { # TARGETS: the ninja targets, the module and the binary at least
  echo hotpathTidyModule hotpath-tidy "${1//,/ }"
}
build_targets() { # LOG TARGETS...
  local log=$1
  shift
  cmake --build "$build" -j "$jobs" --target "$@" >"$log" 2>&1
}

# Baseline: the unmutated copy passes every named test.
all_tests=() all_targets=()
for r in "${selected[@]}"; do
  IFS=$'\x1f' read -r name file tests targets orig mut <<<"$r"
  all_tests+=("$tests")
  read -ra t <<<"$(targets_of "$targets")"
  all_targets+=("${t[@]}")
done
read -ra all_targets <<<"$(printf '%s\n' "${all_targets[@]}" | sort -u | tr '\n' ' ')"
regex=$(printf '%s\n' "${all_tests[@]}" | sort -u | paste -sd'|')
echo "baseline: building ${all_targets[*]} and running $regex"
build_targets "$work/baseline.build.log" "${all_targets[@]}" ||
  { tail -20 "$work/baseline.build.log"; echo "mutation-audit.sh: the unmutated copy does not build" >&2; exit 2; }
if ! (cd "$build" && ctest -R "$regex" >"$work/baseline.test.log" 2>&1); then
  grep -E 'Failed|\*\*\*' "$work/baseline.test.log" | head
  echo "mutation-audit.sh: the unmutated copy fails a named test ($work/baseline.test.log)" >&2
  exit 2
fi

results=() survived=0 broken=0 mutated=""
# An interrupted run leaves no mutation behind.
restore() { [ -z "$mutated" ] || cp "$work/original" "$src/$mutated"; mutated=""; }
trap restore EXIT
trap 'exit 130' INT TERM
for r in "${selected[@]}"; do
  IFS=$'\x1f' read -r name file tests targets orig mut <<<"$r"
  cp "$src/$file" "$work/original"
  mutated=$file
  apply "$src/$file" "$orig" "$mut"
  read -ra t <<<"$(targets_of "$targets")"
  start=$SECONDS
  if ! build_targets "$work/$name.build.log" "${t[@]}"; then
    outcome=BUILD-FAILED killers="(does not compile: $work/$name.build.log)"
    broken=1
  elif (cd "$build" && ctest -R "$tests" >"$work/$name.test.log" 2>&1); then
    outcome=SURVIVED killers="(none of: $tests)"
    survived=1
  else
    outcome=killed
    killers=$(sed -n -E 's/^[[:space:]]*[0-9]+ - ([^ ]+) .*\((Failed|Timeout|Subprocess aborted|Exception)\)$/\1/p' \
      "$work/$name.test.log" | paste -sd' ')
  fi
  # Restore byte for byte (the next build recompiles it from ccache).
  restore
  printf '%-28s %-12s %s  (%ds)\n' "$name" "$outcome" "$killers" $((SECONDS - start))
  results+=("$(printf '%-28s | %-12s | %s' "$name" "$outcome" "$killers")")
done

echo
printf '%-28s | %-12s | %s\n' mutation outcome "killed by"
printf '%s\n' "${results[@]}"
echo "${#selected[@]} mutations: $(printf '%s\n' "${results[@]}" | grep -c '| killed') killed"
[ "$broken" = 0 ] || exit 2
[ "$survived" = 0 ]
