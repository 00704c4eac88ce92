#!/usr/bin/env bash
# hotpath-tidy --diff on btrfs-progs from Debian's sources, with made-up
# patches: the TUs each one runs, its time against a whole-project run, its
# findings and exit status. Not part of CTest (it needs the source package):
# first `scripts/real-project.py btrfs-progs`, which leaves the tree with
# compile_commands.json and a git snapshot.
# Usage: ci-real-project.sh HOTPATH_TIDY [SRC_DIR]
#   SRC_DIR defaults to build/real-projects/btrfs-progs/btrfs-progs-*
# The patches:
#   source   a hot two-branch check function added to a .c file
#   header   a disabled assert that evaluates, added to a header alone
#   body     two report-and-leave branches inside an existing function
#            (btrfs_util_strerror), its name line untouched
#   kassert  the disabled ASSERT of include/kerncompat.h made to evaluate
#            its argument (a header edit included by nearly every TU)
#   comment  a comment in kernel-shared/extent_io.h (nothing to report)
#   asm      a comment in an assembly TU (btrfs-progs 6.2, Debian 12's, has
#            none: one is added with its compile command, as newer releases
#            have crypto/crc32c-pcl-intel-asm_64.S)
#   moved    a branch whose target moved on (main rewords the line of a
#            hook call that is a finding, cmds/device.c:613): --diff=main
#            and --diff=main...HEAD
# The tree is restored (git checkout, branches and the added TU removed) on exit.
set -euo pipefail
tidy=$(realpath "$1")
src=${2:-$(ls -d "$(dirname "$0")"/../../build/real-projects/btrfs-progs/btrfs-progs-*/ | head -1)}
cd "$src"
[ -f compile_commands.json ] && [ -d .git ] || { echo "no compile db / git snapshot in $src"; exit 2; }
[ -z "$(git status --porcelain --untracked-files=no)" ] || { echo "$src has local changes"; exit 2; }
start=$(git rev-parse HEAD) branch=$(git rev-parse --abbrev-ref HEAD)
cp compile_commands.json /tmp/hotpath-ccdb.json
restore() {
  git checkout -q -f "$branch" 2>/dev/null || git checkout -q -f "$start"
  git reset -q --hard "$start"
  git branch -q -D hotpath-main hotpath-feature 2>/dev/null || true
  rm -f crypto/hotpath-crc.S
  cp /tmp/hotpath-ccdb.json compile_commands.json
}
trap restore EXIT
g() { git -c user.name=hotpath -c user.email=hotpath@localhost "$@"; }
jobs=$(nproc)
TIMEFORMAT=%R
rct=$(command -v run-clang-tidy-19 || command -v run-clang-tidy)

n=$(python3 -c "import json; print(len(json.load(open('compile_commands.json'))))")
full=$( { time "$rct" -clang-tidy-binary "$tidy" -checks='-*,hotpath-*' -p . -j "$jobs" -quiet >/dev/null 2>&1; } 2>&1)
echo "whole project (run-clang-tidy -j$jobs): $n TUs, ${full} s"

run_patch() { # NAME [REV]
  local secs rc rev=${2:-HEAD}
  set +e
  secs=$( { time "$tidy" --diff="$rev" -p . -j "$jobs" --fix-patch=/tmp/hotpath-$1.diff >/tmp/hotpath-$1.out 2>/tmp/hotpath-$1.err; echo $? >/tmp/hotpath-$1.rc; } 2>&1)
  set -e
  rc=$(cat /tmp/hotpath-$1.rc)
  echo "patch $1 (--diff=$rev): exit $rc; $(grep 'translation units' /tmp/hotpath-$1.err | sed 's/^hotpath-tidy: //'); ${secs} s;" \
       "$(grep -c ': warning: ' /tmp/hotpath-$1.out || true) finding(s):"
  grep ': warning: ' /tmp/hotpath-$1.out | sed 's/^/    /' || true
  grep -E 'note:|error:' /tmp/hotpath-$1.err | sed 's/^/    stderr: /' || true
  if [ -s /tmp/hotpath-$1.diff ]; then
    if git apply --check /tmp/hotpath-$1.diff && patch -p1 --fuzz=0 --dry-run -s </tmp/hotpath-$1.diff; then
      echo "    its --fix-patch applies (git apply, patch -p1 --fuzz=0)"
    else
      echo "    its --fix-patch does NOT apply with both git apply and patch -p1 --fuzz=0"
    fi
  fi
}

# source: a hot two-branch check function added to one source file.
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
run_patch source
git checkout -q -- .

# header: a disabled assert that still evaluates, added to a header alone.
python3 - <<'PY'
p = 'kernel-shared/extent_io.h'
s = open(p).read()
i = s.index('struct extent_buffer {')
s = (s[:i] + '#ifdef EB_DEBUG\n#define DCHECK(x) ((x) ? (void)0 : abort())\n#else\n'
     '#define DCHECK(x) (void)(x)\n#endif\n\n' + s[i:])
# A use whose condition does work (a call the compiler cannot see), or the
# disabled assert costs nothing and is not reported.
j = s.rindex('#endif')
s = (s[:j] + 'static inline void eb_dcheck_bit(struct extent_buffer *eb, unsigned long nr)\n'
     '{\n\tDCHECK(extent_buffer_test_bit(eb, 0, nr));\n}\n\n' + s[j:])
open(p, 'w').write(s)
PY
run_patch header
git checkout -q -- .

# body: btrfs_util_strerror (libbtrfsutil/errors.c, called from 24 sites)
# gets two report-and-leave branches in its body, its name line untouched:
# a check function with two branches is now there.
python3 - <<'PY'
p = 'libbtrfsutil/errors.c'
s = open(p).read()
old = """	if (err < 0 || err >= sizeof(error_messages) / sizeof(error_messages[0]))
		return NULL;
	return error_messages[err];"""
assert old in s
s = s.replace(old, """	if (err < 0) {
		fprintf(stderr, "negative btrfs-util error %d\\n", err);
		return NULL;
	}
	if (err >= sizeof(error_messages) / sizeof(error_messages[0])) {
		fprintf(stderr, "unknown btrfs-util error %d\\n", err);
		return NULL;
	}
	return error_messages[err];""", 1)
if '#include <stdio.h>' not in s:
    s = '#include <stdio.h>\n' + s
open(p, 'w').write(s)
PY
git diff -U0 | grep '^@@'
run_patch body
git checkout -q -- .

# kassert: the disabled ASSERT of kerncompat.h made to evaluate its argument.
sed -i 's/^#define ASSERT(c) assert(c)$/#define ASSERT(c) (void)(c)/' include/kerncompat.h
git diff -U0 | grep '^[-+]#define'
run_patch kassert
git checkout -q -- .

# comment: a header edit with nothing to report.
sed -i '0,/^struct extent_buffer {/s//\/* the in-memory copy of a tree block *\/\nstruct extent_buffer {/' kernel-shared/extent_io.h
run_patch comment
git checkout -q -- .

# asm: an assembly TU in the compile database, a comment changed in it.
printf '/* crc32c, x86-64 */\n\t.text\n\t.globl hotpath_crc\nhotpath_crc:\n\tret\n' >crypto/hotpath-crc.S
python3 - "$PWD" <<'PY'
import json, sys
db = json.load(open('compile_commands.json'))
db.append({"directory": sys.argv[1], "file": "crypto/hotpath-crc.S",
           "arguments": ["gcc", "-c", "crypto/hotpath-crc.S", "-o", "crypto/hotpath-crc.o"]})
json.dump(db, open('compile_commands.json', 'w'), indent=1)
PY
g add -f crypto/hotpath-crc.S && g commit -qm "assembly TU"
sed -i 's|crc32c, x86-64|crc32c for x86-64|' crypto/hotpath-crc.S
run_patch asm
git checkout -q -- .

# moved: a feature branch with no finding of its own; then main moves on by
# rewording the line of a finding's hook call (cmds/device.c:613), which the
# feature branch still has as it was: against main's tip that line looks
# like the branch's change.
g branch -q -f hotpath-main
g checkout -q -b hotpath-feature
sed -i "1i /* feature branch */" common/string-table.c
g commit -qam "feature: a comment"
g checkout -q hotpath-main
sed -i '613s|fmt_print_start_group(fctx, NULL, JSON_TYPE_MAP);|fmt_print_start_group(fctx, NULL, JSON_TYPE_MAP); /* one device */|' cmds/device.c
git diff -U0 | grep '^[-+]' | grep -v '^[-+][-+]'
g commit -qam "main moves on"
g checkout -q hotpath-feature
run_patch moved-tip hotpath-main
run_patch moved-mergebase hotpath-main...HEAD
