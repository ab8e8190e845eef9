#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The suites a build must report, and their cases, from what it built.

A build directory's $(O)/.vmlinux.objs lists the objects of its kernel and
$(O)/.modules its modules (the Makefile writes both from the .config): the
suites of those files, read from their ELF (the .kunit_test_suites section
of a built-in object, kunit_module_suites of a module, each case array up
to its empty entry), are the suites the kernel must report, with their
cases, before a filter. A test source no Makefile names (a line removed
from its Makefile) is a suite that cannot be reported: it is expected too,
under the name its source gives, so that the run fails naming it.

    kunit_suites.py BUILD_DIR [FILTER]    prints suite: cases, one a line
"""

import re
import sys
from pathlib import Path

from elftools.elf.elffile import ELFFile
from elftools.elf.relocation import RelocationSection

REPO_ROOT = Path(__file__).resolve().parent.parent
# Where the Makefile walk finds sources (Makefile core-y and modules-y).
SOURCE_DIRS = ('arch/x86', 'kernel', 'mm', 'lib', 'fs', 'modules',
               'tests/modules')

# The layout of include/kunit/test.h, which lib/kunit/test.c asserts:
# struct kunit_suite holds its name inline at 0 and test_cases at 288;
# struct kunit_case is 24 bytes, run_case at 0, name at 8.
SUITE_NAME_LEN = 256
SUITE_CASES_OFFSET = 288
CASE_SIZE = 24
CASE_NAME_OFFSET = 8

SUITE_SOURCE_RE = re.compile(r'^\s*kunit_test_suites?\(', re.M)
SUITE_NAME_RE = re.compile(
    r'struct\s+kunit_suite\s+\w+\s*=\s*\{[^}]*?\.name\s*=\s*"([^"]+)"', re.S)


class _Object:
    """Relocations of a relocatable ELF file, by (section, offset)."""

    def __init__(self, path):
        self.file = open(path, 'rb')
        self.elf = ELFFile(self.file)
        self.symtab = self.elf.get_section_by_name('.symtab')
        self.relocs = {}
        self.data = {}

    def _relocs(self, target):
        """{offset: (section, value)} of the relocations of one section,
        read when first asked for (the .rela.debug_* are most of a file)."""
        if target not in self.relocs:
            table = self.relocs[target] = {}
            for sec in self.elf.iter_sections():
                if (not isinstance(sec, RelocationSection)
                        or sec['sh_info'] != target):
                    continue
                for rel in sec.iter_relocations():
                    sym = self.symtab.get_symbol(rel['r_info_sym'])
                    table[rel['r_offset']] = (sym['st_shndx'],
                                              sym['st_value'] + rel['r_addend'])
        return self.relocs[target]

    def close(self):
        self.file.close()

    def bytes(self, index):
        if index not in self.data:
            self.data[index] = self.elf.get_section(index).data()
        return self.data[index]

    def cstring(self, index, offset, limit=4096):
        data = self.bytes(index)
        end = data.find(b'\0', offset, offset + limit)
        return data[offset:end if end >= 0 else offset + limit].decode(
            'utf-8', 'replace')

    def has_pointer(self, index, offset):
        """Whether a pointer at (section, offset) is set (relocated)."""
        return offset in self._relocs(index)

    def pointer(self, index, offset):
        """Where a pointer at (section, offset) points: (section, offset),
        or None for NULL or a symbol of another file."""
        target = self._relocs(index).get(offset)
        if target is None or not isinstance(target[0], int):
            return None
        return target

    def suite_pointers(self, module):
        """(section, offset) of every pointer to a suite: in the
        .kunit_test_suites section of a built-in object, in the
        kunit_module_suites array of a module."""
        if not module:
            sec = self.elf.get_section_by_name('.kunit_test_suites')
            if sec is None:
                return []
            index = self._index(sec)
            return [(index, off) for off in range(0, sec['sh_size'], 8)]
        out = []
        for sym in self.symtab.iter_symbols():
            if sym.name == 'kunit_module_suites':
                index = sym['st_shndx']
                out += [(index, sym['st_value'] + off)
                        for off in range(0, sym['st_size'], 8)]
        return out

    def _index(self, wanted):
        for index, sec in enumerate(self.elf.iter_sections()):
            if sec.name == wanted.name:
                return index
        raise KeyError(wanted.name)

    def suites(self, module):
        """{suite name: [case names]} of this object."""
        found = {}
        for where in self.suite_pointers(module):
            suite = self.pointer(*where)
            if suite is None:
                continue
            name = self.cstring(suite[0], suite[1], SUITE_NAME_LEN)
            cases = []
            array = self.pointer(suite[0], suite[1] + SUITE_CASES_OFFSET)
            if array is not None:
                off = array[1]
                while self.has_pointer(array[0], off):
                    case_name = self.pointer(array[0], off + CASE_NAME_OFFSET)
                    cases.append(self.cstring(*case_name) if case_name
                                 else f'#{len(cases) + 1}')
                    off += CASE_SIZE
            found[name] = cases
        return found


def object_suites(path, module=False):
    """{suite: [cases]} of a built-in object, or of a module (.ko)."""
    obj = _Object(path)
    try:
        return obj.suites(module)
    finally:
        obj.close()


def _listed(build_dir, name):
    path = Path(build_dir) / name
    if not path.is_file():
        return []
    return [Path(word) for word in path.read_text().split()]


def _resolve(build_dir, path):
    """A path of .vmlinux.objs (relative to the source tree) as a file."""
    return path if path.is_absolute() else REPO_ROOT / path


def _named_by_a_makefile(src):
    """Whether a Makefile (or Kbuild) of src's directory or above names
    src's object or source, by a path from there or from the tree's top."""
    top = str(src.relative_to(REPO_ROOT).with_suffix(''))
    where = src.parent
    while True:
        rel = str(src.relative_to(where).with_suffix(''))
        pattern = re.compile(rf'(^|[\s=:(/]){re.escape(rel)}\.[oc]\b|'
                             rf'(^|[\s=:(]){re.escape(top)}\.[oc]\b', re.M)
        for name in ('Makefile', 'Kbuild'):
            path = where / name
            if path.is_file() and pattern.search(path.read_text()):
                return True
        if where == REPO_ROOT:
            return False
        where = where.parent


def orphan_suites():
    """{suite name: source} for each test source no Makefile names."""
    orphans = {}
    for top in SOURCE_DIRS:
        for src in sorted((REPO_ROOT / top).rglob('*.c')):
            text = src.read_text(encoding='utf-8', errors='replace')
            if not SUITE_SOURCE_RE.search(text):
                continue
            if _named_by_a_makefile(src):
                continue
            rel = str(src.relative_to(REPO_ROOT))
            for name in SUITE_NAME_RE.findall(text) or [src.stem]:
                orphans[name] = rel
    return orphans


def built_suites(build_dir):
    """{suite: (cases, where)} of what build_dir built: its kernel's
    objects and its modules; where names the object or module."""
    found = {}
    files = [(_resolve(build_dir, p), False)
             for p in _listed(build_dir, '.vmlinux.objs')]
    files += [(_resolve(build_dir, p), True)
              for p in _listed(build_dir, '.modules')]
    for path, module in files:
        if not path.is_file():
            continue
        for name, cases in object_suites(path, module).items():
            found[name] = (cases, display(path))
    return found


def display(path):
    try:
        return str(Path(path).relative_to(REPO_ROOT))
    except ValueError:
        return str(path)


# ---------------------------------------------------------------------------
# kunit.filter_glob as lib/kunit/test.c matches it
# ---------------------------------------------------------------------------

def _glob(pattern, text):
    """The kernel's glob_match(): '*', '?', [a-z] and [!a-z] classes, a
    backslash taking the next character as it is."""
    regex, i = '', 0
    while i < len(pattern):
        c = pattern[i]
        if c == '*':
            regex += '.*'
        elif c == '?':
            regex += '.'
        elif c == '\\' and i + 1 < len(pattern):
            i += 1
            regex += re.escape(pattern[i])
        elif c == '[' and ']' in pattern[i + 2:]:
            end = pattern.index(']', i + 2)
            body = pattern[i + 1:end]
            neg = body.startswith('!')
            body = body[1:] if neg else body
            regex += '[' + ('^' if neg else '') + body.replace('\\', '\\\\') + ']'
            i = end
        else:
            regex += re.escape(c)
        i += 1
    return re.fullmatch(regex, text, re.S) is not None


def _item(item, suite, case, exclude):
    suite_part, dot, case_part = item.partition('.')
    if not _glob(suite_part, suite):
        return False
    if not dot:
        return True
    if case is None:
        return not exclude
    return _glob(case_part, case)


def filter_match(glob, suite, case=None):
    if glob is None:
        return True
    include = selected = False
    for item in glob.split(','):
        if item.startswith('-') and len(item) > 1:
            if _item(item[1:], suite, case, True):
                return False
        else:
            include = True
            selected = selected or _item(item, suite, case, False)
    return not include or selected


_orphans = None


def expected(build_dir, glob=None, built=None):
    """{suite: (cases the filter selects, where)} the run must report;
    built: built_suites(build_dir), if known already."""
    global _orphans
    if _orphans is None:
        _orphans = orphan_suites()
    out = {}
    if built is None:
        built = built_suites(build_dir)
    for name, (cases, where) in built.items():
        chosen = [c for c in cases if filter_match(glob, name, c)]
        if filter_match(glob, name) and chosen:
            out[name] = (chosen, where)
    for name, source in _orphans.items():
        if name not in out and filter_match(glob, name):
            out[name] = (None, f'{source}, which no Makefile builds')
    return out


def main(argv):
    if not 1 <= len(argv) <= 2:
        sys.exit(__doc__.strip().splitlines()[-1].strip())
    for name, (cases, where) in sorted(
            expected(argv[0], argv[1] if len(argv) > 1 else None).items()):
        count = 'not built' if cases is None else len(cases)
        print(f'{name}: {count} ({where})')


if __name__ == '__main__':
    main(sys.argv[1:])
