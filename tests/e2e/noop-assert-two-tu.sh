#!/usr/bin/env bash
# hotpath-noop-assert across translation units: the disabled ASSERT lives in
# a header; a.c only has harmless uses (a call with no visible effect), b.c
# has ASSERT(n++ > 0). a.c alone
# gets the definition rewritten (exactly); run on both files, the definition
# must not be rewritten and b.c's use must be reported with its location --
# in one clang-tidy run, and with --export-fixes + clang-apply-replacements,
# where b.c's export pins the definition so that applying a.c's rewrite is a
# conflict (clang-apply-replacements exits 1 naming it). Every clang-tidy run
# must exit 0. Negative controls: an empty export, and an export by a tool
# that crashes, must fail the export check.
# Usage: noop-assert-two-tu.sh LLVM_BIN_DIR PLUGIN
set -euo pipefail
bin=$1 plugin=$(realpath "$2")
tidy=$bin/clang-tidy
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
run() { "$tidy" --load="$plugin" -checks='-*,hotpath-noop-assert' --header-filter='.*' "$@" -- -std=c11; }

mkdir "$work/src"
cat >"$work/src/dbg.h" <<'H'
#ifndef DBG_H
#define DBG_H
#ifdef DEBUG
#define ASSERT(x) ((x) ? (void)0 : __builtin_trap())
#else
#define ASSERT(x) (void)(x)
#endif
#endif
H
# a.c's use costs a call (the reason to rewrite) and has no side effect that
# a.c can see.
printf '#include "dbg.h"\nint sorted(const int *v, int n);\nint first(const int *v, int n)\n{\n\tASSERT(sorted(v, n));\n\treturn v[0];\n}\n' >"$work/src/a.c"
printf '#include "dbg.h"\nint next(int n)\n{\n\tASSERT(n++ > 0);\n\treturn n;\n}\n' >"$work/src/b.c"
use="b.c:4:2: warning: argument of 'ASSERT' has a side effect (it increments 'n'); a disabled 'ASSERT' that does not evaluate its argument would lose it, so the definition of 'ASSERT' is not rewritten [hotpath-noop-assert]"

# a.c alone sees no bad use and rewrites the header, to exactly this.
cat >"$work/dbg.h.fixed" <<'H'
#ifndef DBG_H
#define DBG_H
#ifdef DEBUG
#define ASSERT(x) ((x) ? (void)0 : __builtin_trap())
#else
#define ASSERT(x) ((void)(0 && !!(x)))
#endif
#endif
H
cp -r "$work/src" "$work/alone"
if (cd "$work/alone" && run --fix a.c) >"$work/alone.out" 2>&1 && cmp -s "$work/dbg.h.fixed" "$work/alone/dbg.h"; then
  ok "a.c alone: exit 0, the definition is rewritten as expected"
else
  bad "a.c alone: not the expected rewrite"; cat "$work/alone.out"; diff -u "$work/dbg.h.fixed" "$work/alone/dbg.h" || true
fi

# One run over both files.
cp -r "$work/src" "$work/both"
rc=0
(cd "$work/both" && run --fix a.c b.c) >"$work/both.out" 2>&1 || rc=$?
if [ "$rc" = 0 ] && cmp -s "$work/src/dbg.h" "$work/both/dbg.h"; then
  ok "a.c + b.c in one run: exit 0, the definition is not rewritten"
else
  bad "a.c + b.c in one run: exit $rc, or the definition was rewritten"; diff "$work/src/dbg.h" "$work/both/dbg.h" || true
fi
if sed "s|$work/both/||" "$work/both.out" | grep -q -F "$use"; then
  ok "the side-effecting use is reported at b.c:4:2"
else
  bad "use not reported"; cat "$work/both.out"
fi

# Per-file exports, merged by clang-apply-replacements (as run-clang-tidy does).
# export_fixes TOOL TREE: TOOL --export-fixes for a.c and b.c, each exit 0.
export_fixes() {
  local rc=0
  mkdir -p "$2/fixes"
  (cd "$2" && "$1" --load="$plugin" -checks='-*,hotpath-noop-assert' --header-filter='.*' \
     --export-fixes=fixes/a.yaml a.c -- -std=c11) >"$2/a.log" 2>&1 || rc=$?
  [ "$rc" = 0 ] || { echo "  export of a.c: exit $rc"; return 1; }
  (cd "$2" && "$1" --load="$plugin" -checks='-*,hotpath-noop-assert' --header-filter='.*' \
     --export-fixes=fixes/b.yaml b.c -- -std=c11) >"$2/b.log" 2>&1 || rc=$?
  [ "$rc" = 0 ] || { echo "  export of b.c: exit $rc"; return 1; }
}
# merged_exports TREE: a.c's export holds the rewrite, b.c's the reported use;
# applying both is a conflict on dbg.h, which stays as it was.
merged_exports() {
  local rc=0
  grep -q "ReplacementText: '((void)(0 && !!(x)))'" "$1/fixes/a.yaml" 2>/dev/null ||
    { echo "  the export of a.c holds no rewrite of ASSERT"; return 1; }
  grep -q "Message: *'argument of ''ASSERT'' has a side effect (it increments ''n'')" "$1/fixes/b.yaml" 2>/dev/null ||
    { echo "  the export of b.c does not report the use"; return 1; }
  "$bin/clang-apply-replacements" "$1/fixes" >"$1/apply.out" 2>&1 || rc=$?
  if [ "$rc" != 1 ] || ! grep -q "overlaps with an existing replacement" "$1/apply.out" ||
     ! grep -q "$1/dbg.h" "$1/apply.out"; then
    echo "  clang-apply-replacements exited $rc, wanted 1 with a conflict on dbg.h:"; cat "$1/apply.out"; return 1
  fi
  cmp -s "$work/src/dbg.h" "$1/dbg.h" || { echo "  dbg.h was rewritten"; return 1; }
}
cp -r "$work/src" "$work/export"
if export_fixes "$tidy" "$work/export" && merged_exports "$work/export"; then
  ok "export-fixes + clang-apply-replacements: exports exit 0, a conflict on dbg.h, the definition is not rewritten"
else
  bad "export-fixes + clang-apply-replacements"
fi
# Negative controls: what the old check (header unchanged, every exit status
# ignored) let pass.
cp -r "$work/src" "$work/empty" && mkdir "$work/empty/fixes" && touch "$work/empty/fixes/a.yaml"
expect_failure "an empty export" "the export of a.c holds no rewrite" merged_exports "$work/empty"
cp -r "$work/src" "$work/crash" && fake_tool "$work/crashing-tidy" 139
expect_failure "an export by a crashing clang-tidy" "export of a.c: exit 139" export_fixes "$work/crashing-tidy" "$work/crash"
finish
