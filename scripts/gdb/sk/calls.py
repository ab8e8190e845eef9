# SPDX-License-Identifier: GPL-2.0
"""Static calls and their targets, read from memory: sk-calls.

The calls are found as static_call_for_each() finds them
(kernel/static_call/core.c): the kernel's __static_call_tramp_key table,
then each loaded module's; a call's sites are its run of the kernel's
__static_call_sites (key->sites, key->nr_sites; those in freed init text
left out), its trampoline, and each module's (key->mods). The lines are
the console's calls; sk-calls -v adds each site and what its bytes are.
"""
import fnmatch

import gdb

from . import insn, mem, symbols

STATIC_CALL_SITE_TAIL = 1
MAX_MODS = 4096


def _rel_pair(addr, what):
    """The two s32 fields of a {s32, s32} table entry, made absolute."""
    raw = mem.read(addr, 8, what)
    a = int.from_bytes(raw[0:4], 'little', signed=True)
    b = int.from_bytes(raw[4:8], 'little', signed=True)
    return addr + a, addr + 4 + b, b


class Call:
    def __init__(self, key, mod):
        L = mem.layout('struct static_call_key')
        self.key, self.mod = key, mod
        data = L.read(key, f'static_call_key at {key:#x}')
        self.func = L.get(data, 'func')
        self.tramp = L.get(data, 'tramp')
        self.name = mem.cstring(L.get(data, 'name'), 128,
                                f'static call {key:#x}: name')
        self.nr_sites = L.get(data, 'nr_sites')
        self.sites_ptr = L.get(data, 'sites')
        self.mods = L.get(data, 'mods')

    def sites(self, init_gone, init_range):
        """[(addr, tail)] in the kernel's order, the trampoline included."""
        if self.nr_sites > 1 << 20:
            raise mem.Corrupt(f'static call {self.name}: {self.nr_sites} '
                              f'sites')
        out, tramp_done = [], not self.tramp
        ssize = mem.sizeof('struct static_call_site')
        for i in range(self.nr_sites):
            at = self.sites_ptr + i * ssize
            addr, tramp_raw, _ = _rel_pair(at, f'{self.name}: a site')
            if not tramp_done and addr > self.tramp:
                tramp_done = True
                out.append((self.tramp, True))
            if init_gone and init_range[0] <= addr < init_range[1]:
                continue
            out.append((addr, bool(tramp_raw & STATIC_CALL_SITE_TAIL)))
        if not tramp_done:
            out.append((self.tramp, True))
        M = mem.layout('struct static_call_mod')
        S = mem.layout('struct static_call_msite')
        m, hops = self.mods, 0
        while m:
            hops += 1
            if hops > MAX_MODS:
                raise mem.Corrupt(f'static call {self.name}: its list of '
                                  f'modules loops')
            mem.kernel_pointer(m, f'static call {self.name}: a module node')
            md = M.read(m)
            nr, sites = M.get(md, 'nr'), M.get(md, 'sites')
            if nr > 1 << 20:
                raise mem.Corrupt(f'static call {self.name}: {nr} sites in '
                                  f'a module')
            data = mem.read(sites, nr * S.size, f'{self.name}: module sites')
            for i in range(nr):
                out.append((S.get(data, 'addr', i * S.size),
                            bool(S.get(data, 'tail', i * S.size))))
            m = M.get(md, 'next')
        return out


def _tramp_keys(start, count, mod):
    tk = mem.sizeof('struct static_call_tramp_key')
    L = mem.layout('struct static_call_tramp_key')
    out = []
    for i in range(count):
        at = start + i * tk
        raw = mem.read(at, tk, 'a static call key table entry')
        key = at + L.offset('key') + mem.signed(
            int.from_bytes(raw[L.offset('key'):L.offset('key') + 4],
                           'little'), 4)
        out.append(Call(key, mod))
    return out


def all_calls(mods):
    start = mem.symbol_address('__start_static_call_tramp_key')
    stop = mem.symbol_address('__stop_static_call_tramp_key')
    tk = mem.sizeof('struct static_call_tramp_key')
    if stop < start or (stop - start) % tk:
        raise mem.Corrupt('__static_call_tramp_key is not a whole table')
    calls = _tramp_keys(start, (stop - start) // tk, None)
    for mod in mods:
        n = mod.get('num_static_call_tramp_keys')
        if n:
            calls += _tramp_keys(mod.get('static_call_tramp_keys'), n, mod)
    return calls


def calls_lines(glob, verbose):
    mods = symbols.modules()
    init_gone = not mem.u8(mem.symbol_address('init_mem_available'))
    init_range = (mem.symbol_address('__init_text_begin'),
                  mem.symbol_address('__init_text_end'))
    lines = [f'{"call":<28} {"target":<40} {"sites":>5} module']
    shown = total = 0
    for call in all_calls(mods):
        total += 1
        if glob and not fnmatch.fnmatchcase(call.name, glob):
            continue
        shown += 1
        sites = call.sites(init_gone, init_range)
        n = len(sites) - bool(call.tramp)
        target = symbols.sym_offset(call.func, mods)
        lines.append(f'{call.name:<28} {target:<40} {n:>5} '
                     f'{call.mod.name if call.mod else ""}')
        if verbose:
            lines += _site_lines(call, sites, mods)
    lines.append(f'{shown} of {total} static calls')
    if glob and not shown:
        lines.append(f'calls: no static call matches {glob}')
    return lines


def _site_lines(call, sites, mods):
    out = []
    for addr, tail in sites:
        data = mem.read(addr, 5, f'{call.name}: a site')
        kind, length, target = insn.decode(data, addr)
        text = kind or '??'
        if target is not None:
            text += f' {symbols.sym_name(target, mods)}'
        role = 'trampoline' if addr == call.tramp else \
            'tail site' if tail else 'site'
        out.append(f'  {addr:016x} {symbols.sym_offset(addr, mods):<40} '
                   f'{insn.hexbytes(data[:max(length, 1)]):<15} {role}: '
                   f'{text}{_agree(call, kind, target, tail, addr)}')
    return out


def _agree(call, kind, target, tail, addr):
    """Whether a site's instruction reaches the call's target."""
    ret0 = mem.symbol_address('__static_call_return0')
    if call.func == 0:
        ok = kind in ('nop5', 'ret')
    elif call.func == ret0 and not tail:
        ok = kind is not None and kind.startswith('mov $0x0')
    else:
        ok = kind in ('call', 'jmp32') and target == call.func
    return '' if ok else '  (does not reach the target: CORRUPT)'


class SkCalls(gdb.Command):
    """Static calls and their targets: sk-calls [-v] [GLOB]

The console's calls (name, target, sites, module); with -v each site,
the trampoline and what its bytes are (call, jmp, nop5, ret, mov)."""

    def __init__(self):
        super().__init__('sk-calls', gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        from .keys import run
        argv = gdb.string_to_argv(arg)
        verbose = '-v' in argv
        argv = [a for a in argv if a != '-v']
        run(calls_lines, argv[0] if argv else None, verbose)


def register():
    SkCalls()
