#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The Linux column of make bench: Debian's Linux booted under the same QEMU.

make bench-linux (and the end of make bench) fetches the kernel that
Debian's linux-image-amd64 depends on (apt-get download, unpacked with
dpkg -x into OUT/linux/root, never installed; cached, so a second run needs
no network), builds the project's user programs (user/bench/, make user)
and two Linux modules (tools/linux-bench/, against the installed
linux-headers of that version), packs them into an initramfs with
benchinit as /init, and boots it with the QEMU flags of the y kernel
(scripts/qemu.py's command(): 1 CPU, -icount shift=0,align=off,sleep=off,
so rdtsc counts instructions), plus -kernel/-initrd/-append. benchinit
runs the programs and powers off; their "bench: ..." lines become records
of config "linux", appended to OUT/results.json (written by bench.py), and
a table of ours (y, from that file) against Linux, with ours/Linux.

Figures (config linux):
    user_getppid_insns              per getppid() (getppid_bench)
    user_pipe_roundtrip_insns       per round trip, params schedstats=0|1
                                    (threads=1: perf's -T; cpus=4: the
                                    smp boot, not pinned)
    user_futex_wake_insns           futex wake of a waiting thread, round
                                    trip (one CPU)
    user_cross_cpu_wake_insns       a futex wake-up across CPUs (smp boot)
    user_schedstats_flip_insns      write(2) of /proc/sys/kernel/
                                    sched_schedstats, params on|off|noop
    user_schedstats_flip_insns_per_site   on / the key's sites in Linux's
                                    image (params sites=N): counted in the
                                    __jump_table of the vmlinux decompressed
                                    from vmlinuz, located (with the key)
                                    by the addresses benchinit reads in
                                    /proc/kallsyms (Debian's System.map is
                                    a placeholder)
    flip_insns                      bench_jl.ko, a key of N sites (params
                                    sites=N,module): enable + disable, /2
    flip_insns_per_site             the same / N
    linux_table_entries             the entries of its __jump_table (the
                                    vmlinux's section, 16 bytes each, or
                                    the kallsyms bounds), and table_bytes
    boot_first_user_insns           rdtsc at benchinit's entry point

make stress-linux (bench_linux.py --stress): Linux on 4 vCPUs without
icount (multi-threaded TCG), bench_jl_stress.ko flipping four 4-site keys
under readers on the other CPUs, booted with oops=panic; then the same
flips on this kernel (text_patch.tpt_test_stress via kunit.py); prints the
flips each survived.

Usage
    scripts/bench_linux.py [--out DIR] [--timeout S]
    scripts/bench_linux.py --stress [--flips N] [--out DIR] [--timeout S]
    scripts/bench_linux.py --from-log FILE [--out DIR]

Bad input: no package (no network, no apt): one line "linux: skipped: ..."
and exit 0. A kernel that does not boot or prints no bench line: one line
naming the log, exit 1. A partial output (timeout, no "bench: done"): the
figures found are kept with params marked "partial" and exit 1.
"""

import argparse
import json
import lzma
import os
import re
import shutil
import struct
import subprocess
import sys
import zlib
from dataclasses import dataclass, field
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT / 'scripts'))
import qemu  # noqa: E402

PYTHON = '/usr/bin/python3'
DEFAULT_OUT = REPO_ROOT / 'build' / 'bench'
META_PACKAGE = 'linux-image-amd64'
MODULE_SRC = REPO_ROOT / 'tools' / 'linux-bench'
USER_PROGS = ('getppid_bench', 'pipe_bench', 'schedstats_bench', 'futex_bench')
SCHEDSTATS_KEY = 'sched_schedstats'
BENCH_APPEND = 'console=ttyS0 nokaslr quiet panic=-1'
STRESS_APPEND = 'console=ttyS0 nokaslr panic=-1 oops=panic bench_mode=stress'
STRESS_CPUS = 4
STRESS_FLIPS = 2000
EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2

BENCH_LINE_RE = re.compile(r'bench: (\S+)((?:\s+\S+=\S*)*)\s*$')
KV_RE = re.compile(r'(\S+?)=(\S*)')


class Skip(Exception):
    """The Linux group cannot run here (no package): not a failure."""


class Failed(Exception):
    """The Linux group ran and failed."""


# ---------------------------------------------------------------------------
# The kernel package
# ---------------------------------------------------------------------------

@dataclass
class Kernel:
    version: str            # e.g. 6.1.0-57-amd64
    vmlinuz: Path


def run_tool(argv, cwd=None):
    """(returncode, stdout + stderr); a missing program gives 127."""
    try:
        done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True,
                              check=False)
    except OSError as exc:
        return 127, f'{argv[0]}: {exc.strerror}'
    return done.returncode, done.stdout + done.stderr


def image_package_of(depends_text):
    """The linux-image-X package that apt-cache depends lists first."""
    for line in depends_text.splitlines():
        m = re.match(r'\s*\|?Depends:\s*(linux-image-\S+)', line)
        if m:
            return m.group(1)
    return None


def unpacked_kernel(root):
    """The Kernel unpacked in root, or None."""
    for vmlinuz in sorted(Path(root).glob('boot/vmlinuz-*')):
        return Kernel(vmlinuz.name[len('vmlinuz-'):], vmlinuz)
    return None


def fetch_kernel(cache):
    """The kernel package, downloaded and unpacked into cache once."""
    root = cache / 'root'
    kernel = unpacked_kernel(root)
    if kernel:
        return kernel
    rc, text = run_tool(['apt-cache', 'depends', META_PACKAGE])
    package = image_package_of(text) if rc == 0 else None
    if not package and os.geteuid() == 0:
        run_tool(['apt-get', 'update', '-q'])
        rc, text = run_tool(['apt-cache', 'depends', META_PACKAGE])
        package = image_package_of(text) if rc == 0 else None
    if not package:
        raise Skip(f'apt-cache knows no {META_PACKAGE} (no apt, or no '
                   'package lists: apt-get update)')
    pkg_dir = cache / 'pkg'
    pkg_dir.mkdir(parents=True, exist_ok=True)
    debs = sorted(pkg_dir.glob(f'{package}_*.deb'))
    if not debs:
        print(f'bench-linux: downloading Debian\'s {package} (about 70 MB, '
              f'once) into {pkg_dir}', file=sys.stderr, flush=True)
        rc, text = run_tool(['apt-get', 'download', package], cwd=pkg_dir)
        debs = sorted(pkg_dir.glob(f'{package}_*.deb'))
        if rc or not debs:
            last = text.strip().splitlines()[-1:] or ['no output']
            raise Skip(f'apt-get download {package} failed: {last[0]}')
    rc, text = run_tool(['dpkg', '-x', str(debs[-1]), str(root)])
    kernel = unpacked_kernel(root)
    if rc or not kernel:
        raise Skip(f'dpkg -x {debs[-1].name} gave no boot/vmlinuz: '
                   f'{text.strip()}')
    return kernel


# ---------------------------------------------------------------------------
# The image: vmlinuz -> vmlinux -> __jump_table
# ---------------------------------------------------------------------------

def bzimage_payload(data):
    """The compressed kernel inside a bzImage (boot protocol >= 2.08)."""
    if len(data) < 0x250 or data[0x202:0x206] != b'HdrS':
        raise ValueError('not a bzImage (no HdrS boot header)')
    setup_sects = data[0x1f1] or 4
    offset, length = struct.unpack_from('<II', data, 0x248)
    start = (setup_sects + 1) * 512 + offset
    if not length or start + length > len(data):
        raise ValueError('bzImage payload outside the file')
    return data[start:start + length]


def decompress_payload(payload):
    """The vmlinux ELF in a bzImage payload (xz, gzip, zstd, lzma)."""
    if payload.startswith(b'\xfd7zXZ\x00'):
        return lzma.LZMADecompressor(format=lzma.FORMAT_XZ).decompress(
            payload)
    if payload.startswith(b'\x1f\x8b'):
        return zlib.decompressobj(wbits=31).decompress(payload)
    if payload.startswith(b'\x5d\x00\x00'):
        return lzma.LZMADecompressor(format=lzma.FORMAT_ALONE).decompress(
            payload)
    if payload.startswith(b'\x28\xb5\x2f\xfd'):
        done = subprocess.run(['zstd', '-dc'], input=payload,
                              capture_output=True, check=False)
        if done.returncode == 0:
            return done.stdout
        raise ValueError('zstd -d failed')
    raise ValueError(f'unknown compression (magic {payload[:4].hex()})')


def elf_sections(elf):
    """[(name, sh_addr, bytes)] of a 64-bit little-endian ELF."""
    if elf[:4] != b'\x7fELF' or elf[4] != 2:
        raise ValueError('not a 64-bit ELF')
    shoff, = struct.unpack_from('<Q', elf, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', elf, 0x3a)

    def header(i):
        return struct.unpack_from('<IIQQQQIIQQ', elf, shoff + i * shentsize)
    strtab = header(shstrndx)
    out = []
    for i in range(shnum):
        sh = header(i)
        start = strtab[4] + sh[0]
        name = elf[start:elf.index(b'\0', start)].decode()
        data = elf[sh[4]:sh[4] + sh[5]] if sh[1] != 8 else b''  # not NOBITS
        out.append((name, sh[3], data))
    return out


def elf_bytes_at(elf, start, end):
    """The bytes at link addresses [start, end) of the ELF's sections."""
    for _, addr, data in elf_sections(elf):
        if addr and addr <= start and end <= addr + len(data):
            return data[start - addr:end - addr]
    raise ValueError(f'no section holds {start:#x}..{end:#x}')


def jump_table_keys(addr, table):
    """{key address: sites} of a Linux x86-64 __jump_table at addr: 16-byte
    entries of relative s32 code, s32 target, s64 key (flags in its low 2
    bits), so that any consistent addresses (link-time) work."""
    keys = {}
    for off in range(0, len(table) - len(table) % LINUX_ENTRY_SIZE,
                     LINUX_ENTRY_SIZE):
        rel, = struct.unpack_from('<q', table, off + 8)
        key = (addr + off + 8 + rel) & ~3 & (2**64 - 1)
        keys[key] = keys.get(key, 0) + 1
    return keys


KALLSYMS_NEEDED = ('_text', '__start___jump_table', '__stop___jump_table')


LINUX_ENTRY_SIZE = 16


def table_entries(vmlinuz_bytes, kallsyms):
    """The entries of Linux's __jump_table: its section in the vmlinux
    decompressed from vmlinuz, else the bytes between the
    __start/__stop___jump_table addresses of /proc/kallsyms (6.1 folds
    the table into .rodata)."""
    elf = decompress_payload(bzimage_payload(vmlinuz_bytes))
    for name, _, data in elf_sections(elf):
        if name == '__jump_table' and data:
            return len(data) // LINUX_ENTRY_SIZE
    missing = [s for s in KALLSYMS_NEEDED[1:] if s not in kallsyms]
    if missing:
        raise ValueError(f'no __jump_table section, and /proc/kallsyms gave '
                         f'no {", ".join(missing)}')
    size = kallsyms['__stop___jump_table'] - kallsyms['__start___jump_table']
    if size < 0 or size % LINUX_ENTRY_SIZE:
        raise ValueError(f'__jump_table of {size} bytes is not a whole '
                         f'number of {LINUX_ENTRY_SIZE}-byte entries')
    return size // LINUX_ENTRY_SIZE


def key_sites(vmlinuz_bytes, kallsyms, name):
    """The sites of Linux's key name: its vmlinux (decompressed from
    vmlinuz) has the __jump_table; kallsyms ({symbol: run-time address},
    from /proc/kallsyms) says where it and the key are. A KASLR slide is
    taken out with _text against the ELF's .text."""
    missing = [s for s in KALLSYMS_NEEDED + (name,) if s not in kallsyms]
    if missing:
        raise ValueError(f'/proc/kallsyms gave no {", ".join(missing)}')
    elf = decompress_payload(bzimage_payload(vmlinuz_bytes))
    text = next((a for n, a, _ in elf_sections(elf) if n == '.text'), None)
    if text is None:
        raise ValueError('no .text section in the vmlinux')
    slide = kallsyms['_text'] - text
    start = kallsyms['__start___jump_table'] - slide
    stop = kallsyms['__stop___jump_table'] - slide
    table = elf_bytes_at(elf, start, stop)
    return jump_table_keys(start, table).get(kallsyms[name] - slide, 0)


# ---------------------------------------------------------------------------
# The initramfs (cpio newc, written here: no cpio package needed)
# ---------------------------------------------------------------------------

def cpio_entry(name, mode, data=b'', rdev=(0, 0), ino=1):
    fields = (ino, mode, 0, 0, 1, 0, len(data), 0, 0, rdev[0], rdev[1],
              len(name) + 1, 0)
    head = b'070701' + b''.join(b'%08X' % f for f in fields)
    out = head + name.encode() + b'\0'
    out += b'\0' * (-len(out) % 4)
    out += data + b'\0' * (-len(data) % 4)
    return out


def cpio_archive(files):
    """files: (name, mode, data[, rdev]) in order; a newc archive."""
    out = b''.join(cpio_entry(f[0], f[1], f[2], *(f[3:] or [(0, 0)]),
                              ino=i + 1) for i, f in enumerate(files))
    return out + cpio_entry('TRAILER!!!', 0, ino=0)


def initramfs_files(user_dir, modules):
    files = [('dev', 0o40755, b''), ('dev/console', 0o20600, b'', (5, 1)),
             ('proc', 0o40755, b''), ('bin', 0o40755, b''),
             ('init', 0o100755, (user_dir / 'benchinit').read_bytes())]
    for prog in USER_PROGS:
        files.append((f'bin/{prog}', 0o100755,
                      (user_dir / prog).read_bytes()))
    for ko in modules:
        files.append((ko.name, 0o100644, ko.read_bytes()))
    return files


# ---------------------------------------------------------------------------
# Building
# ---------------------------------------------------------------------------

def build_user(build_dir):
    rc, text = run_tool(['make', '-s', '-f', 'user/Makefile',
                         f'O={build_dir}', 'user'], cwd=REPO_ROOT)
    if rc:
        raise Failed(f'make user failed: {text.strip()[-300:]}')
    return Path(build_dir) / 'user'


def build_modules(kernel, work):
    """The Linux modules, or (None, why) when they cannot be built."""
    headers = Path(f'/lib/modules/{kernel.version}/build')
    if not headers.is_dir() and os.geteuid() == 0:
        run_tool(['apt-get', 'install', '-y', '-q', '--no-install-recommends',
                  f'linux-headers-{kernel.version}'])
    if not headers.is_dir():
        return None, (f'no linux-headers-{kernel.version} (apt-get install '
                      f'linux-headers-{kernel.version} failed or not root)')
    work.mkdir(parents=True, exist_ok=True)
    for src in MODULE_SRC.iterdir():
        dst = work / src.name
        if src.is_file() and (not dst.exists() or
                              dst.read_bytes() != src.read_bytes()):
            shutil.copyfile(src, dst)
    rc, text = run_tool(['make', '-s', '-C', str(headers), f'M={work}',
                         'modules', '-j2'])
    kos = [work / 'bench_jl.ko', work / 'bench_jl_stress.ko']
    if rc or not all(ko.exists() for ko in kos):
        return None, f'the Linux modules did not build: {text.strip()[-300:]}'
    return kos, None


def prepare(out):
    """(kernel, initramfs path, why the modules are missing or None)."""
    cache = out / 'linux'
    kernel = fetch_kernel(cache)
    user_dir = build_user(out / 'linux' / 'user-build')
    kos, why = build_modules(kernel, cache / 'modules')
    initrd = cache / 'initramfs.cpio'
    initrd.write_bytes(cpio_archive(initramfs_files(user_dir, kos or [])))
    return kernel, initrd, why


def qemu_argv(kernel, initrd, append, cpus, icount):
    """The y kernel's QEMU flags (qemu.command), booting Linux instead."""
    argv = qemu.command('ISO', cpus=cpus, icount=icount)
    i = argv.index('-cdrom')
    del argv[i:i + 2]
    return argv + ['-kernel', str(kernel.vmlinuz), '-initrd', str(initrd),
                   '-append', append]


def boot(argv, log, timeout):
    """Boots; returns (serial lines, QemuResult); the lines go to log."""
    lines = []
    with open(log, 'w', encoding='utf-8') as f:
        def on_line(line):
            lines.append(line)
            f.write(line + '\n')
        result = qemu.boot(argv, timeout, on_line, f'{log}.stderr')
    return lines, result


# ---------------------------------------------------------------------------
# Parsing
# ---------------------------------------------------------------------------

@dataclass
class Parsed:
    lines: dict = field(default_factory=dict)   # name -> [dict of values]
    errors: list = field(default_factory=list)  # "name: error=..." lines
    done: bool = False
    failed: int = 0


def parse_bench_lines(lines):
    """The "bench: NAME k=v ..." lines of a serial log."""
    parsed = Parsed()
    for line in lines:
        idx = line.find('bench: ')
        if idx < 0:
            continue
        text = line[idx:]
        if text.startswith('bench: jl '):
            # The module's lines: "bench: jl flip sites=N ...".
            text = 'bench: jl_' + text[len('bench: jl '):]
        m = BENCH_LINE_RE.match(text)
        if not m:
            continue
        name, values = m.group(1), dict(KV_RE.findall(m.group(2)))
        if 'error' in values or name == 'jl_error':
            parsed.errors.append(line[idx + len('bench: '):].strip())
            continue
        if name == 'done':
            parsed.done = True
            parsed.failed = int(values.get('failed', '0') or 0)
            continue
        parsed.lines.setdefault(name, []).append(values)
    return parsed


def record(name, params, value, unit='insns', config='linux'):
    return {'name': name, 'config': config, 'params': params,
            'value': value, 'unit': unit}


def linux_records(parsed, sites=None, config='linux'):
    """Records from parsed bench lines (of benchinit's run on any kernel:
    config names it); sites: the sched_schedstats key's site count in the
    image, or None."""
    out = []
    for v in parsed.lines.get('boot', []):
        out.append(record('boot_first_user_insns', '', int(v['tsc'])))
    for v in parsed.lines.get('getppid', []):
        out.append(record('user_getppid_insns', '',
                          int(v['total']) / int(v['iters'])))
    for v in parsed.lines.get('pipe_roundtrip', []):
        params = [f'schedstats={v.get("schedstats", "?")}']
        if v.get('threads') == '1':
            params.append('threads=1')
        if 'cpus' in v:
            params.append(f'cpus={v["cpus"]}')
        out.append(record('user_pipe_roundtrip_insns', ','.join(params),
                          int(v['total']) / int(v['iters'])))
    for v in parsed.lines.get('futex_roundtrip', []):
        a, _, b = v.get('cpus', '0,0').partition(',')
        per = int(v['total']) / int(v['iters'])
        if a == b:
            out.append(record('user_futex_wake_insns', '', per))
        else:  # two wake-ups across CPUs a round trip
            out.append(record('user_cross_cpu_wake_insns', '', per / 2))
    for v in parsed.lines.get('schedstats_flip', []):
        for what in ('on', 'off', 'noop'):
            out.append(record('user_schedstats_flip_insns', what,
                              int(v[what])))
        if sites:
            out.append(record('user_schedstats_flip_insns_per_site',
                              f'sites={sites}', int(v['on']) / sites))
    for v in parsed.lines.get('jl_flip', []):
        n = int(v['sites'])
        out.append(record('flip_insns', f'sites={n},module', int(v['mean'])))
        out.append(record('flip_insns_per_site', f'sites={n},module',
                          int(v['mean']) / n))
    for r in out:
        r['config'] = config
        if not parsed.done:
            r['params'] = ','.join(p for p in (r['params'], 'partial') if p)
    return out


def table_records(entries):
    """linux_table_entries and its bytes, 16 an entry (Linux x86-64)."""
    return [record('linux_table_entries', '', entries, 'entries'),
            record('table_bytes', '', entries * LINUX_ENTRY_SIZE, 'bytes')]


# ---------------------------------------------------------------------------
# The table: ours (y) against Linux
# ---------------------------------------------------------------------------

# (label, Linux record (name, params), ours (name, params prefix) or the
# reason ours is missing).
PENDING_USER = 'missing: run make bench (y)'
PENDING_MODULE = 'no module'


def ours_value(records, name, params_prefix, exact=()):
    """Our y figure: params exactly one of exact, else starting with
    params_prefix."""
    for want in exact:
        for r in records:
            if r['config'] == 'y' and r['name'] == name and \
                    r['params'] == want:
                return r['value']
    for r in records:
        if (r['config'] == 'y' and r['name'] == name
                and r['params'].startswith(params_prefix)):
            return r['value']
    return None


def ours_flip(records, sites, per_site):
    """Our y kernel's flip of a sites-site key (bench=flip, batched)."""
    value = ours_value(records, 'flip_insns', f'sites={sites},batched')
    if value is None or not per_site:
        return value
    return value / sites


def table_rows(linux, ours, sites, module_why):
    """[(label, ours or reason, linux or reason)]."""
    def lin(name, params):
        for r in linux:
            words = r['params'].split(',') if r['params'] else []
            partial = 'partial' in words
            if r['name'] == name and \
                    ','.join(w for w in words if w != 'partial') == params:
                return f'{fmt(r["value"])} (partial)' if partial else \
                    r['value']
        return 'missing'

    def our_user(name, *exact):
        value = ours_value(ours, name, exact[0] if exact else '', exact)
        return value if value is not None else PENDING_USER

    our_sites = next((r['params'][len('sites='):] for r in ours
                      if r['config'] == 'y' and r['name'] ==
                      'user_schedstats_flip_insns_per_site'), None)
    rows = [
        ('pipe round trip (user, schedstats off)',
         our_user('user_pipe_roundtrip_insns', 'schedstats=0', ''),
         lin('user_pipe_roundtrip_insns', 'schedstats=0')),
        ('pipe round trip (user, schedstats on)',
         our_user('user_pipe_roundtrip_insns', 'schedstats=1'),
         lin('user_pipe_roundtrip_insns', 'schedstats=1')),
        ('pipe round trip, two threads (user, perf -T)',
         our_user('user_pipe_roundtrip_insns', 'schedstats=0,threads=1'),
         lin('user_pipe_roundtrip_insns', 'schedstats=0,threads=1')),
        ('pipe round trip, 4 CPUs, processes (user)',
         our_user('user_pipe_roundtrip_insns', 'schedstats=0,cpus=4'),
         lin('user_pipe_roundtrip_insns', 'schedstats=0,cpus=4')),
        ('pipe round trip, 4 CPUs, threads (user)',
         our_user('user_pipe_roundtrip_insns',
                  'schedstats=0,threads=1,cpus=4'),
         lin('user_pipe_roundtrip_insns', 'schedstats=0,threads=1,cpus=4')),
        ('futex wake of a waiting thread, round trip (user)',
         our_user('user_futex_wake_insns'),
         lin('user_futex_wake_insns', '')),
        ('futex wake-up across CPUs (user, one way)',
         our_user('user_cross_cpu_wake_insns'),
         lin('user_cross_cpu_wake_insns', '')),
        ('getppid() (user)', our_user('user_getppid_insns'),
         lin('user_getppid_insns', '')),
        ('schedstats on via /proc/sys (write)',
         our_user('user_schedstats_flip_insns', 'on', ''),
         lin('user_schedstats_flip_insns', 'on')),
        (f'schedstats on, per site (sites: ours {our_sites or "?"}, '
         f'Linux {sites or "?"})',
         our_user('user_schedstats_flip_insns_per_site'),
         lin('user_schedstats_flip_insns_per_site', f'sites={sites}')),
    ]
    for n in (1, 4, 56, 256, 1024):
        ours_v = ours_flip(ours, n, True)
        if ours_v is None:
            ours_v = PENDING_USER
        linux_v = lin('flip_insns_per_site', f'sites={n},module')
        if module_why and linux_v == 'missing':
            linux_v = module_why
        rows.append((f'key flip per site, {n} sites (in-kernel)', ours_v,
                     linux_v))
    rows.append(('boot to first user instruction',
                 our_user('boot_first_user_insns'),
                 lin('boot_first_user_insns', '')))
    rows.append(('jump table entries (ours: y)',
                 our_user('table_entries', ''),
                 lin('linux_table_entries', '')))
    rows.append(('jump table bytes (ours: y; 12 an entry, Linux 16)',
                 our_user('table_bytes', ''), lin('table_bytes', '')))
    big = next((r for r in ours if r['config'] == 'y-table' and
                r['name'] == 'table_entries'), None)
    if big:
        rows.append((f'jump table entries (ours: y-table, {big["params"]})',
                     big['value'], lin('linux_table_entries', '')))
    return rows


def fmt(value):
    if isinstance(value, str):
        return value
    return f'{value:,.1f}' if value < 100 else f'{value:,.0f}'


def fmt_ratio(ours, linux):
    if isinstance(ours, str) or isinstance(linux, str) or not linux:
        return '-'
    return f'{ours / linux:.3f}'


def print_table(rows):
    head = ('figure (instructions, QEMU icount)', 'ours (y)', 'Linux 6.1',
            'ours/Linux')
    cells = [head] + [(label, fmt(o), fmt(li), fmt_ratio(o, li))
                      for label, o, li in rows]
    widths = [max(len(c[i]) for c in cells) for i in range(4)]
    for i, c in enumerate(cells):
        print('  '.join(c[j].ljust(widths[j]) if j == 0 else
                        c[j].rjust(widths[j]) for j in range(4)))
        if i == 0:
            print('  '.join('-' * w for w in widths))


def schedstats_per_site(records, config):
    """{sites: insns per site} of sched_schedstats via /proc/sys."""
    out = {}
    for r in records:
        m = re.fullmatch(r'sites=(\d+)', r['params'])
        if (r['config'] == config and m and
                r['name'] == 'user_schedstats_flip_insns_per_site'):
            out[int(m.group(1))] = r['value']
    return out


def queued_per_site(records):
    """{sites: insns per site} of the y-table kernel's queued batch that
    enables every generated key."""
    out = {}
    for r in records:
        m = re.fullmatch(r'keys=\d+,sites=(\d+),queued,enable', r['params'])
        if r['config'] == 'y-table' and m and \
                r['name'] == 'flip_insns_per_site':
            out[int(m.group(1))] = r['value']
    return out


def write_plot(out, linux, ours):
    """flip_per_site.dat / .gp (/ .png when gnuplot is there)."""
    lines = ['# sites  ours_y  linux  linux_schedstats_via_proc_sys  '
             'ours_schedstats_via_proc_sys  ours_queued_batch_of_all_keys  '
             '(instructions per site per flip)']
    have = False
    sched = schedstats_per_site(linux, 'linux')
    our_sched = schedstats_per_site(ours, 'y')
    queued = queued_per_site(ours)
    for n in sorted({1, 4, 56, 256, 1024} | set(sched) | set(our_sched) |
                    set(queued)):
        o = ours_flip(ours, n, True)
        li = next((r['value'] for r in linux if r['name'] ==
                   'flip_insns_per_site' and r['params'] ==
                   f'sites={n},module'), None)
        have = have or o is not None or li is not None
        cells = [n] + ['NaN' if v is None else v
                       for v in (o, li, sched.get(n), our_sched.get(n),
                                 queued.get(n))]
        lines.append(' '.join(str(c) for c in cells))
    if not have:
        return None
    (out / 'flip_per_site.dat').write_text('\n'.join(lines) + '\n')
    gp = out / 'flip_per_site.gp'
    gp.write_text(
        'set terminal pngcairo noenhanced size 640,450\n'
        "set output 'flip_per_site.png'\n"
        "set datafile missing 'NaN'\n"
        'set logscale xy\nset grid\nset key top right font ",9"\n'
        'set xlabel "sites per key (the queued batch: all its sites)"\nset ylabel "instructions per site"\n'
        'set xtics (1, 4, 56, 256, 1024, 40000)\nset xrange [0.7:60000]\n'
        'set yrange [50:100000]\n'
        'set title "static key flip per site, QEMU icount, 1 CPU"\n'
        "plot 'flip_per_site.dat' using 1:2 with linespoints title "
        "'this kernel (y)', '' using 1:3 with linespoints title "
        "'Linux 6.1 (Debian, module key)', '' using 1:4 with points "
        "pt 7 title 'Linux 6.1, sched_schedstats via /proc/sys', "
        "'' using 1:5 with points pt 5 title "
        "'this kernel, sched_schedstats via /proc/sys', "
        "'' using 1:6 with points pt 9 title "
        "'this kernel, one queued batch of 4,000 keys (y-table)'\n")
    gnuplot = shutil.which('gnuplot')
    if gnuplot and run_tool([gnuplot, gp.name], cwd=out)[0] == 0:
        return out / 'flip_per_site.png'
    return gp


def merge_results(results, linux):
    """results.json with its linux records replaced by these."""
    try:
        records = json.loads(results.read_text())
    except (OSError, ValueError):
        records = []
    records = [r for r in records if r.get('config') != 'linux'] + linux
    results.write_text(json.dumps(records, indent=1) + '\n')
    return records


# ---------------------------------------------------------------------------
# Stress
# ---------------------------------------------------------------------------

PROGRESS_RE = re.compile(r'bench_jl_stress: flips=(\d+)')
STRESS_DONE_RE = re.compile(r'stress flips=(\d+) of=(\d+) readers=(\d+) '
                            r'passes=(\d+) out_of_time=(\d)')
OOPS_RE = re.compile(r'(int3: |Oops|BUG: |general protection|Kernel panic|'
                     r'invalid opcode)')
OURS_STRESS_RE = re.compile(r'(\d+) flips, (\d+) readers, (\d+) reader '
                            r'passes, (\d+) wrong branches')


def parse_linux_stress(lines):
    """{'survived', 'of', 'oops', 'done', 'readers'} from its console."""
    res = {'survived': 0, 'of': None, 'oops': None, 'done': False,
           'readers': None}
    for line in lines:
        m = PROGRESS_RE.search(line)
        if m and not res['oops']:
            res['survived'] = int(m.group(1))
        m = STRESS_DONE_RE.search(line)
        if m and not res['oops']:
            res.update(survived=int(m.group(1)), of=int(m.group(2)),
                       readers=int(m.group(3)), done=True)
            if m.group(5) == '1':
                res['oops'] = 'out of time'
        m = OOPS_RE.search(line)
        if m and not res['oops']:
            res['oops'] = line.strip()
    return res


def parse_ours_stress(lines):
    for line in lines:
        m = OURS_STRESS_RE.search(line)
        if m:
            return {'survived': int(m.group(1)), 'readers': int(m.group(2)),
                    'wrong': int(m.group(4))}
    return None


def stress(args, out):
    work = out / 'stress-linux'
    work.mkdir(parents=True, exist_ok=True)
    try:
        kernel, initrd, why = prepare(out)
    except Skip as exc:
        print(f'linux: skipped: {exc}')
        return EXIT_OK
    if why:
        print(f'linux stress: failed: {why}')
        return EXIT_FAILED
    append = f'{STRESS_APPEND} bench_flips={args.flips}'
    log = work / 'serial.log'
    print(f'linux: booting {kernel.version} on {STRESS_CPUS} vCPUs, '
          f'{args.flips} flips (log {log})')
    lines, result = boot(qemu_argv(kernel, initrd, append, STRESS_CPUS,
                                   False), log, args.timeout)
    lin = parse_linux_stress(lines)
    if not lines:
        print(f'linux stress: failed: no output ({result.describe()}), '
              f'see {log}')
    if lin['done'] and not lin['oops']:
        verdict = f'all {lin["survived"]} flips survived'
    else:
        verdict = (f'died after {lin["survived"]} flips '
                   f'({lin["oops"] or result.describe()})')
    print(f'Linux {kernel.version}, {STRESS_CPUS} vCPUs (MTTCG), '
          f'{args.flips} flips of four 4-site keys: {verdict}; log {log}')
    # Ours: the text_patch stress, the same flips.
    ours_dir = out / 'stress-ours'
    ours_dir.mkdir(parents=True, exist_ok=True)
    cmd = [PYTHON, str(REPO_ROOT / 'scripts' / 'kunit.py'), 'run',
           '--build_dir', str(ours_dir), '--cpus', str(STRESS_CPUS),
           '--timeout', str(int(args.timeout)), '--filter',
           'text_patch.tpt_test_stress', '--kernel_args',
           f'text_patch_test.flips={args.flips} text_patch_test.budget='
           f'{int(args.timeout)} kunit.timeout=0']
    serial = ours_dir / 'serial.log'     # kunit.py keeps the console there
    serial.unlink(missing_ok=True)
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    (ours_dir / 'kunit.out').write_text(done.stdout + done.stderr)
    our = parse_ours_stress(serial.read_text(errors='replace').splitlines()
                            if serial.exists() else [])
    if our and done.returncode == 0:
        ours_verdict = (f'all {our["survived"]} flips survived, '
                        f'{our["wrong"]} wrong branches')
    else:
        ours_verdict = (f'failed (kunit.py exit {done.returncode}), see '
                        f'{ours_dir / "kunit.out"}')
    print(f'this kernel, {STRESS_CPUS} vCPUs (MTTCG), {args.flips} flips of '
          f'four 4-site keys: {ours_verdict}')
    records = [record('stress_flips_survived', f'flips={args.flips}',
                      lin['survived'], 'flips')]
    if our:
        records.append(dict(record('stress_flips_survived',
                                   f'flips={args.flips}', our['survived'],
                                   'flips'), config='y'))
    (work / 'results.json').write_text(json.dumps(records, indent=1) + '\n')
    ok = lin['done'] or lin['oops']
    return EXIT_OK if ok and our and done.returncode == 0 else EXIT_FAILED


# ---------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------

SMP_CPUS = 4


def bench_smp(kernel, initrd, out, args):
    """benchinit smp (a bare word Linux passes to init) on SMP_CPUS CPUs:
    the pipe round trip unpinned and the cross-CPU wake-up."""
    log = out / 'linux' / 'serial-smp.log'
    argv = qemu_argv(kernel, initrd, f'{BENCH_APPEND} smp', SMP_CPUS, True)
    print(f'linux: booting {kernel.version} on {SMP_CPUS} CPUs under -icount '
          f'(log {log})')
    lines, result = boot(argv, log, args.timeout)
    if result.error:
        print(f'linux: smp: failed: {result.error}')
        return []
    parsed = parse_bench_lines(lines)
    for err in parsed.errors:
        print(f'linux: smp: error: {err}')
    return linux_records(parsed)


def bench(args, out):
    log = out / 'linux' / 'serial.log'
    sites = None
    why = None
    if args.from_log:
        lines = Path(args.from_log).read_text(errors='replace').splitlines()
        log = Path(args.from_log)
        kernel = unpacked_kernel(out / 'linux' / 'root')
    else:
        try:
            kernel, initrd, why = prepare(out)
        except Skip as exc:
            print(f'linux: skipped: {exc}')
            return EXIT_OK
        argv = qemu_argv(kernel, initrd, BENCH_APPEND, 1, True)
        print(f'linux: booting {kernel.version} under -icount (log {log})')
        lines, result = boot(argv, log, args.timeout)
        if result.error:
            print(f'linux: failed: {result.error}')
            return EXIT_FAILED
    parsed = parse_bench_lines(lines)
    kallsyms = {v['name']: int(v['addr'], 16)
                for v in parsed.lines.get('kallsyms', [])}
    entries = None
    if kernel:
        try:
            sites = key_sites(kernel.vmlinuz.read_bytes(), kallsyms,
                              SCHEDSTATS_KEY)
        except (OSError, ValueError, lzma.LZMAError) as exc:
            print(f'linux: cannot count {SCHEDSTATS_KEY} sites: {exc}')
        try:
            entries = table_entries(kernel.vmlinuz.read_bytes(), kallsyms)
        except (OSError, ValueError, lzma.LZMAError) as exc:
            print(f'linux: cannot count its jump table: {exc}')
    if not parsed.lines:
        print(f'linux: failed: the kernel printed no bench line, see {log}')
        return EXIT_FAILED
    linux = linux_records(parsed, sites)
    if entries is not None:
        linux += table_records(entries)
    if not args.from_log:
        linux += bench_smp(kernel, initrd, out, args)
    for err in parsed.errors:
        print(f'linux: error: {err}')
    if not parsed.done:
        print(f'linux: partial output (no "bench: done"): figures marked '
              f'partial, see {log}')
    records = merge_results(out / 'results.json', linux)
    ours = [r for r in records if r.get('config') in ('y', 'y-table')]
    print(f'Linux {kernel.version if kernel else "?"} (Debian) beside this '
          'kernel, same QEMU flags, 1 CPU, -icount shift=0:')
    print_table(table_rows(linux, ours, sites, why))
    plot = write_plot(out, linux, ours)
    if plot:
        print(f'plot: {plot}')
    print(f'results: {out / "results.json"} (config linux); log {log}')
    bad = parsed.errors or not parsed.done or parsed.failed
    return EXIT_FAILED if bad else EXIT_OK


def build_arg_parser():
    parser = argparse.ArgumentParser(
        prog='bench_linux.py', description="Debian's Linux under the same "
        'QEMU: the Linux column of make bench, and make stress-linux.',
        epilog='See the docstring at the top of scripts/bench_linux.py.')
    parser.add_argument('--out', default=DEFAULT_OUT, metavar='DIR',
                        help='results and cache (default build/bench)')
    parser.add_argument('--timeout', type=float, default=900, metavar='S',
                        help='QEMU timeout per boot (default 900)')
    parser.add_argument('--stress', action='store_true',
                        help='the reliability comparison (make stress-linux)')
    parser.add_argument('--flips', type=int, default=STRESS_FLIPS,
                        metavar='N', help=f'stress flips (default '
                        f'{STRESS_FLIPS})')
    parser.add_argument('--from-log', metavar='FILE',
                        help='boot nothing: parse FILE, a saved serial log')
    return parser


def main(argv=None):
    if hasattr(sys.stdout, 'reconfigure'):
        sys.stdout.reconfigure(line_buffering=True, errors='replace')
    args = build_arg_parser().parse_args(argv)
    if args.flips <= 0:
        print('bench_linux.py: --flips must be positive')
        return EXIT_USAGE
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    try:
        return stress(args, out) if args.stress else bench(args, out)
    except Failed as exc:
        print(f'linux: failed: {exc}')
        return EXIT_FAILED
    except KeyboardInterrupt:
        print('\nlinux: interrupted')
        return 130


if __name__ == '__main__':
    sys.exit(main())
