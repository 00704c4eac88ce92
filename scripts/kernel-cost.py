#!/usr/bin/env python3
"""Per-TU cost of hotpath-tidy on the kernel against `clang -fsyntax-only`
(issue 26): CPU (user+sys) and peak memory of

  1. clang-19 -fsyntax-only with the TU's own compile command;
  2. hotpath-tidy on that TU with the project index (built beforehand by
     `hotpath-tidy --index-only -p TREE --index-dir=INDEX`), no result cache;
  3. the same with --no-index.

    scripts/kernel-cost.py TREE INDEX mm/slub.c fs/btrfs/extent_io.c [--runs N]
                           [--instructions]

Each figure is the least of N rounds (default 3), the three commands taking
turns within each round: the machine is shared, the least is the run least
disturbed, and turns keep a slow spell from falling on one command alone. Prints one table, ratios to clang.
With --instructions, a second table gives the instructions each executes
under `valgrind --tool=callgrind --trace-children=yes` (every process: the
driver, git, the check run, a forked one from the fork on), the figure that
repeats on a noisy machine.
"""
import argparse
import json
import os
import shlex
import glob
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOL = os.environ.get('HOTPATH_TIDY', os.path.join(ROOT, 'build', 'plugin', 'hotpath-tidy'))
CLANG = os.environ.get('HOTPATH_CLANG', 'clang-19')




def once(argv, cwd, ok):
    # ru_maxrss of RUSAGE_CHILDREN is the largest child so far, so each run
    # goes through a fresh /usr/bin/time-like wrapper: GNU time's %M.
    timed = ['/usr/bin/time', '-f', '%U %S %M', '-o', '/dev/stderr'] + argv
    p = subprocess.run(timed, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    last = p.stderr.decode(errors='replace').strip().splitlines()[-1].split()
    if p.returncode not in ok or len(last) != 3:
        sys.exit('kernel-cost: %s failed (exit %d):\n%s' % (
            shlex.join(argv), p.returncode, p.stderr.decode(errors='replace')[-2000:]))
    return float(last[0]) + float(last[1]), int(last[2]) / 1024.0


def best(commands, runs):
    """The least CPU and memory of each (argv, cwd, ok) over RUNS rounds,
    the commands taking turns within a round: what disturbs the machine
    for a while disturbs all of them, so the ratios hold better than
    those of runs made one command after the other."""
    seen = [([], []) for _ in commands]
    for _ in range(runs):
        for (argv, cwd, ok), (cpus, rss) in zip(commands, seen):
            c, m = once(argv, cwd, ok)
            cpus.append(c)
            rss.append(m)
    return [(min(c), min(m)) for c, m in seen]


def forked_share(out_file):
    """The instructions of a check run forked from the driver (runForked),
    which callgrind's file for the child counts together with the driver's
    own before the fork: the inclusive cost of the child's entry point,
    hotpath::driver::runClangTidy, when the file also has the driver's
    frames; None for a process of its own."""
    p = subprocess.run(['callgrind_annotate', '--inclusive=yes', '--threshold=100', out_file],
                       capture_output=True, text=True)
    if 'hotpath::driver::runOverDatabase' not in p.stdout:
        return None
    for line in p.stdout.splitlines():
        if 'hotpath::driver::runClangTidy(' in line:
            return int(line.split()[0].replace(',', ''))
    return None


def instructions(argv, cwd, ok=(0, 1)):
    """Instructions executed by argv and every process it starts (a forked
    check run counted from the fork on)."""
    with tempfile.TemporaryDirectory(prefix='kernel-cost-') as tmp:
        p = subprocess.run(['valgrind', '--tool=callgrind', '--trace-children=yes',
                            '--log-file=%s/log.%%p' % tmp, '--callgrind-out-file=%s/out.%%p' % tmp]
                           + argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        if p.returncode not in ok:
            sys.exit('kernel-cost: %s under callgrind failed (exit %d):\n%s' % (
                shlex.join(argv), p.returncode, p.stderr.decode(errors='replace')[-2000:]))
        total = 0
        for out in glob.glob(tmp + '/out.*'):
            share = forked_share(out)
            if share is None:
                with open(out) as f:
                    m = re.search(r'^summary:\s+(\d+)', f.read(), re.M)
                share = int(m.group(1)) if m else 0
            total += share
        return total


def syntax_only(entry):
    args = entry.get('arguments') or shlex.split(entry['command'])
    out, skip = [CLANG], False
    for a in args[1:]:
        if skip:
            skip = False
            continue
        if a == '-o':
            skip = True
            continue
        if a in ('-c', '-S') or a.startswith('-Wp,-MMD') or a.startswith('-Wp,-MD'):
            continue
        out.append(a)
    return out + ['-fsyntax-only']


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('tree')
    ap.add_argument('index')
    ap.add_argument('tus', nargs='+')
    ap.add_argument('--runs', type=int, default=3)
    ap.add_argument('--instructions', action='store_true')
    a = ap.parse_args()
    tree = os.path.abspath(a.tree)
    db_path = os.path.join(tree, 'compile_commands.json')
    try:
        with open(db_path) as f:
            db = {os.path.realpath(os.path.join(e['directory'], e['file'])): e for e in json.load(f)}
    except (OSError, ValueError) as e:
        sys.exit('kernel-cost: cannot read %s: %s' % (db_path, e))
    print('%-24s %22s %28s %28s' % ('TU', 'clang -fsyntax-only', 'hotpath-tidy + index', 'hotpath-tidy --no-index'))
    counted = []
    for tu in a.tus:
        entry = db.get(os.path.realpath(os.path.join(tree, tu)))
        if entry is None:
            sys.exit('kernel-cost: %s is not in %s' % (tu, db_path))
        common = [TOOL, '-p', tree, '--no-cache', '--config={CheckOptions: {RuleSet: linux-kernel}}']
        base, withidx, noidx = best([
            (syntax_only(entry), entry['directory'], (0,)),
            (common + ['--index-dir=' + os.path.abspath(a.index), tu], tree, (0, 1)),
            (common + ['--no-index', tu], tree, (0, 1))], a.runs)
        def cell(m):
            return '%6.2f s %6.0f MB (%.2fx %.2fx)' % (m[0], m[1], m[0] / base[0], m[1] / base[1])
        print('%-24s %7.2f s %6.0f MB  %s %s' % (tu, base[0], base[1], cell(withidx), cell(noidx)))
        if a.instructions:
            counted.append((tu, instructions(syntax_only(entry), entry['directory'], ok=(0,)),
                            instructions(common + ['--index-dir=' + os.path.abspath(a.index), tu], tree),
                            instructions(common + ['--no-index', tu], tree)))
    if counted:
        print('\ninstructions (callgrind, every process)')
        for tu, base, withidx, noidx in counted:
            print('%-24s %10.0f M %12.0f M (%.3fx) %12.0f M (%.3fx)' % (
                tu, base / 1e6, withidx / 1e6, withidx / base, noidx / 1e6, noidx / base))


if __name__ == '__main__':
    main()
