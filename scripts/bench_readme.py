#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The figures table, written from one make bench run: README's short one
and Documentation/performance.rst's of every figure.

make bench (scripts/bench.py, then scripts/bench_linux.py) leaves every
figure of the run in OUT/results.json: configs y, n, y-smp (4 CPUs) and
linux (Debian's Linux 6.1 under the same QEMU flags). This script turns
that file into Markdown tables, one row per figure, columns y, n, Linux
6.1 and y / Linux, so that no table is edited by hand and each comes from
a single run. make bench writes every figure to OUT/table.md and README's
rows (a row with a readme label), under their short labels, to
OUT/README-table.md.

A cell holds the values of the row's params, in order, joined by " / ";
a value the run does not have is "?" (a partial run says so), a figure
that does not exist for a config is "-". The ratio is y over Linux, for
the values both have.

Usage
    scripts/bench_readme.py [--results FILE] [--out FILE] [--readme FILE]

Exit status 0, or 1 if FILE is missing or unreadable, naming it.
"""

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_RESULTS = REPO_ROOT / 'build' / 'bench' / 'results.json'
SITES = (1, 4, 56, 256, 1024)


@dataclass
class Row:
    """label; record name; params per config (None: no such figure);
    per_site divides each value by the sites= in its params; linux_name
    names the Linux column's record when it differs."""
    label: str
    name: str
    y: tuple = ('',)
    n: tuple = None
    linux: tuple = None
    y_config: str = 'y'
    per_site: bool = False
    prefix: bool = False
    linux_name: str = None      # the Linux record's name, if not name
    readme: str = None          # the row's short label in README's table

    def params(self, column):
        return {'y': self.y, 'n': self.n, 'linux': self.linux}[column]

    def config(self, column):
        return self.y_config if column == 'y' else column


def both(params):
    """The same params for y and n."""
    return {'y': params, 'n': params}


def batched(mode, cpus=1, sites=SITES):
    return tuple(f'sites={s},{mode},cpus={cpus}' for s in sites)


def module(sites=SITES):
    return tuple(f'sites={s},module' for s in sites)


ROWS = (
    Row('`site_absent_insns`: small function, no branch',
        'site_absent_insns', **both(('',))),
    Row('`site_disabled_insns`: same with one disabled '
        '`static_branch_unlikely()`', 'site_disabled_insns', **both(('',)),
        readme='a function with a disabled `static_branch_unlikely()`'),
    Row('`site_enabled_insns`: same, key enabled', 'site_enabled_insns',
        **both(('',)),
        readme='the same, key enabled'),
    Row('`getppid_insns`: getppid-like fast path with a rare branch',
        'getppid_insns', **both(('',)),
        readme='a getppid-like fast path with a rare branch'),
    Row('`fastpath_bytes`: its size in the image', 'fastpath_bytes',
        **both(('jlb_getppid',)),
        readme='its size, bytes'),
    Row('`inc_fast_insns`: `static_key_slow_inc()` + `dec` on an enabled '
        'key', 'inc_fast_insns', **both(('',)),
        readme='`static_key_slow_inc()` + `dec`, key enabled'),
    Row('`flip_sync_rounds`, 56 / 1,024 sites, batched (4 CPUs)',
        'flip_sync_rounds', y=batched('batched', 4, (56, 1024)),
        y_config='y-smp',
        readme='sync rounds a flip, 56 / 1,024 sites (4 CPUs)'),
    Row('`flip_sync_rounds`, 56 / 1,024 sites, unbatched (4 CPUs)',
        'flip_sync_rounds', y=batched('unbatched', 4, (56, 1024)),
        y_config='y-smp'),
    Row('`flip_ipis`, 56 sites, batched / unbatched (4 CPUs)', 'flip_ipis',
        y=('sites=56,batched,cpus=4', 'sites=56,unbatched,cpus=4'),
        y_config='y-smp'),
    Row('`flip_ipis`, 56 sites, batched, the 3 other CPUs idle / in user '
        'loops / reading in the kernel', 'flip_ipis',
        y=('sites=56,batched,cpus=4,idle=3', 'sites=56,batched,cpus=4,user=3',
           'sites=56,batched,cpus=4,readers=3'), y_config='y-smp',
        readme='IPIs a 56-site flip, other CPUs idle / user / kernel'),
    Row('`flip_insns`, 1 / 4 / 56 / 256 / 1,024 sites, batched (Linux: a '
        'module\'s key, `static_branch_enable()` + `disable()` / 2)',
        'flip_insns', y=batched('batched'), linux=module(),
        readme='a flip, 1 / 4 / 56 / 256 / 1,024 sites'),
    Row('the same per site', 'flip_insns', y=batched('batched'),
        linux=module(), per_site=True,
        readme='the same, per site'),
    Row('`flip_insns`, 56 / 1,024 sites, unbatched', 'flip_insns',
        y=batched('unbatched', 1, (56, 1024))),
    Row('`int3_insns` per hit, batch of 1 / 4 / 56 / 1,024', 'int3_insns',
        y=tuple(f'batch={s}' for s in (1, 4, 56, 1024)),
        readme='an int3 hit, batch of 1 / 4 / 56 / 1,024 sites'),
    Row('`int3_trap_insns`: exception entry and exit, a trivial hook',
        'int3_trap_insns'),
    Row('`int3_handler_insns`: the batch handler itself, batch of 1 / 4 / '
        '56 / 1,024', 'int3_handler_insns',
        y=tuple(f'batch={s}' for s in (1, 4, 56, 1024))),
    Row('`entry_bytes`', 'entry_bytes',
        readme='a jump entry, bytes'),
    Row('`table_entries`: jump entries of the kernel image (Linux: '
        '`linux_table_entries`)', 'table_entries', linux=('',),
        linux_name='linux_table_entries',
        readme='jump entries of the image'),
    Row('`table_bytes`: the same, bytes', 'table_bytes', linux=('',)),
    Row('`init_insns`: `jump_label_init()`, whole table', 'init_insns'),
    Row('`init_insns_per_entry`', 'init_insns_per_entry',
        readme='`jump_label_init()` per entry'),
    Row('`table_entries` of the y-table kernel (40,000 '
        'generated sites over 4,000 keys)', 'table_entries',
        y=('entries=',), prefix=True, y_config='y-table'),
    Row('the same, bytes', 'table_bytes', y=('entries=',), prefix=True,
        y_config='y-table'),
    Row('`init_insns_per_entry` of the y-table kernel', 'init_insns_per_entry',
        y=('entries=',), prefix=True, y_config='y-table'),
    Row('`flip_sync_rounds`: one queued batch enabling all 4,000 keys / '
        'disabling them (y-table)', 'flip_sync_rounds',
        y=('keys=4000,sites=40000,queued,enable',
           'keys=4000,sites=40000,queued,disable'), y_config='y-table',
        readme='4,000 keys in one queued batch, on / off: sync rounds'),
    Row('`flip_insns_per_site`: the same', 'flip_insns_per_site',
        y=('keys=4000,sites=40000,queued,enable',
           'keys=4000,sites=40000,queued,disable'), y_config='y-table',
        readme='the same, instructions per site'),
    Row('`int3_insns` per hit in that batch of 40,000 sites', 'int3_insns',
        y=('batch=40000,keys=4000,queued',), y_config='y-table'),
    Row('`short_site_share` (2-byte sites), %: keys of <= 16 sites / all',
        'short_site_share', y=('keys of <= 16 sites', 'all sites')),
    Row('`timer_tick_insns`: one tick, no timer due, 0 / 1,000 timers '
        'pending', 'timer_tick_insns', **both(('pending=0', 'pending=1000'))),
    Row('`context_switch_insns`: two kthreads yielding to each other',
        'context_switch_insns', **both(('',)),
        readme='a context switch, two kthreads'),
    Row('`context_switch_static_branches`: static branch sites one switch '
        'passes', 'context_switch_static_branches'),
    Row('`synchronize_rcu_insns`: 1 CPU, no reader',
        'synchronize_rcu_insns', **both(('',))),
    Row('`pipe_roundtrip_insns`: in-kernel sched pipe round trip, two '
        'kthreads, one CPU', 'pipe_roundtrip_insns', **both(('',)),
        readme='sched pipe round trip, two kthreads'),
    Row('`pipe_roundtrip_switches`: context switches a round trip',
        'pipe_roundtrip_switches', **both(('',))),
    Row('`pipe_roundtrip_branches`: all / conditional (single-stepped)',
        'pipe_roundtrip_branches', **both(('', 'conditional'))),
    Row('`pipe_roundtrip_static_branches`: static branch sites a round '
        'trip passes', 'pipe_roundtrip_static_branches'),
    Row('`pipe_roundtrip_traced_insns`: a probe on `sched_switch` / the '
        'tracer\'s event', 'pipe_roundtrip_traced_insns',
        **both(('probe=sched_switch', 'event=sched_switch'))),
    Row('`pipe_roundtrip_schedstats_insns`: schedstats on',
        'pipe_roundtrip_schedstats_insns', **both(('',))),
    Row('`pipe_roundtrip_icache_lines`: 64-byte instruction lines, '
        'hot-path layout / link order', 'pipe_roundtrip_icache_lines',
        **both(('layout=default', 'layout=linkorder'))),
    Row('`pipe_roundtrip_text_pages`: 4 KiB text pages, the same',
        'pipe_roundtrip_text_pages',
        **both(('layout=default', 'layout=linkorder'))),
    Row('`pipe_roundtrip_data_lines`: data lines read',
        'pipe_roundtrip_data_lines', **both(('layout=default',))),
    Row('`pipe_roundtrip_mispredicts` (model), the same',
        'pipe_roundtrip_mispredicts',
        **both(('layout=default', 'layout=linkorder'))),
    Row('`static_call_insns`: one call through a static call / a direct '
        'call / an indirect call', 'static_call_insns',
        **both(('static', 'direct', 'indirect')),
        readme='a call: static / direct / indirect'),
    Row('`static_call_update_insns`: `static_call_update()` of a call of '
        '1 / 56 / 1,024 sites', 'static_call_update_insns',
        y=('sites=1', 'sites=56', 'sites=1024')),
    Row('`static_call_update_sync_rounds`: the same',
        'static_call_update_sync_rounds',
        y=('sites=1', 'sites=56', 'sites=1024'),
        readme='`static_call_update()`, 1 / 56 / 1,024 sites: sync rounds'),
    Row('`trace_on_sync_rounds`: `trace on sched:*`, all its events',
        'trace_on_sync_rounds', y=('events=',), prefix=True),
    Row('`trace_on_sync_rounds`: `trace on *` (every event of the kernel) / '
        'a probe on every tracepoint in one batch', 'trace_on_sync_rounds',
        y=('all,events=', 'tracepoints='), prefix=True,
        readme='`trace on *` / a probe on every tracepoint: sync rounds'),
    Row('`trace_off_sync_rounds`: `trace off *` / the same probes off',
        'trace_off_sync_rounds', y=('all,events=', 'tracepoints='),
        prefix=True),
    Row('`trace_on_events`: those events / tracepoints (the N above)',
        'trace_on_events', y=('all', 'tracepoints')),
    Row('`deferred_storm_batches`: 1,000 inc/dec pairs, rl=0 / rl=HZ/10',
        'deferred_storm_batches',
        y=('rl=0,pairs=1000', 'rl=HZ/10,pairs=1000')),
    Row('`flip_sync_rounds`: a key with sites in the kernel and 3 modules '
        '(8 sites)', 'flip_sync_rounds',
        y=('key=jlm_core_false,modules=3,sites=8',)),
    Row('`module_load_insns`: jlm_core_user (9 entries) / jlm_base (6) / '
        'jlm_base_user (6)', 'module_load_insns',
        y=('module=jlm_core_user,entries=9', 'module=jlm_base,entries=6',
           'module=jlm_base_user,entries=6')),
    Row('`module_jump_label_insns_per_entry`: the jump-label part, the '
        'same modules', 'module_jump_label_insns_per_entry',
        y=('module=jlm_core_user,entries=9', 'module=jlm_base,entries=6',
           'module=jlm_base_user,entries=6')),
    Row('`module_unload_insns`: the same modules', 'module_unload_insns',
        y=('module=jlm_core_user', 'module=jlm_base',
           'module=jlm_base_user')),
    Row('`module_load_sync_rounds`: load a module with 1 / 16 / 64 keys '
        '(jlm_keysK: a site per key, one on a kernel key, a static call '
        'site per key)', 'module_load_sync_rounds',
        y=('keys=1', 'keys=16', 'keys=64'),
        readme='a module load, 1 / 16 / 64 keys: sync rounds'),
    Row('`module_load_sites`: sites that load writes, the same',
        'module_load_sites', y=('keys=1', 'keys=16', 'keys=64')),
    Row('`module_load_keys_insns`: that load, whole, the same',
        'module_load_keys_insns', y=('keys=1', 'keys=16', 'keys=64')),
    Row('`module_unload_sync_rounds`: its unload, the same',
        'module_unload_sync_rounds', y=('keys=1', 'keys=16', 'keys=64')),
    Row('`user_pipe_roundtrip_insns`: two processes, two pipes, one CPU '
        '(perf bench sched pipe), schedstats off / on',
        'user_pipe_roundtrip_insns',
        **both(('schedstats=0', 'schedstats=1')),
        linux=('schedstats=0', 'schedstats=1'),
        readme='perf bench sched pipe round trip, schedstats off / on'),
    Row('`user_getppid_insns`: one `getppid()` from user space',
        'user_getppid_insns', **both(('',)), linux=('',),
        readme='`getppid()` from user space'),
    Row('`user_schedstats_flip_insns`: `sched_schedstats` on through '
        '`/proc/sys`', 'user_schedstats_flip_insns', **both(('on',)),
        linux=('on',)),
    Row('the same per site of the key (sites: the image\'s `__jump_table`)',
        'user_schedstats_flip_insns_per_site', y=('sites=',),
        linux=('sites=',), prefix=True,
        readme='`sched_schedstats` on, per site of the key'),
    Row('`boot_first_user_insns`: boot to the first user instruction '
        '(firmware included: GRUB here, `-kernel` for Linux)',
        'boot_first_user_insns', **both(('',)), linux=('',),
        readme='boot to the first user instruction'),
)

COLUMNS = ('y', 'n', 'linux')


def load(path):
    try:
        return json.loads(Path(path).read_text(encoding='utf-8'))
    except OSError as exc:
        raise SystemExit(f'bench_readme: {path}: {exc.strerror}; run make '
                         'bench first') from None
    except ValueError as exc:
        raise SystemExit(f'bench_readme: {path}: not JSON ({exc})') from None


def lookup(records, row, column, params):
    """(value, params found) or (None, None)."""
    config = row.config(column)
    for r in records:
        name = row.linux_name if column == 'linux' and row.linux_name \
            else row.name
        if r.get('config') != config or r.get('name') != name:
            continue
        have = r.get('params', '')
        words = have.split(',') if have else []
        clean = ','.join(w for w in words if w != 'partial')
        if clean == params or (row.prefix and clean.startswith(params)):
            return r['value'], clean
    return None, None


def sites_of(params):
    for word in params.split(','):
        if word.startswith('sites='):
            return int(word[len('sites='):])
    return None


def values(records, row, column):
    """[value or None] per param; None if the row has no such column."""
    wanted = row.params(column)
    if wanted is None:
        return None
    out = []
    for params in wanted:
        value, found = lookup(records, row, column, params)
        if value is not None and row.per_site:
            value = value / sites_of(found)
        out.append(value)
    return out


def fmt(value):
    if value is None:
        return '?'
    if abs(value - round(value)) < 0.005:
        return f'{round(value):,}'
    return f'{value:,.2f}' if abs(value) < 1000 else f'{value:,.1f}'


def cell(vals):
    return '-' if vals is None else ' / '.join(fmt(v) for v in vals)


def ratio(ours, linux):
    if not ours or not linux:
        return ''
    pairs = [f'{o / li:.3g}' if o is not None and li else '?'
             for o, li in zip(ours, linux)]
    return ' / '.join(pairs)


def table(records, short=False):
    """The table of every row, or (short) README's: its rows, short labels."""
    lines = ['| figure | y | n | Linux 6.1 | y / Linux |',
             '|---|---|---|---|---|']
    for row in ROWS:
        if short and not row.readme:
            continue
        label = row.readme if short else row.label
        got = {c: values(records, row, c) for c in COLUMNS}
        lines.append(f'| {label} | {cell(got["y"])} | {cell(got["n"])} '
                     f'| {cell(got["linux"])} | '
                     f'{ratio(got["y"], got["linux"])} |')
    partial = any('partial' in r.get('params', '').split(',')
                  for r in records)
    if partial:
        lines.append('')
        lines.append('(partial run: a figure marked partial in the results '
                     'is shown, but the run did not finish)')
    return '\n'.join(lines) + '\n'


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--results', default=str(DEFAULT_RESULTS))
    ap.add_argument('--out', help='write the table here, not to stdout')
    ap.add_argument('--readme', metavar='FILE',
                    help='also write README\'s short table to FILE')
    args = ap.parse_args(argv)
    records = load(args.results)
    text = table(records)
    if args.out:
        Path(args.out).write_text(text, encoding='utf-8')
        print(f'table of every figure: {args.out}')
    else:
        sys.stdout.write(text)
    if args.readme:
        Path(args.readme).write_text(table(records, short=True),
                                     encoding='utf-8')
        print(f'README table: {args.readme}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
