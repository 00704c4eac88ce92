#!/usr/bin/env python3
"""Golden tests: run the real clang-tidy with the hotpath module on a case and
check its messages against the CHECK-MESSAGES directives in the case, and its
fixed files against the expected ones beside it.

A case is tests/checks/<check>/<case>.{c,cpp}, with beside it:
  <case>.<ext>.fixed      the main file after --fix (absent: must be unchanged)
  <case>.h, <case>.h.fixed  an optional header and its expected fixed form
  <case>.*                any other file the case reads (a profile)
Comment lines set the case's flags:
  // hotpath-args: -std=c11 -DFOO
  // hotpath-options: RuleSet=linux-kernel; MultiBranchThreshold=1
  // hotpath-configurations: -DNO_HOOKS | -DNO_HOOKS -DEXTRA
The last lists other configurations ('|' between them) the case's #if
conditions select: clang-tidy sees the one hotpath-args gives, the fix
lands in source they all share, so the original and the fixed code must
compile in each, as in the default one.
Every message clang-tidy prints is written, as LLVM's clang-tidy tests do,
in a directive under the line it is about, in any C/C++ file of the case:
  if (off > b->len) {
  // CHECK-MESSAGES: :[[@LINE-1]]:6: note: this condition implies ...
":[[@LINE]]", ":[[@LINE+N]]", ":[[@LINE-N]]" count lines of the file the
directive is in; "other.h:12:1: note: ..." names another file of the case and
its line; "error: ..." (no location) is a line printed with none. A warning
(error, remark: explain mode's) directive starts a group; the note directives after it in the same
file, up to the next warning, are its notes, in the order clang-tidy prints
them. The check is exact and complete: the groups, ordered by the warning's
file name, line and column (clang-tidy's order), must give every line
clang-tidy prints on stdout, whole, in order, and nothing else; source
excerpts are left out, and so is a "FIX-IT applied" note. A case with no
directive expects no output. Anything else spelled CHECK-<KIND> is an error
(a misspelt directive must not check nothing), and so is a directive on the
line after a backslash (it would be part of the macro it continues).
Directives are comments: they stay in the fixed files, and a fix that moves
or copies code moves or copies them with it (write them where the fix keeps
them readable; the .fixed files show where they end up).
clang-tidy must exit 0 and print on stderr nothing but its counts,
"N warnings generated." (N the warnings expected) and, when the case has a
fixed file, "clang-tidy applied K of K suggested fixes." (every fix applied).
For each case the runner also checks that the fixed code compiles with
-Wall -Wextra -Werror under clang and gcc (a missing compiler is a failure,
not a skip), and that a second --fix run exits 0, applies nothing and
changes nothing (idempotent).
--update rewrites the .fixed files from the current output (the messages are
still checked); --write-messages replaces the directives of a case with ones
made from the current output, each group under its warning's line (review
both diffs: the runner cannot know which output is right).
"""
import argparse
import difflib
import os
import re
import shutil
import subprocess
import sys
import tempfile

DIAG = re.compile(r'^(?P<file>[^:\s][^:]*):(?P<line>\d+):(?P<col>\d+): '
                  r'(?P<level>warning|note|error|remark): (?P<text>.*)$')


def case_settings(path):
    args, options, configs = None, {}, [[]]
    with open(path) as f:
        for line in f:
            m = re.match(r'\s*(?://|/\*)\s*hotpath-(args|options|configurations):'
                         r'\s*(.*?)\s*(\*/)?\s*$', line)
            if not m:
                continue
            if m.group(1) == 'args':
                args = m.group(2).split()
            elif m.group(1) == 'configurations':
                configs += [c.split() for c in m.group(2).split('|') if c.strip()]
            else:
                for item in m.group(2).split(';'):
                    if item.strip():
                        k, v = item.split('=', 1)
                        options[k.strip()] = v.strip()
    if args is None:
        args = ['-std=c++17'] if path.endswith('.cpp') else ['-std=c11']
    return args, options, configs


def tidy_config(check, options):
    opts = ', '.join('{key: %s.%s, value: "%s"}' % (check, k, v) for k, v in options.items())
    # Only the directory's own check: another hotpath check's findings in a
    # case belong to that check's tests.
    return '{Checks: "-*,%s", CheckOptions: [%s]}' % (check, opts)


# Source excerpts under a diagnostic ("   12 |   if (x)", "      |   ^~~").
EXCERPT = re.compile(r'^\s*\d*\s*\|')
# A message with no location, e.g. "error: ... [clang-tidy-config]".
UNLOCATED = re.compile(r'^(error|warning|note|remark): .*\[[\w.,-]+\]$')
COUNT = re.compile(r'^(\d+) warnings? generated\.$')
SUPPRESSED = re.compile(r'^Suppressed (\d+) warnings? \((.*)\)\.$')
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
    return diagnostic_lines(proc.stdout, workdir), proc


def diagnostic_lines(stdout, workdir):
    """The lines of clang-tidy's stdout that are messages: diagnostics as
    "file:line:col: level: text", and any other message (a configuration
    error has no location: "error: ... [clang-tidy-config]"), without the
    source excerpts under each diagnostic. LLVM 19 and 22 mark every excerpt
    line with "N |" or " |"; LLVM 16 prints bare source, caret and fix-it
    lines, so there everything after a diagnostic up to the next message is
    its excerpt."""
    messages = []
    in_excerpt = False
    for line in stdout.splitlines():
        m = DIAG.match(line)
        if m:
            if 'FIX-IT applied suggested code changes' not in m['text']:
                messages.append('%s:%s:%s: %s: %s' % (os.path.basename(m['file']), m['line'],
                                                      m['col'], m['level'], m['text']))
            in_excerpt = True
        elif EXCERPT.match(line) or not line.strip():
            continue
        elif in_excerpt and not UNLOCATED.match(line):
            continue
        else:
            messages.append(line.replace(workdir + '/', ''))
    return messages


def run_problems(proc, messages, fixes_expected):
    """What is wrong with a run besides its messages: its exit status, and
    any stderr line but the counts that match the messages."""
    problems = []
    if proc.returncode != 0:
        problems.append('clang-tidy exited %d' % proc.returncode)
    warnings = sum(1 for m in messages if DIAG.match(m) and DIAG.match(m)['level'] == 'warning')
    applied = False
    # Compiler warnings clang-tidy generates and hides itself (those of a
    # system header clang 16 warns about in C++20): "N warnings generated."
    # counts them too, and "Suppressed K warnings (K with check filters)."
    # accounts for them; the fixed code's own warnings are judged by the
    # compile check below.
    suppressed = 0
    for line in proc.stderr.splitlines():
        hidden = SUPPRESSED.match(line)
        if hidden and int(hidden[1]) == sum(int(n) for n in re.findall(r'(\d+) ', hidden[2])):
            suppressed = int(hidden[1])
    for line in proc.stderr.splitlines():
        count, fixes = COUNT.match(line), APPLIED.match(line)
        if count and int(count[1]) == warnings + suppressed:
            continue
        if suppressed and (SUPPRESSED.match(line) or line.startswith('Use -header-filter=.*')):
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


SOURCE_EXTS = ('.c', '.cpp', '.h', '.hpp')
DIRECTIVE = re.compile(r'//\s*CHECK-MESSAGES:\s?(?P<body>.*?)\s*$')
ANY_DIRECTIVE = re.compile(r'CHECK-[A-Z]')
LOCATED = re.compile(r'^(?P<file>[^:\s]*):(?:\[\[@LINE(?P<off>[+-]\d+)?\]\]|(?P<line>\d+)):'
                     r'(?P<col>\d+): (?P<level>warning|note|error|remark): (?P<text>.*)$')


def read_directives(case_dir, files):
    """The messages the CHECK-MESSAGES directives of FILES expect, in the
    order clang-tidy prints them, and what is wrong with the directives."""
    groups, errors = [], []
    for name in files:
        lines = open(os.path.join(case_dir, name)).read().split('\n')
        group = None
        for n, line in enumerate(lines, 1):
            if not ANY_DIRECTIVE.search(line):
                continue
            where = '%s:%d' % (name, n)
            m = DIRECTIVE.search(line)
            if not m:
                errors.append('%s: not a "// CHECK-MESSAGES:" directive, the only kind (whole '
                              'fixed files go in .fixed files): %s' % (where, line.strip()))
                continue
            if n > 1 and lines[n - 2].endswith('\\'):
                errors.append('%s: the directive continues the macro definition above it; '
                              'put it after the definition' % where)
                continue
            loc = LOCATED.match(m['body'])
            if not loc:
                groups.append(((), [m['body']]))
                group = None
                continue
            file = loc['file'] or name
            if loc['line'] is not None:
                at = int(loc['line'])
            elif file != name:
                errors.append('%s: [[@LINE]] counts lines of %s, not of %s: give %s a line '
                              'number' % (where, name, file, file))
                continue
            else:
                at = n + int(loc['off'] or 0)
            if at < 1:
                errors.append('%s: the directive names line %d' % (where, at))
                continue
            message = '%s:%d:%s: %s: %s' % (file, at, loc['col'], loc['level'], loc['text'])
            if loc['level'] != 'note':
                group = [message]
                groups.append(((file, at, int(loc['col'])), group))
            elif group is None:
                errors.append('%s: a note with no warning directive before it in %s'
                              % (where, name))
            else:
                group.append(message)
    groups.sort(key=lambda g: g[0])  # stable: same location, order as written
    return [msg for _, group in groups for msg in group], errors


def strip_directives(text):
    lines = []
    for line in text.split('\n'):
        m = DIRECTIVE.search(line)
        if m and not line[:m.start()].strip():
            continue
        lines.append(line[:m.start()].rstrip() if m else line)
    return '\n'.join(lines)


def write_directives(messages, texts, main):
    """TEXTS (file name -> text, with no directives) with a directive for
    each of MESSAGES: each warning's group under the warning's line (under
    the end of the macro definition that line starts, under the brace that
    opens the body a declarator line is followed by), each note under its own
    line if no other warning's directives come between."""
    groups = []
    for msg in messages:
        m = DIAG.match(msg)
        if m and m['level'] == 'note' and groups:
            groups[-1].append(msg)
        else:
            groups.append([msg])
    lines = {f: t.split('\n') for f, t in texts.items()}

    def anchor(msg):  # where a directive for MSG goes: file, line to write it after
        m = DIAG.match(msg)
        if not m or m['file'] not in texts:  # no location, or outside the case: after the flags
            at = 0
            while at < len(lines[main]) and re.match(r'\s*//\s*hotpath-', lines[main][at]):
                at += 1
            return main, at
        f, at = m['file'], int(m['line'])
        while at < len(lines[f]) and lines[f][at - 1].endswith('\\'):
            at += 1
        # Not between a function's declarator and its body: check-split
        # copies that text into the fast path it writes.
        if at < len(lines[f]) and lines[f][at].strip() == '{':
            at += 1
        return f, at

    def pad(msg, f):  # the indentation of the line MSG is about ('' in a macro)
        m = DIAG.match(msg)
        about = lines[f][int(m['line']) - 1] if m and m['file'] == f else ''
        return '' if about.endswith('\\') else re.match(r'\s*', about).group()

    starts = [anchor(g[0]) for g in groups]
    inserts = {f: {} for f in texts}  # file -> line -> directives written after it
    for i, (group, (f, at)) in enumerate(zip(groups, starts)):
        # A note goes under its own line when that line comes later in the
        # same file and before any other warning's directives there (they
        # would make it theirs); otherwise with the ones before it.
        nxt = min([a for j, (g, a) in enumerate(starts) if j != i and g == f and a >= at],
                  default=float('inf'))
        chunk = inserts[f].setdefault(at, (pad(group[0], f), []))[1]
        for msg in group:
            nf, nat = anchor(msg)
            if chunk and nf == f and at < nat < nxt:
                at = nat
                chunk = inserts[f].setdefault(at, (pad(msg, f), []))[1]
            chunk.append(msg)

    def final(f, n):  # line n of f once the directives are in
        return n + sum(len(ms) for at, (_, ms) in inserts[f].items() if at < n)

    def directive(msg, f, here):
        m = DIAG.match(msg)
        if not m:
            return msg
        mf, ml = m['file'], int(m['line'])
        if mf == f:
            off = final(f, ml) - here
            where = ':[[@LINE%+d]]' % off if off else ':[[@LINE]]'
        else:
            where = '%s:%d' % (mf, final(mf, ml) if mf in texts else ml)
        return '%s:%s: %s: %s' % (where, m['col'], m['level'], m['text'])

    out = {}
    for f in texts:
        result = []
        for n in range(0, len(lines[f]) + 1):
            if n:
                result.append(lines[f][n - 1])
            indent, msgs = inserts[f].get(n, ('', []))
            for msg in msgs:
                here = len(result) + 1
                result.append('%s// CHECK-MESSAGES: %s' % (indent, directive(msg, f, here)))
        out[f] = '\n'.join(result)
    return out


def case_files(case_path):
    case_dir, case_file = os.path.split(case_path)
    stem = case_file.rsplit('.', 1)[0]
    files = [f for f in sorted(os.listdir(case_dir))
             if f.startswith(stem + '.') and not f.endswith('.fixed')]
    # The main file first: its directives are read first.
    files.remove(case_file)
    return case_dir, case_file, [case_file] + files


def rewrite_messages(case_path, check, opts):
    """--write-messages: the case's directives made anew from the output."""
    case_dir, case_file, sources = case_files(case_path)
    args, options, _ = case_settings(case_path)
    code = [f for f in sources if f.endswith(SOURCE_EXTS)]
    texts = {f: strip_directives(open(os.path.join(case_dir, f)).read()) for f in code}
    with tempfile.TemporaryDirectory(prefix='hotpath-golden-') as work:
        for f in sources:
            shutil.copy(os.path.join(case_dir, f), work)
        for f, t in texts.items():
            with open(os.path.join(work, f), 'w') as out:
                out.write(t)
        messages, proc = run_tidy(opts.tidy, opts.plugin, work, case_file, args,
                                  tidy_config(check, options), fix=False)
    for f, t in write_directives(messages, texts, case_file).items():
        if t != open(os.path.join(case_dir, f)).read():
            with open(os.path.join(case_dir, f), 'w') as out:
                out.write(t)
    # Written all the same (to review), but a run that failed fails the case.
    return run_problems(proc, messages, False)


def run_case(case_path, check, opts):
    tidy, plugin, update = opts.tidy, opts.plugin, opts.update
    failures = []
    case_dir, case_file, sources = case_files(case_path)
    args, options, configs = case_settings(case_path)
    failures += ['%s: no .messages files any more: the expected messages are CHECK-MESSAGES '
                 'directives in the case' % f for f in sources if f.endswith('.messages')]
    expected, errors = read_directives(case_dir, [f for f in sources if f.endswith(SOURCE_EXTS)])
    failures += errors
    with tempfile.TemporaryDirectory(prefix='hotpath-golden-') as work:
        for f in sources:
            shutil.copy(os.path.join(case_dir, f), work)
        config = tidy_config(check, options)
        messages, proc = run_tidy(tidy, plugin, work, case_file, args, config, fix=True)

        if messages != expected:
            diff = difflib.unified_diff(expected, messages, 'expected (CHECK-MESSAGES)',
                                        'clang-tidy', lineterm='', n=2)
            failures.append('messages differ:\n%s\n--- clang-tidy stderr\n%s'
                            % ('\n'.join(diff), proc.stderr))
        fixes_expected = any(os.path.exists(os.path.join(case_dir, f + '.fixed')) for f in sources)
        if update:  # the .fixed files to be are what this run changed
            fixes_expected = any(open(os.path.join(work, f)).read() !=
                                 open(os.path.join(case_dir, f)).read() for f in sources)
        failures += run_problems(proc, messages, fixes_expected)
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

        # The fixed code compiles with no warnings under both compilers, in
        # every configuration the case lists (and so does the original).
        original = os.path.join(work, 'original')
        os.mkdir(original)
        for f in sources:
            shutil.copy(os.path.join(case_dir, f), original)
        for cc, cc_args in compilers_for(case_file, args, opts):
            if not shutil.which(cc):
                failures.append("compiler '%s' not found (scripts/install-deps.sh installs it)"
                                % cc)
                continue
            for flags in configs:
                where = ' with %s' % ' '.join(flags) if flags else ''
                for what, d in (('fixed', work), ('original', original)):
                    if what == 'original' and not flags:
                        continue
                    c = subprocess.run([cc, '-fsyntax-only', '-Wall', '-Wextra', '-Werror'] +
                                       cc_args + flags + ['-I' + d, case_file], cwd=d,
                                       capture_output=True, text=True)
                    if c.returncode != 0:
                        failures.append('%s code does not compile with %s%s:\n%s'
                                        % (what, cc, where, c.stderr))
        shutil.rmtree(original)

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
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument('--update', action='store_true',
                      help='write the .fixed files from the current output (review the diff!)')
    mode.add_argument('--write-messages', action='store_true',
                      help="replace the cases' CHECK-MESSAGES directives with ones made from "
                           'the current output; then --update the .fixed files (review both!)')
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
            failures = (rewrite_messages if opts.write_messages else run_case)(case, check, opts)
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
