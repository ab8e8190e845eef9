# SPDX-License-Identifier: GPL-2.0
"""scripts/testsched.py: a job that can run on fewer cores starts on the
one that is free only when waiting for all of them would take longer than
the job, is timed as on all its cores, and never delays the longest job
waiting."""

import sys
import time
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / 'scripts'))

import testsched  # noqa: E402


def sleeper(seconds):
    def run():
        time.sleep(seconds)
        return testsched.JobResult(True, 'slept')
    return run


def schedule(*jobs, slots=2):
    return testsched.Scheduler(slots).run(list(jobs))


class ElasticTest(unittest.TestCase):
    def test_starts_on_the_free_core_when_the_wait_is_long(self):
        boot = testsched.Job('boot', sleeper(0.4), estimate=5.0)
        build = testsched.Job('build', sleeper(0.05), cores=2, min_cores=1,
                              estimate=1.0)
        schedule(boot, build)
        self.assertEqual(build.granted, 1)
        self.assertLess(build.start, boot.end)
        self.assertAlmostEqual(build.full_elapsed, build.elapsed / 2)

    def test_waits_for_both_cores_when_the_wait_is_short(self):
        # after (both cores) keeps boot first in line, then goes first.
        boot = testsched.Job('boot', sleeper(0.3), estimate=0.5)
        after = testsched.Job('after', sleeper(0.0), cores=2, estimate=3.0,
                              deps=[boot])
        build = testsched.Job('build', sleeper(0.05), cores=2, min_cores=1,
                              estimate=2.0)
        schedule(boot, after, build)
        self.assertEqual(build.granted, 2)
        self.assertGreaterEqual(build.start, boot.end)
        self.assertEqual(build.full_elapsed, build.elapsed)

    def test_not_elastic_waits(self):
        boot = testsched.Job('boot', sleeper(0.3), estimate=5.0)
        build = testsched.Job('build', sleeper(0.05), cores=2, estimate=1.0)
        schedule(boot, build)
        self.assertEqual(build.granted, 2)
        self.assertGreaterEqual(build.start, boot.end)

    def test_does_not_delay_the_longest_waiting(self):
        # head needs both cores once boot ends (estimate 3); a build on
        # one core would take 2 x 2.5 and end after that: it waits too.
        pre = testsched.Job('pre', sleeper(0.0), estimate=0.1)
        boot = testsched.Job('boot', sleeper(0.3), estimate=3.0)
        head = testsched.Job('head', sleeper(0.05), cores=2, estimate=10.0,
                             deps=[pre])
        build = testsched.Job('build', sleeper(0.05), cores=2, min_cores=1,
                              estimate=2.5)
        schedule(pre, boot, head, build)
        self.assertGreaterEqual(head.start, boot.end)
        self.assertGreaterEqual(build.start, head.end)
        self.assertEqual(build.granted, 2)

    def test_cores_all_given_back(self):
        boot = testsched.Job('boot', sleeper(0.2), estimate=5.0)
        build = testsched.Job('build', sleeper(0.05), cores=2, min_cores=1,
                              estimate=1.0)
        last = testsched.Job('last', sleeper(0.0), cores=2, estimate=0.1,
                             deps=[boot, build])
        done = schedule(boot, build, last)
        self.assertEqual([j.name for j in done][-1], 'last')
        self.assertEqual(last.granted, 2)
        self.assertTrue(all(j.result.ok for j in done))


if __name__ == '__main__':
    unittest.main()
