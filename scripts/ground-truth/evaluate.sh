# The evaluation of hotpath-tidy on a ground-truth project (sourced by
# common.sh; `SCRIPT --tool PATH --evaluate` runs it). The project script
# sets, before calling gt_evaluate:
#   PKG          name of the results (xfsprogs, libarchive, zstd)
#   TARGET       the check that costs (check_nsec), or empty (negative control)
#   TARGETS      (gt_program) every check of the ground truth, space
#                separated; default: TARGET
#   B_BEFORE     the built tree whose compile_commands.json the tool reads
#   RES          the project's results directory ($RES/VARIANT.WORKLOAD.*)
#   MEASURED     the workloads the check runs in (their figures are printed)
#   PROFILES     the before workload's callgrind.out files, then perf reports
#   SPLIT_PATCH  the hand split (the --fix-from-patch stand-in)
# and defines:
#   build VARIANT PATCH   prints the tree: a copy of B_BEFORE, PATCH applied,
#                         rebuilt the Debian way (as the after/floor builds)
#   run_variant VARIANT DIR  runs every workload of that build under callgrind
#   same_as_before VARIANT   0 when its outputs (stdout, stderr, exit status,
#                         produced files) are the before build's, byte for byte
#
# Writes $OUT/tool/PKG-*.txt (the tool's output), PKG-*.findings (one
# "FILE:LINE CHECK SUBJECT" a line), PKG-fix.patch (its --fix-patch with the
# first profile) and $OUT/EVALUATION-PKG.txt (what it prints).

GT_TOOL_STAMP=

# gt_tool NAME ARGS...: hotpath-tidy -p B_BEFORE -j JOBS ARGS..., run in
# B_BEFORE, into $OUT/tool/PKG-NAME.txt (+ "exit status: N") and
# PKG-NAME.findings. Reused while the tool binary, its arguments and the
# compile database are the same.
gt_tool() {
	local name=$1; shift
	local txt=$OUT/tool/$PKG-$name.txt stamp
	[ -n "$GT_TOOL_STAMP" ] || GT_TOOL_STAMP=$(sha256sum < "$TOOL" | cut -c1-16)
	stamp="$GT_TOOL_STAMP $(sha256sum < "$B_BEFORE/compile_commands.json" | cut -c1-16) $*"
	if [ ! -f "$txt.stamp" ] || [ "$(cat "$txt.stamp")" != "$stamp" ]; then
		log "hotpath-tidy -p $B_BEFORE $* -> $txt"
		local rc=0
		(cd "$B_BEFORE" && "$TOOL" -p "$B_BEFORE" -j"$JOBS" \
			--index-dir="$WORK/index/$PKG" "$@") > "$txt" 2>&1 || rc=$?
		echo "exit status: $rc" >> "$txt"
		# A run that failed (exit 2: a stale index, a crash) is not reused.
		if [ "$rc" -le 1 ]; then echo "$stamp" > "$txt.stamp"; else rm -f "$txt.stamp"; fi
	fi
	python3 "$GT_SCRIPTS/findings.py" "$txt" "$B_BEFORE" > "$OUT/tool/$PKG-$name.findings"
}

# gt_tool_summary NAME: "N findings (exit S), TARGET found|not found"; with
# several TARGETS also "K of M of the ground truth found".
gt_tool_summary() {
	local f=$OUT/tool/$PKG-$1.findings
	local n rc found="" t k=0 m=0
	n=$(wc -l < "$f")
	rc=$(tail -1 "$OUT/tool/$PKG-$1.txt" | sed 's/exit status: //')
	for t in ${TARGETS:-$TARGET}; do
		m=$((m + 1))
		if awk -v t="$t" '$3 == t {f=1} END {exit !f}' "$f"; then
			found="$found, $t FOUND"; k=$((k + 1))
		else
			found="$found, $t not found"
		fi
	done
	[ "$m" -le 1 ] || found=", $k of $m of the ground truth found$found"
	echo "$n findings (exit $rc)$found"
}

# (a) the defaults, no profile: every finding listed.
gt_eval_defaults() {
	gt_tool default
	echo "(a) hotpath-tidy -p <db> -j$JOBS (defaults, no profile): $(gt_tool_summary default)"
	sed 's/^/      /' "$OUT/tool/$PKG-default.findings"
	grep -E '^[^ ].*(could not be analysed|error:)' "$OUT/tool/$PKG-default.txt" |
		sort -u | head -5 | sed 's/^/      tool: /' || true
}

# gt_patch_relative PATCH: the tool writes its --fix-patch relative to the
# top of the git work tree around the tree, if there is one (a --work inside
# a checkout); the paths are made relative to B_BEFORE, as patch -p1 in a
# copy of it needs.
gt_patch_relative() {
	local top
	top=$(git -C "$B_BEFORE" rev-parse --show-toplevel 2>/dev/null) || return 0
	python3 - "$1" "$(realpath --relative-to="$top" "$B_BEFORE")" <<'EOF'
import re, sys
path, prefix = sys.argv[1], re.escape(sys.argv[2].rstrip('/') + '/')
text = open(path).read()
text = re.sub(r'^(--- a/|\+\+\+ b/|diff --git a/)' + prefix, r'\1', text, flags=re.M)
text = re.sub(r'^(diff --git a/\S+ b/)' + prefix, r'\1', text, flags=re.M)
open(path, 'w').write(text)
EOF
}

# (b) each profile of the workload; the first one's fixes are kept as a patch.
gt_eval_profiles() {
	local p name first=1
	for p in "${PROFILES[@]}"; do
		[ -f "$p" ] || continue
		name=profile-$(basename "$p" | sed 's/^[^-]*-//; s/\.out$//; s/\.txt$//')
		if [ "$first" = 1 ]; then
			gt_tool "$name" --profile="$p" --fix-patch="$OUT/tool/$PKG-fix.patch"
			gt_patch_relative "$OUT/tool/$PKG-fix.patch"
			first=0
		else
			gt_tool "$name" --profile="$p"
		fi
		echo "(b) --profile=$(basename "$p"): $(gt_tool_summary "$name")"
		sed 's/^/      /' "$OUT/tool/$PKG-$name.findings"
		grep -m1 'profile .*: line [0-9]*:' "$OUT/tool/$PKG-$name.txt" | sed 's/^/      tool: /' || true
	done
}

# (c) the fix built, run, compared and measured. With --fix-from-patch the
# hand split stands in for the tool's fix (variant "selftest"), which must
# give the hand split's figures.
gt_eval_fix() {
	local v=toolfix patch=$OUT/tool/$PKG-fix.patch what
	what="the tool's --fix-patch with --profile=$(basename "${PROFILES[0]}")"
	if [ "$FIX_FROM_PATCH" = 1 ]; then
		v=selftest patch=$SPLIT_PATCH what="the hand split $(basename "$SPLIT_PATCH") (--fix-from-patch: harness self-test)"
	fi
	if [ -z "${TARGETS:-$TARGET}" ]; then
		echo "(c) no check to fix (negative control)"; return 0
	fi
	if [ ! -s "$patch" ]; then
		echo "(c) fix: none: the tool proposes no edit ($what): ${TARGETS:-$TARGET} not fixed"
		return 0
	fi
	echo "(c) fix: $what, applied to a copy of the before tree with patch -p1"
	echo "      files: $(grep '^+++ ' "$patch" | sed 's|^+++ b/||' | tr '\n' ' ')"
	local dir
	if ! dir=$(build "$v" "$patch"); then
		echo "      rebuilt as the after build: FAILED (log $WORK/build/$PKG-$v.build.log)"
		return 1
	fi
	echo "      rebuilt as the after build: ok ($dir)"
	run_variant "$v" "$dir"
	local same=yes
	same_as_before "$v" || same=NO
	echo "      outputs (stdout, stderr, exit status, produced files) identical to before: $same"
	local w b a f t left
	for w in $MEASURED; do
		b=$(gt_total "$RES/before.$w.cg"); a=$(gt_total "$RES/$v.$w.cg"); f=$(gt_total "$RES/floor.$w.cg")
		left=
		for t in ${TARGETS:-$TARGET}; do
			left="$left $t $(gt_calls "$RES/$v.$w.cg" "$t")"
		done
		echo "      [$w] Ir before $b, fixed $a, floor $f; calls left out of line:$left"
		echo "      [$w] tool fix removes $(gt_ratio "$b" "$a" "$f")% of the removable cost (goal >= 80%)"
	done
	[ "$same" = yes ]
}

# Exit status 1 when a fix was made and its build failed or its outputs
# differ; a check not found is a finding about the tool, not a failure.
gt_evaluate() {
	local st=0
	(
		local what=${TARGET:+ (the check that costs: $TARGET)}
		[ -z "${TARGETS:-}" ] || what=" (the ground truth: $TARGETS)"
		echo "evaluation of $TOOL on $PKG$what"
		gt_eval_defaults
		gt_eval_profiles
		gt_eval_fix
	) | tee "$OUT/EVALUATION-$PKG.txt" || st=$?
	return "$st"
}
