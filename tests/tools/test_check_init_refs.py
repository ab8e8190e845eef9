# SPDX-License-Identifier: GPL-2.0
"""scripts/check_init_refs.py (every vmlinux link): nothing that outlives
boot refers to __init code or __initdata. Small objects built here (gcc)
plant a call from .text into .init.text, a pointer in .data to
.init.data, an export of an __init function and a static function's
call into init text, and see the check fail naming the referring
function; init code calling init code or ordinary code, a jump-table
entry in init text and the boot entry's call pass."""
import subprocess
import tempfile
import textwrap
import unittest
from pathlib import Path

from hosttools import PYTHON, run

CFLAGS = ['-O2', '-fno-pic', '-fno-pie', '-ffreestanding',
          '-fno-asynchronous-unwind-tables', '-c']
HEADER = '''
#define __init __attribute__((section(".init.text"), noinline, cold))
#define __initdata __attribute__((section(".init.data")))
int __init boot_only(int x);
int plain(int x);
'''
# The definitions every case links against.
LIB = HEADER + '''
int __init boot_only(int x) { return x + 1; }
int plain(int x) { return x * 2; }
int __initdata boot_table[4] = { 1, 2, 3, 4 };
'''


class CheckInitRefsTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = Path(self.tmp.name)

    def tearDown(self):
        self.tmp.cleanup()

    def check(self, text):
        objs = []
        for name, body in (('lib', LIB), ('user', HEADER + text)):
            src = self.dir / f'{name}.c'
            src.write_text(textwrap.dedent(body))
            obj = src.with_suffix('.o')
            subprocess.run(['gcc', *CFLAGS, '-o', str(obj), str(src)],
                           check=True)
            objs.append(str(obj))
        (self.dir / 'objs').write_text(' '.join(objs) + '\n')
        return run([PYTHON, 'scripts/check_init_refs.py',
                    str(self.dir / 'objs')])

    def assert_fails(self, out, where, target):
        self.assertEqual(out.returncode, 1, out.stdout + out.stderr)
        self.assertRegex(out.stderr, rf'user\.o: {where}\+0x[0-9a-f]+ '
                         rf'\(\S+\) refers to {target}, in memory '
                         'free_initmem\\(\\) frees')
        self.assertIn('1 references to init memory', out.stderr)

    def assert_passes(self, out):
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
        self.assertIn('no reference to init memory', out.stdout)

    def test_text_calls_init(self):
        self.assert_fails(self.check('''
            int late(int x) { return boot_only(x) + 1; }
        '''), 'late', 'boot_only')

    def test_static_text_calls_own_init(self):
        # The call resolves to a local symbol or to the section itself.
        self.assert_fails(self.check('''
            static int __init setup_once(int x) { return x ^ 5; }
            int late(int x) { return setup_once(x) * 3; }
        '''), 'late', r'(setup_once|\.init\.text)')

    def test_data_points_to_initdata(self):
        self.assert_fails(self.check('''
            extern int boot_table[4];
            int *kept = boot_table;
        '''), r'\.data', 'boot_table')

    def test_export_of_init_function(self):
        self.assert_fails(self.check('''
            __attribute__((section("__ksymtab"), used))
            static void *const ks = boot_only;
        '''), '__ksymtab', 'boot_only')

    def test_init_calls_init_and_plain(self):
        self.assert_passes(self.check('''
            int __init setup(int x) { return boot_only(x) + plain(x); }
            int late(int x) { return plain(x) - 1; }
        '''))

    def test_jump_table_entry_in_init_text(self):
        # Jump labels skip an entry in freed init text.
        self.assert_passes(self.check('''
            int __init setup(int x)
            {
                asm goto("1: jmp %l[no]\\n"
                         ".pushsection __jump_table, \\"aw\\"\\n"
                         ".long 1b - ., %l[no] - .\\n"
                         ".popsection" : : : : no);
                return x;
            no:
                return x + 1;
            }
        '''))

    def test_unreadable_list(self):
        out = run([PYTHON, 'scripts/check_init_refs.py',
                   str(self.dir / 'missing')])
        self.assertEqual(out.returncode, 2)
        self.assertIn('check_init_refs:', out.stderr)


if __name__ == '__main__':
    unittest.main()
