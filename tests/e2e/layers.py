#!/usr/bin/env python3
"""The layers of plugin/ (docs/architecture.md), read from the includes.

Each file of plugin/<layer>/ may include only files of its own layer and of
the layers below it. Prints the include counts between layers (a matrix,
rows including columns) and exits 1, naming each offending include, when a
file includes a file of a higher layer, or a layer directory is not in the
list (a new directory must be given its place).

  tests/e2e/layers.py plugin
"""
import os
import re
import sys

# Lowest first. The top-level files (the module, the loader, main) and the
# driver sit above every layer of the module.
LAYERS = ['support', 'source', 'analysis', 'index', 'heat', 'rewrite', 'core', 'checks',
          'driver', '(top)']
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def layer_of(path, root):
    rel = os.path.relpath(path, root)
    return rel.split(os.sep)[0] if os.sep in rel else '(top)'


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else 'plugin'
    counts = {}
    bad = []
    for dirpath, _, files in os.walk(root):
        for f in sorted(files):
            if not f.endswith(('.h', '.cpp', '.def', '.inc')):
                continue
            path = os.path.join(dirpath, f)
            frm = layer_of(path, root)
            if frm not in LAYERS:
                bad.append(f'{path}: directory {frm!r} is not a layer of docs/architecture.md')
                continue
            for n, line in enumerate(open(path, errors='replace'), 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                inc = m.group(1)
                head = inc.split('/')[0] if '/' in inc else None
                if head in LAYERS:
                    to = head
                elif os.path.exists(os.path.join(dirpath, inc)):
                    to = frm  # beside it
                else:
                    continue  # generated (Presets.inc, RuleHelp.inc) or a system include
                counts[(frm, to)] = counts.get((frm, to), 0) + 1
                if LAYERS.index(to) > LAYERS.index(frm):
                    bad.append(f'{path}:{n}: {frm}/ includes "{inc}" of the higher layer {to}/')
    width = max(len(l) for l in LAYERS)
    print('includes (row includes column):')
    print(' ' * (width + 1) + ' '.join(f'{l[:8]:>8}' for l in LAYERS))
    for r in LAYERS:
        print(f'{r:>{width}} ' + ' '.join(f'{counts.get((r, c), 0) or "":>8}' for c in LAYERS))
    for b in bad:
        print('FAIL ' + b)
    print('upward includes:', len(bad))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
