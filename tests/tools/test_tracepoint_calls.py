# SPDX-License-Identifier: GPL-2.0
"""scripts/gen_tracepoint_calls.py: one trace_<name>() macro per
tracepoint declared in the sources, none for the event macros' own
definitions or for names in comments; the output rewritten only when it
changes."""
import os
import tempfile
import unittest
from pathlib import Path

from hosttools import PYTHON, run

GEN = [PYTHON, 'scripts/gen_tracepoint_calls.py']

SOURCE = r'''
/* DECLARE_TRACE(in_a_comment, TP_PROTO(int x), TP_ARGS(x)); */
// TRACE_EVENT(in_a_line_comment, ...
#define TRACE_EVENT(name, proto, args, tstruct, assign, print) \
	DECLARE_TRACE(name, PARAMS(proto), PARAMS(args))
DECLARE_TRACE(plain, TP_PROTO(int x), TP_ARGS(x));
TRACE_EVENT(an_event,
	TP_PROTO(int x), TP_ARGS(x), TP_STRUCT__entry(__field(int, x)),
	TP_fast_assign(__entry->x = x;), TP_printk("x=%d", __entry->x));
DEFINE_EVENT(a_class,
	     of_a_class, TP_PROTO(int x), TP_ARGS(x));
'''


class GenTracepointCallsTest(unittest.TestCase):
    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.dir = Path(tmp.name)
        (self.dir / 'src').mkdir()
        (self.dir / 'src' / 'a.h').write_text(SOURCE)
        (self.dir / 'src' / 'b.txt').write_text(
            'DECLARE_TRACE(not_a_source, TP_PROTO(int x), TP_ARGS(x));\n')
        self.out = self.dir / 'o' / 'include' / 'generated' / 'calls.h'

    def generate(self):
        out = run(GEN + [str(self.out), str(self.dir / 'src')])
        self.assertEqual(out.returncode, 0, out.stderr)
        return self.out.read_text()

    def test_declared_names_only(self):
        text = self.generate()
        for name in ('plain', 'an_event', 'of_a_class'):
            self.assertIn(f'#define trace_{name}(args...) '
                          f'__trace_call({name}, ##args)\n', text)
        for name in ('in_a_comment', 'in_a_line_comment', 'name',
                     'a_class', 'not_a_source'):
            self.assertNotIn(f'trace_{name}(', text)

    def test_unchanged_output_is_not_rewritten(self):
        self.generate()
        os.utime(self.out, (1, 1))
        self.generate()
        self.assertEqual(self.out.stat().st_mtime, 1)
        (self.dir / 'src' / 'c.c').write_text(
            'DECLARE_TRACE(another, TP_PROTO(int x), TP_ARGS(x));\n')
        self.assertIn('trace_another(', self.generate())
        self.assertNotEqual(self.out.stat().st_mtime, 1)

    def test_usage(self):
        out = run(GEN)
        self.assertEqual(out.returncode, 2)
        self.assertIn('usage:', out.stderr)


if __name__ == '__main__':
    unittest.main()
