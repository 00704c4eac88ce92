#!/usr/bin/env bash
# Relative paths in the checks' Path options resolve as clang-tidy users
# expect (issue 24): against the directory of the .clang-tidy that sets them,
# or, set by -config, against the directory clang-tidy was started in; never
# against the compile command's directory, which ClangTool changes into. A
# CMake-like tree: build/compile_commands.json says "directory": build/ and
# names its sources relative to it. Each case through plain clang-tidy
# --load, the hotpath-tidy binary with -p, and run-clang-tidy -load, all run
# from the tree's root.
# Usage: relative-paths.sh LLVM_BIN_DIR PLUGIN HOTPATH_TIDY
set -euo pipefail
bin=$1 plugin=$(realpath "$2") hpt=$(realpath "$3")
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck source=lib.sh
source "$here/lib.sh"

root=$work/tree
mkdir -p "$root/src" "$root/tools" "$root/build"
cp "$here/../../rules/generic-gnu-c.yaml" "$root/tools/my-rules.yaml"
printf '#ifndef DBG_H\n#define DBG_H\n#define ASSERT(x) (void)(x)\n#endif\n' >"$root/src/dbg.h"
printf '#include "dbg.h"\nint sorted(const int *v, int n);\nint first(const int *v, int n)\n{\n\tASSERT(sorted(v, n));\n\treturn v[0];\n}\n' >"$root/src/a.c"
printf '#include "dbg.h"\nint second(const int *v)\n{\n\treturn v[1];\n}\n' >"$root/src/b.c"
cat >"$root/build/compile_commands.json" <<J
[{"directory": "$root/build", "file": "../src/a.c", "arguments": ["cc", "-std=c11", "-c", "../src/a.c"]},
 {"directory": "$root/build", "file": "../src/b.c", "arguments": ["cc", "-std=c11", "-c", "../src/b.c"]}]
J
finding="src/dbg.h:3:9: warning: disabled assert 'ASSERT'"
(cd "$root" && "$hpt" --index-only -p build >/dev/null 2>&1)
[ -f "$root/build/hotpath-index/index.db" ] || { echo "FAIL no index was built"; exit 1; }

# route NAME CONFIG...: runs route NAME from the root on src/a.c (the driver
# and run-clang-tidy: the whole database) with the extra arguments; output in
# $work/out, exit status in $rc.
route() {
  local name=$1
  shift
  rc=0
  case $name in
    clang-tidy)
      (cd "$root" && "$bin/clang-tidy" --load="$plugin" -checks='-*,hotpath-*' --header-filter='.*' \
         -p build "$@" src/a.c) >"$work/out" 2>&1 || rc=$? ;;
    hotpath-tidy)
      (cd "$root" && "$hpt" -p build "$@") >"$work/out" 2>&1 || rc=$? ;;
    run-clang-tidy)
      (cd "$root" && "$bin/run-clang-tidy" -clang-tidy-binary "$bin/clang-tidy" -load "$plugin" \
         -checks='-*,hotpath-*' -header-filter='.*' -p build "$@") >"$work/out" 2>&1 || rc=$? ;;
  esac
}
# runs_clean WHAT: the route found the finding and said no error (the driver
# exits 1 for findings, clang-tidy 0).
runs_clean() {
  if grep -qF "$finding" "$work/out" && ! grep -q 'error' "$work/out" && [ "$rc" -le 1 ]; then
    ok "$1: exit $rc, the finding, no error"
  else
    bad "$1: exit $rc"; sed 's/^/    /' "$work/out" | head -8
  fi
}
# fails_naming WHAT TEXT...: an error, a non-zero exit, and each TEXT said.
fails_naming() {
  local what=$1 t miss=()
  shift
  for t in "$@"; do grep -qF -- "$t" "$work/out" || miss+=("$t"); done
  if [ "$rc" != 0 ] && [ "${#miss[@]}" = 0 ]; then
    ok "$what: exit $rc, names $*"
  else
    bad "$what: exit $rc, missing: ${miss[*]}"; sed 's/^/    /' "$work/out" | head -8
  fi
}

routes=(clang-tidy hotpath-tidy run-clang-tidy)
for r in "${routes[@]}"; do
  # -config: against the launch directory, not build/ (the README's example).
  route "$r" -config='{CheckOptions: {ProjectIndex: build/hotpath-index}}'
  runs_clean "$r: -config ProjectIndex: build/hotpath-index"
  # .clang-tidy at the root, TU in src/: against the root.
  printf 'CheckOptions:\n  RuleSet: tools/my-rules.yaml\n' >"$root/.clang-tidy"
  route "$r"
  runs_clean "$r: .clang-tidy RuleSet: tools/my-rules.yaml"
  # Both at once: a -config that inherits the .clang-tidy files, each path
  # resolved by where it was set.
  route "$r" -config='{InheritParentConfig: true, CheckOptions: {ProjectIndex: build/hotpath-index}}'
  runs_clean "$r: both, -config inheriting the .clang-tidy"
  # Missing files: the absolute path tried, and where the relative one came from.
  printf 'CheckOptions:\n  RuleSet: tools/missing.yaml\n' >"$root/.clang-tidy"
  route "$r"
  fails_naming "$r: .clang-tidy RuleSet: tools/missing.yaml" \
    "rules file '$root/tools/missing.yaml': cannot read: No such file or directory" \
    "(RuleSet 'tools/missing.yaml' is relative to the directory of $root/.clang-tidy, which sets it)"
  rm "$root/.clang-tidy"
  # The driver sets ProjectIndex itself; without its index it leaves it to -config.
  extra=()
  [ "$r" = hotpath-tidy ] && extra=(--no-index)
  route "$r" "${extra[@]}" -config='{CheckOptions: {ProjectIndex: build/no-index}}'
  fails_naming "$r: -config ProjectIndex: build/no-index" \
    "ProjectIndex: $root/build/no-index: cannot read the project index" \
    "(ProjectIndex 'build/no-index' is relative to $root, where clang-tidy was started"
done

# The driver's own index named relatively in -config is the same index, no
# conflict; another one is.
route hotpath-tidy -config='{CheckOptions: {ProjectIndex: build/hotpath-index/index.db}}'
runs_clean "hotpath-tidy: -config naming the run's own index.json relatively: no conflict"
route hotpath-tidy -config='{CheckOptions: {ProjectIndex: build/other-index}}'
fails_naming "hotpath-tidy: -config naming another index: a conflict" \
  "-config sets ProjectIndex to 'build/other-index', and the command line to '$root/build/hotpath-index/index.db': give it once"

# Control: the resolution is what makes the difference. Started in build/,
# the -config's build/hotpath-index is build/build/hotpath-index.
rc=0
(cd "$root/build" && "$bin/clang-tidy" --load="$plugin" -checks='-*,hotpath-*' -p . \
   -config='{CheckOptions: {ProjectIndex: build/hotpath-index}}' ../src/a.c) >"$work/out" 2>&1 || rc=$?
fails_naming "control: started in build/, -config's build/hotpath-index is under build/build" \
  "ProjectIndex: $root/build/build/hotpath-index: cannot read the project index"
finish
