#!/usr/bin/python3
"""The sched pipe round trip's cache footprint, from the kernel's trace.

The pipe bench (kernel/bench/pipe_bench.c) single-steps 100 round trips and
records every instruction into a trace (arch/x86/bench/bench_trace.c),
printed on the serial console as

    FOOTPRINT begin {"name": ..., "bytes": N, "fnv": H, "overflow": 0}
    FOOTPRINT data <base64>          (many)
    FOOTPRINT end <name>

This module decodes it, cuts it into round trips (each starts where
pb_mark() starts, found with nm in the run's vmlinux; the first and last,
partial, are dropped) and reports per round trip, as the mean over them:

  exact, from the trace (instructions of pb_mark() and bench_*() left out):
    pipe_roundtrip_icache_lines   distinct 64-byte lines executed
    pipe_roundtrip_text_pages     distinct 4 KiB text pages executed
    pipe_roundtrip_data_lines     distinct 64-byte lines read
  modelled (Model below; Documentation/footprint.rst), after a warm-up of
  WARMUP_ROUNDS round trips:
    pipe_roundtrip_l1i_misses     32 KiB 8-way LRU L1i, 64-byte lines
    pipe_roundtrip_itlb_misses    64-entry fully associative LRU iTLB
    pipe_roundtrip_mispredicts    bimodal 2-bit table, BTB, return stack

scripts/bench.py imports it (runs(), GROUPS, records(), summary()): the
layout runs y-linkorder and n-linkorder build the old layout
(tests/configs/layout_linkorder.config) and boot every case, so that the
summary lists each figure the layout moves. As a
command: bench_footprint.py [--bimodal N] SERIAL_LOG VMLINUX prints the
figures of one run.
"""

import argparse
import base64
import json
import re
import subprocess
import sys
from collections import OrderedDict
from pathlib import Path

LINKORDER_CONFIG = 'tests/configs/layout_linkorder.config'
TRACE_NAME = 'pipe_roundtrip'
ROUND_START = 'pb_mark'
# The bench's own functions: run every round trip, but not the workload.
HARNESS = re.compile(r'^(pb_mark|bench_.*)$')
WARMUP_ROUNDS = 10

LINE, PAGE = 64, 4096
L1I_BYTES, L1I_WAYS = 32 * 1024, 8
ITLB_ENTRIES = 64
BIMODAL_ENTRIES = 4096
BTB_ENTRIES = 512
RAS_ENTRIES = 16

# Kinds of the trace's header byte (bits 0-2).
PLAIN, COND, JMP, CALL, JMP_IND, CALL_IND, RET, OTHER = range(8)
TAKEN, READ = 0x08, 0x10

EXACT = ('pipe_roundtrip_icache_lines', 'pipe_roundtrip_text_pages',
         'pipe_roundtrip_data_lines')
MODELLED = ('pipe_roundtrip_l1i_misses', 'pipe_roundtrip_itlb_misses',
            'pipe_roundtrip_mispredicts')
UNITS = {'pipe_roundtrip_icache_lines': 'lines',
         'pipe_roundtrip_text_pages': 'pages',
         'pipe_roundtrip_data_lines': 'lines',
         'pipe_roundtrip_l1i_misses': 'misses',
         'pipe_roundtrip_itlb_misses': 'misses',
         'pipe_roundtrip_mispredicts': 'mispredicts'}
GROUPS = (('sched pipe footprint, per round trip (trace; model: '
           'Documentation/footprint.rst)', EXACT + MODELLED),)


class TraceError(Exception):
    """A trace that is missing, truncated or does not decode."""


# ---------------------------------------------------------------------------
# The trace
# ---------------------------------------------------------------------------

def fnv1a(data):
    h = 0x811c9dc5
    for b in data:
        h = ((h ^ b) * 0x01000193) & 0xffffffff
    return h


def read_trace(text, name=TRACE_NAME):
    """The bytes of trace name in a serial log's text, checked."""
    header, chunks, done = None, [], False
    for line in text.splitlines():
        line = line.rstrip('\r')
        pos = line.find('FOOTPRINT ')
        if pos < 0:
            continue
        word, _, rest = line[pos + 10:].partition(' ')
        if word == 'begin':
            info = json.loads(rest)
            if info.get('name') == name:
                header, chunks, done = info, [], False
        elif word == 'data' and header is not None and not done:
            chunks.append(rest.strip())
        elif word == 'end' and rest.strip() == name and header is not None:
            done = True
    if header is None:
        raise TraceError(f'no trace "{name}"')
    if header.get('overflow'):
        raise TraceError(f'trace "{name}" overflowed its buffer')
    if not done:
        raise TraceError(f'trace "{name}" is truncated (no end line)')
    data = base64.b64decode(''.join(chunks))
    if len(data) != header['bytes'] or fnv1a(data) != header['fnv']:
        raise TraceError(f'trace "{name}": {len(data)} bytes, hash '
                         f'{fnv1a(data)}; the header says {header["bytes"]}, '
                         f'{header["fnv"]}')
    return data


def encode(insns):
    """The trace bytes of [(ip, kind, taken, read, call_len)] (for tests)."""
    out = bytearray()
    prev_ip = prev_read = 0

    def varint(v):
        v = (v + 2**63) % 2**64 - 2**63     # as the kernel's long
        z = ((v << 1) ^ (v >> 63)) & (2**64 - 1)
        while True:
            b, z = z & 0x7f, z >> 7
            out.append(b | (0x80 if z else 0))
            if not z:
                return

    for ip, kind, taken, read, call_len in insns:
        out.append(kind | (TAKEN if taken else 0) |
                   (READ if read is not None else 0))
        varint(ip - prev_ip)
        prev_ip = ip
        if kind in (CALL, CALL_IND):
            out.append(call_len)
        if read is not None:
            varint(read - prev_read)
            prev_read = read
    return bytes(out)


def decode(data):
    """[(ip, kind, taken, read or None, call_len)] of the trace bytes."""
    insns, pos, prev_ip, prev_read = [], 0, 0, 0

    def varint():
        nonlocal pos
        z = shift = 0
        while True:
            if pos >= len(data):
                raise TraceError('trace ends inside a record')
            b = data[pos]
            pos += 1
            z |= (b & 0x7f) << shift
            shift += 7
            if not b & 0x80:
                return (z >> 1) ^ -(z & 1)

    while pos < len(data):
        head = data[pos]
        pos += 1
        if head & 0xe0:
            raise TraceError(f'bad record header {head:#x} at byte {pos - 1}')
        kind = head & 7
        ip = (prev_ip + varint()) & (2**64 - 1)
        prev_ip = ip
        call_len = 0
        if kind in (CALL, CALL_IND):
            if pos >= len(data):
                raise TraceError('trace ends inside a record')
            call_len = data[pos]
            pos += 1
        read = None
        if head & READ:
            read = prev_read = (prev_read + varint()) & (2**64 - 1)
        insns.append((ip, kind, bool(head & TAKEN), read, call_len))
    return insns


def symbols(vmlinux):
    """[(start, size, name)] of the text symbols of vmlinux (nm -S)."""
    out = subprocess.run(['nm', '-S', '--defined-only', str(vmlinux)],
                         capture_output=True, text=True, check=True).stdout
    syms = []
    for line in out.splitlines():
        fields = line.split()
        if len(fields) == 4 and fields[2] in 'tTwW':
            syms.append((int(fields[0], 16), int(fields[1], 16), fields[3]))
    return syms


def harness_ranges(syms):
    return [(start, start + size) for start, size, name in syms
            if HARNESS.match(name)]


def round_trips(insns, start_ip, harness):
    """Round trips: lists of (insn, next ip, counted), cut at start_ip."""
    def counted(ip):
        return not any(lo <= ip < hi for lo, hi in harness)

    cache = {}
    rounds, current = [], None
    for i, insn in enumerate(insns):
        ip = insn[0]
        if ip == start_ip:
            if current is not None:
                rounds.append(current)
            current = []
        if current is None:
            continue
        nxt = insns[i + 1][0] if i + 1 < len(insns) else None
        if ip not in cache:
            cache[ip] = counted(ip)
        current.append((insn, nxt, cache[ip]))
    return rounds  # the last, unfinished, is dropped


def insn_length(insn, nxt):
    """The length of an instruction where the trace shows it, else 1."""
    ip, kind, taken = insn[0], insn[1], insn[2]
    if kind in (CALL, CALL_IND):
        return insn[4]
    if nxt is not None and (kind == PLAIN or (kind == COND and not taken)):
        if 0 < nxt - ip <= 15:
            return nxt - ip
    return 1


# ---------------------------------------------------------------------------
# Exact figures
# ---------------------------------------------------------------------------

def exact_figures(rounds):
    """Mean distinct I-lines, text pages and data lines read a round trip."""
    totals = dict.fromkeys(EXACT, 0)
    for trip in rounds:
        lines, pages, data = set(), set(), set()
        for insn, nxt, counted in trip:
            if not counted:
                continue
            ip = insn[0]
            end = ip + insn_length(insn, nxt) - 1
            for line in range(ip // LINE, end // LINE + 1):
                lines.add(line)
                pages.add(line * LINE // PAGE)
            if insn[3] is not None:
                data.add(insn[3] // LINE)
        totals['pipe_roundtrip_icache_lines'] += len(lines)
        totals['pipe_roundtrip_text_pages'] += len(pages)
        totals['pipe_roundtrip_data_lines'] += len(data)
    return {name: value / len(rounds) for name, value in totals.items()}


# ---------------------------------------------------------------------------
# The model
# ---------------------------------------------------------------------------

class LRUCache:
    """A set-associative cache of keys with LRU replacement."""

    def __init__(self, sets, ways):
        self.sets = [OrderedDict() for _ in range(sets)]
        self.ways = ways

    def access(self, key):
        """True on a hit; a miss fills the key, evicting the LRU one."""
        entries = self.sets[key % len(self.sets)]
        if key in entries:
            entries.move_to_end(key)
            return True
        if len(entries) >= self.ways:
            entries.popitem(last=False)
        entries[key] = True
        return False


class Predictor:
    """Bimodal 2-bit counters for conditional branches, a direct-mapped
    BTB for indirect jumps and calls, a return stack for returns. Direct
    jumps and calls are taken as predicted (their target is in the
    instruction); far transfers (int, iret, syscall) are not predicted."""

    def __init__(self, bimodal=BIMODAL_ENTRIES, btb=BTB_ENTRIES,
                 ras=RAS_ENTRIES):
        self.counters = [1] * bimodal     # weakly not taken
        self.btb = [None] * btb            # (ip, target)
        self.ras, self.ras_size = [], ras

    def branch(self, insn, nxt):
        """True if the branch insn (followed by nxt) is mispredicted."""
        ip, kind, taken = insn[0], insn[1], insn[2]
        if kind in (CALL, CALL_IND):
            self.ras.append(ip + insn[4])
            if len(self.ras) > self.ras_size:
                del self.ras[0]
        if kind == COND:
            index = ip % len(self.counters)
            counter = self.counters[index]
            self.counters[index] = (min(counter + 1, 3) if taken
                                    else max(counter - 1, 0))
            return (counter >= 2) != taken
        if kind in (JMP_IND, CALL_IND):
            index = ip % len(self.btb)
            hit = self.btb[index] == (ip, nxt)
            self.btb[index] = (ip, nxt)
            return not hit
        if kind == RET:
            predicted = self.ras.pop() if self.ras else None
            return predicted != nxt
        return False


class Model:
    """L1i, iTLB and branch predictor, fed one instruction at a time."""

    def __init__(self, bimodal=BIMODAL_ENTRIES):
        self.l1i = LRUCache(L1I_BYTES // LINE // L1I_WAYS, L1I_WAYS)
        self.itlb = LRUCache(1, ITLB_ENTRIES)
        self.predictor = Predictor(bimodal=bimodal)
        self.last_line = None

    def step(self, insn, nxt):
        """(L1i misses, iTLB misses, mispredicts) of one instruction."""
        ip = insn[0]
        end = ip + insn_length(insn, nxt) - 1
        l1i = itlb = 0
        for line in range(ip // LINE, end // LINE + 1):
            if line == self.last_line:
                continue
            self.last_line = line
            itlb += not self.itlb.access(line * LINE // PAGE)
            l1i += not self.l1i.access(line)
        mispredict = 0
        if insn[1] != PLAIN and nxt is not None:
            mispredict = int(self.predictor.branch(insn, nxt))
        return l1i, itlb, mispredict


def model_figures(rounds, warmup=WARMUP_ROUNDS, bimodal=BIMODAL_ENTRIES):
    """Mean modelled misses a round trip, over the rounds after warmup.
    The model sees every instruction (the harness's too, as the CPU
    would); only the workload's misses are counted."""
    if len(rounds) <= warmup:
        raise TraceError(f'{len(rounds)} round trips: fewer than the '
                         f'{warmup} of the warm-up')
    model = Model(bimodal)
    totals = [0, 0, 0]
    for number, trip in enumerate(rounds):
        for insn, nxt, counted in trip:
            misses = model.step(insn, nxt)
            if counted and number >= warmup:
                for i in range(3):
                    totals[i] += misses[i]
    measured = len(rounds) - warmup
    return dict(zip(MODELLED, (total / measured for total in totals)))


def figures(serial_text, vmlinux, bimodal=BIMODAL_ENTRIES):
    """All six figures of one run, or TraceError."""
    insns = decode(read_trace(serial_text))
    syms = symbols(vmlinux)
    starts = [start for start, _, name in syms if name == ROUND_START]
    if len(starts) != 1:
        raise TraceError(f'{vmlinux}: {len(starts)} {ROUND_START} symbols')
    rounds = round_trips(insns, starts[0], harness_ranges(syms))
    if not rounds:
        raise TraceError(f'no round trip in the trace ({len(insns)} '
                         'instructions)')
    result = exact_figures(rounds)
    result.update(model_figures(rounds, bimodal=bimodal))
    return result, len(rounds)


# ---------------------------------------------------------------------------
# scripts/bench.py's hooks
# ---------------------------------------------------------------------------

def runs(run_class, bench_config, jump_label_n_config):
    """The old-layout runs: every case, under icount, one CPU."""
    return (run_class('y-linkorder', (bench_config, LINKORDER_CONFIG),
                      '*', True, False),
            run_class('n-linkorder', (bench_config, jump_label_n_config,
                                      LINKORDER_CONFIG), '*', True, False))


def layout_of(run_name):
    """(the table's column, the layout) of a run, or None."""
    return {'y': ('y', 'default'), 'n': ('n', 'default'),
            'y-linkorder': ('y', 'linkorder'),
            'n-linkorder': ('n', 'linkorder')}.get(run_name)


def records(run_name, run_dir, report):
    """The footprint records of one run (config y or n, params layout=)."""
    layout = layout_of(run_name)
    if layout is None:
        return []
    log, vmlinux = run_dir / 'serial.log', run_dir / 'vmlinux'
    try:
        text = log.read_bytes().decode('utf-8', 'replace')
        if not vmlinux.is_file():
            raise TraceError(f'no {vmlinux}')
        values, count = figures(text, vmlinux)
    except (OSError, TraceError, subprocess.CalledProcessError,
            ValueError) as exc:
        report.warn(f'run {run_name}: no footprint figures ({exc})')
        return []
    print(f'  [{run_name}] footprint: {count} round trips traced')
    return [{'name': name, 'config': layout[0],
             'params': f'layout={layout[1]}', 'value': round(value, 2),
             'unit': UNITS[name]} for name, value in values.items()]


def summary(records_, find):
    """Lines for bench.py's summary: y against n, new layout against old;
    find(records, name, config, params) is bench.py's find_value()."""
    lines = []
    for name in EXACT + MODELLED:
        cells = []
        for layout in ('default', 'linkorder'):
            y = find(records_, name, 'y', f'layout={layout}')
            n = find(records_, name, 'n', f'layout={layout}')
            if y is not None and n is not None:
                ratio = f' ({100.0 * (y - n) / n:+.1f}%)' if n else ''
                cells.append(f'{layout} y {y:g} n {n:g}{ratio}')
        if cells:
            lines.append(f'{name}: ' + '; '.join(cells))
    lines += layout_moves(records_, find)
    return lines


def layout_moves(records_, find):
    """The figures the layout moves: each old-layout record against the
    same figure of the default layout's run."""
    same, moved = 0, []
    for record in records_:
        config = record['config']
        if not config.endswith('-linkorder'):
            continue
        new = find(records_, record['name'], config[:-len('-linkorder')],
                   record['params'])
        if new is None:
            continue
        if new == record['value']:
            same += 1
            continue
        params = f' {record["params"]}' if record['params'] else ''
        moved.append(f'  {config[0]} {record["name"]}{params}: '
                     f'{record["value"]:g} -> {new:g} '
                     f'({new - record["value"]:+g} {record["unit"]})')
    if not same and not moved:
        return []
    return [f'old layout -> default layout: {same} figures the same, '
            f'{len(moved)} moved' + (':' if moved else '')] + moved


def main(argv):
    parser = argparse.ArgumentParser(
        prog='bench_footprint.py', description='Footprint figures and the '
        'model over the pipe trace of one serial log.')
    parser.add_argument('serial_log')
    parser.add_argument('vmlinux')
    parser.add_argument('--bimodal', type=int, default=BIMODAL_ENTRIES,
                        metavar='N', help='2-bit counters of the bimodal '
                        f'table (default {BIMODAL_ENTRIES}), to see how '
                        'aliasing moves the mispredicts')
    args = parser.parse_args(argv[1:])
    if args.bimodal <= 0:
        parser.error('--bimodal must be positive')
    try:
        values, count = figures(Path(args.serial_log).read_bytes().decode(
            'utf-8', 'replace'), args.vmlinux, args.bimodal)
    except (OSError, TraceError, subprocess.CalledProcessError) as exc:
        print(f'error: {exc}', file=sys.stderr)
        return 1
    print(f'{count} round trips')
    for name, value in values.items():
        print(f'{name} {value:.2f} {UNITS[name]}')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
