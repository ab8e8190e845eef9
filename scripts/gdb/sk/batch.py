# SPDX-License-Identifier: GPL-2.0
"""The int3 batch in flight, read from memory: sk-batch.

arch/x86/kernel/text_patch.c publishes the batch it applies in bp_desc
(vec, nr: struct text_poke_loc, sorted by address) and arms every CPU's
bp_refs before the first int3, drops them after the last write. Where the
batch is, is read from the sites themselves: each holds its old
instruction (before step 2), int3 over the old tail (step 2 done), int3
over the new tail (step 3 done) or its new instruction (step 4 done), so
the step is known with no word of the kernel's. The queue being built for
the next batch (tp_vec, tp_nr) is shown too.
"""
import gdb

from . import insn, mem, symbols

STATES = ('old', 'int3', 'int3+tail', 'new')
STEP_TEXT = {
    'old': 'step 1: published and armed, no int3 written yet',
    'int3': 'step 2: int3 written',
    'int3+tail': 'step 3: tails written',
    'new': 'step 4: first bytes written (retiring)',
}
MAX_SITES = 1 << 20


class Loc:
    """One site of the batch: address, length, the new instruction."""

    def __init__(self, addr, length, opcode):
        self.addr, self.len, self.opcode = addr, length, opcode

    def state(self, data):
        """Which write of the protocol the bytes data show, or None."""
        first, tail, new_tail = data[0], data[1:self.len], self.opcode[1:]
        if first == self.opcode[0] and tail == new_tail:
            return 'new'
        if first == 0xcc:
            return 'int3+tail' if self.len > 1 and tail == new_tail else \
                'int3'
        return 'old'

    def describe(self, data):
        st = self.state(data[:self.len])
        return {'old': 'old bytes, int3 not yet written',
                'int3': 'int3, old tail',
                'int3+tail': 'int3, new tail written',
                'new': 'new instruction written'}[st]


class Batch:
    def __init__(self, vec, nr, locs):
        self.vec, self.nr, self.locs = vec, nr, locs
        self.by_addr = {loc.addr: loc for loc in locs}

    def site(self, addr):
        return self.by_addr.get(addr)


def _loc_layout():
    return mem.layout('struct text_poke_loc')


def _read_locs(vec, nr, what):
    L = _loc_layout()
    if nr > MAX_SITES:
        raise mem.Corrupt(f'{what}: {nr} sites')
    mem.kernel_pointer(vec, f'{what}: its array')
    data = mem.read(vec, nr * L.size, what)
    locs = []
    for i in range(nr):
        b = i * L.size
        length = L.get(data, 'len', b)
        if not 1 <= length <= len(L.get(data, 'opcode', b)):
            raise mem.Corrupt(f'{what}: site {i} has length {length}')
        locs.append(Loc(L.get(data, 'addr', b), length,
                        L.get(data, 'opcode', b)[:length]))
    for a, b in zip(locs, locs[1:]):
        if b.addr <= a.addr:
            raise mem.Corrupt(f'{what}: not sorted by address at '
                              f'{b.addr:#x} (the int3 handler\'s binary '
                              f'search would miss sites)')
    return locs


def _desc():
    sym = gdb.lookup_static_symbol('bp_desc')
    if sym is None:
        raise mem.Corrupt('no bp_desc in vmlinux (text_patch.c)')
    try:
        v = sym.value()
        return int(v['vec']), int(v['nr'])
    except (gdb.MemoryError, gdb.error) as exc:
        raise mem.Unreadable(f'bp_desc: cannot read it ({exc})') from None


def read_batch(optional=False):
    """The batch in flight, or None when there is none."""
    try:
        vec, nr = _desc()
    except mem.Corrupt:
        if optional:
            return None
        raise
    if not vec and not nr:
        return None
    if not vec or not nr:
        raise mem.Corrupt(f'bp_desc: vec {vec:#x} with nr {nr}: half '
                          f'published')
    return Batch(vec, nr, _read_locs(vec, nr, 'the batch in flight'))


def _static(name):
    """The value of text_patch.c's scalar name (static, or global since the
    encoders write the queue themselves)."""
    sym = gdb.lookup_static_symbol(name) or gdb.lookup_global_symbol(name)
    if sym is None:
        raise mem.Corrupt(f'no {name} in vmlinux (text_patch.c)')
    try:
        return int(sym.value())
    except (gdb.MemoryError, gdb.error) as exc:
        raise mem.Unreadable(f'{name}: cannot read it ({exc})') from None


def _cpu_pcs():
    """{cpu: pc} of every vCPU (QEMU's threads are the CPUs, in order)."""
    pcs = {}
    inferior = gdb.selected_inferior()
    current = gdb.selected_thread()
    try:
        for t in sorted(inferior.threads(), key=lambda t: t.num):
            t.switch()
            pcs[t.num - 1] = int(gdb.selected_frame().pc())
    except gdb.error:
        pass
    finally:
        if current is not None:
            current.switch()
    return pcs


def batch_lines():
    lines = []
    b = read_batch()
    pcs = _cpu_pcs()
    mods = symbols.modules()
    online = set(mem.online_cpus())
    if b is None:
        lines.append('no batch in flight (bp_desc empty)')
    else:
        counts = {s: 0 for s in STATES}
        per_site = []
        for loc in b.locs:
            data = mem.read(loc.addr, loc.len, 'a site of the batch')
            st = loc.state(data)
            counts[st] += 1
            kind = insn.decode(loc.opcode, loc.addr)
            new = kind[0] or '??'
            if kind[2] is not None:
                new += f' -> {kind[2]:x}'
            per_site.append(f'  {loc.addr:016x} {symbols.sym_offset(loc.addr, mods):<40} '
                            f'{insn.hexbytes(data):<15} new {insn.hexbytes(loc.opcode):<15} '
                            f'({new}): {loc.describe(data)}')
        done = [s for s in STATES if counts[s]]
        step = STEP_TEXT[max(done, key=STATES.index)]
        lines.append(f'batch in flight: {b.nr} sites at {b.vec:#x}, {step}')
        lines.append('  sites: ' + ', '.join(f'{counts[s]} {s}'
                                            for s in STATES))
        if len(done) > 1:
            lines.append('  (a pass is being written: its sites are '
                         'not all at the same step)')
        lines += per_site
    lines.append(f'{"CPU":>5} {"ONLINE":<7} {"BP_REFS":>7}  PC')
    for cpu in mem.possible_cpus():
        refs = mem.u32(mem.per_cpu('bp_refs', cpu), 'bp_refs')
        refs = mem.signed(refs, 4)
        pc = pcs.get(cpu)
        where = symbols.sym_offset(pc, mods) if pc is not None else '?'
        note = ''
        if b is None and refs:
            note = '  (a reference with no batch: corrupt)'
        elif b is not None and refs > 1:
            note = '  (inside the int3 handler)'
        elif b is not None and refs == 0:
            note = '  (reference dropped: retiring)'
        lines.append(f'{cpu:>5} {"yes" if cpu in online else "no":<7} '
                     f'{refs:>7}  {where}{note}')
    tp_nr = _static('tp_nr')
    tp_vec = _static('tp_vec')
    if tp_nr and not (b is not None and tp_vec == b.vec):
        lines.append(f'queued for the next batch: {tp_nr} sites')
    return lines


class SkBatch(gdb.Command):
    """The int3 batch in flight: sk-batch

Its sites, what each holds now (old bytes, int3, new tail, new
instruction: the protocol's step), the new instruction, and each CPU's
reference on the batch and where it is."""

    def __init__(self):
        super().__init__('sk-batch', gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        from .keys import run
        run(batch_lines)


def register():
    SkBatch()
