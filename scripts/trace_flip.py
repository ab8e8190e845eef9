#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""make trace-flip: a flip of a key of many sites under readers, traced.

Boots an ISO whose command line says "shell" (4 CPUs) and at its console
loads trace_flip (modules/trace_flip.c: trace_flip_key, 64 sites, a
reader running them on every other CPU), turns the patch engine's and
the cross-CPU calls' events on (trace on text_poke, trace on ipi), and
flips the key on and off twice: `trace export` writes those records as
Chrome trace-event JSON. Then it flips once more and reads the same kind of
records as text (`trace`, Linux's ftrace format). It writes, in --out:

  flip.json        the export, extracted from the console's log
  flip.txt         the text of the second flip
  flip-text.json   flip.txt made JSON by scripts/trace_json.py from-text
  flip.png         the largest batch of flip.json as a timeline
  serial.log       the console

and checks both JSON files (scripts/trace_json.py check --flip 64): the
format, nested slices, and the three sync rounds of the flip's batch on
every CPU. Exit status 0 when all of it worked, 1 otherwise.
"""
import argparse
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import trace_json  # noqa: E402
from qemu_console import PROMPT, Console  # noqa: E402

SITES = 64
KEY = 'trace_flip_key'
FLIPS = 2      # enable and disable, twice: four batches in flip.json


def run(con, line, must=None, timeout=120):
    out = con.command(line, timeout=timeout)
    if must and not any(re.search(must, l) for l in out):
        raise RuntimeError(f'console: {line!r} said: {" / ".join(out[-3:])}')
    return out


def session(con, out_dir):
    # The readers keep their CPUs in the kernel until rmmod (600 s at
    # most): an idle CPU takes no sync round, and under TCG on a loaded
    # host the export between the flips can outlast the default 20 s.
    run(con, 'insmod trace_flip seconds=600',
        rf'trace_flip: loaded, .*, {SITES} jump entries')
    run(con, 'trace on text_poke', r'^trace: text_poke: on')
    run(con, 'trace on ipi', r'^trace: ipi: on')
    run(con, 'trace clear', r'^trace: cleared')
    for _ in range(FLIPS):
        run(con, f'key {KEY} enable', r'sites patched in 1 batches, 3 sync')
        run(con, f'key {KEY} disable', r'sites patched in 1 batches, 3 sync')
    run(con, 'trace export', r'^trace: exported [1-9]', timeout=600)
    # The text's own flips: as many, so that one whose records a full
    # ring did not drop is among them.
    for _ in range(FLIPS):
        run(con, f'key {KEY} enable', r'sites patched in 1 batches, 3 sync')
        run(con, f'key {KEY} disable', r'sites patched in 1 batches, 3 sync')
    text = run(con, 'trace', r'^trace: [1-9][0-9]* lines', timeout=600)
    with open(os.path.join(out_dir, 'flip.txt'), 'w') as f:
        f.write('\n'.join(l for l in text if not l.startswith('trace: ')) +
                '\n')
    run(con, 'trace off ipi', r'^trace: ipi: off')
    run(con, 'trace off text_poke', r'^trace: text_poke: off')
    run(con, 'rmmod trace_flip')


def check(path, problems):
    with open(path) as f:
        trace = json.load(f)
    bad, found, full = trace_json.check(trace, SITES)
    problems += [f'{os.path.basename(path)}: {p}' for p in bad]
    return trace, full


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--iso', required=True)
    ap.add_argument('--out', required=True, help='directory for the files')
    ap.add_argument('--cpus', type=int, default=4)
    ap.add_argument('--timeout', type=float, default=120)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    log_path = os.path.join(args.out, 'serial.log')
    with open(log_path, 'w') as log:
        con = Console(args.iso, args.cpus, None, log)
        try:
            if con.wait_for(0, re.escape(PROMPT), args.timeout) is None:
                print('trace_flip: no console prompt', file=sys.stderr)
                return 1
            session(con, args.out)
        except RuntimeError as exc:
            print(f'trace_flip: {exc}', file=sys.stderr)
            return 1
        finally:
            con.kill()
    problems = []
    try:
        with open(log_path, encoding='utf-8', errors='replace') as f:
            trace = trace_json.extract(f.read())
        with open(os.path.join(args.out, 'flip.txt')) as f:
            text_trace = trace_json.from_text(f.read())
    except trace_json.TraceError as exc:
        print(f'trace_flip: {exc}', file=sys.stderr)
        return 1
    for name, t in (('flip.json', trace), ('flip-text.json', text_trace)):
        with open(os.path.join(args.out, name), 'w') as f:
            json.dump(t, f, separators=(',', ':'))
            f.write('\n')
    _, full = check(os.path.join(args.out, 'flip.json'), problems)
    check(os.path.join(args.out, 'flip-text.json'), problems)
    png = os.path.join(args.out, 'flip.png')
    try:
        b = trace_json.plot(trace, png, full[0]['batch'] if full else None)
    except trace_json.TraceError as exc:
        problems.append(f'flip.png: {exc}')
        b = None
    for p in problems[:20]:
        print(f'trace_flip: {p}')
    if problems:
        return 1
    print(f'trace_flip: {args.out}/flip.json: {len(trace["traceEvents"])} '
          f'events; batch {b["batch"]} of {b["sites"]} sites, rounds '
          f'{b["rounds"]} on CPUs {sorted(b["took"])}; {png}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
