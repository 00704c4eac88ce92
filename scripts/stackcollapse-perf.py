#!/usr/bin/env python3
"""Folds `perf script` output into one "frame;frame;... count" line per
distinct stack, outermost frame first (the format of FlameGraph's
stackcollapse-perf.pl, which Debian does not package).

  perf script -i perf.data | scripts/stackcollapse-perf.py > folded.txt
"""
import collections
import re
import sys

FRAME = re.compile(r'^\s+[0-9a-f]+\s+(?P<sym>\S.*?)\s+\((?P<obj>[^)]*)\)\s*$')


def main():
    stacks = collections.Counter()
    frames = []
    for line in sys.stdin:
        if not line.strip():
            if frames:
                stacks[';'.join(reversed(frames))] += 1
            frames = []
            continue
        m = FRAME.match(line)
        if m:
            sym = re.sub(r'\+0x[0-9a-f]+$', '', m['sym'])
            frames.append('[unknown]' if sym == '[unknown]' else sym)
    if frames:
        stacks[';'.join(reversed(frames))] += 1
    for stack, count in sorted(stacks.items()):
        print('%s %d' % (stack, count))


if __name__ == '__main__':
    main()
