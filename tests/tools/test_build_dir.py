# SPDX-License-Identifier: GPL-2.0
"""O=: one build directory however it is spelled; unusable ones refused."""
import tempfile
import unittest
from pathlib import Path

from hosttools import BUILD, REPO, built, make

HEADER = 'include/linux/jump_label.h'
OBJECT = f'{BUILD}/kernel/jump_label.o'


class BuildDirTest(unittest.TestCase):
    def would_rebuild(self, spelling):
        """make -n's commands after a (pretended) change of HEADER."""
        out = make('-n', '-W', HEADER, f'O={spelling}', 'all')
        self.assertEqual(out.returncode, 0, out.stderr)
        return out.stdout

    def test_spellings_share_dependencies(self):
        built('vmlinux')
        with tempfile.TemporaryDirectory() as tmp:
            link = Path(tmp) / 'link'
            link.symlink_to(REPO / 'build')
            for spelling in (BUILD, f'./{BUILD}/', str(REPO / BUILD),
                             BUILD.replace('/', '//'), f'{link}/test-default'):
                with self.subTest(spelling=spelling):
                    self.assertIn(f' {OBJECT}', self.would_rebuild(spelling))

    def refused(self, spelling, message):
        out = make(f'O={spelling}', 'help')
        self.assertEqual(out.returncode, 2)
        self.assertIn(message, out.stderr)
        self.assertEqual(len(out.stderr.strip().splitlines()), 1, out.stderr)

    def test_space_refused(self):
        self.refused('build/a b', 'O="build/a b" contains a space')

    def test_empty_refused(self):
        self.refused('', 'O= is empty')

    def test_colon_refused(self):
        self.refused('build/a:b', "contains a ':'")

    def test_source_tree_refused(self):
        self.refused('.', 'O=. is the source tree or contains it')
        self.refused('..', 'O=.. is the source tree or contains it')


if __name__ == '__main__':
    unittest.main()
