#!/usr/bin/env bash
# Purity from visible bodies and from the project index, end to end, on a
# small C++ tree: Grid::checkCell() (grid.cpp, class in grid.h) tests its
# cell with the standard containers' observers (size(), empty(),
# operator[] const) and with limit_for(), a function that only reads,
# defined in another file (limits.cpp), so pure only through the project
# index; in main.cpp, walk() checks every cell of a grid, row by row, and
# main() walks every grid on every pass: four nested loops on the chain of
# calls, 2^20 runs estimated, hot by the default settings (heat by the chain
# of calls, not by counting call sites).
#   - `hotpath-tidy -p build --fix` finds it and fixes it, exactly as
#     expected;
#   - before and after build with g++ and clang++ -Wall -Wextra -Werror and
#     behave the same on inputs taking every branch, failing ones included;
#   - after runs fewer instructions than before under callgrind;
#   - a second run finds nothing;
#   - control: with limit_for() counting its calls in a global, the index
#     says so and the check is not reported; plain clang-tidy's explain
#     says why, naming what the body in the other file writes.
# Usage: cxx-container-check.sh HOTPATH_TIDY CLANG_TIDY PLUGIN
set -euo pipefail
binary=$(realpath "$1") tidy=$2 plugin=$(realpath "$3")
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck source=lib.sh
source "$here/lib.sh"

# tree DEST: the project, with build/compile_commands.json.
tree() {
  local d=$1
  rm -rf "$d" && mkdir -p "$d/include" "$d/src" "$d/build"
  cat >"$d/include/grid.h" <<'EOF'
#ifndef GRID_H
#define GRID_H
#include <cstddef>
#include <vector>

namespace grid {
// The largest value a cell of this kind may hold.
int limit_for(int kind);

class Grid {
public:
  explicit Grid(std::size_t n);
  // True when cell I exists and holds no more than KIND allows; reports when not.
  bool checkCell(std::size_t i, int kind) const;
  int at(std::size_t i) const { return cells_[i]; }

private:
  std::vector<int> cells_;
};
} // namespace grid

#endif // GRID_H
EOF
  cat >"$d/src/limits.cpp" <<'EOF'
#include "grid.h"

namespace grid {
int limit_for(int kind) { return kind * 100 + 50; }
} // namespace grid
EOF
  cat >"$d/src/grid.cpp" <<'EOF'
#include <cstdio>
#include "grid.h"

namespace grid {
Grid::Grid(std::size_t n) : cells_(n) {
  for (std::size_t i = 0; i < n; i++)
    cells_[i] = static_cast<int>((i * 37) % 200);
}

bool Grid::checkCell(std::size_t i, int kind) const {
  if (i >= cells_.size() || cells_.empty()) {
    std::fprintf(stderr, "cell %zu beyond %zu\n", i, cells_.size());
    return false;
  }
  if (cells_[i] > limit_for(kind)) {
    std::fprintf(stderr, "cell %zu holds %d, over %d\n", i, cells_[i], limit_for(kind));
    return false;
  }
  return true;
}
} // namespace grid
EOF
  cat >"$d/src/main.cpp" <<'EOF'
#include <cstdio>
#include <cstdlib>
#include <vector>
#include "grid.h"

struct Shape {
  std::size_t rows, cols;
};

// The sum of the cells of G, read as a grid of SHAPE with EXTRA more cells
// read at the end of each row, that hold no more than KIND allows; the
// others are counted in FAILURES.
long walk(const grid::Grid &g, Shape shape, std::size_t extra, int kind, long &failures) {
  long total = 0;
  for (std::size_t r = 0; r < shape.rows; r++)
    for (std::size_t c = 0; c < shape.cols + extra; c++) {
      std::size_t i = r * shape.cols + c;
      if (g.checkCell(i, kind))
        total += g.at(i);
      else
        failures++;
    }
  return total;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: prog PASSES KIND [EXTRA]\n");
    return 2;
  }
  long passes = std::atol(argv[1]);
  int kind = std::atoi(argv[2]);
  std::size_t extra = argc > 3 ? std::strtoul(argv[3], nullptr, 10) : 0;
  const Shape shapes[] = {{8, 8}, {4, 16}};
  std::vector<grid::Grid> grids;
  for (const Shape &s : shapes)
    grids.emplace_back(s.rows * s.cols);
  long total = 0, failures = 0;
  for (long p = 0; p < passes; p++)
    for (std::size_t k = 0; k < grids.size(); k++)
      total += walk(grids[k], shapes[k], extra, kind, failures);
  std::printf("total %ld, failures %ld\n", total, failures);
  return failures ? 3 : 0;
}
EOF
  python3 - "$d" <<'PY'
import glob, json, os, sys
d = sys.argv[1]
json.dump([{"directory": d, "file": f, "arguments": ["c++", "-std=c++17", "-O2", "-Iinclude", "-c", f,
            "-o", "build/" + os.path.basename(f) + ".o"]}
           for f in sorted(os.path.relpath(p, d) for p in glob.glob(d + "/src/*.cpp"))],
          open(d + "/build/compile_commands.json", "w"), indent=1)
PY
}
findings() { grep -E '^[^ ]+:[0-9]+:[0-9]+: (warning|note|error): ' "$1" || true; }
same_lines() {
  diff -u "$2" "$3" >"$work/lines.diff" && return 0
  echo "  $1:"; sed 's/^/    /' "$work/lines.diff" | head -30; return 1
}

# fewer BEFORE AFTER: AFTER runs fewer instructions than BEFORE on IR_ARGS.
fewer() {
  local b a
  b=$(ir "$1") a=$(ir "$2")
  if [ -n "$b" ] && [ -n "$a" ] && [ "$a" -lt "$b" ]; then
    echo "callgrind Ir before $b > after $a ($(awk -v b="$b" -v a="$a" 'BEGIN { printf "%.3f", a / b }'))"
    return 0
  fi
  echo "callgrind Ir before '$b', after '$a': not fewer"; return 1
}

before=$work/before after=$work/after
tree "$before"; tree "$after"

# 1. Found through the index and fixed.
cat >"$work/expect.txt" <<'E'
src/grid.cpp:10:12: warning: check function 'checkCell' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]
src/grid.cpp:10:12: note: 'checkCell' is hot: called in 2 nested loops in walk (main.cpp:18), which is called in 2 nested loops in main (main.cpp:41)
E
rc=0
(cd "$after" && "$binary" -p build --fix -j2) >"$work/fix.out" 2>"$work/fix.err" || rc=$?
findings "$work/fix.out" >"$work/fix.txt"
if [ "$rc" = 1 ] && same_lines "findings" "$work/expect.txt" "$work/fix.txt"; then
  ok "hotpath-tidy -p build --fix: exit 1, the expected finding, exactly"
else
  bad "hotpath-tidy -p build --fix (exit $rc)"; cat "$work/fix.out" "$work/fix.err" | head -20
fi
if grep -q 'inline bool Grid::checkCell' "$after/include/grid.h" &&
   grep -q 'checkCell_report' "$after/src/grid.cpp" &&
   grep -q 'limit_for(kind)' "$after/include/grid.h"; then
  ok "the fast path, limit_for() and the observers included, is inline in grid.h; the reporter in grid.cpp"
else
  bad "the fix is not where it belongs"; (cd "$work" && diff -ruN -x build before after) | head -60
fi
# Hot by the default settings (no .clang-tidy in the tree): the chain's
# estimate reaches the default ChainHeatThreshold, 20.
(cd "$before" && "$binary" -p build --explain=checkCell src/grid.cpp) >"$work/heat.out" 2>&1 || true
heat="src/grid.cpp:10:12: note: hot: called in 2 nested loops in walk (main.cpp:18), which is called in 2 nested loops in main (main.cpp:41) (2^20 runs estimated: 4 loop(s), 0 branch(es) on the chain; 2^20 needed)"
if [ ! -e "$before/.clang-tidy" ] && grep -qxF "$heat" "$work/heat.out"; then
  ok "hot by the default ChainHeatThreshold: 4 loops, 0 branches, 2^20 runs estimated"
else
  bad "explain does not give the chain's estimate against the default"; grep -E 'note|remark' "$work/heat.out" | head -8
fi

# 2. Builds, same behaviour on every branch, fewer instructions.
runs=("2000 2" "3 1" "2 2 3" "1 0 1" "" "5")
for cc in g++ clang++-19; do
  built=1
  for v in before after; do
    (cd "$work/$v" && "$cc" -std=c++17 -O2 -Wall -Wextra -Werror -Iinclude -o "prog-$cc" src/*.cpp) \
      >"$work/build.log" 2>&1 || { built=0; bad "$v: $cc -Wall -Wextra -Werror"; cat "$work/build.log"; }
  done
  [ "$built" = 1 ] || continue
  ok "before and after build with $cc -Wall -Wextra -Werror"
  same_behaviour_on "$cc" "$before/prog-$cc" "$after/prog-$cc" "${runs[@]}"
  # The comparison means something only if both reports fired.
  run_captured "$work/fire" "$before/prog-$cc" 1 0 1
  if grep -q '^cell 64 beyond 64' "$work/fire.err" && grep -q 'over 50$' "$work/fire.err" &&
     [ "$(cat "$work/fire.rc")" = 3 ]; then
    ok "$cc: a failing input fires both reports and exits 3"
  else
    bad "$cc: the failing input fires nothing"
  fi
  IR_ARGS="20000 2"
  if r=$(fewer "$before/prog-$cc" "$after/prog-$cc"); then ok "$cc: $r"; else bad "$cc: $r"; fi
  expect_failure "$cc: the unfixed build as 'after'" "not fewer" \
    fewer "$before/prog-$cc" "$before/prog-$cc"
done

# 3. Nothing more to fix (the index refreshed first; no result cache: every
# TU analysed again, nothing written into build/).
(cd "$after" && "$binary" --index-only -p build) >/dev/null 2>&1
if second_run_clean "$after" "$work/again.log" "$binary" -p build --fix -j2 --no-cache; then
  ok "second --fix run: exit 0, no findings, no changes"
else
  bad "second --fix run"
fi

# 4. Control: limit_for() counts its calls; the index knows, and says what.
impure=$work/impure
tree "$impure"
sed -i 's/^int limit_for(int kind) { return kind \* 100 + 50; }/int lookups;\nint limit_for(int kind) { lookups++; return kind * 100 + 50; }/' \
  "$impure/src/limits.cpp"
rc=0
(cd "$impure" && "$binary" -p build) >"$work/impure.out" 2>&1 || rc=$?
if [ "$rc" = 0 ] && ! grep -q "checkCell" "$work/impure.out"; then
  ok "control: limit_for() writes a global: checkCell is no check function (exit 0)"
else
  bad "control: limit_for() writes, yet (exit $rc):"; head -5 "$work/impure.out"
fi
(cd "$impure" && "$tidy" --load="$plugin" -checks='-*,hotpath-check-split' -p build \
   -config="{CheckOptions: {ProjectIndex: build/hotpath-index, Explain: checkCell}}" src/grid.cpp) \
  >"$work/explain.out" 2>/dev/null || true
want="src/grid.cpp:15:19: note: not a check function: the condition of branch 2 does work besides testing: it calls 'grid::limit_for', whose body in another file increments 'lookups'"
if grep -qF "$want" <(sed "s#^$impure/##" "$work/explain.out"); then
  ok "control: explain names what the body in the other file writes"
else
  bad "control: explain does not say why"; grep -E 'note|remark' "$work/explain.out" | head -5
fi

finish
