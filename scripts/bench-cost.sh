#!/usr/bin/env bash
# What the hotpath checks cost on a large real translation unit, side by side
# in one run (a benchmark, not a test: it prints, it does not judge, except
# that it exits 1 when the ratio is over the goal and --strict is set: the
# instruction ratio with --callgrind, else the median CPU-time ratio).
#
# For each TU, REPS rounds of, interleaved so that drift hits all alike:
#   clang     clang-19 -fsyntax-only <flags> TU
#   tidy-pp   clang-tidy-19 -checks='-*,readability-duplicate-include' (a
#             trivial stock check with no AST matcher: what clang-tidy itself
#             costs over the compiler)
#   tidy-ast  clang-tidy-19 -checks='-*,bugprone-suspicious-semicolon' (a small
#             stock AST-matcher check: what any matcher-based check costs)
#   hotpath   clang-tidy-19 --load <module> -checks='-*,hotpath-*'
# each timed by getrusage (microseconds; /usr/bin/time counts in 10 ms steps,
# 3% of a 0.37 s run); prints the median wall and CPU (user+sys) time,
# the peak RSS, and the ratios to clang (hotpath/clang: goal <= 1.10) and
# hotpath/tidy-pp (what the module itself adds to clang-tidy).
#
# TUs: the SQLite amalgamation (sqlite3.c, ~240k lines) made from Debian's
# sqlite3 source package (apt-get source; `./configure && make sqlite3.c`)
# with the SQLITE_* flags of debian/rules; the same plus one check function
# (sqlite-check: the module indexes call sites only when some function may be
# reported, and this one makes it walk every body of sqlite3.c, the worst
# case); and a C++ TU that includes <bits/stdc++.h> and instantiates some
# templates.
#
# With --callgrind, each TU also gets one run of clang, tidy-pp and hotpath
# under valgrind --tool=callgrind: instruction counts, repeatable where CPU
# time (10 ms steps, a noisy machine) is not; a line BENCH-COST-IR per TU.
#
# Any run that fails (a crash, a compile error: a non-zero exit status) stops
# the benchmark with exit 2 and the run's last lines: a run that stops early
# costs less and would pass the goal.
#
# Usage: scripts/bench-cost.sh [--reps N] [--work DIR] [--strict] [--callgrind]
#                              [--only sqlite|sqlite-check|cxx] [--file TU]
#   --file TU  only TU (any C file, no extra flags), e.g. a small one to try
#              the script itself
#   env: CLANG (the clang beside CLANG_TIDY, else clang-19), CLANG_TIDY
#   (clang-tidy-19), HOTPATH_PLUGIN
#        (build/plugin/libhotpathTidyModule.so)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
reps=7 work=$root/build/bench-cost strict=0 only= callgrind=0
while [ $# -gt 0 ]; do
  case $1 in
    --reps) reps=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    --strict) strict=1; shift ;;
    --callgrind) callgrind=1; shift ;;
    --only) only=$2; shift 2 ;;
    --file) only=file file=$(realpath "$2"); shift 2 ;;
    -h|--help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench-cost: unknown argument $1" >&2; exit 2 ;;
  esac
done
tidy=${CLANG_TIDY:-clang-tidy-19}
# The clang of the same LLVM as the clang-tidy: another major parses at
# another cost, and the ratio would measure that instead of the checks.
clang=${CLANG:-}
if [ -z "$clang" ]; then
  clang=clang-19
  tidy_path=$(command -v "$tidy" || true)
  [ -n "$tidy_path" ] && [ -x "$(dirname "$(realpath "$tidy_path")")/clang" ] &&
    clang=$(dirname "$(realpath "$tidy_path")")/clang
fi
plugin=${HOTPATH_PLUGIN:-$root/build/plugin/libhotpathTidyModule.so}
[ -f "$plugin" ] || { echo "bench-cost: no module at $plugin (build first: scripts/build.sh)" >&2; exit 2; }
# timed CMD...: runs CMD and writes "wall_s cpu_s peak_rss_kb" to $t; its exit status.
timed() {
  python3 - "$t" "$@" <<'PY'
import resource, subprocess, sys, time
out, cmd = sys.argv[1], sys.argv[2:]
start = time.monotonic()
rc = subprocess.call(cmd)
wall = time.monotonic() - start
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
with open(out, "w") as f:
    f.write(f"{wall:.4f} {ru.ru_utime + ru.ru_stime:.4f} {ru.ru_maxrss}\n")
sys.exit(rc)
PY
}
mkdir -p "$work"

# --- the TUs ---------------------------------------------------------------
sqlite_tu() {
  # Reuses real-project.py's deb-src set-up and unpacking (same cache layout).
  local src
  src=$(python3 - "$root/scripts/real-project.py" "$work" <<'EOF'
import importlib.util, sys, contextlib
spec = importlib.util.spec_from_file_location('real_project', sys.argv[1])
rp = importlib.util.module_from_spec(spec); spec.loader.exec_module(rp)
with contextlib.redirect_stdout(sys.stderr):
    rp.ensure_deb_src()
    src = rp.fetch_source('sqlite3', sys.argv[2])
print(src)
EOF
)
  if [ ! -s "$src/sqlite3.c" ]; then
    echo "bench-cost: making the amalgamation in $src (configure && make sqlite3.c)" >&2
    command -v tclsh >/dev/null || apt-get -o DPkg::Lock::Timeout=600 install -y -q tcl >/dev/null
    (cd "$src" && ./configure >"$work/sqlite-configure.log" 2>&1 &&
       make sqlite3.c >"$work/sqlite-make.log" 2>&1) ||
      { echo "bench-cost: could not make sqlite3.c, see $work/sqlite-*.log" >&2; exit 2; }
  fi
  sqlite_src=$src
  sqlite_flags=(-I"$src" $(grep -o -- '-DSQLITE_[A-Za-z0-9_]*\(=[0-9]*\)\{0,1\}' "$src/debian/rules" | sort -u))
}

cxx_tu() {
  cxx_file=$work/stdcxx.cpp
  cat >"$cxx_file" <<'EOF'
// A C++ TU for the cost benchmark: the whole standard library plus some
// instantiations, and a few check-function shapes so the matchers fire.
#include <bits/stdc++.h>

struct buf { std::vector<unsigned char> data; std::size_t len; };

static bool check_bounds(const buf &b, std::size_t off, std::size_t size) {
  std::size_t end = off + size;
  if (off > b.len) { std::fprintf(stderr, "bad start %zu\n", off); return false; }
  if (end > b.len) { std::fprintf(stderr, "bad end %zu\n", end); return false; }
  return true;
}

template <typename T> T get(const buf &b, std::size_t off) {
  T v{};
  if (!check_bounds(b, off, sizeof(T))) return v;
  std::memcpy(&v, b.data.data() + off, sizeof(T));
  return v;
}

template <typename K, typename V> struct table {
  std::map<K, V> ordered; std::unordered_map<K, V> hashed;
  void put(const K &k, const V &v) { ordered[k] = v; hashed[k] = v; }
  std::optional<V> find(const K &k) const {
    auto it = hashed.find(k);
    if (it == hashed.end()) return std::nullopt;
    return it->second;
  }
};

int main(int argc, char **argv) {
  buf b{std::vector<unsigned char>(64), 64};
  long sum = get<int>(b, 0) + get<long>(b, 8) + get<short>(b, 60);
  table<std::string, std::vector<int>> t;
  table<int, std::string> u;
  for (int i = 0; i < argc; ++i) {
    t.put(argv[i], {i, i + 1});
    u.put(i, argv[i]);
  }
  std::vector<std::pair<std::string, int>> v;
  for (auto &[k, x] : t.ordered) v.emplace_back(k, int(x.size()));
  std::sort(v.begin(), v.end());
  std::regex re("[a-z]+([0-9]*)");
  std::smatch m;
  std::string s = std::accumulate(v.begin(), v.end(), std::string(),
                                  [](std::string a, const auto &p) { return a + p.first; });
  if (std::regex_search(s, m, re)) sum += m.size();
  std::variant<int, std::string, double> var = 3.0;
  sum += std::visit([](auto &&x) -> long { return sizeof(x); }, var);
  std::cout << sum << '\n';
  return 0;
}
EOF
  cxx_flags=(-std=c++17)
}

# sqlite3.c and a check function after it: a finding candidate, so the
# call-site index walks all of sqlite3.c's bodies to rate its heat.
sqlite_check_tu() {
  sqlite_check_file=$work/sqlite3-with-check.c
  cat >"$sqlite_check_file" <<'EOF'
/* sqlite3.c plus one check function: its heat is rated from the call sites,
   so every body of sqlite3.c is walked. */
#include "sqlite3.c"
#include <stdio.h>
struct hotpath_bench_buf { unsigned long len; };
int hotpath_bench_check(const struct hotpath_bench_buf *b, unsigned long off) {
  if (off > b->len) { fprintf(stderr, "offset %lu past %lu\n", off, b->len); return 0; }
  return 1;
}
EOF
}

# --- measuring --------------------------------------------------------------
# run NAME LOG CMD...: one timed run; appends "NAME wall cpu rss_kb rc" to LOG.
run() {
  local name=$1 log=$2; shift 2
  local t=$work/time.$$ rc=0
  timed "$@" >"$work/last-$name.out" 2>&1 || rc=$?
  read -r wall cpu_s rss <"$t"; rm -f "$t"
  echo "$name $wall $cpu_s $rss $rc" >>"$log"
  failed_run "$name" "$rc" "$work/last-$name.out"
}

# failed_run NAME EXIT OUTPUT: stops the benchmark when a run failed.
failed_run() {
  if [ "$2" != 0 ] || grep -q 'Stack dump\|PLEASE submit a bug report' "$3"; then
    echo "bench-cost: $1 exited $2, so its figures mean nothing; its last lines ($3):" >&2
    tail -5 "$3" >&2
    exit 2
  fi
}

median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

bench() {
  local label=$1 file=$2; shift 2
  local flags=("$@") log=$work/$label.times
  : >"$log"
  local lines
  lines=$(wc -l <"$file")
  echo "== $label: $file ($lines lines), $reps rounds"
  echo "   clang:   $clang -fsyntax-only ${flags[*]} $(basename "$file")"
  echo "   tidy-pp: $tidy -checks='-*,readability-duplicate-include' --quiet $(basename "$file") -- ${flags[*]}"
  echo "   tidy-ast: $tidy -checks='-*,bugprone-suspicious-semicolon' --quiet $(basename "$file") -- ${flags[*]}"
  echo "   hotpath: $tidy --load=$plugin -checks='-*,hotpath-*' --quiet $(basename "$file") -- ${flags[*]}"
  # One warm-up round (page cache, ccache-free): not counted.
  "$clang" -fsyntax-only "${flags[@]}" "$file" >/dev/null 2>&1 || true
  for _ in $(seq "$reps"); do
    run clang "$log" "$clang" -fsyntax-only "${flags[@]}" "$file"
    run tidy-pp "$log" "$tidy" -checks='-*,readability-duplicate-include' --quiet "$file" -- "${flags[@]}"
    run tidy-ast "$log" "$tidy" -checks='-*,bugprone-suspicious-semicolon' --quiet "$file" -- "${flags[@]}"
    run hotpath "$log" "$tidy" --load="$plugin" -checks='-*,hotpath-*' --quiet "$file" -- "${flags[@]}"
  done
  local name
  declare -gA wall cpu rss
  for name in clang tidy-pp tidy-ast hotpath; do
    wall[$label.$name]=$(awk -v n=$name '$1==n {print $2}' "$log" | median)
    cpu[$label.$name]=$(awk -v n=$name '$1==n {print $3}' "$log" | median)
    rss[$label.$name]=$(awk -v n=$name '$1==n {print $4}' "$log" | median)
  done
  printf '   %-8s %9s %9s %12s\n' run 'wall s' 'cpu s' 'peak RSS MB'
  for name in clang tidy-pp tidy-ast hotpath; do
    printf '   %-8s %9.3f %9.3f %12.1f\n' $name "${wall[$label.$name]}" "${cpu[$label.$name]}" \
      "$(echo "${rss[$label.$name]} / 1024" | bc -l)"
  done
  local r_hc r_mem line=BENCH-COST\ $label
  r_hc=$(echo "${cpu[$label.hotpath]} / ${cpu[$label.clang]}" | bc -l)
  r_mem=$(echo "${rss[$label.hotpath]} / ${rss[$label.clang]}" | bc -l)
  printf '   ratio to clang (median CPU time): hotpath %.3f (goal <= 1.10), tidy-pp %.3f, tidy-ast %.3f; hotpath/tidy-pp %.3f\n' \
    "$r_hc" "$(echo "${cpu[$label.tidy-pp]} / ${cpu[$label.clang]}" | bc -l)" \
    "$(echo "${cpu[$label.tidy-ast]} / ${cpu[$label.clang]}" | bc -l)" \
    "$(echo "${cpu[$label.hotpath]} / ${cpu[$label.tidy-pp]}" | bc -l)"
  printf '   ratio to clang (median wall time): hotpath %.3f\n' \
    "$(echo "${wall[$label.hotpath]} / ${wall[$label.clang]}" | bc -l)"
  printf '   peak RSS hotpath/clang %.3f\n' "$r_mem"
  for name in clang tidy-pp tidy-ast hotpath; do
    line+=" ${name}_cpu_s=${cpu[$label.$name]} ${name}_rss_kb=${rss[$label.$name]}"
  done
  echo "$line hotpath_clang=$(printf %.3f "$r_hc")"
  [ "$callgrind" = 1 ] && instructions "$label" "$file" "${flags[@]}"
  if awk -v r="$r_hc" 'BEGIN {exit !(r > 1.10)}'; then over=1; fi
}

# instructions LABEL FILE FLAGS...: one callgrind run each of clang, tidy-pp
# and hotpath; prints the instruction counts and their ratios.
instructions() {
  local label=$1 file=$2; shift 2
  local flags=("$@") name n rc line="BENCH-COST-IR $label"
  command -v valgrind >/dev/null || apt-get -o DPkg::Lock::Timeout=600 install -y -q valgrind >/dev/null
  declare -A ir
  for name in clang tidy-pp hotpath; do
    local cmd
    case $name in
      clang) cmd=("$clang" -fsyntax-only "${flags[@]}" "$file") ;;
      tidy-pp) cmd=("$tidy" -checks='-*,readability-duplicate-include' --quiet "$file" -- "${flags[@]}") ;;
      hotpath) cmd=("$tidy" --load="$plugin" -checks='-*,hotpath-*' --quiet "$file" -- "${flags[@]}") ;;
    esac
    rc=0
    valgrind --tool=callgrind --callgrind-out-file="$work/callgrind.$label.$name" "${cmd[@]}" \
      >"$work/last-$name.out" 2>"$work/callgrind.$label.$name.log" || rc=$?
    failed_run "$name (callgrind)" "$rc" "$work/callgrind.$label.$name.log"
    n=$(sed -n 's/^==[0-9]*== Collected : \([0-9]*\)$/\1/p' "$work/callgrind.$label.$name.log")
    [ -n "$n" ] || { echo "bench-cost: callgrind failed for $name, see $work/callgrind.$label.$name.log" >&2; exit 2; }
    ir[$name]=$n
    line+=" ${name}_ir=$n"
  done
  printf '   instructions (callgrind, one run each): clang %s, tidy-pp %s, hotpath %s\n' \
    "${ir[clang]}" "${ir[tidy-pp]}" "${ir[hotpath]}"
  printf '   ratio to clang (instructions): hotpath %.3f, tidy-pp %.3f; hotpath/tidy-pp %.3f\n' \
    "$(echo "${ir[hotpath]} / ${ir[clang]}" | bc -l)" "$(echo "${ir[tidy-pp]} / ${ir[clang]}" | bc -l)" \
    "$(echo "${ir[hotpath]} / ${ir[tidy-pp]}" | bc -l)"
  local r_ir
  r_ir=$(echo "${ir[hotpath]} / ${ir[clang]}" | bc -l)
  echo "$line hotpath_clang_ir=$(printf %.3f "$r_ir")"
  # Over when hotpath/clang passes 1.10 and the module itself adds more than
  # 3.1% to clang-tidy's own run: the share 1.10 leaves it over LLVM 19's
  # clang-tidy (tidy-pp 1.067). clang-tidy-22 alone costs 1.133 times
  # clang-22, so no module can meet 1.10 there; what it adds stays judged.
  local r_mod
  r_mod=$(echo "${ir[hotpath]} / ${ir[tidy-pp]}" | bc -l)
  if awk -v r="$r_ir" -v m="$r_mod" 'BEGIN {exit !(r > 1.10 && m > 1.031)}'; then over_ir=1; fi
}

over=0 over_ir=0
command -v bc >/dev/null || apt-get -o DPkg::Lock::Timeout=600 install -y -q bc >/dev/null
if [ -z "$only" ] || [ "$only" = sqlite ]; then
  sqlite_tu
  bench sqlite "$sqlite_src/sqlite3.c" "${sqlite_flags[@]}"
fi
if [ -z "$only" ] || [ "$only" = sqlite-check ]; then
  [ -n "${sqlite_src:-}" ] || sqlite_tu
  sqlite_check_tu
  bench sqlite-check "$sqlite_check_file" "${sqlite_flags[@]}"
fi
if [ -z "$only" ] || [ "$only" = cxx ]; then
  cxx_tu
  bench cxx "$cxx_file" "${cxx_flags[@]}"
fi
if [ "$only" = file ]; then
  bench "$(basename "$file")" "$file"
fi
# --strict judges the instruction counts when there are some: CPU time of a
# 0.4 s run moves by several percent from run to run on a shared machine.
if [ "$callgrind" = 1 ]; then over=$over_ir; fi
if [ "$over" = 1 ]; then
  echo "bench-cost: hotpath/clang over the 1.10 goal, and in instructions the module adds over 3.1%" \
       "to clang-tidy's own run (profile: docs/robustness.md, 'Cost')"
  [ "$strict" = 1 ] && exit 1
fi
exit 0
