#!/usr/bin/python3
"""Build the kernel, boot it under QEMU and report its KTAP test results.

Commands: run, plan, parse, selftest; see `kunit.py --help` and
`kunit.py COMMAND --help`.  Documentation/kunit.rst describes this runner
and its modules (ktap.py, verdict.py, qemu.py).
"""

import argparse
import contextlib
import dataclasses
import io
import json
import os
import re
import shlex
import subprocess
import sys
import textwrap
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

import kunit_results
import kunit_suites
import qemu
import testsched
from ktap import (FAILED, INCOMPLETE, SKIPPED, XFAIL, Counts, KtapParser,
                  clean)
from verdict import (EXIT_ERROR, EXIT_INTERRUPTED, EXIT_OK, Expectations,
                     Happened, decide)

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_BUILD_DIR = REPO_ROOT / 'build' / 'kunit'
SELFTEST_DIR = REPO_ROOT / 'tests' / 'kunit_runner_selftest'
VERDICT_CASES = 'verdicts.json'

CRASH_TAIL_LINES = 30
BUILD_TAIL_LINES = 40
STDERR_TAIL_LINES = 10


# ---------------------------------------------------------------------------
# Progress and summary output
# ---------------------------------------------------------------------------

def plural(count, word):
    return f'{count} {word}' + ('' if count == 1 else 's')


def suite_headline(node, counts):
    status = node.status
    reason = f' ({node.reason})' if node.reason else ''
    if not node.has_block:                  # a top-level test without cases
        return f'[{status}] {node.label}{reason}'
    if status == SKIPPED:
        return f'[SKIPPED] {node.label}{reason}'
    if status == FAILED:
        return f'[FAILED] {node.label} ({counts.failed} of {counts.total} failed)'
    if status == INCOMPLETE:
        return (f'[INCOMPLETE] {node.label} ({plural(counts.total, "case")} '
                'reported before its output stopped)')
    extra = f', {counts.skipped} skipped' if counts.skipped else ''
    extra += f', {counts.xfail} xfail' if counts.xfail else ''
    return f'[{status}] {node.label} ({plural(counts.total, "case")}{extra})'


def print_suite_result(node):
    """Progress line for one finished top-level result, plus its failures."""
    print(suite_headline(node, node.counts()))
    if not node.has_block:
        if node.status == FAILED:
            for line in node.diag:
                print(f'    {line}')
        return
    for path, failed in node.failures():
        print(f'    [FAILED] {".".join(path) or node.label}')
        for line in failed.diag:
            print(f'        {line}')


def describe_marked(path, node):
    """One line for a test whose directive changed its outcome: skipped,
    expected failure (xfail), or passed although expected to fail (xpass),
    with its result line's verdict, directive and reason."""
    result = 'ok' if node.ok else 'not ok'
    reason = f' {node.reason}' if node.reason else ''
    tag = 'xpass' if node.xpass else {SKIPPED: 'skipped',
                                      XFAIL: 'xfail'}.get(node.status)
    line = f'{tag}: {".".join(path)} ({result} # {node.directive}{reason})'
    if tag == 'xpass' and node.children:
        line += (': every test in it passed although it is expected to '
                 'fail, counted as passed')
    elif tag == 'xpass':
        line += ': passed although expected to fail, counted as passed'
    return line


def print_summary(nodes):
    if not nodes:
        print('Summary: no test results')
        return
    width = max(5, *(len(node.label) for node in nodes))
    all_counts = [node.counts() for node in nodes]
    xfail = any(counts.xfail for counts in all_counts)
    print()
    print('Summary:')
    print(f'  {"suite":<{width}}  {"passed":>6}  {"failed":>6}  {"skipped":>7}  '
          + ('xfail  ' if xfail else '') + 'result')
    for node, counts in zip(nodes, all_counts):
        xfail_column = f'{counts.xfail:>5}  ' if xfail else ''
        print(f'  {node.label:<{width}}  {counts.passed:>6}  {counts.failed:>6}  '
              f'{counts.skipped:>7}  {xfail_column}{node.status}')
    for node in nodes:
        for path, marked in node.marked((node.label,)):
            print(f'  {describe_marked(path, marked)}')


def print_lines(title, lines):
    print(title)
    for line in lines:
        print(f'  | {line}')


def tail_of_file(path, count):
    try:
        with open(path, encoding='utf-8', errors='replace') as handle:
            return list(deque((line.rstrip('\r\n') for line in handle), maxlen=count))
    except OSError:
        return []


def display_path(path):
    path = Path(path)
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


MODULE_LINE_RE = re.compile(r'^\s*# module: (\S+)$')
SUBTEST_LINE_RE = re.compile(r'^\s*# Subtest: (\S+)$')
TOP_SUBTEST_RE = re.compile(r'^ {4}# Subtest: (\S+)$')


def module_suites(lines):
    """(suite, test module) for each suite the kernel ran from a test
    module: its "# Subtest:" line is followed by "# module: name"."""
    found, suite = [], None
    for line in lines:
        match = MODULE_LINE_RE.match(line)
        if match and suite:
            found.append((suite, match.group(1)))
        match = SUBTEST_LINE_RE.match(line)
        suite = match.group(1) if match else None
    return found


def print_module_suites(lines):
    found = module_suites(lines)
    if found:
        print(f'  from test modules ({len(found)} suites): '
              + ', '.join(f'{suite} ({module}.ko)' for suite, module in found))


def report(session, verdict):
    print_summary(session.parser.suites())
    print_module_suites(session.lines)
    tail = session.lines[-CRASH_TAIL_LINES:]
    if verdict.crashed and tail:
        print_lines(f'last {len(tail)} serial lines:', tail)


def print_messages(verdict):
    for line in verdict.messages():
        print(line)


# ---------------------------------------------------------------------------
# The serial console
# ---------------------------------------------------------------------------

class SerialSession:
    """Consumes serial lines: logs them, echoes them, parses them."""

    def __init__(self, raw_output=False, log_path=None):
        self.parser = KtapParser(on_suite=self._suite_done)
        self.raw_output = raw_output
        self.lines = []
        self.panic = None
        self.log = None
        # When each top-level suite started and how long it ran (seconds).
        self.started = time.monotonic()
        self.suite_start = {}
        self.suite_times = {}
        # QEMU's CPU seconds over each suite (its vCPUs' work).
        self.pid = None
        self.suite_cpu = {}
        self.cpu_start = {}
        if log_path is not None:
            self.log = open(log_path, 'w', encoding='utf-8', buffering=1)

    def qemu_started(self, pid):
        self.pid = pid

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self.log:
            self.log.close()
            self.log = None

    def _suite_done(self, node):
        now = time.monotonic()
        self.suite_times[node.label] = now - self.suite_start.get(
            node.label, now)
        cpu = qemu.cpu_seconds(self.pid) if self.pid else None
        if cpu is not None and node.label in self.cpu_start:
            self.suite_cpu[node.label] = cpu - self.cpu_start[node.label]
        print_suite_result(node)

    def feed(self, line):
        if self.log:
            self.log.write(line + '\n')
        self.lines.append(line)
        match = TOP_SUBTEST_RE.match(line)
        if match:
            self.suite_start[match.group(1)] = time.monotonic()
            cpu = qemu.cpu_seconds(self.pid) if self.pid else None
            if cpu is not None:
                self.cpu_start[match.group(1)] = cpu
        if self.raw_output:
            print(line)
        if self.panic is None and 'Kernel panic' in line:
            self.panic = clean(line).strip()
        self.parser.feed(line)

    def happened(self, result=None):
        """End of output: what the run produced, for decide()."""
        where = self.parser.location()
        self.parser.finish()
        return Happened(counts=self.parser.counts(),
                        ktap_errors=list(self.parser.errors), where=where,
                        panic=self.panic, log='\n'.join(self.lines) + '\n',
                        qemu=result,
                        interrupted=result is not None and result.interrupted,
                        suites={node.label: len(node.children)
                                for node in self.parser.suites()})


def read_log(path):
    with open(path, 'rb') as handle:
        return [raw.decode('utf-8', 'replace').rstrip('\r\n') for raw in handle]


def parse_lines(lines, raw_output=False):
    """A SerialSession fed with lines (progress lines are printed)."""
    with SerialSession(raw_output) as session:
        for line in lines:
            session.feed(line)
    return session


def parse_and_report(lines, raw_output=False):
    """What `parse` prints for these serial lines; returns the exit code."""
    session = parse_lines(lines, raw_output)
    verdict = decide(session.happened())
    report(session, verdict)
    print_messages(verdict)
    print(verdict.counts.final_line())
    return verdict.code


# ---------------------------------------------------------------------------
# Build and single run
# ---------------------------------------------------------------------------

@dataclass
class RunConfig:
    build_dir: Path
    fragments: list = field(default_factory=list)   # absolute paths
    filter: str | None = None
    kernel_args: list = field(default_factory=list)
    kernel_dir: Path | None = None      # boot the kernel built there
    seed_dir: Path | None = None        # a first build starts as its copy
    cpus: int = 4
    mem: str = qemu.DEFAULT_MEM
    timeout: float = 300
    icount: bool = False
    qemu_args: str = ''
    raw_output: bool = False
    no_build: bool = False
    expect: Expectations = field(default_factory=Expectations)
    name: str = ''                      # the plan run's name
    jobs: int = 2                       # make -j

    @property
    def cmdline(self):
        args = list(self.kernel_args)
        if self.filter:
            args.append(f'kunit.filter_glob={self.filter}')
        return ' '.join(args)

    @property
    def iso(self):
        return self.build_dir / 'kernel.iso'

    @property
    def kernel(self):
        """The build directory of the kernel this run boots."""
        return self.kernel_dir or self.build_dir


@dataclass
class Outcome:
    """What one run gives back: its verdict, its suites and its times."""
    verdict: object
    suites: list = field(default_factory=list)
    suite_times: dict = field(default_factory=dict)
    build_time: float = 0.0
    boot_time: float = 0.0
    suite_cpu: dict = field(default_factory=dict)  # QEMU's CPU seconds


def resolve_fragment(name, bases):
    """Absolute path of a fragment, trying each base dir for relative names."""
    path = Path(name).expanduser()
    if path.is_absolute():
        return str(path)
    for base in bases:
        if (base / path).is_file():
            return str((base / path).resolve())
    return str((bases[0] / path).resolve())


# The processes the runner started, killed when it is interrupted.
_children = set()


def kill_children():
    for proc in list(_children):
        try:
            os.killpg(proc.pid, 9)
        except (ProcessLookupError, PermissionError):
            pass


def _run_logged(cmd, log):
    log.write(f'$ {shlex.join(cmd)}\n')
    log.flush()
    # Each build keeps its .config in its own O=: an inherited
    # KCONFIG_CONFIG would make them all share one; nor is a parent
    # make's job server (MAKEFLAGS) theirs.
    env = {k: v for k, v in os.environ.items()
           if k not in ('KCONFIG_CONFIG', 'MAKEFLAGS', 'MFLAGS', 'MAKELEVEL')}
    try:
        proc = subprocess.Popen(cmd, cwd=REPO_ROOT, stdin=subprocess.DEVNULL,
                                stdout=log, stderr=subprocess.STDOUT,
                                env=env, start_new_session=True)
    except OSError as exc:
        log.write(f'cannot run {cmd[0]}: {exc.strerror}\n')
        return False
    _children.add(proc)
    try:
        return proc.wait() == 0
    finally:
        _children.discard(proc)


TEST_BASE_CONFIG = REPO_ROOT / 'tests' / 'configs' / 'kunit.config'


def build_steps(cfg):
    """The make commands of a build, and what they build."""
    make = shlex.split(os.environ.get('KUNIT_MAKE', '')) or ['make']
    iso = make + [f'CMDLINE={cfg.cmdline}', f'-j{cfg.jobs}', 'iso']
    if cfg.kernel_dir:
        return ([iso + [f'O={cfg.kernel_dir}', f'ISO_DIR={cfg.build_dir}']],
                f'the kernel of {display_path(cfg.kernel_dir)}')
    out = f'O={cfg.build_dir}'
    frags = ', '.join(display_path(f) for f in cfg.fragments) or 'defconfig only'
    # Every test configuration starts from the test base: defconfig (make
    # run's) has no suite built in.
    base = [str(TEST_BASE_CONFIG)] + [str(f) for f in cfg.fragments]
    return ([make + [out, f'FRAGMENTS={" ".join(base)}', 'fragconfig'],
             iso + [out]], f'config: {frags}')


def build_kernel(cfg):
    """make fragconfig + iso into cfg.build_dir (or only the ISO, for the
    kernel of cfg.kernel_dir); returns an error or None."""
    missing = [f for f in cfg.fragments if not Path(f).is_file()]
    if missing:
        return f'kconfig fragment not found: {", ".join(missing)}'
    steps, what = build_steps(cfg)
    log_path = cfg.build_dir / 'build.log'
    cmdline = f'"{cfg.cmdline}"'
    if len(cfg.cmdline) > 200:
        cmdline = (f'"{cfg.cmdline[:80]}...{cfg.cmdline[-80:]}" '
                   f'({len(cfg.cmdline)} characters)')
    print(f'[build] {display_path(cfg.build_dir)}: {what}; '
          f'cmdline: {cmdline} ... ', end='', flush=True)
    start = time.monotonic()
    with open(log_path, 'w', encoding='utf-8') as log:
        for cmd in steps:
            if not _run_logged(cmd, log):
                print('FAILED', flush=True)
                print_lines(f'last lines of {display_path(log_path)}:',
                            tail_of_file(log_path, BUILD_TAIL_LINES))
                return f'build failed (full log: {display_path(log_path)})'
    print(f'done ({time.monotonic() - start:.1f}s)', flush=True)
    if not cfg.iso.is_file():
        return f'build did not produce {display_path(cfg.iso)}'
    return None


def prepare_kernel(cfg):
    cfg.build_dir.mkdir(parents=True, exist_ok=True)
    if not cfg.no_build:
        return build_kernel(cfg)
    if not cfg.iso.is_file():
        return f'--no_build: {display_path(cfg.iso)} does not exist'
    if cfg.fragments or cfg.cmdline:
        print('[build] skipped (--no_build): the existing ISO is used as is; '
              '--kconfig_add/--filter/--kernel_args have no effect')
    else:
        print(f'[build] skipped (--no_build), using {display_path(cfg.iso)}')
    return None


_suites_cache = {}
_suites_lock = threading.Lock()


def expected_suites(cfg):
    """The suites the run must report (scripts/kunit_suites.py), or None
    when the run does not run suites as built: benchmarks (bench=) or an
    attribute filter (kunit.filter=), which the host does not model."""
    args, glob = cfg.kernel_args, cfg.filter
    if cfg.no_build:
        # The ISO's command line is the one it was built with: its words,
        # quoted for grub.cfg (scripts/grub_cmdline.py), beside it.
        try:
            args = shlex.split((cfg.build_dir / 'cmdline').read_text())
        except (OSError, ValueError):
            return None
        glob = None
    if any(a.startswith(('bench=', 'kunit.filter=')) for a in args):
        return None
    for arg in args:
        if arg.startswith('kunit.filter_glob='):
            glob = arg.split('=', 1)[1]
    kernel = str(cfg.kernel)
    with _suites_lock:
        if kernel not in _suites_cache:
            _suites_cache[kernel] = kunit_suites.built_suites(kernel)
        built = _suites_cache[kernel]
    return kunit_suites.expected(cfg.kernel, glob, built)


def print_missing(cfg, verdict, session):
    config = ', '.join(display_path(f) for f in cfg.fragments) or (
        f'the kernel of {display_path(cfg.kernel)}' if cfg.kernel_dir
        else 'the test base only')
    print(f'error: {len(verdict.missing)} suites missing in '
          f'{display_path(cfg.kernel)} ({config}; filter '
          f'{cfg.filter or "none"}):')
    for line in verdict.missing:
        print(f'  {line}')
    tail = session.lines[-CRASH_TAIL_LINES // 2:]
    if tail:
        print_lines(f'last {len(tail)} serial lines:', tail)


def boot_and_check(cfg):
    serial_log = cfg.build_dir / 'serial.log'
    stderr_log = cfg.build_dir / 'qemu-stderr.log'
    argv = qemu.command(cfg.iso, cpus=cfg.cpus, mem=cfg.mem, icount=cfg.icount,
                        extra=shlex.split(cfg.qemu_args or ''))
    icount = ', icount' if cfg.icount else ''
    mem = f', mem={cfg.mem}' if cfg.mem != qemu.DEFAULT_MEM else ''
    print(f'[qemu] booting {display_path(cfg.iso)} (cpus={cfg.cpus}{mem}, '
          f'timeout={cfg.timeout:g}s{icount})', flush=True)
    expect = cfg.expect
    if expect.expect_suites is None:
        expect = dataclasses.replace(expect,
                                     expect_suites=expected_suites(cfg))
    with SerialSession(cfg.raw_output, serial_log) as session:
        result = qemu.boot(argv, cfg.timeout, session.feed, stderr_log,
                           session.qemu_started)
    verdict = decide(session.happened(result), expect)
    report(session, verdict)
    stderr_tail = tail_of_file(stderr_log, STDERR_TAIL_LINES)
    if verdict.crashed and stderr_tail:
        print_lines('QEMU stderr:', stderr_tail)
    print(f'serial log: {display_path(serial_log)} '
          f'(QEMU {result.describe()}, {result.elapsed:.1f}s)')
    if verdict.missing:
        print_missing(cfg, verdict, session)
    print_messages(verdict)
    return Outcome(verdict, session.parser.suites(), session.suite_times,
                   boot_time=result.elapsed, suite_cpu=session.suite_cpu)


def failed_outcome(cfg, error, interrupted=False):
    verdict = decide(Happened(build_error=error, interrupted=interrupted),
                     cfg.expect)
    print_messages(verdict)
    return Outcome(verdict)


def prepare(cfg):
    """The build half of a run: None, or the Outcome of a failed build."""
    try:
        error = prepare_kernel(cfg)
    except KeyboardInterrupt:
        print()
        return failed_outcome(cfg, 'interrupted by user during build', True)
    except OSError as exc:
        return failed_outcome(cfg, f'cannot create {display_path(cfg.build_dir)}: '
                              f'{exc.strerror}')
    return failed_outcome(cfg, error) if error else None


def execute_run(cfg):
    """Build, boot, parse and report one run; prints all but the final line.
    Returns its Outcome."""
    start = time.monotonic()
    failed = prepare(cfg)
    build_time = time.monotonic() - start
    outcome = failed or boot_and_check(cfg)
    outcome.build_time = build_time
    return outcome


def write_results(args, records, name=None):
    """--json and --junit: the results of these runs."""
    if not (args.json or args.junit):
        return
    group = kunit_results.to_json(records, name)
    times = {f'{r.name}.{s}' if name else s: t
             for r in records for s, t in r.suite_times.items()}
    for path in (args.json, args.junit):
        if path:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
    kunit_results.write(args.json, args.junit, group, times)


def record_of(name, cfg, outcome):
    return kunit_results.RunRecord(
        name=name, verdict=outcome.verdict, suites=outcome.suites,
        suite_times=outcome.suite_times, suite_cpu=outcome.suite_cpu,
        config=' '.join(display_path(f) for f in cfg.fragments),
        build_dir=display_path(cfg.kernel), build_time=outcome.build_time,
        boot_time=outcome.boot_time)


def cmd_run(args):
    cfg = RunConfig(
        build_dir=Path(args.build_dir).resolve() if args.build_dir else DEFAULT_BUILD_DIR,
        fragments=[resolve_fragment(f, [Path.cwd(), REPO_ROOT]) for f in args.kconfig_add],
        filter=args.filter, kernel_args=args.kernel_args, cpus=args.cpus,
        mem=args.mem, timeout=args.timeout, icount=args.icount, qemu_args=args.qemu_args,
        raw_output=args.raw_output, no_build=args.no_build,
        expect=Expectations(expect_failure=args.expect_failure))
    outcome = execute_run(cfg)
    record = record_of('run', cfg, outcome)
    write_results(args, [record])
    if outcome.suite_times:
        print()
        print('\n'.join(kunit_results.time_table([record], top=int(os.environ.get('KUNIT_TIMES_TOP', 8)))))
    print(outcome.verdict.counts.final_line())
    return outcome.verdict.code


def cmd_parse(args):
    try:
        lines = read_log(args.file)
    except OSError as exc:
        print(f'error: cannot read {args.file}: {exc.strerror}')
        print(Counts().final_line())
        return EXIT_ERROR
    return parse_and_report(lines, args.raw_output)


class PlanError(Exception):
    pass


PLAN_NAME_RE = re.compile(r'[A-Za-z0-9][A-Za-z0-9_.+-]*')
PLAN_KEYS = {'name': str, 'kconfig_add': list, 'filter': str,
             'kernel_args': list, 'cpus': int, 'expect_failure': bool,
             'timeout': (int, float), 'expect_total': int,
             'expect_crash': list, 'mem': str, 'expect_log': list,
             'kernel_from': str, 'cores': int, 'build_from': str}
MEM_RE = re.compile(r'[1-9][0-9]*[KMG]?')


def _check_plan_value(where, key, value):
    expected = PLAN_KEYS[key]
    wrong_bool = isinstance(value, bool) and expected is not bool
    if wrong_bool or not isinstance(value, expected):
        raise PlanError(f'{where}: "{key}" has the wrong type')
    if key in ('kconfig_add', 'kernel_args', 'expect_crash', 'expect_log'):
        if not all(isinstance(item, str) for item in value):
            raise PlanError(f'{where}: "{key}" must be a list of strings')
    if key in ('cpus', 'timeout', 'cores') and value <= 0:
        raise PlanError(f'{where}: "{key}" must be positive')
    if key == 'mem' and not MEM_RE.fullmatch(value):
        raise PlanError(f'{where}: "mem" must be a size like 256M or 8G')


def _earlier_run(where, entry, key, earlier):
    """The earlier run entry[key] names (None without the key)."""
    source = entry.get(key)
    if source is not None and source not in earlier:
        raise PlanError(f'{where}: "{key}" must name an earlier run')
    return source


def _check_kernel_from(where, entry, earlier):
    """kernel_from names an earlier run and brings its configuration."""
    source = _earlier_run(where, entry, 'kernel_from', earlier)
    if source is not None and entry.get('kconfig_add'):
        raise PlanError(f'{where}: "kernel_from" boots the kernel of '
                        f'"{source}": no "kconfig_add" of its own')


def _check_build_from(where, entry, earlier):
    """build_from names an earlier run that builds a kernel of its own."""
    source = _earlier_run(where, entry, 'build_from', earlier)
    if source is None:
        return
    if entry.get('kernel_from'):
        raise PlanError(f'{where}: "build_from" starts a build of its own: '
                        f'no "kernel_from" beside it')
    if earlier[source].get('kernel_from'):
        raise PlanError(f'{where}: "build_from" must name a run that builds '
                        f'its kernel ("{source}" boots another\'s)')


def validate_plan_entry(index, entry, earlier):
    """Checks entry; earlier, the entries before it by name, gets it."""
    where = f'plan entry {index + 1}'
    if not isinstance(entry, dict):
        raise PlanError(f'{where}: must be a JSON object')
    name = entry.get('name')
    if not isinstance(name, str) or not PLAN_NAME_RE.fullmatch(name):
        raise PlanError(f'{where}: "name" must be a string of letters, digits, '
                        '"_", ".", "+" or "-"')
    if name in earlier:
        raise PlanError(f'{where}: duplicate run name "{name}"')
    for key, value in entry.items():
        if key not in PLAN_KEYS:
            print(f'warning: {where} ("{name}"): unknown key "{key}" ignored')
        elif value is not None:
            _check_plan_value(f'{where} ("{name}")', key, value)
    _check_kernel_from(f'{where} ("{name}")', entry, earlier)
    _check_build_from(f'{where} ("{name}")', entry, earlier)
    earlier[name] = entry


def load_plan(path):
    try:
        data = json.loads(Path(path).read_text(encoding='utf-8'))
    except OSError as exc:
        raise PlanError(f'cannot read plan {path}: {exc.strerror}') from exc
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise PlanError(f'plan {path} is not valid JSON: {exc}') from exc
    if not isinstance(data, list) or not data:
        raise PlanError('the plan must be a non-empty JSON list of runs')
    earlier = {}
    for index, entry in enumerate(data):
        validate_plan_entry(index, entry, earlier)
    return data


def entry_expectations(entry):
    """The Expectations of a plan entry (or of a verdicts.json case)."""
    return Expectations(allow_empty=entry.get('expect_total') == 0,
                        expect_failure=bool(entry.get('expect_failure')),
                        expect_total=entry.get('expect_total'),
                        expect_crash=entry.get('expect_crash'),
                        expect_log=entry.get('expect_log'))


def plan_build_dir(name):
    return REPO_ROOT / 'build' / f'test-{name}'


def plan_run_config(entry, args, plan_dir):
    bases = [REPO_ROOT, plan_dir]
    source = entry.get('kernel_from')
    return RunConfig(
        build_dir=plan_build_dir(entry['name']),
        fragments=[resolve_fragment(f, bases) for f in entry.get('kconfig_add') or []],
        filter=entry.get('filter'),
        kernel_args=list(entry.get('kernel_args') or []),
        kernel_dir=plan_build_dir(source) if source else None,
        seed_dir=(plan_build_dir(entry['build_from'])
                  if entry.get('build_from') else None),
        cpus=entry.get('cpus') or args.cpus, mem=entry.get('mem') or args.mem,
        timeout=entry.get('timeout') or args.timeout,
        icount=args.icount, qemu_args=args.qemu_args, raw_output=args.raw_output,
        no_build=args.no_build, expect=entry_expectations(entry))


def print_plan_results(entries, outcomes):
    """Per-run verdict lines; returns the aggregate Counts."""
    total = Counts()
    width = max(len(entry['name']) for entry in entries)
    print()
    print('Plan results:')
    for entry in entries:
        outcome = outcomes.get(entry['name'])
        if outcome is None:
            print(f'  {entry["name"]:<{width}}  NOT RUN')
            continue
        print(f'  {entry["name"]:<{width}}  {outcome.verdict.describe()}')
        total.add(outcome.verdict.plan_counts())
    return total


RESULTS_DIR = REPO_ROOT / 'build' / 'test-results'
TIMES_FILE = RESULTS_DIR / 'times.json'
# Estimates before any run was timed: a build, an ISO for another run's
# kernel, a boot of every suite, a boot of a few.
DEFAULT_ESTIMATES = {'build': 40.0, 'iso': 2.0, 'boot': 60.0,
                     'filtered': 8.0}


def load_estimates(path=TIMES_FILE):
    """{job name: seconds} of the last timed run, if any."""
    try:
        data = json.loads(Path(path).read_text(encoding='utf-8'))
        return {str(k): float(v) for k, v in data.get('jobs', {}).items()}
    except (OSError, ValueError, AttributeError, TypeError):
        return {}


def _progress(outcome):
    """"212 passed" for a progress line."""
    verdict = outcome.verdict
    if verdict.code == EXIT_OK and not verdict.expected:
        return verdict.counts.final_line().replace(', 0 failed', '')
    return verdict.describe()


class PlanRun:
    """The jobs of one plan run: its build (or ISO) and its boot."""

    def __init__(self, entry, cfg):
        self.entry, self.cfg = entry, cfg
        self.name = entry['name']
        self.log_path = cfg.build_dir / 'run.log'
        self.outcome = None
        self.build_time = 0.0
        self.job = None     # its build's job: make -j the cores it got

    def _logged(self, mode, fn):
        self.cfg.build_dir.mkdir(parents=True, exist_ok=True)
        with open(self.log_path, mode, encoding='utf-8') as log:
            out = testsched.thread_output()
            out.redirect(log)
            try:
                return fn()
            finally:
                out.redirect(None)

    def build(self):
        if self.job and self.job.granted:
            self.cfg.jobs = self.job.granted
        start = time.monotonic()
        failed = self._logged('w', lambda: prepare(self.cfg))
        self.build_time = time.monotonic() - start
        if failed:
            failed.build_time = self.build_time
            self.outcome = failed
            return testsched.JobResult(False, failed.verdict.describe(),
                                       tail_of_file(self.log_path, 40))
        return testsched.JobResult(True, 'built')

    def seed(self):
        """A first build of this run's starts as a copy of seed_dir's."""
        if self.cfg.no_build:
            return testsched.JobResult(True, 'not built (--no_build)')
        res = subprocess.run([sys.executable, str(REPO_ROOT / 'scripts' /
                                                  'seed_build.py'),
                              str(self.cfg.seed_dir), str(self.cfg.build_dir)],
                             capture_output=True, text=True)
        out = (res.stdout + res.stderr).strip()
        return testsched.JobResult(res.returncode == 0, out[:100],
                                   out.splitlines()[-10:])

    def boot(self):
        outcome = self._logged('a', lambda: boot_and_check(self.cfg))
        outcome.build_time = self.build_time
        self.outcome = outcome
        ok = outcome.verdict.code == EXIT_OK
        details = [] if ok else read_log(self.log_path)
        return testsched.JobResult(ok, _progress(outcome), details)


def plan_jobs(entries, args, plan_dir, estimates):
    """The scheduler's jobs for a plan, and its PlanRuns by name."""
    runs, jobs, builds = {}, [], {}
    for entry in entries:
        cfg = plan_run_config(entry, args, plan_dir)
        run = runs[entry['name']] = PlanRun(entry, cfg)
        source = entry.get('kernel_from')
        root = source
        while root and runs[root].entry.get('kernel_from'):
            root = runs[root].entry['kernel_from']
        if root:
            cfg.kernel_dir = runs[root].cfg.build_dir
            cfg.jobs = 1
            prep = testsched.Job(
                f'iso:{run.name}', run.build, cores=1, deps=[builds[root]],
                lock=str(cfg.kernel_dir), quiet=True,
                estimate=estimates.get(f'iso:{run.name}',
                                       DEFAULT_ESTIMATES['iso']))
        else:
            cfg.jobs = args.jobs
            prep = builds[run.name] = run.job = testsched.Job(
                f'build:{run.name}', run.build, cores=args.jobs,
                min_cores=1, lock=str(cfg.build_dir), quiet=True,
                estimate=estimates.get(f'build:{run.name}',
                                       DEFAULT_ESTIMATES['build']))
            if cfg.seed_dir:
                # The copy, while no make writes there (scripts/seed_build.py).
                seed = testsched.Job(
                    f'seed:{run.name}', run.seed, cores=1,
                    deps=[builds[entry['build_from']]],
                    lock=str(cfg.seed_dir), quiet=True,
                    estimate=estimates.get(f'seed:{run.name}', 1.0))
                prep.deps.append(seed)
                jobs.append(seed)
        guess = DEFAULT_ESTIMATES['filtered' if entry.get('filter') or
                                  entry.get('kernel_args') else 'boot']
        boot = testsched.Job(run.name, run.boot, deps=[prep],
                             cores=entry.get('cores') or 1,
                             estimate=estimates.get(run.name, guess))
        jobs += [prep, boot]
    return runs, jobs


def print_progress(job, index, total):
    result = job.result
    tag = f'[{index}/{total}]' if not job.quiet else '[build]'
    testsched.say(f'{tag} {job.name}: {result.summary}, {job.elapsed:.0f} s')
    if not result.ok:
        for line in result.details:
            testsched.say(f'  | {line}')


def write_times(path, jobs, records):
    """The time table as JSON, read back as the next run's estimates."""
    timed = [job for job in jobs
             if job.start is not None and job.end is not None]
    t0 = min((job.start for job in timed), default=0.0)
    # A job that ran on fewer cores is timed as on all of them.
    data = {'jobs': {job.name: round(job.full_elapsed, 2) for job in timed},
            # When each job ran, from the first start, and the cores it
            # held: where the run waited (a core idle, a chain in line).
            'timeline': {job.name: [round(job.start - t0, 1),
                                    round(job.end - t0, 1), job.granted]
                         for job in timed},
            'suites': {f'{r.name}.{s}': round(t, 2) for r in records
                       for s, t in r.suite_times.items()},
            'suite_cpu': {f'{r.name}.{s}': round(t, 2) for r in records
                          for s, t in r.suite_cpu.items()}}
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text(json.dumps(data, indent=1) + '\n', encoding='utf-8')


def run_plan(entries, args, plan_dir, extra_jobs=(), on_done=None):
    """Runs a plan's jobs (and extra_jobs, make test's host steps) on
    args.jobs cores; returns (runs by name, every job in the order they
    ended)."""
    estimates = load_estimates()
    runs, jobs = plan_jobs(entries, args, plan_dir, estimates)
    for job in extra_jobs:
        job.estimate = estimates.get(job.name, job.estimate)
    sched = testsched.Scheduler(args.jobs, on_done or print_progress)
    try:
        done = sched.run(jobs + list(extra_jobs))
    except KeyboardInterrupt:
        sched.stop()
        kill_children()
        qemu.kill_all()
        raise
    return runs, done


def cmd_plan(args):
    try:
        entries = load_plan(args.file)
    except PlanError as exc:
        print(f'error: {exc}')
        print(Counts().final_line())
        return EXIT_ERROR
    plan_dir = Path(args.file).resolve().parent
    testsched.thread_output()
    runs, done = run_plan(entries, args, plan_dir)
    return finish_plan(args, entries, runs, done)


def finish_plan(args, entries, runs, done, steps=()):
    """The plan's tables, results and closing line; returns its code.
    steps: (name, ok, seconds) of make test's other steps."""
    outcomes = {name: run.outcome for name, run in runs.items()
                if run.outcome is not None}
    total = print_plan_results(entries, outcomes)
    records = [record_of(name, runs[name].cfg, outcomes[name])
               for name in (e['name'] for e in entries) if name in outcomes]
    table = kunit_results.time_table(records, [(n, t) for n, _, t in steps])
    print()
    for line in table:
        print(line)
    results = Path(args.results) if args.results else None
    if results:
        results.mkdir(parents=True, exist_ok=True)
        (results / 'times.txt').write_text('\n'.join(table) + '\n',
                                           encoding='utf-8')
        write_times(results / 'times.json', done, records)
        args.json = args.json or str(results / 'results.json')
        args.junit = args.junit or str(results / 'results.xml')
    write_results(args, records, 'make test')
    codes = [outcome.verdict.code for outcome in outcomes.values()]
    code = max(codes, default=EXIT_ERROR)
    if len(outcomes) < len(entries):
        code = max(code, EXIT_ERROR)
    print(total.final_line())
    return code


# ---------------------------------------------------------------------------
# Selftest: the parser on sample logs, decide() on verdicts.json
# ---------------------------------------------------------------------------

SAMPLE_EXPECT_RE = re.compile(r'kunit-selftest-expect-(exit|last|output):\s?(.*)')


def read_sample(path):
    """A sample log's "kunit-selftest-expect-<key>:" lines, and the rest."""
    expect = {'exit': None, 'last': None, 'output': []}
    lines = []
    for line in read_log(path):
        match = SAMPLE_EXPECT_RE.match(line)
        if not match:
            lines.append(line)
        elif match.group(1) == 'output':
            expect['output'].append(match.group(2))
        elif match.group(1) == 'exit':
            expect['exit'] = int(match.group(2))
        else:
            expect['last'] = match.group(2)
    return expect, lines


def check_sample(path):
    """Parse one sample log quietly; returns (mismatches, output lines)."""
    expect, lines = read_sample(path)
    captured = io.StringIO()
    with contextlib.redirect_stdout(captured):
        code = parse_and_report(lines)
    output = captured.getvalue()
    last = output.rstrip('\n').splitlines()[-1] if output.strip() else ''
    problems = []
    if expect['exit'] is not None and code != expect['exit']:
        problems.append(f'exit {code}, expected {expect["exit"]}')
    if expect['last'] is not None and last != expect['last']:
        problems.append(f'last line "{last}", expected "{expect["last"]}"')
    for text in expect['output']:
        if text not in output:
            problems.append(f'output lacks "{text}"')
    if expect['exit'] is None and expect['last'] is None:
        problems.append('no kunit-selftest-expect-exit/last lines in the sample')
    return problems, output.splitlines()


def case_happened(case, directory):
    """The Happened of a verdicts.json case: its "log" (a sample) parsed,
    with the QEMU outcome its keys describe."""
    if 'build_error' in case:
        return Happened(build_error=case['build_error'])
    lines = read_sample(directory / case['log'])[1] if 'log' in case else []
    result = qemu.QemuResult(timeout=case.get('timeout', 300),
                             status=case.get('status'),
                             timed_out=case.get('timed_out', False),
                             interrupted=case.get('interrupted', False))
    with contextlib.redirect_stdout(io.StringIO()):
        return parse_lines(lines).happened(result)


def check_verdict_case(case, directory):
    """decide() on one case; returns (mismatches, its messages)."""
    expect = entry_expectations(case)
    if 'expect_suites' in case:
        expect.expect_suites = {name: (cases, where) for name, (cases, where)
                                in case['expect_suites'].items()}
    verdict = decide(case_happened(case, directory), expect)
    problems = []
    if verdict.code != case['code']:
        problems.append(f'exit {verdict.code}, expected {case["code"]}')
    if verdict.describe() != case['describe']:
        problems.append(f'described "{verdict.describe()}", expected '
                        f'"{case["describe"]}"')
    plan_counts = verdict.plan_counts().final_line()
    if plan_counts != case['plan_counts']:
        problems.append(f'adds "{plan_counts}" to a plan, expected '
                        f'"{case["plan_counts"]}"')
    return problems, verdict.messages()


def selftest_checks(directory):
    """(label, check) for every sample log and verdict case in directory."""
    checks = [(path.name, lambda path=path: check_sample(path))
              for path in sorted(directory.glob('*.txt'))]
    cases_path = directory / VERDICT_CASES
    if cases_path.is_file():
        cases = json.loads(cases_path.read_text(encoding='utf-8'))
        checks += [(f'{VERDICT_CASES}: {case["name"]}',
                    lambda case=case: check_verdict_case(case, directory))
                   for case in cases]
    return checks


def cmd_selftest(args):
    directory = Path(args.dir) if args.dir else SELFTEST_DIR
    checks = selftest_checks(directory)
    counts = Counts()
    for label, check in checks:
        problems, output = check()
        if problems:
            counts.failed += 1
            print(f'[FAILED] {label}: {"; ".join(problems)}')
            print_lines('  output:', output)
        else:
            counts.passed += 1
            print(f'[PASSED] {label}')
    if not checks:
        print(f'error: no sample logs (*.txt) in {display_path(directory)}')
    print(counts.final_line())
    return EXIT_OK if checks and not counts.failed else EXIT_ERROR


# ---------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------

EXIT_CODES_HELP = '''\
exit codes:
  0    every test passed, was skipped or failed as expected (# TODO or
       # XFAIL), and QEMU exited with status 33 (or a plan run with
       expect_total 0 ran none)
  1    QEMU exited with status 35 and at least one test failed
  2    anything else: a crash, panic, triple fault or timeout; malformed or
       truncated KTAP; a QEMU status that contradicts the results; no test
       ran (QEMU status 39 when the filters matched nothing); an
       expectation not met (--expect_failure, or a plan's expect_failure,
       expect_total, expect_crash, expect_log)
  3    the build failed (or --no_build found no kernel.iso)
  130  interrupted (Ctrl-C)
The last line printed is always "N passed, N failed", with ", N skipped"
and ", N xfail" (expected failures) added when not zero.  The summary
names every skipped test, expected failure and unexpected pass.'''

ENVIRONMENT_HELP = '''\
environment:
  KUNIT_QEMU  QEMU command instead of qemu-system-x86_64 (split like a shell)
  KUNIT_MAKE  make command instead of make (split like a shell)
Each run writes build.log, serial.log (the raw console) and qemu-stderr.log
to its build directory.  Details: Documentation/kunit.rst.'''

PLAN_HELP = '''\
FILE is a non-empty JSON list of runs, each an object with the keys:
  name            required: letters, digits, "_.+-"; unique; the run's build
                  directory is build/test-<name>
  kconfig_add     list of Kconfig fragments (relative to the repository or
                  to the plan's directory)
  filter, kernel_args, cpus, mem, timeout
                  as the "run" options of the same name (a run's cpus, mem
                  and timeout take precedence over --cpus, --mem and
                  --timeout)
  kernel_from     the name of an earlier run whose kernel this run boots
                  (only its own ISO, with its own command line, is built)
  build_from      the name of an earlier run with a build of its own: this
                  run's first build starts as a copy of that one, and so
                  recompiles only what its kconfig_add changes
                  (scripts/seed_build.py)
  cores           host cores the boot keeps busy (default 1): 2 for a run
                  whose cases need several vCPUs running at once (SMP
                  stresses), which then runs alone
  expect_failure  true: the run must end cleanly with failed tests
  expect_total    the exact number of cases the run must report
  expect_crash    list of regexes (multi-line mode): the kernel must panic
                  and the serial log match every one
  expect_log      list of regexes (multi-line mode) the serial log must
                  match, besides what the other keys expect (an oops that
                  failed one case, with expect_failure)
Unknown keys draw a warning; a wrongly typed value rejects the plan.  The
exit code is the worst of the runs' codes; the closing line adds up the
runs, with one failure for a run that crashed, timed out, produced
malformed output, did not build, or did not fail as expected.'''

SELFTEST_HELP = f'''\
Each *.txt sample in DIR is parsed as "kunit.py parse" would, without its
lines "kunit-selftest-expect-exit: CODE", "kunit-selftest-expect-last:
LINE" (the last line of output) and "kunit-selftest-expect-output: TEXT"
(a fragment the output must contain; repeatable), which it must match.
DIR/{VERDICT_CASES} lists cases for the run verdict: a sample "log", a QEMU
"status", "timed_out", "interrupted", "build_error", the plan keys
"filter", "expect_failure", "expect_total", "expect_crash" and
"expect_log", "expect_suites" ({{suite: [[case names] or null, where it
was built]}}), and what decide() must return: the exit "code", the
plan-table line "describe" and "plan_counts", what the run adds to a
plan's closing line.'''


def positive_int(text):
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError('must be at least 1')
    return value


def positive_float(text):
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError('must be positive')
    return value


def add_command(sub, name, summary, description, epilog):
    return sub.add_parser(name, help=summary, epilog=epilog,
                          description=textwrap.fill(description),
                          formatter_class=argparse.RawDescriptionHelpFormatter)


def add_qemu_options(parser):
    parser.add_argument('--cpus', type=positive_int, default=4, metavar='N',
                        help='number of virtual CPUs, QEMU -smp (default 4)')
    parser.add_argument('--mem', default=qemu.DEFAULT_MEM, metavar='SIZE',
                        help=f'guest memory, QEMU -m (default {qemu.DEFAULT_MEM})')
    parser.add_argument('--timeout', type=positive_float, default=300, metavar='S',
                        help='seconds before QEMU is killed (default 300)')
    parser.add_argument('--icount', action='store_true',
                        help='deterministic timing: QEMU -icount '
                             f'{qemu.ICOUNT}')
    parser.add_argument('--qemu_args', default='', metavar='STR',
                        help='extra QEMU arguments, split like a shell would '
                             '(write --qemu_args=-s for one value starting '
                             'with "-")')
    parser.add_argument('--raw_output', action='store_true',
                        help='echo every serial console line')
    parser.add_argument('--no_build', action='store_true',
                        help='do not build; boot the existing kernel.iso (its '
                             'command line was fixed when it was built)')
    parser.add_argument('--json', metavar='FILE',
                        help='write the results as Linux\'s kunit.py --json '
                             'does (KernelCI\'s format)')
    parser.add_argument('--junit', metavar='FILE',
                        help='write the results as JUnit XML')


def add_plan_options(parser):
    parser.add_argument('--jobs', type=positive_int,
                        default=min(os.cpu_count() or 1, 2), metavar='N',
                        help='host cores to keep busy: builds run make -jN, '
                             'boots of runs whose "cores" is 1 run N at a '
                             'time (default: the cores, at most 2)')
    parser.add_argument('--results', metavar='DIR',
                        help='write DIR/results.json, results.xml (unless '
                             '--json, --junit say otherwise), times.txt and '
                             'times.json (the next run\'s order)')


def add_run_command(sub):
    run = add_command(
        sub, 'run', 'build the kernel, boot it and report the tests',
        'Build the kernel (make fragconfig, make iso) into DIR, boot '
        'DIR/kernel.iso under QEMU, stream and parse the KTAP results and '
        'report them.', f'{EXIT_CODES_HELP}\n\n{ENVIRONMENT_HELP}')
    run.add_argument('--kconfig_add', action='append', default=[], metavar='FILE',
                     help='Kconfig fragment to merge into defconfig (repeatable)')
    run.add_argument('--filter', metavar='GLOB',
                     help='only run tests matching SUITE_GLOB[.CASE_GLOB] '
                          '(adds kunit.filter_glob=GLOB)')
    run.add_argument('--kernel_args', action='append', default=[], metavar='ARG',
                     help='append ARG to the kernel command line (repeatable)')
    run.add_argument('--build_dir', metavar='DIR',
                     help='build directory (default <repo>/build/kunit)')
    run.add_argument('--expect_failure', action='store_true',
                     help='invert the verdict: succeed only if the run ends '
                          'cleanly with at least one failed test')
    add_qemu_options(run)
    run.set_defaults(func=cmd_run)


def build_arg_parser():
    parser = argparse.ArgumentParser(
        prog='kunit.py', formatter_class=argparse.RawDescriptionHelpFormatter,
        description=textwrap.fill('Build the kernel, boot it under QEMU and '
                                  'report the KTAP results of its built-in '
                                  'tests.'),
        epilog=f'{EXIT_CODES_HELP}\n\n{ENVIRONMENT_HELP}\n'
               'Run "kunit.py COMMAND --help" for the options of a command.')
    sub = parser.add_subparsers(dest='command', required=True, metavar='COMMAND')
    add_run_command(sub)

    plan = add_command(sub, 'plan', 'run every configuration of a JSON plan',
                       'Execute every run of a plan, then print a table of '
                       'their verdicts and the combined counts.',
                       f'{PLAN_HELP}\n\n{EXIT_CODES_HELP}\n\n{ENVIRONMENT_HELP}')
    plan.add_argument('file', metavar='FILE', help='JSON list of runs')
    add_qemu_options(plan)
    add_plan_options(plan)
    plan.set_defaults(func=cmd_plan)

    parse = add_command(sub, 'parse', 'parse a saved serial log',
                        'Parse and report a saved serial log, without the '
                        'checks on the QEMU exit status.', EXIT_CODES_HELP)
    parse.add_argument('file', metavar='FILE')
    parse.add_argument('--raw_output', action='store_true',
                       help='echo every line of the log')
    parse.set_defaults(func=cmd_parse)

    selftest = add_command(sub, 'selftest',
                           'check the parser and the verdict on samples',
                           'Check the KTAP parser on sample logs and the run '
                           'verdict on sample cases; exit 0 if all match, '
                           'else 2.', SELFTEST_HELP)
    selftest.add_argument('dir', nargs='?', metavar='DIR',
                          help='directory of samples '
                               '(default tests/kunit_runner_selftest)')
    selftest.set_defaults(func=cmd_selftest)
    return parser


def main(argv=None):
    sys.stdout.reconfigure(line_buffering=True, errors='replace')
    args = build_arg_parser().parse_args(argv)
    try:
        return args.func(args)
    except KeyboardInterrupt:
        print('\nerror: interrupted by user')
        print(Counts().final_line())
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # stdout was closed (e.g. piped into head): stop quietly.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_ERROR


if __name__ == '__main__':
    sys.exit(main())
