# SPDX-License-Identifier: GPL-2.0
"""scripts/bench_readme.py: README's Performance table from results.json
(cells per config, missing values, ratios, per-site figures, partial runs,
an unreadable results file)."""
import io
import json
import sys
import tempfile
import unittest
from contextlib import redirect_stdout
from pathlib import Path

from hosttools import REPO

sys.path.insert(0, str(REPO / 'scripts'))
import bench_readme as br  # noqa: E402


def rec(config, name, params, value):
    return {'config': config, 'name': name, 'params': params,
            'value': value, 'unit': 'insns'}


def row_of(text, label_start):
    rows = [line for line in text.splitlines()
            if line.startswith(f'| {label_start}')]
    if len(rows) != 1:
        raise AssertionError(f'{len(rows)} rows start with {label_start!r}')
    return [c.strip() for c in rows[0].strip('|').split('|')]


RECORDS = [
    rec('y', 'user_getppid_insns', '', 103.00006),
    rec('n', 'user_getppid_insns', '', 107),
    rec('linux', 'user_getppid_insns', '', 328.5),
    rec('y', 'flip_insns', 'sites=1,batched,cpus=1', 1404.5),
    rec('y', 'flip_insns', 'sites=4,batched,cpus=1', 1920),
    rec('y', 'flip_insns', 'sites=1024,batched,cpus=1', 190464),
    rec('linux', 'flip_insns', 'sites=1,module', 4208),
    rec('linux', 'flip_insns', 'sites=4,module', 14880),
    rec('linux', 'flip_insns', 'sites=56,module', 205151),
    rec('y', 'user_schedstats_flip_insns_per_site', 'sites=11', 482.5),
    rec('linux', 'user_schedstats_flip_insns_per_site', 'sites=76,partial',
        3177.8),
    rec('y-smp', 'flip_sync_rounds', 'sites=56,batched,cpus=4', 3),
]


class TableTest(unittest.TestCase):
    def setUp(self):
        self.text = br.table(RECORDS)

    def test_header_and_every_row(self):
        lines = self.text.splitlines()
        self.assertEqual(lines[0],
                         '| figure | y | n | Linux 6.1 | y / Linux |')
        self.assertEqual(sum(1 for x in lines if x.startswith('| ')),
                         len(br.ROWS) + 1)

    def test_values_and_ratio(self):
        self.assertEqual(row_of(self.text, '`user_getppid_insns`')[1:],
                         ['103', '107', '328.50', '0.314'])

    def test_missing_values_and_columns(self):
        cells = row_of(self.text, '`flip_insns`, 1 / 4')
        self.assertEqual(cells[1], '1,404.5 / 1,920 / ? / ? / 190,464')
        self.assertEqual(cells[2], '-')
        self.assertEqual(cells[3], '4,208 / 14,880 / 205,151 / ? / ?')
        self.assertEqual(cells[4], '0.334 / 0.129 / ? / ? / ?')

    def test_per_site_divides_by_the_sites_of_each_record(self):
        cells = row_of(self.text, 'the same per site |')
        self.assertEqual(cells[1], '1,404.5 / 480 / ? / ? / 186')
        self.assertEqual(cells[3], '4,208 / 3,720 / 3,663.4 / ? / ?')

    def test_prefix_params_and_partial_runs(self):
        cells = row_of(self.text, 'the same per site of the key')
        self.assertEqual(cells[1:4], ['482.50', '-', '3,177.8'])
        self.assertIn('partial run', self.text)
        self.assertNotIn('partial run', br.table(RECORDS[:3]))

    def test_smp_rows_read_the_smp_config(self):
        cells = row_of(self.text, '`flip_sync_rounds`, 56 / 1,024 sites, '
                       'batched')
        self.assertEqual(cells[1], '3 / ?')


class ShortTableTest(unittest.TestCase):
    def test_readme_rows_only_under_their_short_labels(self):
        text = br.table(RECORDS, short=True)
        rows = [x for x in text.splitlines() if x.startswith('| ')]
        self.assertEqual(len(rows), sum(1 for r in br.ROWS if r.readme) + 1)
        self.assertEqual(row_of(text, '`getppid()` from user space')[1:],
                         ['103', '107', '328.50', '0.314'])
        self.assertNotIn('`user_getppid_insns`', text)

    def test_short_labels_are_short(self):
        for row in br.ROWS:
            if row.readme:
                self.assertLessEqual(len(row.readme), 60, row.readme)


class MainTest(unittest.TestCase):
    def test_writes_the_table(self):
        with tempfile.TemporaryDirectory() as tmp:
            results = Path(tmp) / 'results.json'
            results.write_text(json.dumps(RECORDS))
            out = Path(tmp) / 'table.md'
            readme = Path(tmp) / 'README-table.md'
            with redirect_stdout(io.StringIO()):
                self.assertEqual(br.main(['--results', str(results),
                                          '--out', str(out),
                                          '--readme', str(readme)]), 0)
            self.assertEqual(out.read_text(), br.table(RECORDS))
            self.assertEqual(readme.read_text(),
                             br.table(RECORDS, short=True))

    def test_missing_or_corrupt_results_name_the_file(self):
        with tempfile.TemporaryDirectory() as tmp:
            missing = Path(tmp) / 'results.json'
            with self.assertRaisesRegex(SystemExit, 'results.json: No such '
                                        'file.*make bench'):
                br.main(['--results', str(missing)])
            missing.write_text('{not json')
            with self.assertRaisesRegex(SystemExit, 'not JSON'):
                br.main(['--results', str(missing)])


if __name__ == '__main__':
    unittest.main()
