# SPDX-License-Identifier: GPL-2.0
"""Loaded modules and their symbols: sk-lsmod, sk-symbols, sk-dmesg.

sk-lsmod prints the console's lsmod from the module list and the boot
loader's blobs. sk-symbols does what Linux's lx-symbols does: for each
loaded module it finds the .ko with debug info on the host (by the
name= of its .modinfo, in the build directory of vmlinux or the
directories given) and adds its symbols at the addresses the loader gave
its sections, so breakpoints and variables in a module work. The loader
keeps no section table, so each section's address is worked out from the
module's own symbol table in memory (mod->symtab: absolute values) and
the .ko's (offsets in their sections): every symbol of a section must
give the same base, or the section is left out, saying why.
"""
import os

import gdb

from . import mem, symbols

# pyelftools (python3-pyelftools) is needed by sk-symbols alone.
SHF_ALLOC = 0x2

KEPT_TYPES = ('STT_FUNC', 'STT_OBJECT', 'STT_NOTYPE')


def lsmod_lines():
    mods = symbols.modules()
    lines = [f'{"MODULE":<24} {"SIZE":>8} {"REFS":>5} {"STATE":<8} '
             f'JUMP ENTRIES']
    for mod in mods:
        refs = mod.refcnt - 1 if mod.refcnt > 0 else 0
        state = symbols.STATES.get(mod.state)
        if state is None:
            raise mem.Corrupt(f'module {mod.name}: state {mod.state}')
        lines.append(f'{mod.name:<24} {mod.size():>8} {refs:>5} {state:<8} '
                     f'{mod.num_jump_entries}')
    B = mem.layout('struct module_blob')
    nr = mem.u32(mem.symbol_address('nr_blobs'), 'nr_blobs')
    if nr > 4096:
        raise mem.Corrupt(f'nr_blobs is {nr}')
    base = mem.symbol_address('blobs')
    names = [mem.cstring(B.get(B.read(base + i * B.size), 'name'), 64,
                         'a module blob\'s name') for i in range(nr)]
    lines.append(f'{len(mods)} loaded; on the ISO:' +
                 ''.join(f' {n}' for n in names))
    return lines


def dmesg_text():
    buf = mem.symbol_address('log_buf')
    size = mem.symbol_elements('log_buf')
    end = mem.u64(mem.symbol_address('log_end'), 'log_end')
    start = max(0, end - size)
    data = mem.read(buf, size, 'log_buf')
    out = bytearray()
    for pos in range(start, end):
        out.append(data[pos % size])
    return out.decode('utf-8', 'replace')


# ---------------------------------------------------------------------------
# sk-symbols
# ---------------------------------------------------------------------------

_ko_index = {}       # path -> (mtime, name, has debug info)
_loaded = {}         # module name -> (path, {section: addr})


def _modinfo_name(elf):
    sec = elf.get_section_by_name('.modinfo')
    if sec is None:
        return None
    for item in sec.data().split(b'\0'):
        if item.startswith(b'name='):
            return item[5:].decode()
    return None


def _scan(dirs):
    """{module name: path of its .ko with debug info} under dirs."""
    found = {}
    for top in dirs:
        for root, _, files in os.walk(top):
            for f in files:
                if not f.endswith('.ko'):
                    continue
                path = os.path.join(root, f)
                try:
                    mtime = os.stat(path).st_mtime
                except OSError:
                    continue
                cached = _ko_index.get(path)
                if not cached or cached[0] != mtime:
                    from elftools.elf.elffile import ELFFile
                    try:
                        with open(path, 'rb') as fh:
                            elf = ELFFile(fh)
                            cached = (mtime, _modinfo_name(elf),
                                      elf.get_section_by_name('.debug_info')
                                      is not None)
                    except Exception:       # not an ELF file: skip it
                        cached = (mtime, None, False)
                    _ko_index[path] = cached
                if cached[1] and cached[2]:
                    prev = found.get(cached[1])
                    if not prev or os.stat(prev).st_mtime < mtime:
                        found[cached[1]] = path
    return found


def section_addresses(mod, path):
    """({section: address}, [why a section was left out])."""
    live = {}
    for value, _, name in mod.symbols():
        live.setdefault(name, []).append(value)
    from elftools.elf.elffile import ELFFile
    addrs, notes = {}, []
    with open(path, 'rb') as fh:
        elf = ELFFile(fh)
        symtab = elf.get_section_by_name('.symtab')
        by_sec = {}
        for sym in symtab.iter_symbols():
            shndx = sym['st_shndx']
            if not isinstance(shndx, int) or not sym.name or \
                    sym['st_info']['type'] not in KEPT_TYPES:
                continue
            values = live.get(sym.name, [])
            if len(values) == 1:
                by_sec.setdefault(shndx, []).append(
                    (sym.name, values[0] - sym['st_value']))
        for i, sec in enumerate(elf.iter_sections()):
            if not sec['sh_flags'] & SHF_ALLOC or \
                    not sec['sh_size']:
                continue
            bases = by_sec.get(i)
            if not bases:
                continue       # no symbol: nothing here to break on
            distinct = {b for _, b in bases}
            if len(distinct) != 1:
                notes.append(f'{sec.name}: its symbols give {len(distinct)} '
                             f'different bases: left out')
                continue
            base = distinct.pop()
            if mod.region_of(base) < 0 and sec.name.startswith('.init'):
                notes.append(f'{sec.name}: freed after init: left out')
                continue
            if mod.region_of(base) < 0 and \
                    mod.region_of(base + sec['sh_size'] - 1) < 0:
                notes.append(f'{sec.name}: {base:#x} is outside the '
                             f'module\'s memory: left out')
                continue
            addrs[sec.name] = base
    return addrs, notes


def load_symbols(mod, path):
    """add-symbol-file for mod; returns a line saying what was done."""
    addrs, notes = section_addresses(mod, path)
    if '.text' not in addrs:
        return f'{mod.name}: no .text address found in its symbols: not ' \
               f'loaded' + ''.join(f'; {n}' for n in notes)
    old = _loaded.get(mod.name)
    if old and old == (path, addrs):
        return f'{mod.name}: {path} already loaded at {addrs[".text"]:#x}'
    if old:
        gdb.execute(f'remove-symbol-file -a {old[1][".text"]:#x}',
                    to_string=True)
    args = ' '.join(f'-s {name} {addr:#x}' for name, addr in sorted(
        addrs.items()) if name != '.text')
    gdb.execute(f'add-symbol-file {path} {addrs[".text"]:#x} {args}',
                to_string=True)
    _loaded[mod.name] = (path, addrs)
    line = f'{mod.name}: {path} at .text {addrs[".text"]:#x} ' \
           f'({len(addrs)} sections)'
    return line + ''.join(f'; {n}' for n in notes)


def symbols_lines(dirs):
    if not dirs:
        vmlinux = gdb.current_progspace().filename
        if not vmlinux:
            raise gdb.GdbError('sk-symbols: no vmlinux loaded: give the '
                               'directories of the modules')
        dirs = [os.path.dirname(os.path.abspath(vmlinux))]
    kos = _scan(dirs)
    lines = []
    mods = symbols.modules()
    for mod in mods:
        path = kos.get(mod.name)
        if not path:
            lines.append(f'{mod.name}: no {mod.name}.ko with debug info '
                         f'under {", ".join(dirs)}')
            continue
        lines.append(load_symbols(mod, path))
    gone = set(_loaded) - {m.name for m in mods}
    for name in sorted(gone):
        gdb.execute(f'remove-symbol-file -a {_loaded[name][1][".text"]:#x}',
                    to_string=True)
        del _loaded[name]
        lines.append(f'{name}: unloaded: its symbols removed')
    lines.append(f'sk-symbols: {len(mods)} modules loaded')
    return lines


class LoadBreakpoint(gdb.Breakpoint):
    """In the loader just before a module's init (do_init_module(): the
    module is on the list, its init text mapped), or where its memory is
    freed: loads the symbols of every module and drops those of modules
    gone, then lets the kernel go on, as lx-symbols' breakpoint does. A
    breakpoint in the new module's init then resolves."""

    def __init__(self, dirs, where='do_init_module'):
        super().__init__(where, internal=True)
        self.dirs = dirs

    def stop(self):
        try:
            for line in symbols_lines(self.dirs):
                if not line.startswith('sk-symbols:') and \
                        'already loaded' not in line:
                    gdb.write(f'sk-symbols: {line}\n')
        except mem.Corrupt as exc:
            gdb.write(f'sk-symbols: corrupt: {exc}\n')
        return False


_auto = None


class SkLsmod(gdb.Command):
    """Loaded modules: sk-lsmod (the console's lsmod, from memory)."""

    def __init__(self):
        super().__init__('sk-lsmod', gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        from .keys import run
        run(lsmod_lines)


class SkDmesg(gdb.Command):
    """The kernel log: sk-dmesg (the last 64 KiB, as the console's dmesg)."""

    def __init__(self):
        super().__init__('sk-dmesg', gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        from .keys import run
        run(lambda: dmesg_text().rstrip('\n').split('\n'))


class SkSymbols(gdb.Command):
    """Load the loaded modules' symbols: sk-symbols [--auto] [DIR...]

For each loaded module, the .ko with debug info whose .modinfo names it
(under DIR, default the directory of vmlinux) is added with
add-symbol-file at its sections' addresses, as Linux's lx-symbols does;
symbols of modules gone since are removed. With --auto, a breakpoint in
the loader does it again before every module's init, so breakpoints in
modules not loaded yet (set pending) stop there, their init included;
otherwise run it again after insmod."""

    def __init__(self):
        super().__init__('sk-symbols', gdb.COMMAND_FILES)

    def invoke(self, arg, from_tty):
        global _auto
        from .keys import run
        argv = gdb.string_to_argv(arg)
        auto = '--auto' in argv
        argv = [a for a in argv if a != '--auto']
        run(symbols_lines, argv)
        if auto and _auto is None:
            # Before each init, and as a module's memory is freed (it is
            # off the list then): its symbols go, and with them any
            # breakpoint in it, which becomes pending again.
            _auto = (LoadBreakpoint(argv),
                     LoadBreakpoint(argv, 'free_module_memory'))
            gdb.write('sk-symbols: loading the symbols of every module '
                      'before its init from now on\n')


def register():
    SkLsmod()
    SkDmesg()
    SkSymbols()
