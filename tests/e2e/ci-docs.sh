#!/usr/bin/env bash
# Runs the commands of docs/ci.md exactly as written there (read from the
# file, not copied), in scratch git repositories with a CMake project: the
# GitHub Actions step, the GitLab CI job's script, the pre-commit hook and
# the fix-patch commands. A pull request that adds a hot check function must
# fail each, with the annotation, SARIF and fix patch they promise; one that
# adds none must pass, also after main moved on. The GitHub and GitLab jobs
# install hotpath-tidy as the doc says, from DEB (a cpack package of the
# build under test, through a file:// URL), with apt-get replaced by a
# stand-in that unpacks the package, runs its postinst (the hotpath-tidy
# alternative) and checks that every other package named is installed here;
# they then run the unpacked hotpath-tidy.
# Usage: ci-docs.sh HOTPATH_TIDY DOCS_CI_MD DEB
set -euo pipefail
tidy=$(realpath "$1") doc=$(realpath "$2") deb=$(realpath "${3:?the .deb to install}")
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/bin" && ln -s "$tidy" "$work/bin/hotpath-tidy"
base_path=$PATH
export PATH="$work/bin:$PATH"
# Git's global config of the jobs (safe.directory), not the machine's.
export GIT_CONFIG_GLOBAL=$work/gitconfig

# The apt-get of the CI jobs: "update" does nothing, "install" unpacks a
# .deb into $work/root (after checking that what it depends on is
# installed) and checks that each package named is installed.
mkdir "$work/shim"
cat >"$work/shim/apt-get" <<SH
#!/bin/sh
set -e
[ "\$1" = update ] && exit 0
[ "\$1" = install ] || { echo "apt-get stand-in: only update and install" >&2; exit 1; }
shift
for a in "\$@"; do
  case "\$a" in
    -*) ;;
    *.deb)
      for d in \$(dpkg-deb --field "\$a" Depends | tr ',' '\n' | sed 's/(.*)//; s/|.*//; s/ //g'); do
        dpkg -s "\$d" >/dev/null 2>&1 || { echo "apt-get stand-in: \$a needs \$d, not installed" >&2; exit 1; }
      done
      dpkg-deb -x "\$a" "$work/root"
      rm -rf "$work/control" && dpkg-deb -e "\$a" "$work/control"
      [ ! -x "$work/control/postinst" ] || PATH="$work/alternatives:\$PATH" "$work/control/postinst" configure
      echo "apt-get stand-in: unpacked \$a (depends: \$(dpkg-deb --field "\$a" Depends))" ;;
    *) dpkg -s "\$a" >/dev/null 2>&1 || { echo "apt-get stand-in: \$a is not installed" >&2; exit 1; } ;;
  esac
done
SH
chmod +x "$work/shim/apt-get"
# The package's postinst runs with update-alternatives standing in: --install
# LINK NAME PATH PRIORITY makes LINK a link to PATH, both under $work/root
# (the command hotpath-tidy of the package hotpath-tidy-<N>).
mkdir "$work/alternatives"
cat >"$work/alternatives/update-alternatives" <<SH
#!/bin/sh
[ "\$1" = --install ] || { echo "update-alternatives stand-in: only --install" >&2; exit 1; }
ln -sfn "$work/root\$4" "$work/root\$2"
SH
chmod +x "$work/alternatives/update-alternatives"
# For the GitHub and GitLab jobs: the stand-in, then what the package installs.
job_path="$work/shim:$work/root/usr/bin:$base_path"
export HOTPATH_TIDY_DEB_URL="file://$deb"
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "ok   $*"; }
bad() { failed=$((failed + 1)); echo "FAIL $*"; }
g() { git -c user.name=t -c user.email=t@example.com "$@"; }
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com

# The pieces of docs/ci.md.
python3 - "$doc" "$work" <<'PY'
import re, sys, textwrap
doc, work = sys.argv[1], sys.argv[2]
blocks = re.findall(r"```(\w*)\n(.*?)```", open(doc).read(), re.S)
def block(first_line):
    for lang, body in blocks:
        if body.startswith(first_line):
            return body
    sys.exit("docs/ci.md: no block starting with %r" % first_line)
def lines_after(lines, i, prefix, out):
    """The lines after lines[i] that start with prefix, without it, to out."""
    body = []
    for l in lines[i + 1:]:
        if not l.startswith(prefix):
            break
        body.append(l[len(prefix):])
    open(work + "/" + out, "w").write("\n".join(body) + "\n")
open(work + "/workflow.yml", "w").write(block("# .github/workflows/hotpath-tidy.yml"))
import yaml
gl = yaml.safe_load(block("# .gitlab-ci.yml"))
def job(name):
    """A GitLab job with its extends: resolved (hashes merged deeply)."""
    j = gl[name]
    if "extends" not in j:
        return j
    def merge(a, b):
        out = dict(a)
        for k, v in b.items():
            out[k] = merge(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
        return out
    return merge(job(j["extends"]), {k: v for k, v in j.items() if k != "extends"})
for name, prefix in (("hotpath-tidy", "gitlab"), ("hotpath-tidy-main", "gitlab-main")):
    j = job(name)
    open(work + "/%s-before.sh" % prefix, "w").write("\n".join(j["before_script"]) + "\n")
    open(work + "/%s-script.sh" % prefix, "w").write("\n".join(j["script"]) + "\n")
    open(work + "/%s-job.json" % prefix, "w").write(__import__("json").dumps(j))
open(work + "/pre-commit", "w").write(block("#!/bin/sh\n# .git/hooks/pre-commit"))
entry = [l.split("entry:", 1)[1].strip() for l in block("# .pre-commit-config.yaml").splitlines() if "entry:" in l]
open(work + "/pre-commit-entry", "w").write(entry[0] + "\n")
fix = block("hotpath-tidy --diff=HEAD -p build --fix-patch")
open(work + "/fix.sh", "w").write(fix)
# The sharded whole-project workflow: each job's steps, by name; a run: on
# one line or a block. The matrix of four becomes two.
wp = block("# .github/workflows/hotpath-tidy-project.yml").splitlines()
def step(job, name, out):
    j = wp.index("  %s:" % job)
    i = wp.index("      - name: " + name, j)
    run = next(k for k in range(i + 1, len(wp)) if wp[k].startswith("        run:"))
    if wp[run].strip() == "run: |":
        lines_after(wp, run, " " * 10, out)
    else:
        open(work + "/" + out, "w").write(wp[run].split("run:", 1)[1].strip() + "\n")
    text = open(work + "/" + out).read().replace("${{ matrix.shard }}/4", "$SHARD/2")
    open(work + "/" + out, "w").write(text)
for job in ("index", "check"):
    step(job, "Install git, the build tools and hotpath-tidy", "matrix-%s-install.sh" % job)
    step(job, "Build the compile database", "matrix-%s-build.sh" % job)
step("index", "Index one slice", "matrix-index.sh")
step("check", "Check one slice against the whole index", "matrix-check.sh")
dl = wp[wp.index("      - uses: actions/download-artifact@v4"):]
up = wp[wp.index("      - uses: actions/upload-artifact@v4"):]
open(work + "/matrix-paths", "w").write(
    next(l for l in up if "path:" in l).split("path:")[1].strip() + "\n" +
    next(l for l in dl if "path:" in l).split("path:")[1].strip() + "\n")
PY
for f in gitlab-before gitlab-script gitlab-main-script; do
  echo "$f:"; sed 's/^/    /' "$work/$f.sh"
done

# A CMake project on branch main of an "origin" repository.
src=$work/src
mkdir -p "$src/src" "$src/include"
cat >"$src/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.16)
project(demo C)
add_executable(demo src/buf.c src/main.c src/other.c src/old.c)
target_include_directories(demo PRIVATE include)
CM
printf '#ifndef BUF_H\n#define BUF_H\nstruct buf { unsigned long len; unsigned char *data; };\nunsigned sum(const struct buf *b);\n#endif\n' >"$src/include/buf.h"
printf '#include <stdbool.h>\n#include <stdio.h>\n#include "buf.h"\n\nunsigned sum(const struct buf *b)\n{\n\tunsigned s = 0;\n\tfor (unsigned long i = 0; i < b->len; i++)\n\t\ts += b->data[i];\n\treturn s;\n}\n' >"$src/src/buf.c"
printf '#include "buf.h"\nint main(void) { struct buf b = {0, 0}; return (int)sum(&b); }\n' >"$src/src/main.c"
printf 'int other(int x) { return x + 1; }\n' >"$src/src/other.c"
# An old hot check function on main, which main later rewrites (7. below).
{ printf '#include <stdbool.h>\n#include <stdio.h>\n#include "buf.h"\n\n'
  sed -n '/CHECK-MESSAGES:/d; /^static bool check_bounds/,$p' "$here/../checks/hotpath-check-split/two-branch-subsumed.c" |
    sed 's/check_bounds/old_bounds/; s/get\([0-9]*\)(/old_get\1(/'; } >"$src/src/old.c"
printf 'build/\nhotpath.sarif\nhotpath-fixes.diff\n' >"$src/.gitignore"
# A small program: one loop counts as hot (ChainHeatThreshold 5); heat itself is tested by chain-heat.sh and the unit tests.
printf 'CheckOptions:\n  ChainHeatThreshold: 5\n' >"$src/.clang-tidy"
(cd "$src" && git init -q -b main && g add -A && g commit -qm base)
git clone -q --bare "$src" "$work/origin.git"

add_check_function() {
  # The check function and accessors of the check-split test, after a blank line.
  { echo; sed -n '/CHECK-MESSAGES:/d; /^static bool check_bounds/,$p' "$here/../checks/hotpath-check-split/two-branch-subsumed.c"; } >>src/buf.c
}
# A clone with a pull request branch that adds the check function.
pr_clone() {
  git clone -q "$work/origin.git" "$1"
  (cd "$1" && git checkout -q -b feature && add_check_function && g commit -qam "add accessors")
}
check_artifacts() { # WHAT DIR
  if python3 "$here/ci-sarif-required.py" "$2/hotpath.sarif" --results 1 --rule hotpath-check-split \
       --file src/buf.c --line 13 --col 13 --fixes; then
    ok "$1: hotpath.sarif is SARIF 2.1.0 with the one finding"
  else
    bad "$1: hotpath.sarif"
  fi
  if (cd "$2" && git apply --check hotpath-fixes.diff && [ -s hotpath-fixes.diff ]); then
    ok "$1: hotpath-fixes.diff applies"
  else
    bad "$1: hotpath-fixes.diff"
  fi
}

# GitHub Actions: the doc's workflow as written, through gha-emulate.py
# (GitHub's merge commit, if:, the cache scopes and immutable keys, the
# upload permissions), for a push to main, a pull request, its merge and a
# second pull request, then a pull request from a fork.
gha() { # LABEL ARGS... : one event; the output in $work/gha-LABEL.out, the report in .json
  local label=$1; shift
  (export PATH="$job_path"; python3 "$here/gha-emulate.py" "$work/workflow.yml" --job hotpath \
     --origin "$work/gh-origin.git" --state "$work/gha-state" --workspace "$work/gha-ws" \
     --var "HOTPATH_TIDY_DEB_URL=$HOTPATH_TIDY_DEB_URL" --report "$work/gha-$label.json" "$@") \
    >"$work/gha-$label.out" 2>&1
}
report() { # LABEL PYTHON-EXPR over r (the report)
  python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$work/gha-$1.json" "$2"
}
parsed() { # LABEL: "X parsed, Y from the result cache" of the run's summary line
  sed -n 's/^hotpath-tidy: [0-9]* TUs\{0,1\} checked: \(.*\)$/\1/p' "$work/gha-$1.out" | tail -1
}
show() { echo "---- $1"; sed 's/^/    /' "$work/gha-$1.out"; echo "----"; }
push_main() { # LABEL
  local rc=0
  gha "$1" --push main || rc=$?
  show "$1"
  [ $rc -eq 0 ] && ok "GitHub push to main ($1): the whole project checked, the job passes" \
    || bad "GitHub push to main ($1): exit $rc"
}
pull_request() { # LABEL BRANCH NUMBER WANT-RC [--fork]
  local label=$1 branch=$2 n=$3 want=$4 rc=0
  shift 4
  gha "$label" --pull-request "$branch" --base main --number "$n" "$@" || rc=$?
  show "$label"
  [ $rc -eq "$want" ] && ok "GitHub pull request $label: job exit $rc" || bad "GitHub pull request $label: exit $rc, want $want"
}
# 1. A push to main: the whole project, the caches saved on main.
git clone -q --bare "$src" "$work/gh-origin.git"
push_main main-1
[ "$(parsed main-1)" = "4 parsed, 0 from the result cache" ] \
  && ok "  main-1 parses every TU: $(parsed main-1)" || bad "  main-1: '$(parsed main-1)'"
[ "$(report main-1 '[c["result"] for c in r["caches"] if c["action"] == "save"]')" = "['saved']" ] \
  && ok "  main-1 saves its cache" || bad "  main-1 cache save: $(report main-1 'r["caches"]')"
grep -q "^hotpath-tidy version " "$work/gha-main-1.out" && [ -x "$work/root/usr/bin/hotpath-tidy" ] \
  && ok "  the install step: the package's hotpath-tidy runs" || bad "  the install step"
git config --global --get-all safe.directory | grep -qxF "$work/gha-ws" \
  && ok "  the build step: the workspace is a safe directory" || bad "  the build step: safe.directory"
# 2. Pull request 1 adds a hot check function to src/buf.c.
git clone -q "$work/gh-origin.git" "$work/pr1"
(cd "$work/pr1" && git checkout -q -b feature-1 && add_check_function && g commit -qam "add accessors" && git push -q origin feature-1)
pull_request pr-1 feature-1 1 1
[ "$(report pr-1 '[(c["restored"], c["scope"]) for c in r["caches"] if c["action"] == "restore"]')" = \
  "[('hotpath-Linux-$(git --git-dir="$work/gh-origin.git" rev-parse main)', 'refs/heads/main')]" ] \
  && ok "  pr-1 restores the cache main's push saved" || bad "  pr-1 restore: $(report pr-1 'r["caches"]')"
[ "$(parsed pr-1)" = "1 parsed, 0 from the result cache" ] || [ "$(parsed pr-1)" = "1 parsed, 1 from the result cache" ] \
  && ok "  pr-1 parses only the TU its patch touches: $(parsed pr-1)" || bad "  pr-1: '$(parsed pr-1)'"
grep -q "^::warning file=src/buf.c,line=13,col=13,title=hotpath-check-split::check function 'check_bounds'" "$work/gha-pr-1.out" \
  && [ "$(grep -c '^::warning' "$work/gha-pr-1.out")" = 1 ] && ok "  pr-1: one annotation, on src/buf.c:13" || bad "  pr-1: annotations"
check_artifacts "  pr-1" "$work/gha-ws"
[ "$(report pr-1 '[u.get("category") for u in r["uploads"] if "sarif" in u]')" = "['hotpath-tidy']" ] \
  && ok "  pr-1 uploads the SARIF file to code scanning" || bad "  pr-1 SARIF upload: $(report pr-1 'r["uploads"]')"
[ -s "$work/gha-state/artifacts/hotpath-fixes/hotpath-fixes.diff" ] && ok "  pr-1 uploads the fix patch" || bad "  pr-1: no fix patch artifact"
# 3. Pull request 1, fixed, merged: the push re-checks what changed and saves.
(cd "$work/pr1" && git apply "$work/gha-state/artifacts/hotpath-fixes/hotpath-fixes.diff" && g commit -qam "fast path" &&
   git checkout -q main && git merge -q --no-ff -m "Merge feature-1" feature-1 && git push -q origin main)
push_main main-2
# buf.c, which the merge changed, and old.c, whose checks read the index's
# record of __builtin_expect: the merged fast path added a call of it (the
# cache's index facts are whole records: docs/project-index.md).
[ "$(parsed main-2)" = "2 parsed, 2 from the result cache" ] \
  && ok "  main-2 re-parses the merged change and what read its index facts: $(parsed main-2)" || bad "  main-2: '$(parsed main-2)'"
# 4. Pull request 2, on the new main, changes src/other.c.
git clone -q "$work/gh-origin.git" "$work/pr2"
(cd "$work/pr2" && git checkout -q -b feature-2 && sed -i 's/x + 1/x + 2/' src/other.c && g commit -qam other && git push -q origin feature-2)
pull_request pr-2 feature-2 2 0
[ "$(report pr-2 '[(c["restored"], c["scope"]) for c in r["caches"] if c["action"] == "restore"]')" = \
  "[('hotpath-Linux-$(git --git-dir="$work/gh-origin.git" rev-parse main)', 'refs/heads/main')]" ] \
  && ok "  pr-2 restores the cache of the merge's push" || bad "  pr-2 restore: $(report pr-2 'r["caches"]')"
case "$(parsed pr-2)" in
  "1 parsed, "*) ok "  pr-2 parses only the TU its patch touches: $(parsed pr-2)" ;;
  *) bad "  pr-2: '$(parsed pr-2)'" ;;
esac
[ "$(grep -c '^::warning' "$work/gha-pr-2.out")" = 0 ] && ok "  pr-2: no annotation" || bad "  pr-2: annotations"
[ "$(report pr-2 '[c for c in r["caches"] if c["action"] == "save"]')" = "[]" ] \
  && ok "  pr-2 saves no cache of its own" || bad "  pr-2 saved a cache"
# 5. The same change from a fork: read-only token, the upload skipped, the job passes.
pull_request fork feature-2 3 0 --fork
[ "$(report fork '[s["outcome"] for s in r["steps"] if "upload-sarif" in s["name"]]')" = "['skipped']" ] \
  && ok "  a fork's pull request skips the SARIF upload it may not make" || bad "  fork: $(report fork 'r["steps"]')"

# GitLab CI: before_script and script lines, in one shell that stops at the
# first failure (GitLab runs them so), in the project directory every job of
# the runner uses; the cache (its paths and policy as the job says) restored
# before and saved after, as the runner does.
glws=$work/gl-ws
gitlab_cache() { # restore|save PREFIX
  python3 - "$1" "$work/$2-job.json" "$glws" "$work/gitlab-cache" <<'PY'
import json, os, shutil, sys
what, job, ws, store = sys.argv[1:]
c = json.load(open(job))["cache"]
if what == "restore" and os.path.isdir(store):
    shutil.copytree(store, ws, dirs_exist_ok=True)
if what == "save" and c.get("policy", "pull-push") in ("push", "pull-push"):
    shutil.rmtree(store, ignore_errors=True)
    for p in c["paths"]:
        if os.path.exists(os.path.join(ws, p)):
            shutil.copytree(os.path.join(ws, p), os.path.join(store, p))
PY
}
gitlab_job() { # PREFIX (the checkout is in $glws)
  local rc=0
  gitlab_cache restore "$1"
  (cd "$glws" && export PATH="$job_path" CI_MERGE_REQUEST_TARGET_BRANCH_NAME=main &&
     bash -e "$work/$1-before.sh" >/dev/null && bash -e "$work/$1-script.sh") || rc=$?
  [ $rc -ne 0 ] || gitlab_cache save "$1"
  return $rc
}
gl_parsed() { sed -n 's/^hotpath-tidy: [0-9]* TUs\{0,1\} checked: \(.*\)$/\1/p' "$1" | tail -1; }
rm -rf "$work/root"
git clone -q "$work/origin.git" "$glws"
set +e
gitlab_job gitlab-main >"$work/glm.out" 2>&1; rc=$?
set -e
[ -x "$work/root/usr/bin/hotpath-tidy" ] && ok "GitLab before_script installs the package" \
  || bad "GitLab before_script: nothing installed"
[ $rc -eq 0 ] && ok "GitLab default-branch job checks the whole project and passes" || { bad "GitLab main job: exit $rc"; cat "$work/glm.out"; }
[ -d "$work/gitlab-cache/build/hotpath-cache" ] && ok "  and fills the cache" || bad "  no cache saved"
quality() { # FILE N: Code Quality JSON in GitLab's format with N findings
  python3 "$here/codequality-required.py" "$1" --results "$2"
}
quality "$glws/gl-code-quality-report.json" 1 && ok "  its Code Quality report has main's one finding" || bad "  main's Code Quality report"
rm -rf "$glws"
pr_clone "$glws"
set +e
gitlab_job gitlab >"$work/gl.out" 2>"$work/gl.err"; rc=$?
set -e
[ $rc -eq 1 ] && ok "GitLab merge request job fails on the finding (exit 1)" || { bad "GitLab job: exit $rc"; cat "$work/gl.err"; }
grep -q "^src/buf.c:13:13: warning: check function 'check_bounds'.*\[hotpath-check-split\]$" "$work/gl.out" \
  && ok "GitLab job log shows the finding" || bad "GitLab job log"
case "$(gl_parsed "$work/gl.err")" in
  "1 parsed, "*) ok "  with main's cache it parses only the TU the merge request touches: $(gl_parsed "$work/gl.err")" ;;
  *) bad "  GitLab merge request parsed: '$(gl_parsed "$work/gl.err")'" ;;
esac
check_artifacts "GitLab job" "$glws"
quality "$glws/gl-code-quality-report.json" 1 && ok "  its Code Quality report has the one new finding" || bad "  the merge request's Code Quality report"
# A merge request without findings passes, also after main moved on: main
# rewrote its old check function since the branch forked, which the branch
# still has, so a diff against main's tip (not the merge base) would show it
# as the branch's and fail the job.
rm -rf "$glws"
git clone -q "$work/origin.git" "$glws"
(cd "$glws" && git checkout -q -b feature && sed -i 's/x + 1/x + 2/' src/other.c && g commit -qam other)
git clone -q "$work/origin.git" "$work/upstream"
(cd "$work/upstream" && printf 'int old_placeholder;\n' >src/old.c && g commit -qam "main moves on" && git push -q origin main)
(cd "$glws" && git fetch -q origin)
if gitlab_job gitlab >"$work/gl2.out" 2>&1; then
  ok "GitLab job passes a merge request without findings, main having moved on"
else
  bad "GitLab job fails a clean merge request"; cat "$work/gl2.out"
fi
set +e
(cd "$glws" && hotpath-tidy --diff=origin/main -p build >"$work/gl2-tip.out" 2>&1); rc=$?
set -e
[ $rc -eq 1 ] && grep -q "src/old.c:.*warning: check function 'old_bounds'" "$work/gl2-tip.out" \
  && ok "  (against main's tip instead it would fail on main's own change: the control)" \
  || { bad "  the control: --diff=origin/main gave exit $rc"; cat "$work/gl2-tip.out"; }

# pre-commit hook.
git clone -q "$work/origin.git" "$work/hook"
cd "$work/hook"
cmake -S . -B build -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null
install -m 755 "$work/pre-commit" .git/hooks/pre-commit
add_check_function
if g commit -qam "add accessors" >"$work/hook.out" 2>&1; then
  bad "pre-commit hook let the finding in"
else
  ok "pre-commit hook refuses the commit that adds the finding"
fi
grep -q "src/buf.c:13:13: warning: check function 'check_bounds'" "$work/hook.out" \
  && ok "pre-commit hook says why" || { bad "pre-commit hook output"; cat "$work/hook.out"; }
[ "$(git rev-parse HEAD)" = "$(git rev-parse origin/main)" ] && ok "  nothing committed" || bad "  committed anyway"
# The fix commands of the doc, then the commit goes through.
bash "$work/fix.sh" >/dev/null 2>&1 || true  # typed one by one: the first exits 1
grep -q "__builtin_expect(end > b->len, 0)" src/buf.c && ok "the doc's fix commands apply the fix" || bad "fix commands"
cmake --build build >/dev/null && ok "  and the project builds" || bad "  build after the fix"
if g commit -qam "add accessors, fast path" >"$work/hook2.out" 2>&1; then
  ok "pre-commit hook accepts the fixed commit"
else
  bad "pre-commit hook refuses the fixed commit"; cat "$work/hook2.out"
fi
cmd=$(grep -v '^#' "$work/pre-commit" | grep 'hotpath-tidy' | sed 's/^exec //')
[ "$(cat "$work/pre-commit-entry")" = "$cmd" ] && ok "the pre-commit framework entry is the tested hook command" \
  || bad "pre-commit framework entry differs from the hook: '$(cat "$work/pre-commit-entry")' vs '$cmd'"
# First commit of a new repository: nothing to diff against, let it through.
mkdir "$work/fresh" && cd "$work/fresh" && git init -q && install -m 755 "$work/pre-commit" .git/hooks/pre-commit
echo x >f && g add f
g commit -qm first && ok "pre-commit hook lets a first commit through" || bad "pre-commit hook on a first commit"

# The whole project, sharded: two index jobs upload their shards, two check
# jobs download all of them into a fresh checkout at the same path (new time
# stamps, same contents), parse nothing, and together report what one run
# over the whole project reports.
mp=$work/matrix-project
mkproject() { # a fresh checkout of tests/e2e/projects/c, with a CMakeLists.txt
  rm -rf "$mp" && mkdir -p "$mp"
  cp -r "$here/projects/c/include" "$here/projects/c/src" "$mp/"
  printf 'cmake_minimum_required(VERSION 3.16)\nproject(proj C)\nadd_executable(prog %s)\ntarget_include_directories(prog PRIVATE include)\n' \
    "$(cd "$mp" && ls src/*.c | tr '\n' ' ')" >"$mp/CMakeLists.txt"
  # A small program: one loop counts as hot (ChainHeatThreshold 5); heat itself is tested by chain-heat.sh and the unit tests.
  printf 'CheckOptions:\n  ChainHeatThreshold: 5\n' >"$mp/.clang-tidy"
}
upload=$(sed -n 1p "$work/matrix-paths") download=$(sed -n 2p "$work/matrix-paths")
rm -rf "$work/artifacts" && mkdir "$work/artifacts"
matrix_ok=1
for k in 1 2; do
  mkproject
  (cd "$mp" && export PATH="$job_path" SHARD=$k && bash -e "$work/matrix-index-install.sh" >/dev/null 2>&1 &&
     bash -e "$work/matrix-index-build.sh" >/dev/null && bash -e "$work/matrix-index.sh") \
    >"$work/matrix-index-$k.out" 2>&1 || { matrix_ok=0; bad "matrix index job $k"; cat "$work/matrix-index-$k.out"; }
  cp "$mp/$upload"/*.json "$work/artifacts/"
done
[ "$(ls "$work/artifacts" | wc -l)" = 5 ] && ok "matrix: two index jobs upload the 5 TUs' shards between them" ||
  { matrix_ok=0; bad "matrix: shards uploaded: $(ls "$work/artifacts" | wc -l)"; }
: >"$work/matrix-results.txt"
results() { # SARIF -> "rule uri line" per result
  python3 -c 'import json,sys
for r in json.load(open(sys.argv[1]))["runs"][0]["results"]:
    l = r["locations"][0]["physicalLocation"]
    print(r["ruleId"], l["artifactLocation"]["uri"], l["region"]["startLine"])' "$1"
}
for k in 1 2; do
  mkproject
  rc=0
  (cd "$mp" && export PATH="$job_path" SHARD=$k && bash -e "$work/matrix-check-install.sh" >/dev/null 2>&1 &&
     bash -e "$work/matrix-check-build.sh" >/dev/null && mkdir -p "$download" && cp "$work/artifacts"/*.json "$download/" &&
     bash -e "$work/matrix-check.sh") >"$work/matrix-check-$k.out" 2>&1 || rc=$?
  if [ "$rc" = 0 ] && grep -qF "0 of 5 translation units indexed, 5 up to date" "$work/matrix-check-$k.out"; then
    ok "matrix check job $k: parses no TU (every shard up to date), exits 0"
  else
    matrix_ok=0; bad "matrix check job $k (exit $rc)"; cat "$work/matrix-check-$k.out"
  fi
  results "$mp/hotpath.sarif" >>"$work/matrix-results.txt"
done
mkproject
(cd "$mp" && cmake -S . -B build -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null &&
   hotpath-tidy -p build --format=sarif >"$work/whole.sarif" 2>/dev/null) || true
results "$work/whole.sarif" | sort >"$work/whole-results.txt"
# (A finding in a header two slices include comes from both jobs; code
# scanning merges the two by their fingerprint.)
sort -u -o "$work/matrix-results.txt" "$work/matrix-results.txt"
if [ -s "$work/whole-results.txt" ] && cmp -s "$work/whole-results.txt" "$work/matrix-results.txt"; then
  ok "matrix: the check jobs together report the $(wc -l <"$work/whole-results.txt") results of one whole-project run"
else
  bad "matrix: results differ from one whole-project run"; diff "$work/whole-results.txt" "$work/matrix-results.txt" || true
fi
# Control: a check job whose checkout is at another path has stale shards.
if [ "$matrix_ok" = 1 ]; then
  mkproject && mv "$mp" "$mp-elsewhere"
  (cd "$mp-elsewhere" && cmake -S . -B build -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null &&
     mkdir -p "$download" && cp "$work/artifacts"/*.json "$download/" &&
     SHARD=1 bash -e "$work/matrix-check.sh") >"$work/matrix-elsewhere.out" 2>&1 || true
  grep -qF "5 of 5 translation units indexed" "$work/matrix-elsewhere.out" &&
    ok "  (a checkout at another path re-indexes all 5: the control)" ||
    { bad "  the control: another path reused the shards"; cat "$work/matrix-elsewhere.out"; }
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
