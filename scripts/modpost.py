#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""modpost.py [--vmlinux VMLINUX] [--symvers FILE]... [--crcs DB]...
             --out SYMVERS MOD.ko...

Checks modules before they reach the kernel, as Linux's modpost does, and
writes the export list SYMVERS: one "0xCRC<TAB>symbol<TAB>owner<TAB>kind"
line per export of VMLINUX and of the modules given, as Linux writes it
(without the namespace): the CRC of the export's types (0x00000000 for an
export no DB versions), owner "vmlinux" or a module's name, kind
EXPORT_SYMBOL or EXPORT_SYMBOL_GPL, sorted by symbol. The CRCs come from
the DB files scripts/modversions.py wrote ("0xCRC<TAB>symbol<TAB>owner").

Exports are the object symbols __ksymtab_X (in section __ksymtab) and
__ksymtab_gpl_X (in section __ksymtab_gpl) of vmlinux and of each module
(<linux/export.h>): the section holding the symbol says which kind it is.
--symvers adds the exports an earlier run wrote (the in-tree modules, for
M= builds). A module's name and license come from its .modinfo.

Errors, one line each, all reported, then exit status 1 and no SYMVERS:
a module's undefined symbol that nobody exports (__this_module excepted:
the loader provides it), a GPL-only symbol used by a module whose license
is not GPL-compatible, a module without MODULE_LICENSE(), a symbol exported
twice (vmlinux and a module, or two modules), two modules of one name, a
file that is not an x86-64 relocatable object with a symbol table, a
VMLINUX whose export table is not sorted by name (the loader bisects it:
<linux/export.h>).
"""
import argparse
import os
import sys

from elftools.common.exceptions import ELFError
from elftools.elf.elffile import ELFFile

EXPORT_KINDS = {
    '__ksymtab': ('__ksymtab_', 'EXPORT_SYMBOL'),
    '__ksymtab_gpl': ('__ksymtab_gpl_', 'EXPORT_SYMBOL_GPL'),
}
GPL_ONLY = 'EXPORT_SYMBOL_GPL'
# The licenses Linux's license_is_gpl_compatible() accepts (less the
# historical "GPL v2" spellings it also knows, which we do not need).
GPL_COMPATIBLE = ('GPL', 'GPL v2', 'GPL and additional rights',
                  'Dual BSD/GPL', 'Dual MIT/GPL', 'Dual MPL/GPL')
PROVIDED_BY_LOADER = {'__this_module'}
MODULE_NAME_LEN = 56    # <linux/module.h>, the NUL included


class BadFile(Exception):
    """A file modpost cannot use: its message names the file."""


class Elf:
    """What modpost needs of one ELF file: exports, undefined symbols,
    .modinfo."""

    def __init__(self, path, want_rel):
        self.path = path
        self.addresses = []     # (address, symbol, kind) of each export
        self.undefined = set()
        self.modinfo = []       # (key, value)
        try:
            with open(path, 'rb') as f:
                self._read(ELFFile(f), want_rel)
        except (OSError, ELFError) as e:
            raise BadFile(f'{path}: cannot read it as ELF: {e}') from e

    def _read(self, elf, want_rel):
        if elf['e_machine'] != 'EM_X86_64' or \
                (want_rel and elf['e_type'] != 'ET_REL'):
            raise BadFile(f'{self.path}: not an x86-64 '
                          f'{"relocatable object" if want_rel else "ELF file"}'
                          f' ({elf["e_type"]}, {elf["e_machine"]})')
        symtab = elf.get_section_by_name('.symtab')
        if symtab is None:
            raise BadFile(f'{self.path}: no .symtab (a stripped file?)')
        for sym in symtab.iter_symbols():
            self._symbol(elf, sym)
        info = elf.get_section_by_name('.modinfo')
        if info is not None:
            for item in info.data().split(b'\0'):
                key, eq, value = item.decode('utf-8', 'replace').partition('=')
                if eq:
                    self.modinfo.append((key, value))

    def _symbol(self, elf, sym):
        shndx = sym['st_shndx']
        if shndx == 'SHN_UNDEF':
            # A weak undefined symbol may stay unresolved (it reads 0).
            if sym.name and sym['st_info']['bind'] == 'STB_GLOBAL':
                self.undefined.add(sym.name)
            return
        if not isinstance(shndx, int) or sym['st_info']['type'] != 'STT_OBJECT':
            return
        prefix, kind = EXPORT_KINDS.get(elf.get_section(shndx).name,
                                        (None, None))
        if prefix and sym.name.startswith(prefix) and len(sym.name) > len(prefix):
            self.addresses.append((sym['st_value'], sym.name[len(prefix):],
                                   kind))

    @property
    def exports(self):
        """(symbol, kind) of each export, in symbol table order."""
        return [(sym, kind) for _, sym, kind in self.addresses]


def check_sorted(elf, errors):
    """Each export table of a linked kernel in address order is in name
    order, as strcmp() orders them: find_symbol() bisects it."""
    for section, (_, kind) in EXPORT_KINDS.items():
        names = [name for _, name, k in sorted(elf.addresses) if k == kind]
        for before, name in zip(names, names[1:]):
            if before.encode() >= name.encode():
                errors.append(f'{elf.path}: {section} is not sorted by '
                              f'name: {name} follows {before} (the loader '
                              'bisects it: <linux/export.h>)')
                break


class Module:
    def __init__(self, path):
        elf = Elf(path, want_rel=True)
        self.path = path
        self.exports = elf.exports
        self.undefined = elf.undefined - PROVIDED_BY_LOADER
        names = [v for k, v in elf.modinfo if k == 'name']
        if len(names) != 1 or not names[0]:
            raise BadFile(f'{path}: .modinfo has {len(names)} name= entries, '
                          'expected one (a module not linked by make '
                          'modules?)')
        self.name = names[0]
        self.licenses = [v for k, v in elf.modinfo if k == 'license']

    def __str__(self):
        return f'module {self.name} ({self.path})'

    def gpl_compatible(self):
        return bool(self.licenses) and \
            all(lic in GPL_COMPATIBLE for lic in self.licenses)


def read_lines(path):
    try:
        with open(path, encoding='utf-8') as f:
            return f.read().splitlines()
    except OSError as e:
        raise BadFile(f'{path}: {e.strerror}') from e


def read_symvers(path, known, crcs):
    for n, line in enumerate(read_lines(path), 1):
        fields = line.split('\t')
        if len(fields) != 4 or fields[3] not in (GPL_ONLY, 'EXPORT_SYMBOL') \
                or not fields[0].startswith('0x'):
            raise BadFile(f'{path}:{n}: expected 0xCRC<TAB>symbol<TAB>owner'
                          f'<TAB>EXPORT_SYMBOL[_GPL], got {line!r}')
        known[fields[1]] = (fields[2], fields[3])
        crcs[fields[1]] = int(fields[0], 16)


def read_crcs(path, crcs):
    for n, line in enumerate(read_lines(path), 1):
        fields = line.split('\t')
        try:
            crcs[fields[1]] = int(fields[0], 16)
        except (IndexError, ValueError) as e:
            raise BadFile(f'{path}:{n}: expected 0xCRC<TAB>symbol<TAB>owner, '
                          f'got {line!r}') from e


def check_names(modules, errors):
    seen = {}
    for mod in modules:
        if len(mod.name) >= MODULE_NAME_LEN:
            errors.append(f'{mod}: name longer than {MODULE_NAME_LEN - 1} '
                          'characters')
        if mod.name in seen:
            errors.append(f'two modules named {mod.name}: '
                          f'{seen[mod.name].path} and {mod.path}')
        seen[mod.name] = mod


def add_exports(modules, known, errors):
    """Adds each module's exports to known: {symbol: (owner, kind)}."""
    for mod in modules:
        for sym, kind in mod.exports:
            if sym in known:
                owner = known[sym][0]
                first = owner if owner == 'vmlinux' else f'module {owner}'
                errors.append(f'symbol {sym} exported twice: by {first} and '
                              f'by {mod}')
                continue
            known[sym] = (mod.name, kind)


def check_module(mod, known, errors):
    if not mod.licenses:
        errors.append(f'{mod}: no MODULE_LICENSE()')
    for sym in sorted(mod.undefined):
        if sym not in known:
            errors.append(f'{mod}: undefined symbol {sym}: nobody exports it')
            continue
        owner, kind = known[sym]
        if kind == GPL_ONLY and mod.licenses and not mod.gpl_compatible():
            lic = next(lic for lic in mod.licenses
                       if lic not in GPL_COMPATIBLE)
            errors.append(f'{mod}: uses GPL-only symbol {sym} (exported by '
                          f'{owner}) but its license "{lic}" is not '
                          'GPL-compatible')


def write_symvers(path, known, owners, crcs):
    """The exports of owners (vmlinux, modules checked) only: those an
    earlier run listed (--symvers) are its to list."""
    tmp = f'{path}.tmp'
    with open(tmp, 'w', encoding='utf-8') as f:
        for sym in sorted(known):
            owner, kind = known[sym]
            if owner in owners:
                f.write(f'0x{crcs.get(sym, 0):08x}\t{sym}\t{owner}\t{kind}\n')
    os.replace(tmp, path)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--vmlinux')
    ap.add_argument('--symvers', action='append', default=[])
    ap.add_argument('--crcs', action='append', default=[])
    ap.add_argument('--out', required=True)
    ap.add_argument('modules', nargs='*')
    args = ap.parse_args(argv)
    known, errors, crcs = {}, [], {}
    try:
        if args.vmlinux:
            vmlinux = Elf(args.vmlinux, want_rel=False)
            check_sorted(vmlinux, errors)
            for sym, kind in vmlinux.exports:
                known[sym] = ('vmlinux', kind)
        for path in args.symvers:
            read_symvers(path, known, crcs)
        for path in args.crcs:
            read_crcs(path, crcs)
        modules = [Module(path) for path in args.modules]
    except BadFile as e:
        print(f'modpost: ERROR: {e}', file=sys.stderr)
        return 1
    check_names(modules, errors)
    add_exports(modules, known, errors)
    for mod in modules:
        check_module(mod, known, errors)
    for e in errors:
        print(f'modpost: ERROR: {e}', file=sys.stderr)
    if errors:
        return 1
    owners = {mod.name for mod in modules}
    if args.vmlinux:
        owners.add('vmlinux')
    write_symvers(args.out, known, owners, crcs)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
