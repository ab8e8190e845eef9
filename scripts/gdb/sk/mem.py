# SPDX-License-Identifier: GPL-2.0
"""Reading the stopped kernel's memory through gdb, with no help from it.

Every structure is read by the names of its fields, from the DWARF of
vmlinux (gdb.lookup_type): Layout gives each field's offset and size, so
a whole table is fetched in one read of the stub and decoded here, and
a layout change in the C code changes nothing here as long as the names
stay. Whatever cannot be read, or reads as impossible (a list that does
not come back to its head, a count beyond reason, a pointer outside the
kernel), raises Corrupt with a sentence naming the structure: commands
print that instead of garbage.
"""
import struct

import gdb

KERNEL_BASE = 0xffff800000000000   # kernel half: direct map, image, modules
MAX_WALK = 100000                  # more list nodes than that is a loop
MASK64 = (1 << 64) - 1


class Corrupt(Exception):
    """A structure that cannot be read, or reads as impossible."""


class Unreadable(Corrupt):
    """Memory the stub cannot read: a bad pointer, or a kernel whose
    mappings are not up yet (stopped at the reset vector, in GRUB)."""


def read(addr, size, what='memory'):
    """size bytes at addr, or Corrupt naming what."""
    if size < 0 or size > 64 << 20:
        raise Corrupt(f'{what}: {size} bytes at {addr:#x} is not a size')
    if not size:
        return b''
    try:
        return bytes(gdb.selected_inferior().read_memory(addr, size))
    except (gdb.MemoryError, gdb.error, OverflowError) as exc:
        raise Unreadable(f'{what}: cannot read {size} bytes at {addr:#x} '
                         f'({exc})') from None


def u8(addr, what='byte'):
    return read(addr, 1, what)[0]


def u32(addr, what='u32'):
    return struct.unpack('<I', read(addr, 4, what))[0]


def u64(addr, what='u64'):
    return struct.unpack('<Q', read(addr, 8, what))[0]


def cstring(addr, limit=256, what='string'):
    """The NUL-terminated string at addr (at most limit bytes)."""
    if not addr:
        raise Corrupt(f'{what}: NULL')
    data = read(addr, limit, what) if _readable(addr, limit) else \
        _read_prefix(addr, limit, what)
    end = data.find(b'\0')
    if end < 0:
        raise Corrupt(f'{what}: no end within {limit} bytes at {addr:#x}')
    return data[:end].decode('utf-8', 'replace')


def _readable(addr, size):
    try:
        gdb.selected_inferior().read_memory(addr, size)
        return True
    except (gdb.MemoryError, gdb.error, OverflowError):
        return False


def _read_prefix(addr, limit, what):
    """Up to limit bytes at addr, as many as can be read (a string at the
    end of a mapped region)."""
    got = b''
    while len(got) < limit:
        chunk = min(64, limit - len(got))
        try:
            got += bytes(gdb.selected_inferior().read_memory(addr + len(got),
                                                             chunk))
        except (gdb.MemoryError, gdb.error):
            if not got:
                raise Corrupt(f'{what}: cannot read at {addr:#x}') from None
            break
    return got


def kernel_pointer(value, what, null_ok=False):
    """value, checked to be a kernel address (or NULL if null_ok)."""
    if not value and null_ok:
        return 0
    if value < KERNEL_BASE:
        raise Corrupt(f'{what}: {value:#x} is not a kernel address')
    return value


def signed(value, size):
    bits = 8 * size
    return value - (1 << bits) if value >> (bits - 1) else value


# ---------------------------------------------------------------------------
# Types and symbols, from the DWARF and the symbol table of vmlinux
# ---------------------------------------------------------------------------

_layouts = {}


class Layout:
    """The fields of a struct by name: offset, size, signedness.

    Members of anonymous unions and structs are reachable by their own
    names, as in C. get(data, name) decodes one from bytes read at the
    start of the struct; a nested name is 'a.b'."""

    def __init__(self, typename):
        try:
            self.type = gdb.lookup_type(typename).strip_typedefs()
        except gdb.error as exc:
            raise Corrupt(f'no type {typename} in the debug info ({exc}): '
                          f'is vmlinux loaded?') from None
        self.name = typename
        self.size = self.type.sizeof
        self.fields = {}
        self._collect(self.type, 0, '')

    def _collect(self, t, base, prefix):
        for f in t.fields():
            ft = f.type.strip_typedefs()
            off = base + f.bitpos // 8
            if f.name is None:                   # anonymous union/struct
                self._collect(ft, off, prefix)
                continue
            name = prefix + f.name
            self.fields[name] = (off, ft)
            if ft.code in (gdb.TYPE_CODE_STRUCT, gdb.TYPE_CODE_UNION):
                self._collect(ft, off, name + '.')

    def offset(self, name):
        try:
            return self.fields[name][0]
        except KeyError:
            raise Corrupt(f'{self.name} has no field {name}: the scripts '
                          f'need updating') from None

    def field_type(self, name):
        self.offset(name)
        return self.fields[name][1]

    def get(self, data, name, base=0):
        off, ft = self.fields.get(name, (None, None))
        if off is None:
            self.offset(name)
        size = ft.sizeof
        raw = data[base + off:base + off + size]
        if len(raw) < size:
            raise Corrupt(f'{self.name}.{name}: short read')
        if ft.code == gdb.TYPE_CODE_ARRAY:
            return raw
        value = int.from_bytes(raw, 'little')
        if ft.code == gdb.TYPE_CODE_BOOL:
            return value
        if ft.code in (gdb.TYPE_CODE_INT, gdb.TYPE_CODE_ENUM) and \
                _is_signed(ft):
            return signed(value, size)
        return value

    def read(self, addr, what=None):
        return read(addr, self.size, what or f'{self.name} at {addr:#x}')


def _is_signed(t):
    try:
        return t.is_signed          # gdb 12+
    except AttributeError:
        return not str(t).startswith('unsigned') and str(t) != 'bool'


def layout(typename):
    if typename not in _layouts:
        _layouts[typename] = Layout(typename)
    return _layouts[typename]


def sizeof(typename):
    return layout(typename).size


def symbol_address(name):
    """The address of a global or file-static symbol of vmlinux."""
    sym = gdb.lookup_global_symbol(name)
    if sym is None:
        sym = gdb.lookup_static_symbol(name)
    if sym is not None:
        try:
            return int(sym.value().address)
        except gdb.error:
            pass
    try:
        return int(gdb.parse_and_eval(f"(unsigned long)&'{name}'"))
    except gdb.error:
        raise Corrupt(f'no symbol {name} in vmlinux: is it loaded?') from None


def symbol_elements(name):
    """The number of elements of the array symbol name."""
    sym = gdb.lookup_global_symbol(name) or gdb.lookup_static_symbol(name)
    if sym is None:
        raise Corrupt(f'no symbol {name} in vmlinux')
    t = sym.type.strip_typedefs()
    return t.sizeof // t.target().sizeof


def has_symbol(name):
    try:
        symbol_address(name)
        return True
    except Corrupt:
        return False


# ---------------------------------------------------------------------------
# Lists, CPUs, per-CPU data
# ---------------------------------------------------------------------------

def list_entries(head, typename, member, what):
    """Addresses of the structs on the list at head (container_of)."""
    lh = layout('struct list_head')
    off = layout(typename).offset(member)
    node = u64(head + lh.offset('next'), f'{what}: head')
    seen = set()
    out = []
    while node != head:
        kernel_pointer(node, f'{what}: a list node')
        if node in seen or len(out) > MAX_WALK:
            raise Corrupt(f'{what}: the list loops without coming back '
                          f'to its head at {head:#x}')
        seen.add(node)
        prev = u64(node + lh.offset('prev'), f'{what}: node')
        if prev not in seen and prev != head:
            raise Corrupt(f'{what}: node {node:#x} has prev {prev:#x}, '
                          f'not the node before it')
        out.append(node - off)
        node = u64(node + lh.offset('next'), f'{what}: node')
    return out


def nr_cpus():
    return symbol_elements('__per_cpu_offset')


def _mask(name):
    n = nr_cpus()
    words = read(symbol_address(name), (n + 63) // 64 * 8, name)
    bits = int.from_bytes(words, 'little')
    return [cpu for cpu in range(n) if bits >> cpu & 1]


def possible_cpus():
    return _mask('__cpu_possible_mask')


def online_cpus():
    return _mask('__cpu_online_mask')


def per_cpu_offset(cpu):
    return u64(symbol_address('__per_cpu_offset') + 8 * cpu,
               '__per_cpu_offset')


def per_cpu(name, cpu):
    """The address of CPU cpu's copy of the per-CPU variable name."""
    return (symbol_address(name) + per_cpu_offset(cpu)) & MASK64
