#!/usr/bin/env bash
# What the project index costs on a real project from Debian's sources:
#   build     the package's own build of every TU (clean, then its build
#             step, -j JOBS), for scale;
#   syntax    clang -fsyntax-only on every TU with its compile command
#             (-j JOBS): what the index pass may cost (DESIGN.md);
#   index     hotpath-tidy --index-only --reindex: the index pass alone;
#   first     hotpath-tidy -p . -j JOBS, no index yet: index + every TU checked;
#   second    the same again, nothing changed: it must index 0 TUs;
#   diff      hotpath-tidy --diff=HEAD after a patch that adds a two-branch
#             check to one .c file and its hot call in a loop to another: it
#             must exit 1 with that finding (index refreshed for 2 TUs, 2 TUs
#             checked).
# Each is timed (wall, and CPU as user+sys of the children); the last lines
# are machine-readable (BENCH-INDEX ...). Needs root for apt-get source /
# build-dep (the deb-src entries as scripts/real-project.py sets them up),
# and the tree scripts/real-project.py would make (kept under --work).
# Not part of CTest.
#
# Usage: scripts/bench-index.sh [--jobs N] [--work DIR] [SRCPKG]   (default redis)
#   env: HOTPATH_TIDY (build/plugin/hotpath-tidy), CLANG (clang-19)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
jobs=$(nproc 2>/dev/null || echo 2) work=$root/build/real-projects pkg=redis
while [ $# -gt 0 ]; do
  case $1 in
    --jobs) jobs=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "bench-index: unknown option $1" >&2; exit 2 ;;
    *) pkg=$1; shift ;;
  esac
done
tidy=$(realpath "${HOTPATH_TIDY:-$root/build/plugin/hotpath-tidy}")
clang=${CLANG:-clang-19}
[ -x "$tidy" ] || { echo "bench-index: no $tidy (scripts/build.sh)" >&2; exit 2; }

# The source, built once under bear, and a git snapshot (real-project.py's).
src=$(python3 - "$root/scripts/real-project.py" "$pkg" "$work" "$jobs" <<'PY'
import importlib.util, os, sys
spec = importlib.util.spec_from_file_location("real_project", sys.argv[1])
rp = importlib.util.module_from_spec(spec)
spec.loader.exec_module(rp)
pkg, work, jobs = sys.argv[2], sys.argv[3], int(sys.argv[4])
sys.stdout = sys.stderr          # their log lines, not the answer
rp.ensure_deb_src()
src = rp.fetch_source(pkg, work)
rp.build_compile_db(pkg, src, jobs)
rp.snapshot(src)
sys.__stdout__.write(src + "\n")
PY
)
cd "$src"
[ -z "$(git status --porcelain --untracked-files=no)" ] || { echo "bench-index: $src has local changes" >&2; exit 2; }
# The TUs the index and the checks see: C and C++ sources of the database.
mapfile -t tus < <(python3 - <<'PY'
import json, os
seen = []
for e in json.load(open("compile_commands.json")):
    p = os.path.normpath(os.path.join(e["directory"], e["file"]))
    if p.endswith((".c", ".cc", ".cpp", ".cxx")) and p not in seen and os.path.isdir(e["directory"]):
        seen.append(p)
print("\n".join(seen))
PY
)
n=${#tus[@]}
echo "bench-index: $pkg, $n translation units, -j$jobs, $(nproc) cores, $src"
[ "$n" -ge 150 ] || echo "bench-index: warning: fewer than 150 TUs" >&2

# timed NAME OUT ERR CMD...: CMD's stdout to OUT and stderr to ERR; its wall
# and CPU (user+sys of the children) seconds, on our own stdout.
declare -A wall cpu
timed() {
  local name=$1 out=$2 err=$3 t0 c0 c1 rc=0
  shift 3
  t0=$(date +%s.%N)
  c0=$(awk '{ print $14 + $15 + $16 + $17 }' /proc/$$/stat)
  "$@" >"$out" 2>"$err" || rc=$?
  c1=$(awk '{ print $14 + $15 + $16 + $17 }' /proc/$$/stat)
  wall[$name]=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
  cpu[$name]=$(awk -v a="$c0" -v b="$c1" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.1f", (b - a) / hz }')
  echo "bench-index: $name: ${wall[$name]} s wall, ${cpu[$name]} s CPU (exit $rc)"
  return $rc
}

log=$work/bench-index-$pkg
mkdir -p "$log"
restore() { git checkout -q -- . && git clean -qfd -e compile_commands.json -e hotpath-index >/dev/null 2>&1 || true; }
trap restore EXIT

# 1. The build, for scale: from clean, the package's configure and build
#    (debian/rules build, or make).
clean_cmd=(make clean) build_cmd=(make -j"$jobs")
if [ -f debian/rules ]; then clean_cmd=(debian/rules clean) build_cmd=(debian/rules build); fi
cp compile_commands.json "$log/compile_commands.json"
"${clean_cmd[@]}" >"$log/clean.log" 2>&1 || true
timed build "$log/build.log" "$log/build.err" env DEB_BUILD_OPTIONS="nocheck nodoc parallel=$jobs" "${build_cmd[@]}" ||
  echo "bench-index: the build failed (see $log/build.log); the figures below do not need it"
cp "$log/compile_commands.json" compile_commands.json
restore

# 2. clang -fsyntax-only on every TU, as its compile command says.
python3 - "$clang" >"$log/syntax.sh" <<'PY'
import json, os, shlex, sys
clang = sys.argv[1]
drop = {"-c", "-MD", "-MMD", "-MP", "-pipe"}
drop_value = {"-o", "-MF", "-MT", "-MQ"}
seen = set()
for e in json.load(open("compile_commands.json")):
    p = os.path.normpath(os.path.join(e["directory"], e["file"]))
    if not p.endswith((".c", ".cc", ".cpp", ".cxx")) or p in seen or not os.path.isdir(e["directory"]):
        continue
    seen.add(p)
    args = e.get("arguments") or shlex.split(e["command"])
    out, skip = [], False
    for a in args[1:]:
        if skip:
            skip = False
            continue
        if a in drop_value:
            skip = True
            continue
        if a in drop or a.startswith(("-Wp,-M", "-Werror")):
            continue
        out.append(a)
    print("cd %s && %s -fsyntax-only %s" % (shlex.quote(e["directory"]), clang,
                                               " ".join(shlex.quote(a) for a in out)))
PY
timed syntax "$log/syntax.log" "$log/syntax.err" xargs -P "$jobs" -d '\n' -I{} bash -c {} <"$log/syntax.sh" || true

# 2b. The same in instructions (callgrind), which other load on the machine
#     does not move: every tenth TU, the index pass in one process (-j1)
#     against clang -fsyntax-only on each.
mkdir -p "$log/sample"
python3 - "$log/sample/compile_commands.json" <<'PY'
import json, os, sys
seen, out = set(), []
for e in json.load(open("compile_commands.json")):
    p = os.path.normpath(os.path.join(e["directory"], e["file"]))
    if p.endswith((".c", ".cc", ".cpp", ".cxx")) and p not in seen and os.path.isdir(e["directory"]):
        seen.add(p)
        out.append(e)
json.dump(out[::10], open(sys.argv[1], "w"))
PY
sample_n=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))))" "$log/sample/compile_commands.json")
ir_sum() { awk '/Collected :/ { s += $NF } END { printf "%.0f\n", s }' "$@"; }
rm -f "$log"/cg-clang.*
awk 'NR % 10 == 1' "$log/syntax.sh" | while IFS= read -r cmd; do
  valgrind --tool=callgrind --trace-children=yes --callgrind-out-file=/dev/null bash -c "$cmd" \
    >/dev/null 2>>"$log/cg-clang.log" || true
done
valgrind --tool=callgrind --callgrind-out-file=/dev/null "$tidy" --index-only --reindex -p "$log/sample" -j1 \
  >/dev/null 2>"$log/cg-index.log" || true
ir_clang=$(ir_sum "$log/cg-clang.log") ir_index=$(ir_sum "$log/cg-index.log")
ir_ratio=$(awk -v i="$ir_index" -v c="$ir_clang" 'BEGIN { printf "%.3f", i / c }')
echo "bench-index: instructions over $sample_n TUs: clang -fsyntax-only $ir_clang, index pass $ir_index: $ir_ratio"

# 3. The index pass alone, then the runs.
rm -rf hotpath-index
timed index "$log/index.out" "$log/index.err" "$tidy" --index-only --reindex -p . -j "$jobs"
grep -F "project index" "$log/index.err" || true
rm -rf hotpath-index
timed first "$log/first.out" "$log/first.err" "$tidy" -p . -j "$jobs" || true
grep -F "project index" "$log/first.err" || true
echo "bench-index: first run: $(grep -c ': warning: ' "$log/first.out") findings"
timed second "$log/second.out" "$log/second.err" "$tidy" -p . -j "$jobs" || true
grep -F "project index" "$log/second.err"
grep -qF ": 0 of $(grep -o 'of [0-9]* translation' "$log/second.err" | head -1 | cut -d' ' -f2) translation units indexed" "$log/second.err" ||
  { echo "bench-index: the unchanged second run re-indexed something" >&2; exit 1; }

# 4. --diff: a check added to one file, its hot call in a loop to another.
a=${tus[0]} b=${tus[1]}
cat >>"$a" <<'C'

/* bench-index.sh: a two-branch check function added by the patch. */
#include <stdio.h>
int hotpath_bench_check(const unsigned char *p, unsigned int off, unsigned int len);
int hotpath_bench_check(const unsigned char *p, unsigned int off, unsigned int len)
{
	const unsigned long end = (unsigned long)off + 4;

	if (off > len) {
		fprintf(stderr, "bad start %u (%p)\n", off, (const void *)p);
		return 0;
	}
	if (end > len) {
		fprintf(stderr, "bad end %lu\n", end);
		return 0;
	}
	return 1;
}
C
cat >>"$b" <<'C'

/* bench-index.sh: a hot call, in a loop, to a check in another file. */
int hotpath_bench_check(const unsigned char *p, unsigned int off, unsigned int len);
unsigned long hotpath_bench_sum(const unsigned char *p, unsigned int len);
unsigned long hotpath_bench_sum(const unsigned char *p, unsigned int len)
{
	unsigned long s = 0;

	for (unsigned int i = 0; i + 4 <= len; i++)
		if (hotpath_bench_check(p, i, len))
			s += p[i];
	return s;
}
C
rc=0
timed diff "$log/diff.out" "$log/diff.err" "$tidy" --diff=HEAD -p . -j "$jobs" || rc=$?
cat "$log/diff.err"
grep -F "check function 'hotpath_bench_check' tests 2 conditions" "$log/diff.out" || true
grep -F "'hotpath_bench_check' is hot: " "$log/diff.out" || true
restore
if [ "$rc" != 1 ] || ! grep -qF "check function 'hotpath_bench_check'" "$log/diff.out"; then
  echo "bench-index: the --diff run did not find the added check (exit $rc)" >&2; exit 1
fi

ratio=$(awk -v i="${cpu[index]}" -v s="${cpu[syntax]}" 'BEGIN { printf "%.2f", i / s }')
echo "bench-index: index pass / clang -fsyntax-only, CPU: $ratio"
for k in build syntax index first second diff; do
  echo "BENCH-INDEX pkg=$pkg tus=$n jobs=$jobs run=$k wall=${wall[$k]:-} cpu=${cpu[$k]:-}"
done
echo "BENCH-INDEX pkg=$pkg sample_tus=$sample_n ir_clang=$ir_clang ir_index=$ir_index ir_ratio=$ir_ratio"
