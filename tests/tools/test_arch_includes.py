# SPDX-License-Identifier: GPL-2.0
"""Generic code reaches the patch engine and static calls' arch code only
through their contracts (<linux/text_batch.h>, <linux/jump_label_arch.h>,
<linux/static_call_arch.h>): no C file outside arch/, other than a test,
includes <asm/text-patching.h> or <asm/static_call.h>."""
import re
import subprocess
import unittest

from hosttools import REPO

ARCH_INTERNALS = ('asm/text-patching.h', 'asm/static_call.h')
INCLUDE_RE = re.compile(r'^\s*#\s*include\s*<([^>]+)>', re.M)


def is_test(path):
    """A suite (*_test.c), a test module or fixture, a build test."""
    return (path.endswith('_test.c') or path.startswith('tests/')
            or path.startswith('modules/'))


def offenders(files):
    """(path, header) for each arch internal a generic C file includes."""
    found = []
    for path, text in files:
        if path.startswith('arch/') or is_test(path):
            continue
        for header in INCLUDE_RE.findall(text):
            if header in ARCH_INTERNALS:
                found.append((path, header))
    return found


class ArchIncludes(unittest.TestCase):
    def test_a_generic_include_is_found_and_tests_are_not(self):
        files = [('kernel/x.c', '#include <linux/kernel.h>\n'
                                '#include <asm/text-patching.h>\n'),
                 ('kernel/x_test.c', '#include <asm/static_call.h>\n'),
                 ('arch/x86/kernel/y.c', '#include <asm/static_call.h>\n'),
                 ('kernel/z.c', '# include <asm/static_call.h>\n')]
        self.assertEqual(offenders(files),
                         [('kernel/x.c', 'asm/text-patching.h'),
                          ('kernel/z.c', 'asm/static_call.h')])

    def test_the_tree_has_none(self):
        paths = subprocess.run(['git', 'ls-files', '*.c'], cwd=REPO,
                               capture_output=True, text=True,
                               check=True).stdout.split()
        files = [(p, (REPO / p).read_text(errors='replace')) for p in paths
                 if (REPO / p).is_file()]
        self.assertGreater(len(files), 100)
        self.assertEqual(offenders(files), [])


if __name__ == '__main__':
    unittest.main()
