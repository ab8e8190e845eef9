# SPDX-License-Identifier: GPL-2.0
"""KTAP version 1 parser: the result tree and its counts.

No QEMU and no build here; scripts/kunit.py feeds it serial lines.
"""

import re
from dataclasses import dataclass, field

PASSED, FAILED, SKIPPED, INCOMPLETE = 'PASSED', 'FAILED', 'SKIPPED', 'INCOMPLETE'
XFAIL = 'XFAIL'

KTAP_HEADER = 'KTAP version 1'
ANSI_RE = re.compile(r'\x1b(?:\[[0-?]*[ -/]*[@-~]|[@-Z\\-_])')
CTRL_RE = re.compile(r'[\x00-\x08\x0b-\x1f\x7f]')
PLAN_RE = re.compile(r'1\.\.(\d+)\s*(?:#.*)?')
RESULT_RE = re.compile(r'(not ok|ok)\s+(\d+)(?:\s+(.*))?')
SUBTEST_RE = re.compile(r'#\s*Subtest:\s*(.*)')
# Directives (KTAP: "ok/not ok N name # DIRECTIVE reason"): SKIP with either
# result is a skip; TODO and XFAIL mark a test expected to fail, so "not ok"
# is an expected failure (xfail) and "ok" a pass. Others (TIMEOUT, ERROR)
# fall back to the result, as the KTAP spec asks.
DIRECTIVE_RE = re.compile(r'(SKIP|TODO|XFAIL)\b\s*(.*)', re.IGNORECASE)
EXPECT_FAIL = ('TODO', 'XFAIL')
STRUCTURAL = ('header', 'subtest', 'plan', 'result')


def clean(line):
    """A serial line without ANSI escapes and control characters."""
    return CTRL_RE.sub('', ANSI_RE.sub('', line))


@dataclass
class Counts:
    passed: int = 0
    failed: int = 0
    skipped: int = 0
    xfail: int = 0                    # expected failures (not ok # TODO)

    @property
    def total(self):
        return self.passed + self.failed + self.skipped + self.xfail

    def add(self, other):
        self.passed += other.passed
        self.failed += other.failed
        self.skipped += other.skipped
        self.xfail += other.xfail
        return self

    def add_status(self, status):
        if status == PASSED:
            self.passed += 1
        elif status == FAILED:
            self.failed += 1
        elif status == SKIPPED:
            self.skipped += 1
        elif status == XFAIL:
            self.xfail += 1

    def final_line(self):
        """"N passed, N failed", then ", N skipped" and ", N xfail" when
        not zero: other tools read this line, keep its start."""
        line = f'{self.passed} passed, {self.failed} failed'
        if self.skipped:
            line += f', {self.skipped} skipped'
        if self.xfail:
            line += f', {self.xfail} xfail'
        return line


@dataclass
class TestNode:
    """One result line ("ok N name"), with the subtests reported before it."""
    name: str
    number: int | None
    ok: bool | None
    directive: str | None = None      # 'SKIP', 'TODO' or 'XFAIL'
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
        if self.directive == 'SKIP':
            return SKIPPED
        if self.directive in EXPECT_FAIL and not self.ok:
            return PASSED if self.xpass else XFAIL
        return PASSED if self.ok else FAILED

    @property
    def xpass(self):
        """Passed although marked as expected to fail: "ok # TODO", or a
        "not ok # TODO" parent none of whose tests failed (its failure,
        the one expected, is nowhere)."""
        if self.directive not in EXPECT_FAIL:
            return False
        if self.ok or not self.children:
            return bool(self.ok)
        below = Counts()
        for child in self.children:
            below.add(child.counts())
        return below.failed == 0 and below.xfail == 0

    def counts(self):
        """Every leaf counts once; a "not ok" parent without failed children
        counts one extra failure."""
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

    def marked(self, path=()):
        """Yield (path, node) for every counted leaf whose directive changed
        its outcome or that passed despite one (SKIP, TODO, XFAIL)."""
        if not self.children:
            if self.status in (SKIPPED, XFAIL) or self.xpass:
                yield path, self
            return
        if self.xpass:
            yield path, self
        for child in self.children:
            yield from child.marked(path + (child.label,))

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
    in self.errors (any error makes the output "malformed").
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
        line = clean(raw_line).expandtabs(8).rstrip()
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
        if kind == 'diag' and indent < self.stack[-1].indent:
            return  # kernel output inside a subtest ("#PF: ..." in an oops)
        if structural:
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
