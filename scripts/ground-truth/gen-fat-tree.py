#!/usr/bin/env python3
"""Makes a deterministic tree of files with long names, to be copied into a
FAT image (dosfstools.sh: mcopy -s -m into an image mkfs.fat made).

  gen-fat-tree.py TREE_DIR [--dirs 24 --subdirs 8 --files 80]

DIRS top-level directories, each with SUBDIRS subdirectories of FILES
files. The names are long and of mixed case, so that every entry takes
VFAT long-name slots besides its 8.3 alias (what a FAT file system made on
a desktop holds). Sizes 0..12287 bytes, content derived from the path;
every file and directory has the same time stamp (2021-06-01 12:00 UTC), so
that the image mcopy -m makes of it is the same on every machine. Running
it again gives the same tree byte for byte.
"""
import argparse
import importlib.util
import os
import sys

STAMP = 1622548800  # 2021-06-01 12:00:00 UTC

_spec = importlib.util.spec_from_file_location(
    'gen_xfs_proto', os.path.join(os.path.dirname(os.path.abspath(__file__)), 'gen-xfs-proto.py'))
_proto = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_proto)


def content(rel):
    return _proto.content(rel, 12288)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('tree')
    ap.add_argument('--dirs', type=int, default=24)
    ap.add_argument('--subdirs', type=int, default=8)
    ap.add_argument('--files', type=int, default=80)
    a = ap.parse_args()
    tree = os.path.abspath(a.tree)
    nfiles = 0
    dirs = []
    for d in range(a.dirs):
        dn = 'Project Directory %03d' % d
        dirs.append(os.path.join(tree, dn))
        for s in range(a.subdirs):
            sn = 'Section %02d of %s' % (s, dn.split()[-1])
            path = os.path.join(tree, dn, sn)
            dirs.append(path)
            os.makedirs(path, exist_ok=True)
            for f in range(a.files):
                fn = 'Measurement Report %04d (%s-%s).txt' % (f, dn[-3:], sn[8:10])
                rel = '%s/%s/%s' % (dn, sn, fn)
                full = os.path.join(path, fn)
                data = content(rel)
                if not os.path.exists(full) or os.path.getsize(full) != len(data):
                    with open(full, 'wb') as fh:
                        fh.write(data)
                os.utime(full, (STAMP, STAMP))
                nfiles += 1
    for d in reversed(dirs):
        os.utime(d, (STAMP, STAMP))
    print('%d files, %d directories' % (nfiles, len(dirs)), file=sys.stderr)


if __name__ == '__main__':
    main()
