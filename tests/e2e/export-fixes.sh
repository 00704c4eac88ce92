#!/usr/bin/env bash
# Whole-project route: --export-fixes per TU (the defining TU twice, as a
# build that compiles a file in two configurations would) and
# clang-apply-replacements, and run-clang-tidy -fix over a compile database,
# must both give exactly the files that clang-tidy --fix gives: shared-header
# edits deduplicated, no conflicts.
# Usage: export-fixes.sh LLVM_BIN_DIR PLUGIN
set -euo pipefail
bin=$1 plugin=$(realpath "$2")
sample=$(cd "$(dirname "$0")/../../samples/extent-buffer" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0 failed=0
copy() { mkdir -p "$1" && cp "$sample"/*.c "$sample"/*.h "$1"/; }
check_same() { # name dir
  if diff -r "$work/ref" "$2" >/dev/null; then passed=$((passed + 1)); echo "ok   $1"
  else failed=$((failed + 1)); echo "FAIL $1"; diff -ru "$work/ref" "$2" | head -20; fi
}
srcs=(check.c accessors.c main.c)

copy "$work/ref"
(cd "$work/ref" && "$bin/clang-tidy" --load="$plugin" -checks='-*,hotpath-*' --fix "${srcs[@]}" -- -std=c11 >/dev/null 2>&1)
if cmp -s "$sample/extent_buffer.h" "$work/ref/extent_buffer.h"; then
  echo "FAIL reference --fix changed nothing"; exit 1
fi

copy "$work/exp"
mkdir "$work/fixes"
for f in "${srcs[@]}" check.c; do
  (cd "$work/exp" && "$bin/clang-tidy" --load="$plugin" -checks='-*,hotpath-*' \
     --export-fixes="$work/fixes/$RANDOM-$f.yaml" "$f" -- -std=c11 >/dev/null 2>&1)
done
"$bin/clang-apply-replacements" "$work/fixes"
check_same "export-fixes + clang-apply-replacements (defining TU exported twice)" "$work/exp"

copy "$work/db"
python3 - "$work/db" <<'PY'
import json, sys
d = sys.argv[1]
json.dump([{"directory": d, "file": f, "command": "cc -std=c11 -c " + f}
           for f in ("check.c", "accessors.c", "main.c")], open(d + "/compile_commands.json", "w"))
PY
"$bin/run-clang-tidy" -clang-tidy-binary "$bin/clang-tidy" \
  -clang-apply-replacements-binary "$bin/clang-apply-replacements" \
  -load "$plugin" -checks='-*,hotpath-*' -p "$work/db" -fix -quiet >/dev/null 2>&1
rm "$work/db/compile_commands.json"
check_same "run-clang-tidy -fix over a compile database" "$work/db"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
