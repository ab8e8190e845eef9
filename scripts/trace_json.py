#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The tracer's records as Chrome trace-event JSON, checked and drawn.

    trace_json.py extract SERIAL_LOG -o OUT.json    the JSON `trace export`
                                                    printed at the console
    trace_json.py from-text TRACE.txt -o OUT.json   the same from the text
                                                    of `trace` (Linux's
                                                    ftrace format: ours, or
                                                    Linux's trace file)
    trace_json.py check FILE.json [--flip SITES]    the format, and the
                                                    batches' sync rounds
    trace_json.py plot FILE.json -o OUT.png         the flip as a timeline
                                                    (gnuplot)

The JSON (Perfetto's UI and chrome://tracing open it): {"traceEvents":
[...]}, one track per CPU (pid 1, tid the CPU plus one, named "CPU n" by
"M" events: Perfetto takes pid 0 for the idle task and has merged tid 0
with tid 1), a
slice ("B" .. "E") for each event named *_begin/_entry/_start .. *_end/
_exit, an instant ("i") for the others, the fields as "args". The kernel
writes it itself (kernel/trace/trace.c, trace_export_json()); from-text
makes the same from the text lines by the same rules.

check: every event has its phase, a timestamp (microseconds), pid and
tid; on each track the timestamps do not go back and the slices nest (an
"E" closes the innermost open "B" of its category, none is left open);
and for every batch of the patch engine (text_poke_batch_begin .. _end)
its three sync rounds appear on the patching CPU (the rounds' slices).
Another CPU takes a round (text_poke_sync_done) only if it is in the
kernel when the round is sent: one idle or in user mode gets no IPI and
serializes on its way back in (arch/x86/kernel/text_sync.c), so it may
show any of the rounds or none. With --flip SITES there must be at least
one batch of SITES sites whose three rounds every CPU took (make
trace-flip keeps the other CPUs in the kernel, reading the key's sites). Exit status 0 when the file passes, 1 otherwise,
each problem said (the first 20).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

OPEN = ('_begin', '_entry', '_start')
CLOSE = ('_end', '_exit')
PHASES = set('BEXiIMCbensftPOND') | {'X'}
LINE_RE = re.compile(
    r'^\s*(?P<comm>.*?)-(?P<pid>\d+)\s+(?:\(\s*[-\d]+\)\s+)?\[(?P<cpu>\d+)\]'
    r'\s+(?:(?P<flags>[^\s]{4,5})\s+)?(?P<ts>\d+\.\d+):\s+(?P<event>[\w.]+):'
    r'\s?(?P<text>.*)$')
LOST_RE = re.compile(r'^CPU:(\d+) \[LOST (\d+) EVENTS\]$')
ARG_RE = re.compile(r'(\w+)=(\S+)')


PID = 1


def tid(cpu):
    """The track of a CPU."""
    return cpu + 1


def cpu_of(ev):
    """The CPU of an event's track."""
    return ev['tid'] - 1


class TraceError(Exception):
    pass


def stem(name, suffixes):
    for s in suffixes:
        if name.endswith(s) and len(name) > len(s):
            return name[:-len(s)]
    return None


# ---------------------------------------------------------------------------
# extract: the JSON block `trace export` printed
# ---------------------------------------------------------------------------

def extract(text):
    """The trace object of the last `trace export` in a console log."""
    lines = text.replace('\r', '').split('\n')
    starts = [i for i, l in enumerate(lines)
              if l.startswith('{"displayTimeUnit"')]
    if not starts:
        raise TraceError('no trace export in the log (no line starting '
                         '{"displayTimeUnit")')
    i = starts[-1]
    for j in range(i, len(lines)):
        if lines[j] == ']}':
            body = '\n'.join(lines[i:j + 1])
            try:
                return json.loads(body)
            except json.JSONDecodeError as exc:
                bad = body.split('\n')[exc.lineno - 1][:160]
                raise TraceError(f'the export is not JSON: line '
                                 f'{i + exc.lineno} of the log: {exc.msg}: '
                                 f'{bad!r}') from None
    raise TraceError(f'the export starting at line {i + 1} has no end '
                     f'("]}}")')


# ---------------------------------------------------------------------------
# from-text: ftrace text to the same JSON
# ---------------------------------------------------------------------------

def _value(v):
    try:
        return int(v, 0)
    except ValueError:
        return v


def from_text(text):
    """Chrome JSON from the lines of an ftrace text trace."""
    events, cpus, open_ = [], set(), {}
    last = {}
    for n, line in enumerate(text.replace('\r', '').split('\n'), 1):
        if not line.strip() or line.startswith('#'):
            continue
        m = LOST_RE.match(line)
        if m:
            cpu = int(m.group(1))
            cpus.add(cpu)
            events.append({'ph': 'i', 's': 't', 'ts': last.get(cpu, 0.0),
                           'pid': PID, 'tid': tid(cpu), 'cat': 'lost',
                           'name': f'LOST {m.group(2)} EVENTS',
                           'args': {'lost': int(m.group(2))}})
            continue
        m = LINE_RE.match(line)
        if not m:
            continue          # a line of something else (the console's)
        cpu, ts = int(m.group('cpu')), float(m.group('ts')) * 1e6
        cpus.add(cpu)
        last[cpu] = ts
        name, body = m.group('event'), m.group('text')
        args = {'event': name, 'comm': m.group('comm').strip(),
                'common_pid': int(m.group('pid')),
                'flags': m.group('flags') or ''}
        for k, v in ARG_RE.findall(body):
            args.setdefault(k, _value(v))
        stack = open_.setdefault(cpu, [])
        ph, cat = 'i', name
        s = stem(name, OPEN)
        if s:
            ph, cat = 'B', s
            stack.append(s)
        else:
            s = stem(name, CLOSE)
            if s and s in stack:
                while stack[-1] != s:
                    events.append({'ph': 'E', 'ts': ts, 'pid': PID,
                                   'tid': tid(cpu), 'cat': stack.pop()})
                stack.pop()
                ph, cat = 'E', s
        ev = {'ph': ph, 'ts': ts, 'pid': PID, 'tid': tid(cpu), 'cat': cat,
              'name': f'{cat}: {body}', 'args': args}
        if ph == 'i':
            ev['s'] = 't'
        events.append(ev)
    for cpu, stack in open_.items():
        while stack:
            events.append({'ph': 'E', 'ts': last[cpu], 'pid': PID,
                           'tid': tid(cpu), 'cat': stack.pop()})
    meta = [{'ph': 'M', 'pid': PID, 'tid': tid(0), 'name': 'process_name',
             'args': {'name': 'kernel'}}]
    for cpu in sorted(cpus):
        meta += [{'ph': 'M', 'pid': PID, 'tid': tid(cpu),
                  'name': 'thread_name', 'args': {'name': f'CPU {cpu}'}},
                 {'ph': 'M', 'pid': PID, 'tid': tid(cpu),
                  'name': 'thread_sort_index',
                  'args': {'sort_index': cpu}}]
    return {'displayTimeUnit': 'ns', 'traceEvents': meta + events}


# ---------------------------------------------------------------------------
# check
# ---------------------------------------------------------------------------

def events_of(trace):
    if isinstance(trace, list):
        return trace
    if not isinstance(trace, dict) or not isinstance(
            trace.get('traceEvents'), list):
        raise TraceError('not a trace: no "traceEvents" list')
    return trace['traceEvents']


def check_format(events):
    """Problems with the events themselves and their nesting."""
    problems = []
    tracks = {}
    for i, ev in enumerate(events):
        where = f'event {i}'
        if not isinstance(ev, dict):
            problems.append(f'{where}: not an object')
            continue
        ph = ev.get('ph')
        if ph not in PHASES:
            problems.append(f'{where}: no phase ("ph") or an unknown one: '
                            f'{ph!r}')
            continue
        for key in ('pid', 'tid'):
            if not isinstance(ev.get(key), int):
                problems.append(f'{where} ({ph}): no integer "{key}"')
        if ph == 'M':
            continue
        if not isinstance(ev.get('ts'), (int, float)):
            problems.append(f'{where} ({ph}): no timestamp ("ts")')
            continue
        if ph in 'BiI' and not isinstance(ev.get('name'), str):
            problems.append(f'{where} ({ph}): no "name"')
        if ph in 'iI' and ev.get('s', 't') not in ('t', 'p', 'g'):
            problems.append(f'{where}: instant scope {ev.get("s")!r}')
        if isinstance(ev.get('pid'), int) and isinstance(ev.get('tid'), int):
            tracks.setdefault((ev['pid'], ev['tid']), []).append((i, ev))
    for (pid, tid), evs in sorted(tracks.items()):
        stack, prev = [], None
        for i, ev in evs:
            if prev is not None and ev['ts'] < prev:
                problems.append(f'event {i}: pid {pid} tid {tid}: time goes '
                                f'back ({ev["ts"]} after {prev})')
            prev = ev['ts']
            if ev['ph'] == 'B':
                stack.append((i, ev.get('cat')))
            elif ev['ph'] == 'E':
                if not stack:
                    problems.append(f'event {i}: pid {pid} tid {tid}: an "E" '
                                    f'with no open slice')
                elif stack[-1][1] != ev.get('cat'):
                    problems.append(f'event {i}: pid {pid} tid {tid}: "E" of '
                                    f'{ev.get("cat")!r} closes '
                                    f'{stack[-1][1]!r} (event {stack[-1][0]}'
                                    f'): slices do not nest')
                    stack.pop()
                else:
                    stack.pop()
        for i, cat in stack:
            problems.append(f'event {i}: pid {pid} tid {tid}: slice {cat!r} '
                            f'never closed')
    return problems


def _event(ev):
    return (ev.get('args') or {}).get('event')


def batches(events):
    """[{batch, sites, cpu, rounds: [r1, r2, r3], took: {cpu: set}}] for
    every batch whose begin and end were recorded."""
    begins, ends = {}, {}
    took = {}
    for ev in events:
        name, args = _event(ev), ev.get('args') or {}
        if name == 'text_poke_batch_begin':
            begins[args.get('batch')] = (ev, args)
        elif name == 'text_poke_batch_end':
            ends[args.get('batch')] = ev
        elif name in ('text_poke_sync_done', 'text_poke_sync_begin'):
            took.setdefault(args.get('round'), set()).add(cpu_of(ev))
    out = []
    for b, (ev, args) in sorted(begins.items(), key=lambda x: x[1][0]['ts']):
        if b not in ends:
            continue
        first = args.get('round')
        rounds = [first, first + 1, first + 2] if isinstance(first, int) \
            else []
        cpus = {}
        for r in rounds:
            for cpu in took.get(r, ()):
                cpus.setdefault(cpu, set()).add(r)
        out.append({'batch': b, 'sites': args.get('nr', args.get('sites')),
                    'cpu': cpu_of(ev),
                    'rounds': rounds, 'took': cpus,
                    'ts': (ev['ts'], ends[b]['ts'])})
    return out


def check_rounds(events, flip_sites=None):
    problems = []
    online = {cpu_of(ev) for ev in events if ev.get('ph') == 'M' and
              ev.get('name') == 'thread_name'}
    found = batches(events)
    full = []
    for b in found:
        if b['cpu'] not in b['took'] or \
                set(b['took'][b['cpu']]) != set(b['rounds']):
            problems.append(f'batch {b["batch"]}: its own CPU {b["cpu"]} '
                            f'does not show its three rounds')
        if b['sites'] == flip_sites and set(b['took']) >= online and \
                all(set(r) == set(b['rounds']) for r in b['took'].values()):
            full.append(b)
    if flip_sites is not None and not full:
        problems.append(f'no batch of {flip_sites} sites whose three sync '
                        f'rounds every CPU ({sorted(online)}) took '
                        f'(batches: {[(b["batch"], b["sites"]) for b in found]})')
    return problems, found, full


def check(trace, flip_sites=None):
    events = events_of(trace)
    problems = check_format(events)
    more, found, full = check_rounds(events, flip_sites)
    return problems + more, found, full


# ---------------------------------------------------------------------------
# plot
# ---------------------------------------------------------------------------

COLORS = {
    'text_poke_batch': 0xb0b0b0, 'text_poke_pass:int3': 0xd62728,
    'text_poke_pass:tails': 0xff7f0e, 'text_poke_pass:first': 0x2ca02c,
    'text_poke_sync': 0x1f77b4, 'csd_function': 0x9ecae1,
    'text_poke_park': 0x9467bd,
}
PASSES = {0: 'int3', 1: 'tails', 2: 'first'}
HEIGHT = {0: 0.42, 1: 0.30, 2: 0.18, 3: 0.10}


def slices(events):
    """[(cpu, depth, start, end, key)] of the closed slices."""
    out, stacks = [], {}
    for ev in events:
        if ev.get('ph') not in ('B', 'E'):
            continue
        st = stacks.setdefault(cpu_of(ev), [])
        if ev['ph'] == 'B':
            key = ev.get('cat')
            if key == 'text_poke_pass':
                p = (ev.get('args') or {}).get('pass')
                key += ':' + PASSES.get(p, str(p))
            st.append((ev['ts'], key))
        elif st:
            start, key = st.pop()
            out.append((cpu_of(ev), len(st), start, ev['ts'], key))
    return out


def plot(trace, png, batch=None, title=None):
    """Draws the largest complete batch (or batch) and its neighbourhood:
    a row per CPU, its slices nested, int3 hits as crosses."""
    events = events_of(trace)
    found = batches(events)
    if not found:
        raise TraceError('no complete batch to draw')
    b = next((x for x in found if x['batch'] == batch), None) if batch \
        else max(found, key=lambda x: (x['sites'] or 0, -x['ts'][0]))
    if b is None:
        raise TraceError(f'no batch {batch}')
    t0, t1 = b['ts']
    pad = (t1 - t0) * 0.05 or 1.0
    lo, hi = t0 - pad, t1 + pad
    cpus = sorted({cpu_of(ev) for ev in events if ev.get('ph') == 'M' and
                   ev.get('name') == 'thread_name'})
    with tempfile.TemporaryDirectory() as tmp:
        boxes = os.path.join(tmp, 'boxes.dat')
        hits = os.path.join(tmp, 'hits.dat')
        done = os.path.join(tmp, 'done.dat')
        rounds = []
        with open(boxes, 'w') as f:
            # Outer slices first: the inner ones are drawn over them.
            for cpu, depth, s, e, key in sorted(slices(events),
                                                key=lambda x: x[1]):
                if e < lo or s > hi:
                    continue
                if key == 'text_poke_sync' and cpu == b['cpu'] and \
                        t0 <= s <= t1:
                    rounds.append(s)
                s, e = max(s, lo), min(e, hi)
                h = HEIGHT.get(depth, 0.08)
                f.write(f'{(s + e) / 2 - t0:.3f} {cpu} {(e - s) / 2:.3f} '
                        f'{h:.2f} {COLORS.get(key, 0x7f7f7f)}\n')
        nhits = 0
        with open(hits, 'w') as f, open(done, 'w') as g:
            for ev in events:
                if ev.get('ph') != 'i' or not lo <= ev['ts'] <= hi:
                    continue
                if _event(ev) == 'text_poke_int3':
                    f.write(f'{ev["ts"] - t0:.3f} {cpu_of(ev)}\n')
                    nhits += 1
                elif _event(ev) == 'text_poke_sync_done':
                    g.write(f'{ev["ts"] - t0:.3f} {cpu_of(ev) - 0.45}\n')
        legend = ''.join(
            f'set label "{text}" at graph {x:.2f}, graph 1.04 '
            f'tc rgb "#{COLORS[k]:06x}" font ",9"\n'
            for x, (k, text) in zip(
                (0.0, 0.1, 0.22, 0.34, 0.46, 0.56, 0.7),
                (('text_poke_batch', 'batch'), ('text_poke_pass:int3',
                                                'pass: int3'),
                 ('text_poke_pass:tails', 'pass: tails'),
                 ('text_poke_pass:first', 'pass: first'),
                 ('text_poke_sync', 'sync round'),
                 ('csd_function', 'IPI function'),
                 ('text_poke_park', 'parked'))))
        legend += ''.join(
            f'set label " sync {k + 1}" at first {r - t0:.3f}, first '
            f'{b["cpu"] - 0.12 + 0.14 * k:.2f} front tc rgb "white" '
            f'font ",9"\n'
            for k, r in enumerate(sorted(rounds)))
        gp = os.path.join(tmp, 'plot.gp')
        with open(gp, 'w') as f:
            f.write(f'''set terminal pngcairo size 1400,{200 + 110 * len(cpus)} font ",10"
set output "{png}"
set title "{title or f'batch {b["batch"]}: {b["sites"]} sites, sync rounds {b["rounds"]}, {nhits} int3 hits'}" offset 0,1.2
set xlabel "microseconds from the batch's start"
set ytics ({", ".join(f'"CPU {c}" {c}' for c in cpus)})
set yrange [{max(cpus) + 0.7}:-0.7]
set xrange [{lo - t0:.3f}:{hi - t0:.3f}]
set grid xtics
set style fill solid 0.9 noborder
set tmargin 5
unset key
{legend}set label "x int3 hit" at graph 0.82, graph 1.04 font ",9"
set label "^ sync done" at graph 0.9, graph 1.04 tc rgb "#1f77b4" font ",9"
plot "{boxes}" using 1:2:3:4:5 with boxxyerror lc rgb variable, \\
     "{hits}" using 1:2 with points pt 2 ps 0.8 lc rgb "black", \\
     "{done}" using 1:2 with points pt 9 ps 1.0 lc rgb "#1f77b4"
''')
        res = subprocess.run(['gnuplot', gp], capture_output=True, text=True)
        if res.returncode:
            raise TraceError(f'gnuplot failed: {res.stderr.strip()}')
    return b


def main(argv=None):
    ap = argparse.ArgumentParser(
        description=__doc__.split('\n\n')[0].split('\n')[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__.split('\n\n', 1)[1])
    sub = ap.add_subparsers(dest='cmd', required=True)
    p = sub.add_parser('extract')
    p.add_argument('log')
    p.add_argument('-o', '--output', required=True)
    p = sub.add_parser('from-text')
    p.add_argument('text')
    p.add_argument('-o', '--output', required=True)
    p = sub.add_parser('check')
    p.add_argument('json')
    p.add_argument('--flip', type=int, metavar='SITES')
    p = sub.add_parser('plot')
    p.add_argument('json')
    p.add_argument('-o', '--output', required=True)
    p.add_argument('--batch', type=int)
    args = ap.parse_args(argv)
    try:
        if args.cmd in ('extract', 'from-text'):
            with open(args.log if args.cmd == 'extract' else args.text,
                      encoding='utf-8', errors='replace') as f:
                text = f.read()
            trace = extract(text) if args.cmd == 'extract' else \
                from_text(text)
            with open(args.output, 'w') as f:
                json.dump(trace, f, indent=None, separators=(',', ':'))
                f.write('\n')
            print(f'{args.output}: {len(events_of(trace))} events')
            return 0
        with open(args.json) as f:
            trace = json.load(f)
        if args.cmd == 'check':
            problems, found, full = check(trace, args.flip)
            for p in problems[:20]:
                print(f'{args.json}: {p}')
            if problems:
                print(f'{args.json}: {len(problems)} problems')
                return 1
            print(f'{args.json}: {len(events_of(trace))} events, '
                  f'{len(found)} batches, each with its three rounds on '
                  f'its CPU' + (f'; {len(full)} of {args.flip} sites with '
                                f'their rounds on every CPU' if args.flip
                                else ''))
            return 0
        b = plot(trace, args.output, args.batch)
        print(f'{args.output}: batch {b["batch"]} ({b["sites"]} sites)')
        return 0
    except (TraceError, OSError, json.JSONDecodeError) as exc:
        print(f'trace_json: {exc}', file=sys.stderr)
        return 1


if __name__ == '__main__':
    sys.exit(main())
