# Shared helpers of the ground-truth scripts (sourced, not run):
# scripts/ground-truth/{xfsprogs,libarchive,zstd}.sh. docs/real-projects.md
# says what they measure and why.
#
# Every script takes:
#   --work DIR        sources, builds, workloads and results (default: $GT_WORK,
#                     else ./gt-work); built trees found there are reused
#   --out DIR         what is kept: profiles/, tool/, RESULTS-*.txt (default: WORK/out)
#   --jobs N          parallel build jobs, and hotpath-tidy's -j (default 2)
#   --tool PATH       the hotpath-tidy binary (default: $HOTPATH_TIDY, else
#                     hotpath-tidy on PATH; none: the tool is not run)
#   --no-install      no apt-get (the packages are there)
#   --no-perf         no perf record / report
#   --evaluate        evaluate the tool (needs --tool): its findings with the
#                     defaults, whether a profile of the workload makes it find
#                     the check, and its --fix built, run and measured
#   --fix-from-patch  with --evaluate: the hand split patch stands in for the
#                     tool's fix (a self-test of the harness: it must give the
#                     hand split's figures)
#   --patches DIR     the patches (default: patches/ beside the scripts)

set -euo pipefail
# Also inside $(...): a build or a patch that fails there stops the script.
shopt -s inherit_errexit

GT_SCRIPTS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
GT_ROOT=$(cd "$GT_SCRIPTS/../.." && pwd)
WORK=${GT_WORK:-$PWD/gt-work}
JOBS=2
INSTALL=1
PERF=1
EVALUATE=0
FIX_FROM_PATCH=0
TOOL=${HOTPATH_TIDY:-$(command -v hotpath-tidy || true)}
PATCHES=$GT_SCRIPTS/patches
OUT=

gt_parse_args() {
	while [ $# -gt 0 ]; do
		case $1 in
		--work) WORK=$2; shift 2 ;;
		--work=*) WORK=${1#--work=}; shift ;;
		--jobs) JOBS=$2; shift 2 ;;
		--jobs=*) JOBS=${1#--jobs=}; shift ;;
		--no-install) INSTALL=0; shift ;;
		--no-perf) PERF=0; shift ;;
		--tool) TOOL=$2; shift 2 ;;
		--tool=*) TOOL=${1#--tool=}; shift ;;
		--evaluate) EVALUATE=1; shift ;;
		--fix-from-patch) FIX_FROM_PATCH=1; shift ;;
		--patches) PATCHES=$2; shift 2 ;;
		--patches=*) PATCHES=${1#--patches=}; shift ;;
		--out) OUT=$2; shift 2 ;;
		--out=*) OUT=${1#--out=}; shift ;;
		-h|--help) sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;;
		*) echo "unknown option: $1 (--help)" >&2; exit 2 ;;
		esac
	done
	if [ "$EVALUATE" = 1 ] && [ -z "$TOOL" ]; then
		echo "--evaluate needs --tool PATH (or hotpath-tidy on PATH)" >&2; exit 2
	fi
	if [ "$FIX_FROM_PATCH" = 1 ] && [ "$EVALUATE" = 0 ]; then
		echo "--fix-from-patch goes with --evaluate" >&2; exit 2
	fi
	[ -z "$TOOL" ] || TOOL=$(cd "$(dirname "$TOOL")" && pwd)/$(basename "$TOOL")
	mkdir -p "$WORK"
	WORK=$(cd "$WORK" && pwd)
	OUT=${OUT:-$WORK/out}
	mkdir -p "$OUT/profiles" "$OUT/tool"
	OUT=$(cd "$OUT" && pwd)
	PATCHES=$(cd "$PATCHES" && pwd)
}

log() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

# gt_install SRCPKG...: a deb-src entry (scripts/real-project.py's, mirroring
# the deb ones), apt-get update, the tools, and the packages' build deps.
gt_install() {
	[ "$INSTALL" = 1 ] || return 0
	python3 - "$GT_ROOT/scripts/real-project.py" <<'EOF' >&2
import importlib.util, sys
spec = importlib.util.spec_from_file_location('real_project', sys.argv[1])
mod = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mod)
mod.ensure_deb_src()
EOF
	log "apt-get update / install / build-dep $*"
	apt-get update -q >/dev/null
	DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -q \
		build-essential dpkg-dev fakeroot bear valgrind python3 file patch \
		linux-perf >/dev/null
	DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 build-dep -y -q "$@" >/dev/null
}

# gt_fetch SRCPKG -> prints the unpacked source directory (under $WORK/src/SRCPKG)
gt_fetch() {
	local pkg=$1 dir=$WORK/src/$1
	if [ ! -f "$dir/.unpacked" ]; then
		rm -rf "$dir"; mkdir -p "$dir"
		(cd "$dir" && apt-get source -q "$pkg" >/dev/null 2>&1)
		find "$dir" -mindepth 1 -maxdepth 1 -type d > "$dir/.unpacked"
	fi
	# By its name under $dir: a --work copied from elsewhere names the tree
	# where it was unpacked first.
	echo "$dir/$(basename "$(cat "$dir/.unpacked")")"
}

# gt_variant NAME FROM [PATCH] -> prints $WORK/build/NAME, a copy of the tree
# FROM with PATCH applied. Made again when FROM's build or the patch changed
# (the stamp in .gt-ready); its results ($RES/VARIANT.*) go with it.
gt_variant() {
	local name=$1 from=$2 patch=${3:-} dir=$WORK/build/$1 stamp
	stamp="from $(cat "$from/.gt-built" 2>/dev/null || echo -) patch $(
		[ -n "$patch" ] && sha256sum < "$patch" | cut -c1-16 || echo none)"
	# A tree of the first version of these scripts (an empty marker, the
	# variant built from it): taken as it is.
	if [ -f "$dir/.gt-ready" ] && [ ! -s "$dir/.gt-ready" ] && [ -f "$dir/.gt-built" ]; then
		echo "$stamp" > "$dir/.gt-ready"
	fi
	if [ ! -f "$dir/.gt-ready" ] || [ "$(cat "$dir/.gt-ready")" != "$stamp" ]; then
		log "copying $from to $dir${patch:+ (+ $(basename "$patch"))}"
		rm -rf "$dir"; mkdir -p "$WORK/build"
		cp -a "$from" "$dir"
		rm -f "$dir/.gt-built" "$dir/.gt-ready"
		if [ -n "$patch" ]; then
			(cd "$dir" && patch -p1 --no-backup-if-mismatch --batch < "$patch" >&2) ||
				{ log "$(basename "$patch") does not apply to $dir"; exit 1; }
		fi
		echo "$stamp" > "$dir/.gt-ready"
	fi
	gt_db_retarget "$dir"
	echo "$dir"
}

# gt_debian_build DIR [TARGET]: DIR built as the buildds build it, under
# bear for compile_commands.json: dpkg-buildpackage -T clean, then -T TARGET
# (default build-arch: a source with its own build/ directory makes
# `debian/rules build` a no-op under dh) with DEB_BUILD_OPTIONS="nocheck
# nodoc parallel=JOBS"; logs in $WORK/build/NAME.{clean,build}.log. The
# database is retargeted and pruned, and the tree marked built.
gt_debian_build() {
	local dir=$1 target=${2:-build-arch} log
	log=$WORK/build/$(basename "$dir")
	log "building $(basename "$dir") (dpkg-buildpackage -T $target under bear)"
	(cd "$dir" && dpkg-buildpackage -T clean -uc -us) > "$log.clean.log" 2>&1 ||
		{ tail -30 "$log.clean.log" >&2; exit 1; }
	(cd "$dir" && DEB_BUILD_OPTIONS="nocheck nodoc parallel=$JOBS" \
		bear --output compile_commands.json -- dpkg-buildpackage -T "$target" -uc -us) \
		> "$log.build.log" 2>&1 || { tail -30 "$log.build.log" >&2; exit 1; }
	gt_db_retarget "$dir"
	gt_db_prune "$dir"
	gt_mark_built "$dir"
}

# gt_before SRCPKG [TARGET] -> $WORK/build/$PKG-before: the pristine source
# built by gt_debian_build (once; reused while it stays built).
gt_before() {
	local src dir
	src=$(gt_fetch "$1")
	dir=$(gt_variant "$PKG-before" "$src")
	[ -f "$dir/.gt-built" ] || gt_debian_build "$dir" "${2:-build-arch}"
	echo "$dir"
}

# gt_loads_own BIN LIBDIR LIB: BIN, run with LD_LIBRARY_PATH=LIBDIR, loads
# LIBDIR/LIB (the tree's own library, never the system's), or the script
# stops saying so. ldd's output is read whole: grep -q stopping early would
# kill ldd with SIGPIPE, and pipefail would take that for "not found".
gt_loads_own() {
	local libs
	libs=$(LD_LIBRARY_PATH="$2" ldd "$1")
	grep -qF "$2/$3" <<<"$libs" ||
		{ echo "$1 does not load $2/$3" >&2; exit 1; }
}

# gt_explain NAME SOURCE [ARGS...]: hotpath-tidy --explain=NAME [ARGS] on
# one TU of B_BEFORE, into $OUT/tool/PKG-explain-NAME.txt.
gt_explain() {
	local txt=$OUT/tool/$PKG-explain-$1.txt rc=0 name=$1 src=$2
	shift 2
	(cd "$B_BEFORE" && "$TOOL" -p "$B_BEFORE" -checks='-*,hotpath-*' --explain="$name" \
		--index-dir="$WORK/index/$PKG" "$@" "$B_BEFORE/$src") > "$txt" 2>&1 || rc=$?
	echo "exit status: $rc" >> "$txt"
	log "hotpath-tidy --explain=$name: $txt"
}

# gt_mark_built DIR: the build of DIR is done; its stamp changes each time,
# so that copies of it are made again.
gt_mark_built() { date +%s.%N > "$1/.gt-built"; }

# gt_db_retarget DIR: compile_commands.json of a tree copied or moved (a
# variant, or a --work made elsewhere) names the tree's own files.
gt_db_retarget() {
	python3 - "$1" <<'EOF' >&2
import json, os, sys
tree = os.path.abspath(sys.argv[1])
db_path = os.path.join(tree, 'compile_commands.json')
root_file = os.path.join(tree, '.gt-root')
if not os.path.exists(db_path):
    sys.exit(0)  # not built yet
db = json.load(open(db_path))
if os.path.exists(root_file):
    old = open(root_file).read().strip()
else:  # built before .gt-root was written: under a --work of the same layout
    d, name = db[0]['directory'], '/build/' + os.path.basename(tree)
    at = (d + '/').find(name + '/')
    old = d[:at + len(name)] if at >= 0 else tree
if old != tree:
    def sub(v):
        if isinstance(v, str):
            return v.replace(old + '/', tree + '/') if v != old else tree
        if isinstance(v, list):
            return [sub(x) for x in v]
        return v
    db = [{k: sub(v) for k, v in e.items()} for e in db]
    json.dump(db, open(db_path, 'w'), indent=1)
    print('compile database of %s: paths moved from %s' % (tree, old))
open(root_file, 'w').write(tree + '\n')
EOF
}

# gt_db_prune DIR: entries whose directory no longer exists (CMake's
# TryCompile probes, which bear recorded and CMake removed) are dropped, as
# scripts/real-project.py's load_db does; the raw database is kept beside it.
gt_db_prune() {
	python3 - "$1/compile_commands.json" <<'EOF' >&2
import json, os, shutil, sys
path = sys.argv[1]
db = json.load(open(path))
kept = [e for e in db if os.path.isdir(e['directory'])]
if len(kept) != len(db):
    shutil.copy(path, path.replace('.json', '.raw.json'))
    json.dump(kept, open(path, 'w'), indent=1)
    print('compile database: %d entries, %d dropped (their directory no longer exists)'
          % (len(db), len(db) - len(kept)))
EOF
}

# gt_callgrind OUTFILE LOGPREFIX CMD... : runs CMD under callgrind; the
# program's stdout, stderr and exit status go to LOGPREFIX.{out,err,rc},
# valgrind's own messages to LOGPREFIX.vg. GT_CALLGRIND_OPTS (set by a
# script before it runs workloads) adds options: the programs of
# gt_program record instruction addresses and jumps, for per-line counts and
# which way each branch went (cgfuncs.py --lines).
GT_CALLGRIND_OPTS=${GT_CALLGRIND_OPTS:-}
gt_callgrind() {
	local cgout=$1 pre=$2; shift 2
	local rc=0
	valgrind --tool=callgrind $GT_CALLGRIND_OPTS --callgrind-out-file="$cgout" \
		--log-file="$pre.vg" "$@" > "$pre.out" 2> "$pre.err" || rc=$?
	echo "$rc" > "$pre.rc"
}

# Total instructions (Ir) of a callgrind.out file.
gt_total() {
	awk '/^(summary|totals):/ {print $2; exit}' "$1"
}

# gt_fn_cost CGOUT FUNC -> "self inclusive calls" of FUNC (0 0 0 if absent).
# FUNC matches with any compiler suffix (.lto_priv.0, .constprop.0, .isra.0);
# self is summed over callgrind_annotate's per-file entries of the function
# (code inlined from headers is listed under the header's name), inclusive is
# the largest of them (the entry of the function's own file, which includes
# the rest), calls are summed over the call arcs to it.
gt_fn_cost() {
	local cg=$1 fn=$2
	local pat="[:]$fn([.][a-z_]+[.][0-9]+)*( |$)"
	local self incl
	self=$(callgrind_annotate --threshold=100 "$cg" 2>/dev/null |
		awk -v p="$pat" '/file:function/ {h=1; next} h==1 && /^-+$/ {l=1; h=2; next} l && !NF {l=0} l && $0 ~ p {v=$1; gsub(",","",v); s+=v} END {print s+0}')
	incl=$(callgrind_annotate --inclusive=yes --threshold=100 "$cg" 2>/dev/null |
		awk -v p="$pat" '/file:function/ {h=1; next} h==1 && /^-+$/ {l=1; h=2; next} l && !NF {l=0} l && $0 ~ p {v=$1; gsub(",","",v); if (v+0>m) m=v+0} END {print m+0}')
	echo "$self $incl $(gt_calls "$cg" "$fn")"
}

# Number of calls to FUNC recorded in a callgrind.out file (sum of calls= lines
# under cfn=FUNC), handling callgrind's name compression.
gt_calls() {
	python3 - "$1" "$2" <<'EOF'
import re, sys
path, want = sys.argv[1], sys.argv[2]
names = {}
def name(tok):
    m = re.match(r'\((\d+)\)(?: (.*))?', tok)
    if not m:
        return tok
    if m.group(2) is not None:
        names[m.group(1)] = m.group(2)
        return m.group(2)
    return names.get(m.group(1), tok)
total = 0
cfn = None
for line in open(path, errors='replace'):
    if line.startswith('fn='):
        name(line[3:].strip()); cfn = None
    elif line.startswith('cfn='):
        cfn = name(line[4:].strip())
    elif line.startswith('calls='):
        if cfn is not None and re.fullmatch(re.escape(want) + r'(\.[a-z_]+\.\d+)*', cfn):
            total += int(line.split('=')[1].split()[0])
print(total)
EOF
}

# gt_pct A B -> (A-B)/A in percent, 3 decimals
gt_pct() { python3 -c "import sys; a,b=map(float,sys.argv[1:]); print('%.3f' % (100*(a-b)/a if a else 0))" "$1" "$2"; }
# gt_ratio BEFORE AFTER FLOOR -> (before-after)/(before-floor) in percent
gt_ratio() { python3 -c "import sys; b,a,f=map(float,sys.argv[1:]); print('%.1f' % (100*(b-a)/(b-f) if b!=f else float('nan')))" "$1" "$2" "$3"; }

# gt_same PREFIX_A PREFIX_B -> 0 if stdout, stderr and exit status are identical
gt_same() {
	cmp -s "$1.out" "$2.out" && cmp -s "$1.err" "$2.err" && cmp -s "$1.rc" "$2.rc"
}

# gt_top_self CGOUT N -> the N functions with the highest self cost
gt_top_self() {
	callgrind_annotate --threshold=100 "$1" 2>/dev/null |
		awk -v n="$2" '/file:function/ {h=1; next} h==1 && /^-+$/ {l=1; h=2; next} l && !NF {l=0} l && c<n {print; c++}'
}

# gt_perf NAME CMD... : perf record -g (cpu-clock if no hardware counters),
# then perf report --stdio --no-children into $OUT/profiles/NAME.perf.txt
gt_perf() {
	[ "$PERF" = 1 ] || return 0
	command -v perf >/dev/null || { log "perf: not installed"; return 0; }
	local name=$1; shift
	local ev=cycles
	if ! perf stat -e instructions true 2>&1 | grep -q '[0-9] *instructions'; then
		ev=cpu-clock
	fi
	local data=$WORK/perf/$name.data
	mkdir -p "$WORK/perf"
	if perf record -e "$ev" -g -o "$data" -- "$@" > "$WORK/perf/$name.out" 2> "$WORK/perf/$name.err"; then
		perf report -i "$data" --stdio --no-children > "$OUT/profiles/$name.perf.txt" 2> "$WORK/perf/$name.report.err" || true
		log "perf ($ev): $OUT/profiles/$name.perf.txt"
	else
		log "perf record failed for $name (see $WORK/perf/$name.err)"
	fi
}

. "$GT_SCRIPTS/evaluate.sh"

# ---------------------------------------------------------------------------
# gt_program: the whole run of a program with a list of ground-truth
# functions (bzip2.sh, cmark.sh, dosfstools.sh, expat.sh). The script sets
#   PKG SRCPKG       results' name; the Debian source package
#   BUILD_TARGET     dpkg-buildpackage -T target (default build-arch)
#   TARGETS          the ground truth (docs/ground-truth/PKG.md), space
#                    separated; empty: none (a negative control)
#   WORKLOADS        the workloads' names; MEASURED defaults to them
#   SPLIT_PATCH FLOOR_PATCH  the hand split of every target, and every
#                    target's check deleted (needed when TARGETS is set)
# (the hand split renames each target NAME to NAME_slow) and defines
#   gt_rebuild DIR PATCH   DIR (a copy of the before tree with PATCH
#                          applied) built again with the package's own
#                          makefiles and flags
#   gt_inputs              makes the workloads' inputs in $WL (once)
#   gt_workload W V DIR    runs workload W of variant V (tree DIR) with
#                          gt_callgrind "$RES/V.W.cg" "$RES/V.W" CMD...; a
#                          file it writes is digested into $RES/V.W.files
#   gt_perf_workloads DIR  (optional) gt_perf of each workload
# and may set EXPLAIN="NAME:FILE ..." (a target and the file that defines
# it): with --tool, hotpath-tidy --explain=NAME --profile=(the first
# workload's) on that file, into $OUT/tool/PKG-explain-NAME.txt.
# ---------------------------------------------------------------------------

# build VARIANT [PATCH] -> the tree (evaluate.sh calls it for its variants).
build() {
	local v=$1 patch=${2:-} dir
	if [ "$v" = before ]; then
		gt_before "$SRCPKG" "${BUILD_TARGET:-build-arch}"
		return 0
	fi
	dir=$(gt_variant "$PKG-$v" "$WORK/build/$PKG-before" "$patch")
	[ ! -f "$dir/.gt-built" ] || { echo "$dir"; return 0; }
	log "building $PKG ($v) in $dir"
	gt_rebuild "$dir" "$patch" > "$WORK/build/$PKG-$v.build.log" 2>&1 ||
		{ tail -30 "$WORK/build/$PKG-$v.build.log" >&2; return 1; }
	gt_db_retarget "$dir"
	gt_mark_built "$dir"
	rm -f "$RES/$v".*
	echo "$dir"
}

# run_variant VARIANT DIR: every workload not yet run for that build.
run_variant() {
	local v=$1 dir=$2 w
	for w in $WORKLOADS; do
		[ -f "$RES/$v.$w.rc" ] && continue
		log "callgrind: $PKG $w ($v)"
		rm -f "$RES/$v.$w.files"
		gt_workload "$w" "$v" "$dir"
	done
}

# same_as_before VARIANT: stdout, stderr, exit status and written files of
# every workload, byte for byte.
same_as_before() {
	local w ok=0
	for w in $WORKLOADS; do
		gt_same "$RES/before.$w" "$RES/$1.$w" || { ok=1; log "output differs: $w before vs $1"; }
		if [ -f "$RES/before.$w.files" ] || [ -f "$RES/$1.$w.files" ]; then
			cmp -s "$RES/before.$w.files" "$RES/$1.$w.files" ||
				{ ok=1; log "written files differ: $w before vs $1"; }
		fi
	done
	return $ok
}

# gt_digest FILE... -> "sha256  name" lines (for $RES/V.W.files)
gt_digest() {
	local f
	for f in "$@"; do echo "$(sha256sum < "$f" | cut -c1-64)  $(basename "$f")"; done
}

# gt_program_results: the figures of every workload and target.
gt_program_results() {
	local w v t self incl calls aself aincl acalls
	echo "$PKG ($(basename "$B_BEFORE")): ground truth: ${TARGETS:-none (negative control)}"
	echo "callgrind options: $GT_CALLGRIND_OPTS"
	for w in $WORKLOADS; do
		local b a f
		b=$(gt_total "$RES/before.$w.cg")
		echo "[$w] command: $(sed -n 's/^cmd: *//p' "$RES/before.$w.cg" | head -1)"
		local files=
		[ ! -f "$RES/before.$w.files" ] || files=", written files: $(wc -l < "$RES/before.$w.files") (sha256 in $RES/before.$w.files)"
		echo "[$w] exit status $(cat "$RES/before.$w.rc"), stdout $(wc -c < "$RES/before.$w.out") bytes, stderr $(wc -c < "$RES/before.$w.err") bytes$files"
		if [ -z "$TARGETS" ]; then
			echo "[$w] instructions (callgrind Ir): $b"
			continue
		fi
		a=$(gt_total "$RES/after.$w.cg"); f=$(gt_total "$RES/floor.$w.cg")
		echo "[$w] instructions (callgrind Ir): before $b, after (hand split) $a, floor $f"
		for t in $TARGETS; do
			read -r self incl calls < <(gt_fn_cost "$RES/before.$w.cg" "$t")
			read -r aself aincl acalls < <(gt_fn_cost "$RES/after.$w.cg" "${t}_slow")
			echo "[$w]   $t: before: calls $calls, self $self, inclusive $incl ($(gt_pct "$b" $(( b - incl )))%); after: calls to ${t}_slow (the original, out of line) $acalls"
		done
		echo "[$w] removable share (before-floor)/before: $(gt_pct "$b" "$f")%"
		echo "[$w] hand split removes (before-after)/(before-floor): $(gt_ratio "$b" "$a" "$f")%"
	done
	if [ -n "$TARGETS" ]; then
		echo "outputs (stdout, stderr, exit status, written files) identical before/after/floor: $GT_SAME"
	fi
	for w in $WORKLOADS; do
		python3 "$GT_SCRIPTS/cgfuncs.py" "$RES/before.$w.cg" > "$OUT/profiles/$PKG-$w.functions.txt"
		echo "[$w] functions at >= 0.1% inclusive: $OUT/profiles/$PKG-$w.functions.txt ($(( $(wc -l < "$OUT/profiles/$PKG-$w.functions.txt") - 2 )))"
	done
	for w in $WORKLOADS; do
		echo "top self cost, $w (before):"
		gt_top_self "$RES/before.$w.cg" 12 | sed 's/^/  /'
	done
}

# gt_program: builds, workloads, figures, perf, and the tool (--tool /
# --evaluate); exits 1 when an output differs or a fix fails.
gt_program() {
	GT_CALLGRIND_OPTS="--dump-instr=yes --collect-jumps=yes"
	MEASURED=${MEASURED:-$WORKLOADS}
	TARGET=${TARGETS%% *}
	RES=$WORK/results/$PKG
	WL=$WORK/workload/$PKG
	mkdir -p "$RES" "$WL"
	B_BEFORE=$(build before)
	log "before: $B_BEFORE"
	local variants="before" v w
	if [ -n "$TARGETS" ]; then
		B_AFTER=$(build after "$SPLIT_PATCH")
		B_FLOOR=$(build floor "$FLOOR_PATCH")
		variants="before after floor"
	fi
	gt_inputs
	for v in $variants; do
		eval "run_variant $v \"\$B_${v^^}\""
	done
	GT_SAME=yes
	for v in $variants; do
		[ "$v" = before ] || same_as_before "$v" || GT_SAME=NO
	done
	for w in $WORKLOADS; do
		cp "$RES/before.$w.cg" "$OUT/profiles/$PKG-$w.callgrind.out"
	done
	gt_program_results | tee "$OUT/RESULTS-$PKG.txt"
	if [ "$PERF" = 1 ] && declare -F gt_perf_workloads >/dev/null &&
		[ ! -f "$OUT/profiles/$PKG-${WORKLOADS##* }.perf.txt" ]; then
		gt_perf_workloads "$B_BEFORE"
	fi
	local status=0
	[ "$GT_SAME" = yes ] || status=1
	if [ -n "$TOOL" ]; then
		PROFILES=()
		for w in $WORKLOADS; do PROFILES+=("$OUT/profiles/$PKG-$w.callgrind.out"); done
		for w in $WORKLOADS; do PROFILES+=("$OUT/profiles/$PKG-$w.perf.txt"); done
		# Why each target is or is not found, with the first profile.
		local e
		for e in ${EXPLAIN:-}; do
			gt_explain "${e%%:*}" "${e#*:}" --profile="${PROFILES[0]}"
		done
		if [ "$EVALUATE" = 1 ]; then
			gt_evaluate || status=1
		else
			gt_tool default
			echo "hotpath-tidy -p (defaults): $(gt_tool_summary default), listed in $OUT/tool/$PKG-default.findings"
		fi
	fi
	exit $status
}
