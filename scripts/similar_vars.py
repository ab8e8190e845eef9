#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""similar_vars.py KNOWN... -- GIVEN...: for each GIVEN that looks like a
KNOWN one (a typo, a missing or extra letter: CPU for CPUS), the line
GIVEN:KNOWN; the top Makefile warns about each."""
import difflib
import sys


def main(argv):
    if '--' not in argv:
        sys.exit(__doc__.splitlines()[0])
    cut = argv.index('--')
    known, given = argv[:cut], argv[cut + 1:]
    for name in given:
        match = [k for k in known if k.lower() == name.lower()]
        match = match or difflib.get_close_matches(name, known, n=1,
                                                   cutoff=0.75)
        if match:
            print(f'{name}:{match[0]}')


if __name__ == '__main__':
    main(sys.argv[1:])
