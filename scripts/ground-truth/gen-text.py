#!/usr/bin/env python3
"""Writes SIZE_MB of deterministic, compressible, text-like data.

  gen-text.py OUT [--mb 60]

Lines of words drawn from a fixed vocabulary by a seeded generator, with
numbers mixed in (about 3:1 with zstd -3). Same arguments, same bytes.
"""
import argparse
import random


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('out')
    ap.add_argument('--mb', type=int, default=60)
    a = ap.parse_args()
    rnd = random.Random(23)
    vocab = [''.join(rnd.choice('abcdefghijklmnopqrstuvwxyz') for _ in range(rnd.randint(2, 10)))
             for _ in range(5000)]
    weights = [1.0 / (i + 1) for i in range(len(vocab))]
    target = a.mb * 1024 * 1024
    written = 0
    with open(a.out, 'w') as f:
        while written < target:
            words = rnd.choices(vocab, weights, k=4096)
            chunk = []
            for i, w in enumerate(words):
                chunk.append(w)
                chunk.append('\n' if i % 12 == 11 else (' %d ' % rnd.randint(0, 99999) if i % 9 == 4 else ' '))
            s = ''.join(chunk)
            if written + len(s) > target:
                s = s[:target - written]
            f.write(s)
            written += len(s)


if __name__ == '__main__':
    main()
