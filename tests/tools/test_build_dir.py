# SPDX-License-Identifier: GPL-2.0
"""O=: one build directory however it is spelled; unusable ones refused."""
import tempfile
import unittest
from pathlib import Path

from hosttools import BUILD, REPO, built, make

HEADER = 'include/linux/jump_label.h'
OBJECT = f'{BUILD}/kernel/jump_label/core.o'


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

    def test_unsafe_refused(self):
        # A quote, '$', ';', a glob or '%' would reach a shell command or a
        # make pattern as something else; each is refused in one line
        # before O is expanded, and the injected command never runs.
        for spelling, bad in (("b';touch$${IFS}x;'", "';$${};'"),
                              ('b$$x', '$$'), ('b;x', ';'), ('b*', '*'),
                              ('b?', '?'), ('b"x', '"'), ('b%', '%'),
                              ('b#x', '#'), ('~/b', '~'),
                              ('$(shell touch x)', '$()')):
            with self.subTest(spelling=spelling):
                out = make(f'O={spelling}', 'olddefconfig')
                self.assertEqual(out.returncode, 2, out.stdout)
                self.assertIn(f'O={spelling} holds {bad}, which a build '
                              "directory's name may not", out.stderr)
                self.assertEqual(len(out.stderr.strip().splitlines()), 1,
                                 out.stderr)
                self.assertFalse((REPO / 'x').exists())

    def test_source_tree_refused(self):
        self.refused('.', 'O=. is the source tree or contains it')
        self.refused('..', 'O=.. is the source tree or contains it')


if __name__ == '__main__':
    unittest.main()
