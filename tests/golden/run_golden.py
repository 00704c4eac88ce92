#!/usr/bin/env python3
"""Golden tests: run the real clang-tidy with the hotpath module on a case and
compare its messages and fixed files with the expected ones beside it.

A case is tests/checks/<check>/<case>.{c,cpp}, with beside it:
  <case>.<ext>.messages   every diagnostic line, "file:line:col: level: text"
  <case>.<ext>.fixed      the main file after --fix (absent: must be unchanged)
  <case>.h, <case>.h.fixed  an optional header and its expected fixed form
Comment lines at the top of the case set its flags:
  // hotpath-args: -std=c11 -DFOO
  // hotpath-options: RuleSet=linux-kernel; MultiBranchThreshold=1
Every line clang-tidy prints on stdout counts, not only "file:line:col"
diagnostics (a configuration error, "error: ... [clang-tidy-config]", has no
location and must fail a case that does not expect it); source excerpts are
left out. clang-tidy must exit 0 and print on stderr nothing but its counts,
"N warnings generated." (N the warnings expected) and, when the case has a
fixed file, "clang-tidy applied K of K suggested fixes." (every fix applied).
For each case the runner also checks that the fixed code compiles with
-Wall -Wextra -Werror under clang and gcc (a missing compiler is a failure,
not a skip), and that a second --fix run exits 0, applies nothing and
changes nothing (idempotent).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

DIAG = re.compile(r'^(?P<file>[^:\s][^:]*):(?P<line>\d+):(?P<col>\d+): '
                  r'(?P<level>warning|note|error): (?P<text>.*)$')


def case_settings(path):
    args, options = None, {}
    with open(path) as f:
        for line in f:
            m = re.match(r'\s*(?://|/\*)\s*hotpath-(args|options):\s*(.*?)\s*(\*/)?\s*$', line)
            if not m:
                continue
            if m.group(1) == 'args':
                args = m.group(2).split()
            else:
                for item in m.group(2).split(';'):
                    if item.strip():
                        k, v = item.split('=', 1)
                        options[k.strip()] = v.strip()
    if args is None:
        args = ['-std=c++17'] if path.endswith('.cpp') else ['-std=c11']
    return args, options


def tidy_config(check, options):
    opts = ', '.join('{key: %s.%s, value: "%s"}' % (check, k, v) for k, v in options.items())
    # Only the directory's own check: another hotpath check's findings in a
    # case belong to that check's tests.
    return '{Checks: "-*,%s", CheckOptions: [%s]}' % (check, opts)


# Source excerpts under a diagnostic ("   12 |   if (x)", "      |   ^~~").
EXCERPT = re.compile(r'^\s*\d*\s*\|')
COUNT = re.compile(r'^(\d+) warnings? generated\.$')
APPLIED = re.compile(r'^clang-tidy applied (\d+) of (\d+) suggested fixes\.$')


def run_tidy(tidy, plugin, workdir, main, args, config, fix):
    cmd = [tidy]
    if plugin:
        cmd.append('--load=' + plugin)
    cmd += ['--config=' + config, '--header-filter=.*']
    if fix:
        cmd.append('--fix')
    cmd += [main, '--'] + args + ['-I' + workdir]
    proc = subprocess.run(cmd, cwd=workdir, capture_output=True, text=True, timeout=120)
    if proc.returncode < 0 or 'PLEASE submit a bug report' in proc.stderr:
        raise RuntimeError('clang-tidy crashed (exit %d):\n%s' % (proc.returncode, proc.stderr))
    if 'Error opening' in proc.stderr or 'no checks enabled' in proc.stderr:
        raise RuntimeError('clang-tidy could not load the checks:\n' + proc.stderr)
    messages = []
    for line in proc.stdout.splitlines():
        m = DIAG.match(line)
        if m:
            if 'FIX-IT applied suggested code changes' not in m['text']:
                messages.append('%s:%s:%s: %s: %s' % (os.path.basename(m['file']), m['line'],
                                                      m['col'], m['level'], m['text']))
        elif line.strip() and not EXCERPT.match(line):
            messages.append(line.replace(workdir + '/', ''))
    return messages, proc


def run_problems(proc, messages, fixes_expected):
    """What is wrong with a run besides its messages: its exit status, and
    any stderr line but the counts that match the messages."""
    problems = []
    if proc.returncode != 0:
        problems.append('clang-tidy exited %d' % proc.returncode)
    warnings = sum(1 for m in messages if DIAG.match(m) and DIAG.match(m)['level'] == 'warning')
    applied = False
    for line in proc.stderr.splitlines():
        count, fixes = COUNT.match(line), APPLIED.match(line)
        if count and int(count[1]) == warnings:
            continue
        if fixes and fixes[1] == fixes[2] and fixes_expected:
            applied = True
            continue
        problems.append('unexpected on stderr: %s' % line)
    if fixes_expected and not applied:
        problems.append("no 'clang-tidy applied K of K suggested fixes.' on stderr")
    return problems


def compilers_for(main, args, opts):
    return [(cc, args) for cc in (opts.cxx if main.endswith('.cpp') else opts.cc).split()]


def run_case(case_path, check, opts):
    tidy, plugin, update = opts.tidy, opts.plugin, opts.update
    failures = []
    case_dir, case_file = os.path.split(case_path)
    stem = case_file.rsplit('.', 1)[0]
    args, options = case_settings(case_path)
    sources = [f for f in sorted(os.listdir(case_dir))
               if f.startswith(stem + '.') and not f.endswith(('.fixed', '.messages'))]
    with tempfile.TemporaryDirectory(prefix='hotpath-golden-') as work:
        for f in sources:
            shutil.copy(os.path.join(case_dir, f), work)
        config = tidy_config(check, options)
        messages, proc = run_tidy(tidy, plugin, work, case_file, args, config, fix=True)

        expected_messages = os.path.join(case_dir, case_file + '.messages')
        got = '\n'.join(messages) + '\n'
        if update:
            with open(expected_messages, 'w') as f:
                f.write(got)
        elif not os.path.exists(expected_messages):
            failures.append('missing %s' % expected_messages)
        elif open(expected_messages).read() != got:
            failures.append('messages differ:\n--- expected\n%s--- got\n%s--- clang-tidy stderr\n%s'
                            % (open(expected_messages).read(), got, proc.stderr))
        fixes_expected = any(os.path.exists(os.path.join(case_dir, f + '.fixed')) for f in sources)
        failures += run_problems(proc, messages, fixes_expected and not update)

        for f in sources:
            fixed_path = os.path.join(case_dir, f + '.fixed')
            now = open(os.path.join(work, f)).read()
            before = open(os.path.join(case_dir, f)).read()
            if update:
                if now != before:
                    with open(fixed_path, 'w') as out:
                        out.write(now)
                elif os.path.exists(fixed_path):
                    os.remove(fixed_path)
                continue
            want = open(fixed_path).read() if os.path.exists(fixed_path) else before
            if now != want:
                diff = subprocess.run(['diff', '-u', fixed_path if os.path.exists(fixed_path)
                                       else os.path.join(case_dir, f), os.path.join(work, f)],
                                      capture_output=True, text=True).stdout
                failures.append('fixed %s differs from expected:\n%s' % (f, diff))

        # The fixed code compiles with no warnings under both compilers.
        for cc, cc_args in compilers_for(case_file, args, opts):
            if not shutil.which(cc):
                failures.append("compiler '%s' not found (scripts/install-deps.sh installs it)" % cc)
                continue
            c = subprocess.run([cc, '-fsyntax-only', '-Wall', '-Wextra', '-Werror'] + cc_args +
                               ['-I' + work, case_file], cwd=work, capture_output=True, text=True)
            if c.returncode != 0:
                failures.append('fixed code does not compile with %s:\n%s' % (cc, c.stderr))

        # Idempotent: a second --fix run exits 0, applies nothing, changes nothing.
        snapshot = {f: open(os.path.join(work, f)).read() for f in sources}
        again, proc = run_tidy(tidy, plugin, work, case_file, args, config, fix=True)
        failures += ['second --fix run: ' + p for p in run_problems(proc, again, False)]
        for f in sources:
            if open(os.path.join(work, f)).read() != snapshot[f]:
                failures.append('second --fix run changed %s' % f)
    return failures


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--tidy', default='clang-tidy-19')
    ap.add_argument('--plugin', help='path to libhotpathTidyModule.so (omit for hotpath-tidy)')
    ap.add_argument('--update', action='store_true',
                    help='write the expected files from the current output (review the diff!)')
    ap.add_argument('--cc', default='clang-19 gcc', help='C compilers the fixed code must pass')
    ap.add_argument('--cxx', default='clang++-19 g++', help='C++ compilers the fixed code must pass')
    ap.add_argument('cases', nargs='+', help='case files, or check directories')
    opts = ap.parse_args()
    if opts.plugin:
        opts.plugin = os.path.abspath(opts.plugin)
    if os.sep in opts.tidy:
        opts.tidy = os.path.abspath(opts.tidy)  # the runs happen in a temp dir

    cases = []
    for c in opts.cases:
        if os.path.isdir(c):
            cases += [os.path.join(c, f) for f in sorted(os.listdir(c))
                      if f.endswith(('.c', '.cpp'))]
        else:
            cases.append(c)
    if not cases:
        print('FAIL no cases in %s' % ' '.join(opts.cases))
        return 1
    passed = failed = 0
    for case in cases:
        check = os.path.basename(os.path.dirname(os.path.abspath(case)))
        try:
            failures = run_case(case, check, opts)
        except Exception as e:  # a crash or a timeout fails the case, not the run
            failures = [str(e)]
        if failures:
            failed += 1
            print('FAIL %s' % case)
            for f in failures:
                print('  ' + f.replace('\n', '\n  '))
        else:
            passed += 1
            print('ok   %s' % case)
    print('%d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
