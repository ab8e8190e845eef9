# SPDX-License-Identifier: GPL-2.0
"""The trace as Chrome trace-event JSON (scripts/trace_json.py), and
make trace-flip's run on build/test-default:

- the checker accepts a well-formed trace and names each defect of a
  spoilt one: an event without its phase, timestamp, pid or tid, time
  going back on a track, an end with no slice open, slices that cross, a
  slice never closed, a batch whose sync round is missing on its own CPU,
  no batch of the flip's size with its rounds on every CPU (another CPU
  may skip a round: idle or in user mode, it gets no IPI);
- ftrace text (Linux's trace file layout, with its header, a LOST line
  and lines of other output around) becomes the same JSON;
- scripts/trace_flip.py boots the test kernel on 4 CPUs, flips a 64-site
  key under readers with the text_poke and ipi events on: the kernel's
  `trace export` is JSON that passes the checker with a 64-site batch
  whose three rounds every CPU took, int3 hits among its instants; the
  text of `trace` starts with the header of Linux's trace file and its
  JSON passes too; the PNG is drawn.
"""
import json
import shutil
import sys
import tempfile
import unittest
from pathlib import Path

from hosttools import BUILD, PYTHON, REPO, built, make, run

sys.path.insert(0, str(REPO / 'scripts'))
import trace_json  # noqa: E402

# Linux's trace file header for the nop tracer with the irq-info columns.
LINUX_HEADER = [
    '# tracer: nop',
    '#',
    None,      # entries-in-buffer/entries-written: N/M   #P:C
    '#',
    '#                                _-----=> irqs-off/BH-disabled',
    '#                               / _----=> need-resched',
    '#                              | / _---=> hardirq/softirq',
    '#                              || / _--=> preempt-depth',
    '#                              ||| / _-=> migrate-disable',
    '#                              |||| /     delay',
    '#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION',
    '#              | |         |   |||||     |         |',
]


def meta(cpus):
    out = [{'ph': 'M', 'pid': 1, 'tid': 1, 'name': 'process_name',
            'args': {'name': 'kernel'}}]
    for c in cpus:
        out.append({'ph': 'M', 'pid': 1, 'tid': c + 1, 'name': 'thread_name',
                    'args': {'name': f'CPU {c}'}})
    return out


def ev(ph, ts, cpu, cat, **args):
    """An event on CPU cpu's track (pid 1, tid cpu + 1)."""
    e = {'ph': ph, 'ts': ts, 'pid': 1, 'tid': cpu + 1, 'cat': cat,
         'name': cat, 'args': args}
    if ph == 'i':
        e['s'] = 't'
    return e


def good_batch(cpus=(0, 1, 2), skip=None):
    """A batch of 8 sites on CPU 0, rounds 4-6 taken by every CPU (but
    skip=(cpu, round))."""
    evs = [ev('B', 10, 0, 'text_poke_batch', event='text_poke_batch_begin',
              batch=2, nr=8, round=4)]
    t = 11
    for r in (4, 5, 6):
        evs.append(ev('B', t, 0, 'text_poke_pass',
                      event='text_poke_pass_begin', pass_=r))
        evs.append(ev('E', t + 1, 0, 'text_poke_pass',
                      event='text_poke_pass_end'))
        evs.append(ev('B', t + 2, 0, 'text_poke_sync',
                      event='text_poke_sync_begin', round=r))
        for c in cpus:
            if (c, r) == skip:
                continue
            evs.append(ev('i', t + 3, c, 'text_poke_sync_done',
                          event='text_poke_sync_done', round=r))
        evs.append(ev('E', t + 4, 0, 'text_poke_sync',
                      event='text_poke_sync_end', round=r))
        t += 5
    evs.append(ev('E', t, 0, 'text_poke_batch', event='text_poke_batch_end',
                  batch=2, nr=8))
    evs.sort(key=lambda e: e['ts'])
    return {'traceEvents': meta(cpus) + evs}


def problems(trace, flip=None):
    return trace_json.check(trace, flip)[0]


class CheckTest(unittest.TestCase):
    def assertProblem(self, trace, text, flip=None):
        found = problems(trace, flip)
        self.assertTrue(any(text in p for p in found),
                        f'no problem saying {text!r} in {found}')

    def test_good(self):
        found, batches, full = trace_json.check(good_batch(), 8)
        self.assertEqual(found, [])
        self.assertEqual([b['batch'] for b in full], [2])
        self.assertEqual(full[0]['rounds'], [4, 5, 6])

    def test_missing_fields(self):
        for key, text in (('ph', 'phase'), ('ts', 'timestamp'),
                          ('pid', '"pid"'), ('tid', '"tid"')):
            t = good_batch()
            del t['traceEvents'][6][key]
            self.assertProblem(t, text)

    def test_time_back(self):
        t = good_batch()
        t['traceEvents'].append(ev('i', 1, 0, 'x'))
        self.assertProblem(t, 'time goes back')

    def test_end_without_begin(self):
        t = good_batch()
        t['traceEvents'].append(ev('E', 100, 1, 'csd_function'))
        self.assertProblem(t, 'no open slice')

    def test_crossing(self):
        t = {'traceEvents': meta([0]) + [
            ev('B', 1, 0, 'a'), ev('B', 2, 0, 'b'), ev('E', 3, 0, 'a'),
            ev('E', 4, 0, 'b')]}
        self.assertProblem(t, 'do not nest')

    def test_never_closed(self):
        t = good_batch()
        t['traceEvents'].append(ev('B', 100, 2, 'csd_function'))
        self.assertProblem(t, 'never closed')

    def test_a_cpu_may_skip_a_round(self):
        # Idle or in user mode during round 5: no IPI, no sync_done.
        self.assertEqual(problems(good_batch(skip=(1, 5))), [])

    def test_round_missing_on_the_patching_cpu(self):
        t = good_batch()    # round 5 dropped from CPU 0's track
        t['traceEvents'] = [e for e in t['traceEvents']
                            if not (e.get('tid') == trace_json.tid(0) and
                                    (e.get('args') or {}).get('round') == 5
                                    and e.get('ph') != 'M')]
        self.assertProblem(t, 'its own CPU 0 does not show its three rounds')

    def test_flip_batch_needs_every_round_on_every_cpu(self):
        self.assertProblem(good_batch(skip=(1, 5)), 'no batch of 8 sites',
                           flip=8)

    def test_no_flip_batch(self):
        self.assertProblem(good_batch(), 'no batch of 64 sites', flip=64)
        self.assertEqual(problems(good_batch(), 8), [])


def sample_text():
    """A batch in Linux's trace file layout: rounds 7-9 on CPUs 0 and 1,
    a LOST line, an int3 hit, a console line in between."""
    header = list(LINUX_HEADER)
    header[2] = '# entries-in-buffer/entries-written: 19/22   #P:2'
    t = [1.000010]

    def line(cpu, event, text, task='init-6', flags='...1.'):
        """The kernel's "%16s-%-7d [%03u] %s %5llu.%06llu: %s: " line."""
        comm, pid = task.rsplit('-', 1)
        t[0] += 0.000001
        return f'{comm:>16}-{pid:<7} [{cpu:03d}] {flags} {t[0]:12.6f}: ' \
               f'{event}: {text}'

    body = [line(0, 'text_poke_batch_begin',
                 'batch=3 sites=2 first=a+0x1/0x9 last=b+0x2/0x9 round=7')]
    for r, p in zip((7, 8, 9), ('int3', 'tails', 'first')):
        body += [line(0, 'text_poke_pass_begin', f'batch=3 pass={p} sites=2',
                      flags='d..1.'),
                 line(0, 'text_poke_pass_end', f'batch=3 pass={p} sites=2',
                      flags='d..1.'),
                 'sk> some console output in between',
                 line(0, 'text_poke_sync_begin', f'round={r}'),
                 line(1, 'text_poke_sync_done', f'round={r}', '<idle>-0',
                      'd.h..'),
                 line(0, 'text_poke_sync_done', f'round={r}', flags='d..1.'),
                 line(0, 'text_poke_sync_end', f'round={r}')]
    body += ['CPU:1 [LOST 3 EVENTS]',
             line(1, 'text_poke_int3', 'site=a+0x1/0x9 to=c+0x0/0x4',
                  '<idle>-0', 'd.h..'),
             line(0, 'text_poke_batch_end', 'batch=3 sites=2')]
    return '\n'.join(header + body) + '\n'


class FromTextTest(unittest.TestCase):
    def test_ftrace_text(self):
        text = sample_text()
        self.assertIn('            init-6       [000] ...1.     1.000011: '
                      'text_poke_batch_begin: batch=3', text)
        t = trace_json.from_text(text)
        evs = t['traceEvents']
        phases = [(e['ph'], e.get('cat')) for e in evs if e['ph'] != 'M']
        self.assertEqual(phases[:3], [('B', 'text_poke_batch'),
                                      ('B', 'text_poke_pass'),
                                      ('E', 'text_poke_pass')])
        self.assertIn(('i', 'lost'), phases)
        self.assertIn(('i', 'text_poke_int3'), phases)
        sync = [e for e in evs if e.get('cat') == 'text_poke_sync_done']
        self.assertEqual(sorted(e['tid'] for e in sync), [1, 1, 1, 2, 2, 2])
        self.assertTrue(all(e['pid'] == 1 for e in evs))
        self.assertEqual(sync[0]['args']['round'], 7)
        self.assertAlmostEqual(sync[0]['ts'], 1000015.0, places=3)
        self.assertEqual(problems(t, 2), [])
        b = trace_json.batches(evs)
        self.assertEqual([(x['batch'], x['sites'], x['rounds']) for x in b],
                         [(3, 2, [7, 8, 9])])


class FlipTest(unittest.TestCase):
    """make trace-flip's script on the test kernel (about 60 s)."""

    @classmethod
    def setUpClass(cls):
        built('vmlinux')
        iso_dir = f'{BUILD}/trace-flip'
        res = make(f'O={BUILD}', f'ISO_DIR={iso_dir}',
                   'CMDLINE=shell trace_buf_size=4194304', 'iso')
        if res.returncode:
            raise AssertionError(f'make iso failed:\n{res.stdout[-2000:]}'
                                 f'{res.stderr[-2000:]}')
        cls.out = Path(tempfile.mkdtemp(prefix='trace_flip.'))
        cls.res = run([PYTHON, 'scripts/trace_flip.py', '--iso',
                       f'{iso_dir}/kernel.iso', '--out', str(cls.out),
                       '--cpus', '4'])

    @classmethod
    def tearDownClass(cls):
        if cls.res.returncode == 0:
            shutil.rmtree(cls.out, ignore_errors=True)

    def test_script(self):
        self.assertEqual(self.res.returncode, 0,
                         f'{self.res.stdout}{self.res.stderr} (in {self.out})')

    def test_export_json(self):
        trace = json.loads((self.out / 'flip.json').read_text())
        found, batches, full = trace_json.check(trace, 64)
        self.assertEqual(found, [])
        self.assertTrue(full, 'no 64-site batch on every CPU')
        names = {e['tid']: e['args']['name'] for e in trace['traceEvents']
                 if e['ph'] == 'M' and e['name'] == 'thread_name'}
        # pid 1, tid the CPU plus one: Perfetto's pid 0 is the idle task.
        self.assertEqual(names, {c + 1: f'CPU {c}' for c in range(4)})
        self.assertTrue(all(e['pid'] == 1 for e in trace['traceEvents']))
        cpus = {t - 1 for t in names}
        for b in full:
            self.assertEqual(set(b['took']), cpus)
        hits = [e for e in trace['traceEvents']
                if (e.get('args') or {}).get('event') == 'text_poke_int3'
                and any(b['ts'][0] <= e['ts'] <= b['ts'][1] for b in full)]
        self.assertTrue(hits, 'no int3 hit during the flips')
        self.assertTrue(all(e['ph'] == 'i' for e in hits))

    def test_text_is_ftrace_format(self):
        lines = (self.out / 'flip.txt').read_text().split('\n')
        for want, got in zip(LINUX_HEADER, lines):
            if want is None:
                self.assertRegex(got, r'^# entries-in-buffer/entries-written:'
                                      r' \d+/\d+   #P:4$')
            else:
                self.assertEqual(got, want)
        body = [l for l in lines[len(LINUX_HEADER):] if l]
        self.assertTrue(body)
        for line in body:
            self.assertTrue(trace_json.LINE_RE.match(line) or
                            trace_json.LOST_RE.match(line), line)
        trace = json.loads((self.out / 'flip-text.json').read_text())
        self.assertEqual(trace_json.check(trace, 64)[0], [])

    def test_png(self):
        data = (self.out / 'flip.png').read_bytes()
        self.assertEqual(data[:8], b'\x89PNG\r\n\x1a\n')
        self.assertGreater(len(data), 10000)


if __name__ == '__main__':
    unittest.main()
