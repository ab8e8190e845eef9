# SPDX-License-Identifier: GPL-2.0
"""Static keys and their sites, read from memory: sk-keys, sk-sites.

The walk is the kernel's (kernel/jump_label/introspect.c): the keys are
those with a live site in the kernel's sorted __jump_table or a loaded
module's, each reported once; a key's sites are its run of the kernel's
table, or, once it is JUMP_TYPE_LINKED, each table of its chain of
struct static_key_mod (<linux/jump_label_table.h>). Sites in freed init
text do not count. Names follow kernel/shell/key_name.c, so the lines
match the console's keys and sites, which is what make test checks.
"""
import fnmatch

import gdb

from . import batch, insn, mem, symbols

# <linux/jump_label.h> and <linux/jump_label_table.h>: the bits below the
# key's pointer and below an entry's key offset.
JUMP_TYPE_TRUE, JUMP_TYPE_LINKED, JUMP_TYPE_MASK = 1, 2, 3
JUMP_ENTRY_BRANCH, JUMP_ENTRY_INIT, JUMP_ENTRY_FLAGS = 1, 2, 3
TRACEPOINT_PREFIX = '__tracepoint_'
MAX_CHAIN = 4096


class Entry:
    """One jump_entry, decoded: its offsets are relative to its fields."""
    __slots__ = ('at', 'code', 'target', 'key', 'branch', 'init', 'mod')

    def __init__(self, at, code, target, key, branch, init, mod):
        self.at, self.code, self.target, self.key = at, code, target, key
        self.branch, self.init, self.mod = branch, init, mod


class Table:
    """A sorted jump table: the kernel's (mod None) or a module's."""

    def __init__(self, start, count, mod=None):
        L = mem.layout('struct jump_entry')
        self.start, self.count, self.mod, self.esize = start, count, mod, \
            L.size
        self.stop = start + count * L.size
        what = f'{mod.name if mod else "the kernel"}\'s __jump_table'
        if count > 1 << 20:
            raise mem.Corrupt(f'{what}: {count} entries')
        data = mem.read(start, count * L.size, what)
        oc, ot, ok = (L.offset(f) for f in ('code', 'target', 'key'))
        self.entries = []
        for i in range(count):
            at = start + i * L.size
            b = i * L.size
            key = L.get(data, 'key', b)
            self.entries.append(Entry(
                at, at + oc + L.get(data, 'code', b),
                at + ot + L.get(data, 'target', b),
                at + ok + (key & ~JUMP_ENTRY_FLAGS),
                bool(key & JUMP_ENTRY_BRANCH), bool(key & JUMP_ENTRY_INIT),
                mod))

    def index(self, addr, what):
        off = addr - self.start
        if off < 0 or off % self.esize or addr > self.stop:
            raise mem.Corrupt(f'{what}: {addr:#x} is not an entry of '
                              f'{self.mod.name if self.mod else "the kernel"}'
                              f"'s __jump_table")
        return off // self.esize


class State:
    """One reading of everything the key commands need."""

    def __init__(self):
        self.mods = symbols.modules()
        start = mem.symbol_address('__start___jump_table')
        stop = mem.symbol_address('__stop___jump_table')
        esize = mem.sizeof('struct jump_entry')
        if stop < start or (stop - start) % esize:
            raise mem.Corrupt(f'__jump_table [{start:#x}, {stop:#x}) is not '
                              f'a whole number of {esize}-byte entries')
        self.kernel = Table(start, (stop - start) // esize)
        self.tables = [self.kernel]
        for mod in self.mods:
            if mod.jump_entries and mod.num_jump_entries:
                self.tables.append(Table(mod.jump_entries,
                                         mod.num_jump_entries, mod))
        self.init_mem = bool(mem.u8(mem.symbol_address('init_mem_available'),
                                    'init_mem_available'))
        self.batch = batch.read_batch(optional=True)

    def table_at(self, addr):
        for t in self.tables:
            if t.start <= addr < t.stop:
                return t
        return None

    def dead(self, e):
        if not e.init:
            return False
        return e.mod.jump_init_done if e.mod else not self.init_mem

    def keys(self):
        """Every key with an entry in a table, in address order, once."""
        return sorted({e.key for t in self.tables for e in t.entries})

    def _run(self, table, first, key):
        i = table.index(first, f'key {key:#x}')
        while i < table.count and table.entries[i].key == key:
            yield table.entries[i]
            i += 1

    def sites(self, key):
        """The live entries of key, as __static_key_for_each_site()."""
        L = mem.layout('struct static_key')
        data = L.read(key, f'static key at {key:#x}')
        ptr = L.get(data, 'type')
        out = []
        if not ptr & JUMP_TYPE_LINKED:
            first = ptr & ~JUMP_TYPE_MASK
            if first:
                out += [e for e in self._run(self.kernel, first, key)
                        if not self.dead(e)]
            return out
        M = mem.layout('struct static_key_mod')
        m, hops = ptr & ~JUMP_TYPE_MASK, 0
        while m:
            if hops > MAX_CHAIN:
                raise mem.Corrupt(f'key {key:#x}: its chain of tables loops')
            hops += 1
            mem.kernel_pointer(m, f'key {key:#x}: a static_key_mod')
            md = M.read(m)
            first, stop = M.get(md, 'entries'), M.get(md, 'stop')
            table = self.table_at(first)
            if table is None or stop != table.stop:
                raise mem.Corrupt(f'key {key:#x}: static_key_mod {m:#x} '
                                  f'points at {first:#x}..{stop:#x}, not '
                                  f'into a loaded jump table')
            out += [e for e in self._run(table, first, key)
                    if not self.dead(e)]
            m = M.get(md, 'next')
        return out

    def count(self, key):
        L = mem.layout('struct static_key')
        n = L.get(L.read(key), 'enabled.counter')
        return 1 if n < 0 else n, n

    def default_true(self, key):
        L = mem.layout('struct static_key')
        return bool(L.get(L.read(key), 'type') & JUMP_TYPE_TRUE)


# ---------------------------------------------------------------------------
# Names (kernel/shell/key_name.c)
# ---------------------------------------------------------------------------

def _deferred_at(key, size, offset):
    """Whether the symbol has room for a deferred key there, and it is."""
    D = mem.layout('struct static_key_deferred')
    if offset + D.size > size:
        return False
    base = key - D.offset('key')
    func = mem.u64(base + D.offset('work.work.func'), 'deferred key work')
    return func == mem.symbol_address('jump_label_update_timeout')


def _deferred_timeout(key, size, offset):
    D = mem.layout('struct static_key_deferred')
    if offset % D.size or not _deferred_at(key, size, offset):
        return 0
    return mem.u64(key - D.offset('key') + D.offset('timeout'))


def key_name(state, key):
    """(name, module name or '', type, deferred timeout or 0)."""
    mod = symbols.module_at(key, state.mods)
    modname = mod.name if mod else ''
    ktype = 'true' if state.default_true(key) else 'false'
    found = symbols.kallsyms().lookup(key)
    if not found and mod:
        found = mod.lookup(key)
    if not found:
        return f'{key:#018x}', modname, ktype, 0
    sym, size, offset = found
    if sym.startswith(TRACEPOINT_PREFIX) and \
            offset == mem.layout('struct tracepoint').offset('key'):
        name_ptr = mem.u64(key - offset, 'tracepoint name')
        try:
            if mem.cstring(name_ptr, 128, 'tracepoint name') == \
                    sym[len(TRACEPOINT_PREFIX):]:
                return sym[len(TRACEPOINT_PREFIX):], modname, 'tracepoint', 0
        except mem.Corrupt:
            pass
    elem = mem.sizeof('struct static_key')
    if _deferred_at(key, size, offset):
        elem = mem.sizeof('struct static_key_deferred')
    timeout = _deferred_timeout(key, size, offset)
    if size >= 2 * elem and not size % elem and not offset % elem:
        return f'{sym}[{offset // elem}]', modname, ktype, timeout
    if offset:
        return f'{sym}+{offset:#x}', modname, ktype, timeout
    return sym, modname, ktype, timeout


def find_key(state, spec):
    """The key that "name" or "module:name" names, or Corrupt."""
    modname, _, name = spec.rpartition(':')
    for key in state.keys():
        if not state.sites(key):
            continue
        kname, kmod, _, _ = key_name(state, key)
        if kname == name and (not spec.count(':') or kmod == modname):
            return key
    raise gdb.GdbError(f'sk-sites: {spec}: no such key with sites; '
                       f"'sk-keys' lists them")


# ---------------------------------------------------------------------------
# The commands
# ---------------------------------------------------------------------------

def keys_lines(glob):
    state = State()
    lines = [f'{"KEY":<34} {"MODULE":<12} {"TYPE":<10} {"COUNT":>5} '
             f'{"STATE":<8} {"SITES(S/L)":>11} DEFERRED']
    shown = total = bad = 0
    for key in state.keys():
        # One key that reads as corrupt is said, and the others listed.
        try:
            line = key_line(state, key, glob)
        except mem.Corrupt as exc:
            what = str(exc)
            lines.append(f'corrupt: {what}' if f'{key:#x}' in what else
                         f'corrupt: key at {key:#x}: {what}')
            bad += 1
            continue
        if line is None:
            continue
        total += 1
        if line:
            lines.append(line)
            shown += 1
    lines.append(f'{shown} of {total} keys' +
                 (f' ({bad} corrupt)' if bad else ''))
    return lines


def key_line(state, key, glob):
    """The key's line, '' when glob leaves it out, None without sites."""
    sites = state.sites(key)
    if not sites:
        return None
    name, modname, ktype, timeout = key_name(state, key)
    if not fnmatch.fnmatchcase(name, glob):
        return ''
    count, _ = state.count(key)
    short = sum(insn.is_short(mem.u8(e.code, f'site of {name}'))
                for e in sites)
    deferred = f'{timeout} jiffies' if timeout else '-'
    return (f'{name:<34} {modname or "-":<12} {ktype:<10} '
            f'{count:>5} {"enabled" if count > 0 else "disabled":<8} '
            f'{short:>5}/{len(sites) - short:<5} {deferred}')


_image = {}


def image_site_size(addr):
    """The length of the kernel site at addr by the bytes vmlinux ships
    there (jump_label_fixup wrote each site's initial instruction), or
    None for an address outside vmlinux's sections (a module's)."""
    path = gdb.current_progspace().filename
    if not path:
        return None
    if path not in _image:
        from elftools.elf.elffile import ELFFile
        secs = []
        with open(path, 'rb') as f:
            for sec in ELFFile(f).iter_sections():
                if sec['sh_type'] == 'SHT_PROGBITS' and sec['sh_addr'] and \
                        sec['sh_flags'] & 4:          # SHF_EXECINSTR
                    secs.append((sec['sh_addr'], sec.data()))
        _image[path] = secs
    for base, data in _image[path]:
        if 0 <= addr - base < len(data):
            return 2 if insn.is_short(data[addr - base]) else 5
    return None


def site_verdict(state, e, enabled, data, size):
    """What the bytes of entry e's site are, and whether they agree with
    its key: (decoded text, verdict, bad)."""
    inflight = state.batch.site(e.code) if state.batch else None
    if inflight:
        size = inflight.len
    else:
        size = image_site_size(e.code) or size
    data = mem.read(e.code, size, 'site')
    kind, length, target = insn.decode(data, e.code)
    text = kind or '??'
    if target is not None:
        text += f' -> {target:016x}'
    want = insn.jump_label_want(size, enabled != e.branch, e.code, e.target)
    other = insn.jump_label_want(size, enabled == e.branch, e.code, e.target)
    if want is None:
        return text, f'CORRUPT: the target is out of a {size}-byte jmp\'s ' \
                     f'reach', True
    if data[:size] == want:
        return text, 'ok', False
    if inflight:
        return text, f'in flight: {inflight.describe(data)}', False
    what = 'enabled' if enabled else 'disabled'
    if data[:size] == other:
        return text, f'WRONG: the key is {what}, the site holds ' \
                     f'{insn.decode(other, e.code)[0]}, want ' \
                     f'{insn.decode(want, e.code)[0]}', True
    return text, f'CORRUPT: {insn.hexbytes(data[:size])} is neither ' \
                 f'{insn.decode(want, e.code)[0]} nor ' \
                 f'{insn.decode(other, e.code)[0]} of this site (key ' \
                 f'{what}, want {insn.hexbytes(want)})', True


def sites_lines(spec):
    state = State()
    key = find_key(state, spec)
    count, _ = state.count(key)
    lines, bad, inflight = [], [], 0
    for e in state.sites(key):
        first = mem.u8(e.code, 'site')
        size = 2 if insn.is_short(first) else 5
        try:
            data = mem.read(e.code, size, 'site')
            hexs = ''.join(f'{b:02x} ' for b in data)
        except mem.Corrupt:
            data, hexs = b'', '(unreadable)'
        sym = symbols.sym_offset(e.code, state.mods)
        line = (f'  {e.code:016x} {sym:<40} {hexs}-> {e.target:016x}'
                f'{" (likely)" if e.branch else ""}')
        text, verdict, wrong = site_verdict(state, e, count > 0, data, size)
        lines.append(f'{line}  {text}: {verdict}')
        inflight += verdict.startswith('in flight')
        if wrong:
            bad.append(f'{e.code:016x} {sym}')
    n = len(lines)
    lines.append(f'{n} sites (bytes now at each, then the jump target)')
    state_word = 'enabled' if count > 0 else 'disabled'
    if bad:
        lines.append(f'sk-sites: {spec}: {len(bad)} of {n} sites disagree '
                     f'with the key ({state_word}): ' + ', '.join(bad))
    elif inflight:
        lines.append(f'sk-sites: {spec}: no site disagrees with the key '
                     f'({state_word}): {inflight} of {n} are in the batch '
                     f'in flight, as the protocol has them')
    else:
        lines.append(f'sk-sites: {spec}: all {n} sites agree with the key '
                     f'({state_word})')
    return lines


def run(fn, *args):
    """Prints fn's lines, or what reads as corrupt, instead of garbage.
    Memory gdb cannot read at all (a kernel stopped before its page
    tables are up, or running) is said too, not raised."""
    try:
        lines = fn(*args)
    except mem.Unreadable as exc:
        gdb.write(f'unreadable: {exc}: a bad pointer, or the kernel is '
                  f'not up yet\n')
        return
    except mem.Corrupt as exc:
        gdb.write(f'corrupt: {exc}\n')
        return
    except gdb.MemoryError as exc:
        gdb.write(f'unreadable: {exc}: a bad pointer, or the kernel is '
                  f'not up yet\n')
        return
    for line in lines:
        gdb.write(line + '\n')


class SkKeys(gdb.Command):
    """List static keys with sites: sk-keys [GLOB]

The console's keys: name, module, type, count, state, short/long live
sites, deferred timeout; read from memory, nothing asked of the kernel."""

    def __init__(self):
        super().__init__('sk-keys', gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        argv = gdb.string_to_argv(arg)
        run(keys_lines, argv[0] if argv else '*')


class SkSites(gdb.Command):
    """A key's sites and their bytes now: sk-sites NAME|MODULE:NAME

The console's sites lines, then what the bytes are (nop2, nop5, jmp8,
jmp32 and its target, int3) and whether they agree with the key's
state; a site that does not is named at the end."""

    def __init__(self):
        super().__init__('sk-sites', gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        argv = gdb.string_to_argv(arg)
        if len(argv) != 1:
            raise gdb.GdbError('usage: sk-sites NAME|MODULE:NAME')
        run(sites_lines, argv[0])


def register():
    SkKeys()
    SkSites()
