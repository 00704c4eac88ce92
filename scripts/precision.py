#!/usr/bin/env python3
"""Precision of the default settings on real Debian source projects.

For each source package: fetches and builds it once under bear for a
compile database (the set-up of scripts/real-project.py, shared with it),
runs `hotpath-tidy -p TREE -j N` with no option at all (the project index,
the project's headers, the default rule set: what a new user gets), and
compares every finding with the hand classification in
docs/precision/PKG.txt, one line per finding:

    true|false  CHECK  FILE:LINE  NAME  -- why

Prints, per package and check, the findings, how many were classified true
and false, and the precision (true / findings). Exits 1 when a finding is not
classified (a person must read it and add its line), when a classified
finding is no longer reported (remove its line), on a crash, or when
hotpath-tidy exits with anything but 0 (no finding) or 1 (findings).

  scripts/precision.py                    # e2fsprogs btrfs-progs lz4 erofs-utils
  scripts/precision.py e2fsprogs          # one of them
  scripts/precision.py --print e2fsprogs  # the findings with their notes
"""
import argparse
import collections
import importlib.util
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FINDING = re.compile(r'^(?P<file>[^:\s][^:]*):(?P<line>\d+):(?P<col>\d+): warning: '
                     r'(?P<msg>.*) \[(?P<check>hotpath-[a-z-]+)\]$')
# The function, macro or hook a message is about: its first quoted name.
NAME = re.compile(r"'([A-Za-z_][A-Za-z0-9_:]*)'")
CLASSIFIED = re.compile(r'^(?P<verdict>true|false)\s+(?P<check>hotpath-[a-z-]+)\s+'
                        r'(?P<where>\S+:\d+)\s+(?P<name>\S+)\s+--\s+(?P<why>.+)$')
DEFAULT_PACKAGES = ['e2fsprogs', 'btrfs-progs', 'lz4', 'erofs-utils']


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


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('packages', nargs='*', metavar='SRCPKG')
    ap.add_argument('--work', default=os.environ.get(
        'HOTPATH_REAL_WORK', os.path.join(ROOT, 'build', 'real-projects')))
    ap.add_argument('--tidy', default=os.path.join(ROOT, 'build', 'plugin', 'hotpath-tidy'))
    ap.add_argument('--jobs', type=int, default=os.cpu_count() or 2)
    ap.add_argument('--print', action='store_true', help='print every finding with its notes')
    opts = ap.parse_args()
    packages = opts.packages or DEFAULT_PACKAGES
    if not os.access(opts.tidy, os.X_OK):
        sys.exit('precision: no hotpath-tidy at %s (build first: scripts/build.sh)' % opts.tidy)
    rp = real_project()
    os.makedirs(opts.work, exist_ok=True)
    rp.ensure_deb_src()

    bad = False
    totals = collections.Counter()
    for pkg in packages:
        src = rp.fetch_source(pkg, os.path.abspath(opts.work))
        rp.build_compile_db(pkg, src, opts.jobs)
        index_dir = os.path.join(opts.work, pkg + '-precision-index')
        out_path = os.path.join(opts.work, pkg + '-precision.out')
        with open(out_path, 'w') as out, open(out_path + '.err', 'w') as err:
            rc = subprocess.run([opts.tidy, '-p', src, '-j', str(opts.jobs),
                                 '--index-dir=' + index_dir],
                                cwd=src, stdout=out, stderr=err).returncode
        text = open(out_path).read()
        if rc not in (0, 1):
            print('=== %s: hotpath-tidy exited %d (%s.err):\n%s' % (
                pkg, rc, out_path, open(out_path + '.err').read()[-3000:]))
            bad = True
            continue
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
        if (rc == 1) != bool(findings):
            print('=== %s: exit %d with %d findings: the exit status lies' % (pkg, rc, len(findings)))
            bad = True
        table = read_classification(os.path.join(ROOT, 'docs', 'precision', pkg + '.txt'))
        per_check = collections.defaultdict(collections.Counter)
        seen = set()
        print('=== %s (%s): %d findings, hotpath-tidy exit %d' % (
            pkg, os.path.basename(src), len(findings), rc))
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
        for key, (verdict, name, _) in sorted(table.items()):
            if key not in seen:
                print('  gone: %s %s %s %s (no longer reported: remove its line)' % (
                    verdict, key[0], key[1], name))
                bad = True
        for check in sorted(per_check):
            c = per_check[check]
            n = sum(c.values())
            print('  %-20s findings %3d  true %3d  false %3d  precision %s' % (
                check, n, c['true'], c['false'], '%.2f' % (c['true'] / n) if n else '-'))
            totals[(check, 'n')] += n
            totals[(check, 'true')] += c['true']
        if not per_check:
            print('  no finding')
    print('=== all: ' + (', '.join(
        '%s %d/%d true' % (check, totals[(check, 'true')], totals[(check, 'n')])
        for check in sorted({k[0] for k in totals})) or 'no finding'))
    n = sum(v for (c, k), v in totals.items() if k == 'n')
    t = sum(v for (c, k), v in totals.items() if k == 'true')
    print('precision: %s (%d of %d findings true)' % ('%.2f' % (t / n) if n else '-', t, n))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
