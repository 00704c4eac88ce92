#!/usr/bin/env python3
"""Checks the compiled fast path of a function in a linked binary.

  fastpath.py BINARY FUNC [--baseline BINARY2 --plus K | --branches N]
              [--slow NAME]... [--forbid NAME]... [--no-frame]

The fast path of FUNC is FUNC's own code plus every function it calls or
jumps to directly, transitively, except the slow paths named with --slow (the
cold functions a fix is meant to call, e.g. check_report), GCC's split-off
"FUNC.cold" parts and PLT stubs (library code). Following the calls is the
point: an accessor that still calls a check function out of line has the
check's branches on its path, so "one conditional branch more than the build
without the check" fails for it, where counting the accessor alone would not
(the call's return value is tested by one branch too).

Fails (exit 1, the reason on stdout) when:
  * the conditional branches on the path are not N, or not K more than on the
    same path in BINARY2 (the build without the check or hook);
  * an instruction on the path calls or jumps to a --forbid function (also its
    GCC clones, NAME.part.0, NAME.constprop.0, ...);
  * --no-frame and FUNC's entry block pushes a register or moves the stack
    pointer (a call left on the fast path makes the compiler keep a frame).

A linked binary, not an object file: in a .o a call into another file shows
as "call 17 <get_u8+0x17>", and a check on the callee's name cannot fail.
Exit 2 when FUNC is not in the binary or objdump fails.
"""
import argparse
import re
import subprocess
import sys

HEADER = re.compile(r'^[0-9a-f]+ <(?P<name>[^>]+)>:$')
# "  401136:\tcall   401200 <check_bounds>" (--no-show-raw-insn)
INSN = re.compile(r'^\s*[0-9a-f]+:\t(?P<text>.*)$')
TARGET = re.compile(r'<(?P<sym>[^>+]+)(\+0x[0-9a-f]+)?>\s*$')
PREFIXES = {'bnd', 'notrack', 'ds', 'cs', 'rep', 'repz', 'repnz'}


def disassemble(binary):
    p = subprocess.run(['objdump', '-d', '--no-show-raw-insn', binary],
                       capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit('fastpath: objdump failed on %s: %s' % (binary, p.stderr.strip()))
    funcs, cur = {}, None
    for line in p.stdout.splitlines():
        m = HEADER.match(line)
        if m:
            cur = funcs.setdefault(m['name'], [])
            continue
        m = INSN.match(line)
        if m and cur is not None:
            words = m['text'].split()
            while words and words[0] in PREFIXES:
                words = words[1:]
            if not words:
                continue
            t = TARGET.search(m['text'])
            cur.append((words[0], t['sym'] if t else None, m['text']))
    return funcs


def is_cond_branch(mnemonic):
    return mnemonic.startswith('j') and not mnemonic.startswith('jmp')


def is_transfer(mnemonic):
    return mnemonic.startswith(('call', 'jmp')) or is_cond_branch(mnemonic)


def matches(sym, names):
    return any(sym == n or sym.startswith(n + '.') for n in names)


def walk(funcs, func, slow):
    """The functions on FUNC's fast path, in visit order, and the transfers
    (caller, instruction text, target) found on it."""
    order, transfers, todo = [], [], [func]
    while todo:
        f = todo.pop(0)
        if f in order:
            continue
        order.append(f)
        for mnemonic, sym, text in funcs[f]:
            if not sym or not is_transfer(mnemonic) or sym == f:
                continue
            transfers.append((f, text, sym))
            if (sym in funcs and '@' not in sym and not sym.endswith('.cold') and
                    '.cold.' not in sym and not matches(sym, slow)):
                todo.append(sym)
    return order, transfers


def branches(funcs, order):
    per = [(f, sum(1 for m, _, _ in funcs[f] if is_cond_branch(m))) for f in order]
    return sum(n for _, n in per), ' + '.join('%s %d' % fn for fn in per)


def entry_frame(insns):
    for mnemonic, _, text in insns:
        if mnemonic.startswith('push') or (mnemonic.startswith('sub') and '%rsp' in text):
            return text
        if mnemonic.startswith(('j', 'ret')):
            return None
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('binary')
    ap.add_argument('func')
    ap.add_argument('--branches', type=int, help='conditional branches the path must have')
    ap.add_argument('--baseline', help='the build without the check: its path + PLUS branches')
    ap.add_argument('--plus', type=int, default=1)
    ap.add_argument('--slow', action='append', default=[], metavar='NAME',
                    help='a slow-path function: not followed')
    ap.add_argument('--forbid', action='append', default=[], metavar='NAME',
                    help='a function the fast path must not call or jump to')
    ap.add_argument('--no-frame', action='store_true')
    opts = ap.parse_args()

    funcs = disassemble(opts.binary)
    if opts.func not in funcs:
        print('fastpath: %s is not in %s' % (opts.func, opts.binary))
        return 2
    order, transfers = walk(funcs, opts.func, opts.slow)
    n, detail = branches(funcs, order)
    problems = []
    want = opts.branches
    if opts.baseline:
        base = disassemble(opts.baseline)
        if opts.func not in base:
            print('fastpath: %s is not in %s' % (opts.func, opts.baseline))
            return 2
        bn, bdetail = branches(base, walk(base, opts.func, opts.slow)[0])
        want = bn + opts.plus
        detail += '; baseline %s' % bdetail
    if want is not None and n != want:
        problems.append('%d conditional branches on the fast path, wanted %d' % (n, want))
    for caller, text, sym in transfers:
        if matches(sym, opts.forbid):
            problems.append('%s: "%s" reaches %s' % (caller, ' '.join(text.split()), sym))
    if opts.no_frame:
        frame = entry_frame(funcs[opts.func])
        if frame:
            problems.append('entry block keeps a stack frame ("%s")' % ' '.join(frame.split()))
    verdict = 'FAIL' if problems else 'ok'
    print('%s %s: %s (%s)' % (verdict, opts.func, '; '.join(problems) or '%d branches' % n,
                              detail))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
