#!/usr/bin/env python3
"""Runs the hotpath checks over real C projects from Debian's source packages.

For each source package: adds a deb-src entry if there is none, fetches and
unpacks the source (apt-get source), builds it once under bear for a
compile_commands.json, snapshots the tree in git, runs clang-tidy with the
module on every translation unit (in parallel, each with a timeout), applies
the fixes once with clang-apply-replacements (shared headers deduplicated),
checks every translation unit a changed file can affect with -fsyntax-only,
and with --twice checks that a second run changes nothing.

Then, when the fixes changed a file (--fix, unless --no-build): builds the
fixed package again with its own build (Debian's build step, or make), which
compiles and links it, under bear to see that every changed source was
recompiled; and runs the package's own test suite (Debian's, or the quick
one in PACKAGE_TESTS where Debian's takes hours or runs none; --test-command
to choose). When the tests fail, they are run on the original too, so that a
failure the fixes did not cause is told apart from one they did.

Prints counts: TUs, crashes, hangs, findings by check, files changed, syntax
check failures, then the build and the tests on lines of their own. Exits 1 on
any crash, hang, syntax failure of changed code, non-idempotent fix, failed
build of the fixed package, changed source left out of that build, or test
that passes on the original and fails with the fixes.

A SRCPKG that names a directory is a local source tree (built with make, its
tests `make check`), copied into --work first; tests/e2e/real-project-local.sh
runs one in CI.

  scripts/real-project.py --fix lz4
  scripts/real-project.py --fix --twice --checks='-*,hotpath-*' lz4 zstd
"""
import argparse
import collections
import concurrent.futures
import fcntl
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEB_SRC = '/etc/apt/sources.list.d/hotpath-deb-src.sources'
DIAGNOSTIC = re.compile(r'^[^:\s][^:]*:\d+:\d+: (warning|note|remark): ')
FINDING = re.compile(r'^(?P<file>[^:\s][^:]*):(?P<line>\d+):(?P<col>\d+): warning: (?P<msg>.*) \[(?P<check>hotpath-[a-z-]+)\]$')


# Test suites that run in minutes, for packages where Debian's takes hours
# or runs none, or hides failures. Each runs in the source tree after the
# build, and builds what it needs from the (fixed) sources.
PACKAGE_TESTS = {
    # Debian runs `make test`, whose huge-file cases (4 GB through lz4 -9)
    # take over an hour; upstream's `make check` (test-lz4-essentials), ~10 s.
    'lz4': ['make', 'check'],
    # Debian's build has BUILD_TESTING off under nocheck; upstream's quick
    # suite from the plain Makefiles.
    'zstd': ['make', '-C', 'tests', 'check'],
    'libzstd': ['make', '-C', 'tests', 'check'],
    # Debian runs none ("needs autopkgtest"); upstream's fsck tests run
    # btrfs check, which the fixes change, on 59 broken images (root, loop
    # devices), ~1 min.
    'btrfs-progs': ['make', 'test-fsck'],
    # Debian runs the whole suite with "|| true": it cannot fail. The unit
    # tests of core types, and redis-cli and redis-benchmark, which link the
    # bundled hiredis (deps/hiredis, where the fixes land).
    'redis': ['./runtest', '--clients', '2', '--single', 'unit/type/list',
              '--single', 'unit/type/hash', '--single', 'unit/keyspace',
              '--single', 'integration/redis-cli', '--single', 'integration/redis-benchmark'],
}


def log(msg):
    print(msg, flush=True)


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, **kw)


def ensure_deb_src():
    """Adds deb-src entries mirroring the existing deb ones, once. Security
    updates are left out: the archive mirrors here serve the main archive's
    sources only, and the main version is what matters for a robustness run."""
    stanzas = []
    src = '/etc/apt/sources.list.d/debian.sources'
    if os.path.exists(src):
        for block in open(src).read().split('\n\n'):
            lines = [l for l in block.splitlines() if l.strip() and not l.startswith('#')]
            if any(l.startswith('Types:') and 'deb' in l.split() for l in lines) and \
                    not any(l.startswith('Suites:') and '-security' in l for l in lines):
                stanzas.append('\n'.join('Types: deb-src' if l.startswith('Types:') else l
                                         for l in lines))
    elif os.path.exists('/etc/apt/sources.list'):
        for l in open('/etc/apt/sources.list'):
            m = re.match(r'\s*deb\s+(\[[^]]*\]\s+)?(\S+)\s+(\S+)\s+(.*)', l)
            if m and '-security' not in m.group(3):
                stanzas.append('Types: deb-src\nURIs: %s\nSuites: %s\nComponents: %s'
                               % (m.group(2), m.group(3), m.group(4).strip()))
    if not stanzas:
        sys.exit('real-project: no apt sources found to mirror as deb-src')
    text = '\n\n'.join(stanzas) + '\n'
    # Held across check, write and update: a second run started meanwhile (CTest
    # runs the bench and robustness slices side by side) must not find the file
    # written and go on to `apt-get source` before the index has the sources.
    with open(os.path.join(tempfile.gettempdir(), 'hotpath-deb-src.lock'), 'w') as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if os.path.exists(DEB_SRC) and open(DEB_SRC).read() == text:
            return
        with open(DEB_SRC, 'w') as f:
            f.write(text)
        log('real-project: added %s; apt-get update' % DEB_SRC)
        try:
            run(['apt-get', 'update', '-q'], stdout=subprocess.DEVNULL)
        except subprocess.CalledProcessError:
            os.remove(DEB_SRC)  # so that the next run tries again
            raise


def fetch_source(pkg, work):
    """Unpacks the package's source once; returns its directory."""
    pkg_dir = os.path.join(work, pkg)
    marker = os.path.join(pkg_dir, '.hotpath-unpacked')
    if os.path.exists(marker):
        return open(marker).read().strip()
    shutil.rmtree(pkg_dir, ignore_errors=True)
    os.makedirs(pkg_dir)
    run(['apt-get', 'source', '-q', pkg], cwd=pkg_dir, stdout=subprocess.DEVNULL)
    dirs = [d for d in os.listdir(pkg_dir) if os.path.isdir(os.path.join(pkg_dir, d))]
    if len(dirs) != 1:
        sys.exit('real-project: expected one source tree in %s, found %s' % (pkg_dir, dirs))
    src = os.path.join(pkg_dir, dirs[0])
    with open(marker, 'w') as f:
        f.write(src)
    return src


# Source packages for which `debian/rules build` is not what Debian builds:
# the dpkg-buildpackage target the buildds run, after `dpkg-buildpackage -T
# clean`, and files to create first. scripts/ground-truth/ builds them so.
DEBIAN_BUILD = {
    # The upstream tarball ships .gitcensus, which makes debian/rules skip
    # configure (no --enable-lto, -DDEBUG) unless clean ran first; the
    # installer pass, a second -Os build of mkfs that is then distcleaned,
    # would duplicate the database's entries and builds nothing else.
    'xfsprogs': ('build', ['mkfs/mkfs.xfs-xfsprogs-udeb']),
    # A build/ directory in the source makes `debian/rules build` a no-op.
    'libarchive': ('build-arch', []),
    'libzstd': ('build-arch', []),
}


def build_compile_db(pkg, src, jobs):
    """Builds once under bear; the compile db lists what compiled. A Debian
    source package is built the way Debian builds it (debian/rules build, or
    DEBIAN_BUILD's target, with its build dependencies), which configures it
    correctly."""
    db = os.path.join(src, 'compile_commands.json')
    if os.path.exists(db) and json.load(open(db)):
        return db
    env = dict(os.environ, CC='gcc', CXX='g++')
    if os.path.exists(os.path.join(src, 'debian', 'rules')):
        run(['apt-get', '-o', 'DPkg::Lock::Timeout=600', 'build-dep', '-y', '-q', pkg],
            stdout=subprocess.DEVNULL,
            env=dict(os.environ, DEBIAN_FRONTEND='noninteractive'))
        env['DEB_BUILD_OPTIONS'] = 'nocheck nodoc parallel=%d' % jobs
        build = ['debian/rules', 'build']
        if pkg in DEBIAN_BUILD:
            target, markers = DEBIAN_BUILD[pkg]
            subprocess.run(['dpkg-buildpackage', '-T', 'clean', '-uc', '-us'], cwd=src,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
            for m in markers:
                open(os.path.join(src, m), 'a').close()
            build = ['dpkg-buildpackage', '-T', target, '-uc', '-us']
        subprocess.run(['bear', '--output', db, '--'] + build, cwd=src,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        if os.path.exists(db) and json.load(open(db)):
            return db
    if os.path.exists(os.path.join(src, 'CMakeLists.txt')) and not os.path.exists(
            os.path.join(src, 'Makefile')):
        run(['cmake', '-S', src, '-B', os.path.join(src, '_hotpath_build'),
             '-DCMAKE_EXPORT_COMPILE_COMMANDS=ON'], stdout=subprocess.DEVNULL, env=env)
        shutil.copy(os.path.join(src, '_hotpath_build', 'compile_commands.json'), db)
        return db
    if os.path.exists(os.path.join(src, 'configure')) and not os.path.exists(
            os.path.join(src, 'config.status')):
        # Documentation tool chains are not needed to compile the C code.
        help_text = subprocess.run(['./configure', '--help'], cwd=src, capture_output=True,
                                   text=True).stdout
        extra = [f for f in ('--disable-documentation', '--disable-doc', '--disable-docs')
                 if f in help_text.split()]
        subprocess.run(['./configure'] + extra, cwd=src, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, env=env)
    subprocess.run(['bear', '--output', db, '--', 'make', '-k', '-j%d' % jobs], cwd=src,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    if not os.path.exists(db):
        sys.exit('real-project: no compile_commands.json for %s' % src)
    return db


def load_db(db):
    entries, seen = [], set()
    for e in json.load(open(db)):
        path = os.path.normpath(os.path.join(e['directory'], e['file']))
        if path in seen or not path.endswith(('.c', '.cc', '.cpp', '.cxx')):
            continue
        if not os.path.isdir(e['directory']):
            # Build-system probes (CMake's TryCompile-* scratch dirs) that bear
            # recorded and the build removed: clang-tidy aborts on them
            # ("Cannot chdir"), which says nothing about the checks.
            continue
        seen.add(path)
        args = e.get('arguments') or shlex.split(e['command'])
        entries.append({'file': path, 'dir': e['directory'], 'args': args})
    return entries


def git(src, *args, capture=False):
    return subprocess.run(['git', '-C', src, '-c', 'user.name=hotpath', '-c',
                           'user.email=hotpath@localhost'] + list(args), check=True,
                          capture_output=capture, text=True).stdout


def snapshot(src):
    if not os.path.isdir(os.path.join(src, '.git')):
        git(src, 'init', '-q')
        with open(os.path.join(src, '.git', 'info', 'exclude'), 'a') as f:
            f.write('*.o\n*.a\n*.so*\n_hotpath_build/\ncompile_commands.json\n')
        git(src, 'add', '-A')
        git(src, 'commit', '-q', '-m', 'pristine')
    else:
        git(src, 'checkout', '-q', '--', '.')


def tidy_one(opts, db_dir, entry, fixes_dir, index):
    cmd = [opts.tidy, '-checks=' + opts.checks, '-p', db_dir, '--quiet']
    if opts.option:
        cmd.append('-config={CheckOptions: [%s]}' % ', '.join(
            '{key: %s, value: "%s"}' % tuple(o.split('=', 1)) for o in opts.option))
    if opts.plugin:
        cmd.insert(1, '--load=' + opts.plugin)
    if fixes_dir:
        cmd.append('--export-fixes=%s/%05d.yaml' % (fixes_dir, index))
    cmd.append(entry['file'])
    started = time.time()
    try:
        p = subprocess.run(['timeout', str(opts.timeout)] + cmd, capture_output=True,
                           text=True, errors='replace')
    except OSError as e:
        return {'file': entry['file'], 'status': 'error', 'out': str(e), 'findings': []}
    out = p.stdout + p.stderr
    if p.returncode == 124:
        status = 'hang'
    elif p.returncode == 127 or 'Error opening' in out or 'no checks enabled' in out:
        status = 'could-not-run'  # e.g. the module failed to load: never 'ok'
    elif p.returncode < 0 or p.returncode >= 128 or 'Stack dump' in out or \
            'PLEASE submit a bug report' in out:
        status = 'crash'
    elif 'error: ' in p.stdout and 'clang-diagnostic-error' in p.stdout:
        status = 'does-not-parse'
    else:
        status = 'ok'
    findings = [m.groupdict() for m in map(FINDING.match, p.stdout.splitlines()) if m]
    return {'file': entry['file'], 'status': status, 'out': out, 'findings': findings,
            'seconds': time.time() - started}


def run_tidy(opts, src, entries, fixes_dir):
    if fixes_dir:
        shutil.rmtree(fixes_dir, ignore_errors=True)
        os.makedirs(fixes_dir)
    with concurrent.futures.ThreadPoolExecutor(opts.jobs) as pool:
        futures = [pool.submit(tidy_one, opts, src, e, fixes_dir, i)
                   for i, e in enumerate(entries)]
        results = [f.result() for f in futures]
    if fixes_dir and os.listdir(fixes_dir):
        run([opts.apply_replacements, fixes_dir])
    return results


def count_replacements(fixes_dir):
    """How many replacements the exported fixes hold (before deduplication)."""
    if not fixes_dir or not os.path.isdir(fixes_dir):
        return 0
    return sum(open(os.path.join(fixes_dir, f), errors='replace').read().count('ReplacementText:')
               for f in os.listdir(fixes_dir) if f.endswith('.yaml'))


def syntax_check(entry):
    args = list(entry['args'])
    out, i = [], 0
    while i < len(args):
        a = args[i]
        if a in ('-o', '-MF', '-MT', '-MQ'):
            i += 2
            continue
        if a in ('-c', '-MD', '-MMD') or a.startswith('-Werror'):
            i += 1
            continue
        out.append(a)
        i += 1
    p = subprocess.run(out + ['-fsyntax-only'], cwd=entry['dir'], capture_output=True,
                       text=True, errors='replace')
    return p.returncode == 0, p.stderr


def copy_local_tree(path, work):
    """A fresh copy of a local source tree to fix, never the tree itself."""
    src = os.path.join(work, os.path.basename(os.path.normpath(path)))
    shutil.rmtree(src, ignore_errors=True)
    shutil.copytree(path, src)
    return src


def build_command(src, jobs):
    """The package's own build step, run again over the fixed tree."""
    rules = os.path.join(src, 'debian', 'rules')
    if os.path.exists(rules):
        if re.search(r'^override_dh_auto_build\s*:', open(rules).read(), re.M):
            return ['debian/rules', 'override_dh_auto_build']
        return ['dh_auto_build']
    return ['make', '-j%d' % jobs]


def test_command(opts, pkg, src):
    """(command, None), or (None, why the package has no test suite to run)."""
    if opts.test_command:
        return shlex.split(opts.test_command), None
    if pkg in PACKAGE_TESTS:
        return PACKAGE_TESTS[pkg], None
    rules = os.path.join(src, 'debian', 'rules')
    if os.path.exists(rules):
        m = re.search(r'^override_dh_auto_test\s*:.*\n((?:\t.*\n|#.*\n)*)', open(rules).read(), re.M)
        if m and not [l for l in m.group(1).splitlines() if l.startswith('\t') and l.strip()]:
            return None, 'none: debian/rules runs no test (empty override_dh_auto_test)'
        if m:
            return ['debian/rules', 'override_dh_auto_test'], None
        return ['dh_auto_test'], None
    makefile = os.path.join(src, 'Makefile')
    if os.path.exists(makefile) and re.search(r'^check\s*:', open(makefile).read(), re.M):
        return ['make', 'check'], None
    return None, 'none: no test suite known (--test-command to give one)'


def clean_command(src):
    """What empties the tree of build output, so that a build compiles all."""
    if os.path.exists(os.path.join(src, 'debian', 'rules')):
        return ['debian/rules', 'clean']
    if re.search(r'^clean\s*:', open(os.path.join(src, 'Makefile')).read(), re.M):
        return ['make', 'clean']
    return None


def rebuild(opts, pkg, src, changed):
    """Builds the tree as it is under bear; returns (ok, what to report).
    Sources that include a changed header (all, when nothing changed) are
    touched first: not every build system tracks header dependencies. When
    the incremental build still leaves a changed source out (redis builds
    its deps/ once), the tree is cleaned and built in full."""
    env = dict(os.environ, CC='gcc', CXX='g++',
               DEB_BUILD_OPTIONS='nocheck nodoc parallel=%d' % opts.jobs)
    db = json.load(open(os.path.join(src, 'compile_commands.json')))
    sources = {os.path.normpath(os.path.join(e['directory'], e['file'])) for e in db}
    changed_src = {os.path.join(src, c) for c in changed if c.endswith(('.c', '.cc', '.cpp', '.cxx'))}
    if len(changed_src) < len(changed) or not changed:
        for f in sources:
            if os.path.exists(f):
                os.utime(f)
    log_file = os.path.join(opts.work, pkg + '-build.log')
    out = os.path.join(opts.work, pkg + '-rebuilt.json')
    how = 'incremental'
    with open(log_file, 'w') as f:
        for attempt in ('incremental', 'clean'):
            if attempt == 'clean':
                clean = clean_command(src)
                if not clean:
                    break
                how = 'the incremental build left %s out: cleaned and built in full' % ', '.join(
                    missing)
                subprocess.run(clean, cwd=src, stdout=f, stderr=subprocess.STDOUT, env=env)
            build = build_command(src, opts.jobs) if attempt == 'incremental' or \
                not os.path.exists(os.path.join(src, 'debian', 'rules')) else ['debian/rules', 'build']
            if os.path.exists(out):
                os.remove(out)
            rc = subprocess.run(['bear', '--output', out, '--'] + build, cwd=src, stdout=f,
                                stderr=subprocess.STDOUT, env=env).returncode
            if rc != 0:
                return False, 'FAILED (%s exited %d, log %s)' % (' '.join(build), rc, log_file)
            rebuilt = {os.path.normpath(os.path.join(e['directory'], e['file']))
                       for e in (json.load(open(out)) if os.path.exists(out) else [])}
            missing = sorted(os.path.relpath(f, src) for f in changed_src - rebuilt)
            if rebuilt and not missing:
                return True, 'ok, compiled and linked (%d TUs recompiled, every changed source ' \
                    'among them: %d; %s)' % (len(rebuilt), len(changed_src), how)
    return False, 'FAILED: changed sources not recompiled: %s (log %s)' % (
        ', '.join(missing) or 'nothing was', log_file)


def run_tests(opts, pkg, src, cmd, tag):
    log_file = os.path.join(opts.work, '%s-tests-%s.log' % (pkg, tag))
    env = dict(os.environ, DEB_BUILD_OPTIONS='nodoc parallel=%d' % opts.jobs)
    started = time.time()
    with open(log_file, 'w') as f:
        try:
            rc = subprocess.run(cmd, cwd=src, stdout=f, stderr=subprocess.STDOUT, env=env,
                                timeout=opts.test_timeout).returncode
        except subprocess.TimeoutExpired:
            rc = 'timeout'
    return rc, time.time() - started, log_file


def build_and_test(opts, pkg, src, changed):
    """Builds and links the fixed package and runs its test suite; on a test
    failure, the original's tests tell whether the fixes caused it."""
    ok, build = rebuild(opts, pkg, src, changed)
    if not ok:
        return {'build': build, 'tests': 'not run: the build failed', 'bad': True}
    cmd, why_none = test_command(opts, pkg, src)
    if cmd is None:
        return {'build': build, 'tests': why_none, 'bad': False}
    rc, secs, log_file = run_tests(opts, pkg, src, cmd, 'fixed')
    what = "'%s'" % ' '.join(cmd)
    if rc == 0:
        return {'build': build, 'tests': 'passed (%s, %.0f s)' % (what, secs), 'bad': False}
    git(src, 'stash', '-q')
    try:
        base_ok, base_build = rebuild(opts, pkg, src, changed)
        base_rc = run_tests(opts, pkg, src, cmd, 'original')[0] if base_ok else None
    finally:
        git(src, 'stash', 'pop', '-q')
    if base_rc == 0:
        tests = 'FAILED with the fixes (%s exited %s, log %s), passed on the original' % (
            what, rc, log_file)
        return {'build': build, 'tests': tests, 'bad': True}
    tests = 'failed with the fixes (%s exited %s, log %s) and on the original too (%s): ' \
            'not the fixes\' doing' % (what, rc, log_file,
                                      'exit %s' % base_rc if base_ok else base_build)
    return {'build': build, 'tests': tests, 'bad': False}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('packages', nargs='+', metavar='SRCPKG')
    ap.add_argument('--fix', action='store_true', help='apply the fixes and recompile')
    ap.add_argument('--twice', action='store_true',
                    help='run again after fixing; the second run must change nothing')
    ap.add_argument('--checks', default='-*,hotpath-*')
    ap.add_argument('--option', action='append', default=[], metavar='CHECK.KEY=VALUE',
                    help='a check option, e.g. hotpath-check-split.MultiBranchThreshold=1 '
                         '(to exercise fixes on code without hot checks)')
    ap.add_argument('--work', default=os.path.join(ROOT, 'build', 'real-projects'))
    ap.add_argument('--jobs', type=int, default=os.cpu_count() or 2)
    ap.add_argument('--timeout', type=int, default=300, help='seconds per TU')
    ap.add_argument('--max-tus', type=int, default=0, help='only the first N TUs (0: all)')
    ap.add_argument('--no-build', action='store_true',
                    help='with --fix: do not build the fixed package nor run its tests')
    ap.add_argument('--always-build', action='store_true',
                    help='build and test even when the fixes changed nothing (to try the '
                         "package's build and tests here)")
    ap.add_argument('--test-command', help="the package's tests (shell words), e.g. 'make check'")
    ap.add_argument('--test-timeout', type=int, default=1200, help='seconds for the test suite')
    llvm = os.environ.get('HOTPATH_LLVM_MAJOR', '19')
    ap.add_argument('--tidy', default='/usr/lib/llvm-%s/bin/clang-tidy' % llvm)
    ap.add_argument('--apply-replacements',
                    default='/usr/lib/llvm-%s/bin/clang-apply-replacements' % llvm)
    ap.add_argument('--plugin', default=os.path.join(ROOT, 'build', 'plugin',
                                                     'libhotpathTidyModule.so'),
                    help="the module to --load ('' for a binary with the checks built in)")
    opts = ap.parse_args()
    if opts.plugin:
        opts.plugin = os.path.abspath(opts.plugin)
        if not os.path.exists(opts.plugin):
            sys.exit('real-project: no module at %s (build first: scripts/build.sh)' % opts.plugin)
    opts.work = os.path.abspath(opts.work)  # bear and make run in the source tree
    os.makedirs(opts.work, exist_ok=True)
    if not all(os.path.isdir(p) for p in opts.packages):
        ensure_deb_src()

    bad = False
    for pkg in opts.packages:
        t0 = time.time()
        try:
            if os.path.isdir(pkg):
                src = copy_local_tree(pkg, opts.work)
                pkg = os.path.basename(os.path.normpath(pkg))
            else:
                src = fetch_source(pkg, opts.work)
            db = build_compile_db(pkg, src, opts.jobs)
        except subprocess.CalledProcessError as e:
            log('=== %s: could not fetch or build: %s exited %d' % (pkg, ' '.join(e.cmd), e.returncode))
            bad = True
            continue
        entries = load_db(db)
        if opts.max_tus:
            entries = entries[:opts.max_tus]
        snapshot(src)
        t1 = time.time()
        fixes_dir = os.path.join(opts.work, pkg + '-fixes') if opts.fix else None
        results = run_tidy(opts, src, entries, fixes_dir)
        t2 = time.time()
        replacements = count_replacements(fixes_dir)
        status = collections.Counter(r['status'] for r in results)
        by_check = collections.Counter(f['check'] for r in results for f in r['findings'])
        findings_file = os.path.join(opts.work, pkg + '-findings.txt')
        # Every message, notes included, to classify the findings by.
        with open(os.path.join(opts.work, pkg + '-messages.txt'), 'w') as f:
            for r in results:
                lines = [l for l in r['out'].splitlines() if DIAGNOSTIC.match(l)]
                if lines:
                    f.write('\n'.join(lines) + '\n')
        with open(findings_file, 'w') as f:
            for r in results:
                for x in r['findings']:
                    name = os.path.relpath(x['file'], src) if os.path.isabs(x['file']) else x['file']
                    f.write('%s:%s:%s: %s [%s]\n' % (name, x['line'],
                                                     x['col'], x['msg'], x['check']))
                if r['status'] in ('crash', 'hang'):
                    f.write('%s: %s\n%s\n' % (r['file'], r['status'].upper(), r['out']))
        changed = [l for l in git(src, 'diff', '--name-only', capture=True).splitlines() if l]
        compile_failures = []
        recompiled = 0
        if changed:
            with open(os.path.join(opts.work, pkg + '-fixes.diff'), 'w') as f:
                f.write(git(src, 'diff', capture=True))
            changed_abs = {os.path.join(src, c) for c in changed}
            header_changed = any(not c.endswith(('.c', '.cc', '.cpp', '.cxx')) for c in changed)
            affected = [e for e in entries if header_changed or e['file'] in changed_abs]
            recompiled = len(affected)
            with concurrent.futures.ThreadPoolExecutor(opts.jobs) as pool:
                for e, (ok, err) in zip(affected, pool.map(syntax_check, affected)):
                    if not ok:
                        compile_failures.append((e['file'], err))
        second = None
        second_status = collections.Counter()
        if opts.twice and opts.fix:
            before = git(src, 'diff', capture=True)
            first = {r['file']: r['status'] for r in results}
            again = run_tidy(opts, src, entries, fixes_dir)
            second_status = collections.Counter(r['status'] for r in again)
            # A crash, a hang or a TU that no longer parses changes nothing
            # either: it must not pass as a no-op.
            second = git(src, 'diff', capture=True) == before and \
                all(r['status'] == 'ok' for r in again if first.get(r['file']) == 'ok')
        if not opts.fix or opts.no_build:
            stage = {'build': 'not run (%s)' % ('--no-build' if opts.fix else 'no --fix'),
                     'tests': 'not run', 'bad': False}
        elif not changed and not opts.always_build:
            stage = {'build': 'not run: no file changed, the code is the original',
                     'tests': 'not run: no file changed', 'bad': False}
        else:
            stage = build_and_test(opts, pkg, src, changed)

        log('=== %s (%s)' % (pkg, os.path.basename(src)))
        log('  TUs: %d (%s), clang-tidy time %.0f s, setup %.0f s' % (
            len(results), ', '.join('%s %d' % kv for kv in sorted(status.items())), t2 - t1, t1 - t0))
        log('  findings: %d (%s), listed in %s' % (
            sum(by_check.values()),
            ', '.join('%s %d' % kv for kv in sorted(by_check.items())) or 'none', findings_file))
        log('  files changed by fixes: %d%s' % (len(changed), (': ' + ', '.join(changed[:10]))
                                                if changed else ''))
        log('  TUs syntax-checked (-fsyntax-only): %d, failures: %d' % (recompiled,
                                                                      len(compile_failures)))
        for f, err in compile_failures[:5]:
            log('    %s:\n%s' % (f, err[:2000]))
        if second is not None:
            log('  second run changed nothing: %s (%s)' % (
                'yes' if second else 'NO', ', '.join('%s %d' % kv for kv in sorted(second_status.items()))))
        log('  build of the fixed package: %s' % stage['build'])
        log('  package tests: %s' % stage['tests'])
        # One line for scripts (scripts/robustness.sh adds these up).
        log('  summary: ' + json.dumps({
            'package': pkg, 'tus': len(results), 'status': dict(status),
            'findings': dict(by_check), 'replacements': replacements,
            'files_changed': len(changed), 'recompiled': recompiled,
            'compile_failures': len(compile_failures), 'idempotent': second,
            'build': stage['build'], 'tests': stage['tests']},
            sort_keys=True))
        if status['crash'] or status['hang'] or status['could-not-run'] or \
                compile_failures or second is False or stage['bad']:
            bad = True
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
