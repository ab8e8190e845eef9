#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""stage_extra_modules.py EXTRA_DIR ISO_MODULES_DIR [OBJDIR...]

make run EXTRA_MODULES=dir (Documentation/modules.rst): puts the .ko files
that "make M=dir modules" built into OBJDIR (listed in OBJDIR/.modules)
into EXTRA_DIR, named after the module and without debug sections, for
scripts/mkiso.sh to carry beside the in-tree modules of ISO_MODULES_DIR, so
that insmod finds them by name. EXTRA_DIR holds nothing else: what an
earlier run put there goes first. EXTRA_DIR/.extra (each module's name and
SHA-1) changes only when what is staged does, so the ISO is rebuilt only
then. A name the ISO carries already (an in-tree module, or two extra
directories with one name) stops it with one line.
"""
import hashlib
import subprocess
import sys
from pathlib import Path


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__.splitlines()[0])
    extra, iso = Path(argv[1]), Path(argv[2])
    extra.mkdir(parents=True, exist_ok=True)
    for old in extra.glob('*.ko'):
        old.unlink()
    stamp = []
    for objdir in map(Path, argv[3:]):
        listing = objdir / '.modules'
        if not listing.exists():
            sys.exit(f'EXTRA_MODULES: {objdir}: no .modules: '
                     '"make M=dir modules" has not built it')
        for ko in map(Path, listing.read_text().split()):
            name = ko.stem.replace('-', '_')
            dest = extra / f'{name}.ko'
            if (iso / dest.name).exists() or dest.exists():
                sys.exit(f'EXTRA_MODULES: {ko}: the ISO carries a module '
                         f'named {name} already')
            subprocess.run(['objcopy', '--strip-debug', str(ko), str(dest)],
                           check=True)
            stamp.append(f'{name} {hashlib.sha1(dest.read_bytes()).hexdigest()}\n')
    text = ''.join(stamp)
    listing = extra / '.extra'
    if not listing.exists() or listing.read_text() != text:
        listing.write_text(text)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
