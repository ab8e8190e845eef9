# SPDX-License-Identifier: GPL-2.0
"""Static calls from the host side, against build/test-default:

- tests/modules/static_call/static_call_api_test.c, a suite written only
  against Linux's <linux/static_call.h>, builds unchanged out of tree
  (make M=<dir> from a Linux-style Makefile), and its static_call() sites
  are what the loader looks for: PLT32 relocations against __SCT__*
  trampolines right after a call (the in-tree build of the same file runs
  in the static_call_api suite);
- that M= build, copied to a directory outside the tree and put on an ISO
  with EXTRA_MODULES, boots on 4 CPUs: insmod at the console runs its
  suite, every case passes, with callers on every CPU during the updates
  (tests/static_call_oot_session.json; 100 of them, insmod's updates=,
  where the in-tree suite's SMP case makes 400), calls lists its calls, rmmod
  unloads it; then the second suite of the same API, a module using the
  static calls another module exports (static_call_api_mod_test.c over
  sca_provider.c, whose init is a selftest from __init code);
- static_call_update() with a function of another type does not build;
  with NULL or a function of the call's type it does;
- the kernel's table (scripts/static_call_table.c) lists every call site
  of the image, sorted.
"""
import re
import shutil
import tempfile
import unittest
from pathlib import Path

from elftools.elf.elffile import ELFFile
from elftools.elf.relocation import RelocationSection

from hosttools import BUILD, PYTHON, REPO, built, make, run

API_TEST = 'tests/modules/static_call/static_call_api_test.c'

TYPED = '''#include <linux/module.h>
#include <linux/static_call.h>
static int one(int x) { return x + 1; }
static __maybe_unused long other(int x, int y) { return x + y; }
DEFINE_STATIC_CALL(sc_typed, one);
static int __init typed_init(void)
{
	static_call_update(sc_typed, %s);
	return static_call(sc_typed)(1) == 2 ? 0 : -EINVAL;
}
module_init(typed_init);
MODULE_LICENSE("GPL");
'''


def tramp_sites(path):
    """(section, offset, opcode before) of each PLT32 reloc to __SCT__*."""
    out = []
    with open(path, 'rb') as f:
        elf = ELFFile(f)
        for sec in elf.iter_sections():
            if not isinstance(sec, RelocationSection):
                continue
            target = elf.get_section(sec['sh_info'])
            symtab = elf.get_section(sec['sh_link'])
            data = target.data() if target['sh_type'] != 'SHT_NOBITS' else b''
            for r in sec.iter_relocations():
                name = symtab.get_symbol(r['r_info_sym']).name
                if name.startswith('__SCT__') and r['r_info_type'] == 4:
                    off = r['r_offset']
                    out.append((target.name, name, data[off - 1]))
    return out


class OutOfTree(unittest.TestCase):
    def setUp(self):
        built('vmlinux')
        self.tmp = Path(tempfile.mkdtemp(prefix='staticcall-'))
        self.out = REPO / BUILD / ('extmod' + str(self.tmp))

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)
        shutil.rmtree(self.out, ignore_errors=True)

    def build(self, name, source):
        d = self.tmp / name
        d.mkdir()
        (d / f'{name}.c').write_text(source)
        (d / 'Makefile').write_text(
            'ifneq ($(KERNELRELEASE),)\n'
            f'obj-m += {name}.o\n'
            'else\n'
            'all:\n\t$(MAKE) -C $(KDIR) M=$(CURDIR) modules\n'
            'endif\n')
        return make('-j2', f'O={BUILD}', f'M={d}', 'modules'), \
            self.out / name / f'{name}.ko'

    def test_linux_api_suite_builds_unchanged(self):
        res, ko = self.build('sca_oot_test', (REPO / API_TEST).read_text())
        self.assertEqual(res.returncode, 0, res.stdout + res.stderr)
        sites = tramp_sites(ko)
        calls = {n for s, n, op in sites}
        self.assertEqual(calls, {'__SCT__sca_add', '__SCT__sca_cond',
                                 '__SCT__sca_ret'})
        for sec, name, op in sites:
            self.assertTrue(sec.startswith('.text'), (sec, name))
            self.assertIn(op, (0xe8, 0xe9), (sec, name))

    def test_update_with_another_type_is_an_error(self):
        res, _ = self.build('sc_typed_bad', TYPED % 'other')
        self.assertNotEqual(res.returncode, 0)
        self.assertIn('incompatible pointer type', res.stdout + res.stderr)

    def test_update_with_its_type_or_null_builds(self):
        res, _ = self.build('sc_typed_ok', TYPED % 'one')
        self.assertEqual(res.returncode, 0, res.stdout + res.stderr)
        res, _ = self.build('sc_typed_null', TYPED % 'NULL')
        self.assertEqual(res.returncode, 0, res.stdout + res.stderr)


class BootedOutOfTree(unittest.TestCase):
    """The suite as an outside user builds and loads it: make -C <tree>
    M=<dir>, make run EXTRA_MODULES=<dir> CPUS=4, insmod at the console."""

    def setUp(self):
        built('vmlinux')
        self.tmp = Path(tempfile.mkdtemp(prefix='sca-oot-'))
        self.assertFalse(str(self.tmp).startswith(str(REPO)))
        self.iso_dir = f'{BUILD}/sca-oot-iso'
        self.out = REPO / BUILD / ('extmod' + str(self.tmp))

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)
        shutil.rmtree(self.out, ignore_errors=True)
        shutil.rmtree(REPO / self.iso_dir, ignore_errors=True)

    def test_suite_passes_booted_on_4_cpus(self):
        d = self.tmp / 'sca_oot'
        d.mkdir()
        # A name of its own: the in-tree module's would be refused.
        src = REPO / 'tests/modules/static_call'
        shutil.copy(REPO / API_TEST, d / 'sca_oot_test.c')
        shutil.copy(src / 'static_call_api_mod_test.c',
                    d / 'sca_oot_mod_test.c')
        shutil.copy(src / 'sca_provider.c', d / 'sca_oot_provider.c')
        shutil.copy(src / 'sca_provider.h', d)
        # The in-tree sca_provider exports the same names (modpost refuses
        # a second export): renamed by the compiler, the sources unchanged.
        exported = re.findall(r'^EXPORT_[A-Z_]+\((\w+)\);$',
                              (src / 'sca_provider.c').read_text(), re.M)
        self.assertGreater(len(exported), 10)
        (d / 'Makefile').write_text(
            'ifneq ($(KERNELRELEASE),)\n'
            'obj-m += sca_oot_test.o sca_oot_mod_test.o sca_oot_provider.o\n'
            'ccflags-y += ' +
            ' '.join(f'-D{n}=oot_{n}' for n in exported) + '\n'
            'else\n'
            'all:\n\t$(MAKE) -C $(KDIR) M=$(CURDIR) modules\n'
            'endif\n')
        res = make('-j2', f'O={BUILD}', f'ISO_DIR={self.iso_dir}',
                   'CMDLINE=shell', f'EXTRA_MODULES={d}', 'iso')
        self.assertEqual(res.returncode, 0, res.stdout + res.stderr)
        self.assertTrue((REPO / self.iso_dir /
                         'extra-modules/sca_oot_test.ko').exists())
        res = run([PYTHON, 'scripts/shell_test.py', '--iso',
                   f'{self.iso_dir}/kernel.iso', '--cpus', '4', '--timeout',
                   '240', '--log', str(self.tmp / 'serial.log'),
                   'tests/static_call_oot_session.json'])
        self.assertEqual(res.returncode, 0, res.stdout + res.stderr +
                         (self.tmp / 'serial.log').read_text()[-6000:])


class KernelTable(unittest.TestCase):
    def test_table_lists_every_site_sorted(self):
        tool = built('scripts/static_call_table')
        res = run([str(tool), str(built('.tmp_vmlinux2'))])
        self.assertEqual(res.returncode, 0, res.stderr)
        lines = [l for l in res.stdout.splitlines() if '.long' in l]
        self.assertEqual(len(lines) % 2, 0)
        entries = [(int(lines[i + 1].split('+ ')[1].split()[0], 16),
                    int(lines[i].split('+ ')[1].split()[0], 16))
                   for i in range(0, len(lines), 2)]
        self.assertGreater(len(entries), 60)
        self.assertEqual(entries, sorted(entries))
        self.assertIn('static call sites', res.stdout)


if __name__ == '__main__':
    unittest.main()
