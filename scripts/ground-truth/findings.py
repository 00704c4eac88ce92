#!/usr/bin/env python3
"""The findings in a hotpath-tidy text output, one per line.

  findings.py OUTPUT TREE            # "FILE:LINE CHECK SUBJECT", FILE relative to TREE
  findings.py OUTPUT TREE --has NAME # exit 0 when some finding's subject is NAME

A finding is a `FILE:LINE:COL: warning: MESSAGE [hotpath-CHECK]` line (the
format clang-tidy prints and scripts/precision.py reads); its subject is the
first quoted name of the message (the function, macro or hook it is about).
A header finding reported from several TUs is listed once. Lines are sorted,
so that two runs of the same tool give the same file byte for byte.
"""
import argparse
import os
import re
import sys

FINDING = re.compile(r'^(?P<file>[^:\s][^:]*):(?P<line>\d+):(?P<col>\d+): warning: '
                     r'(?P<msg>.*) \[(?P<check>hotpath-[a-z-]+)\]$')
NAME = re.compile(r"'([A-Za-z_][A-Za-z0-9_:]*)'")


def findings(text, tree):
    seen = set()
    for line in text.splitlines():
        m = FINDING.match(line)
        if not m:
            continue
        path = m['file']
        if os.path.isabs(path) and tree:
            path = os.path.relpath(path, tree)
        names = NAME.findall(m['msg'])
        seen.add((path, int(m['line']), m['check'], names[0] if names else '-'))
    return sorted(seen)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('output')
    ap.add_argument('tree')
    ap.add_argument('--has', metavar='NAME')
    opts = ap.parse_args()
    with open(opts.output, errors='replace') as f:
        found = findings(f.read(), os.path.abspath(opts.tree))
    if opts.has:
        return 0 if any(f[3] == opts.has for f in found) else 1
    for path, line, check, subject in found:
        print('%s:%d %s %s' % (path, line, check, subject))
    return 0


if __name__ == '__main__':
    sys.exit(main())
