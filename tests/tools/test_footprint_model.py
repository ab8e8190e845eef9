# SPDX-License-Identifier: GPL-2.0
"""scripts/bench_footprint.py on hand-made traces whose misses are known:
the trace encoding both ways, the exact figures, and each part of the
model (L1i sets and LRU, iTLB, bimodal counters, BTB, return stack)."""
import base64
import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / 'scripts'))
import bench_footprint as bf  # noqa: E402

BASE = 0xffffffff80100000


def plain(ip, read=None):
    return (ip, bf.PLAIN, False, read, 0)


def stream(insns):
    """[(insn, next ip, counted)] of a list of instructions."""
    out = []
    for i, insn in enumerate(insns):
        nxt = insns[i + 1][0] if i + 1 < len(insns) else None
        out.append((insn, nxt, True))
    return out


def log_of(data, name='pipe_roundtrip', overflow=0, cut=False):
    text = base64.b64encode(data).decode()
    lines = [f'FOOTPRINT begin {{"name": "{name}", "bytes": {len(data)}, '
             f'"fnv": {bf.fnv1a(data)}, "overflow": {overflow}}}']
    lines += [f'FOOTPRINT data {text[i:i + 96]}'
              for i in range(0, len(text), 96)]
    if not cut:
        lines.append(f'FOOTPRINT end {name}')
    return '\n'.join(['noise'] + lines + ['more noise']) + '\n'


def misses(insns, rounds=10, warmup=2):
    """Modelled misses a round of insns, the round repeated."""
    trip = stream(insns * 1)
    # the last instruction's successor is the next round's first
    trip[-1] = (trip[-1][0], insns[0][0], True)
    return bf.model_figures([trip] * rounds, warmup)


class EncodingTest(unittest.TestCase):
    def test_round_trip(self):
        insns = [plain(BASE), plain(BASE + 3, 0xffff888000001000),
                 (BASE + 7, bf.CALL, False, None, 5),
                 (BASE - 0x1000, bf.COND, True, 0xffff888000000ff8, 0),
                 (BASE + 12, bf.RET, False, 0xffffc90000001ff0, 0),
                 (BASE + 12, bf.CALL_IND, False, 0xffff888000002000, 3)]
        self.assertEqual(bf.decode(bf.encode(insns)), insns)

    def test_read_trace_checks(self):
        data = bf.encode([plain(BASE + i) for i in range(100)])
        self.assertEqual(bf.read_trace(log_of(data)), data)
        for text, message in ((log_of(data, cut=True), 'truncated'),
                              (log_of(data, overflow=1), 'overflowed'),
                              (log_of(data, name='other'), 'no trace'),
                              (log_of(data).replace('"bytes": ', '"bytes": 1'),
                               'the header says')):
            with self.assertRaisesRegex(bf.TraceError, message):
                bf.read_trace(text)

    def test_bad_bytes(self):
        with self.assertRaisesRegex(bf.TraceError, 'bad record header'):
            bf.decode(b'\xe0\x00')
        with self.assertRaisesRegex(bf.TraceError, 'inside a record'):
            bf.decode(b'\x00\x80')


class ExactTest(unittest.TestCase):
    def test_lines_pages_data(self):
        # 4-byte instructions from BASE + 0x3f0 to + 0x1010: the lines
        # 0x3c0 .. 0x1000 (the last instruction's own line only).
        insns = [plain(BASE + 0x3f0 + 4 * i) for i in range(0x309)]
        insns[5] = plain(insns[5][0], 0x1000)
        insns[6] = plain(insns[6][0], 0x1030)     # same line
        insns[7] = plain(insns[7][0], 0x1040)
        trip = stream(insns)
        got = bf.exact_figures([trip, trip])
        self.assertEqual(got['pipe_roundtrip_icache_lines'],
                         (0x1040 - 0x3c0) // 64)
        self.assertEqual(got['pipe_roundtrip_text_pages'], 2)
        self.assertEqual(got['pipe_roundtrip_data_lines'], 2)

    def test_straddling_instruction(self):
        # a 6-byte instruction at offset 60 touches two lines
        trip = stream([plain(BASE + 60), plain(BASE + 66)])
        got = bf.exact_figures([trip])
        self.assertEqual(got['pipe_roundtrip_icache_lines'], 2)

    def test_harness_not_counted(self):
        insns = [plain(BASE), plain(BASE + 0x1000), plain(BASE + 0x2000)]
        trips = bf.round_trips(insns * 3, BASE, [(BASE + 0x1000,
                                                  BASE + 0x1010)])
        self.assertEqual(len(trips), 2)   # the last is unfinished
        got = bf.exact_figures(trips)
        self.assertEqual(got['pipe_roundtrip_icache_lines'], 2)
        self.assertEqual(got['pipe_roundtrip_text_pages'], 2)


class ModelTest(unittest.TestCase):
    def test_l1i_ways(self):
        # n lines of one set (4 KiB apart): 8 fit the ways, 9 thrash LRU
        for lines, expected in ((8, 0), (9, 9)):
            insns = [plain(BASE + 4096 * i) for i in range(lines)]
            self.assertEqual(misses(insns)['pipe_roundtrip_l1i_misses'],
                             expected, lines)

    def test_l1i_capacity(self):
        # 512 consecutive lines fill 32 KiB exactly; 513 thrash one set
        for lines, expected in ((512, 0), (513, 9)):
            insns = [plain(BASE + 64 * i) for i in range(lines)]
            self.assertEqual(misses(insns)['pipe_roundtrip_l1i_misses'],
                             expected, lines)

    def test_itlb(self):
        for pages, expected in ((64, 0), (65, 65)):
            insns = [plain(BASE + 4096 * i + 64 * (i % 64))
                     for i in range(pages)]
            self.assertEqual(misses(insns)['pipe_roundtrip_itlb_misses'],
                             expected, pages)

    def test_cold_round_counted_without_warmup(self):
        insns = [plain(BASE + 64 * i) for i in range(10)]
        trip = stream(insns)
        got = bf.model_figures([trip], warmup=0)
        self.assertEqual(got['pipe_roundtrip_l1i_misses'], 10)
        self.assertEqual(got['pipe_roundtrip_itlb_misses'], 1)

    def test_bimodal(self):
        p = bf.Predictor()
        taken = (BASE, bf.COND, True, None, 0)
        # weakly not taken at first: one miss, then always right
        results = [p.branch(taken, BASE + 100) for _ in range(5)]
        self.assertEqual(results, [True, False, False, False, False])
        p = bf.Predictor()
        both = [(BASE, bf.COND, i % 2 == 0, None, 0) for i in range(8)]
        self.assertTrue(all(p.branch(b, BASE + 100) for b in both))

    def test_bimodal_aliasing(self):
        p = bf.Predictor(bimodal=16)
        a = (BASE, bf.COND, True, None, 0)
        b = (BASE + 16, bf.COND, False, None, 0)    # the same counter
        for _ in range(3):
            p.branch(a, BASE + 100)
        self.assertEqual([p.branch(b, BASE + 18), p.branch(b, BASE + 18),
                          p.branch(a, 0)], [True, True, True])

    def test_btb(self):
        p = bf.Predictor()
        jmp = (BASE, bf.JMP_IND, False, None, 0)
        self.assertEqual([p.branch(jmp, BASE + 64) for _ in range(3)],
                         [True, False, False])
        self.assertEqual([p.branch(jmp, t) for t in (1, 2, 1, 2)],
                         [True] * 4)

    def test_return_stack(self):
        p = bf.Predictor()
        call = (BASE, bf.CALL, False, None, 5)
        ret = (BASE + 64, bf.RET, False, None, 0)
        self.assertFalse(p.branch(call, BASE + 64))
        self.assertFalse(p.branch(ret, BASE + 5))
        # a return elsewhere (a context switch) and one with nothing pushed
        p.branch(call, BASE + 64)
        self.assertTrue(p.branch(ret, BASE + 0x1000))
        self.assertTrue(p.branch(ret, BASE + 5))

    def test_return_stack_overflow(self):
        p = bf.Predictor()
        depth = bf.RAS_ENTRIES + 1
        for i in range(depth):
            p.branch((BASE + 16 * i, bf.CALL, False, None, 5), 0)
        got = [p.branch((BASE + 0x1000, bf.RET, False, None, 0),
                        BASE + 16 * i + 5) for i in reversed(range(depth))]
        self.assertEqual(got, [False] * bf.RAS_ENTRIES + [True])

    def test_direct_branches_predicted(self):
        p = bf.Predictor()
        self.assertFalse(p.branch((BASE, bf.JMP, False, None, 0), 12345))
        self.assertFalse(p.branch((BASE, bf.OTHER, False, None, 0), 99))

    def test_round_of_branches(self):
        # a loop of: call f; f: cond (alternating would miss; always
        # taken here); ret: after warm-up nothing mispredicts
        insns = [(BASE, bf.CALL, False, None, 5),
                 (BASE + 0x100, bf.COND, True, None, 0),
                 (BASE + 0x120, bf.RET, False, None, 0),
                 (BASE + 5, bf.JMP, False, None, 0)]
        self.assertEqual(misses(insns)['pipe_roundtrip_mispredicts'], 0)


if __name__ == '__main__':
    unittest.main()
