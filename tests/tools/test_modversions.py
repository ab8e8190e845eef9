# SPDX-License-Identifier: GPL-2.0
"""Symbol versions, version magic and the stale-tree check, on the host.

- scripts/symversions.py: an export's CRC changes when a type it names
  changes, however deep (through pointers too), and not when only
  comments, lines, parameter names or types it does not reach change;
- scripts/vermagic.py: the options a header tests in code are in the
  magic, those only a comment names are not;
- the kernel's Module.symvers carries every export's CRC, the ones the
  kernel links (.kcrcs) and the modules' __versions use;
- make M=dir against a tree whose header or .config changed after its
  kernel was built stops with one line, before building anything.
"""
import os
import subprocess
import sys
import tempfile
import time
import unittest
from pathlib import Path

from hosttools import BUILD, REPO, built, make

sys.path.insert(0, str(REPO / 'scripts'))
import symversions  # noqa: E402
import vermagic  # noqa: E402

BASE = """
struct inner { int a; long b; };
struct other { char c; };
struct key { struct inner *p; int n; };
int foo(struct key *k, int flags)
{
	return k->n + flags;
}
const void *__ksymtab_foo __attribute__((section("__ksymtab"), used)) = foo;
struct key bar;
const void *__ksymtab_bar __attribute__((section("__ksymtab"), used)) = &bar;
"""


class SymversionsTest(unittest.TestCase):
    def crcs(self, source):
        with tempfile.TemporaryDirectory() as d:
            c, o = Path(d) / 'x.c', Path(d) / 'x.o'
            c.write_text(source)
            subprocess.run(['gcc', '-g', '-O2', '-c', '-o', str(o), str(c)],
                           check=True)
            return symversions.object_crcs(str(o))

    def test_same_types_same_crc(self):
        base = self.crcs(BASE)
        self.assertEqual(sorted(base), ['bar', 'foo'])
        # Comments, lines, a parameter's name, a type nothing reaches.
        same = BASE.replace('int flags', 'int mode').replace('+ flags', '+ mode')
        same = '/* a comment */\n\n\n' + same.replace(
            'struct other { char c; };', 'struct other { long c, d; };')
        self.assertEqual(self.crcs(same), base)

    def test_changed_type_changes_crc(self):
        base = self.crcs(BASE)
        for what, source in (
                ('a member behind a pointer', BASE.replace('long b;', 'int b;')),
                ('members reordered', BASE.replace(
                    'struct inner *p; int n;', 'int n; struct inner *p;')),
                ('a member more', BASE.replace('int n; }', 'int n; int m; }'))):
            with self.subTest(what=what):
                crcs = self.crcs(source)
                self.assertNotEqual(crcs['foo'], base['foo'])
                self.assertNotEqual(crcs['bar'], base['bar'])
        # A parameter's type: the function only.
        crcs = self.crcs(BASE.replace('int flags', 'long flags'))
        self.assertNotEqual(crcs['foo'], base['foo'])
        self.assertEqual(crcs['bar'], base['bar'])


class VermagicTest(unittest.TestCase):
    def test_options_the_headers_test(self):
        with tempfile.TemporaryDirectory() as d:
            (Path(d) / 'include/linux').mkdir(parents=True)
            (Path(d) / 'include/linux/a.h').write_text(
                '/* CONFIG_ONLY_IN_A_COMMENT changes nothing */\n'
                '#ifdef CONFIG_FOO\n#define X CONFIG_NUM\n#endif\n'
                '// CONFIG_BAR\n#define S CONFIG_STR\n'
                '#if IS_ENABLED(CONFIG_OFF)\n#endif\n')
            conf = Path(d) / 'auto.conf'
            conf.write_text('CONFIG_FOO=y\nCONFIG_NUM=5\nCONFIG_STR="x"\n'
                            'CONFIG_ONLY_IN_A_COMMENT=y\nCONFIG_BAR=y\n'
                            'CONFIG_MODULE_PERCPU_RESERVE=4096\n')
            self.assertEqual(vermagic.vermagic(d, str(conf)),
                             '1.0-static-keys foo num=5 percpu_reserve=4096 '
                             'str=crc:8cdc1683')

    def test_build_magic(self):
        """The build's magic names what a module's code depends on."""
        text = built('include/generated/vermagic.h').read_text()
        for word in ('1.0-static-keys', 'nr_cpus=', 'hz=', 'percpu_reserve='):
            self.assertIn(word, text)


class SymversTest(unittest.TestCase):
    def test_kernel_exports_versioned(self):
        rows = [line.split('\t') for line in
                built('Module.symvers').read_text().splitlines()]
        kcrcs = {f[1]: f[0] for f in (line.split('\t') for line in
                 built('.kcrcs').read_text().splitlines())}
        vmlinux = [r for r in rows if r[2] == 'vmlinux']
        self.assertGreater(len(vmlinux), 100)
        for crc, sym, _, _ in vmlinux:
            self.assertRegex(crc, r'^0x[0-9a-f]{8}$')
            self.assertNotEqual(crc, '0x00000000', sym)
            self.assertEqual(kcrcs.get(sym), crc, sym)
        # The static key calls name struct static_key: one CRC for all.
        table = {r[1]: r[0] for r in rows}
        self.assertEqual(table['static_key_enable'],
                         table['static_key_disable'])


class StaleTreeTest(unittest.TestCase):
    """The check reads modification times: a file made newer than the
    build, then put back, stands for an edit without a rebuild."""
    M = 'tests/modules/modpost/good'

    def stale_after(self, path):
        st = os.stat(path)
        try:
            later = time.time_ns() + 10**9
            os.utime(path, ns=(later, later))
            return make(f'O={BUILD}', f'M={self.M}', 'modules')
        finally:
            os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))

    def check(self, path, shown):
        res = self.stale_after(path)
        self.assertEqual(res.returncode, 2, res.stdout + res.stderr)
        self.assertIn(f'make M={self.M}: the tree is stale: {shown} changed '
                      f'after {BUILD}/Module.symvers was made; run '
                      f"'make O={BUILD}' in the tree first", res.stderr)
        self.assertNotIn('CC', res.stdout)

    def test_header_changed(self):
        self.check(REPO / 'include/linux/jump_label.h',
                   'include/linux/jump_label.h')

    def test_config_changed(self):
        self.check(built('.config'), f'{BUILD}/.config')

    def test_own_source_is_not_the_tree(self):
        """The M= directory's own sources are its to change."""
        src = next((REPO / self.M).glob('*.c'))
        st = os.stat(src)
        try:
            later = time.time_ns() + 10**9
            os.utime(src, ns=(later, later))
            res = make(f'O={BUILD}', f'M={self.M}', 'modules')
        finally:
            os.utime(src, ns=(st.st_atime_ns, st.st_mtime_ns))
        self.assertEqual(res.returncode, 0, res.stdout + res.stderr)
        self.assertNotIn('stale', res.stderr)

    def test_fresh_tree_builds(self):
        res = make(f'O={BUILD}', f'M={self.M}', 'modules')
        self.assertEqual(res.returncode, 0, res.stdout + res.stderr)


if __name__ == '__main__':
    unittest.main()
