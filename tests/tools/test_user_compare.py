# SPDX-License-Identifier: GPL-2.0
"""scripts/user_compare.py's pure parts: which console lines are the
program's, the diff verdict, the skip without a Linux package; and that
the committed expected output is Linux's (its header says so) and the
program's line set."""
import contextlib
import io
import sys
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from hosttools import REPO

sys.path.insert(0, str(REPO / 'scripts'))
import bench_linux  # noqa: E402
import user_compare as uc  # noqa: E402

CONSOLE = '''\
[    0.000000] Linux version 6.1.0
uconform: start: uconform
syscall: uconform[1]: unknown system call 89: -ENOSYS
uconform[1]: segfault at 0 ip 0000000000403c29 sp 00007ffffffdd930 error 6
\x1b[0muconform: fault_null_write: signaled 11 core 0 (status 0xb)   \r
uconform: done: uconform
reboot: Power down
'''


class ProgramLines(unittest.TestCase):
    def test_only_the_programs_lines(self):
        self.assertEqual(uc.program_lines(CONSOLE.splitlines()), [
            'uconform: start: uconform',
            'uconform: fault_null_write: signaled 11 core 0 (status 0xb)',
            'uconform: done: uconform'])

    def test_kernel_messages_naming_the_program_are_not_its_lines(self):
        self.assertEqual(uc.program_lines(
            ['uconform[1]: segfault at 0', 'syscall: uconform[1]: x']), [])


class Programs(unittest.TestCase):
    def test_each_program_its_lines(self):
        lines = ['uthread: start: uthread', 'uconform: start: uconform']
        self.assertEqual(uc.program_lines(lines, 'uthread'),
                         ['uthread: start: uthread'])

    def test_expected_beside_the_first(self):
        first = Path('tests/uconform.linux.out')
        self.assertEqual(uc.expected_file(str(first), 'uconform', 0), first)
        self.assertEqual(uc.expected_file(str(first), 'uthread', 1),
                         Path('tests/uthread.linux.out'))
        self.assertIsNone(uc.expected_file(None, 'uthread', 1))

    def test_uconform_keeps_its_file_names(self):
        self.assertEqual(uc.file_name('uconform', 'linux.txt'), 'linux.txt')
        self.assertEqual(uc.file_name('uthread', 'linux.txt'),
                         'uthread.linux.txt')


class Diff(unittest.TestCase):
    def quiet(self, *args):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            same = uc.diff(*args)
        return same, out.getvalue()

    def test_same(self):
        self.assertEqual(self.quiet('a', ['x', 'y'], 'b', ['x', 'y']),
                         (True, ''))

    def test_different_prints_the_lines(self):
        same, text = self.quiet('linux', ['uconform: a: 0'], 'ours',
                                ['uconform: a: -1 EFAULT'])
        self.assertFalse(same)
        self.assertIn('-uconform: a: 0', text)
        self.assertIn('+uconform: a: -1 EFAULT', text)


class Skip(unittest.TestCase):
    def test_no_package_is_one_line_and_success(self):
        with tempfile.TemporaryDirectory() as tmp, \
                mock.patch.object(uc, 'build_prog',
                                  return_value=Path(tmp) / 'uconform'), \
                mock.patch.object(bench_linux, 'fetch_kernel',
                                  side_effect=bench_linux.Skip('no apt')):
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                rc = uc.main(['--out', tmp])
        self.assertEqual(rc, uc.EXIT_OK)
        self.assertEqual(out.getvalue(), 'user-compare: skipped: no apt\n')

    def test_missing_expected_file(self):
        with tempfile.TemporaryDirectory() as tmp, \
                mock.patch.object(uc, 'build_prog',
                                  return_value=Path(tmp) / 'uconform'):
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                rc = uc.main(['--out', tmp, '--expected',
                              str(Path(tmp) / 'none')])
        self.assertEqual(rc, uc.EXIT_USAGE)
        self.assertIn('No such file', out.getvalue())


class Expected(unittest.TestCase):
    """tests/uconform.linux.out: Linux's, one line per check."""

    def setUp(self):
        self.text = (REPO / 'tests' / 'uconform.linux.out').read_text()

    def test_produced_by_linux(self):
        self.assertIn("Debian's Linux 6.1", self.text.splitlines()[0])
        self.assertIn('--write-expected', self.text)

    def test_starts_ends_and_checks_every_kind(self):
        lines = [x for x in self.text.splitlines()
                 if x.startswith(uc.PREFIX)]
        self.assertEqual(lines[0], 'uconform: start: uconform')
        self.assertEqual(lines[-1], 'uconform: done: uconform')
        names = {x.split(':')[1].strip() for x in lines}
        for name in ('write_null', 'pipe_kaddr', 'read_fd99', 'nosys_999',
                     'fault_div0', 'fault_hlt', 'fault_kjump',
                     'sigpipe_default', 'kill_blocked_sigkill',
                     'schedstats_write_2', 'sig_read_eintr', 'pingpong'):
            self.assertIn(name, names)


if __name__ == '__main__':
    unittest.main()
