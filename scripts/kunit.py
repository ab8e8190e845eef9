#!/usr/bin/python3
"""Host-side KUnit-style test runner for this kernel.

Builds the kernel with extra Kconfig fragments, boots the resulting GRUB ISO
in QEMU, streams the KTAP (version 1) results the kernel prints on its serial
console, shows progress as suites finish, prints a per-suite summary and ends
with the line

    N passed, N failed[, N skipped]

which is always the very last line of output (", N skipped" only if N > 0).

Commands
  kunit.py run [options]        build, boot once, parse and report
      --kconfig_add FILE        Kconfig fragment merged into defconfig (repeatable)
      --filter GLOB             adds kunit.filter_glob=GLOB to the kernel command line
      --kernel_args ARG         extra kernel command line text (repeatable)
      --cpus N                  QEMU -smp (default 4)
      --timeout S               kill QEMU after S seconds (default 300)
      --build_dir DIR           default <repo>/build/kunit
      --icount                  deterministic QEMU timing (-icount shift=0,...)
      --qemu_args STR           extra QEMU arguments (shlex split; use --qemu_args=-s
                                for a value that starts with '-' and has no space)
      --raw_output              also echo every serial line
      --no_build                reuse DIR/kernel.iso as is (its command line was
                                fixed when it was built)
      --expect_failure          succeed only if the run finishes cleanly with at
                                least one failed test
  kunit.py plan FILE [--cpus N] [--timeout S] [--icount] [--qemu_args STR]
                     [--raw_output] [--no_build]
      FILE is a JSON list of runs: {"name", "kconfig_add": [..], "filter",
      "kernel_args": [..], "cpus", "timeout", "expect_failure"}; each run uses
      the build dir <repo>/build/test-<name>.  Fragment paths in a plan are
      relative to the repo root.
  kunit.py parse FILE [--raw_output]
      parse a saved serial log (no QEMU exit status checks)
  kunit.py selftest [DIR]
      run `parse` on the sample logs in DIR (default tests/kunit_runner_selftest)
      and compare with the "kunit-selftest-expect-*:" lines at their top

Exit codes
  0  every test passed or was skipped, clean shutdown (QEMU status 33)
  1  clean shutdown (QEMU status 35) and at least one test failed
  2  crash, panic, timeout, malformed or truncated KTAP, plan mismatch, QEMU
     status inconsistent with the results, or no tests ran without --filter
  3  build failure (or missing kernel.iso with --no_build)
  130 interrupted (Ctrl-C)

Counting: every leaf of the result tree counts once: a case, a parameter of a
parameterised case, or a suite without cases reported "# SKIP" (one skipped)
or "not ok" (one failed); an empty suite reported plain "ok" counts nothing.
A suite reported "not ok" whose cases did not fail counts as one extra
failure.  Cases reported before a crash or truncation are counted too.
Nested subtests deeper than the suites need neither a header nor a plan.

Environment
  KUNIT_QEMU   QEMU command to use instead of qemu-system-x86_64 (shlex split)
  KUNIT_MAKE   make command to use instead of make (shlex split)

Files written to the build dir: build.log (make output), serial.log (the raw
serial console), qemu-stderr.log.
"""

import argparse
import contextlib
import io
import json
import os
import queue
import re
import shlex
import signal
import subprocess
import sys
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_BUILD_DIR = REPO_ROOT / 'build' / 'kunit'
SELFTEST_DIR = REPO_ROOT / 'tests' / 'kunit_runner_selftest'

EXIT_OK, EXIT_FAILED, EXIT_ERROR, EXIT_BUILD = 0, 1, 2, 3
EXIT_INTERRUPTED = 130

# isa-debug-exit makes QEMU exit with (value << 1) | 1.
QEMU_EXIT_PASS, QEMU_EXIT_FAIL, QEMU_EXIT_PANIC = 33, 35, 37

CRASH_TAIL_LINES = 30
BUILD_TAIL_LINES = 40
STDERR_TAIL_LINES = 10

PASSED, FAILED, SKIPPED, INCOMPLETE = 'PASSED', 'FAILED', 'SKIPPED', 'INCOMPLETE'


# ---------------------------------------------------------------------------
# Result model
# ---------------------------------------------------------------------------

@dataclass
class Counts:
    passed: int = 0
    failed: int = 0
    skipped: int = 0

    @property
    def total(self):
        return self.passed + self.failed + self.skipped

    def add(self, other):
        self.passed += other.passed
        self.failed += other.failed
        self.skipped += other.skipped
        return self

    def add_status(self, status):
        if status == PASSED:
            self.passed += 1
        elif status == FAILED:
            self.failed += 1
        elif status == SKIPPED:
            self.skipped += 1

    def final_line(self):
        line = f'{self.passed} passed, {self.failed} failed'
        if self.skipped:
            line += f', {self.skipped} skipped'
        return line


@dataclass
class TestNode:
    """One result line ("ok N name"), with the subtests reported before it."""
    name: str
    number: int | None
    ok: bool | None
    directive: str | None = None      # 'SKIP' or 'TODO'
    reason: str = ''
    diag: list = field(default_factory=list)
    children: list = field(default_factory=list)
    has_block: bool = False           # a subtest block ("1..N" etc.) preceded it
    incomplete: bool = False          # the block never got its result line

    @property
    def label(self):
        return self.name or f'#{self.number}'

    @property
    def status(self):
        if self.incomplete:
            return INCOMPLETE
        if self.directive in ('SKIP', 'TODO'):
            return SKIPPED
        return PASSED if self.ok else FAILED

    def counts(self):
        counts = Counts()
        if not self.children:
            # An "ok" suite that declared zero cases ran nothing.
            if not (self.has_block and self.status == PASSED):
                counts.add_status(self.status)
            return counts
        for child in self.children:
            counts.add(child.counts())
        if self.status == FAILED and counts.failed == 0:
            counts.failed += 1
        return counts

    def failures(self, path=()):
        """Yield (path, node) for every failure counted by counts()."""
        if not self.children:
            if self.status == FAILED:
                yield path, self
            return
        child_failed = False
        for child in self.children:
            for item in child.failures(path + (child.label,)):
                child_failed = True
                yield item
        if self.status == FAILED and not child_failed:
            yield path, self


# ---------------------------------------------------------------------------
# KTAP parser
# ---------------------------------------------------------------------------

KTAP_HEADER = 'KTAP version 1'
ANSI_RE = re.compile(r'\x1b(?:\[[0-?]*[ -/]*[@-~]|[@-Z\\-_])')
CTRL_RE = re.compile(r'[\x00-\x08\x0b-\x1f\x7f]')
PLAN_RE = re.compile(r'1\.\.(\d+)\s*(?:#.*)?')
RESULT_RE = re.compile(r'(not ok|ok)\s+(\d+)(?:\s+(.*))?')
SUBTEST_RE = re.compile(r'#\s*Subtest:\s*(.*)')
DIRECTIVE_RE = re.compile(r'(SKIP|TODO)\b\s*(.*)', re.IGNORECASE)
STRUCTURAL = ('header', 'subtest', 'plan', 'result')


def parse_result_line(content):
    """Return a TestNode for "ok N name # DIRECTIVE reason", else None."""
    match = RESULT_RE.fullmatch(content)
    if not match:
        return None
    name, _, directive = (match.group(3) or '').partition('#')
    name = name.strip()
    if name == '-' or name.startswith('- '):      # TAP style "ok 1 - name"
        name = name[1:].strip()
    node = TestNode(name=name, number=int(match.group(2)),
                    ok=match.group(1) == 'ok')
    found = DIRECTIVE_RE.match(directive.strip())
    if found:
        node.directive = found.group(1).upper()
        node.reason = found.group(2).strip()
    return node


def classify(content):
    """Classify a line (indentation removed): returns (kind, value)."""
    if content == KTAP_HEADER:
        return 'header', None
    match = SUBTEST_RE.fullmatch(content)
    if match:
        return 'subtest', match.group(1).strip()
    match = PLAN_RE.fullmatch(content)
    if match:
        return 'plan', int(match.group(1))
    node = parse_result_line(content)
    if node is not None:
        return 'result', node
    if content.startswith('#'):
        return 'diag', None
    return 'other', None


@dataclass
class Block:
    """A KTAP document at one indentation level (the top level or a subtest)."""
    indent: int
    depth: int
    line: int
    header: bool = False
    name: str | None = None
    plan: int | None = None
    results: list = field(default_factory=list)
    extras: list = field(default_factory=list)    # subtests without a result
    diag: list = field(default_factory=list)      # diagnostics since last result
    pending: 'Block | None' = None                # finished child awaiting result

    def nodes(self):
        return self.results + self.extras


class KtapParser:
    """Streaming KTAP v1 parser; nesting is tracked by indentation.

    Feed lines with feed(), then call finish().  on_suite(node) is called for
    every top-level result as soon as it is complete.  Problems are collected
    in self.errors (any error makes the run "malformed").
    """

    def __init__(self, on_suite=None):
        self.on_suite = on_suite or (lambda node: None)
        self.errors = []
        self.lineno = 0
        self.started = False
        self.finished = False
        self.base_indent = 0
        self.stack = []
        self._warned_early_result = False

    # -- public API ---------------------------------------------------------

    def feed(self, raw_line):
        self.lineno += 1
        line = CTRL_RE.sub('', ANSI_RE.sub('', raw_line)).expandtabs(8).rstrip()
        content = line.lstrip(' ')
        if not content or self.finished:
            return
        indent = len(line) - len(content)
        kind, value = classify(content)
        if not self.started:
            self._before_header(kind, indent)
            return
        self._dispatch(max(0, indent - self.base_indent), kind, value, content)

    def finish(self):
        """End of output: close open blocks and check the top-level plan."""
        if self.finished:
            return
        self.finished = True
        if not self.started:
            self.errors.append(f'no "{KTAP_HEADER}" header found: the kernel '
                               'printed no test results')
            return
        where = self.location()
        truncated = len(self.stack) > 1 or self.stack[0].pending is not None
        while len(self.stack) > 1:
            block = self.stack.pop()
            if block.pending:
                self._orphan(block, block.pending, report=False)
            self._orphan(self.stack[-1], block, report=False)
        top = self.stack[0]
        if top.pending:
            self._orphan(top, top.pending, report=False)
        if top.plan is None:
            self.errors.append('top level: missing plan line "1..N"')
        elif len(top.results) < top.plan:
            truncated = True
        elif len(top.results) > top.plan:
            self.errors.append(f'top level: plan mismatch: planned {top.plan} '
                               f'results, got {len(top.results)}')
        if truncated:
            planned = '?' if top.plan is None else top.plan
            self.errors.append(f'output truncated {where} ({len(top.results)} '
                               f'of {planned} top-level results reported)')

    def suites(self):
        return self.stack[0].nodes() if self.stack else []

    def counts(self):
        counts = Counts()
        for node in self.suites():
            counts.add(node.counts())
        return counts

    def complete(self):
        if not self.started or len(self.stack) != 1:
            return False
        top = self.stack[0]
        return (top.pending is None and top.plan is not None
                and len(top.results) >= top.plan)

    def location(self):
        """Describe where the output currently is (for crash reports)."""
        if not self.started:
            return 'before any KTAP output'
        if self.complete():
            return 'after all results were reported'
        top = self.stack[0]
        if len(self.stack) == 1:
            if top.pending:
                return (f'after suite "{top.pending.name}" finished, '
                        'before its result line')
            planned = '?' if top.plan is None else top.plan
            return f'between suites ({len(top.results)} of {planned} done)'
        names = '.'.join(block.name or '?' for block in self.stack[1:])
        inner = self.stack[-1]
        if not inner.results:
            return f'in {names} before its first case finished'
        planned = '?' if inner.plan is None else inner.plan
        return (f'in {names} after case "{inner.results[-1].name}" '
                f'({len(inner.results)} of {planned} done)')

    # -- internals ----------------------------------------------------------

    def _error(self, message, line=None):
        self.errors.append(f'line {line or self.lineno}: {message}')

    def _before_header(self, kind, indent):
        if kind == 'header':
            self.started = True
            self.base_indent = indent
            self.stack = [Block(indent=0, depth=0, line=self.lineno, header=True)]
        elif kind == 'result' and not self._warned_early_result:
            self._warned_early_result = True
            self._error(f'test result before the "{KTAP_HEADER}" header')

    def _dispatch(self, indent, kind, value, content):
        structural = kind in STRUCTURAL
        if structural or kind == 'diag':
            while len(self.stack) > 1 and indent < self.stack[-1].indent:
                self._close_block()
        block = self.stack[-1]
        if indent > block.indent:
            if not structural:
                if kind == 'diag':
                    block.diag.append(' ' * (indent - block.indent) + content)
                return
            block = self._open_block(indent)
        self._handle(block, kind, value, content)

    def _handle(self, block, kind, value, content):
        if kind == 'header':
            if block.header or block.plan is not None or block.results:
                self._error(f'unexpected "{KTAP_HEADER}" header')
            block.header = True
        elif kind == 'subtest':
            if block.name is None and not block.results:
                block.name = value
            else:
                block.diag.append(content)
        elif kind == 'plan':
            if block.plan is not None:
                self._error(f'{self._where(block)}: duplicate plan line')
            else:
                block.plan = value
        elif kind == 'result':
            self._add_result(block, value)
        elif kind == 'diag':
            block.diag.append(content)

    def _open_block(self, indent):
        parent = self.stack[-1]
        if parent.pending:
            self._orphan(parent, parent.pending)
            parent.pending = None
        child = Block(indent=indent, depth=parent.depth + 1, line=self.lineno)
        self.stack.append(child)
        return child

    def _close_block(self):
        block = self.stack.pop()
        if block.pending:
            self._orphan(block, block.pending)
            block.pending = None
        self._check_block(block)
        parent = self.stack[-1]
        if parent.pending:
            self._orphan(parent, parent.pending)
        parent.pending = block

    def _check_block(self, block):
        where = self._where(block)
        if block.depth == 1 and not block.header:
            self._error(f'{where}: missing "{KTAP_HEADER}" header', block.line)
        if block.plan is None:
            # Deeper (parameterised) subtests may legitimately omit the plan.
            if block.depth <= 1:
                self._error(f'{where}: missing plan line "1..N"', block.line)
        elif block.plan != len(block.results):
            self._error(f'{where}: plan mismatch: planned {block.plan} '
                        f'results, got {len(block.results)}', block.line)

    def _add_result(self, block, node):
        node.diag, block.diag = block.diag, []
        expected = len(block.results) + 1
        if node.number != expected:
            self._error(f'{self._where(block)}: expected test number '
                        f'{expected}, got {node.number} ("{node.name}")')
        child, block.pending = block.pending, None
        if child is not None:
            self._attach(node, child)
        block.results.append(node)
        if block.depth == 0:
            self.on_suite(node)

    def _attach(self, node, child):
        node.has_block = True
        node.children = child.nodes()
        node.diag = child.diag + node.diag
        if child.name is not None and child.name != node.name:
            self._error(f'result "{node.name}" does not match its subtest '
                        f'name "{child.name}"')
        if node.ok:
            bad = [c.label for c in node.children if c.status == FAILED]
            if bad:
                self._error(f'inconsistent: "{node.name}" reported ok but '
                            f'{", ".join(bad)} failed')

    def _orphan(self, parent, block, report=True):
        """Keep the results of a subtest that never got its result line."""
        if report:
            self._error(f'{self._where(block)} has no result line', block.line)
        node = TestNode(name=block.name or '?', number=None, ok=None,
                        diag=block.diag, children=block.nodes(),
                        has_block=True, incomplete=True)
        parent.extras.append(node)
        if parent.depth == 0:
            self.on_suite(node)

    @staticmethod
    def _where(block):
        if block.depth == 0:
            return 'top level'
        kind = 'suite' if block.depth == 1 else 'subtest'
        if block.name is None:
            return f'{kind} at line {block.line}'
        return f'{kind} "{block.name}"'


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
    return f'[PASSED] {node.label} ({plural(counts.total, "case")}{extra})'


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


def print_summary(nodes):
    if not nodes:
        print('Summary: no test results')
        return
    width = max(5, *(len(node.label) for node in nodes))
    print()
    print('Summary:')
    print(f'  {"suite":<{width}}  {"passed":>6}  {"failed":>6}  {"skipped":>7}  result')
    for node in nodes:
        counts = node.counts()
        print(f'  {node.label:<{width}}  {counts.passed:>6}  {counts.failed:>6}  '
              f'{counts.skipped:>7}  {node.status}')


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


# ---------------------------------------------------------------------------
# Serial stream handling and evaluation
# ---------------------------------------------------------------------------

class SerialSession:
    """Consumes serial lines: logs them, echoes them, parses them."""

    def __init__(self, raw_output=False, log_path=None):
        self.parser = KtapParser(on_suite=print_suite_result)
        self.raw_output = raw_output
        self.tail = deque(maxlen=CRASH_TAIL_LINES)
        self.panic = None
        self.log = None
        if log_path is not None:
            self.log = open(log_path, 'w', encoding='utf-8', buffering=1)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self.log:
            self.log.close()
            self.log = None

    def feed(self, line):
        if self.log:
            self.log.write(line + '\n')
        self.tail.append(line)
        if self.raw_output:
            print(line)
        if self.panic is None and 'Kernel panic' in line:
            self.panic = CTRL_RE.sub('', ANSI_RE.sub('', line)).strip()
        self.parser.feed(line)


@dataclass
class QemuResult:
    timeout: float
    status: int | None = None
    timed_out: bool = False
    interrupted: bool = False
    error: str | None = None
    elapsed: float = 0.0

    def describe(self):
        if self.error:
            return 'did not start'
        if self.interrupted:
            return 'interrupted'
        if self.timed_out:
            return f'killed after {self.timeout:g}s timeout'
        return f'exit status {self.status}'


@dataclass
class Outcome:
    counts: Counts
    code: int
    reasons: list = field(default_factory=list)
    crashed: bool = False
    run_code: int | None = None       # code before --expect_failure inversion
    expect_failure: bool = False
    expected_ok: bool = False
    expect_crash: bool = False

    def describe(self):
        counts = self.counts.final_line()
        if self.expect_crash:
            if self.expected_ok:
                return 'expected crash observed, with the expected oops lines'
            return f'FAILED: expected crash not observed as described; {self.reasons[-1]}'
        if self.expect_failure:
            if self.expected_ok:
                return f'expected failure observed ({self.counts.failed} failed)'
            return ('FAILED: expected failure not observed; run '
                    f'{self._summary(counts)}')
        return self._summary(counts)

    def _summary(self, counts):
        code = self.run_code if self.run_code is not None else self.code
        first = self.reasons[0] if self.reasons else ''
        more = f' (+{len(self.reasons) - 1} more)' if len(self.reasons) > 1 else ''
        if code == EXIT_OK:
            return f'PASSED ({counts})'
        if code == EXIT_FAILED:
            return f'FAILED ({counts})'
        if code == EXIT_BUILD:
            return f'BUILD FAILED: {first}'
        if code == EXIT_INTERRUPTED:
            return 'INTERRUPTED'
        return f'ERROR: {first}{more} ({counts})'


def crash_reason(session, qemu, where):
    """One-line reason when the run did not end with a clean shutdown."""
    if qemu is not None:
        if qemu.interrupted:
            return f'interrupted by user {where}'
        if qemu.error:
            return f'QEMU error: {qemu.error}'
    if session.panic:
        killed = ' (QEMU then killed by the timeout)' if qemu and qemu.timed_out else ''
        return f'kernel panic {where}: {session.panic}{killed}'
    if qemu is None:
        return None
    if qemu.timed_out:
        return f'timeout: QEMU killed after {qemu.timeout:g}s {where}'
    status = qemu.status
    if status == QEMU_EXIT_PANIC:
        return f'kernel panic (QEMU exit status {status}) {where}'
    if status == 0:
        return f'crash: triple fault or reset (QEMU exit status 0) {where}'
    if status < 0:
        return f'QEMU killed by signal {-status} {where}'
    if status not in (QEMU_EXIT_PASS, QEMU_EXIT_FAIL):
        return f'QEMU error: exit status {status} {where}'
    return None


def status_mismatch(status, counts):
    if status == QEMU_EXIT_PASS and counts.failed:
        return [f'inconsistent: QEMU exit status {status} (all passed) but '
                f'{counts.failed} failed']
    if status == QEMU_EXIT_FAIL and not counts.failed:
        return [f'inconsistent: QEMU exit status {status} (tests failed) but '
                'no failure was reported']
    return []


def evaluate(session, qemu=None, allow_empty=False):
    """Turn parse results (and the QEMU exit) into an Outcome."""
    parser = session.parser
    where = parser.location()
    parser.finish()
    counts = parser.counts()
    crash = crash_reason(session, qemu, where)
    reasons = [crash] if crash else []
    if qemu is None or not qemu.error:
        reasons += [f'malformed KTAP: {error}' for error in parser.errors]
    if qemu is not None and not crash:
        reasons += status_mismatch(qemu.status, counts)
    if not reasons and counts.total == 0 and not allow_empty:
        reasons.append('ran no tests')
    if reasons:
        code = EXIT_ERROR
    else:
        code = EXIT_FAILED if counts.failed else EXIT_OK
    if qemu is not None and qemu.interrupted:
        code = EXIT_INTERRUPTED
    return Outcome(counts=counts, code=code, reasons=reasons, crashed=bool(crash))


def report(session, outcome):
    print_summary(session.parser.suites())
    if outcome.crashed and session.tail:
        print_lines(f'last {len(session.tail)} serial lines:', session.tail)


def finalize(outcome, expect_failure):
    """Print the reasons and apply --expect_failure; returns the outcome."""
    for reason in outcome.reasons:
        print(f'error: {reason}')
    outcome.run_code = outcome.code
    if not expect_failure:
        return outcome
    outcome.expect_failure = True
    if outcome.code == EXIT_FAILED:
        print(f'expected failure observed: {outcome.counts.failed} failed')
        outcome.code = EXIT_OK
        outcome.expected_ok = True
    elif outcome.code != EXIT_INTERRUPTED:
        what = ('all tests passed' if outcome.code == EXIT_OK
                else f'the run ended with exit code {outcome.code}')
        print(f'error: expected failure not observed: {what}')
        outcome.code = EXIT_ERROR
    return outcome


# ---------------------------------------------------------------------------
# QEMU
# ---------------------------------------------------------------------------

def qemu_command(cfg, iso):
    qemu = shlex.split(os.environ.get('KUNIT_QEMU', '')) or ['qemu-system-x86_64']
    cmd = qemu + ['-cdrom', str(iso), '-m', '256M', '-smp', str(cfg.cpus),
                  '-display', 'none', '-no-reboot', '-monitor', 'none',
                  '-serial', 'stdio',
                  '-device', 'isa-debug-exit,iobase=0xf4,iosize=0x04']
    if cfg.icount:
        cmd += ['-icount', 'shift=0,align=off,sleep=off']
    return cmd + shlex.split(cfg.qemu_args or '')


def _pump(stream, lines):
    """Reader thread: decoded serial lines into a queue, None at EOF."""
    try:
        for raw in iter(stream.readline, b''):
            lines.put(raw.decode('utf-8', 'replace').rstrip('\r\n'))
    finally:
        lines.put(None)


def _kill_group(proc):
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _stream(proc, lines, deadline, session):
    """Feed lines to the session until the output ends.

    Returns 'eof', 'timeout', or 'orphaned' (QEMU exited but something it
    started still holds the serial pipe open).
    """
    exited_at = None
    while True:
        now = time.monotonic()
        if now >= deadline:
            return 'timeout'
        try:
            line = lines.get(timeout=min(0.5, deadline - now))
        except queue.Empty:
            if proc.poll() is not None:
                exited_at = exited_at or now
                if now - exited_at > 2:
                    return 'orphaned'
            continue
        if line is None:
            return 'eof'
        session.feed(line)


def _drain(lines, session):
    while True:
        try:
            line = lines.get_nowait()
        except queue.Empty:
            return
        if line is not None:
            session.feed(line)


def run_qemu(cmd, timeout, session, stderr_path):
    """Run QEMU, streaming its serial output into session, with a timeout."""
    result = QemuResult(timeout=timeout)
    start = time.monotonic()
    deadline = start + timeout
    with open(stderr_path, 'wb') as stderr:
        try:
            proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL,
                                    stdout=subprocess.PIPE, stderr=stderr,
                                    start_new_session=True)
        except OSError as exc:
            result.error = f'cannot run {cmd[0]}: {exc.strerror}'
            return result
        lines = queue.Queue()
        reader = threading.Thread(target=_pump, args=(proc.stdout, lines), daemon=True)
        reader.start()
        clean = False
        try:
            end = _stream(proc, lines, deadline, session)
            result.timed_out = end == 'timeout'
            if end == 'eof':
                proc.wait(timeout=max(0.1, deadline - time.monotonic()))
                clean = True
        except subprocess.TimeoutExpired:
            result.timed_out = True
        except KeyboardInterrupt:
            result.interrupted = True
        finally:
            if not clean:
                _kill_group(proc)   # QEMU itself, or what it left behind
            result.status = proc.wait()
        reader.join(timeout=2)
        _drain(lines, session)
    result.elapsed = time.monotonic() - start
    return result


# ---------------------------------------------------------------------------
# Build and single run
# ---------------------------------------------------------------------------

@dataclass
class RunConfig:
    build_dir: Path
    fragments: list = field(default_factory=list)   # absolute paths
    filter: str | None = None
    kernel_args: list = field(default_factory=list)
    cpus: int = 4
    timeout: float = 300
    icount: bool = False
    qemu_args: str = ''
    raw_output: bool = False
    no_build: bool = False
    expect_failure: bool = False

    @property
    def cmdline(self):
        args = list(self.kernel_args)
        if self.filter:
            args.append(f'kunit.filter_glob={self.filter}')
        return ' '.join(args)

    @property
    def iso(self):
        return self.build_dir / 'kernel.iso'


def resolve_fragment(name, bases):
    """Absolute path of a fragment, trying each base dir for relative names."""
    path = Path(name).expanduser()
    if path.is_absolute():
        return str(path)
    for base in bases:
        if (base / path).is_file():
            return str((base / path).resolve())
    return str((bases[0] / path).resolve())


def _run_logged(cmd, log):
    log.write(f'$ {shlex.join(cmd)}\n')
    log.flush()
    try:
        return subprocess.run(cmd, cwd=REPO_ROOT, stdin=subprocess.DEVNULL,
                              stdout=log, stderr=subprocess.STDOUT).returncode == 0
    except OSError as exc:
        log.write(f'cannot run {cmd[0]}: {exc.strerror}\n')
        return False


def build_kernel(cfg):
    """make fragconfig + iso into cfg.build_dir; returns an error or None."""
    missing = [f for f in cfg.fragments if not Path(f).is_file()]
    if missing:
        return f'kconfig fragment not found: {", ".join(missing)}'
    make = shlex.split(os.environ.get('KUNIT_MAKE', '')) or ['make']
    out = f'O={cfg.build_dir}'
    steps = [make + [out, f'FRAGMENTS={" ".join(cfg.fragments)}', 'fragconfig'],
             make + [out, f'CMDLINE={cfg.cmdline}', '-j2', 'iso']]
    log_path = cfg.build_dir / 'build.log'
    frags = ', '.join(display_path(f) for f in cfg.fragments) or 'defconfig only'
    print(f'[build] {display_path(cfg.build_dir)}: config: {frags}; '
          f'cmdline: "{cfg.cmdline}" ... ', end='', flush=True)
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


def boot_and_check(cfg):
    serial_log = cfg.build_dir / 'serial.log'
    stderr_log = cfg.build_dir / 'qemu-stderr.log'
    cmd = qemu_command(cfg, cfg.iso)
    icount = ', icount' if cfg.icount else ''
    print(f'[qemu] booting {display_path(cfg.iso)} (cpus={cfg.cpus}, '
          f'timeout={cfg.timeout:g}s{icount})', flush=True)
    with SerialSession(cfg.raw_output, serial_log) as session:
        qemu = run_qemu(cmd, cfg.timeout, session, stderr_log)
    outcome = evaluate(session, qemu, allow_empty=bool(cfg.filter))
    report(session, outcome)
    stderr_tail = tail_of_file(stderr_log, STDERR_TAIL_LINES)
    if outcome.crashed and stderr_tail:
        print_lines('QEMU stderr:', stderr_tail)
    print(f'serial log: {display_path(serial_log)} '
          f'(QEMU {qemu.describe()}, {qemu.elapsed:.1f}s)')
    return finalize(outcome, cfg.expect_failure)


def execute_run(cfg):
    """Build, boot, parse and report one run; prints all but the final line."""
    try:
        error = prepare_kernel(cfg)
    except KeyboardInterrupt:
        print()
        outcome = Outcome(Counts(), EXIT_INTERRUPTED, ['interrupted by user during build'])
        return finalize(outcome, cfg.expect_failure)
    except OSError as exc:
        error = f'cannot create {display_path(cfg.build_dir)}: {exc.strerror}'
    if error:
        return finalize(Outcome(Counts(), EXIT_BUILD, [error]), cfg.expect_failure)
    return boot_and_check(cfg)


# ---------------------------------------------------------------------------
# Commands
# ---------------------------------------------------------------------------

def cmd_run(args):
    cfg = RunConfig(
        build_dir=Path(args.build_dir).resolve() if args.build_dir else DEFAULT_BUILD_DIR,
        fragments=[resolve_fragment(f, [Path.cwd(), REPO_ROOT]) for f in args.kconfig_add],
        filter=args.filter, kernel_args=args.kernel_args, cpus=args.cpus,
        timeout=args.timeout, icount=args.icount, qemu_args=args.qemu_args,
        raw_output=args.raw_output, no_build=args.no_build,
        expect_failure=args.expect_failure)
    outcome = execute_run(cfg)
    print(outcome.counts.final_line())
    return outcome.code


def parse_file(path, raw_output=False):
    """Parse a saved serial log; prints the report, returns the Outcome."""
    with SerialSession(raw_output) as session:
        try:
            with open(path, 'rb') as handle:
                for raw in handle:
                    session.feed(raw.decode('utf-8', 'replace').rstrip('\r\n'))
        except OSError as exc:
            return Outcome(Counts(), EXIT_ERROR, [f'cannot read {path}: {exc.strerror}'])
    outcome = evaluate(session)
    report(session, outcome)
    return outcome


def cmd_parse(args):
    outcome = finalize(parse_file(args.file, args.raw_output), False)
    print(outcome.counts.final_line())
    return outcome.code


class PlanError(Exception):
    pass


PLAN_NAME_RE = re.compile(r'[A-Za-z0-9][A-Za-z0-9_.+-]*')
PLAN_KEYS = {'name': str, 'kconfig_add': list, 'filter': str,
             'kernel_args': list, 'cpus': int, 'expect_failure': bool,
             'timeout': (int, float), 'expect_total': int,
             'expect_crash': list}


def _check_plan_value(where, key, value):
    expected = PLAN_KEYS[key]
    wrong_bool = isinstance(value, bool) and expected is not bool
    if wrong_bool or not isinstance(value, expected):
        raise PlanError(f'{where}: "{key}" has the wrong type')
    if key in ('kconfig_add', 'kernel_args'):
        if not all(isinstance(item, str) for item in value):
            raise PlanError(f'{where}: "{key}" must be a list of strings')
    if key in ('cpus', 'timeout') and value <= 0:
        raise PlanError(f'{where}: "{key}" must be positive')


def validate_plan_entry(index, entry, names):
    where = f'plan entry {index + 1}'
    if not isinstance(entry, dict):
        raise PlanError(f'{where}: must be a JSON object')
    name = entry.get('name')
    if not isinstance(name, str) or not PLAN_NAME_RE.fullmatch(name):
        raise PlanError(f'{where}: "name" must be a string of letters, digits, '
                        '"_", ".", "+" or "-"')
    if name in names:
        raise PlanError(f'{where}: duplicate run name "{name}"')
    names.add(name)
    for key, value in entry.items():
        if key not in PLAN_KEYS:
            print(f'warning: {where} ("{name}"): unknown key "{key}" ignored')
        elif value is not None:
            _check_plan_value(f'{where} ("{name}")', key, value)


def load_plan(path):
    try:
        data = json.loads(Path(path).read_text(encoding='utf-8'))
    except OSError as exc:
        raise PlanError(f'cannot read plan {path}: {exc.strerror}') from exc
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise PlanError(f'plan {path} is not valid JSON: {exc}') from exc
    if not isinstance(data, list) or not data:
        raise PlanError('the plan must be a non-empty JSON list of runs')
    names = set()
    for index, entry in enumerate(data):
        validate_plan_entry(index, entry, names)
    return data


def plan_run_config(entry, args, plan_dir):
    bases = [REPO_ROOT, plan_dir]
    return RunConfig(
        build_dir=REPO_ROOT / 'build' / f'test-{entry["name"]}',
        fragments=[resolve_fragment(f, bases) for f in entry.get('kconfig_add') or []],
        filter=entry.get('filter'),
        kernel_args=list(entry.get('kernel_args') or []),
        cpus=entry.get('cpus') or args.cpus,
        timeout=entry.get('timeout') or args.timeout,
        icount=args.icount, qemu_args=args.qemu_args, raw_output=args.raw_output,
        no_build=args.no_build, expect_failure=bool(entry.get('expect_failure')))


def check_expected_total(entry, outcome):
    """"expect_total": N proves a filter selected exactly N cases."""
    want = entry.get('expect_total')
    if want is None or outcome.expect_failure or outcome.code != EXIT_OK:
        return
    if outcome.counts.total != want:
        outcome.reasons.append(f'expected {want} cases to run, '
                               f'got {outcome.counts.total}')
        print(f'error: {outcome.reasons[-1]}')
        outcome.code = EXIT_ERROR


def check_expected_crash(entry, outcome, build_dir):
    """"expect_crash": [regex, ...]: the kernel must panic (QEMU status 37)
    and its serial log must match every regex, e.g. the oops lines."""
    patterns = entry.get('expect_crash')
    if patterns is None:
        return
    log = (Path(build_dir) / 'serial.log')
    text = log.read_text(errors='replace') if log.exists() else ''
    missing = [p for p in patterns if not re.search(p, text, re.MULTILINE)]
    outcome.expect_failure = outcome.expect_crash = True
    outcome.expected_ok = outcome.crashed and 'Kernel panic' in text and not missing
    if outcome.code == EXIT_BUILD:
        outcome.reasons.append('the build failed')
    elif not outcome.crashed:
        outcome.reasons.append('the kernel did not crash')
    elif missing:
        outcome.reasons.append(f'serial log lacks {missing[0]!r}')
    outcome.code = EXIT_OK if outcome.expected_ok else EXIT_ERROR
    print(f'expected crash: {outcome.describe()}')


def print_plan_results(entries, outcomes):
    """Per-run outcome lines; returns the aggregate Counts."""
    total = Counts()
    width = max(len(entry['name']) for entry in entries)
    print()
    print('Plan results:')
    for index, entry in enumerate(entries):
        if index >= len(outcomes):
            print(f'  {entry["name"]:<{width}}  NOT RUN')
            continue
        outcome = outcomes[index]
        print(f'  {entry["name"]:<{width}}  {outcome.describe()}')
        if not outcome.expect_failure:
            total.add(outcome.counts)
            # A crash, timeout, malformed log or failed build must show in
            # the closing line too, not only in the exit status.
            if outcome.code >= EXIT_ERROR and outcome.code != EXIT_INTERRUPTED:
                total.failed += 1
        elif not outcome.expected_ok:
            total.failed += 1
    return total


def cmd_plan(args):
    try:
        entries = load_plan(args.file)
    except PlanError as exc:
        print(f'error: {exc}')
        print(Counts().final_line())
        return EXIT_ERROR
    plan_dir = Path(args.file).resolve().parent
    outcomes = []
    for entry in entries:
        print(f'==== run {entry["name"]} ====', flush=True)
        config = plan_run_config(entry, args, plan_dir)
        outcome = execute_run(config)
        check_expected_total(entry, outcome)
        check_expected_crash(entry, outcome, config.build_dir)
        print(f'run {entry["name"]}: {outcome.describe()}')
        outcomes.append(outcome)
        if outcome.code == EXIT_INTERRUPTED:
            break
    total = print_plan_results(entries, outcomes)
    code = max(outcome.code for outcome in outcomes)
    if len(outcomes) < len(entries):
        code = max(code, EXIT_INTERRUPTED)
    print(total.final_line())
    return code


def read_selftest_expectations(path):
    """Lines "kunit-selftest-expect-<key>: value" at the top of a sample log."""
    expect = {'exit': None, 'last': None, 'output': []}
    with open(path, encoding='utf-8', errors='replace') as handle:
        for line in handle:
            match = re.match(r'kunit-selftest-expect-(exit|last|output):\s?(.*)',
                             line.rstrip('\r\n'))
            if not match:
                continue
            key, value = match.groups()
            if key == 'output':
                expect['output'].append(value)
            else:
                expect[key] = int(value) if key == 'exit' else value
    return expect


def run_selftest_case(path):
    """Parse one sample log quietly; returns a list of mismatches."""
    expect = read_selftest_expectations(path)
    captured = io.StringIO()
    with contextlib.redirect_stdout(captured):
        code = cmd_parse(argparse.Namespace(file=path, raw_output=False))
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
    return problems, output


def cmd_selftest(args):
    directory = Path(args.dir) if args.dir else SELFTEST_DIR
    samples = sorted(directory.glob('*.txt'))
    counts = Counts()
    for path in samples:
        problems, output = run_selftest_case(path)
        if problems:
            counts.failed += 1
            print(f'[FAILED] {path.name}: {"; ".join(problems)}')
            print_lines('  output:', output.rstrip('\n').splitlines())
        else:
            counts.passed += 1
            print(f'[PASSED] {path.name}')
    if not samples:
        print(f'error: no sample logs (*.txt) in {display_path(directory)}')
    print(counts.final_line())
    return EXIT_OK if samples and not counts.failed else EXIT_ERROR


# ---------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------

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


def add_qemu_options(parser):
    parser.add_argument('--cpus', type=positive_int, default=4, metavar='N',
                        help='number of virtual CPUs (default 4)')
    parser.add_argument('--timeout', type=positive_float, default=300, metavar='S',
                        help='seconds before QEMU is killed (default 300)')
    parser.add_argument('--icount', action='store_true',
                        help='run QEMU with -icount shift=0,align=off,sleep=off')
    parser.add_argument('--qemu_args', default='', metavar='STR',
                        help='extra QEMU arguments (shell-style split)')
    parser.add_argument('--raw_output', action='store_true',
                        help='echo every serial console line')
    parser.add_argument('--no_build', action='store_true',
                        help='do not build; boot the existing kernel.iso')


def build_arg_parser():
    parser = argparse.ArgumentParser(
        prog='kunit.py', description='Build, boot and run the kernel tests in QEMU.',
        epilog='See the docstring at the top of scripts/kunit.py for details.')
    sub = parser.add_subparsers(dest='command', required=True, metavar='COMMAND')

    run = sub.add_parser('run', help='build the kernel, boot it and report the tests')
    run.add_argument('--kconfig_add', action='append', default=[], metavar='FILE',
                     help='Kconfig fragment to merge into defconfig (repeatable)')
    run.add_argument('--filter', metavar='GLOB',
                     help='only run tests matching GLOB (kunit.filter_glob=GLOB)')
    run.add_argument('--kernel_args', action='append', default=[], metavar='ARG',
                     help='append ARG to the kernel command line (repeatable)')
    run.add_argument('--build_dir', metavar='DIR',
                     help='build directory (default <repo>/build/kunit)')
    run.add_argument('--expect_failure', action='store_true',
                     help='succeed only if the run finishes with failed tests')
    add_qemu_options(run)
    run.set_defaults(func=cmd_run)

    plan = sub.add_parser('plan', help='run every configuration of a JSON plan')
    plan.add_argument('file', metavar='FILE', help='JSON list of runs')
    add_qemu_options(plan)
    plan.set_defaults(func=cmd_plan)

    parse = sub.add_parser('parse', help='parse a saved serial log')
    parse.add_argument('file', metavar='FILE')
    parse.add_argument('--raw_output', action='store_true',
                       help='echo every line of the log')
    parse.set_defaults(func=cmd_parse)

    selftest = sub.add_parser('selftest', help='check the parser on sample logs')
    selftest.add_argument('dir', nargs='?', metavar='DIR',
                          help='directory of *.txt samples '
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
