# SPDX-License-Identifier: GPL-2.0
"""scripts/bench_linux.py's pure parts: the bench lines of the user
programs and the Linux module, partial output, the stress consoles, the
initramfs writer, the bzImage payload and the __jump_table count; and the
user programs' own bad input (make user, run on the host)."""
import contextlib
import io
import json
import lzma
import struct
import sys
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from hosttools import REPO, make, run

sys.path.insert(0, str(REPO / 'scripts'))
import bench_linux as bl  # noqa: E402

LOG = '''\
[    0.000000] Linux version 6.1.0
bench: boot tsc=6074456516
bench: getppid iters=100000 total=33700000 per=337
bench: pipe_roundtrip iters=10000 total=128760000 per=12876 cpu=0 schedstats=0
bench: schedstats_flip iters=10 on=241466 off=200000 noop=2048 on_min=240000 off_min=199000 initial=0
bench: pipe_roundtrip iters=10000 total=132870000 per=13287 cpu=0 schedstats=1
bench: jl flip sites=4 first=14881 mean=14880 min=14870
bench: kallsyms name=_text addr=ffffffff81000000
bench: done failed=0
'''


def by_name(records, name, params=None):
    return [r for r in records if r['name'] == name and
            (params is None or r['params'] == params)]


class ParseTest(unittest.TestCase):
    def test_full_log(self):
        parsed = bl.parse_bench_lines(LOG.splitlines())
        self.assertTrue(parsed.done)
        self.assertEqual(parsed.errors, [])
        recs = bl.linux_records(parsed, sites=76)
        self.assertTrue(all(r['config'] == 'linux' for r in recs))
        self.assertEqual(by_name(recs, 'user_getppid_insns')[0]['value'],
                         337)
        self.assertEqual(by_name(recs, 'user_pipe_roundtrip_insns',
                                 'schedstats=0')[0]['value'], 12876)
        self.assertEqual(by_name(recs, 'user_pipe_roundtrip_insns',
                                 'schedstats=1')[0]['value'], 13287)
        self.assertEqual(by_name(recs, 'user_schedstats_flip_insns',
                                 'on')[0]['value'], 241466)
        self.assertEqual(by_name(recs, 'user_schedstats_flip_insns',
                                 'noop')[0]['value'], 2048)
        self.assertAlmostEqual(by_name(
            recs, 'user_schedstats_flip_insns_per_site',
            'sites=76')[0]['value'], 241466 / 76)
        self.assertEqual(by_name(recs, 'flip_insns', 'sites=4,module')[0]
                         ['value'], 14880)
        self.assertEqual(by_name(recs, 'flip_insns_per_site',
                                 'sites=4,module')[0]['value'], 3720)
        self.assertEqual(by_name(recs, 'boot_first_user_insns')[0]['value'],
                         6074456516)

    def test_records_of_our_kernel(self):
        # The same benchinit log from our kernel: records of config y,
        # which the table takes as ours.
        ours = bl.linux_records(bl.parse_bench_lines(LOG.splitlines()),
                                config='y')
        self.assertTrue(all(r['config'] == 'y' for r in ours))
        rows = {r[0]: r for r in bl.table_rows([], ours, None, None)}
        self.assertEqual(rows['pipe round trip (user, schedstats on)'][1],
                         13287)
        self.assertEqual(rows['pipe round trip (user, schedstats off)'][1],
                         12876)
        self.assertEqual(rows['getppid() (user)'][1], 337)

    def test_kallsyms_lines(self):
        parsed = bl.parse_bench_lines(LOG.splitlines())
        self.assertEqual(parsed.lines['kallsyms'],
                         [{'name': '_text', 'addr': 'ffffffff81000000'}])

    def test_partial_output_is_marked(self):
        lines = LOG.splitlines()[:4]        # killed before "bench: done"
        parsed = bl.parse_bench_lines(lines)
        self.assertFalse(parsed.done)
        recs = bl.linux_records(parsed)
        self.assertTrue(recs)
        self.assertTrue(all(r['params'].endswith('partial') for r in recs))
        rows = bl.table_rows(recs, [], None, None)
        getppid = [r for r in rows if r[0].startswith('getppid')][0]
        self.assertIn('partial', getppid[2])

    def test_error_lines_are_not_figures(self):
        parsed = bl.parse_bench_lines([
            'bench: schedstats_flip error=open errno=2',
            'bench: jl error sites=4 on=3 off=0',
            'bench: done failed=2'])
        self.assertEqual(len(parsed.errors), 2)
        self.assertEqual(parsed.failed, 2)
        self.assertEqual(bl.linux_records(parsed), [])

    def test_noise_is_ignored(self):
        parsed = bl.parse_bench_lines(['random text', 'bench:', 'bench: x',
                                       'xx bench: getppid iters=2 total=10'])
        self.assertEqual(bl.linux_records(parsed)[0]['value'], 5)

    def test_no_schedstats_sites_no_per_site_row(self):
        recs = bl.linux_records(bl.parse_bench_lines(LOG.splitlines()))
        self.assertEqual(by_name(recs, 'user_schedstats_flip_insns_per_site'),
                         [])

    def test_ratio_and_pending(self):
        linux = bl.linux_records(bl.parse_bench_lines(LOG.splitlines()), 76)
        ours = [{'name': 'flip_insns', 'config': 'y',
                 'params': 'sites=56,batched,cpus=1', 'value': 5600.0}]
        linux.append(bl.record('flip_insns_per_site', 'sites=56,module',
                               1000.0))
        rows = {r[0]: r for r in bl.table_rows(linux, ours, 76, None)}
        row = rows['key flip per site, 56 sites (in-kernel)']
        self.assertEqual(row[1:], (100.0, 1000.0))
        self.assertEqual(bl.fmt_ratio(row[1], row[2]), '0.100')
        pipe = rows['pipe round trip (user, schedstats off)']
        self.assertEqual(pipe[1], bl.PENDING_USER)
        self.assertEqual(bl.fmt_ratio(pipe[1], pipe[2]), '-')

    def test_missing_module_says_why(self):
        rows = bl.table_rows([], [], None, 'no linux-headers-X')
        flips = [r for r in rows if r[0].startswith('key flip')]
        self.assertTrue(all(r[2] == 'no linux-headers-X' for r in flips))

    def test_image_package(self):
        text = 'linux-image-amd64\n  Depends: linux-image-6.1.0-57-amd64\n'
        self.assertEqual(bl.image_package_of(text),
                         'linux-image-6.1.0-57-amd64')
        self.assertIsNone(bl.image_package_of('linux-image-amd64\n'))


class MainTest(unittest.TestCase):
    """bench_linux.main(): the one-line outcomes of bad input."""

    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.dir = Path(tmp.name)

    def main(self, *args):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            rc = bl.main(['--out', str(self.dir / 'out'), *args])
        return rc, out.getvalue()

    def test_no_package_skips(self):
        calls = []

        def no_apt(argv, cwd=None):
            calls.append(argv[0])
            return 100, 'E: no network\n'
        with mock.patch.object(bl, 'run_tool', no_apt):
            rc, out = self.main()
        self.assertEqual(rc, 0)
        self.assertEqual(len(out.splitlines()), 1, out)
        self.assertRegex(out, r'^linux: skipped: apt-cache knows no '
                         r'linux-image-amd64')
        self.assertIn('apt-cache', calls)

    def test_download_failure_skips(self):
        def apt(argv, cwd=None):
            if argv[:2] == ['apt-cache', 'depends']:
                return 0, '  Depends: linux-image-9.9-amd64\n'
            return 100, 'E: Failed to fetch\n'
        with mock.patch.object(bl, 'run_tool', apt):
            rc, out = self.main()
        self.assertEqual(rc, 0)
        self.assertEqual(out, 'linux: skipped: apt-get download '
                         'linux-image-9.9-amd64 failed: E: Failed to fetch\n')

    def test_silent_kernel_fails_naming_the_log(self):
        log = self.dir / 'serial.log'
        log.write_text('[    0.0] Linux version 6.1\nKernel panic\n')
        rc, out = self.main('--from-log', str(log))
        self.assertEqual(rc, 1)
        self.assertEqual(out, 'linux: failed: the kernel printed no bench '
                         f'line, see {log}\n')

    def test_partial_log_fails_and_marks(self):
        log = self.dir / 'serial.log'
        log.write_text('\n'.join(LOG.splitlines()[:3]) + '\n')
        rc, out = self.main('--from-log', str(log))
        self.assertEqual(rc, 1)
        self.assertIn('linux: partial output', out)
        records = json.loads((self.dir / 'out' / 'results.json').read_text())
        self.assertTrue(records)
        self.assertTrue(all('partial' in r['params'] for r in records))

    def test_linux_records_replace_old_ones(self):
        out = self.dir / 'out'
        out.mkdir()
        old = [{'name': 'x', 'config': 'y', 'params': '', 'value': 1,
                'unit': 'insns'},
               {'name': 'old', 'config': 'linux', 'params': '', 'value': 1,
                'unit': 'insns'}]
        (out / 'results.json').write_text(json.dumps(old))
        log = self.dir / 'serial.log'
        log.write_text(LOG)
        rc, _ = self.main('--from-log', str(log))
        self.assertEqual(rc, 0)
        records = json.loads((out / 'results.json').read_text())
        self.assertIn(old[0], records)
        self.assertNotIn(old[1], records)
        self.assertTrue(by_name(records, 'user_getppid_insns'))


class StressParseTest(unittest.TestCase):
    def test_linux_oops(self):
        lines = ['[ 1.0] bench_jl_stress: flips=10',
                 '[ 1.1] bench_jl_stress: flips=1230',
                 '[ 1.2] int3: 0000 [#1] PREEMPT SMP NOPTI',
                 '[ 1.3] bench_jl_stress: flips=1240']
        res = bl.parse_linux_stress(lines)
        self.assertEqual(res['survived'], 1230)
        self.assertIn('int3', res['oops'])
        self.assertFalse(res['done'])

    def test_linux_clean(self):
        lines = ['bench_jl_stress: flips=2000',
                 'bench_jl_stress: stress flips=2000 of=2000 readers=3 '
                 'passes=99 out_of_time=0']
        res = bl.parse_linux_stress(lines)
        self.assertEqual((res['survived'], res['done'], res['oops']),
                         (2000, True, None))

    def test_linux_out_of_time(self):
        res = bl.parse_linux_stress(['stress flips=5 of=2000 readers=3 '
                                     'passes=1 out_of_time=1'])
        self.assertEqual(res['oops'], 'out of time')

    def test_ours(self):
        res = bl.parse_ours_stress([
            '    # tpt_test_stress: 2000 flips, 3 readers, 812 reader '
            'passes, 0 wrong branches, 7 int3 hits'])
        self.assertEqual(res, {'survived': 2000, 'readers': 3, 'wrong': 0})
        self.assertIsNone(bl.parse_ours_stress(['nothing']))


def cpio_members(data):
    """[(name, mode, data, rdevmajor, rdevminor)] of a newc archive."""
    out, off = [], 0
    while True:
        assert data[off:off + 6] == b'070701', off
        f = [int(data[off + 6 + 8 * i:off + 14 + 8 * i], 16)
             for i in range(13)]
        namesize, filesize = f[11], f[6]
        name = data[off + 110:off + 110 + namesize - 1].decode()
        off += 110 + namesize
        off += -off % 4
        body = data[off:off + filesize]
        off += filesize
        off += -off % 4
        if name == 'TRAILER!!!':
            return out
        out.append((name, f[1], body, f[9], f[10]))


class CpioTest(unittest.TestCase):
    def test_roundtrip(self):
        files = [('dev', 0o40755, b''), ('dev/console', 0o20600, b'', (5, 1)),
                 ('init', 0o100755, b'\x7fELF12345')]
        members = cpio_members(bl.cpio_archive(files))
        self.assertEqual(members, [
            ('dev', 0o40755, b'', 0, 0), ('dev/console', 0o20600, b'', 5, 1),
            ('init', 0o100755, b'\x7fELF12345', 0, 0)])

    def test_alignment(self):
        data = bl.cpio_archive([('abc', 0o100644, b'x' * 5)])
        self.assertEqual(len(data) % 4, 0)


def fake_bzimage(payload, setup_sects=2):
    head = bytearray((setup_sects + 1) * 512)
    head[0x1f1] = setup_sects
    head[0x202:0x206] = b'HdrS'
    struct.pack_into('<II', head, 0x248, 16, len(payload))
    return bytes(head) + b'\0' * 16 + payload + b'tail'


def fake_elf(sections):
    """A 64-bit ELF with only section headers: sections [(name, addr,
    data)], then .shstrtab."""
    names = b'\0' + b''.join(n.encode() + b'\0' for n, _, _ in sections) + \
        b'.shstrtab\0'
    body, offs = b'', []
    for _, _, data in sections:
        offs.append(64 + len(body))
        body += data
    strtab_off = 64 + len(body)
    body += names
    shoff = 64 + len(body)
    head = bytearray(64)
    head[:5] = b'\x7fELF\x02'
    struct.pack_into('<Q', head, 0x28, shoff)
    struct.pack_into('<HHH', head, 0x3a, 64, len(sections) + 2,
                     len(sections) + 1)
    shdrs = bytes(64)
    pos = 1
    for (name, addr, data), off in zip(sections, offs):
        shdrs += struct.pack('<IIQQQQIIQQ', pos, 1, 0, addr, off, len(data),
                             0, 0, 1, 0)
        pos += len(name) + 1
    shdrs += struct.pack('<IIQQQQIIQQ', pos, 3, 0, 0, strtab_off,
                         len(names), 0, 0, 1, 0)
    return bytes(head) + body + shdrs


def jump_entry(entry_addr, key, flags=0):
    return struct.pack('<iiq', 0, 0, key + flags - (entry_addr + 8))


class ImageTest(unittest.TestCase):
    TEXT = 0xffffffff81000000
    DATA = 0xffffffff82000000

    def image(self):
        key_a, key_b = self.DATA + 0x1000, self.DATA + 0x2000
        table_addr = self.DATA + 0x40
        table = b''
        for i, (key, flags) in enumerate([(key_a, 0), (key_b, 1),
                                          (key_a, 2), (key_a, 3)]):
            table += jump_entry(table_addr + 16 * i, key, flags)
        data = bytes(0x40) + table + bytes(0x40)
        elf = fake_elf([('.text', self.TEXT, b'\x90' * 32),
                        ('.data', self.DATA, data)])
        return elf, table_addr, table_addr + len(table), key_a, key_b

    def test_jump_table_keys(self):
        elf, start, stop, key_a, key_b = self.image()
        table = bl.elf_bytes_at(elf, start, stop)
        self.assertEqual(bl.jump_table_keys(start, table),
                         {key_a: 3, key_b: 1})

    def test_key_sites_through_vmlinuz_with_slide(self):
        elf, start, stop, key_a, key_b = self.image()
        vmlinuz = fake_bzimage(lzma.compress(elf, format=lzma.FORMAT_XZ))
        slide = 0x200000
        syms = {'_text': self.TEXT + slide,
                '__start___jump_table': start + slide,
                '__stop___jump_table': stop + slide,
                'key_a': key_a + slide, 'key_b': key_b + slide,
                'other': self.DATA + slide}
        self.assertEqual(bl.key_sites(vmlinuz, syms, 'key_a'), 3)
        self.assertEqual(bl.key_sites(vmlinuz, syms, 'key_b'), 1)
        self.assertEqual(bl.key_sites(vmlinuz, syms, 'other'), 0)
        del syms['__stop___jump_table']
        with self.assertRaisesRegex(ValueError, '__stop___jump_table'):
            bl.key_sites(vmlinuz, syms, 'key_a')

    def test_table_entries(self):
        """Linux 6.1 keeps __jump_table inside .data: counted between the
        kallsyms bounds (slid), or from a section of its own."""
        elf, start, stop, _, _ = self.image()
        vmlinuz = fake_bzimage(lzma.compress(elf, format=lzma.FORMAT_XZ))
        slide = 0x200000
        syms = {'_text': self.TEXT + slide,
                '__start___jump_table': start + slide,
                '__stop___jump_table': stop + slide}
        self.assertEqual(bl.table_entries(vmlinuz, syms), 4)
        self.assertEqual(
            [(r['name'], r['value']) for r in bl.table_records(4)],
            [('linux_table_entries', 4), ('table_bytes', 64)])
        syms['__stop___jump_table'] += 8
        with self.assertRaisesRegex(ValueError, 'whole number'):
            bl.table_entries(vmlinuz, syms)
        del syms['__stop___jump_table']
        with self.assertRaisesRegex(ValueError, '__stop___jump_table'):
            bl.table_entries(vmlinuz, syms)
        own = fake_elf([('.text', self.TEXT, b'\x90' * 32),
                        ('__jump_table', self.DATA, bytes(16 * 5))])
        self.assertEqual(bl.table_entries(
            fake_bzimage(lzma.compress(own, format=lzma.FORMAT_XZ)), {}), 5)

    def test_bad_images(self):
        with self.assertRaisesRegex(ValueError, 'not a bzImage'):
            bl.bzimage_payload(b'\0' * 1024)
        bad = bytearray(fake_bzimage(b'abcd'))
        struct.pack_into('<I', bad, 0x24c, 1 << 30)
        with self.assertRaisesRegex(ValueError, 'outside'):
            bl.bzimage_payload(bytes(bad))
        with self.assertRaisesRegex(ValueError, 'unknown compression'):
            bl.decompress_payload(b'ABCD1234')
        with self.assertRaisesRegex(ValueError, 'not a 64-bit ELF'):
            bl.elf_sections(b'MZ' + bytes(100))
        elf, start, stop, _, _ = self.image()
        with self.assertRaisesRegex(ValueError, 'no section holds'):
            bl.elf_bytes_at(elf, start, stop + 0x10000)


class UserProgramsTest(unittest.TestCase):
    """The programs built by make user, run here on the host's Linux."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        done = make('user', f'O={cls.tmp.name}')
        if done.returncode:
            raise AssertionError(f'make user failed: {done.stdout}'
                                 f'{done.stderr}')
        cls.bin = Path(cls.tmp.name) / 'user'

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def prog(self, name, *args):
        return run([str(self.bin / name), *args])

    def test_getppid_line_parses(self):
        done = self.prog('getppid_bench', '100')
        self.assertEqual(done.returncode, 0)
        parsed = bl.parse_bench_lines(done.stdout.splitlines())
        self.assertEqual(parsed.lines['getppid'][0]['iters'], '100')
        self.assertGreater(int(parsed.lines['getppid'][0]['total']), 0)

    def test_pipe_line_parses(self):
        done = self.prog('pipe_bench', '50')
        self.assertEqual(done.returncode, 0, done.stdout)
        values = bl.parse_bench_lines(done.stdout.splitlines()).lines[
            'pipe_roundtrip'][0]
        self.assertEqual((values['iters'], values['cpu']), ('50', '0'))

    def test_bad_argument(self):
        for prog in ('getppid_bench', 'pipe_bench', 'schedstats_bench'):
            done = self.prog(prog, 'lots')
            self.assertEqual(done.returncode, 1, prog)
            self.assertRegex(done.stdout, r'^bench: \S+ error=bad_argument '
                             r'errno=22\n$')

    def test_benchinit_not_pid_1_exits(self):
        # No programs in this directory: every run fails, it says so and
        # exits (not pid 1: no power-off).
        done = run([str(self.bin / 'benchinit'), '/nonexistent'])
        self.assertEqual(done.returncode, 1)
        parsed = bl.parse_bench_lines(done.stdout.splitlines())
        self.assertTrue(parsed.done)
        self.assertGreaterEqual(parsed.failed, 4)
        self.assertIn('boot', parsed.lines)


if __name__ == '__main__':
    unittest.main()
