#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""merge_config.py KCONFIG OUT BASE [FRAGMENT...]

Writes OUT: the configuration BASE with each FRAGMENT applied on top in
order (a later assignment wins), then completed like olddefconfig.

Fails, with one line per problem and OUT left as it was, when a file
cannot be read, when a line of BASE or a fragment is malformed (kconfiglib
would ignore it), or when a fragment asks for a value that the merged
configuration did not keep (an unmet dependency, a typo, an invalid
value), so that a test configuration never silently differs from what it
asked for. kconfiglib's other warnings about the files are printed too.
OUT is replaced in one step, never left half written.
"""
import os
import re
import sys
import tempfile

import kconfiglib

PROG = "merge_config"

# A string value as .config writes it: "..." with \" and \\ escaped.
STRING_RE = re.compile(r'"((?:[^"\\]|\\.)*)"')
ESCAPE_RE = re.compile(r"\\(.)")


class MergeError(Exception):
    pass


def unquote(val):
    """The value a .config assignment means: strings lose their quotes and
    escapes; None for a malformed string."""
    if not val.startswith('"'):
        return val
    match = STRING_RE.fullmatch(val)
    return ESCAPE_RE.sub(r"\1", match.group(1)) if match else None


def requested(path):
    """Symbol name -> (value, line number, line) the fragment assigns ('n'
    for 'is not set'); the last assignment of a symbol wins."""
    want = {}
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            line = line.strip()
            if line.startswith("CONFIG_") and "=" in line:
                name, val = line.split("=", 1)
                want[name[7:]] = (unquote(val), lineno, line)
            elif line.startswith("# CONFIG_") and line.endswith(" is not set"):
                want[line[9:-11]] = ("n", lineno, line)
    return want


def check_readable(paths):
    for path in paths:
        try:
            with open(path, encoding="utf-8") as f:
                f.read()
        except (OSError, UnicodeDecodeError) as e:
            why = e.strerror if isinstance(e, OSError) else "not UTF-8 text"
            raise MergeError(f"{path}: cannot read: {why}") from e


def load(kconf, path, replace):
    """Loads path into kconf; returns kconfiglib's warnings about it."""
    before = len(kconf.warnings)
    kconf.load_config(path, replace=replace)
    return kconf.warnings[before:]


def mismatches(kconf, path, want):
    """One line per value of want that the configuration did not keep."""
    bad = []
    for name, (val, lineno, line) in want.items():
        sym = kconf.syms.get(name)
        if val is None:
            continue        # a malformed string: kconfiglib reported it
        if sym is None:
            got = f"nothing: there is no symbol {name}"
        elif sym.str_value == val:
            continue
        elif val == "n" and sym.orig_type not in (kconfiglib.BOOL,
                                                   kconfiglib.TRISTATE):
            continue        # "is not set" of a string or number: no value
        else:
            got = (sym.config_string.strip() or
                   f"no value (CONFIG_{name} is not visible)")
        bad.append(f"{path}:{lineno}: '{line}' requested, got {got}")
    return bad


def merge(kconfig, out, base, fragments):
    """The merged configuration written to out; MergeError if not."""
    check_readable([base] + fragments)
    kconf = kconfiglib.Kconfig(kconfig, warn_to_stderr=False)
    warnings = load(kconf, base, replace=True)
    bad = []
    for frag in fragments:
        warnings += load(kconf, frag, replace=False)
        bad += mismatches(kconf, frag, requested(frag))
    # A malformed line is one kconfiglib ignored: an error here.
    bad = [w for w in warnings if "malformed" in w] + bad
    for warning in warnings:
        if warning not in bad:
            print(f"{PROG}: {warning}", file=sys.stderr)
    for line in bad:
        print(f"{PROG}: {line.replace(': warning: ', ': ', 1)}",
              file=sys.stderr)
    if bad:
        raise MergeError(f"{out} left unchanged "
                         f"({len(bad)} problem{'s' if len(bad) > 1 else ''})")
    write(kconf, out)


def file_mode(path):
    """The mode of path, or of a new file (mkstemp's is 0600)."""
    try:
        return os.stat(path).st_mode & 0o7777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def same_file(a, b):
    try:
        with open(a, "rb") as f, open(b, "rb") as g:
            return f.read() == g.read()
    except OSError:
        return False


def write(kconf, out):
    """Writes the configuration to out in one step (a rename), unless out
    holds it already: then out keeps its time, so that what was built from
    it is not older than it (make M= refuses a tree whose .config is newer
    than its modules, and make test configures each of its builds again)."""
    directory = os.path.dirname(out) or "."
    fd, tmp = tempfile.mkstemp(prefix=".merge_config.", dir=directory)
    os.close(fd)
    try:
        kconf.write_config(tmp, save_old=False)
        if same_file(tmp, out):
            os.unlink(tmp)
            return
        os.chmod(tmp, file_mode(out))
        os.replace(tmp, out)
    except BaseException:
        os.unlink(tmp)
        raise


def main(argv):
    if len(argv) < 4:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    kconfig, out, base, fragments = argv[1], argv[2], argv[3], argv[4:]
    try:
        merge(kconfig, out, base, fragments)
    except MergeError as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return 1
    except (OSError, kconfiglib.KconfigError) as e:
        print(f"{PROG}: {e}; {out} left unchanged", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
