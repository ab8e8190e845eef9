# SPDX-License-Identifier: GPL-2.0
"""scripts/check_callers.py (make buildcheck): every global function of a
build has a caller. A small build made here (gcc and ld: a "kernel" of two
objects, a module) plants an uncalled global function and sees the check
fail naming it and its file, then gives it callers of each kind the check
counts (a module, a table, a call resolved by the assembler, an inlined
call) and sees it pass; an export alone is not a caller. Last, the test
build of make test passes."""
import subprocess
import tempfile
import textwrap
import unittest
from pathlib import Path

from hosttools import BUILD, PYTHON, REPO, built, run

CFLAGS = ['-O2', '-g', '-fno-pic', '-fno-pie', '-ffreestanding',
          '-fno-asynchronous-unwind-tables', '-c']
# The "kernel" starts at start(), which calls used().
KERNEL_A = '''
int used(void) { return 1; }
int planted(int x) { return x * 3; }
'''
KERNEL_B = '''
int used(void);
void start(void) { used(); }
'''


class CheckCallersTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = Path(self.tmp.name)

    def tearDown(self):
        self.tmp.cleanup()

    def compile(self, name, text):
        src = self.dir / f'{name}.c'
        src.write_text(textwrap.dedent(text))
        subprocess.run(['gcc', *CFLAGS, '-o', str(src.with_suffix('.o')),
                        str(src)], check=True)
        return src.with_suffix('.o')

    def build(self, a=KERNEL_A, module=None):
        objs = [self.compile('a', a), self.compile('b', KERNEL_B)]
        subprocess.run(['ld', '-static', '-nostdlib', '-e', 'start', '-o',
                        str(self.dir / 'vmlinux')] + [str(o) for o in objs],
                       check=True)
        (self.dir / '.vmlinux.objs').write_text(
            ' '.join(str(o) for o in objs) + '\n')
        if module:
            obj = self.compile('m', module)
            subprocess.run(['ld', '-r', '-o', str(self.dir / 'm.ko'),
                            str(obj)], check=True)
        return run([PYTHON, 'scripts/check_callers.py', str(self.dir)])

    def assert_fails_on(self, out, *names):
        self.assertEqual(out.returncode, 1, out.stdout + out.stderr)
        for name in names:
            self.assertIn(f'check_callers: a.c: {name}() is a global '
                          'function that nothing calls or references',
                          out.stderr)
        self.assertIn(f'{len(names)} global functions without a caller',
                      out.stderr)

    def assert_passes(self, out):
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
        self.assertIn('every global function', out.stdout)

    def test_planted_function_fails(self):
        self.assert_fails_on(self.build(), 'planted')

    def test_export_is_not_a_caller(self):
        exported = KERNEL_A + ('__attribute__((section("__ksymtab"), used))\n'
                               'static void *const ks = planted;\n')
        self.assert_fails_on(self.build(exported), 'planted')

    def test_module_caller(self):
        self.assert_passes(self.build(module='''
            int planted(int x);
            int init_module(void) { return planted(2); }
            '''))

    def test_module_function_without_caller(self):
        out = self.build(KERNEL_A + 'int (*const tab[])(int) = { planted };\n',
                         module='''
            int init_module(void) { return 0; }
            int mod_orphan(void) { return 4; }
            ''')
        self.assertEqual(out.returncode, 1, out.stdout + out.stderr)
        self.assertIn('check_callers: m.c: mod_orphan() is a global function',
                      out.stderr)

    def test_table_caller(self):
        self.assert_passes(self.build(
            KERNEL_A + 'int (*const tab[])(int) = { planted };\n'))

    def test_own_file_callers(self):
        # A call the assembler resolves (same section, no relocation).
        self.assert_passes(self.build(KERNEL_A.replace(
            'int used(void) { return 1; }',
            'int planted(int x);\n'
            '__attribute__((noinline)) int used(void) '
            '{ return planted(7) + 1; }')))
        # A call inlined away.
        self.assert_passes(self.build(KERNEL_A.replace(
            'int used(void) { return 1; }', '') + '''
            int used(void) { return planted(1); }
            '''))

    def test_unreadable_build(self):
        out = run([PYTHON, 'scripts/check_callers.py', str(self.dir)])
        self.assertEqual(out.returncode, 2)
        self.assertIn('no ', out.stderr)

    def test_the_test_build_passes(self):
        built('vmlinux')
        out = run([PYTHON, 'scripts/check_callers.py', str(REPO / BUILD)])
        self.assert_passes(out)


if __name__ == '__main__':
    unittest.main()
