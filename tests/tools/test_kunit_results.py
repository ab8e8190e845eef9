# SPDX-License-Identifier: GPL-2.0
"""The results files of make test (scripts/kunit_results.py): the KernelCI
JSON and the JUnit XML of a plan hold exactly what its closing line
counts, for every kind of run: all passed, failures and skips, expected
failures (# TODO), a crash, an expected failure observed and one not."""
import contextlib
import io
import json
import sys
import unittest
import xml.etree.ElementTree as ET

from hosttools import REPO

sys.path.insert(0, str(REPO / 'scripts'))
import kunit  # noqa: E402
import kunit_results  # noqa: E402
from ktap import Counts  # noqa: E402
from qemu import QemuResult  # noqa: E402
from verdict import Expectations, decide  # noqa: E402

SAMPLES = REPO / 'tests' / 'kunit_runner_selftest'


def record(name, sample, status, expect=None, timed_out=False):
    lines = kunit.read_sample(SAMPLES / sample)[1]
    with contextlib.redirect_stdout(io.StringIO()):
        session = kunit.parse_lines(lines)
        happened = session.happened(QemuResult(timeout=60, status=status,
                                               timed_out=timed_out))
    verdict = decide(happened, expect or Expectations())
    return kunit_results.RunRecord(name=name, verdict=verdict,
                                   suites=session.parser.suites())


class ResultsTest(unittest.TestCase):
    def setUp(self):
        self.records = [
            record('pass', 'all_pass.txt', 33),
            record('mixed', 'example_mixed.txt', 35),
            record('marked', 'directives.txt', 33),
            record('crash', 'panic.txt', 37),
            record('xfail_seen', 'example_mixed.txt', 35,
                   Expectations(expect_failure=True)),
            record('xfail_missed', 'all_pass.txt', 33,
                   Expectations(expect_failure=True)),
        ]
        self.total = Counts()
        for r in self.records:
            self.total.add(r.verdict.plan_counts())

    def test_failed_names_match_the_failed_count(self):
        group = kunit_results.to_json(self.records, 'make test')
        failed = kunit_results.failed_json(group)
        self.assertEqual(len(failed), self.total.failed)
        self.assertTrue(failed)
        for name in failed:
            self.assertTrue(name.startswith('make test.'), name)
        self.assertTrue(any(n.startswith('make test.crash.') for n in failed),
                        failed)
        self.assertFalse(any(n.startswith('make test.pass.') for n in failed),
                         failed)

    def test_json_counts_the_closing_line(self):
        group = kunit_results.to_json(self.records, 'make test')
        again = json.loads(json.dumps(group))
        self.assertEqual(kunit_results.count_json(again), self.total)
        self.assertEqual([g['name'] for g in again['sub_groups']],
                         [r.name for r in self.records])
        for key in ('name', 'arch', 'defconfig', 'build_environment',
                    'sub_groups', 'test_cases', 'lab_name', 'kernel', 'job',
                    'git_branch'):
            self.assertIn(key, again)
        statuses = {c['status'] for g in again['sub_groups']
                    for s in g['sub_groups'] for c in s['test_cases']}
        self.assertLessEqual(statuses, {'PASS', 'FAIL', 'SKIP', 'XFAIL'})
        crash = again['sub_groups'][3]
        self.assertEqual([c['status'] for c in crash['test_cases']], ['ERROR'])
        self.assertEqual(again['sub_groups'][4]['test_cases'],
                         [{'name': 'expected failure', 'status': 'PASS'}])
        self.assertEqual(again['sub_groups'][5]['test_cases'],
                         [{'name': 'expected failure', 'status': 'FAIL'}])

    def test_junit_counts_the_closing_line(self):
        group = kunit_results.to_json(self.records, 'make test')
        data = kunit_results.to_junit(group)
        root = ET.fromstring(data)
        self.assertEqual(root.tag, 'testsuites')
        counts = kunit_results.count_junit(data)
        self.assertEqual((counts.passed, counts.failed, counts.skipped),
                         (self.total.passed + self.total.xfail,
                          self.total.failed, self.total.skipped))
        names = [s.get('name') for s in root.iter('testsuite')]
        self.assertIn('mixed.' + self.records[1].suites[0].label, names)
        self.assertEqual(int(root.get('tests')),
                         sum(1 for _ in root.iter('testcase')))


if __name__ == '__main__':
    unittest.main()
