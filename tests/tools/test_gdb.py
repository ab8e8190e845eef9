# SPDX-License-Identifier: GPL-2.0
"""The gdb commands of scripts/gdb/ against the console, on the test
kernel (build/test-default) under QEMU's gdb stub, 4 CPUs (about 60 s):
scripts/gdb_check.py must pass every check of its parts:

- halted at the reset vector, the commands say what they cannot read;
- the same state, read twice: sk-keys, sk-sites (a kernel key, a
  tracepoint, a module's key), sk-calls and sk-lsmod print the console's
  keys, sites, calls and lsmod lines, sk-dmesg holds its dmesg, and
  every site agrees with its key; sk-batch says no batch is in flight;
- sk-symbols loads a module's .ko at its addresses: a breakpoint in the
  module's exit stops rmmod there, in the module's source;
- stopped in the middle of a flip, sk-batch shows the batch at step 2
  then 3, every CPU's reference, sk-sites every site in flight;
- a site spoilt through the stub is named by sk-sites, and when the
  console then flips its key the kernel refuses it and panics: stopped
  in the panic, sk-sites, sk-keys, sk-batch and sk-dmesg still read;
  a key's entries pointer and the module list spoilt are said corrupt.
"""
import re
import shutil
import tempfile
import unittest

from hosttools import BUILD, PYTHON, built, make, run


class GdbCommandsTest(unittest.TestCase):
    def test_gdb_against_console(self):
        vmlinux = built('vmlinux')
        built('tests/modules/jump_label/jlm_base.ko')
        iso_dir = f'{BUILD}/gdb'
        res = make(f'O={BUILD}', f'ISO_DIR={iso_dir}', 'CMDLINE=shell', 'iso')
        self.assertEqual(res.returncode, 0, res.stdout[-2000:] +
                         res.stderr[-2000:])
        logs = tempfile.mkdtemp(prefix='gdb_check.')
        res = run([PYTHON, 'scripts/gdb_check.py', '--iso',
                   f'{iso_dir}/kernel.iso', '--vmlinux', str(vmlinux),
                   '--log-dir', logs])
        self.assertEqual(res.returncode, 0, res.stdout + res.stderr)
        m = re.search(r'gdb_check: (\d+) passed, (\d+) failed', res.stdout)
        self.assertTrue(m, res.stdout)
        self.assertEqual(int(m.group(2)), 0, res.stdout)
        self.assertGreaterEqual(int(m.group(1)), 30, res.stdout)
        for what in ('before boot, every command', 'sk-keys against keys',
                     'sk-sites names the spoilt', 'stops at the breakpoint',
                     'stopped in round 1', 'in the panic, sk-sites',
                     'a module list spoilt'):
            self.assertIn(what, res.stdout)
        shutil.rmtree(logs, ignore_errors=True)


if __name__ == '__main__':
    unittest.main()
