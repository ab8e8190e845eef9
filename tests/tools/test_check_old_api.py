# SPDX-License-Identifier: GPL-2.0
"""scripts/check_old_api.py: the old static-key API is refused in new code."""
import sys
import tempfile
import unittest
from pathlib import Path

from hosttools import REPO, PYTHON, run

sys.path.insert(0, str(REPO / 'scripts'))
import check_old_api  # noqa: E402


class CheckOldApi(unittest.TestCase):
    def test_each_old_name_is_reported_with_its_line(self):
        text = ('struct static_key a = STATIC_KEY_INIT_TRUE;\n'
                'struct static_key b = STATIC_KEY_INIT;\n'
                'int f(void) { return static_key_false (&a); }\n'
                'int g(void) { return static_key_true(&b); }\n')
        got = check_old_api.check_text('x.c', text)
        self.assertEqual([p.split(' ')[0] for p in got],
                         ['x.c:1:', 'x.c:2:', 'x.c:3:', 'x.c:4:'])
        self.assertIn('STATIC_KEY_INIT_TRUE is the old', got[0])
        self.assertIn('static_key_false is the old', got[2])

    def test_new_api_and_lookalikes_pass(self):
        text = ('DEFINE_STATIC_KEY_FALSE(k);\n'
                'struct static_key_false k2 = STATIC_KEY_FALSE_INIT;\n'
                'bool x = static_key_enabled(&k) || static_key_count(&k.key);\n'
                'struct static_key_true *p = &my_static_key_true_thing;\n')
        self.assertEqual(check_old_api.check_text('y.c', text), [])

    def test_a_test_of_the_old_api_may_say_so(self):
        text = ('/* old-api: allowed, a test of it */\n'
                'struct static_key a = STATIC_KEY_INIT_FALSE;\n')
        self.assertEqual(check_old_api.check_text('t.c', text), [])

    def test_the_tree_is_clean_and_a_bad_file_fails(self):
        res = run([PYTHON, 'scripts/check_old_api.py'])
        self.assertEqual(res.returncode, 0, res.stdout + res.stderr)
        with tempfile.TemporaryDirectory() as d:
            bad = Path(d) / 'old_api_user.c'
            bad.write_text('struct static_key k = STATIC_KEY_INIT_FALSE;\n')
            res = run([PYTHON, 'scripts/check_old_api.py', str(bad)])
        self.assertEqual(res.returncode, 1, res.stdout)
        self.assertIn('old_api_user.c:1: STATIC_KEY_INIT_FALSE', res.stdout)


if __name__ == '__main__':
    unittest.main()
