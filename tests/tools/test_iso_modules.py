# SPDX-License-Identifier: GPL-2.0
"""How modules reach the ISO: make modules' stripped copies in
$(O)/iso-modules, scripts/mkiso.sh's boot archive holding every .ko there
and the programs (scripts/mkinitramfs.py), the ISO rebuilt when that
directory changes, and scripts/modpost.py and scripts/module_blobs.py on
files they cannot use."""
import gzip
import re
import shutil
import sys
import subprocess
import tempfile
import unittest
from pathlib import Path

from elftools.elf.elffile import ELFFile

from hosttools import BUILD, PYTHON, REPO, built, make, run

sys.path.insert(0, str(REPO / 'scripts'))
import mkinitramfs  # noqa: E402


def section_names(path):
    with open(path, 'rb') as f:
        return [s.name for s in ELFFile(f).iter_sections()]


class IsoModulesTest(unittest.TestCase):
    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.dir = Path(tmp.name)

    def test_staged_copy_is_the_module_without_debug(self):
        module = built('modules/sample_hello.ko')
        staged = built('iso-modules/sample_hello.ko')
        ours = self.dir / 'sample_hello.ko'
        subprocess.run(['objcopy', '--strip-debug', str(module), str(ours)],
                       check=True)
        self.assertEqual(staged.read_bytes(), ours.read_bytes())
        self.assertTrue(any(n.startswith('.debug') for n in section_names(module)))
        self.assertFalse(any(n.startswith('.debug') for n in section_names(staged)))

    def test_one_archive_holds_every_ko_in_name_order(self):
        mods = self.dir / 'mods'
        mods.mkdir()
        for name in ('b', 'a', 'A_z', 'c-d'):
            (mods / f'{name}.ko').write_bytes(b'\x7fELF' + name.encode())
        (mods / 'notes.txt').write_text('not a module\n')
        progs = self.dir / 'progs'
        progs.mkdir()
        (progs / 'p1').write_bytes(b'\x7fELF program' * 100)
        (progs / 'p1').chmod(0o755)
        cmdline = self.dir / 'cmdline'
        cmdline.write_text("'x=1'\n")
        iso = self.dir / 'out' / 'kernel.iso'
        iso.parent.mkdir()
        res = run(['scripts/mkiso.sh', str(built('vmlinux')), str(cmdline),
                   str(iso), str(mods), '', str(progs / 'p1')])
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertTrue(iso.is_file())
        root = iso.parent / 'isoroot' / 'boot'
        cfg = (root / 'grub' / 'grub.cfg').read_text()
        # GRUB loads two files: the kernel and the archive, nothing else.
        self.assertEqual(re.findall(r'^\tif (multiboot2|module2) (\S+)', cfg,
                                    re.M),
                         [('multiboot2', '/boot/vmlinux'),
                          ('module2', '/boot/initramfs')])
        self.assertIn("\tif multiboot2 /boot/vmlinux 'x=1'; then", cfg)
        self.assertIn('\tif module2 /boot/initramfs initramfs; then', cfg)
        self.assertLess(cfg.index('initramfs; then'), cfg.index('\t\tboot\n'))
        self.assertEqual(sorted(p.name for p in root.iterdir()),
                         ['grub', 'initramfs', 'vmlinux'])
        entries = mkinitramfs.read_archive((root / 'initramfs').read_bytes())
        self.assertEqual([e[0] for e in entries],
                         ['A_z', 'a', 'b', 'c-d', '/bin/p1'])
        for name, start, data in entries[:4]:
            self.assertEqual(start % 8, 0, f'{name}: data not 8-aligned')
            self.assertEqual(data, b'\x7fELF' + name.encode())
        self.assertEqual(gzip.decompress(entries[4][2]),
                         b'\x7fELF program' * 100)

    def iso(self, iso_dir):
        res = make(f'O={BUILD}', f'ISO_DIR={iso_dir}', 'iso')
        self.assertEqual(res.returncode, 0, res.stdout + res.stderr)
        return f'ISO      {iso_dir}/kernel.iso' in res.stdout

    def test_iso_follows_the_directory(self):
        """A blob another rule drops in $(O)/iso-modules, changed or gone,
        makes a new ISO carrying exactly the directory's blobs."""
        extra = REPO / BUILD / 'iso-modules' / 'bad_test_extra.ko'
        header = REPO / BUILD / 'include/generated/module_blobs.h'
        iso_dir = self.dir / 'iso'
        archive = iso_dir / 'isoroot/boot/initramfs'
        names = lambda: [e[0] for e in mkinitramfs.read_archive(  # noqa: E731
            archive.read_bytes())]
        self.addCleanup(lambda: extra.unlink(missing_ok=True) or
                        make(f'O={BUILD}', 'modules'))
        self.assertTrue(self.iso(iso_dir))
        self.assertFalse(self.iso(iso_dir), 'rebuilt with nothing changed')
        shutil.copyfile(built('iso-modules/sample_hello.ko'), extra)
        self.assertTrue(self.iso(iso_dir))
        self.assertIn('bad_test_extra', names())
        self.assertIn('MODULE_BLOB("bad_test_extra", ', header.read_text())
        extra.write_bytes(extra.read_bytes()[:-1])
        self.assertTrue(self.iso(iso_dir), 'not rebuilt for a changed blob')
        extra.unlink()
        self.assertTrue(self.iso(iso_dir))
        self.assertNotIn('bad_test_extra', names())
        self.assertNotIn('bad_test_extra', header.read_text())

    def test_programs_follow_their_files(self):
        """INIT= is carried by its ISO only and read where it is; a
        program whose content changes, or a changed USER_PROGS, makes a
        new ISO; $(O)/user keeps its programs."""
        iso_dir = self.dir / 'iso'
        archive = iso_dir / 'isoroot/boot/initramfs'
        init = self.dir / 'myinit'
        shutil.copyfile(built('user/hello'), init)
        init.chmod(0o755)
        user = sorted(p.name for p in (REPO / BUILD / 'user').iterdir())

        def iso(*args):
            res = make(f'O={BUILD}', f'ISO_DIR={iso_dir}', *args, 'iso')
            self.assertEqual(res.returncode, 0, res.stdout + res.stderr)
            entries = mkinitramfs.read_archive(archive.read_bytes())
            return ('ISO      ' in res.stdout,
                    {name: data for name, _, data in entries})

        rebuilt, entries = iso(f'INIT={init}', 'USER_PROGS=hello')
        self.assertTrue(rebuilt)
        self.assertEqual(sorted(n for n in entries if n.startswith('/bin/')),
                         ['/bin/hello', '/bin/myinit'])
        self.assertEqual(gzip.decompress(entries['/bin/myinit']),
                         init.read_bytes())
        self.assertFalse(iso(f'INIT={init}', 'USER_PROGS=hello')[0],
                         'rebuilt with nothing changed')
        init.write_bytes(init.read_bytes() + b'\0')
        rebuilt, entries = iso(f'INIT={init}', 'USER_PROGS=hello')
        self.assertTrue(rebuilt, 'not rebuilt for a changed program')
        self.assertEqual(gzip.decompress(entries['/bin/myinit']),
                         init.read_bytes())
        rebuilt, entries = iso('USER_PROGS=hello')
        self.assertTrue(rebuilt, 'not rebuilt without INIT=')
        self.assertNotIn('/bin/myinit', entries)
        self.assertEqual(sorted(p.name for p in (REPO / BUILD / 'user')
                                .iterdir()), user)

    def test_blob_names_refused(self):
        (self.dir / 'bad name.ko').write_bytes(b'')
        res = run([PYTHON, 'scripts/module_blobs.py', str(self.dir)])
        self.assertEqual(res.returncode, 1)
        self.assertIn("bad name.ko: a blob's name is 1 to 55 letters",
                      res.stderr)

    def modpost(self, *paths):
        return run([PYTHON, 'scripts/modpost.py', '--vmlinux',
                    str(built('vmlinux')), '--crcs', str(built('.kcrcs')),
                    '--out',
                    str(self.dir / 'Module.symvers'), *map(str, paths)])

    def test_modpost_refuses_what_is_not_a_module(self):
        text = self.dir / 'text.ko'
        text.write_text('not ELF\n')
        stripped = self.dir / 'stripped.ko'
        subprocess.run(['objcopy', '--strip-all',
                        str(built('modules/sample_hello.ko')), str(stripped)],
                       check=True)
        for path, message in (
                (text, 'cannot read it as ELF'),
                (built('vmlinux'), 'not an x86-64 relocatable object '
                                   '(ET_EXEC, EM_X86_64)'),
                (stripped, 'no .symtab (a stripped file?)')):
            with self.subTest(path=path.name):
                res = self.modpost(path)
                self.assertEqual(res.returncode, 1, res.stderr)
                self.assertEqual(len(res.stderr.splitlines()), 1, res.stderr)
                self.assertIn(f'modpost: ERROR: {path}: {message}', res.stderr)
                self.assertFalse((self.dir / 'Module.symvers').exists())

    def test_modpost_accepts_the_sample(self):
        res = self.modpost(built('modules/sample_hello.ko'))
        self.assertEqual(res.returncode, 0, res.stderr)
        # The build's list has the in-tree modules' exports too.
        vmlinux = [line for line in built('Module.symvers').read_text()
                   .splitlines(keepends=True) if '\tvmlinux\t' in line]
        self.assertEqual((self.dir / 'Module.symvers').read_text(),
                         ''.join(vmlinux))


if __name__ == '__main__':
    unittest.main()
