#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""merge_config.py KCONFIG OUT BASE [FRAGMENT...]

Writes OUT: the configuration BASE with each FRAGMENT applied on top in
order (a later assignment wins), then completed like olddefconfig. Warns
when a fragment asks for a value that the merged configuration did not keep
(an unmet dependency, a typo), and fails in that case so that a test
configuration never silently differs from what it asked for.
"""
import sys

import kconfiglib


def requested(path):
    """Symbol name -> value the fragment assigns (n for 'is not set')."""
    want = {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line.startswith("CONFIG_") and "=" in line:
                name, val = line.split("=", 1)
                want[name[7:]] = val.strip('"')
            elif line.startswith("# CONFIG_") and line.endswith(" is not set"):
                want[line[9:-11]] = "n"
    return want


def main(argv):
    if len(argv) < 4:
        sys.exit(__doc__)
    kconf = kconfiglib.Kconfig(argv[1], warn_to_stderr=False)
    kconf.load_config(argv[3])
    want = {}
    for frag in argv[4:]:
        kconf.load_config(frag, replace=False)
        want.update(requested(frag))
    bad = 0
    for name, val in want.items():
        sym = kconf.syms.get(name)
        if sym is None or sym.str_value != val:
            got = "undefined" if sym is None else sym.str_value
            print(f"merge_config: CONFIG_{name}={val} requested, got {got}",
                  file=sys.stderr)
            bad = 1
    kconf.write_config(argv[2], save_old=False)
    return bad


if __name__ == "__main__":
    sys.exit(main(sys.argv))
