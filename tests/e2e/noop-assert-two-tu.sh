#!/usr/bin/env bash
# hotpath-noop-assert across translation units: the disabled ASSERT lives in
# a header; a.c only has harmless uses, b.c has ASSERT(n++ > 0). Run on both
# files, the definition must not be rewritten (a.c alone would rewrite it)
# and b.c's use must be reported with its location -- in one clang-tidy run,
# and with --export-fixes + clang-apply-replacements.
# Usage: noop-assert-two-tu.sh LLVM_BIN_DIR PLUGIN
set -euo pipefail
bin=$1 plugin=$(realpath "$2")
tidy=$bin/clang-tidy
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "ok   $*"; }
bad() { failed=$((failed + 1)); echo "FAIL $*"; }
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
printf '#include "dbg.h"\nint first(const int *v, int n)\n{\n\tASSERT(n > 0);\n\treturn v[0];\n}\n' >"$work/src/a.c"
printf '#include "dbg.h"\nint next(int n)\n{\n\tASSERT(n++ > 0);\n\treturn n;\n}\n' >"$work/src/b.c"
use="b.c:4:2: warning: argument of 'ASSERT' has a side effect (it increments 'n'); a disabled 'ASSERT' that does not evaluate its argument would lose it, so the definition of 'ASSERT' is not rewritten [hotpath-noop-assert]"

# Control: a.c alone sees no bad use and rewrites the header.
cp -r "$work/src" "$work/alone"
(cd "$work/alone" && run --fix a.c) >/dev/null 2>&1 || true
if grep -q -F '#define ASSERT(x) ((void)(0 && !!(x)))' "$work/alone/dbg.h"; then
  ok "a.c alone: the definition is rewritten"
else
  bad "a.c alone: no rewrite"
fi

# One run over both files.
cp -r "$work/src" "$work/both"
(cd "$work/both" && run --fix a.c b.c) >"$work/both.out" 2>&1 || true
if cmp -s "$work/src/dbg.h" "$work/both/dbg.h"; then
  ok "a.c + b.c in one run: the definition is not rewritten"
else
  bad "a.c + b.c in one run: the definition was rewritten"; diff "$work/src/dbg.h" "$work/both/dbg.h" || true
fi
if sed "s|$work/both/||" "$work/both.out" | grep -q -F "$use"; then
  ok "the side-effecting use is reported at b.c:4:2"
else
  bad "use not reported"; cat "$work/both.out"
fi

# Per-file exports, merged by clang-apply-replacements (as run-clang-tidy does).
cp -r "$work/src" "$work/export"
mkdir "$work/export/fixes"
(cd "$work/export" && run --export-fixes=fixes/a.yaml a.c && run --export-fixes=fixes/b.yaml b.c) \
  >/dev/null 2>&1 || true
"$bin/clang-apply-replacements" "$work/export/fixes" >"$work/apply.out" 2>&1 || true
if cmp -s "$work/src/dbg.h" "$work/export/dbg.h"; then
  ok "export-fixes + clang-apply-replacements: the definition is not rewritten"
else
  bad "export-fixes + clang-apply-replacements rewrote the definition"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
