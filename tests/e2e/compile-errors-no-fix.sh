#!/usr/bin/env bash
# A TU with compile errors contributes no fix, on every route (issue 24).
# clang-tidy --fix applies nothing of such a TU, but --export-fixes exports
# its fix-its all the same (so clang-apply-replacements and run-clang-tidy
# -fix applied them), and -fix-errors applies them: the module decides
# instead. a.c uses the shared header's ASSERT in a way that makes the
# header's definition worth rewriting, and has a compile error elsewhere;
# b.c includes the header and uses nothing. On each route the header stays
# as it was and, where the route prints findings, the finding is said with
# the note "no fix: the translation unit has compile errors; ...", without
# -fix-errors. The control: the same tree without the error rewrites the
# header on every route.
# Usage: compile-errors-no-fix.sh LLVM_BIN_DIR PLUGIN HOTPATH_TIDY
set -euo pipefail
bin=$1 plugin=$(realpath "$2") hpt=$(realpath "$3")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

header='#ifndef DBG_H\n#define DBG_H\n#define ASSERT(x) (void)(x)\n#endif\n'
fixed='#define ASSERT(x) ((void)(0 && !!(x)))'
note="src/dbg.h:3:9: note: no fix: the translation unit has compile errors; no fix is offered from it"
# tree DIR ERROR: the two-TU tree; ERROR is added to a.c's return.
tree() {
  mkdir -p "$1/src" "$1/build"
  printf "$header" >"$1/src/dbg.h"
  printf '#include "dbg.h"\nint sorted(const int *v, int n);\nint first(const int *v, int n)\n{\n\tASSERT(sorted(v, n));\n\treturn v[0]%s;\n}\n' "$2" >"$1/src/a.c"
  printf '#include "dbg.h"\nint second(const int *v)\n{\n\treturn v[1];\n}\n' >"$1/src/b.c"
  cat >"$1/build/compile_commands.json" <<J
[{"directory": "$1/build", "file": "$1/src/a.c", "arguments": ["cc", "-std=c11", "-c", "$1/src/a.c"]},
 {"directory": "$1/build", "file": "$1/src/b.c", "arguments": ["cc", "-std=c11", "-c", "$1/src/b.c"]}]
J
}
# With the project index every use of the header's macro is known, as a
# header rewrite may ask; the driver builds its own.
index='-config={CheckOptions: {ProjectIndex: build/hotpath-index}}'
tidy=("$bin/clang-tidy" --load="$plugin" -checks='-*,hotpath-*' --header-filter='.*' -p build "$index")
# route NAME DIR: applies route NAME's fixes in DIR; its output in DIR/out.
route() {
  local d=$2
  (cd "$d" && "$hpt" --index-only -p build) >/dev/null 2>&1
  case $1 in
    clang-tidy-fix) (cd "$d" && "${tidy[@]}" --fix src/a.c src/b.c) ;;
    clang-tidy-fix-errors) (cd "$d" && "${tidy[@]}" --fix-errors src/a.c src/b.c) ;;
    export-fixes)
      mkdir -p "$d/fixes"
      for f in a b; do
        (cd "$d" && "${tidy[@]}" --export-fixes="fixes/$f.yaml" "src/$f.c") || true
      done
      "$bin/clang-apply-replacements" "$d/fixes" ;;
    run-clang-tidy)
      (cd "$d" && "$bin/run-clang-tidy" -clang-tidy-binary "$bin/clang-tidy" \
         -clang-apply-replacements-binary "$bin/clang-apply-replacements" -load "$plugin" \
         -checks='-*,hotpath-*' -header-filter='.*' -p build "$index" -fix) ;;
    hotpath-tidy) (cd "$d" && "$hpt" -p build --fix) ;;
  esac >"$d/out" 2>&1 || true
}

for r in clang-tidy-fix clang-tidy-fix-errors export-fixes run-clang-tidy hotpath-tidy; do
  d=$work/$r-error
  tree "$d" ' + undeclared_thing'
  route "$r" "$d"
  if cmp -s <(printf "$header") "$d/src/dbg.h"; then
    ok "$r, a.c does not compile: the header is unchanged"
  else
    bad "$r, a.c does not compile: the header was rewritten"; sed 's/^/    /' "$d/out" | head -10
  fi
  # The driver skips a TU clang cannot compile and says so; the others
  # print the finding, with its note.
  if [ "$r" = hotpath-tidy ]; then
    want="hotpath-tidy: error: src/a.c: skipped: clang cannot compile it"
  else
    want=$note
  fi
  if sed "s|$d/||g" "$d/out" | grep -qF -- "$want" ||
     { [ "$r" = export-fixes ] && grep -qF "no fix: the translation unit has compile errors" "$d/fixes/a.yaml"; }; then
    ok "$r, a.c does not compile: says '$want'"
  else
    bad "$r, a.c does not compile: does not say '$want'"; sed 's/^/    /' "$d/out" | head -10
  fi
  c=$work/$r-control
  tree "$c" ''
  route "$r" "$c"
  if grep -qF -- "$fixed" "$c/src/dbg.h"; then
    ok "$r, control without the error: the header is rewritten"
  else
    bad "$r, control without the error: the header is not rewritten"; sed 's/^/    /' "$c/out" | head -10
  fi
done
# The export of the TU with errors carries no replacement at all.
if grep -q 'ReplacementText' "$work/export-fixes-error/fixes/a.yaml"; then
  bad "export of a.c (errors): has replacements"
else
  ok "export of a.c (errors): no replacement"
fi
finish
