# SPDX-License-Identifier: GPL-2.0
"""Linux's module API from the host side, against build/test-default:

- the .modinfo records module_param() and MODULE_PARM_DESC() write
  (parm=name:description, parmtype=name:type, as Linux writes them) and
  the __param entries, for lx_params (tests/modules/linuxapi/);
- out-of-tree modules: tests/extmod/ copied to a temporary directory
  outside the tree, built with "make M=<dir> modules" from a Linux-style
  Makefile (KERNELRELEASE, obj-m, foo-y, ccflags-y with $(src)) or a Kbuild
  file, into $(O)/extmod/<dir> with the sources left untouched; a
  directory without either, a module named as an in-tree one, or one
  named with a directory ("obj-m += sub/foo.o"), refused with one line;
- make iso EXTRA_MODULES=<dir>: the ISO carries them and the console's
  insmod loads them with parameters (tests/extmod_session.json), refusing
  a bad value with one line.
"""
import shutil
import tempfile
import unittest
from pathlib import Path

from elftools.elf.elffile import ELFFile
from elftools.elf.relocation import RelocationSection

from hosttools import BUILD, PYTHON, REPO, built, make, run
from test_modpost import modinfo

# Linux's sizeof(struct kernel_param) is 40; ours has core_param's setter
# and __setup's function too: name, set, setup, mod, ops, perm, arg.
KERNEL_PARAM_SIZE = 56


def param_relocs(path):
    """The symbols __param's relocations name, with their offsets."""
    with open(path, 'rb') as f:
        elf = ELFFile(f)
        for sec in elf.iter_sections():
            if isinstance(sec, RelocationSection) and \
               elf.get_section(sec['sh_info']).name == '__param':
                symtab = elf.get_section(sec['sh_link'])
                size = elf.get_section(sec['sh_info']).data_size
                return size, [(r['r_offset'],
                               symtab.get_symbol(r['r_info_sym']).name)
                              for r in sec.iter_relocations()]
    return 0, []


class ModinfoParams(unittest.TestCase):
    def setUp(self):
        self.ko = built('tests/modules/linuxapi/lx_params.ko')

    def test_parmtype_of_every_type(self):
        info = modinfo(self.ko)
        types = {'b': 'bool', 'ib': 'invbool', 'by': 'byte', 'sh': 'short',
                 'us': 'ushort', 'x': 'int', 'ui': 'uint', 'lg': 'long',
                 'ul': 'ulong', 'hx': 'hexint', 's': 'charp',
                 'renamed': 'int', 'arr': 'array of int', 'str': 'string',
                 'fail': 'bool'}
        got = sorted(i for i in info if i.startswith('parmtype='))
        self.assertEqual(got, sorted(f'parmtype={n}:{t}'
                                     for n, t in types.items()))

    def test_parm_descriptions(self):
        info = modinfo(self.ko)
        for rec in ('parm=x:an int, 1 by default', 'parm=s:a string (charp)',
                    'parm=renamed:an int whose variable is internal_name',
                    'parm=arr:up to 4 ints, comma-separated',
                    'parm=str:at most 7 characters'):
            self.assertIn(rec, info)
        # No description given, no parm= record (as in Linux).
        self.assertFalse([i for i in info if i.startswith('parm=by:')])
        self.assertIn('name=lx_params', info)

    def test_param_entries_are_the_module_own(self):
        size, relocs = param_relocs(self.ko)
        self.assertEqual(size, 15 * KERNEL_PARAM_SIZE)
        mods = [off for off, sym in relocs if sym == '__this_module']
        # .mod of each entry, at offset 24 of its 56 bytes.
        self.assertEqual(mods, [i * KERNEL_PARAM_SIZE + 24
                                for i in range(15)])


class OutOfTree(unittest.TestCase):
    def setUp(self):
        built('vmlinux')
        self.tmp = Path(tempfile.mkdtemp(prefix='extmod-'))
        self.assertFalse(str(self.tmp).startswith(str(REPO)))
        shutil.copytree(REPO / 'tests/extmod', self.tmp, dirs_exist_ok=True)
        self.out = REPO / BUILD / ('extmod' + str(self.tmp))

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)
        shutil.rmtree(self.out, ignore_errors=True)

    def sources(self):
        return sorted(str(p.relative_to(self.tmp))
                      for p in self.tmp.rglob('*'))

    def build(self, name, *extra):
        return make('-j2', f'O={BUILD}', f'M={self.tmp / name}', 'modules',
                    *extra)

    def test_linux_makefile(self):
        before = self.sources()
        res = self.build('lx_oot')
        self.assertEqual(res.returncode, 0, res.stdout + res.stderr)
        out = self.out / 'lx_oot'
        self.assertTrue((out / 'Module.symvers').exists())
        info = modinfo(out / 'lx_oot.ko')
        self.assertIn('parmtype=x:int', info)
        self.assertIn('parm=s:a string', info)
        self.assertIn('name=lx_oot', info)
        # Two objects, the include path of ccflags-y: the helper is there.
        with open(out / 'lx_oot_multi.ko', 'rb') as f:
            syms = {s.name for s in
                    ELFFile(f).get_section_by_name('.symtab').iter_symbols()
                    if s['st_shndx'] != 'SHN_UNDEF'}
        self.assertIn('lx_oot_helper', syms)
        self.assertEqual(self.sources(), before)

    def test_kbuild_file_first(self):
        res = self.build('lx_oot_kbuild')
        self.assertEqual(res.returncode, 0, res.stdout + res.stderr)
        self.assertIn('name=lx_oot_kbuild',
                      modinfo(self.out / 'lx_oot_kbuild/lx_oot_kbuild.ko'))

    def test_no_makefile(self):
        (self.tmp / 'empty').mkdir()
        res = self.build('empty')
        self.assertEqual(res.returncode, 2)
        self.assertIn(f'M={self.tmp}/empty: no {self.tmp}/empty/Kbuild or '
                      f'{self.tmp}/empty/Makefile listing the modules',
                      res.stderr)

    def test_name_of_an_in_tree_module(self):
        d = self.tmp / 'clash'
        d.mkdir()
        (d / 'Kbuild').write_text('obj-m += lx_params.o\n')
        shutil.copy(REPO / 'tests/modules/linuxapi/lx_params.c', d)
        res = self.build('clash')
        self.assertEqual(res.returncode, 2)
        self.assertIn('a module named lx_params exists already, in '
                      'tests/modules/linuxapi/', res.stderr)

    def test_module_name_with_a_directory(self):
        d = self.tmp / 'subdir'
        (d / 'sub').mkdir(parents=True)
        (d / 'Kbuild').write_text('obj-m += sub/lx_sub.o\n')
        shutil.copy(REPO / 'tests/modules/linuxapi/lx_params.c',
                    d / 'sub/lx_sub.c')
        res = self.build('subdir')
        self.assertEqual(res.returncode, 2)
        self.assertIn('module name with a directory: sub/lx_sub; add obj-m '
                      "to that directory's own Makefile", res.stderr)

    def test_percpu_module(self):
        """The module_percpu suite's test module builds with M=: its
        per-CPU variables in .data..percpu, the per-CPU exports in its
        tables and in its Module.symvers. Only its name= line goes (the
        loader's fixtures are built without modpost, which writes it)."""
        d = self.tmp / 'percpu'
        d.mkdir()
        (d / 'Kbuild').write_text('obj-m += modtest_percpu.o\n')
        src = (REPO / 'tests/modules/loader/modtest_percpu.c').read_text()
        name = 'MODULE_INFO(name, KBUILD_MODNAME);\n'
        self.assertIn(name, src)
        (d / 'modtest_percpu.c').write_text(src.replace(name, ''))
        res = self.build('percpu')
        self.assertEqual(res.returncode, 0, res.stdout + res.stderr)
        with open(self.out / 'percpu/modtest_percpu.ko', 'rb') as f:
            elf = ELFFile(f)
            sec = elf.get_section_by_name('.data..percpu')
            self.assertIsNotNone(sec)
            self.assertEqual(sec['sh_addralign'], 64)
            symtab = elf.get_section_by_name('.symtab')
            shndx = elf.get_section_index('.data..percpu')
            percpu = {s.name for s in symtab.iter_symbols()
                      if s['st_shndx'] == shndx and s.name}
            self.assertTrue({'mpc_hits', 'mpc_seed', 'mpc_block',
                             'mpc_ptr'} <= percpu, percpu)
            syms = {s.name for s in symtab.iter_symbols()}
            self.assertIn('__ksymtab_mpc_hits', syms)
            self.assertIn('__ksymtab_gpl_mpc_seed', syms)
        symvers = (self.out / 'percpu/Module.symvers').read_text()
        self.assertRegex(symvers, r'mpc_hits\s.*EXPORT_SYMBOL\b')
        self.assertRegex(symvers, r'mpc_seed\s.*EXPORT_SYMBOL_GPL')

    def test_extra_modules_on_the_iso(self):
        iso_dir = f'{BUILD}/extmod-iso'
        res = make('-j2', f'O={BUILD}', f'ISO_DIR={iso_dir}', 'CMDLINE=shell',
                   f'EXTRA_MODULES={self.tmp / "lx_oot"}', 'iso')
        self.assertEqual(res.returncode, 0, res.stdout + res.stderr)
        staged = sorted(p.name for p in
                        (REPO / iso_dir / 'extra-modules').glob('*.ko'))
        self.assertEqual(staged, ['lx_oot.ko', 'lx_oot_multi.ko'])
        res = run([PYTHON, 'scripts/shell_test.py', '--iso',
                   f'{iso_dir}/kernel.iso', '--cpus', '2', '--timeout',
                   '120', 'tests/extmod_session.json'])
        self.assertEqual(res.returncode, 0, res.stdout + res.stderr)
        # Without EXTRA_MODULES the next ISO carries none of them.
        res = make(f'O={BUILD}', f'ISO_DIR={iso_dir}', 'CMDLINE=shell', 'iso')
        self.assertEqual(res.returncode, 0, res.stdout + res.stderr)
        self.assertEqual(list((REPO / iso_dir / 'extra-modules')
                              .glob('*.ko')), [])
        shutil.rmtree(REPO / iso_dir, ignore_errors=True)


if __name__ == '__main__':
    unittest.main()
