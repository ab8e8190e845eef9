# SPDX-License-Identifier: GPL-2.0
"""The verdict of one run: decide() is the only place that turns what
happened (build, parsed KTAP, QEMU status, timeout) and what was expected
(expect_failure, expect_total, expect_crash, expect_log) into an exit code.
"""

import re
from dataclasses import dataclass, field

from ktap import Counts
from qemu import (STATUS_FAIL, STATUS_NO_KERNEL, STATUS_NO_TESTS,
                  STATUS_PANIC, STATUS_PASS, STATUS_RESET, QemuResult)

EXIT_OK, EXIT_FAILED, EXIT_ERROR, EXIT_BUILD = 0, 1, 2, 3
EXIT_INTERRUPTED = 130


@dataclass
class Expectations:
    allow_empty: bool = False           # no tests is fine (expect_total 0)
    expect_failure: bool = False        # must end cleanly with failed tests
    expect_total: int | None = None     # exact number of cases reported
    expect_crash: list | None = None    # must panic; regexes the log must match
    expect_log: list | None = None      # regexes the log must match as well
    # {suite: (case names, where it was built)} the run must report, each
    # with at least those cases (cases None: it could not be built);
    # scripts/kunit_suites.py computes it from the build.
    expect_suites: dict | None = None


@dataclass
class Happened:
    """What a run produced; qemu is None when a saved log was parsed."""
    counts: Counts = field(default_factory=Counts)
    ktap_errors: list = field(default_factory=list)
    where: str = ''                     # where the KTAP output stopped
    panic: str | None = None            # the first "Kernel panic" line
    log: str = ''                       # the serial console
    qemu: QemuResult | None = None
    build_error: str | None = None
    interrupted: bool = False
    suites: dict = field(default_factory=dict)  # suite -> cases reported


@dataclass
class Verdict:
    counts: Counts
    code: int
    run_code: int                       # the code before the expectations
    reasons: list                       # why the run itself did not pass
    crashed: bool = False
    expected: str | None = None         # 'failure' or 'crash'
    expected_ok: bool = False
    expect_problem: str = ''            # why the expected crash (or log) was not seen
    missing: list = field(default_factory=list)  # suites that did not report

    def describe(self):
        """One line for the plan table."""
        if self.expected == 'crash':
            if self.expected_ok:
                return 'expected crash observed, with the expected oops lines'
            return ('FAILED: expected crash not observed as described; '
                    f'{self.expect_problem}')
        if self.expected == 'failure':
            if self.expected_ok:
                return f'expected failure observed ({self.counts.failed} failed)'
            if self.expect_problem:
                return ('FAILED: expected failure observed, but the '
                        f'{self.expect_problem}')
            return ('FAILED: expected failure not observed; run '
                    f'{self._summary(self.run_code)}')
        return self._summary(self.code)

    def messages(self):
        """The error and expectation lines printed after a run's report."""
        lines = [f'error: {reason}' for reason in self.reasons]
        if self.expected == 'crash':
            lines.append(f'expected crash: {self.describe()}')
        elif self.expected == 'failure':
            lines += self._failure_messages()
        return lines

    def plan_counts(self):
        """What the run adds to a plan's closing line: an expected failure
        or crash one passed test when it was observed, one failure when
        not; any other run its counts, plus one failure for a crash, a
        malformed log or a failed build."""
        if self.expected:
            return Counts(passed=1) if self.expected_ok else Counts(failed=1)
        counts = Counts().add(self.counts)
        if self.code not in (EXIT_OK, EXIT_FAILED, EXIT_INTERRUPTED):
            counts.failed += 1
        return counts

    def _failure_messages(self):
        if self.expected_ok:
            return [f'expected failure observed: {self.counts.failed} failed']
        if self.expect_problem:
            return [f'error: expected failure observed, but the {self.expect_problem}']
        if self.run_code == EXIT_INTERRUPTED:
            return []
        what = ('all tests passed' if self.run_code == EXIT_OK
                else f'the run ended with exit code {self.run_code}')
        return [f'error: expected failure not observed: {what}']

    def _summary(self, code):
        counts = self.counts.final_line()
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


def decide(happened, expect=None):
    """The verdict and exit code of a run."""
    expect = expect or Expectations()
    reasons, crash = _run_reasons(happened, expect.allow_empty)
    code = _run_code(happened, reasons)
    verdict = Verdict(counts=happened.counts, code=code, run_code=code,
                      reasons=reasons, crashed=crash)
    if expect.expect_crash is not None:
        _expect_crash(verdict, happened, expect.expect_crash)
    elif expect.expect_failure:
        _expect_failure(verdict)
    elif expect.expect_total is not None:
        _expect_total(verdict, expect.expect_total)
    if expect.expect_log:
        _expect_log(verdict, happened, expect.expect_log)
    if expect.expect_suites is not None and expect.expect_crash is None:
        _expect_suites(verdict, happened, expect.expect_suites)
    if happened.interrupted:
        verdict.code = EXIT_INTERRUPTED
    return verdict


def _run_reasons(happened, allow_empty):
    """Why the run did not pass cleanly, and whether it crashed."""
    if happened.build_error:
        return [happened.build_error], False
    crash = _crash_reason(happened)
    reasons = [crash] if crash else []
    if happened.qemu is None or not happened.qemu.error:
        reasons += [f'malformed KTAP: {error}' for error in happened.ktap_errors]
    if happened.qemu is not None and not crash:
        reasons += _status_mismatch(happened.qemu.status, happened.counts)
    if not reasons and happened.counts.total == 0 and not allow_empty:
        reasons.append(_no_tests_reason(happened.qemu))
    return reasons, crash is not None


def _no_tests_reason(result):
    if result is not None and result.status == STATUS_NO_TESTS:
        return ('ran no tests: no test matches the filters (QEMU exit '
                f'status {STATUS_NO_TESTS})')
    return 'ran no tests'


def _run_code(happened, reasons):
    if happened.interrupted:
        return EXIT_INTERRUPTED
    if happened.build_error:
        return EXIT_BUILD
    if reasons:
        return EXIT_ERROR
    return EXIT_FAILED if happened.counts.failed else EXIT_OK


def _crash_reason(happened):
    """One line when the kernel did not end with a clean power-off."""
    result, where = happened.qemu, happened.where
    if happened.interrupted:
        return f'interrupted by user {where}'
    if result is not None and result.error:
        return f'QEMU error: {result.error}'
    if happened.panic:
        killed = (' (QEMU then killed by the timeout)'
                  if result is not None and result.timed_out else '')
        return f'kernel panic {where}: {happened.panic}{killed}'
    if result is None:
        return None
    if result.timed_out:
        return f'timeout: QEMU killed after {result.timeout:g}s {where}'
    return _status_reason(result.status, where)


def _status_reason(status, where):
    if status == STATUS_PANIC:
        return f'kernel panic (QEMU exit status {status}) {where}'
    if status == STATUS_RESET:
        return f'crash: triple fault or reset (QEMU exit status 0) {where}'
    if status == STATUS_NO_KERNEL:
        return ('boot failed: GRUB could not load the kernel (QEMU exit '
                f'status {status}; out of memory: too little RAM) {where}')
    if status < 0:
        return f'QEMU killed by signal {-status} {where}'
    if status not in (STATUS_PASS, STATUS_FAIL, STATUS_NO_TESTS):
        return f'QEMU error: exit status {status} {where}'
    return None


def _status_mismatch(status, counts):
    if status == STATUS_PASS and counts.failed:
        return [f'inconsistent: QEMU exit status {status} (all passed) but '
                f'{counts.failed} failed']
    if status == STATUS_FAIL and not counts.failed:
        return [f'inconsistent: QEMU exit status {status} (tests failed) but '
                'no failure was reported']
    if status == STATUS_NO_TESTS and counts.total:
        return [f'inconsistent: QEMU exit status {status} (no test '
                f'selected) but {counts.total} reported']
    return []


def _expect_failure(verdict):
    """The run must end cleanly (QEMU status 35) with failed tests."""
    verdict.expected = 'failure'
    verdict.expected_ok = verdict.run_code == EXIT_FAILED
    verdict.code = EXIT_OK if verdict.expected_ok else EXIT_ERROR


def _expect_total(verdict, want):
    """A passing run must report exactly `want` cases (proves a filter)."""
    if verdict.code == EXIT_OK and verdict.counts.total != want:
        verdict.reasons.append(f'expected {want} cases to run, '
                               f'got {verdict.counts.total}')
        verdict.code = EXIT_ERROR


def _missing(patterns, log):
    return [p for p in patterns if not re.search(p, log, re.MULTILINE)]


def _expect_log(verdict, happened, patterns):
    """A run that met its other expectations must also match every pattern."""
    missing = _missing(patterns, happened.log)
    if verdict.code != EXIT_OK or not missing:
        return
    problem = f'serial log lacks {missing[0]!r}'
    verdict.code = EXIT_ERROR
    if verdict.expected:
        verdict.expected_ok = False
        verdict.expect_problem = problem
    else:
        verdict.reasons.append(problem)


def _expect_crash(verdict, happened, patterns):
    """The kernel must panic and the serial log match every pattern."""
    missing = _missing(patterns, happened.log)
    verdict.expected = 'crash'
    if happened.build_error:
        verdict.expect_problem = 'the build failed'
    elif not verdict.crashed:
        verdict.expect_problem = 'the kernel did not crash'
    elif not happened.panic:
        verdict.expect_problem = 'no "Kernel panic" line on the console'
    elif missing:
        verdict.expect_problem = f'serial log lacks {missing[0]!r}'
    verdict.expected_ok = not verdict.expect_problem
    verdict.code = EXIT_OK if verdict.expected_ok else EXIT_ERROR


def _expect_suites(verdict, happened, suites):
    """A run that ended cleanly must report every suite its build holds
    (as its filter selects them), each with every case it declares."""
    if verdict.run_code not in (EXIT_OK, EXIT_FAILED):
        return
    for name, (cases, where) in sorted(suites.items()):
        got = happened.suites.get(name)
        if cases is None and got is None:
            verdict.missing.append(f'suite {name} did not report: it is in '
                                   f'{where}')
        elif cases is None:
            verdict.missing.append(f'suite {name} reported, from a file '
                                   f'left by an earlier build: it is in '
                                   f'{where}')
        elif got is None:
            verdict.missing.append(f'suite {name} did not report, although '
                                   f'built ({where}, {len(cases)} cases)')
        elif got < len(cases):
            verdict.missing.append(f'suite {name} reported {got} of the '
                                   f'{len(cases)} cases it declares ({where})')
    if not verdict.missing:
        return
    verdict.code = EXIT_ERROR
    if verdict.expected:
        verdict.expected_ok = False
        verdict.expect_problem = verdict.missing[0]
    else:
        verdict.reasons += verdict.missing
