#!/usr/bin/env bash
# hotpath-hook-gate on SQLite 3.40 (Debian's sqlite3 source, the split src/
# tree, not the amalgamation): the findings, the fix, the fixed tree built in
# each configuration its #ifs select, and the same behaviour.
#
#   scripts/real-sqlite-hooks.sh [--work DIR] [--tidy build/plugin/hotpath-tidy]
#
# 1. The source (scripts/real-project.py's deb-src set-up and apt-get source),
#    configured with --disable-amalgamation, built once under bear: a
#    compile_commands.json over src/*.c (and the generated parse.c, opcodes.c).
# 2. hotpath-tidy -p with the defaults, and with hotpath-hook-gate alone:
#    findings saved (findings-all.txt, findings-hook.txt).
# 3. --fix with hotpath-hook-gate alone on a copy of the source; the diff saved
#    (fix.diff); a second run changes nothing.
# 4. Every file the fix changed compiled, original and fixed, with -Wall
#    -Werror in each configuration: default, -DSQLITE_UNTESTABLE (the hook's
#    own #ifndef and the header's #ifdef), -DSQLITE_DEBUG, -DSQLITE_OMIT_WSD
#    (sqlite3GlobalConfig's other definition), and -DSQLITE_MAX_WORKER_THREADS=0
#    (the #if around vdbesort.c's worker threads). Where the original does
#    not build cleanly with -Werror, the fixed file must give the same
#    warnings.
# 5. The sqlite3 shell, original and fixed, on a script (same stdout, stderr,
#    exit status), and faultsim.c, a program that installs a fault-sim
#    callback with sqlite3_test_control(SQLITE_TESTCTRL_FAULT_INSTALL) and
#    prints how often it fired, by fault code, then makes code 400 fail.
#
# Exit 1 when a step's claim does not hold. Outside CI (~10 min on 2 cores:
# two builds of SQLite and two whole-project runs); tests/e2e has none of it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$root/build/real-projects
tidy=$root/build/plugin/hotpath-tidy
jobs=${HOTPATH_JOBS:-2}
while [ $# -gt 0 ]; do
  case $1 in
    --work) work=$2; shift 2 ;;
    --tidy) tidy=$2; shift 2 ;;
    *) echo "real-sqlite-hooks: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
[ -x "$tidy" ] || { echo "real-sqlite-hooks: no $tidy (scripts/build.sh)" >&2; exit 2; }
tidy=$(cd "$(dirname "$tidy")" && pwd)/$(basename "$tidy")
fail=0
ok() { echo "ok $*"; }
bad() { echo "FAIL $*"; fail=1; }

# 1. The source and its compile database.
src=$(python3 - "$root/scripts/real-project.py" "$work" <<'PY'
import importlib.util, sys
spec = importlib.util.spec_from_file_location("real_project", sys.argv[1])
rp = importlib.util.module_from_spec(spec)
spec.loader.exec_module(rp)
sys.stdout = sys.stderr
rp.ensure_deb_src()
src = rp.fetch_source("sqlite3", sys.argv[2])
rp.snapshot(src)
sys.__stdout__.write(src + "\n")
PY
)
out=$work/sqlite3-hooks
mkdir -p "$out"
# The fixed copy, made from the pristine snapshot each run.
fixed=$out/fixed-src
rm -rf "$fixed" && cp -a "$src" "$fixed"
git -C "$fixed" checkout -q -- . && git -C "$fixed" clean -qfd
configure_build() { # <source> <build dir>
  if [ ! -f "$2/compile_commands.json" ]; then
    rm -rf "$2" && mkdir -p "$2"
    (cd "$2" && "$1/configure" --disable-amalgamation --disable-tcl --disable-readline \
        --disable-shared CFLAGS=-O2 >configure.log 2>&1)
    (cd "$2" && bear -- make -j"$jobs" sqlite3 >make.log 2>&1) ||
      { echo "real-sqlite-hooks: the build in $2 failed (make.log)" >&2; exit 2; }
  fi
}
orig_bld=$out/orig-build
configure_build "$src" "$orig_bld"
n_tus=$(python3 -c "import json,sys; print(len({e['file'] for e in json.load(open(sys.argv[1]))}))" \
        "$orig_bld/compile_commands.json")
echo "compile database: $n_tus translation units ($orig_bld/compile_commands.json)"

# 2. Findings on the original: defaults, then the hook gate alone.
findings() { grep -E '^[^ :]+:[0-9]+:[0-9]+: warning: .*\[hotpath-' "$1" | sort -u || true; }
(cd "$orig_bld" && "$tidy" -p . -j"$jobs" >"$out/all.out" 2>"$out/all.err") || true
findings "$out/all.out" >"$out/findings-all.txt"
(cd "$orig_bld" && "$tidy" -p . -j"$jobs" -checks='-*,hotpath-hook-gate' \
    >"$out/hook.out" 2>"$out/hook.err") || true
findings "$out/hook.out" >"$out/findings-hook.txt"
echo "findings, defaults: $(wc -l <"$out/findings-all.txt") ($out/findings-all.txt)"
sed 's/^/  /' "$out/findings-all.txt"
echo "findings, hotpath-hook-gate alone: $(wc -l <"$out/findings-hook.txt")"
grep -q "hot call to hook 'sqlite3FaultSim'" "$out/findings-hook.txt" &&
  ok "sqlite3FaultSim is a hook and has hot calls" || bad "no hot call to hook sqlite3FaultSim"

# 3. The fix, on the copy: the copy's own compile database (same commands,
#    its own paths), then a second run.
fix_bld=$out/fixed-build
rm -rf "$fix_bld" && mkdir -p "$fix_bld"
cp -a "$orig_bld/." "$fix_bld/"
rm -rf "$fix_bld/hotpath-index"
sed -i "s#$src#$fixed#g; s#$orig_bld#$fix_bld#g" "$fix_bld/compile_commands.json"
(cd "$fix_bld" && "$tidy" -p . -j"$jobs" -checks='-*,hotpath-hook-gate' --fix \
    >"$out/fix.out" 2>"$out/fix.err") || true
git -C "$fixed" diff >"$out/fix.diff"
echo "fix: $(git -C "$fixed" diff --stat | tail -1) ($out/fix.diff)"
[ -s "$out/fix.diff" ] && ok "the fix changed the tree" || bad "the fix changed nothing"
mapfile -t changed < <(git -C "$fixed" diff --name-only)
(cd "$fix_bld" && "$tidy" -p . -j"$jobs" -checks='-*,hotpath-hook-gate' --fix \
    >"$out/second.out" 2>"$out/second.err") || true
second=$(git -C "$fixed" diff | diff -q - "$out/fix.diff" >/dev/null && echo same || echo changed)
[ "$second" = same ] && ok "a second --fix run changes nothing" || bad "a second --fix run changed the tree"

# 4. Each configuration: the .c files the fix rewrote compiled (-c -O2), and
#    when it changed a header, every TU that includes it checked with
#    -fsyntax-only; -Wall -Werror. Where the fixed file fails, the original
#    must fail too, with as many warnings, and the fixed one must build
#    without -Werror.
mapfile -t units < <(python3 - "$orig_bld/compile_commands.json" "$src" "${changed[@]}" <<'PY'
import json, os, sys
db, src, changed = sys.argv[1], sys.argv[2], sys.argv[3:]
headers = [os.path.basename(c) for c in changed if c.endswith(".h")]
seen = set()
for e in json.load(open(db)):
    f = os.path.normpath(os.path.join(e["directory"], e["file"]))
    if f in seen or not f.startswith(src + "/"):
        continue
    seen.add(f)
    rel = os.path.relpath(f, src)
    if rel in changed:
        print("c " + rel)
    elif headers and any('#include "%s"' % h in open(f, errors="replace").read() for h in headers):
        print("syntax " + rel)
PY
)
echo "compiled in each configuration: $(printf '%s\n' "${units[@]}" | grep -c '^c ') rewritten files" \
     "(-c), $(printf '%s\n' "${units[@]}" | grep -c '^syntax ') more that include a rewritten header" \
     "(-fsyntax-only)"
configs=("" "-DSQLITE_UNTESTABLE" "-DSQLITE_DEBUG" "-DSQLITE_OMIT_WSD" "-DSQLITE_MAX_WORKER_THREADS=0")
command_of() { # <file relative to the source> -> its compile command without -o
  python3 - "$orig_bld/compile_commands.json" "$src/$1" <<'PY'
import json, os, shlex, sys
for e in json.load(open(sys.argv[1])):
    if os.path.normpath(os.path.join(e["directory"], e["file"])) == sys.argv[2]:
        a = e.get("arguments") or shlex.split(e["command"])
        out, skip = [], False
        for x in a:
            if skip:
                skip = False
            elif x == "-o":
                skip = True
            else:
                out.append(x)
        print(shlex.join(out))
        break
PY
}
compile() { # <tree> <build dir> <mode c|syntax> <command> <flags...>
  local tree=$1 dir=$2 mode=$3 cmd=$4; shift 4
  cmd=${cmd//$src/$tree}
  local o="-o /dev/null"; [ "$mode" = syntax ] && o="-fsyntax-only"
  (cd "$dir" && eval "$cmd $* -Wall $o" 2>&1 | sed "s#$tree/##g"; exit "${PIPESTATUS[0]}")
}
for cfg in "${configs[@]}"; do
  name=${cfg:-default}
  clean=0 same=0 total=0
  for u in "${units[@]}"; do
    mode=${u%% *} file=${u#* }
    cmd=$(command_of "$file")
    total=$((total + 1))
    if compile "$fixed" "$fix_bld" "$mode" "$cmd" $cfg -Werror >/dev/null; then
      clean=$((clean + 1))
    elif ! compile "$src" "$orig_bld" "$mode" "$cmd" $cfg -Werror >/dev/null &&
         [ "$(compile "$src" "$orig_bld" "$mode" "$cmd" $cfg | grep -c 'warning:')" = \
           "$(compile "$fixed" "$fix_bld" "$mode" "$cmd" $cfg | grep -c 'warning:')" ] &&
         compile "$fixed" "$fix_bld" "$mode" "$cmd" $cfg >/dev/null; then
      same=$((same + 1))
      echo "  $name: $file: the original does not build with -Werror either; same warnings"
    else
      bad "$name: $file ($mode): the fixed file does not build as the original does:"
      compile "$fixed" "$fix_bld" "$mode" "$cmd" $cfg -Werror | head -20
    fi
  done
  echo "$name: $total files: $clean clean with -Wall -Werror, $same with the original's warnings"
done

# 5. Behaviour: the shell, and the fault-sim callback, original and fixed.
rm -rf "$out/fixed-link"
configure_build "$fixed" "$out/fixed-link"
cat >"$out/script.sql" <<'SQL'
CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT, c REAL);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i<2000)
  INSERT INTO t SELECT i, printf('r%05d', (i*7919)%2000), i*0.5 FROM n;
CREATE INDEX tb ON t(b);
CREATE TABLE u AS SELECT * FROM t WHERE a%3=0;
INSERT INTO u SELECT * FROM t WHERE a%3=1;
SELECT count(*), sum(c), min(b), max(b) FROM u;
SELECT b FROM t ORDER BY b DESC, c LIMIT 3;
SELECT * FROM nosuchtable;
SQL
for t in orig fixed; do
  bld=$orig_bld; [ $t = fixed ] && bld=$out/fixed-link
  (cd "$out" && "$bld/sqlite3" :memory: <script.sql >"shell-$t.out" 2>"shell-$t.err"; echo $? >"shell-$t.rc") || true
  gcc -O2 -I"$bld" -o "$out/faultsim-$t" "$root/scripts/real-sqlite-faultsim.c" "$bld/.libs/libsqlite3.a" \
      -lm -lz -lpthread -ldl
  (cd "$out" && "$out/faultsim-$t" >"faultsim-$t.out" 2>"faultsim-$t.err"; echo $? >"faultsim-$t.rc") || true
done
for k in out err rc; do
  cmp -s "$out/shell-orig.$k" "$out/shell-fixed.$k" && ok "shell: same std$k" || bad "shell: std$k differs"
  cmp -s "$out/faultsim-orig.$k" "$out/faultsim-fixed.$k" && ok "faultsim: same std$k" ||
    bad "faultsim: std$k differs"
done
# Negative control: the fixed library with every rewritten file's gates
# forced off (a gate that ignores the installed callback) must print other
# counts.
ctl=$out/control
rm -rf "$ctl" && mkdir -p "$ctl"
cp "$out/fixed-link/.libs/libsqlite3.a" "$ctl/"
for rel in $(git -C "$fixed" diff --name-only -- '*.c'); do
  base=$(basename "$rel" .c)
  sed 's/sqlite3FaultSim_switch_on()/0/g' "$fixed/$rel" >"$ctl/$base.c"
  cmd=$(command_of "$rel")
  cmd=${cmd//$src\/$rel/$ctl/$base.c}
  (cd "$out/fixed-link" && eval "${cmd//$src/$fixed} -o $ctl/$base.o") && ar rcs "$ctl/libsqlite3.a" "$ctl/$base.o"
done
gcc -O2 -I"$out/fixed-link" -o "$ctl/faultsim" "$root/scripts/real-sqlite-faultsim.c" "$ctl/libsqlite3.a" \
    -lm -lz -lpthread -ldl
(cd "$out" && "$ctl/faultsim" >"$ctl/faultsim.out" 2>&1) || true
cmp -s "$ctl/faultsim.out" "$out/faultsim-orig.out" &&
  bad "control: a gate that ignores the callback gives the same output (the test cannot fail)" ||
  ok "control: a gate that ignores the callback changes the output ($(grep -c . "$ctl/faultsim.out") lines)"
echo "faultsim (original and fixed):"
sed 's/^/  /' "$out/faultsim-orig.out"
grep -q '^fired [1-9]' "$out/faultsim-fixed.out" && ok "the installed callback fires after the fix" ||
  bad "the installed callback never fired"
exit $fail
