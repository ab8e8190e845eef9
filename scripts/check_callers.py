#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""check_callers.py [--build] BUILD_DIR

Every global function has a caller: fails, naming each function and its
file, if a global function of the linked kernel (BUILD_DIR/vmlinux) or of
a module of that build (every .ko under BUILD_DIR but the stripped copies
in iso-modules/ and isoroot/, whose bad_* corpus is broken on purpose) is
used by nothing.

A use is a relocation naming the function in any object linked into
vmlinux (BUILD_DIR/.vmlinux.objs) or in any module: a call, a jump, a
pointer taken in code or data, an entry of a table (initcalls, test
suites, benchmark cases, static call trampolines, tracepoints,
parameters). A call its own object makes without a relocation counts too:
the assembler resolves a branch within a section itself (objdump shows
it), and the compiler may inline every call of the function's own file
(DWARF's DW_TAG_inlined_subroutine names it). An export (__ksymtab*) is
not a use, nor is debug information (.debug_*): an exported Linux-API
function kept for out-of-tree users needs a test that calls it. Entry
points found by name are used: vmlinux's ELF entry point, init_module
and cleanup_module in a module; and so are the few names of ALLOWED, each
with its reason. The kallsyms and static call tables of the final link
are not among the objects: they list every symbol and would count as a
use of each.

With --build, the test build is made first, as make test makes it
(make O=BUILD_DIR FRAGMENTS=tests/configs/kunit.config fragconfig, then
make O=BUILD_DIR all), so that make buildcheck can check it on its own.

The symbols, relocations, code and DWARF come from nm, readelf and
objdump (binutils). Exit status 0 if every global function is used, 1
(one line per function, and a count) if not, 2 if the build cannot be read
(no vmlinux, no object list, a tool fails).
"""
import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
PROG = 'check_callers'
TEST_FRAGMENT = 'tests/configs/kunit.config'
# Relocation sections that are not uses of what they name.
NOT_USES = re.compile(r'^(\.debug|__ksymtab)')
# Entry points found by name, not by relocation.
MODULE_ENTRIES = ('init_module', 'cleanup_module')
# Global functions whose use is their export, and nothing else.
ALLOWED = {
    # The kernel's module tests export it (kernel/module/module_test.c) so
    # that modtest_dupkernel's export of the same name is refused at load
    # (module_refusal_export_of_kernel); the module's copy can never run.
    'modtest_kernel_export',
}
RELA_RE = re.compile(r"^Relocation section '\.rela?(\S*)'")
FILE_RE = re.compile(r'^File: (\S+)$')


class Unreadable(Exception):
    pass


def tool(argv):
    """A binutils tool's stdout; Unreadable if it cannot run or fails."""
    env = dict(os.environ, LC_ALL='C')
    try:
        done = subprocess.run(argv, capture_output=True, text=True, env=env,
                              errors='replace', check=False)
    except OSError as exc:
        raise Unreadable(f'cannot run {argv[0]}: {exc.strerror}') from exc
    if done.returncode:
        raise Unreadable(f'{" ".join(argv[:3])} ... failed: '
                         f'{done.stderr.strip()[-400:]}')
    return done.stdout


def global_functions(paths):
    """{(path, name)} of the global functions each file defines."""
    out = set()
    if not paths:
        return out
    text = tool(['nm', '--defined-only', '-A'] + [str(p) for p in paths])
    for line in text.splitlines():
        path, sep, rest = line.rpartition(':')
        fields = rest.split()
        if sep and len(fields) == 3 and fields[1] == 'T':
            out.add((path, fields[2]))
    return out


def referenced(paths):
    """The names relocations in the files refer to (but exports and debug
    information)."""
    names = set()
    counted = False
    if not paths:
        return names
    argv = ['readelf', '-rW'] + [str(p) for p in paths]
    for line in tool(argv).splitlines():
        if FILE_RE.match(line):
            counted = False
            continue
        m = RELA_RE.match(line)
        if m:
            counted = not NOT_USES.match(m.group(1))
            continue
        fields = line.split()
        # Offset Info Type Sym.Value Sym.Name [+|- Addend]
        if counted and len(fields) >= 5 and fields[2].startswith('R_'):
            names.add(fields[4])
    return names


def called_in_own_file(obj, name, cache):
    """True if obj calls name without a relocation: the assembler resolves
    a call or jump to a function of the same section itself, and the
    compiler may inline every call of its own file (DWARF's
    DW_TAG_inlined_subroutine then names the function)."""
    if obj not in cache:
        cache[obj] = own_file_uses(obj)
    return name in cache[obj]


BRANCH_RE = re.compile(r'\s(?:call|jmp|j[a-z]{1,3})\s+[0-9a-f]+ <([^>+]+)>$')
DIE_RE = re.compile(r'^\s*<\d+><([0-9a-f]+)>: Abbrev Number: \d+ \((\w+)\)')
ATTR_RE = re.compile(r'^\s*<[0-9a-f]+>\s+(DW_AT_\w+)\s*:\s*(.*)$')


def own_file_uses(obj):
    """The functions an object calls by a resolved branch or inlines."""
    names = set()
    for line in tool(['objdump', '-d', '--no-show-raw-insn',
                      str(obj)]).splitlines():
        m = BRANCH_RE.search(line)
        if m:
            names.add(m.group(1))
    # An abstract instance with DW_AT_inline 1 or 3 was inlined somewhere
    # (even where the call folded away); DW_TAG_inlined_subroutine points
    # at it from each place.
    named, inlined, die, tag = {}, set(), None, None
    for line in tool(['readelf', '--debug-dump=info',
                      str(obj)]).splitlines():
        m = DIE_RE.match(line)
        if m:
            die, tag = int(m.group(1), 16), m.group(2)
            continue
        m = ATTR_RE.match(line)
        if not m:
            continue
        attr, value = m.groups()
        if tag == 'DW_TAG_subprogram' and attr == 'DW_AT_name':
            named[die] = value.rsplit(': ', 1)[-1].strip()
        elif tag == 'DW_TAG_subprogram' and attr == 'DW_AT_inline' and \
                value.split()[0] in ('1', '3'):
            inlined.add(die)
        elif (tag == 'DW_TAG_inlined_subroutine'
              and attr == 'DW_AT_abstract_origin'):
            inlined.add(int(value.strip('<> '), 16))
    return names | {named[d] for d in inlined if d in named}


def entry_symbols(vmlinux):
    """The names of vmlinux's symbols at its ELF entry point."""
    header = tool(['readelf', '-hW', str(vmlinux)])
    m = re.search(r'Entry point address:\s+0x([0-9a-f]+)', header)
    if not m:
        return set()
    entry = int(m.group(1), 16)
    names = set()
    for line in tool(['nm', '--defined-only', str(vmlinux)]).splitlines():
        fields = line.split()
        if len(fields) == 3 and int(fields[0], 16) == entry:
            names.add(fields[2])
    return names


def source_of(obj, build_dir):
    """The source file an object (or a module) was built from, as best as
    the tree tells: build/x/kernel/foo.o -> kernel/foo.c."""
    try:
        rel = Path(obj).resolve().relative_to(Path(build_dir).resolve())
    except ValueError:
        return str(obj)
    for root in (REPO_ROOT, Path(build_dir)):
        for suffix in ('.c', '.S'):
            candidate = rel.with_suffix(suffix)
            if (root / candidate).is_file():
                return str(candidate)
    return str(rel)


def read_list(path):
    try:
        return [Path(p) for p in path.read_text().split()]
    except OSError as exc:
        raise Unreadable(f'cannot read {path}: {exc.strerror}') from exc


def built_modules(build_dir):
    """Every module the build made (the .ko beside its objects; not the
    stripped copies of the ISO, nor the broken corpus made from them)."""
    copies = ('iso-modules', 'isoroot')
    return sorted(p for p in Path(build_dir).rglob('*.ko')
                  if not copies[0] in p.parts and not copies[1] in p.parts)


def unused(build_dir):
    """[(source file, name)] of the global functions nothing uses."""
    build_dir = Path(build_dir)
    vmlinux = build_dir / 'vmlinux'
    if not vmlinux.is_file():
        raise Unreadable(f'no {vmlinux}: build it first (or pass --build)')
    objects = read_list(build_dir / '.vmlinux.objs')
    modules = built_modules(build_dir)
    missing = [p for p in objects + modules if not p.is_file()]
    if missing:
        raise Unreadable(f'{missing[0]} (of {len(missing)} files listed) '
                         'does not exist: a stale build?')
    used = referenced(objects + modules) | entry_symbols(vmlinux)
    kernel = {name for path, name in global_functions([vmlinux])}
    candidates = [(path, name) for path, name in global_functions(objects)
                  if name in kernel and name not in used]
    candidates += [(path, name) for path, name in global_functions(modules)
                   if name not in used and name not in MODULE_ENTRIES]
    cache = {}
    return sorted({(source_of(path, build_dir), name)
                   for path, name in candidates if name not in ALLOWED
                   and not called_in_own_file(path, name, cache)})


def build(build_dir):
    """Makes the test build as make test does; False if make fails. The
    parent make's flags stay out (its jobserver is not passed down)."""
    env = {k: v for k, v in os.environ.items()
           if k not in ('MAKEFLAGS', 'MFLAGS', 'MAKELEVEL', 'MAKEOVERRIDES')}
    for target in (['FRAGMENTS=' + TEST_FRAGMENT, 'fragconfig'],
                   ['-j2', 'all']):
        done = subprocess.run(['make', '--no-print-directory', '-C',
                               str(REPO_ROOT), f'O={build_dir}'] + target,
                              env=env, stdout=subprocess.DEVNULL, check=False)
        if done.returncode:
            return False
    return True


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog='check_callers.py',
        description='Every global function of a build has a caller.',
        epilog='See the docstring at the top of scripts/check_callers.py.')
    parser.add_argument('build_dir', metavar='BUILD_DIR')
    parser.add_argument('--build', action='store_true',
                        help='make the test build in BUILD_DIR first')
    args = parser.parse_args(argv)
    if args.build and not build(args.build_dir):
        print(f'{PROG}: make O={args.build_dir} failed', file=sys.stderr)
        return 2
    try:
        found = unused(args.build_dir)
    except Unreadable as exc:
        print(f'{PROG}: {args.build_dir}: {exc}', file=sys.stderr)
        return 2
    for source, name in found:
        print(f'{PROG}: {source}: {name}() is a global function that '
              f'nothing calls or references', file=sys.stderr)
    if found:
        print(f'{PROG}: {len(found)} global functions without a caller in '
              f'{args.build_dir} (a test that calls an API function counts;'
              ' dead code goes)', file=sys.stderr)
        return 1
    print(f'{PROG}: every global function of {args.build_dir} has a caller')
    return 0


if __name__ == '__main__':
    sys.exit(main())
