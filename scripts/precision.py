#!/usr/bin/env python3
"""Precision of the default settings on real Debian source projects.

For each source package: fetches and builds it once under bear for a
compile database (the set-up of scripts/real-project.py, shared with it),
runs `hotpath-tidy -p TREE -j N` with no option at all (the project index,
the project's headers, the default rule set: what a new user gets), and
compares every finding with the hand classification in
docs/precision/PKG.txt, one line per finding:

    true|false  CHECK  FILE:LINE  NAME  -- why

A `true` line is also the oracle of the project's known costly check
(xfsprogs' check_nsec, libarchive's __archive_check_magic: ground truth by
scripts/ground-truth/, docs/real-projects.md): one that is not reported is
a missed true finding, not a stale line.

Prints, per package and check, the findings, how many were classified true
and false, and the precision (true / findings); then the number of true
findings and of those missed. Exits 1 when a finding is not classified (a
person must read it and add its line), when a false finding is no longer
reported (remove its line), when a true one is missed, on a crash, or when
hotpath-tidy exits with anything but 0 (no finding) or 1 (findings); with
exit 2 (a TU it could not analyse) the findings are still counted.

  scripts/precision.py                    # the seven projects of DEFAULT_PACKAGES
  scripts/precision.py e2fsprogs          # one of them
  scripts/precision.py --print e2fsprogs  # the findings with their notes
  scripts/precision.py --tree xfsprogs=W/build/xfsprogs-before xfsprogs
                                          # a tree built already (ground truth)
"""
import argparse
import collections
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FINDING = re.compile(r'^(?P<file>[^:\s][^:]*):(?P<line>\d+):(?P<col>\d+): warning: '
                     r'(?P<msg>.*) \[(?P<check>hotpath-[a-z-]+)\]$')
# The function, macro or hook a message is about: its first quoted name.
NAME = re.compile(r"'([A-Za-z_][A-Za-z0-9_:]*)'")
CLASSIFIED = re.compile(r'^(?P<verdict>true|false)\s+(?P<check>hotpath-[a-z-]+)\s+'
                        r'(?P<where>\S+:\d+)\s+(?P<name>\S+)\s+--\s+(?P<why>.+)$')
# The last three are the ground-truth projects (scripts/ground-truth/); the
# source package libzstd is zstd, a negative control: nothing in it costs.
DEFAULT_PACKAGES = ['e2fsprogs', 'btrfs-progs', 'lz4', 'erofs-utils',
                    'xfsprogs', 'libarchive', 'libzstd']


def real_project():
    spec = importlib.util.spec_from_file_location(
        'real_project', os.path.join(ROOT, 'scripts', 'real-project.py'))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def read_classification(path):
    """{(check, file:line): (verdict, name, why)}; errors name the line."""
    table = {}
    if not os.path.exists(path):
        return table
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip('\n')
            if not line.strip() or line.startswith('#'):
                continue
            m = CLASSIFIED.match(line)
            if not m:
                sys.exit('precision: %s:%d: not "true|false CHECK FILE:LINE NAME -- why": %s'
                         % (path, n, line))
            key = (m['check'], m['where'])
            if key in table:
                sys.exit('precision: %s:%d: %s %s classified twice' % (path, n, *key))
            table[key] = (m['verdict'], m['name'], m['why'])
    return table


def package_tree(opts, rp, pkg):
    """The built source tree of PKG: --tree's, or fetched and built here."""
    if pkg in opts.trees:
        return opts.trees[pkg]
    src = rp.fetch_source(pkg, os.path.abspath(opts.work))
    rp.build_compile_db(pkg, src, opts.jobs)
    return src


def prune_db(src):
    """Drops database entries whose directory is gone (CMake's TryCompile
    probes, which bear records and CMake removes: hotpath-tidy aborts on
    them, "Cannot chdir"), as real-project.py's load_db does; the raw
    database is kept as compile_commands.raw.json."""
    path = os.path.join(src, 'compile_commands.json')
    db = json.load(open(path))
    kept = [e for e in db if os.path.isdir(e['directory'])]
    if len(kept) < len(db):
        shutil.copy(path, os.path.join(src, 'compile_commands.raw.json'))
        with open(path, 'w') as f:
            json.dump(kept, f, indent=1)
        print('    (%d compile database entries dropped: their directory no longer exists)'
              % (len(db) - len(kept)))


def run_tidy(opts, pkg, src):
    """(exit status, output text) of hotpath-tidy -p SRC with the defaults."""
    index_dir = os.path.join(opts.work, pkg + '-precision-index')
    out_path = os.path.join(opts.work, pkg + '-precision.out')
    with open(out_path, 'w') as out, open(out_path + '.err', 'w') as err:
        rc = subprocess.run([opts.tidy, '-p', src, '-j', str(opts.jobs),
                             '--index-dir=' + index_dir],
                            cwd=src, stdout=out, stderr=err).returncode
    return rc, open(out_path).read(), out_path + '.err'


def parse_findings(text, src):
    findings = []
    lines = text.splitlines()
    for i, line in enumerate(lines):
        m = FINDING.match(line)
        if not m:
            continue
        name = os.path.relpath(m['file'], src) if os.path.isabs(m['file']) else m['file']
        names = NAME.findall(m['msg'])
        notes = []
        for l in lines[i + 1:]:
            if FINDING.match(l):
                break
            if ': note: ' in l:
                notes.append(l)
        findings.append({'check': m['check'], 'where': '%s:%s' % (name, m['line']),
                         'name': names[0] if names else '-', 'msg': m['msg'],
                         'notes': notes})
    return findings


def classify(opts, pkg, findings, table):
    """Prints each finding that needs it; returns (per-check counts, missed
    true findings, whether something needs a person)."""
    per_check = collections.defaultdict(collections.Counter)
    seen, bad = set(), False
    for f in findings:
        key = (f['check'], f['where'])
        if key in seen:
            continue  # a header finding reported from two TUs counts once
        seen.add(key)
        c = table.get(key)
        verdict = c[0] if c else 'unclassified'
        per_check[f['check']][verdict] += 1
        if opts.print or not c:
            print('  %s %s %s %s: %s' % (verdict, f['check'], f['where'], f['name'], f['msg']))
            if opts.print:
                for n in f['notes']:
                    print('      ' + n)
        if not c:
            print('    (unclassified: add "true|false %s %s %s -- why" to docs/precision/%s.txt)'
                  % (f['check'], f['where'], f['name'], pkg))
            bad = True
    missed = 0
    for key, (verdict, name, _) in sorted(table.items()):
        if key in seen:
            continue
        if verdict == 'true':
            print('  missed: true %s %s %s (a true finding not reported)' % (key[0], key[1], name))
            missed += 1
        else:
            print('  gone: false %s %s %s (no longer reported: remove its line)' % (
                key[0], key[1], name))
        bad = True
    return per_check, missed, bad


def run_package(opts, rp, pkg, totals):
    """Runs and classifies one package, adds to totals; True when bad."""
    src = package_tree(opts, rp, pkg)
    prune_db(src)
    rc, text, err_path = run_tidy(opts, pkg, src)
    bad = False
    err = open(err_path).read()
    # TUs clang cannot compile: "could not be analysed" (exit 2), or
    # "skipped" where the others' findings decide the exit status.
    failed = sorted({os.path.relpath(f, src) if os.path.isabs(f) else f for f in re.findall(
        r'^hotpath-tidy: (?:note: |error: )?(\S+): (?:could not be analysed|indexed with|skipped)',
        text + err, re.M)})
    for f in failed:
        print('  %s: not analysed: %s' % (pkg, f))
    if rc not in (0, 1):
        print('=== %s: hotpath-tidy exited %d (%s)%s' % (
            pkg, rc, err_path, '' if failed else ':\n' + err[-3000:]))
        bad = True
        if rc != 2:
            return bad  # a crash: its output says nothing
    findings = parse_findings(text, src)
    if rc in (0, 1) and (rc == 1) != bool(findings):
        print('=== %s: exit %d with %d findings: the exit status lies' % (pkg, rc, len(findings)))
        bad = True
    table = read_classification(os.path.join(ROOT, 'docs', 'precision', pkg + '.txt'))
    print('=== %s (%s): %d findings, hotpath-tidy exit %d' % (
        pkg, os.path.basename(src), len(findings), rc))
    per_check, missed, unsure = classify(opts, pkg, findings, table)
    for check in sorted(per_check):
        c = per_check[check]
        n = sum(c.values())
        print('  %-20s findings %3d  true %3d  false %3d  precision %s' % (
            check, n, c['true'], c['false'], '%.2f' % (c['true'] / n) if n else '-'))
        totals[(check, 'n')] += n
        totals[(check, 'true')] += c['true']
    totals[('', 'missed')] += missed
    if not per_check:
        print('  no finding')
    return bad or unsure


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('packages', nargs='*', metavar='SRCPKG')
    ap.add_argument('--work', default=os.environ.get(
        'HOTPATH_REAL_WORK', os.path.join(ROOT, 'build', 'real-projects')))
    ap.add_argument('--tidy', default=os.path.join(ROOT, 'build', 'plugin', 'hotpath-tidy'))
    ap.add_argument('--jobs', type=int, default=os.cpu_count() or 2)
    ap.add_argument('--print', action='store_true', help='print every finding with its notes')
    ap.add_argument('--tree', action='append', default=[], metavar='SRCPKG=DIR',
                    help='a tree built already, with its compile_commands.json (the ground-'
                         'truth scripts\' before build), instead of fetching and building')
    opts = ap.parse_args()
    packages = opts.packages or DEFAULT_PACKAGES
    opts.trees = {}
    for t in opts.tree:
        pkg, sep, path = t.partition('=')
        if not sep or not os.path.exists(os.path.join(path, 'compile_commands.json')):
            sys.exit('precision: --tree %s: not SRCPKG=DIR with DIR/compile_commands.json' % t)
        opts.trees[pkg] = os.path.abspath(path)
    opts.tidy = os.path.abspath(opts.tidy)  # it runs in each source tree
    if not os.access(opts.tidy, os.X_OK):
        sys.exit('precision: no hotpath-tidy at %s (build first: scripts/build.sh)' % opts.tidy)
    rp = real_project()
    os.makedirs(opts.work, exist_ok=True)
    if any(p not in opts.trees for p in packages):
        rp.ensure_deb_src()

    bad = False
    totals = collections.Counter()
    for pkg in packages:
        bad |= run_package(opts, rp, pkg, totals)
    checks = sorted({k[0] for k in totals if k[0]})
    print('=== all: ' + (', '.join(
        '%s %d/%d true' % (check, totals[(check, 'true')], totals[(check, 'n')])
        for check in checks) or 'no finding'))
    n = sum(totals[(c, 'n')] for c in checks)
    t = sum(totals[(c, 'true')] for c in checks)
    print('precision: %s (%d of %d findings true)' % ('%.2f' % (t / n) if n else '-', t, n))
    print('true findings: %d; known true findings missed: %d' % (t, totals[('', 'missed')]))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
