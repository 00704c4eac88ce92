#!/usr/bin/env python3
"""Runs one job of a GitHub Actions workflow here, as GitHub would run it for
one event, with the parts of GitHub that decide what a CI recipe does:

* the trigger (`on:` with its `branches` filter) and what is checked out:
  on `push` the pushed commit, on `pull_request` the merge commit GitHub
  makes of the head into the base branch (`refs/pull/N/merge`), with the
  history `fetch-depth` asks for (0: every branch, as `origin/<name>`);
* `if:` and `${{ }}` expressions (contexts github, runner, env, vars, matrix
  and steps; `==`, `!=`, `&&`, `||`, `!`, `always()`, `success()`,
  `failure()`, `cancelled()`, `startsWith`, `endsWith`, `contains`);
* `run:` steps in `bash -e {0}` with the step's and job's `env:`, the
  GITHUB_* variables and `$GITHUB_ENV`;
* `actions/cache`, `actions/cache/restore` and `actions/cache/save` with
  GitHub's rules: a run restores only caches made on its own ref, on the
  base branch of its pull request, or on the default branch (in that order,
  `key` exactly, then each `restore-keys` prefix, newest first); a key, once
  saved in a scope, is never overwritten; `actions/cache` saves in its post
  step when the job succeeded and the key was not hit exactly;
* `github/codeql-action/upload-sarif`: needs `security-events: write`
  (and `actions: read` in a private repository), which a pull request from a
  fork does not get; the file must be SARIF;
* `actions/upload-artifact` and `actions/download-artifact` through a
  directory.

The cache store persists between calls in --state (one directory per saved
cache, with its key, scope and time), which is what lets a test run a push
to main and then pull requests in a row. `container:` is not emulated: the
steps run on this machine with the PATH given.

Usage: gha-emulate.py WORKFLOW --job NAME --origin BARE_REPO --state DIR
         --workspace DIR (--push BRANCH | --pull-request HEAD_BRANCH --base BRANCH --number N)
         [--fork] [--private] [--default-branch main] [--var NAME=VALUE]
Prints each step and its outcome, and a summary line per cache and upload;
writes --report FILE (JSON) when asked. Exits 0 when the job succeeds, 1
when it fails, 2 when the workflow cannot run here (an unsupported action,
a malformed file).
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import time

import yaml


class Unsupported(Exception):
    pass


def sh(args, cwd=None, check=True):
    return subprocess.run(args, cwd=cwd, check=check, text=True, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE).stdout.strip()


# ---------------------------------------------------------------- expressions

TOKEN = re.compile(r"\s*(?:(?P<str>'(?:[^']|'')*')|(?P<num>\d+(?:\.\d+)?)|"
                   r"(?P<op>==|!=|&&|\|\||!|\(|\)|,|<=|>=|<|>)|"
                   r"(?P<id>[A-Za-z_][A-Za-z0-9_\-]*(?:\.[A-Za-z_*][A-Za-z0-9_\-]*)*))")


class Expr:
    """GitHub's expression language, the part workflows use."""

    def __init__(self, text, ctx, status):
        self.toks, pos = [], 0
        text = text.strip()
        while pos < len(text):
            m = TOKEN.match(text, pos)
            if not m or m.end() == pos:
                raise Unsupported("expression %r: cannot read at %r" % (text, text[pos:]))
            pos = m.end()
            kind = m.lastgroup
            self.toks.append((kind, m.group(kind)))
        self.i, self.ctx, self.status, self.text = 0, ctx, status, text
        self.calls_status = False

    def peek(self):
        return self.toks[self.i] if self.i < len(self.toks) else (None, None)

    def take(self, value=None):
        tok = self.peek()
        if value is not None and tok[1] != value:
            raise Unsupported("expression %r: expected %r" % (self.text, value))
        self.i += 1
        return tok

    def value(self):
        v = self.orexpr()
        if self.i != len(self.toks):
            raise Unsupported("expression %r: trailing %r" % (self.text, self.peek()[1]))
        return v

    def orexpr(self):
        v = self.andexpr()
        while self.peek()[1] == "||":
            self.take()
            r = self.andexpr()
            v = v if truthy(v) else r
        return v

    def andexpr(self):
        v = self.cmp()
        while self.peek()[1] == "&&":
            self.take()
            r = self.cmp()
            v = r if truthy(v) else v
        return v

    def cmp(self):
        v = self.unary()
        while self.peek()[1] in ("==", "!=", "<", ">", "<=", ">="):
            op = self.take()[1]
            r = self.unary()
            a, b = loose(v), loose(r)
            v = {"==": a == b, "!=": a != b, "<": a < b, ">": a > b, "<=": a <= b,
                 ">=": a >= b}[op]
        return v

    def unary(self):
        if self.peek()[1] == "!":
            self.take()
            return not truthy(self.unary())
        return self.primary()

    def primary(self):
        kind, tok = self.take()
        if kind == "str":
            return tok[1:-1].replace("''", "'")
        if kind == "num":
            return float(tok)
        if tok == "(":
            v = self.orexpr()
            self.take(")")
            return v
        if kind != "id":
            raise Unsupported("expression %r: unexpected %r" % (self.text, tok))
        if tok in ("true", "false"):
            return tok == "true"
        if tok == "null":
            return None
        if self.peek()[1] == "(":
            self.take()
            args = []
            while self.peek()[1] != ")":
                args.append(self.orexpr())
                if self.peek()[1] == ",":
                    self.take()
            self.take(")")
            return self.call(tok, args)
        return self.lookup(tok)

    def call(self, name, args):
        name = name.lower()
        if name in ("always", "success", "failure", "cancelled"):
            self.calls_status = True
            return {"always": True, "success": self.status == "success",
                    "failure": self.status == "failure", "cancelled": False}[name]
        s = [str(a).lower() if a is not None else "" for a in args]
        if name == "startswith":
            return s[0].startswith(s[1])
        if name == "endswith":
            return s[0].endswith(s[1])
        if name == "contains":
            return s[1] in s[0]
        if name == "format":
            return re.sub(r"\{(\d+)\}", lambda m: str(args[int(m.group(1)) + 1]), str(args[0]))
        raise Unsupported("function %s() is not emulated" % name)

    def lookup(self, path):
        v = self.ctx
        for part in path.split("."):
            if not isinstance(v, dict):
                return None
            v = v.get(part)
        return v


def truthy(v):
    return bool(v) and v != 0


def loose(v):
    if isinstance(v, str):
        return v.lower()
    return v


def evaluate(text, ctx, status="success"):
    e = Expr(text, ctx, status)
    return e.value(), e.calls_status


def substitute(text, ctx, status="success"):
    """${{ expr }} in a string, each replaced by its value."""
    def one(m):
        v, _ = evaluate(m.group(1), ctx, status)
        if v is None:
            return ""
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, float) and v.is_integer():
            return str(int(v))
        return str(v)
    return re.sub(r"\$\{\{(.*?)\}\}", one, str(text))


def condition(text, ctx, status):
    """A step's if: with GitHub's implied success() when no status function is called."""
    if text is None:
        return status == "success"
    if isinstance(text, bool):
        return text and status == "success"
    body = str(text).strip()
    m = re.fullmatch(r"\$\{\{(.*)\}\}", body, re.S)
    if m:
        body = m.group(1)
    v, calls_status = evaluate(body, ctx, status)
    return truthy(v) and (calls_status or status == "success")


# ---------------------------------------------------------------- the cache

class CacheStore:
    """Saved caches: <state>/caches/<n>/{meta.json,data.tar}."""

    def __init__(self, state):
        self.dir = os.path.join(state, "caches")
        os.makedirs(self.dir, exist_ok=True)

    def entries(self):
        out = []
        for name in os.listdir(self.dir):
            meta = os.path.join(self.dir, name, "meta.json")
            if os.path.exists(meta):
                e = json.load(open(meta))
                e["dir"] = os.path.join(self.dir, name)
                out.append(e)
        return out

    def find(self, key, restore_keys, scopes, version):
        """GitHub's order: for each scope in turn, the exact key, then each
        restore key as a prefix, newest first."""
        entries = [e for e in self.entries() if e["version"] == version]
        for scope in scopes:
            here = sorted((e for e in entries if e["scope"] == scope),
                          key=lambda e: e["created"], reverse=True)
            for e in here:
                if e["key"] == key:
                    return e, True
            for prefix in restore_keys:
                for e in here:
                    if e["key"].startswith(prefix):
                        return e, False
        return None, False

    def save(self, key, scope, version, paths, workspace):
        for e in self.entries():
            if e["key"] == key and e["scope"] == scope and e["version"] == version:
                return "exists"
        present = [p for p in paths if os.path.exists(os.path.join(workspace, p))]
        if not present:
            return "nothing"
        d = os.path.join(self.dir, "%d-%d" % (time.time_ns(), os.getpid()))
        os.makedirs(d)
        with tarfile.open(os.path.join(d, "data.tar"), "w") as t:
            for p in present:
                t.add(os.path.join(workspace, p), arcname=p)
        size = os.path.getsize(os.path.join(d, "data.tar"))
        json.dump({"key": key, "scope": scope, "version": version, "paths": paths,
                   "created": time.time_ns(), "size": size}, open(os.path.join(d, "meta.json"), "w"))
        return "saved"


def cache_paths(with_):
    return [p.strip() for p in str(with_.get("path", "")).splitlines() if p.strip()]


def cache_version(paths):
    # GitHub's version is a hash of the paths (and compression): a cache
    # saved with other paths is not restored.
    return "|".join(paths)


def lines(value):
    return [l.strip() for l in str(value or "").splitlines() if l.strip()]


# ---------------------------------------------------------------- the job

class Job:
    def __init__(self, args, workflow, job_name):
        self.a, self.wf = args, workflow
        self.job = workflow["jobs"][job_name]
        self.name = job_name
        self.ws = os.path.abspath(args.workspace)
        self.state = os.path.abspath(args.state)
        os.makedirs(self.state, exist_ok=True)
        self.cache = CacheStore(self.state)
        self.status = "success"
        self.report = {"job": job_name, "steps": [], "caches": [], "uploads": []}
        self.posts = []
        self.env_file_vars = {}
        self.pr = args.pull_request is not None
        if self.pr:
            self.ref = "refs/pull/%d/merge" % args.number
            self.event = "pull_request"
        else:
            self.ref = "refs/heads/" + args.push
            self.event = "push"
        self.permissions = self.job.get("permissions", workflow.get("permissions"))

    # What the GITHUB_TOKEN may do here.
    def granted(self, scope, level):
        if self.pr and self.a.fork:
            return level == "read" and scope in ("contents", "actions", "metadata")
        perms = self.permissions
        if perms is None:
            return True  # the repository's default (permissive)
        if perms in ("read-all", "write-all"):
            return perms == "write-all" or level == "read"
        got = perms.get(scope, "none") if isinstance(perms, dict) else "none"
        return got == "write" or (got == "read" and level == "read")

    def context(self):
        steps = {sid: {"outcome": s["outcome"], "conclusion": s["outcome"],
                       "outputs": s.get("outputs", {})} for sid, s in self.step_results.items()}
        gh = {
            "event_name": self.event, "ref": self.ref, "sha": self.sha,
            "repository": self.a.repository, "workspace": self.ws,
            "ref_name": self.ref.split("/", 2)[2] if not self.pr else "%d/merge" % self.a.number,
            "base_ref": self.a.base if self.pr else "", "head_ref": self.a.pull_request or "",
            "event": {},
        }
        if self.pr:
            head_repo = ("fork/" if self.a.fork else "") + self.a.repository
            gh["event"] = {"pull_request": {"number": self.a.number,
                                            "base": {"ref": self.a.base, "sha": self.base_sha},
                                            "head": {"ref": self.a.pull_request, "sha": self.head_sha,
                                                     "repo": {"full_name": head_repo,
                                                              "fork": self.a.fork}}}}
        return {"github": gh, "runner": {"os": "Linux", "arch": "X64", "temp": self.tmp},
                "env": dict(self.env), "vars": self.vars, "steps": steps,
                "matrix": {}, "secrets": {}}

    def prepare(self):
        """The commit the run is for: the pushed one, or GitHub's merge commit."""
        origin = self.a.origin
        if self.pr:
            self.head_sha = sh(["git", "--git-dir", origin, "rev-parse", "refs/heads/" + self.a.pull_request])
            self.base_sha = sh(["git", "--git-dir", origin, "rev-parse", "refs/heads/" + self.a.base])
            merge = os.path.join(self.state, "merge-work")
            shutil.rmtree(merge, ignore_errors=True)
            sh(["git", "clone", "-q", origin, merge])
            sh(["git", "checkout", "-q", "--detach", self.base_sha], cwd=merge)
            r = subprocess.run(["git", "-c", "user.name=GitHub", "-c", "user.email=noreply@github.com",
                                "merge", "-q", "--no-ff", "-m",
                                "Merge %s into %s" % (self.head_sha, self.base_sha), self.head_sha],
                               cwd=merge, text=True, capture_output=True)
            if r.returncode:
                raise Unsupported("the pull request does not merge cleanly: " + r.stdout + r.stderr)
            self.sha = sh(["git", "rev-parse", "HEAD"], cwd=merge)
            sh(["git", "push", "-q", origin, "HEAD:" + self.ref], cwd=merge)
            shutil.rmtree(merge)
        else:
            self.sha = sh(["git", "--git-dir", origin, "rev-parse", self.ref])

    def triggered(self):
        on = self.wf.get(True, self.wf.get("on"))  # YAML 1.1 reads `on` as true
        if isinstance(on, str):
            on = {on: None}
        elif isinstance(on, list):
            on = {e: None for e in on}
        if self.event not in on:
            return False
        spec = on[self.event] or {}
        branch = self.a.base if self.pr else self.a.push
        pats = spec.get("branches")
        if pats is None:
            return True
        return any(re.fullmatch(p.replace("**", ".*").replace("*", "[^/]*"), branch) for p in pats)

    def run(self):
        if not self.triggered():
            print("gha-emulate: the workflow does not run on this %s" % self.event)
            self.report["triggered"] = False
            return 0
        self.report["triggered"] = True
        self.prepare()
        self.tmp = os.path.join(self.state, "runner-temp")
        shutil.rmtree(self.tmp, ignore_errors=True)
        os.makedirs(self.tmp)
        shutil.rmtree(self.ws, ignore_errors=True)
        os.makedirs(self.ws)
        self.vars = dict(v.split("=", 1) for v in self.a.var)
        self.step_results = {}
        self.env = {}
        ctx = self.context()
        for k, v in (self.wf.get("env") or {}).items():
            self.env[k] = substitute(v, ctx)
        for k, v in (self.job.get("env") or {}).items():
            self.env[k] = substitute(v, self.context())
        for i, step in enumerate(self.job["steps"]):
            self.step(i, step)
        for post in reversed(self.posts):
            post()
        self.report["conclusion"] = self.status
        print("gha-emulate: job %s: %s" % (self.name, self.status))
        return 0 if self.status == "success" else 1

    def step(self, i, step):
        sid = step.get("id", "__step%d" % i)
        label = step.get("name") or step.get("uses") or step.get("run", "").splitlines()[0]
        ctx = self.context()
        if not condition(step.get("if"), ctx, self.status):
            print("gha-emulate: step '%s': skipped" % label)
            self.step_results[sid] = {"outcome": "skipped"}
            self.report["steps"].append({"name": label, "outcome": "skipped"})
            return
        env = dict(self.env)
        for k, v in (step.get("env") or {}).items():
            env[k] = substitute(v, ctx, self.status)
        with_ = {k: substitute(v, ctx, self.status) for k, v in (step.get("with") or {}).items()}
        print("gha-emulate: step '%s'" % label, flush=True)
        try:
            if "run" in step:
                ok = self.run_step(step, env, ctx)
            else:
                ok = self.action(step["uses"], with_)
        except Unsupported:
            raise
        outcome = "success" if ok else "failure"
        if not ok and not step.get("continue-on-error"):
            self.status = "failure"
        self.step_results[sid] = {"outcome": outcome}
        self.report["steps"].append({"name": label, "outcome": outcome})
        print("gha-emulate: step '%s': %s" % (label, outcome), flush=True)

    def run_step(self, step, env, ctx):
        script = substitute(step["run"], ctx, self.status)
        path = os.path.join(self.tmp, "step.sh")
        open(path, "w").write(script + "\n")
        envfile = os.path.join(self.tmp, "github_env")
        open(envfile, "w").close()
        full = dict(os.environ)
        full.update(self.env_file_vars)
        full.update(env)
        full.update({"GITHUB_WORKSPACE": self.ws, "GITHUB_SHA": self.sha, "GITHUB_REF": self.ref,
                     "GITHUB_EVENT_NAME": self.event, "GITHUB_BASE_REF": self.a.base if self.pr else "",
                     "GITHUB_HEAD_REF": self.a.pull_request or "", "GITHUB_ENV": envfile,
                     "GITHUB_REPOSITORY": self.a.repository, "RUNNER_OS": "Linux",
                     "RUNNER_TEMP": self.tmp, "CI": "true", "GITHUB_ACTIONS": "true"})
        wd = os.path.join(self.ws, step.get("working-directory", "."))
        r = subprocess.run(["bash", "-e", path], cwd=wd, env=full)
        for l in open(envfile):
            if "=" in l:
                k, v = l.rstrip("\n").split("=", 1)
                self.env_file_vars[k] = v
        return r.returncode == 0

    def action(self, uses, with_):
        name = uses.split("@")[0]
        if name == "actions/checkout":
            return self.checkout(with_)
        if name in ("actions/cache", "actions/cache/restore"):
            return self.restore(with_, save_after=(name == "actions/cache"))
        if name == "actions/cache/save":
            return self.save(with_)
        if name == "github/codeql-action/upload-sarif":
            return self.upload_sarif(with_)
        if name == "actions/upload-artifact":
            return self.upload_artifact(with_)
        raise Unsupported("action %s is not emulated" % uses)

    def checkout(self, with_):
        depth = int(with_.get("fetch-depth", 1))
        origin = self.a.origin
        if depth == 0:
            sh(["git", "clone", "-q", "--no-checkout", origin, self.ws])
        else:
            sh(["git", "init", "-q", self.ws])
            sh(["git", "remote", "add", "origin", origin], cwd=self.ws)
            sh(["git", "fetch", "-q", "--depth=%d" % depth, "file://" + os.path.abspath(origin),
                self.ref], cwd=self.ws)
        if depth == 0:
            sh(["git", "fetch", "-q", "origin", "+%s:%s" % (self.ref, self.ref.replace("refs/", "refs/remotes/origin/", 1) if self.pr else self.ref)], cwd=self.ws, check=False)
        sh(["git", "checkout", "-q", "--detach", self.sha], cwd=self.ws)
        return True

    def scopes(self):
        s = [self.ref]
        if self.pr:
            s.append("refs/heads/" + self.a.base)
        default = "refs/heads/" + self.a.default_branch
        if default not in s:
            s.append(default)
        return s

    def restore(self, with_, save_after):
        paths = cache_paths(with_)
        key = with_["key"]
        restore_keys = lines(with_.get("restore-keys"))
        entry, exact = self.cache.find(key, restore_keys, self.scopes(), cache_version(paths))
        rec = {"action": "restore", "key": key}
        if entry:
            with tarfile.open(os.path.join(entry["dir"], "data.tar")) as t:
                t.extractall(self.ws)
            rec.update(restored=entry["key"], scope=entry["scope"], exact=exact)
            print("gha-emulate: cache restored from key %s (scope %s)" % (entry["key"], entry["scope"]))
        else:
            rec.update(restored=None)
            print("gha-emulate: cache not found for key %s" % key)
        self.report["caches"].append(rec)
        if save_after:
            def post():
                if self.status != "success" or exact:
                    return
                self.save(with_)
            self.posts.append(post)
        return True

    def save(self, with_):
        paths = cache_paths(with_)
        what = self.cache.save(with_["key"], self.ref, cache_version(paths), paths, self.ws)
        self.report["caches"].append({"action": "save", "key": with_["key"], "scope": self.ref,
                                      "result": what})
        print("gha-emulate: cache %s: key %s (scope %s)" % (
            {"saved": "saved", "exists": "not saved, the key exists", "nothing": "not saved, no path exists"}[what],
            with_["key"], self.ref))
        return what != "nothing"

    def upload_sarif(self, with_):
        f = os.path.join(self.ws, with_.get("sarif_file", "../results"))
        if not self.granted("security-events", "write"):
            print("gha-emulate: upload-sarif: Resource not accessible by integration "
                  "(the token lacks security-events: write%s)" % (", a pull request from a fork" if self.pr and self.a.fork else ""))
            return False
        if self.a.private and not self.granted("actions", "read"):
            print("gha-emulate: upload-sarif: a private repository needs actions: read")
            return False
        try:
            data = json.load(open(f))
            assert data.get("version") == "2.1.0" and data.get("runs")
        except Exception as e:
            print("gha-emulate: upload-sarif: %s is not SARIF 2.1.0: %s" % (f, e))
            return False
        dest = os.path.join(self.state, "code-scanning", "%s-%s.sarif" % (self.ref.replace("/", "_"), with_.get("category", "")))
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        shutil.copy(f, dest)
        self.report["uploads"].append({"sarif": dest, "category": with_.get("category", "")})
        print("gha-emulate: upload-sarif: %d results uploaded" % sum(len(r.get("results", [])) for r in data["runs"]))
        return True

    def upload_artifact(self, with_):
        dest = os.path.join(self.state, "artifacts", with_.get("name", "artifact"))
        found = False
        for p in lines(with_.get("path")):
            src = os.path.join(self.ws, p)
            if os.path.exists(src):
                os.makedirs(dest, exist_ok=True)
                (shutil.copytree if os.path.isdir(src) else shutil.copy)(src, os.path.join(dest, os.path.basename(p)))
                found = True
        self.report["uploads"].append({"artifact": with_.get("name", "artifact"), "files": found})
        if not found and with_.get("if-no-files-found", "warn") == "error":
            return False
        print("gha-emulate: upload-artifact %s: %s" % (with_.get("name"), "uploaded" if found else "no files found"))
        return True


def main():
    p = argparse.ArgumentParser()
    p.add_argument("workflow")
    p.add_argument("--job", required=True)
    p.add_argument("--origin", required=True, help="the bare repository GitHub holds")
    p.add_argument("--state", required=True, help="where caches, uploads and artifacts persist")
    p.add_argument("--workspace", required=True)
    p.add_argument("--push")
    p.add_argument("--pull-request", help="the head branch")
    p.add_argument("--base", default="main")
    p.add_argument("--number", type=int, default=1)
    p.add_argument("--fork", action="store_true")
    p.add_argument("--private", action="store_true")
    p.add_argument("--default-branch", default="main")
    p.add_argument("--repository", default="example/project")
    p.add_argument("--var", action="append", default=[])
    p.add_argument("--report")
    a = p.parse_args()
    a.origin = os.path.abspath(a.origin)
    if bool(a.push) == bool(a.pull_request):
        p.error("give one of --push BRANCH or --pull-request HEAD_BRANCH")
    try:
        wf = yaml.safe_load(open(a.workflow))
        if a.job not in wf.get("jobs", {}):
            raise Unsupported("no job %s in %s" % (a.job, a.workflow))
        job = Job(a, wf, a.job)
        rc = job.run()
    except (Unsupported, yaml.YAMLError, subprocess.CalledProcessError) as e:
        detail = getattr(e, "stderr", "") or ""
        print("gha-emulate: error: %s %s" % (e, detail), file=sys.stderr)
        return 2
    if a.report:
        json.dump(job.report, open(a.report, "w"), indent=1)
    return rc


if __name__ == "__main__":
    sys.exit(main())
