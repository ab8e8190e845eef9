#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""check_old_api.py [FILE...]

Keeps new in-tree code off the old static-key API, as Linux's checkpatch
does: STATIC_KEY_INIT, STATIC_KEY_INIT_TRUE/FALSE and static_key_true() /
static_key_false() on a bare struct static_key. The header does not mark
them deprecated (Linux code using them must build under -Werror); this
check is what keeps them out of the tree instead.

A file that tests the old API says so with "old-api: allowed" in a
comment. include/linux/jump_label.h, which defines the names, is not
checked. Without FILE arguments it checks every tracked *.c and *.h
(git ls-files). Prints one line per use, "file:line: ..." and exits 1
if there is any.
"""
import re
import subprocess
import sys

OLD_API = re.compile(
    r"\b(STATIC_KEY_INIT(?:_TRUE|_FALSE)?\b|static_key_(?:true|false)\s*\()")
ALLOWED = "old-api: allowed"
DEFINER = "include/linux/jump_label.h"
REPLACEMENT = {
    "STATIC_KEY_INIT": "DEFINE_STATIC_KEY_FALSE()",
    "STATIC_KEY_INIT_TRUE": "DEFINE_STATIC_KEY_TRUE()",
    "STATIC_KEY_INIT_FALSE": "DEFINE_STATIC_KEY_FALSE()",
    "static_key_true": "static_branch_likely() on a static_key_true",
    "static_key_false": "static_branch_unlikely() on a static_key_false",
}


def tracked_sources():
    out = subprocess.run(["git", "ls-files", "*.c", "*.h"], check=True,
                         capture_output=True, text=True).stdout
    return [p for p in out.splitlines() if p != DEFINER]


def check_text(path, text):
    """The problems of one file, as "path:line: ..." strings."""
    if ALLOWED in text:
        return []
    problems = []
    for n, line in enumerate(text.splitlines(), 1):
        for m in OLD_API.finditer(line):
            name = re.sub(r"\s*\($", "", m.group(1))
            problems.append(f"{path}:{n}: {name} is the old static-key API:"
                            f" use {REPLACEMENT[name]}"
                            f" (or mark a test of it '{ALLOWED}')")
    return problems


def main(argv):
    files = argv[1:] or tracked_sources()
    problems = []
    for path in files:
        with open(path, errors="replace") as f:
            problems += check_text(path, f.read())
    for p in problems:
        print(p)
    print(f"old static-key API: {len(files)} files checked, "
          f"{len(problems)} uses outside tests of it")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
