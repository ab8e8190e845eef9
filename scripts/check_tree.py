#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""check_tree.py O M: is the kernel of build directory O what its tree says?

make M=dir builds modules against the kernel O holds, without rebuilding
it, as Linux's make M= does: modules built against a kernel older than its
sources or configuration would carry a version magic and symbol versions
of a kernel that does not exist, and the ISO would boot the old one. So
before anything is built (the Makefile runs this while it reads itself)
this prints one line saying why the tree is stale, or nothing:

- O/Module.symvers, the last file a build of the kernel and its modules
  writes, is missing: nothing was built there;
- the configuration (O/.config, or the include/config/auto.conf made from
  it) changed after it;
- a file the kernel or an in-tree module was compiled from (every
  dependency the .d files of O list, sources and headers) changed after it;
- the version magic this configuration gives is not the one the kernel
  was built with (O/include/generated/vermagic.h).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vermagic  # noqa: E402


def dep_files(o, m):
    """Every prerequisite the .d files under o name, but those of M=
    directories' objects (out of the tree, or m's own)."""
    deps = set()
    skip = (os.path.join(o, 'extmod'), os.path.join(o, m.rstrip('/')))
    for root, dirs, files in os.walk(o):
        if root in skip or root.startswith(tuple(x + '/' for x in skip)):
            dirs[:] = []
            continue
        for f in files:
            if not f.endswith('.d'):
                continue
            try:
                with open(os.path.join(root, f), encoding='utf-8',
                          errors='replace') as fh:
                    text = fh.read().replace('\\\n', ' ')
            except OSError:
                continue
            for line in text.splitlines():
                _, colon, rest = line.partition(':')
                if colon:
                    # fixdep's "$(wildcard O/include/config/sym/x.h)" too.
                    deps.update(w.rstrip(')') for w in rest.split()
                                if not w.endswith(':') and
                                not w.startswith('$('))
    return deps


def stale(o, m):
    hint = (f"run 'make O={o}' in the tree first: modules built now would "
            "not match the kernel it boots")
    symvers = os.path.join(o, 'Module.symvers')
    try:
        built = os.stat(symvers).st_mtime_ns
    except OSError:
        return (f'make M={m}: no kernel built in {o}/ ({symvers} is '
                f"missing): run 'make O={o}' in the tree first")
    for cfg in (os.path.join(o, '.config'),
                os.path.join(o, 'include/config/auto.conf')):
        try:
            if os.stat(cfg).st_mtime_ns > built:
                return (f'make M={m}: the tree is stale: {cfg} changed after '
                        f'{symvers} was made; {hint}')
        except OSError:
            return f'make M={m}: the tree is stale: no {cfg}; {hint}'
    newer = []
    for dep in sorted(dep_files(o, m)):
        if dep.startswith((o + '/', m.rstrip('/') + '/')):
            continue        # generated, or the M= directory's own
        try:
            if os.stat(dep).st_mtime_ns > built:
                newer.append(dep)
        except OSError:
            newer.append(dep)
    if newer:
        more = f' (and {len(newer) - 1} more)' if len(newer) > 1 else ''
        return (f'make M={m}: the tree is stale: {newer[0]}{more} changed '
                f'after {symvers} was made; {hint}')
    header = os.path.join(o, 'include/generated/vermagic.h')
    try:
        with open(header, encoding='utf-8') as f:
            was = f.read()
    except OSError:
        was = ''
    now = vermagic.vermagic(os.getcwd(),
                            os.path.join(o, 'include/config/auto.conf'))
    if f'"{now}"' not in was:
        return (f"make M={m}: the tree is stale: its version magic is now "
                f"'{now}', not the one its kernel was built with; {hint}")
    return ''


def main(argv):
    if len(argv) != 2:
        print('usage: check_tree.py O M', file=sys.stderr)
        return 2
    print(stale(argv[0].rstrip('/'), argv[1]))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
