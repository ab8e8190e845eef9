#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""mkinitramfs.py OUT [--modules DIR]... [--cache DIR] [PROGRAM...]

The boot archive scripts/mkiso.sh puts on the ISO, which GRUB hands over as
one blob and kernel/module/initramfs.c reads in place: a cpio archive of
Linux's "newc" format. Every DIR/<name>.ko of --modules (in the byte order
of the names; a later DIR's file replaces an earlier one of that name) is
the entry <name>, its data 8-byte aligned for the module loader (the name
is padded with NULs to get there); each PROGRAM file is the entry
/bin/<its name>, gzip-packed (the kernel unpacks it when it first runs it;
with --cache the packed copy is kept in DIR for the next archive; a later
PROGRAM of a name replaces an earlier one). `mkinitramfs.py --list ARCHIVE` prints each entry's name, size
and whether it is packed.
"""
import gzip
import hashlib
import os
import sys
from pathlib import Path

MAGIC = b'070701'
HEADER = 110
MODE_FILE = 0o100644
MODE_PROG = 0o100755


def _pad4(n):
    return (4 - n % 4) % 4


def entry(offset, name, mode, data, ino, align=4):
    """One newc entry at offset, its data aligned to align bytes."""
    raw = name.encode() + b'\0'
    # The data starts at the first multiple of 4 after header and name:
    # more NULs after the name move it to a multiple of align.
    while (offset + HEADER + len(raw)) % align:
        raw += b'\0'
    fields = [ino, mode, 0, 0, 1, 0, len(data), 0, 0, 0, 0, len(raw), 0]
    head = MAGIC + b''.join(b'%08x' % f for f in fields)
    out = head + raw + b'\0' * _pad4(HEADER + len(raw))
    return out + data + b'\0' * _pad4(len(data))


def archive(modules, programs):
    """modules: (name, bytes); programs: (name, bytes), packed here."""
    out = bytearray()
    ino = 1
    for name, data in modules:
        out += entry(len(out), name, MODE_FILE, data, ino, align=8)
        ino += 1
    for name, packed in programs:
        out += entry(len(out), f'/bin/{name}', MODE_PROG, packed, ino)
        ino += 1
    out += entry(len(out), 'TRAILER!!!', 0, b'', 0)
    return bytes(out)


def read_archive(data):
    """(name, offset of the data, data) of each entry before the trailer."""
    entries, off = [], 0
    while True:
        if data[off:off + 6] != MAGIC:
            raise ValueError(f'offset {off}: no newc magic')
        fields = [int(data[off + 6 + 8 * i:off + 14 + 8 * i], 16)
                  for i in range(13)]
        size, namesize = fields[6], fields[11]
        name = data[off + HEADER:off + HEADER + namesize].split(b'\0')[0]
        start = off + HEADER + namesize
        start += _pad4(start)
        if name == b'TRAILER!!!':
            return entries
        entries.append((name.decode(), start, data[start:start + size]))
        off = start + size + _pad4(size)


def collect(module_dirs, programs, cache=None):
    mods = {}
    for d in module_dirs:
        if d and Path(d).is_dir():
            for path in Path(d).glob('*.ko'):
                if path.is_file():
                    mods[path.stem] = path.read_bytes()
    progs = {}
    for name in programs:
        path = Path(name)
        if not path.is_file():
            sys.exit(f'mkinitramfs.py: {name}: no such program file')
        progs[path.name] = packed(path, cache)
    return (sorted(mods.items(), key=lambda m: m[0].encode()),
            sorted(progs.items(), key=lambda p: p[0].encode()))


def packed(path, cache_dir=None):
    """The gzip member of a program; with cache_dir, kept there while the
    program is older (make test packs each program once, not per ISO)."""
    cache = None
    if cache_dir:
        key = hashlib.sha1(str(path.resolve()).encode()).hexdigest()[:12]
        cache = Path(cache_dir) / f'{path.name}-{key}.gz'
        try:
            if cache.stat().st_mtime_ns >= path.stat().st_mtime_ns:
                return cache.read_bytes()
        except OSError:
            pass
    data = gzip.compress(path.read_bytes(), 6, mtime=0)
    if cache:
        try:
            cache.parent.mkdir(parents=True, exist_ok=True)
            tmp = cache.with_name(f'{cache.name}.{os.getpid()}')
            tmp.write_bytes(data)
            tmp.replace(cache)
        except OSError:
            pass        # no room: packed again next time
    return data


def main(argv):
    if len(argv) == 2 and argv[0] == '--list':
        for name, start, data in read_archive(Path(argv[1]).read_bytes()):
            packed = ' (gzip)' if data[:2] == b'\x1f\x8b' else ''
            print(f'{name} {len(data)}{packed} at {start}')
        return 0
    if not argv or argv[0].startswith('-'):
        sys.exit(__doc__.splitlines()[0])
    out, module_dirs, cache, programs = argv[0], [], None, []
    rest = argv[1:]
    while rest:
        if rest[0] in ('--modules', '--cache') and len(rest) > 1:
            if rest[0] == '--modules':
                module_dirs.append(rest[1])
            else:
                cache = rest[1]
            rest = rest[2:]
        elif rest[0].startswith('--'):
            sys.exit(f'mkinitramfs.py: unknown option {rest[0]}\n'
                     + __doc__.splitlines()[0])
        else:
            programs.append(rest[0])
            rest = rest[1:]
    mods, progs = collect(module_dirs, programs, cache)
    Path(out).write_bytes(archive(mods, progs))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
