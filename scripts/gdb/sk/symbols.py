# SPDX-License-Identifier: GPL-2.0
"""Names of addresses as the kernel prints them (%pS, %ps), and modules.

The kernel's own symbol table (kallsyms_addresses, _sizes, _name_offsets,
_names: scripts/kallsyms.py) and each loaded module's (mod->symtab,
mod->strtab) are read from memory and searched as kernel/kallsyms.c and
kernel/module/kallsyms.c search them, so a name here is the name the
console prints for the same address.
"""
import bisect
import struct

from . import mem

_kallsyms = None


class Kallsyms:
    """The kernel's table, read once: it does not change after the link."""

    def __init__(self):
        num = mem.u64(mem.symbol_address('kallsyms_num'), 'kallsyms_num')
        if not 0 < num < 1 << 20:
            raise mem.Corrupt(f'kallsyms_num is {num}: not a symbol count')
        self.addrs = list(struct.unpack(
            f'<{num}Q', mem.read(mem.symbol_address('kallsyms_addresses'),
                                 8 * num, 'kallsyms_addresses')))
        self.sizes = list(struct.unpack(
            f'<{num}I', mem.read(mem.symbol_address('kallsyms_sizes'),
                                 4 * num, 'kallsyms_sizes')))
        offs = struct.unpack(
            f'<{num}I', mem.read(mem.symbol_address('kallsyms_name_offsets'),
                                 4 * num, 'kallsyms_name_offsets'))
        blob = mem.read(mem.symbol_address('kallsyms_names'),
                        max(offs) + 256, 'kallsyms_names')
        self.names = [blob[o:blob.index(b'\0', o)].decode() for o in offs]
        if any(b < a for a, b in zip(self.addrs, self.addrs[1:])):
            raise mem.Corrupt('kallsyms_addresses is not sorted')

    def lookup(self, addr):
        """(name, size, offset) of the symbol holding addr, or None."""
        i = bisect.bisect_right(self.addrs, addr) - 1
        if i < 0:
            return None
        size = self.sizes[i]
        if not size and i + 1 < len(self.addrs):
            size = self.addrs[i + 1] - self.addrs[i]
        if addr - self.addrs[i] >= size:
            return None
        return self.names[i], size, addr - self.addrs[i]

    def address(self, name):
        for a, n in zip(self.addrs, self.names):
            if n == name:
                return a
        return 0


def kallsyms():
    global _kallsyms
    if _kallsyms is None:
        _kallsyms = Kallsyms()
    return _kallsyms


# ---------------------------------------------------------------------------
# Modules
# ---------------------------------------------------------------------------

MOD_TYPES = ('text', 'rodata', 'ro_after_init', 'data', 'init_text',
             'init_rodata', 'init_data')
STATES = {0: 'live', 1: 'coming', 2: 'going', 3: 'unformed'}


class Module:
    """One struct module, read whole."""

    def __init__(self, addr):
        L = mem.layout('struct module')
        self.addr = addr
        data = L.read(addr, f'struct module at {addr:#x}')
        self.data = data
        self.layout = L
        raw = L.get(data, 'name')
        end = raw.find(b'\0')
        if end <= 0:
            raise mem.Corrupt(f'module at {addr:#x}: its name is not a '
                              f'string')
        self.name = raw[:end].decode('utf-8', 'replace')
        self.state = L.get(data, 'state')
        mm = mem.layout('struct module_memory')
        n = L.field_type('mem').sizeof // mm.size
        base = L.offset('mem')
        self.mem = []
        for t in range(n):
            self.mem.append((mm.get(data, 'base', base + t * mm.size),
                             mm.get(data, 'size', base + t * mm.size)))
        self.refcnt = L.get(data, 'refcnt.counter')
        self.jump_entries = L.get(data, 'jump_entries')
        self.num_jump_entries = L.get(data, 'num_jump_entries')
        self.jump_init_done = L.get(data, 'jump_init_done')
        self._symbols = None

    def get(self, field):
        return self.layout.get(self.data, field)

    def region_of(self, addr):
        for t, (base, size) in enumerate(self.mem):
            if base and 0 <= addr - base < size:
                return t
        return -1

    def size(self):
        return sum(size for _, size in self.mem)

    def symbols(self):
        """[(value, size, name)] of its kept symbols (its kallsyms)."""
        if self._symbols is None:
            n = self.get('num_symtab')
            if n > 1 << 20:
                raise mem.Corrupt(f'module {self.name}: {n} symbols')
            symtab, strtab = self.get('symtab'), self.get('strtab')
            out = []
            if n:
                data = mem.read(symtab, 24 * n, f'{self.name}: symtab')
                for i in range(n):
                    st_name, _, _, _, value, size = struct.unpack_from(
                        '<IBBHQQ', data, 24 * i)
                    out.append((value, size, mem.cstring(
                        strtab + st_name, 128, f'{self.name}: strtab')))
            self._symbols = out
        return self._symbols

    def lookup(self, addr):
        """(name, size, offset), as module_kallsyms_lookup() finds it."""
        t = self.region_of(addr)
        if t < 0:
            return None
        base, rsize = self.mem[t]
        best, nxt = None, base + rsize
        for value, size, name in self.symbols():
            if not 0 <= value - base < rsize:
                continue
            if value > addr:
                nxt = min(nxt, value)
                continue
            if best is None or value > best[0] or \
                    (value == best[0] and size and not best[1]):
                best = (value, size, name)
        if best is None:
            return None
        size = best[1] or nxt - best[0]
        if addr - best[0] >= size:
            return None
        return best[2], size, addr - best[0]


def modules():
    """The loaded modules, in list order (Module objects)."""
    head = mem.symbol_address('modules')
    return [Module(a) for a in
            mem.list_entries(head, 'struct module', 'list', 'modules')]


def module_at(addr, mods=None):
    """The loaded module whose memory holds addr, or None."""
    for mod in mods if mods is not None else modules():
        if mod.region_of(addr) >= 0:
            return mod
    return None


def lookup(addr, mods=None):
    """(name, size, offset, module name or None), or None."""
    found = kallsyms().lookup(addr)
    if found:
        return found + (None,)
    mod = module_at(addr, mods)
    if mod:
        found = mod.lookup(addr)
        if found:
            return found + (mod.name,)
    return None


def sym_offset(addr, mods=None):
    """%pS: "name+0x1/0x20" (" [mod]" for a module's), else 0x..."""
    found = lookup(addr, mods)
    if not found:
        return f'{addr:#x}'
    name, size, off, modname = found
    text = f'{name}+{off:#x}/{size:#x}'
    return f'{text} [{modname}]' if modname else text


def sym_name(addr, mods=None):
    """%ps: the name alone (" [mod]" for a module's)."""
    found = lookup(addr, mods)
    if not found:
        return f'{addr:#x}'
    return f'{found[0]} [{found[3]}]' if found[3] else found[0]
