#!/usr/bin/env bash
# Times hotpath-tidy --diff on btrfs-progs with made-up patches against a
# whole-project run, and counts the TUs each ran. Not part of CTest (it needs
# the Debian source package): first `scripts/real-project.py btrfs-progs`,
# which leaves the tree with compile_commands.json and a git snapshot.
# Usage: ci-real-project.sh HOTPATH_TIDY [SRC_DIR]
#   SRC_DIR defaults to build/real-projects/btrfs-progs/btrfs-progs-*
# The tree is restored (git checkout) on exit.
set -euo pipefail
tidy=$(realpath "$1")
src=${2:-$(ls -d "$(dirname "$0")"/../../build/real-projects/btrfs-progs/btrfs-progs-*/ | head -1)}
cd "$src"
[ -f compile_commands.json ] && [ -d .git ] || { echo "no compile db / git snapshot in $src"; exit 2; }
[ -z "$(git status --porcelain --untracked-files=no)" ] || { echo "$src has local changes"; exit 2; }
trap 'git checkout -q -- .' EXIT
jobs=$(nproc)
TIMEFORMAT=%R
rct=$(command -v run-clang-tidy-19 || command -v run-clang-tidy)

n=$(python3 -c "import json; print(len(json.load(open('compile_commands.json'))))")
full=$( { time "$rct" -clang-tidy-binary "$tidy" -checks='-*,hotpath-*' -p . -j "$jobs" -quiet >/dev/null 2>&1; } 2>&1)
echo "whole project (run-clang-tidy -j$jobs): $n TUs, ${full} s"

# S: a hot two-branch check function added to one source file.
cat >>kernel-shared/extent_io.c <<'C'

struct eb_range { unsigned long len; unsigned char *data; };

static bool eb_range_check(const struct eb_range *b, unsigned int off, unsigned int size)
{
	const unsigned long end = (unsigned long)off + size;

	if (off > b->len) {
		__btrfs_error("start %u beyond %lu", off, b->len);
		return false;
	}
	if (end > b->len) {
		__btrfs_error("end %lu beyond %lu", end, b->len);
		return false;
	}
	return true;
}

unsigned eb_range_get8(const struct eb_range *b, unsigned int off) { return eb_range_check(b, off, 1) ? b->data[off] : 0; }
unsigned eb_range_get16(const struct eb_range *b, unsigned int off) { return eb_range_check(b, off, 2) ? b->data[off] : 0; }
unsigned eb_range_get32(const struct eb_range *b, unsigned int off) { return eb_range_check(b, off, 4) ? b->data[off] : 0; }
C
run_patch() { # NAME
  local secs rc
  set +e
  secs=$( { time "$tidy" --diff=HEAD -p . -j "$jobs" --fix-patch=/tmp/hotpath-$1.diff >/tmp/hotpath-$1.out 2>/tmp/hotpath-$1.err; } 2>&1)
  set -e
  echo "patch $1: $(grep 'translation units' /tmp/hotpath-$1.err | sed 's/^hotpath-tidy: //'); ${secs} s;" \
       "$(grep -c ': warning: ' /tmp/hotpath-$1.out) finding(s):"
  grep ': warning: ' /tmp/hotpath-$1.out | sed 's/^/    /'
  git apply --check /tmp/hotpath-$1.diff && echo "    its --fix-patch applies"
}
run_patch source
git checkout -q -- .

# H: a disabled assert that still evaluates, added to a header alone.
python3 - <<'PY'
p = 'kernel-shared/extent_io.h'
s = open(p).read()
i = s.index('struct extent_buffer {')
open(p, 'w').write(s[:i] + '#ifdef EB_DEBUG\n#define DCHECK(x) ((x) ? (void)0 : abort())\n#else\n'
                   '#define DCHECK(x) (void)(x)\n#endif\n\n' + s[i:])
PY
run_patch header
