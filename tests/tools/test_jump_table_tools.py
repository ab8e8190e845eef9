# SPDX-License-Identifier: GPL-2.0
"""scripts/jump_label_fixup and scripts/check_jump_table.py on images they
cannot use: an error naming what is missing, never "0 entries", a
traceback or a misleading message."""
import shutil
import struct
import subprocess
import tempfile
import unittest
from pathlib import Path

from hosttools import PYTHON, built, run

SHT_SYMTAB = 2
SH_TYPE, SH_LINK = 4, 40        # offsets in an ELF64 section header


def set_symtab_link(path, link):
    """Points the sh_link of path's .symtab at section link."""
    data = bytearray(path.read_bytes())
    shoff, = struct.unpack_from('<Q', data, 0x28)
    shentsize, shnum = struct.unpack_from('<HH', data, 0x3a)
    for i in range(shnum):
        header = shoff + i * shentsize
        if struct.unpack_from('<I', data, header + SH_TYPE)[0] == SHT_SYMTAB:
            struct.pack_into('<I', data, header + SH_LINK, link)
    path.write_bytes(data)


class JumpTableToolsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.dir = Path(cls.tmp.name)
        cls.vmlinux = built('vmlinux')
        cls.fixup = str(built('scripts/jump_label_fixup'))

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def image(self, name, *objcopy_args):
        """A copy of the test kernel, through objcopy if args are given."""
        path = self.dir / name
        if objcopy_args:
            subprocess.run(['objcopy', *objcopy_args, str(self.vmlinux),
                            str(path)], check=True)
        else:
            shutil.copyfile(self.vmlinux, path)
        return path

    def both_refuse(self, path, message):
        """Both tools exit 1 with one line holding message."""
        for cmd in ([self.fixup], [PYTHON, 'scripts/check_jump_table.py',
                                   '--fixup', self.fixup]):
            with self.subTest(tool=cmd[-1]):
                out = run(cmd + [str(path)])
                self.assertEqual(out.returncode, 1, out.stdout + out.stderr)
                self.assertEqual(out.stdout, '')
                self.assertIn(f'{path}: {message}', out.stderr)
                self.assertEqual(len(out.stderr.splitlines()), 1, out.stderr)

    def test_fixup_accepts_the_kernel(self):
        out = run([self.fixup, str(self.image('good'))])
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertRegex(out.stdout, r'^jump_label_fixup: [1-9]\d* entries')

    def test_stripped(self):
        self.both_refuse(self.image('stripped', '--strip-all'),
                         'no __jump_table section and no .symtab (a '
                         'stripped image?)')

    def test_symbol_missing(self):
        path = self.image('nostop', '--strip-symbol=__stop___jump_table')
        self.both_refuse(path, 'no __jump_table section, and .symtab lacks '
                         '__stop___jump_table: cannot locate the jump table')

    def test_symtab_link_out_of_range(self):
        path = self.image('badlink')
        set_symtab_link(path, 999)
        self.both_refuse(path, '.symtab: sh_link 999 is not a string table')

    def test_symtab_link_not_a_string_table(self):
        path = self.image('linktext')
        set_symtab_link(path, 1)
        self.both_refuse(path, '.symtab: sh_link 1 is not a string table')

    def test_list(self):
        """--list, which the Python tools read the table through: the
        table line, one line per entry, the order's verdict; the file is
        not written."""
        path = self.image('list')
        before = path.read_bytes()
        out = run([self.fixup, '--list', str(path)])
        self.assertEqual(out.returncode, 0, out.stderr)
        lines = out.stdout.splitlines()
        self.assertRegex(lines[0], r'^table [0-9a-f]+ [1-9]\d* 12$')
        entries = int(lines[0].split()[2])
        self.assertEqual(len(lines), entries + 2)
        for i, line in enumerate(lines[1:-1]):
            self.assertRegex(line, rf'^entry {i} [0-9a-f]+ [0-9a-f]+ '
                             r'[0-9a-f]+ [0-3]$')
        self.assertEqual(lines[-1], 'order ok')
        self.assertEqual(path.read_bytes(), before)

    def test_check_accepts_the_kernel(self):
        out = run([PYTHON, 'scripts/check_jump_table.py', '--fixup',
                   self.fixup, str(self.image('checked'))])
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertRegex(out.stdout, r'^jump table: [1-9]\d* entries.*'
                         r'sorted by \(key, code\); all sites verified$')

    def test_directory(self):
        self.both_refuse(self.dir, 'is a directory, not a kernel image')


if __name__ == '__main__':
    unittest.main()
