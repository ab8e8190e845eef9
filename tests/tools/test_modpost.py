# SPDX-License-Identifier: GPL-2.0
"""make modules and scripts/modpost.py: the modules of tests/modules/modpost/
built with M= against build/test-default; each mistake stops the build
with one line naming the module and the symbol, good modules pass, and
Module.symvers lists what each exports."""
import re
import subprocess
import tempfile
import unittest
from pathlib import Path

from elftools.elf.elffile import ELFFile

from hosttools import BUILD, PYTHON, REPO, built, make

FIXTURES = 'tests/modules/modpost'


def modinfo(path):
    with open(path, 'rb') as f:
        data = ELFFile(f).get_section_by_name('.modinfo').data()
    return [item.decode() for item in data.split(b'\0') if item]


def undefined(path):
    with open(path, 'rb') as f:
        symtab = ELFFile(f).get_section_by_name('.symtab')
        return {s.name for s in symtab.iter_symbols()
                if s.name and s['st_shndx'] == 'SHN_UNDEF'}


def symvers(path):
    """Module.symvers' rows without their CRC, which must be one."""
    rows = [line.split('\t') for line in path.read_text().splitlines()]
    for row in rows:
        assert re.fullmatch(r'0x[0-9a-f]{8}', row[0]), row
    return [row[1:] for row in rows]


class ModpostTest(unittest.TestCase):
    def build(self, fixture):
        return make('-j2', f'O={BUILD}', f'M={FIXTURES}/{fixture}', 'modules')

    def refused(self, fixture, message):
        """make fails, modpost's one line is message (with $(O)/ paths)."""
        out = REPO / BUILD / FIXTURES / fixture
        (out / 'Module.symvers').unlink(missing_ok=True)
        res = self.build(fixture)
        self.assertEqual(res.returncode, 2, res.stdout + res.stderr)
        self.assertNotIn('Traceback', res.stderr)
        lines = [l for l in res.stderr.splitlines() if l.startswith('modpost')]
        expected = message.replace('$O', f'{BUILD}/{FIXTURES}/{fixture}')
        self.assertEqual(lines, [f'modpost: ERROR: {expected}'], res.stderr)
        self.assertFalse((out / 'Module.symvers').exists())

    def test_undefined_symbol(self):
        self.refused('undefined', 'module undefined_sym '
                     '($O/undefined_sym.ko): undefined symbol '
                     'no_such_function: nobody exports it')

    def test_gpl_only_symbol(self):
        self.refused('gpl_only', 'module proprietary ($O/proprietary.ko): '
                     'uses GPL-only symbol synchronize_rcu (exported by '
                     'vmlinux) but its license "Proprietary" is not '
                     'GPL-compatible')

    def test_no_license(self):
        self.refused('no_license', 'module unlicensed ($O/unlicensed.ko): '
                     'no MODULE_LICENSE()')

    def test_export_of_vmlinux_again(self):
        self.refused('dup_vmlinux', 'symbol msleep exported twice: by '
                     'vmlinux and by module own_msleep ($O/own_msleep.ko)')

    def test_export_of_two_modules(self):
        self.refused('dup_modules', 'symbol twin_value exported twice: by '
                     'module twin_a and by module twin_b ($O/twin_b.ko)')

    def test_name_of_an_in_tree_module(self):
        res = self.build('name_taken')
        self.assertEqual(res.returncode, 2)
        self.assertRegex(res.stderr, f'{FIXTURES}/name_taken/Makefile: a '
                         'module named sample_hello exists already, in '
                         'modules/')

    def test_good_modules(self):
        res = self.build('good')
        self.assertEqual(res.returncode, 0, res.stdout + res.stderr)
        out = REPO / BUILD / FIXTURES / 'good'
        kos = sorted(str(p.relative_to(out)) for p in out.rglob('*.ko'))
        self.assertEqual(kos, sorted([
            'lic_gpl.ko', 'lic_gpl_v2.ko', 'lic_gpl_rights.ko',
            'lic_dual_bsd.ko', 'lic_dual_mit.ko', 'lic_dual_mpl.ko',
            'provider.ko', 'consumer.ko', 'multi.ko', 'dash-name.ko',
            'config_on.ko', 'sub/nested.ko']))
        # The name comes from the object list's module, '-' as '_'.
        self.assertIn('name=multi', modinfo(out / 'multi.ko'))
        self.assertIn('name=dash_name', modinfo(out / 'dash-name.ko'))
        self.assertIn('license=Dual MPL/GPL', modinfo(out / 'lic_dual_mpl.ko'))
        # The loader provides __this_module: modpost let it through.
        self.assertIn('__this_module', undefined(out / 'consumer.ko'))
        # This directory's exports alone, each with its owner and kind:
        # __ksymtab_gpl_named is a plain export, by its section.
        self.assertEqual(symvers(out / 'Module.symvers'), [
            ['gpl_named', 'provider', 'EXPORT_SYMBOL'],
            ['provider_value', 'provider', 'EXPORT_SYMBOL_GPL']])

    def test_obj_m_beside_a_subsystem(self):
        """In a directory of the kernel, obj-y is built in and obj-m lists
        modules; a subdirectory reached through obj-m holds modules only.
        make -p -q FORCE only reads the Makefiles and prints its variables."""
        res = make('-p', '-q', f'O={BUILD}', 'modules-y=',
                   f'core-y=lib/ {FIXTURES}/beside/', 'FORCE')
        self.assertNotIn('***', res.stderr)
        db = dict(re.findall(r'^([\w-]+) :?= (.*)$', res.stdout, re.M))
        # lib/ may carry test modules (CONFIG_*_TEST=m): not the fixture's.
        self.assertEqual([m for m in db['modules'].split()
                          if not m.endswith('_test')],
                         ['beside_mod', 'sub_mod', 'modsub_mod'])
        objs = db['kernel-objs'].split()
        here = f'{BUILD}/{FIXTURES}/beside'
        self.assertIn(f'{here}/beside_builtin.o', objs)
        self.assertIn(f'{here}/sub/sub_builtin.o', objs)
        self.assertIn(f'{BUILD}/lib/string.o', objs)
        self.assertFalse([o for o in objs if o.endswith('_mod.o')], objs)
        self.assertEqual(db['mod-objs-modsub_mod'],
                         f'{here}/modsub/modsub_mod.o')

    def test_vmlinux_exports(self):
        """The kernel's Module.symvers: GPL or not by section, sorted."""
        rows = symvers(built('Module.symvers'))
        self.assertEqual([r[0] for r in rows], sorted({r[0] for r in rows}))
        table = {r[0]: (r[1], r[2]) for r in rows}
        self.assertEqual(table['printk'], ('vmlinux', 'EXPORT_SYMBOL'))
        self.assertEqual(table['static_key_slow_inc'],
                         ('vmlinux', 'EXPORT_SYMBOL_GPL'))
        self.assertEqual(table['kunit_running'], ('vmlinux', 'EXPORT_SYMBOL'))
        self.assertNotIn('__this_module', table)
        self.assertNotIn('jump_label_init', table)
        # Every entry symbol of vmlinux, and nothing else from it.
        nm = (REPO / BUILD / 'System.map').read_text()
        entries = re.findall(r' R (__ksymtab_\w+)$', nm, re.M)
        prefix = {'EXPORT_SYMBOL': '__ksymtab_',
                  'EXPORT_SYMBOL_GPL': '__ksymtab_gpl_'}
        self.assertEqual(sorted(entries),
                         sorted(prefix[kind] + sym
                                for sym, (owner, kind) in table.items()
                                if owner == 'vmlinux'))


# A kernel's exports as <linux/export.h> lays them out, in this order.
EXPORTS_C = """struct ks { unsigned long value; const char *name; };
int x;
"""
EXPORT_C = ('const struct ks __ksymtab{tag}_{name} '
            '__attribute__((section("__ksymtab{tag}"), used)) = '
            '{{ (unsigned long)&x, "{name}" }};\n')


class SortedExportsTest(unittest.TestCase):
    """The loader bisects vmlinux's export tables: modpost refuses a
    vmlinux whose table is not in name order."""

    def modpost(self, exports):
        with tempfile.TemporaryDirectory() as tmp:
            src = Path(tmp) / 'v.c'
            src.write_text(EXPORTS_C + ''.join(
                EXPORT_C.format(tag=tag, name=name) for tag, name in exports))
            for cmd in (['gcc', '-c', '-O2', '-fno-toplevel-reorder', '-o',
                         f'{tmp}/v.o', str(src)],
                        ['ld', '-e', '0', '-o', f'{tmp}/vmlinux',
                         f'{tmp}/v.o']):
                subprocess.run(cmd, check=True, capture_output=True)
            return subprocess.run(
                [PYTHON, str(REPO / 'scripts/modpost.py'), '--vmlinux',
                 f'{tmp}/vmlinux', '--out', f'{tmp}/Module.symvers'],
                capture_output=True, text=True, check=False), tmp

    def test_sorted_tables_pass(self):
        res, _ = self.modpost([('', 'alpha'), ('', 'beta'), ('_gpl', 'a'),
                               ('_gpl', 'zeta')])
        self.assertEqual(res.returncode, 0, res.stderr)

    def test_unsorted_table_refused(self):
        for tag, table in (('', '__ksymtab'), ('_gpl', '__ksymtab_gpl')):
            res, tmp = self.modpost([(tag, 'zeta'), (tag, 'alpha')])
            self.assertEqual(res.returncode, 1)
            self.assertEqual(res.stderr.splitlines(), [
                f'modpost: ERROR: {tmp}/vmlinux: {table} is not sorted by '
                'name: alpha follows zeta (the loader bisects it: '
                '<linux/export.h>)'])


if __name__ == '__main__':
    unittest.main()
