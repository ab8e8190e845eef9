#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""symversions.py: symbol versions (CRCs) of exports, from DWARF.

What CONFIG_MODVERSIONS' genksyms does for Linux, read from the debug
information of the objects instead of their preprocessed source: each
export (an EXPORT_SYMBOL*() of the object: its __ksymtab_<sym> or
__ksymtab_gpl_<sym> symbol) gets the CRC32 of a canonical text of its
declaration and of every type that declaration reaches, each named type
spelled out once, by definition: members with their types and offsets,
sizes, enumerator values, base types with size and encoding, qualifiers,
array bounds, parameter and return types. Names of parameters, source
lines and file names are left out, so a CRC changes when a type an
export names (or any type reachable from it, through pointers too, as
genksyms' expansion does) changes, and not otherwise.

Used as a module by scripts/modversions.py and scripts/modpost.py; as a
command: symversions.py OBJ... prints "0xCRC<TAB>symbol" per export, and
with --text the canonical text as well (to see why two CRCs differ).

Results are cached per object in .<obj>.symcrc beside it, valid while the
object's size and modification time are those recorded.
"""
import os
import sys
import zlib

from elftools.elf.elffile import ELFFile

EXPORT_SECTIONS = {'__ksymtab': '__ksymtab_', '__ksymtab_gpl': '__ksymtab_gpl_'}
CACHE_VERSION = 'symcrc 1'


def exported_symbols(elf):
    """The names an object exports, in symbol table order."""
    symtab = elf.get_section_by_name('.symtab')
    if symtab is None:
        return []
    names = []
    for sym in symtab.iter_symbols():
        shndx = sym['st_shndx']
        if not isinstance(shndx, int) or sym['st_info']['type'] != 'STT_OBJECT':
            continue
        # Built in, an export has a section of its own: __ksymtab+<sym>.
        section = elf.get_section(shndx).name.split('+', 1)[0]
        prefix = EXPORT_SECTIONS.get(section)
        if prefix and sym.name.startswith(prefix) and len(sym.name) > len(prefix):
            names.append(sym.name[len(prefix):])
    return names


def _attr(die, name, default=None):
    a = die.attributes.get(name)
    return a.value if a is not None else default


def _name(die):
    n = _attr(die, 'DW_AT_name')
    return n.decode() if isinstance(n, bytes) else n


def _target(die, attr='DW_AT_type'):
    return die.get_DIE_from_attribute(attr) if attr in die.attributes else None


class TypeText:
    """The canonical text of DIEs of one CU: references by kind and name for
    named aggregates, enums and typedefs, whose definitions are listed once
    per export; everything else inline."""

    KIND = {'DW_TAG_structure_type': 's', 'DW_TAG_union_type': 'u',
            'DW_TAG_enumeration_type': 'e', 'DW_TAG_typedef': 't'}
    QUAL = {'DW_TAG_const_type': 'const', 'DW_TAG_volatile_type': 'volatile',
            'DW_TAG_restrict_type': 'restrict', 'DW_TAG_atomic_type': '_Atomic'}

    def __init__(self):
        self.ref_memo = {}      # DIE offset -> (text, [named DIEs it reaches])
        self.def_memo = {}

    def ref(self, die):
        """(text naming die, the named DIEs whose definitions it needs)."""
        if die is None:
            return 'void', []
        if die.offset in self.ref_memo:
            return self.ref_memo[die.offset]
        self.ref_memo[die.offset] = ('<cycle>', [])    # not reached: named
        kind = self.KIND.get(die.tag)
        if kind and _name(die):
            out = (f'{kind}#{_name(die)}', [die])
        else:
            out = self._inline(die)
        self.ref_memo[die.offset] = out
        return out

    def _refs(self, dies):
        texts, needs = [], []
        for d in dies:
            t, n = self.ref(d)
            texts.append(t)
            needs += n
        return texts, needs

    def _inline(self, die):
        tag = die.tag
        if tag == 'DW_TAG_base_type':
            return (f'{_name(die)}:{_attr(die, "DW_AT_byte_size")}:'
                    f'{_attr(die, "DW_AT_encoding")}', [])
        if tag == 'DW_TAG_pointer_type':
            t, n = self.ref(_target(die))
            return f'*({t})', n
        if tag in self.QUAL:
            t, n = self.ref(_target(die))
            return f'{self.QUAL[tag]} {t}', n
        if tag == 'DW_TAG_array_type':
            t, n = self.ref(_target(die))
            dims = []
            for sub in die.iter_children():
                if sub.tag == 'DW_TAG_subrange_type':
                    ub = _attr(sub, 'DW_AT_upper_bound')
                    cnt = _attr(sub, 'DW_AT_count')
                    dims.append(str(cnt if cnt is not None else
                                    (ub + 1 if isinstance(ub, int) else '')))
            return f'{t}[{"][".join(dims)}]', n
        if tag == 'DW_TAG_subroutine_type':
            return self._function(die)
        if tag in self.KIND:        # an anonymous struct, union or enum
            return self._body(die)
        if tag == 'DW_TAG_unspecified_type':
            return _name(die) or '?', []
        return f'<{tag}>', []

    def _function(self, die):
        params, variadic = [], False
        for c in die.iter_children():
            if c.tag == 'DW_TAG_formal_parameter':
                params.append(_target(c))
            elif c.tag == 'DW_TAG_unspecified_parameters':
                variadic = True
        texts, needs = self._refs(params)
        if variadic:
            texts.append('...')
        elif not _attr(die, 'DW_AT_prototyped'):
            texts.append('<unprototyped>')
        ret, n = self.ref(_target(die))
        return f'fn({", ".join(texts)})->{ret}', needs + n

    def _body(self, die):
        """The definition of a struct, union or enum (or a typedef's)."""
        if die.offset in self.def_memo:
            return self.def_memo[die.offset]
        tag = die.tag
        if tag == 'DW_TAG_typedef':
            t, n = self.ref(_target(die))
            out = (f'typedef {_name(die)} {t}', n)
        elif _attr(die, 'DW_AT_declaration'):
            out = (f'{self.KIND[tag]} {_name(die)} <declared>', [])
        elif tag == 'DW_TAG_enumeration_type':
            vals = [f'{_name(c)}={_attr(c, "DW_AT_const_value")}'
                    for c in die.iter_children()
                    if c.tag == 'DW_TAG_enumerator']
            t, n = self.ref(_target(die))
            out = (f'enum {_name(die) or ""}:{t}:{_attr(die, "DW_AT_byte_size")}'
                   f'{{{",".join(vals)}}}', n)
        else:
            members, needs = [], []
            for c in die.iter_children():
                if c.tag != 'DW_TAG_member':
                    continue
                t, n = self.ref(_target(c))
                needs += n
                loc = _attr(c, 'DW_AT_data_member_location')
                bits = ''
                if 'DW_AT_bit_size' in c.attributes:
                    bits = (f':{_attr(c, "DW_AT_bit_size")}@'
                            f'{_attr(c, "DW_AT_data_bit_offset")}')
                members.append(f'{t} {_name(c) or ""}@{loc}{bits}')
            out = (f'{self.KIND[tag]} {_name(die) or ""}:'
                   f'{_attr(die, "DW_AT_byte_size")}{{{"; ".join(members)}}}',
                   needs)
        self.def_memo[die.offset] = out
        return out

    def declaration(self, die):
        """The text of an exported function or variable and every named type
        it reaches, each defined once, in the order first reached."""
        if die.tag == 'DW_TAG_subprogram':
            head, needs = self._function(die)
        else:
            t, needs = self.ref(_target(die))
            head = f'var {t}'
        parts, seen, todo = [head], set(), list(needs)
        while todo:
            d = todo.pop(0)
            key = (d.tag, _name(d))
            if key in seen:
                continue
            seen.add(key)
            text, more = self._body(d)
            parts.append(text)
            todo += more
        return '\n'.join(parts)


def _origin(die):
    """The DIE carrying the name and type: die, or what it completes."""
    for attr in ('DW_AT_abstract_origin', 'DW_AT_specification'):
        if attr in die.attributes:
            return _origin(die.get_DIE_from_attribute(attr))
    return die


def object_texts(path):
    """{symbol: canonical text} for the exports of one object."""
    with open(path, 'rb') as f:
        elf = ELFFile(f)
        wanted = set(exported_symbols(elf))
        if not wanted:
            return {}
        if not elf.has_dwarf_info():
            raise ValueError(f'{path}: no debug information (built without -g?)')
        found = {}
        for cu in elf.get_dwarf_info().iter_CUs():
            types = TypeText()
            for die in cu.get_top_DIE().iter_children():
                if die.tag not in ('DW_TAG_subprogram', 'DW_TAG_variable'):
                    continue
                decl = _origin(die)
                name = _name(decl)
                if name in wanted and name not in found:
                    found[name] = types.declaration(decl)
        missing = sorted(wanted - set(found))
        if missing:
            raise ValueError(f'{path}: no DWARF declaration of the exported '
                             f'{", ".join(missing)}')
        return found


def crc(text):
    return zlib.crc32(text.encode()) & 0xffffffff


def _cache_path(path):
    return os.path.join(os.path.dirname(path), f'.{os.path.basename(path)}.symcrc')


def object_crcs(path):
    """{symbol: crc} for the exports of one object, through its cache."""
    st = os.stat(path)
    stamp = f'{CACHE_VERSION} {st.st_size} {st.st_mtime_ns}'
    cache = _cache_path(path)
    try:
        with open(cache, encoding='utf-8') as f:
            lines = f.read().splitlines()
        if lines and lines[0] == stamp:
            return {s: int(c, 16) for c, s in
                    (line.split('\t') for line in lines[1:])}
    except (OSError, ValueError):
        pass
    crcs = {s: crc(t) for s, t in object_texts(path).items()}
    tmp = f'{cache}.{os.getpid()}'
    with open(tmp, 'w', encoding='utf-8') as f:
        f.write(stamp + '\n')
        for s in sorted(crcs):
            f.write(f'0x{crcs[s]:08x}\t{s}\n')
    os.replace(tmp, cache)
    return crcs


def main(argv):
    show = '--text' in argv
    status = 0
    for path in [a for a in argv if a != '--text']:
        try:
            if show:
                for s, t in sorted(object_texts(path).items()):
                    print(f'0x{crc(t):08x}\t{s}\n{t}\n')
            else:
                for s, c in sorted(object_crcs(path).items()):
                    print(f'0x{c:08x}\t{s}')
        except (OSError, ValueError) as e:
            print(f'symversions: {e}', file=sys.stderr)
            status = 1
    return status


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
