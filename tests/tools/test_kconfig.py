# SPDX-License-Identifier: GPL-2.0
"""make fragconfig (scripts/kconfig/merge_config.py) and savedefconfig on
bad input: a clear message, a non-zero exit, the old .config kept."""
import tempfile
import unittest
from pathlib import Path

from hosttools import PYTHON, make, run

MERGE = [PYTHON, 'scripts/kconfig/merge_config.py', 'Kconfig']
BASE = 'arch/x86/configs/defconfig'
OLD = '# the previous .config\n'


class MergeConfigTest(unittest.TestCase):
    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.dir = Path(tmp.name)
        self.out = self.dir / '.config'
        self.out.write_text(OLD)

    def fragment(self, text, name='frag.config'):
        path = self.dir / name
        path.write_text(text)
        return str(path)

    def merge(self, *fragments):
        return run(MERGE + [str(self.out), BASE, *fragments])

    def assert_refused(self, out, *messages):
        self.assertEqual(out.returncode, 1, out.stderr)
        self.assertNotIn('Traceback', out.stderr)
        for message in messages:
            self.assertIn(message, out.stderr)
        self.assertEqual(self.out.read_text(), OLD)

    def test_escaped_quotes_stick(self):
        line = r'CONFIG_CMDLINE_DEFAULT="a \"b\" \\ c"'
        out = self.merge(self.fragment(line + '\n'))
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertIn(line + '\n', self.out.read_text())

    def test_missing_fragment(self):
        missing = str(self.dir / 'missing.config')
        out = self.merge(missing)
        self.assert_refused(out, f'{missing}: cannot read: No such file')
        self.assertEqual(len(out.stderr.splitlines()), 1, out.stderr)

    def test_value_that_does_not_stick(self):
        frag = self.fragment('CONFIG_KUNIT=y\nCONFIG_NO_SUCH_SYMBOL=y\n')
        self.assert_refused(self.merge(frag),
                            f"{frag}:2: 'CONFIG_NO_SUCH_SYMBOL=y' requested",
                            'left unchanged')

    def test_malformed_line(self):
        frag = self.fragment('KUNIT=y\n')
        self.assert_refused(self.merge(frag), f"{frag}:1: ignoring "
                            "malformed line 'KUNIT=y'")

    def test_make_fragconfig_missing_fragment(self):
        missing = str(self.dir / 'missing.config')
        out = make(f'O={self.dir}', f'FRAGMENTS={missing}', 'fragconfig')
        self.assertEqual(out.returncode, 2)
        self.assertIn(f'merge_config: {missing}: cannot read', out.stderr)
        self.assertNotIn('Traceback', out.stderr)
        self.assertEqual(self.out.read_text(), OLD)

    def test_savedefconfig_without_build_dir(self):
        missing = self.dir / 'nothing'
        out = make(f'O={missing}', 'savedefconfig')
        self.assertEqual(out.returncode, 2)
        self.assertIn(f'savedefconfig: no {missing}/.config to save',
                      out.stderr)
        self.assertNotIn('Traceback', out.stderr)
        self.assertFalse(missing.exists())


if __name__ == '__main__':
    unittest.main()
