#!/usr/bin/env python3
"""Makes a deterministic populated prototype tree and an mkfs.xfs protofile
describing it (mkfs/proto.c syntax, see mkfs.xfs(8) -p).

  gen-xfs-proto.py TREE_DIR PROTOFILE [--dirs 40 --subdirs 10 --files 175]

The tree: DIRS top-level directories, each with SUBDIRS subdirectories of
FILES small regular files (0..1023 bytes, content derived from the path), plus
one symlink per subdirectory. Defaults: 40*10*175 = 70,000 files, 440
directories, 400 symlinks. Running it again with the same arguments gives the
same tree and the same protofile byte for byte. The protofile names the
files by TREE_DIR as given (relative paths stay relative: run mkfs.xfs from
the same directory).
"""
import argparse
import hashlib
import os
import sys


def content(rel, limit=1024):
    """Bytes derived from the path REL, 0..LIMIT-1 of them (gen-fat-tree.py
    uses it too)."""
    h = hashlib.sha256(rel.encode()).digest()
    size = int.from_bytes(h[:2], 'little') % limit
    line = (rel + ' ' + h.hex() + '\n').encode()
    return (line * (size // len(line) + 1))[:size]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('tree')
    ap.add_argument('proto')
    ap.add_argument('--dirs', type=int, default=40)
    ap.add_argument('--subdirs', type=int, default=10)
    ap.add_argument('--files', type=int, default=175)
    a = ap.parse_args()
    tree = os.path.abspath(a.tree)
    os.makedirs(tree, exist_ok=True)
    out = ['gt-proto', '0 0', 'd--755 0 0']
    nfiles = 0
    for d in range(a.dirs):
        dn = 'dir%03d' % d
        out.append('%s d--755 0 0' % dn)
        for s in range(a.subdirs):
            sn = 'sub%02d' % s
            out.append(' %s d--750 %d %d' % (sn, 1000 + s, 1000 + d))
            path = os.path.join(tree, dn, sn)
            os.makedirs(path, exist_ok=True)
            for f in range(a.files):
                fn = 'file%04d.dat' % f
                rel = '%s/%s/%s' % (dn, sn, fn)
                full = os.path.join(path, fn)
                data = content(rel)
                if not os.path.exists(full) or os.path.getsize(full) != len(data):
                    with open(full, 'wb') as fh:
                        fh.write(data)
                mode = '---644' if f % 7 else '---600'
                out.append('  %s %s %d %d %s' % (fn, mode, 1000 + s, 1000 + d,
                                                 os.path.join(a.tree, rel)))
                nfiles += 1
            out.append('  link l--777 0 0 ../%s/file0000.dat' % sn)
            out.append(' $')
        out.append('$')
    out.append('$')
    with open(a.proto, 'w') as fh:
        fh.write('\n'.join(out) + '\n')
    print('%d files, %d directories, %d symlinks' % (
        nfiles, a.dirs * (a.subdirs + 1), a.dirs * a.subdirs), file=sys.stderr)


if __name__ == '__main__':
    main()
