#!/usr/bin/env python3
"""Generates differential-test inputs for samples/extent-buffer: get/set ops of
every width at random offsets, a share of them out of bounds (past eb->len,
straddling it, and near UINT_MAX so a wrapping sum would be caught)."""
import random
import sys

EB_LEN = 4096
seed = int(sys.argv[1]) if len(sys.argv) > 1 else 1
count = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
rng = random.Random(seed)
for _ in range(count):
    width = rng.choice([8, 16, 32, 64])
    kind = rng.random()
    if kind < 0.7:
        off = rng.randrange(0, EB_LEN - width // 8 + 1)           # in bounds
    elif kind < 0.85:
        off = rng.randrange(EB_LEN - width // 8 + 1, EB_LEN + 8)  # straddles or past the end
    elif kind < 0.95:
        off = rng.randrange(EB_LEN, 1 << 31)                       # far out
    else:
        off = (1 << 32) - rng.randrange(1, 9)                      # would wrap in 32 bits
    if rng.random() < 0.5:
        print('get %d %d' % (width, off))
    else:
        print('set %d %d %d' % (width, off, rng.randrange(0, 1 << width)))
