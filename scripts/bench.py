#!/usr/bin/python3
"""Static key benchmarks: CONFIG_JUMP_LABEL=y against =n, side by side.

Builds and boots three benchmark kernels through scripts/kunit.py, collects
the figures they print on the serial console, adds a few measured on the
host, and reports them:

    y      tests/configs/bench.config, bench=*, QEMU -icount, 1 CPU
    n      the same plus tests/configs/jump_label_n.config
    y-smp  tests/configs/bench.config, bench=flip, no -icount, --cpus CPUs
           (only its sync round and IPI counts are kept: without -icount
           flip_insns is not an instruction count)
    y-table
           bench.config plus tests/configs/bench_table.config, bench=gen_*,
           QEMU -icount, 1 CPU: a jump table of Linux's size, 40,000
           generated sites over 4,000 keys (scripts/gen_jump_table_bench.py,
           kernel/bench/jump_label_table_bench.c), params "entries=N" and
           "keys=4000,sites=40000": init_insns_per_entry, table_bytes, one
           queued batch of every key (flip_sync_rounds, flip_insns_per_site)
           and int3_insns per hit in it; shown in the y column
    y-linkorder, n-linkorder
           y and n in the old text layout: the footprint figures of both
           layouts, and the figures the layout moves
           (scripts/bench_footprint.py)

Every run boots with tick=off: no periodic tick, so no timer interrupt
lands in a timed region (timer_tick_insns calls the tick's work directly).

Under -icount, rdtsc counts executed instructions, so the y and n figures
are exact and reproducible. Each kernel prints lines like

    BENCH {"name": "site_disabled_insns", "params": "", "value": 7.00,
           "unit": "insns"}

(one line each).

bench=flip_fn single-steps an enable and a disable of the 1- and the
1,024-site keys (the counter of bench=pipe): flip_stepped_insns per flip,
and flip_fn_insns, the same per function, so that the cost of a flip
beyond its writes shows where it goes.

bench=pipe (kernel/bench/pipe_bench.c) is perf bench sched pipe pinned to
one CPU, per round trip: its instructions with every key off, with a probe
or the tracer's event on sched_switch, with schedstats on; and, single-
stepped (arch/x86/bench/bench_step.c), its instructions, branches, static branch
sites (per key) and, per function, where y and n differ. The summary sets
n - y against the seed's (Linux 3.3, Documentation/static-keys.rst).

Host-side figures, from OUT/y/vmlinux and OUT/n/vmlinux: fastpath_bytes
(the size of jlb_getppid, from nm -S) and image_text_bytes (the size of
.text, from readelf -S).

Usage
    scripts/bench.py [--only RUNS] [--cpus N] [--out DIR] [--timeout S]
    scripts/bench.py --from-logs DIR [--only RUNS] [--out DIR]

    --only RUNS       comma-separated subset of y,n,y-smp,y-linkorder,
                      n-linkorder (default: all)
    --cpus N          CPUs for the y-smp run (default 4)
    --out DIR         build dirs DIR/<run>, and the results (default
                      build/bench)
    --timeout S       seconds before a boot is killed (default 600)
    --from-logs DIR   build and boot nothing: read DIR/<run>/serial.log
                      (checked with "kunit.py parse") and DIR/<run>/vmlinux
                      when present

Output: a table comparing y and n and a summary on stdout; OUT/results.json
(a list of {"name", "config", "params", "value", "unit"}; the config
"linux" records of the last make bench-linux are kept); OUT/bench.gp, the
gnuplot script, its data files OUT/flip_*.dat (per flip, against the sites
of a key), OUT/flip_per_site_n.dat (per site, against the sites of a batch
to the y-table run's 40,000, beside Linux's per-site curve when
bench-linux has run) and OUT/init_per_entry.dat (jump_label_init() per
entry, against the table's entries) and, when gnuplot is installed, the
plot OUT/bench.png (bench.svg without a PNG terminal). The last line
printed is "results: OUT/results.json".

Exit status: 0 on success; 1 if a run failed, or a required figure
(site_disabled_insns in y and in n) is missing; 2 on a usage error; 130 if
interrupted. "make bench" runs scripts/install-deps.sh --bench, then this.
"""

import argparse
import json
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_boot  # noqa: E402
import bench_footprint  # noqa: E402
import bench_static_call  # noqa: E402
import bench_module_load  # noqa: E402
import bench_user  # noqa: E402

REPO_ROOT = Path(__file__).resolve().parent.parent
KUNIT = REPO_ROOT / 'scripts' / 'kunit.py'
PYTHON = '/usr/bin/python3'
DEFAULT_OUT = REPO_ROOT / 'build' / 'bench'
BENCH_CONFIG = 'tests/configs/bench.config'
# No periodic tick: an interrupt inside a timed region would add its
# instructions to the figure (timer_tick_insns calls the tick directly).
BENCH_KERNEL_ARGS = 'tick=off'
JUMP_LABEL_N_CONFIG = 'tests/configs/jump_label_n.config'
BENCH_TABLE_CONFIG = 'tests/configs/bench_table.config'

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130


@dataclass(frozen=True)
class Run:
    """One kernel configuration to build and boot."""
    name: str
    fragments: tuple
    glob: str
    icount: bool
    smp: bool           # --cpus CPUs; otherwise 1


RUNS = (
    Run('y', (BENCH_CONFIG,), '*', True, False),
    Run('n', (BENCH_CONFIG, JUMP_LABEL_N_CONFIG), '*', True, False),
    Run('y-smp', (BENCH_CONFIG,), 'flip', False, True),
    Run('y-table', (BENCH_CONFIG, BENCH_TABLE_CONFIG), 'gen_*', True, False),
)
RUNS += bench_footprint.runs(Run, BENCH_CONFIG, JUMP_LABEL_N_CONFIG)
RUN_NAMES = tuple(run.name for run in RUNS)

# bench=pipe (kernel/bench/pipe_bench.c), per round trip, in y and n.
PIPE_FIGURES = ('pipe_roundtrip_insns', 'pipe_roundtrip_switches',
                'pipe_roundtrip_traced_insns',
                'pipe_roundtrip_schedstats_insns',
                'pipe_roundtrip_stepped_insns', 'pipe_roundtrip_branches',
                'pipe_roundtrip_fn_insns', 'pipe_roundtrip_fn_branches')
# Per-function rows: only those where y and n differ are shown.
DIFF_ONLY = ('pipe_roundtrip_fn_insns', 'pipe_roundtrip_fn_branches')
# The seed (Documentation/static-keys.rst, Linux 3.3, perf stat of
# 'perf bench sched pipe', 100,000 round trips, jump labels off / on):
# instructions 1,178,049,567 / 1,175,363,994, branches 208,368,926 /
# 206,859,359; per round trip, n - y:
SEED_PIPE_INSNS = (1178049567 - 1175363994) / 100000
SEED_PIPE_BRANCHES = (208368926 - 206859359) / 100000

# Figures a run must report (else exit 1), should report (else a warning),
# and reports but that mean nothing there (dropped).
REQUIRED = {'y': ('site_disabled_insns',), 'n': ('site_disabled_insns',)}
EXPECTED = {
    'y': ('site_absent_insns', 'site_disabled_insns', 'site_enabled_insns',
          'getppid_insns', 'inc_fast_insns', 'entry_bytes', 'table_bytes',
          'table_entries', 'short_site_share', 'init_insns',
          'init_insns_per_entry', 'flip_insns', 'flip_sync_rounds',
          'flip_ipis', 'flip_stepped_insns', 'flip_fn_insns', 'int3_insns', 'int3_trap_insns', 'int3_handler_insns',
          'timer_tick_insns', 'context_switch_insns',
          'context_switch_stepped_insns', 'context_switch_static_branches',
          'synchronize_rcu_insns', 'deferred_storm_batches',
          'module_load_insns', 'module_unload_insns',
          'module_jump_label_insns_per_entry') + PIPE_FIGURES
    + ('pipe_roundtrip_static_branches',),
    'n': ('site_absent_insns', 'site_disabled_insns', 'site_enabled_insns',
          'getppid_insns', 'inc_fast_insns', 'table_bytes', 'table_entries',
          'timer_tick_insns', 'context_switch_insns',
          'context_switch_stepped_insns', 'synchronize_rcu_insns')
    + PIPE_FIGURES,
    'y-smp': ('flip_sync_rounds', 'flip_ipis'),
    'y-table': ('table_entries', 'table_bytes', 'init_insns_per_entry',
                'flip_insns', 'flip_insns_per_site', 'flip_sync_rounds',
                'int3_insns'),
}
EXPECTED['y'] += bench_module_load.EXPECTED
DROPPED = {'y-smp': ('flip_insns',)}

# The host-side figures, measured in these runs' images.
HOST_RUNS = ('y', 'n')
FASTPATH_SYMBOL = 'jlb_getppid'

# Table rows, by group; figures of no group go to "other" at the end.
GROUPS = (
    ('per-site costs', ('site_absent_insns', 'site_disabled_insns',
                        'site_enabled_insns')),
    ('getppid', ('getppid_insns',)),
    ('fast inc/dec', ('inc_fast_insns',)),
    ('flips', ('flip_insns', 'flip_insns_per_site', 'flip_sync_rounds',
               'flip_ipis')),
    ('flips, per function (single-stepped)', ('flip_stepped_insns',
                                              'flip_fn_insns')),
    ('int3', ('int3_insns', 'int3_trap_insns', 'int3_handler_insns')),
    ('table/init', ('entry_bytes', 'table_bytes', 'table_entries',
                    'table_keys',
                    'short_site_share', 'short_sites', 'long_sites',
                    'init_insns', 'init_insns_per_entry')),
    ('tick', ('timer_tick_insns',)),
    ('sched', ('context_switch_insns', 'context_switch_stepped_insns',
               'context_switch_static_branches')),
    ('sched pipe, per round trip', (
        'pipe_roundtrip_insns', 'pipe_roundtrip_stepped_insns',
        'pipe_roundtrip_switches', 'pipe_roundtrip_traced_insns',
        'pipe_roundtrip_schedstats_insns', 'pipe_roundtrip_branches',
        'pipe_roundtrip_static_branches')),
    ('sched pipe, functions where y and n differ (single-stepped)',
     DIFF_ONLY),
    ('rcu', ('synchronize_rcu_insns',)),
    ('deferred keys', ('deferred_storm_batches',)),
    ('modules (y, icount)', ('module_load_insns', 'module_unload_insns',
                             'module_jump_label_insns',
                             'module_jump_label_insns_per_entry',
                             'flip_batches')),
    ('image sizes', ('fastpath_bytes', 'image_text_bytes')),
    ('user space (processes, scripts/bench_user.py)', (
        'user_getppid_insns', 'user_pipe_roundtrip_insns',
        'user_schedstats_flip_insns', 'boot_first_user_insns')),
) + bench_footprint.GROUPS + bench_static_call.GROUPS
GROUPS += bench_module_load.GROUPS
COLUMN_OF_RUN = {'y': 'y', 'y-smp': 'y', 'y-table': 'y', 'n': 'n'}

FLIP_SITES = (1, 4, 56, 256, 1024)
BENCH_RE = re.compile(r'BENCH (\{.*\})\s*$')


class Report:
    """Warnings and errors gathered on the way, printed before the end."""

    def __init__(self):
        self.errors = []
        self.warnings = []

    def error(self, text):
        self.errors.append(text)

    def warn(self, text):
        self.warnings.append(text)

    def print(self):
        for text in self.warnings:
            print(f'warning: {text}')
        for text in self.errors:
            print(f'error: {text}')


# ---------------------------------------------------------------------------
# Running the kernels
# ---------------------------------------------------------------------------

def kunit_command(run, build_dir, args):
    cmd = [PYTHON, str(KUNIT), 'run', '--build_dir', str(build_dir.resolve())]
    for fragment in run.fragments:
        cmd += ['--kconfig_add', str(REPO_ROOT / fragment)]
    cmd += ['--kernel_args', f'bench={run.glob}',
            '--kernel_args', BENCH_KERNEL_ARGS,
            '--cpus', str(args.cpus if run.smp else 1),
            '--timeout', f'{args.timeout:g}']
    if run.icount:
        cmd.append('--icount')
    return cmd


def run_kunit(run, build_dir, args):
    """Builds and boots one run, echoing kunit.py; returns its exit code."""
    cmd = kunit_command(run, build_dir, args)
    print(f'==== bench run {run.name} ====', flush=True)
    print('  $ ' + shlex.join(cmd), flush=True)
    with subprocess.Popen(cmd, cwd=REPO_ROOT, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True,
                          errors='replace') as proc:
        try:
            for line in proc.stdout:
                print(f'  [{run.name}] {line}', end='', flush=True)
        except KeyboardInterrupt:
            proc.wait()
            raise
        return proc.wait()


def check_log(run, log):
    """kunit.py parse on a saved log; returns its exit code."""
    result = subprocess.run([PYTHON, str(KUNIT), 'parse', str(log)],
                            cwd=REPO_ROOT, capture_output=True, text=True,
                            errors='replace', check=False)
    if result.returncode:
        for line in result.stdout.splitlines()[-15:]:
            print(f'  [{run.name}] {line}')
    return result.returncode


def collect_run(run, run_dir, args, report):
    """Runs (or, with --from-logs, checks) one run: its records, or None."""
    log = run_dir / 'serial.log'
    if args.from_logs:
        if not log.is_file():
            report.error(f'run {run.name}: no {display(log)}')
            return None
        code = check_log(run, log)
        what = 'kunit.py parse'
    else:
        code = run_kunit(run, run_dir, args)
        what = 'kunit.py run'
    if code:
        report.error(f'run {run.name}: {what} exited with status {code} '
                     f'(serial log: {display(log)})')
        return None
    records = parse_serial_log(log, run.name, report)
    if not records:
        report.error(f'run {run.name}: no BENCH lines in {display(log)}'
                     + ('' if bench_suite_ran(log) else
                        ' (no "bench" KTAP suite either: the kernel ignored '
                        f'bench={run.glob} and ran the KUnit suites?)'))
        return records
    check_run_figures(run, records, args, report)
    return records


def bench_suite_ran(log):
    text = log.read_bytes().decode('utf-8', 'replace')
    return re.search(r'#\s*Subtest:\s*bench\s*$', text, re.M) is not None


# ---------------------------------------------------------------------------
# Figures
# ---------------------------------------------------------------------------

def parse_bench_line(line):
    """The record of one "BENCH {...}" line, None if none, or ValueError."""
    match = BENCH_RE.search(line)
    if not match:
        return None
    data = json.loads(match.group(1))
    if not isinstance(data, dict) or any(
            not isinstance(data.get(key), str)
            for key in ('name', 'params', 'unit')):
        raise ValueError('needs string "name", "params" and "unit"')
    value = data.get('value')
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError('"value" is not a number')
    return {key: data[key] for key in ('name', 'params', 'value', 'unit')}


def parse_serial_log(log, config, report):
    """The records of a serial log's BENCH lines, for run config."""
    records, seen = [], set()
    try:
        text = log.read_bytes().decode('utf-8', 'replace')
    except OSError as exc:
        report.error(f'cannot read {display(log)}: {exc.strerror}')
        return records
    for number, line in enumerate(text.splitlines(), 1):
        try:
            record = parse_bench_line(line.rstrip('\r'))
        except ValueError as exc:
            report.warn(f'{display(log)}:{number}: bad BENCH line ({exc})')
            continue
        if record is None or record['name'] in DROPPED.get(config, ()):
            continue
        key = (record['name'], record['params'])
        if key in seen:
            report.warn(f'{display(log)}:{number}: {record["name"]} '
                        f'"{record["params"]}" reported again; kept the first')
            continue
        seen.add(key)
        records.append({'name': record['name'], 'config': config,
                        'params': record['params'], 'value': record['value'],
                        'unit': record['unit']})
    return records


def check_run_figures(run, records, args, report):
    names = {record['name'] for record in records}
    for name in EXPECTED.get(run.name, ()):
        if name not in names and name not in REQUIRED.get(run.name, ()):
            report.warn(f'run {run.name}: no {name} figure')
    if run.smp and not args.from_logs:
        want = f'cpus={args.cpus}'
        for record in records:
            if want not in split_params(record['params'])[1]:
                report.warn(f'run {run.name}: {record["name"]} '
                            f'"{record["params"]}" was not measured '
                            f'with {args.cpus} CPUs')
                break


def check_required(records, runs, report):
    for run in runs:
        for name in REQUIRED.get(run.name, ()):
            if not find_value(records, name, run.name):
                report.error(f'required figure {name} missing from run '
                             f'{run.name}')


def split_params(params):
    """"sites=56,batched" -> ({'sites': '56'}, ['sites=56', 'batched'])."""
    values, flags = {}, []
    for item in filter(None, (part.strip() for part in params.split(','))):
        key, sep, value = item.partition('=')
        if sep:
            values[key] = value
        flags.append(item)
    return values, flags


def find_value(records, name, config, params=''):
    for record in records:
        if (record['name'], record['config'], record['params']) == \
                (name, config, params):
            return record['value']
    return None


# ---------------------------------------------------------------------------
# Host-side figures
# ---------------------------------------------------------------------------

def tool_output(cmd, report):
    if not shutil.which(cmd[0]):
        report.warn(f'{cmd[0]} not found: host-side figures skipped')
        return None
    result = subprocess.run(cmd, capture_output=True, text=True,
                            errors='replace', check=False)
    if result.returncode:
        report.warn(f'{" ".join(cmd)} failed: {result.stderr.strip()}')
        return None
    return result.stdout


def symbol_size(vmlinux, symbol, report):
    """The size nm -S gives the symbol itself (not symbol.cold)."""
    out = tool_output(['nm', '-S', '--defined-only', str(vmlinux)], report)
    sizes = set()
    for line in (out or '').splitlines():
        fields = line.split()
        if len(fields) == 4 and fields[3] == symbol:
            sizes.add(int(fields[1], 16))
    if len(sizes) > 1:
        report.warn(f'{display(vmlinux)}: several {symbol} symbols, sizes '
                    f'{sorted(sizes)}; kept the largest')
    return max(sizes) if sizes else None


def text_size(vmlinux, report):
    """The size of .text (readelf -S), else _etext - _stext (nm)."""
    out = tool_output(['readelf', '-S', '-W', str(vmlinux)], report)
    for line in (out or '').splitlines():
        fields = line.split(']', 1)[-1].split()
        if len(fields) >= 5 and fields[0] == '.text':
            return int(fields[4], 16)
    out = tool_output(['nm', '--defined-only', str(vmlinux)], report)
    addresses = {}
    for line in (out or '').splitlines():
        fields = line.split()
        if len(fields) == 3 and fields[2] in ('_stext', '_etext'):
            addresses[fields[2]] = int(fields[0], 16)
    if len(addresses) == 2:
        return addresses['_etext'] - addresses['_stext']
    return None


PAGE = 4096


def bench_site_spans(vmlinux, report):
    """Warns of each function of .text.bench_sites (between the symbols
    __bench_sites_start and __bench_sites_end, <linux/bench.h>) that spans
    more pages than its size needs: a flip maps its pages one at a time,
    so its figures would count a page more."""
    out = tool_output(['nm', '-n', '-S', '--defined-only', str(vmlinux)],
                      report)
    bounds = {}
    functions = []
    for line in (out or '').splitlines():
        fields = line.split()
        if len(fields) == 3 and fields[2] in ('__bench_sites_start',
                                              '__bench_sites_end'):
            bounds[fields[2]] = int(fields[0], 16)
        elif len(fields) == 4 and fields[2] in 'tT':
            functions.append((int(fields[0], 16), int(fields[1], 16),
                              fields[3]))
    if len(bounds) < 2:
        return
    for start, size, name in functions:
        if not (bounds['__bench_sites_start'] <= start <
                bounds['__bench_sites_end']) or not size:
            continue
        spans = (start + size - 1) // PAGE - start // PAGE + 1
        fewest = -(-size // PAGE)
        if spans > fewest:
            report.warn(f'{display(vmlinux)}: {name} ({size} bytes at page '
                        f'offset {start % PAGE:#x}) spans {spans} pages, '
                        f'its size needs {fewest}: reorder the slots of '
                        '<linux/bench.h>')


def host_records(config, vmlinux, report):
    """fastpath_bytes and image_text_bytes of one run's image."""
    if not vmlinux.is_file():
        report.warn(f'no {display(vmlinux)}: host-side figures of {config} '
                    'skipped')
        return []
    records = []
    size = symbol_size(vmlinux, FASTPATH_SYMBOL, report)
    if size is None:
        report.warn(f'{display(vmlinux)}: no {FASTPATH_SYMBOL} symbol '
                    'with a size')
    else:
        records.append({'name': 'fastpath_bytes', 'config': config,
                        'params': FASTPATH_SYMBOL, 'value': size,
                        'unit': 'bytes'})
    bench_site_spans(vmlinux, report)
    size = text_size(vmlinux, report)
    if size is not None:
        records.append({'name': 'image_text_bytes', 'config': config,
                        'params': '.text', 'value': size, 'unit': 'bytes'})
    return records


# ---------------------------------------------------------------------------
# The table
# ---------------------------------------------------------------------------

def group_of(name):
    for index, (_, names) in enumerate(GROUPS):
        if name in names:
            return index, names.index(name)
    return len(GROUPS), 0


def row_sort_key(row):
    """Within a group: CPUs, figure, sites/batch, batched first."""
    values, flags = split_params(row['params'])
    number = values.get('sites', values.get('batch', '0'))
    return (int_or_zero(values.get('cpus', '0')), group_of(row['name'])[1],
            row['name'], int_or_zero(number), 'unbatched' in flags,
            row['params'])


def int_or_zero(text):
    try:
        return int(text)
    except ValueError:
        return 0


def table_rows(records):
    """Rows {name, params, unit, y, n}; y-smp fills the y column."""
    rows = {}
    for record in records:
        column = COLUMN_OF_RUN.get(record['config'])
        if column is None:
            continue
        params = record['params']
        if record['config'] == 'y-smp':
            row = rows.get((record['name'], params))
            if row and row['y'] is not None and row['config'] != 'y-smp':
                params += ' (y-smp)'
        row = rows.setdefault((record['name'], params), {
            'name': record['name'], 'params': params, 'unit': record['unit'],
            'y': None, 'n': None, 'config': record['config']})
        row[column] = record['value']
    return sorted(rows.values(),
                  key=lambda row: (group_of(row['name'])[0],
                                   row['config'] == 'y-smp',
                                   row_sort_key(row)))


def group_label(row):
    index = group_of(row['name'])[0]
    label = GROUPS[index][0] if index < len(GROUPS) else 'other'
    if row['config'] == 'y-smp':
        return f'{label} (y-smp: no icount, counts only)'
    if index < len(GROUPS) and GROUPS[index][0] == 'flips':
        return f'{label} (y, icount)'
    return label


def fmt_value(value):
    if value is None:
        return ''
    if float(value).is_integer():
        return f'{int(value):,}'
    return f'{value:,.2f}'


def fmt_ratio(row):
    if row['y'] is None or row['n'] is None or row['y'] == 0:
        return ''
    return f'{row["n"] / row["y"]:.2f}'


def print_table(records):
    header = ('figure', 'params', 'y', 'n', 'n/y', 'unit')
    lines, group = [], None
    for row in table_rows(records):
        if row['name'] in DIFF_ONLY and row['y'] == row['n']:
            continue
        if group_label(row) != group:
            group = group_label(row)
            lines.append(group)
        lines.append(('  ' + row['name'], row['params'], fmt_value(row['y']),
                      fmt_value(row['n']), fmt_ratio(row), row['unit']))
    cells = [header] + [line for line in lines if isinstance(line, tuple)]
    widths = [max(len(cell[i]) for cell in cells) for i in range(6)]
    print()
    print('Static key benchmarks: CONFIG_JUMP_LABEL=y vs =n')
    print()
    print(format_row(header, widths))
    print(format_row(tuple('-' * width for width in widths), widths))
    for line in lines:
        print(line if isinstance(line, str) else format_row(line, widths))


def format_row(cells, widths):
    left = f'{cells[0]:<{widths[0]}}  {cells[1]:<{widths[1]}}'
    numbers = '  '.join(f'{cell:>{width}}'
                        for cell, width in zip(cells[2:5], widths[2:5]))
    return f'{left}  {numbers}  {cells[5]}'.rstrip()


# ---------------------------------------------------------------------------
# The summary
# ---------------------------------------------------------------------------

def summary_disabled_site(records):
    y = find_value(records, 'site_disabled_insns', 'y')
    n = find_value(records, 'site_disabled_insns', 'n')
    absent = find_value(records, 'site_absent_insns', 'y')
    if absent is None:
        absent = find_value(records, 'site_absent_insns', 'n')
    text = (f'disabled site: y {fmt_value(y) or "n/a"}, '
            f'n {fmt_value(n) or "n/a"}, absent (no branch) '
            f'{fmt_value(absent) or "n/a"} insns per call')
    if None not in (y, n, absent):
        text += (f'; the branch costs y {fmt_signed(y - absent)}, '
                 f'n {fmt_signed(n - absent)}')
    return text


def fmt_signed(value):
    return ('+' if value >= 0 else '-') + fmt_value(abs(value))


def summary_fastpath(records):
    y = find_value(records, 'fastpath_bytes', 'y', FASTPATH_SYMBOL)
    n = find_value(records, 'fastpath_bytes', 'n', FASTPATH_SYMBOL)
    text = (f'fast path {FASTPATH_SYMBOL}: y {fmt_value(y) or "n/a"}, '
            f'n {fmt_value(n) or "n/a"} bytes')
    if y is not None and n:
        saved = n - y
        verb = 'saves' if saved >= 0 else 'costs'
        text += (f'; y {verb} {fmt_value(abs(saved))} bytes '
                 f'({100.0 * abs(saved) / n:.1f}%)')
    return text


def summary_sync_rounds(records):
    lines = []
    for config in ('y', 'y-smp'):
        found = {}
        for record in records:
            values, flags = split_params(record['params'])
            if (record['name'] == 'flip_sync_rounds'
                    and record['config'] == config
                    and values.get('sites') == '56'):
                mode = 'unbatched' if 'unbatched' in flags else 'batched'
                found[mode] = (record['value'], values.get('cpus', '?'))
        if found:
            cpus = next(iter(found.values()))[1]
            batched = fmt_value(found.get('batched', (None,))[0]) or 'n/a'
            unbatched = fmt_value(found.get('unbatched', (None,))[0]) or 'n/a'
            lines.append(f'flip_sync_rounds, 56 sites, {fmt_cpus(cpus)}: '
                         f'batched {batched} vs unbatched {unbatched} per '
                         'flip (seed reference: 3 vs 168)')
    return lines or ['flip_sync_rounds, 56 sites: n/a']


def fmt_cpus(cpus):
    return '1 CPU' if str(cpus) == '1' else f'{cpus} CPUs'


def summary_short_sites(records):
    """short_site_share of y, whatever its params (one per site set)."""
    shares = [f'{fmt_value(record["value"])}%'
              + (f' ({record["params"]})' if record['params'] else '')
              for record in records
              if record['name'] == 'short_site_share'
              and record['config'] == 'y']
    if not shares:
        return 'short_site_share: n/a'
    return ('short_site_share (2-byte sites): ' + ', '.join(shares))


def pipe_values(records, name, params=''):
    return (find_value(records, name, 'y', params),
            find_value(records, name, 'n', params))


def summary_pipe(records):
    """The sched pipe round trip, y against n, and what explains it."""
    insns = pipe_values(records, 'pipe_roundtrip_insns')
    branches = pipe_values(records, 'pipe_roundtrip_branches')
    cond = pipe_values(records, 'pipe_roundtrip_branches', 'conditional')
    sites = find_value(records, 'pipe_roundtrip_static_branches', 'y')
    if None in insns:
        return ['sched pipe round trip: n/a']
    lines = [f'sched pipe round trip: y {fmt_value(insns[0])}, n '
             f'{fmt_value(insns[1])} insns (n - y = '
             f'{fmt_value(insns[1] - insns[0])}); seed (Linux 3.3): n - y = '
             f'{SEED_PIPE_INSNS:.1f} insns, {SEED_PIPE_BRANCHES:.1f} branches']
    if None not in branches and None not in cond and sites is not None:
        lines.append(f'  branches y {fmt_value(branches[0])}, n '
                     f'{fmt_value(branches[1])} (n - y = '
                     f'{fmt_value(branches[1] - branches[0])}), conditional '
                     f'n - y = {fmt_value(cond[1] - cond[0])}; static '
                     f'branches passed (y): {fmt_value(sites)}')
    return lines


def print_summary(records):
    print()
    print('summary:')
    lines = [summary_disabled_site(records), summary_fastpath(records)]
    lines += summary_sync_rounds(records)
    lines.append(summary_short_sites(records))
    lines += summary_pipe(records)
    lines += bench_footprint.summary(records, find_value)
    for line in lines:
        print(f'  {line}')


def check_plausible(records, report):
    y = find_value(records, 'site_disabled_insns', 'y')
    n = find_value(records, 'site_disabled_insns', 'n')
    if y is not None and n is not None and y >= n:
        report.warn(f'site_disabled_insns: y ({fmt_value(y)}) is not below n '
                    f'({fmt_value(n)}); the NOP site should be cheaper')
    y, n = pipe_values(records, 'pipe_roundtrip_insns')
    if y is not None and n is not None and y >= n:
        report.warn(f'pipe_roundtrip_insns: y ({fmt_value(y)}) is not below '
                    f'n ({fmt_value(n)})')
    # Each disabled static branch is a conditional branch with =n only.
    cond = pipe_values(records, 'pipe_roundtrip_branches', 'conditional')
    sites = find_value(records, 'pipe_roundtrip_static_branches', 'y')
    if None not in cond and sites is not None and \
            round(cond[1] - cond[0]) != round(sites):
        report.warn(f'pipe round trip: n runs {fmt_value(cond[1] - cond[0])} '
                    f'more conditional branches than y, but y passes '
                    f'{fmt_value(sites)} static branch sites')


# ---------------------------------------------------------------------------
# The plot
# ---------------------------------------------------------------------------

def flip_series(records, name, configs):
    """{sites: {mode: value}} and the cpus of the first config found."""
    for config in configs:
        series, cpus = {}, None
        for record in records:
            values, flags = split_params(record['params'])
            if record['name'] != name or record['config'] != config:
                continue
            mode = 'unbatched' if 'unbatched' in flags else 'batched'
            sites = int_or_zero(values.get('sites', '0'))
            series.setdefault(sites, {})[mode] = record['value']
            cpus = values.get('cpus', cpus)
        if series:
            return series, config, cpus
    return {}, None, None


def write_data_file(path, series, comment):
    """Columns sites, batched, unbatched; NaN where log scale cannot go."""
    def cell(value):
        return 'NaN' if value is None or value <= 0 else f'{value:g}'

    lines = [f'# {comment}', '# sites batched unbatched']
    for sites in sorted(set(FLIP_SITES) | set(series)):
        modes = series.get(sites, {})
        lines.append(f'{sites} {cell(modes.get("batched"))} '
                     f'{cell(modes.get("unbatched"))}')
    path.write_text('\n'.join(lines) + '\n', encoding='utf-8')
    return any(value > 0 for modes in series.values()
               for value in modes.values())


FLIP_PANEL_X = ('set xlabel "sites per key"', 'set xtics (1, 4, 56, 256, 1024)',
                'set xrange [0.7:1500]')
# The per-site and per-entry panels run to the generated table's size.
PER_SITE_PANEL_X = ('set xtics (1, 4, 56, 256, 1024, 40000)',
                    'set xrange [0.7:60000]')
INIT_PANEL_X = ('set xtics autofreq', 'set xrange [1000:100000]')


def plot_panels(records, out, report):
    """Writes the data files; returns the panels that have data: (data
    file, y label, title, x settings, plot command)."""
    panels = []
    specs = (('flip_insns', ('y',), 'instructions per flip',
              'flip cost (QEMU icount)'),
             ('flip_sync_rounds', ('y-smp', 'y'), 'sync rounds per flip',
              'flip sync rounds'))
    for name, configs, ylabel, title in specs:
        series, config, cpus = flip_series(records, name, configs)
        data = out / f'{name}.dat'
        comment = f'{name}, run {config}, cpus={cpus}, per flip'
        if not series:
            continue
        if write_data_file(data, series, comment):
            panels.append((data.name, ylabel,
                           f'{title}, {fmt_cpus(cpus)}, CONFIG_JUMP_LABEL=y',
                           FLIP_PANEL_X,
                           f"plot '{data.name}' using 1:2 with linespoints "
                           "title 'batched', '' using 1:3 with linespoints "
                           "title 'unbatched'"))
        else:
            report.warn(f'{name} ({config}) is never above 0: left out of '
                        'the log-scale plot')
    panels += large_panels(records, out)
    return panels


def per_site_points(records):
    """{sites: (ours, Linux)} instructions per site of one batch: ours a
    key of N sites (y) and every generated key in one queued batch
    (y-table), Linux's bench_jl.ko key of N sites (config linux, kept
    from the last make bench-linux)."""
    points = {}
    for record in records:
        values, flags = split_params(record['params'])
        sites = int_or_zero(values.get('sites', '0'))
        ours = linux = None
        if (record['config'] == 'y' and record['name'] == 'flip_insns'
                and 'batched' in flags and sites):
            ours = record['value'] / sites
        elif (record['config'] == 'y-table'
              and record['name'] == 'flip_insns_per_site'
              and 'enable' in flags):
            ours = record['value']
        elif (record['config'] == 'linux'
              and record['name'] == 'flip_insns_per_site'):
            linux = record['value']
        if sites and (ours or linux):
            old = points.get(sites, (None, None))
            points[sites] = (ours or old[0], linux or old[1])
    return points


def init_points(records):
    """{entries: init_insns_per_entry} of y and y-table."""
    points = {}
    entries = {record['config']: record['value'] for record in records
               if record['name'] == 'table_entries'
               and record['params'] == '' and record['config'] == 'y'}
    for record in records:
        if record['name'] != 'init_insns_per_entry':
            continue
        values = split_params(record['params'])[0]
        n = int_or_zero(values.get('entries', '0')) or \
            int(entries.get(record['config'], 0))
        if record['config'] in ('y', 'y-table') and n:
            points[n] = record['value']
    return points


def large_panels(records, out):
    """The panels to the generated table's size: a flip's instructions per
    site against the sites in its batch, ours beside Linux's; boot's
    instructions per table entry against the entries."""
    def cell(value):
        return 'NaN' if value is None or value <= 0 else f'{value:g}'

    panels = []
    points = per_site_points(records)
    if points:
        data = out / 'flip_per_site_n.dat'
        data.write_text('# sites ours_y linux_6.1 (instructions per site, '
                        'one batch)\n' + ''.join(
                            f'{n} {cell(o)} {cell(li)}\n'
                            for n, (o, li) in sorted(points.items())),
                        encoding='utf-8')
        panels.append((data.name, 'instructions per site',
                       'a flip per site against the sites of its batch '
                       '(QEMU icount, 1 CPU)',
                       ('set xlabel "sites in the batch (40,000: every '
                        'generated key, one queued batch)"',)
                       + PER_SITE_PANEL_X,
                       f"plot '{data.name}' using 1:2 with linespoints "
                       "title 'this kernel (y, y-table)', '' using 1:3 with "
                       "linespoints title 'Linux 6.1 (Debian, module key)'"))
    points = init_points(records)
    if points:
        data = out / 'init_per_entry.dat'
        data.write_text('# entries init_insns_per_entry\n' + ''.join(
            f'{n} {cell(v)}\n' for n, v in sorted(points.items())),
            encoding='utf-8')
        panels.append((data.name, 'instructions per entry',
                       'jump_label_init() per table entry',
                       ('set xlabel "jump table entries"',) + INIT_PANEL_X,
                       f"plot '{data.name}' using 1:2 with linespoints "
                       "title 'this kernel (y, y-table)'"))
    return panels


def gnuplot_terminal(gnuplot):
    for terminal, suffix in (('pngcairo', 'png'), ('png', 'png')):
        result = subprocess.run([gnuplot, '-e', f'set terminal {terminal}'],
                                capture_output=True, text=True, check=False)
        if result.returncode == 0 and not result.stderr.strip():
            return terminal, suffix
    return 'svg', 'svg'


def gnuplot_script(panels, terminal, image):
    size = f'{600 * len(panels)},450'
    lines = [f'set terminal {terminal} noenhanced size {size}',
             f"set output '{image}'",
             "set datafile missing 'NaN'",
             'set logscale xy', 'set grid', 'set key top left',
             f'set multiplot layout 1,{len(panels)}']
    for _, ylabel, title, xsettings, plot in panels:
        lines += list(xsettings)
        lines += [f'set title "{title}"', f'set ylabel "{ylabel}"', plot]
    lines.append('unset multiplot')
    return '\n'.join(lines) + '\n'


def make_plot(records, out, report):
    """Writes bench.gp and its data; draws the plot if gnuplot is there."""
    panels = plot_panels(records, out, report)
    if not panels:
        report.warn('no flip figures: no plot')
        return
    gnuplot = shutil.which('gnuplot')
    terminal, suffix = gnuplot_terminal(gnuplot) if gnuplot else ('pngcairo',
                                                                  'png')
    image = f'bench.{suffix}'
    script = out / 'bench.gp'
    script.write_text(gnuplot_script(panels, terminal, image),
                      encoding='utf-8')
    if not gnuplot:
        report.warn(f'gnuplot is not installed: no plot drawn (script: '
                    f'{display(script)}); install it with '
                    '"scripts/install-deps.sh --bench" as root (Debian '
                    'package gnuplot-nox)')
        return
    result = subprocess.run([gnuplot, script.name], cwd=out,
                            capture_output=True, text=True, check=False)
    if result.returncode:
        report.warn(f'gnuplot {display(script)} failed: '
                    f'{result.stderr.strip()}')
        return
    print(f'plot: {display(out / image)} (script: {display(script)})')


# ---------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------

def display(path):
    path = Path(path)
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def parse_only(text):
    names = [name.strip() for name in text.split(',') if name.strip()]
    unknown = [name for name in names if name not in RUN_NAMES]
    if unknown or not names:
        raise argparse.ArgumentTypeError(
            f'runs are {", ".join(RUN_NAMES)}; got "{text}"')
    return names


def positive(kind):
    def convert(text):
        value = kind(text)
        if not value > 0:
            raise argparse.ArgumentTypeError('must be positive')
        return value
    return convert


def build_arg_parser():
    parser = argparse.ArgumentParser(
        prog='bench.py', description='Static key benchmarks: '
        'CONFIG_JUMP_LABEL=y vs =n under QEMU.',
        epilog='See the docstring at the top of scripts/bench.py.')
    parser.add_argument('--only', type=parse_only, default=list(RUN_NAMES),
                        metavar='RUNS', help='comma-separated subset of '
                        f'{",".join(RUN_NAMES)} (default: all)')
    parser.add_argument('--cpus', type=positive(int), default=4, metavar='N',
                        help='CPUs of the y-smp run (default 4)')
    parser.add_argument('--out', default=DEFAULT_OUT, metavar='DIR',
                        help='build dirs and results (default '
                        f'{display(DEFAULT_OUT)})')
    parser.add_argument('--timeout', type=positive(float), default=600,
                        metavar='S',
                        help='QEMU timeout per boot (default 600)')
    parser.add_argument('--from-logs', metavar='DIR',
                        help='build nothing: read DIR/<run>/serial.log '
                        'and DIR/<run>/vmlinux')
    return parser


def collect(runs, args, out, report):
    """All records: each run's, then the host-side figures of those ok."""
    base = Path(args.from_logs) if args.from_logs else out
    records, good = [], []
    for run in runs:
        found = collect_run(run, base / run.name, args, report)
        if found is not None:
            records += found
            good.append(run.name)
            records += bench_footprint.records(run.name, base / run.name,
                                               report)
    for config in HOST_RUNS:
        if config in good:
            records += host_records(config, base / config / 'vmlinux', report)
    records += bench_user.collect(good, base, args, report)
    return records


def linux_records_of(results):
    """The Linux column of the last make bench-linux (config linux, in
    results.json), kept for the plot and the README table; bench_linux.py
    replaces it when it runs."""
    try:
        old = json.loads(results.read_text(encoding='utf-8'))
    except (OSError, ValueError):
        return []
    return [record for record in old if isinstance(record, dict)
            and record.get('config') == 'linux']


def main(argv=None):
    sys.stdout.reconfigure(line_buffering=True, errors='replace')
    args = build_arg_parser().parse_args(argv)
    out = Path(args.out)
    runs = [run for run in RUNS if run.name in args.only]
    report = Report()
    try:
        out.mkdir(parents=True, exist_ok=True)
        records = collect(runs, args, out, report)
    except KeyboardInterrupt:
        print('\nerror: interrupted')
        return EXIT_INTERRUPTED
    check_required(records, runs, report)
    check_plausible(records, report)
    results = out / 'results.json'
    records += linux_records_of(results)
    results.write_text(json.dumps(records, indent=1) + '\n', encoding='utf-8')
    print_table(records)
    print_summary(records)
    if not args.from_logs:      # boot time to the prompt (bench_boot.py)
        list(map(report.error, bench_boot.run(out)))
    print()
    make_plot(records, out, report)
    report.print()
    print(f'results: {display(results)}')
    return EXIT_FAILED if report.errors else EXIT_OK


if __name__ == '__main__':
    sys.exit(main())
