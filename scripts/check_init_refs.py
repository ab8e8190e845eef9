#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""check_init_refs.py OBJLIST

No code or data that outlives boot refers to __init code or __initdata:
free_initmem() frees .init.text, .init.data and .init.rodata and unmaps
them, so a call into them from .text, or a pointer to them kept in .data,
runs or reads freed memory once boot is done (Linux's modpost calls it a
section mismatch). The build runs it on the objects it links into vmlinux
(OBJLIST, the file that names them) before the link, and fails if it
fails.

A reference is a relocation (readelf -rW) in a section that stays after
boot (.text, .data, .rodata, __ksymtab, ...: every allocated section but
the init ones and those the link drops) whose symbol lies in an init
section: a section symbol of one, a symbol the same object defines there,
or a global another object defines there. An export of an __init function
is one as well (its __ksymtab entry refers to it): a module loaded after
boot would call freed text.

The few references that are right, each with its reason, are in ALLOWED
(the referring function or section, and the symbol).

Prints each reference (the object, the referring function and offset,
the init symbol) and exits 1 if there is one; exits 0 otherwise, 2 if
the objects cannot be read.
"""
import re
import sys

# The binutils runner and readelf's headers of check_callers.py, its twin
# over the same objects' relocations.
from check_callers import FILE_RE, RELA_RE, Unreadable, tool

PROG = 'check_init_refs'
# Sections freed by free_initmem() (<linux/init.h>).
INIT_RE = re.compile(r'^\.init\.(text|data|rodata)(\.|$)')
# Sections whose references do not outlive boot or the link: the init
# sections and tables (freed with them), what the link drops, debug data.
NOT_KEPT_RE = re.compile(r'^(\.init\.|\.initcall|__param$|\.exit\.text|'
                         r'\.debug|\.note|\.comment|\.eh_frame|\.modinfo|'
                         r'\.rela?|\.symtab|\.strtab|\.shstrtab|\.group)')
# (referring function or section, init symbol): references that are right.
ALLOWED = {
    # The boot CPU's entry calls the C start once, long before init is
    # freed; nothing comes back to it (arch/x86/kernel/head_64.S).
    ('startup_64', 'x86_64_start_kernel'),
}
# Tables whose entries may name init code: their users skip an entry in
# init text once it is freed (jump_label_init_ro(), sc_kernel_site_gone()).
TABLES_WITH_INIT = ('__jump_table', '.static_call_sites')
SECTION_RE = re.compile(r'^\s*\[\s*(\d+)\]\s+(\S+)\s+\S+\s+[0-9a-f]+\s+'
                        r'[0-9a-f]+\s+[0-9a-f]+\s+[0-9a-f]+\s+(\S*)')


def per_file(text):
    """Splits readelf output of many files into {path: [lines]}."""
    files, cur = {}, None
    for line in text.splitlines():
        m = FILE_RE.match(line)
        if m:
            cur = files.setdefault(m.group(1), [])
        elif cur is not None:
            cur.append(line)
    return files


def read_objects(paths):
    """{path: (sections {index: name}, symbols [(name, ndx, value, size,
    type, bind)])}."""
    argv = ['readelf', '-SsW'] + paths
    objs = {}
    for path, lines in per_file(tool(argv)).items():
        sections, symbols = {}, []
        for line in lines:
            m = SECTION_RE.match(line)
            if m:
                sections[int(m.group(1))] = m.group(2)
                continue
            # Num: Value Size Type Bind Vis Ndx Name
            f = line.split()
            if len(f) == 8 and f[0].endswith(':') and f[6].isdigit():
                symbols.append((f[7], int(f[6]), int(f[1], 16),
                                int(f[2], 0), f[3], f[4]))
        objs[path] = (sections, symbols)
    return objs


def check(paths):
    objs = read_objects(paths)
    init_globals = set()
    for sections, symbols in objs.values():
        for name, ndx, _, _, _, bind in symbols:
            if bind != 'LOCAL' and INIT_RE.match(sections.get(ndx, '')):
                init_globals.add(name)
    problems = []
    relocs = per_file(tool(['readelf', '-rW'] + paths))
    for path, lines in relocs.items():
        sections, symbols = objs[path]
        local_init = {name for name, ndx, _, _, _, bind in symbols
                      if INIT_RE.match(sections.get(ndx, ''))}
        # Functions, and asm labels (no type, no size), by section.
        funcs = {}
        for name, ndx, value, size, typ, _ in symbols:
            if typ in ('FUNC', 'NOTYPE') and name:
                funcs.setdefault(sections.get(ndx), []).append(
                    (value, size, name))
        for entries in funcs.values():
            entries.sort()
        source = None
        for line in lines:
            m = RELA_RE.match(line)
            if m:
                source = m.group(1)
                if NOT_KEPT_RE.match(source) or source in TABLES_WITH_INIT:
                    source = None
                continue
            f = line.split()
            if source is None or len(f) < 5 or not f[2].startswith('R_'):
                continue
            target = f[4]
            if not (INIT_RE.match(target) or target in local_init or
                    target in init_globals):
                continue
            offset = int(f[0], 16)
            where, start = source, 0
            for value, size, name in funcs.get(source, ()):
                # A sized symbol that holds the offset, else the last
                # label at or before it.
                if value <= offset and (offset < value + size or
                                        (size == 0 and value >= start)):
                    where, start = name, value
                    if size:
                        break
            offset -= start
            if (where, target) in ALLOWED:
                continue
            problems.append(f'{path}: {where}+{offset:#x} ({source}) refers '
                            f'to {target}, in memory free_initmem() frees')
    return problems


def main(argv):
    if len(argv) != 2:
        print(__doc__.split('\n\n')[0], file=sys.stderr)
        return 2
    try:
        with open(argv[1]) as f:
            paths = f.read().split()
        problems = check(paths)
    except (OSError, Unreadable) as exc:
        print(f'{PROG}: {exc}', file=sys.stderr)
        return 2
    for p in problems:
        print(f'{PROG}: {p}', file=sys.stderr)
    if problems:
        print(f'{PROG}: {len(problems)} references to init memory from '
              'memory that outlives boot (mark the caller __init, or the '
              'callee not)', file=sys.stderr)
        return 1
    print(f'{PROG}: {len(paths)} objects, no reference to init memory '
          'from memory that outlives boot')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
