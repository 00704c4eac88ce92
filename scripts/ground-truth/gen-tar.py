#!/usr/bin/env python3
"""Writes a deterministic ustar archive with many small entries.

  gen-tar.py OUT.tar [--dirs 110 --files 1000]

DIRS directories of FILES regular files each (0..511 bytes, content derived
from the name), fixed owner/group names and ids, fixed mtimes: by default
110 + 110*1000 = 110,110 entries. Same arguments, same bytes.
"""
import argparse
import hashlib
import io
import tarfile


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('out')
    ap.add_argument('--dirs', type=int, default=110)
    ap.add_argument('--files', type=int, default=1000)
    a = ap.parse_args()
    n = 0
    with tarfile.open(a.out, 'w', format=tarfile.USTAR_FORMAT) as tar:
        for d in range(a.dirs):
            dn = 'tree/d%03d' % d
            ti = tarfile.TarInfo(dn)
            ti.type = tarfile.DIRTYPE
            ti.mode, ti.mtime = 0o755, 1600000000 + d
            ti.uid, ti.gid, ti.uname, ti.gname = 1000, 1000, 'user', 'group'
            tar.addfile(ti)
            n += 1
            for f in range(a.files):
                name = '%s/f%05d.txt' % (dn, f)
                h = hashlib.sha256(name.encode()).digest()
                size = int.from_bytes(h[:2], 'little') % 512
                line = (name + ' ' + h.hex() + '\n').encode()
                data = (line * (size // len(line) + 1))[:size]
                ti = tarfile.TarInfo(name)
                ti.size = len(data)
                ti.mode = 0o644 if f % 5 else 0o600
                ti.mtime = 1600000000 + d * 1000 + f
                ti.uid, ti.gid = 1000 + f % 3, 1000 + d % 4
                ti.uname, ti.gname = 'user%d' % (f % 3), 'group%d' % (d % 4)
                tar.addfile(ti, io.BytesIO(data))
                n += 1
    print('%d entries' % n)


if __name__ == '__main__':
    main()
