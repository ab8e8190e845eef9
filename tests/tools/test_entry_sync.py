# SPDX-License-Identifier: GPL-2.0
"""scripts/check_entry_sync.py: the entry paths of the test kernel reach no
patchable site before serializing; without its serializing point the
SYSCALL entry would (the tracepoint's site comes next); and a kernel built
with a site planted on every entry path (CONFIG_TEXT_SYNC_PLANT) fails to
link, the check naming each site."""
import sys
import unittest

from hosttools import PYTHON, REPO, built, make, run

sys.path.insert(0, str(REPO / 'scripts'))
import check_entry_sync  # noqa: E402

CHECK = 'scripts/check_entry_sync.py'
PLANT_BUILD = 'build/test-entry-plant'
PLANT_CONFIG = 'tests/configs/text_sync_plant.config'


class EntrySyncTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.vmlinux = str(built('vmlinux'))

    def test_test_kernel_passes(self):
        out = run([PYTHON, CHECK, self.vmlinux])
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertRegex(out.stdout, r'\d+ entries and 1 wake-up')
        self.assertIn('reach none of', out.stdout)

    def test_without_the_syscall_point(self):
        """The SYSCALL entry's serializing point taken away: the walk goes
        on into the sys_enter tracepoint's site, and says so."""
        k = check_entry_sync.Kernel(self.vmlinux, 'objdump')
        points = k.points()
        start = k.sym('entry_SYSCALL_64')
        mine = [p for p in points[check_entry_sync.ENTER]
                if 0 <= p - start < 0x100]
        self.assertEqual(len(mine), 1, 'one serializing point in the entry')
        points[check_entry_sync.ENTER].remove(mine[0])
        k.points = lambda: points
        problems = check_entry_sync.check(k)[0]
        self.assertTrue(any(p.startswith('entry_SYSCALL_64: reaches the '
                                         'jump label site (key '
                                         '__tracepoint_sys_enter')
                            for p in problems), problems)

    def test_planted_sites_fail_the_build(self):
        """Takes a build of its own (defconfig and the plant), once (make
        test starts it as a copy of build/test-run, scripts/seed_build.py)."""
        out = make(f'O={PLANT_BUILD}', f'FRAGMENTS={PLANT_CONFIG}',
                   'fragconfig')
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
        out = make('-j2', f'O={PLANT_BUILD}', f'{PLANT_BUILD}/vmlinux')
        self.assertNotEqual(out.returncode, 0, out.stdout[-2000:])
        err = out.stderr
        for where in ('entry_SYSCALL_64: reaches the jump label site (key '
                      'text_sync_plant_key) at entry_SYSCALL_64+',
                      'reaches the jump label site (key text_sync_plant_key)'
                      ' at text_sync_plant_fn+',
                      'reaches the jump label site (key text_sync_plant_key)'
                      ' at nmi_entry+',
                      'the wake-up after the halt at arch_cpu_idle_halt+',
                      '4 problem(s)'):
            self.assertIn(where, err)
        self.assertIn('path: ', err)


if __name__ == '__main__':
    unittest.main()
