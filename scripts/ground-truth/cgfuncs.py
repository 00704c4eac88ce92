#!/usr/bin/env python3
"""Per-function and per-line figures of a callgrind.out file, for writing a
ground truth (docs/ground-truth/*.md).

  cgfuncs.py CGOUT [--min 0.1]          # every function at >= MIN% inclusive:
                                        # inclusive, share, calls, self, self a call
  cgfuncs.py CGOUT --lines FUNC [--src DIR]
                                        # FUNC's own source lines that ran: Ir,
                                        # conditional jumps (taken/executed) and
                                        # the source text (read under DIR)

Reads the file the way callgrind writes it (docs of valgrind, "Callgrind
Format Specification"): name compression of ob/fl/fi/fe/fn/cfn, subposition
compression (+N, -N, *), `positions: instr line` (--dump-instr=yes) or
`line`, calls= lines whose next cost line is the callee's inclusive cost,
and jcnd=TAKEN/EXECUTED lines (--collect-jumps=yes) whose next position line
is the jump's own. A function's inclusive cost is its self cost plus the
inclusive cost of its calls (recursive calls counted again, as
callgrind_annotate --inclusive=yes does); its calls are the calls= counts of
every arc into it. Names compare without gcc's clone suffixes
(.isra.0, .constprop.0, .part.0, .lto_priv.0, .cold).
"""
import argparse
import collections
import os
import re
import sys

CLONE = re.compile(r'(\.(isra|constprop|part|lto_priv|cold|localalias)(\.\d+)?)+$')


def base(name):
    return CLONE.sub('', name)


def parse(path):
    names = {}  # (kind, id) -> name; fl/fi/fe/cfi/cfl share 'file'

    def name(kind, tok):
        m = re.match(r'\((\d+)\)(?: (.*))?$', tok)
        if not m:
            return tok
        key = (kind, m.group(1))
        if m.group(2) is not None:
            names[key] = m.group(2)
        return names.get(key, tok)

    npos = 1
    self_ir = collections.Counter()
    incl_calls = collections.Counter()  # caller fn -> inclusive cost of its calls
    calls_into = collections.Counter()
    line_ir = collections.defaultdict(collections.Counter)  # fn -> (file, line) -> Ir
    line_jcnd = collections.defaultdict(lambda: collections.defaultdict(lambda: [0, 0]))
    entry = {}  # fn -> (lowest instruction address, file, line) of its own code
    total = 0
    fn = fl = fi = None
    last = [0, 0]
    pending = None  # ('call', callee, count) or ('jcnd', taken, executed)

    def pos(fields):
        out = []
        for i, f in enumerate(fields):
            if f == '*':
                v = last[i]
            elif f[0] in '+-':
                v = last[i] + int(f, 0)
            else:
                v = int(f, 0)
            out.append(v)
        for i, v in enumerate(out):
            last[i] = v
        return out

    with open(path, errors='replace') as f:
        for raw in f:
            line = raw.rstrip('\n')
            if not line or line.startswith('#'):
                continue
            c = line[0]
            if c.isdigit() or c in '+-*':
                parts = line.split()
                p = pos(parts[:npos])
                cost = int(parts[npos]) if len(parts) > npos else 0
                src = (fi or fl, p[-1])
                if pending and pending[0] == 'call':
                    incl_calls[fn] += cost
                    pending = None
                    continue
                if pending and pending[0] == 'jcnd':
                    j = line_jcnd[fn][src]
                    j[0] += pending[1]; j[1] += pending[2]
                    pending = None
                    if len(parts) == npos:
                        continue
                self_ir[fn] += cost
                line_ir[fn][src] += cost
                if npos == 2 and fi is None and (fn not in entry or p[0] < entry[fn][0]):
                    entry[fn] = (p[0], fl, p[1])
                continue
            key, _, val = line.partition('=')
            if key == 'positions' or line.startswith('positions:'):
                npos = len(line.split(':', 1)[1].split())
                last = [0] * npos
            elif line.startswith('summary:') or line.startswith('totals:'):
                total = max(total, int(line.split(':', 1)[1].split()[0]))
            elif key == 'fl':
                fl = name('file', val); fi = None
            elif key in ('fi', 'fe'):
                fi = name('file', val)
                if fi == fl:
                    fi = None
            elif key == 'fn':
                fn = name('fn', val); fi = None
            elif key == 'cfn':
                callee = name('fn', val)
            elif key in ('cfi', 'cfl'):
                name('file', val)
            elif key in ('ob', 'cob'):
                name('ob', val)
            elif key == 'calls':
                n = int(val.split()[0])
                calls_into[callee] += n
                pending = ('call', callee, n)
            elif key == 'jcnd':
                t, e = val.split()[0].split('/')
                pending = ('jcnd', int(t), int(e))
            elif key == 'jump':
                pending = ('jump',)
    return total, self_ir, incl_calls, calls_into, line_ir, line_jcnd, entry


def merged(total, self_ir, incl_calls, calls_into):
    """Figures per function name with clone suffixes merged."""
    fig = collections.defaultdict(lambda: [0, 0, 0])  # self, inclusive, calls
    for fn in set(self_ir) | set(incl_calls) | set(calls_into):
        if fn is None:
            continue
        b = base(fn)
        fig[b][0] += self_ir.get(fn, 0)
        fig[b][1] += self_ir.get(fn, 0) + incl_calls.get(fn, 0)
        fig[b][2] += calls_into.get(fn, 0)
    return fig


def source_lines(path, src):
    """The lines of a file callgrind names. With -ffile-prefix-map the debug
    info names it relative to the build directory, joined to a relative
    compile directory ("./src/./src/fat.c" for src/fat.c): the longest tail
    of the name that exists under SRC is taken."""
    parts = [p for p in path.split('/') if p not in ('', '.')]
    cands = [path] if os.path.isabs(path) else []
    cands += [os.path.join(src, *parts[i:]) for i in range(len(parts))]
    for c in cands:
        if os.path.isfile(c):
            with open(c, errors='replace') as f:
                return f.read().splitlines()
    return []


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('cgout')
    ap.add_argument('--min', type=float, default=0.1, help='inclusive share, percent')
    ap.add_argument('--lines', metavar='FUNC')
    ap.add_argument('--src', default='.', help='where the source files are read')
    opts = ap.parse_args()
    total, self_ir, incl_calls, calls_into, line_ir, line_jcnd, entry = parse(opts.cgout)
    if not total:
        sys.exit('%s: no summary/totals line: not a callgrind.out file' % opts.cgout)
    if opts.lines:
        fns = [fn for fn in line_ir if fn and base(fn) == opts.lines]
        if not fns:
            sys.exit('%s: no function %s ran' % (opts.cgout, opts.lines))
        fig = merged(total, self_ir, incl_calls, calls_into)[opts.lines]
        print('%s: self %d, inclusive %d (%.3f%%), calls %d' % (
            opts.lines, fig[0], fig[1], 100.0 * fig[1] / total, fig[2]))
        rows = collections.Counter()
        jc = collections.defaultdict(lambda: [0, 0])
        for fn in fns:
            rows.update(line_ir[fn])
            for k, (t, e) in line_jcnd[fn].items():
                jc[k][0] += t; jc[k][1] += e
        # By its source lines: the copies the compiler inlined into callers
        # count too. Its lines: from the line of its entry instruction (its
        # opening line; with --dump-instr=yes) to the last line of its own
        # file that ran in it, so that static helpers inlined into it from
        # above are not counted as its own.
        own = collections.Counter()
        for (path, ln), v in rows.items():
            own[path] += v
        home = own.most_common(1)[0][0]
        lines = [ln for (path, ln) in rows if path == home]
        lo, hi = min(lines), max(lines)
        starts = [entry[fn] for fn in fns if fn in entry and entry[fn][1] == home]
        if starts:
            lo = min(starts)[2]
        own[home] = sum(v for (path, ln), v in rows.items() if path == home and lo <= ln <= hi)
        inlined = collections.Counter()
        for fn, r in line_ir.items():
            if fn in fns:
                continue
            for (path, ln), v in r.items():
                if path == home and lo <= ln <= hi:
                    inlined[fn] += v
        print('by its source lines (%s:%d-%d): %d Ir (%.3f%%); inlined copies: %s' % (
            os.path.basename(home), lo, hi, own[home] + sum(inlined.values()),
            100.0 * (own[home] + sum(inlined.values())) / total,
            ', '.join('%s %d' % kv for kv in inlined.most_common()) or 'none'))
        cache = {}
        for (path, ln) in sorted(set(rows) | set(jc), key=lambda k: (str(k[0]), k[1])):
            if path not in cache:
                cache[path] = source_lines(path, opts.src)
            text = cache[path][ln - 1].strip() if 0 < ln <= len(cache[path]) else '?'
            j = jc.get((path, ln))
            jt = '%d/%d' % tuple(j) if j else ''
            print('%-28s %12d  %-19s %s' % ('%s:%d' % (os.path.basename(path), ln),
                                             rows.get((path, ln), 0), jt, text[:100]))
        return 0
    fig = merged(total, self_ir, incl_calls, calls_into)
    print('total Ir %d; functions at >= %.2f%% inclusive' % (total, opts.min))
    print('%14s %8s %12s %14s %9s  %s' % ('inclusive', 'share', 'calls', 'self', 'self/call', 'function'))
    for fnname, (s, inc, n) in sorted(fig.items(), key=lambda kv: -kv[1][1]):
        if 100.0 * inc / total < opts.min:
            continue
        print('%14d %7.3f%% %12d %14d %9s  %s' % (inc, 100.0 * inc / total, n, s,
                                                 '%.1f' % (s / n) if n else '-', fnname))
    return 0


if __name__ == '__main__':
    sys.exit(main())
