#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""seed_build.py SRC DST: starts the build directory DST as a copy of SRC.

A build of another configuration in DST then recompiles only what that
configuration changes, as an incremental build in SRC would: kconfig's
per-symbol stamps (include/config/sym) say which symbols changed, the
objects' dependency files which objects read them, the .mode files which
objects moved between the kernel and a module. make test builds its
variant kernels so (tests/plan.json's "build_from"): the configurations
that add a test suite or two recompile a few objects, not three hundred.

The copy keeps every file's times (make compares them; the DWARF CRC
caches of scripts/symversions.py check them) and leaves out what is not
the build (ISOs, boot logs, the ISO directories of runs) and the module
directories the ISO takes whole, which make fills again. The text files
that name SRC (dependency files, object lists) are rewritten to name DST,
so that DST's rules depend on DST's files; binaries keep SRC's name in
their debug information, which nothing reads back.

DST that already holds a configured build is left as it is (it builds
incrementally itself); so is a DST when SRC holds no build. Exit status 0,
or 1 with a line on stderr when the copy fails.
"""
import os
import re
import shutil
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
# What a build directory holds that is not the build: boot media and logs.
SKIP_FILES = {'kernel.iso', 'kernel.iso.log', 'build.log', 'run.log',
              'serial.log', 'qemu-stderr.log'}
# Directories make fills from what the configuration builds, whatever else
# is there: the ISO carries every blob of iso-modules and extra-modules,
# so one of SRC's modules this configuration does not build would boot.
SKIP_DIRS = {'isoroot', 'iso-modules', 'extra-modules'}
TEXT_LIMIT = 8 << 20            # larger files are never dependency lists


def configured(d):
    return (d / 'include' / 'config' / 'auto.conf').is_file()


def ignore(src_root):
    def skip(dirpath, names):
        here = Path(dirpath)
        out = {n for n in names if n in SKIP_FILES}
        if here != src_root:
            return out | {n for n in names if n == 'isoroot'}
        out |= {n for n in names if n in SKIP_DIRS}
        # The top directory's subdirectories that are ISO directories of
        # runs (ISO_DIR=$(O)/name): a kernel.iso or an isoroot inside.
        for n in names:
            sub = here / n
            if sub.is_dir() and ((sub / 'kernel.iso').exists() or
                                 (sub / 'isoroot').exists()):
                out.add(n)
        return out
    return skip


def spellings(path):
    """The ways the build's files name path: relative to the tree when it
    is inside it (make's normalised O=), and absolute."""
    path = path.resolve()
    out = [str(path)]
    try:
        out.insert(0, str(path.relative_to(REPO)))
    except ValueError:
        pass
    return out


def rewrite(root, src, dst):
    """Each text file under root naming src names dst instead; its times
    are kept."""
    pairs = list(zip(spellings(src), spellings(dst)))
    # The relative spelling also matches inside the absolute one; bounded
    # so that build/test-default does not match build/test-default-smp.
    pattern = re.compile(
        rb'(?<![\w.+-])(' + b'|'.join(re.escape(s.encode())
                                       for s, _ in pairs) + rb')(?![\w.+-])')
    table = {s.encode(): d.encode() for s, d in pairs}
    changed = 0
    for dirpath, _, files in os.walk(root):
        for name in files:
            path = os.path.join(dirpath, name)
            st = os.lstat(path)
            if not os.path.isfile(path) or os.path.islink(path) or \
                    st.st_size > TEXT_LIMIT:
                continue
            with open(path, 'rb') as f:
                data = f.read()
            if b'\0' in data[:8192]:
                continue
            new = pattern.sub(lambda m: table[m.group(1)], data)
            if new == data:
                continue
            with open(path, 'wb') as f:
                f.write(new)
            os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
            changed += 1
    return changed


def seed(src, dst):
    if configured(dst) or not configured(src):
        return None
    if dst.exists():
        shutil.rmtree(dst)
    shutil.copytree(src, dst, symlinks=True, ignore=ignore(src),
                    copy_function=shutil.copy2)
    return rewrite(dst, src, dst)


def main(argv):
    if len(argv) != 3:
        print('usage: seed_build.py SRC DST', file=sys.stderr)
        return 2
    src, dst = Path(argv[1]), Path(argv[2])
    try:
        changed = seed(src, dst)
    except OSError as exc:
        print(f'seed_build: {src} to {dst}: {exc}', file=sys.stderr)
        return 1
    if changed is None:
        why = 'already configured' if configured(dst) else \
            f'{src} holds no build'
        print(f'seed_build: {dst}: {why}, left as it is')
    else:
        print(f'seed_build: {dst} from {src} ({changed} files renamed in)')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
