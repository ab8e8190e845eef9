#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""make's handling of CMDLINE, without booting (make test runs it).

check_make_cmdline.py O: O is a configured, built kernel build directory.
Each case runs make with a CMDLINE (as one argument, no shell) and an
ISO_DIR of its own, then checks the words written for grub.cfg or the
refusal; nothing a CMDLINE holds may run as a command.  Exit status 1 if a
case fails.
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
WORK = REPO_ROOT / 'build' / 'make-cmdline'


def cases(work):
    pwned = work / 'pwned'
    return [
        # (name, make target, CMDLINE, words for grub.cfg or None, refusal)
        ('shell quote', 'cmdline', f"a'; touch {pwned}; echo '",
         f"'a'\\'';' 'touch' '{pwned};' 'echo' ''\\'''", None),
        ('make and shell expansions', 'cmdline',
         'x=$HOME y=$(id) z=`id` "w=a b" q=#',
         "'x=$HOME' 'y=$(id)' 'z=`id`' 'w=a b' 'q=#'", None),
        ('open double quote', 'cmdline', 'a="b c', None,
         'refused: a \'"\' is not closed'),
        ('newline in a word', 'cmdline', 'a=b\nc', None,
         "refused: control character '\\n'"),
        ('make run keeps its filter', 'run', 'x=1 "y=a b"',
         "'kunit.filter=speed>slow' 'x=1' 'y=a b'", None),
    ]


def run_case(build, work, target, cmdline):
    iso_dir = work / 'iso'
    shutil.rmtree(iso_dir, ignore_errors=True)
    goal = str(iso_dir / 'cmdline') if target == 'cmdline' else target
    # make run boots with QEMU=true: nothing boots, the ISO is built.
    argv = ['make', f'O={build}', f'ISO_DIR={iso_dir}', f'CMDLINE={cmdline}',
            'QEMU=true', goal]
    proc = subprocess.run(argv, cwd=REPO_ROOT, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True)
    path = iso_dir / 'cmdline'
    words = path.read_text().rstrip('\n') if path.is_file() else None
    return proc, words


def check(build, work, case):
    name, target, cmdline, want, refusal = case
    proc, words = run_case(build, work, target, cmdline)
    problems = []
    if (work / 'pwned').exists():
        problems.append('a command in CMDLINE ran')
        (work / 'pwned').unlink()
    if refusal is None and words != want:
        problems.append(f'grub.cfg words {words!r}, expected {want!r}')
    if refusal is not None:
        if proc.returncode == 0:
            problems.append('make accepted it')
        if refusal not in proc.stderr:
            problems.append(f'no "{refusal}" in make\'s messages')
    if problems:
        print(f'[FAILED] {name}: CMDLINE={cmdline!r}: {"; ".join(problems)}')
        for line in (proc.stdout + proc.stderr).splitlines()[-10:]:
            print(f'  | {line}')
        return False
    print(f'[PASSED] {name}')
    return True


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    build = Path(argv[1]).resolve()
    shutil.rmtree(WORK, ignore_errors=True)
    WORK.mkdir(parents=True)
    results = [check(build, WORK, case) for case in cases(WORK)]
    failed = results.count(False)
    print(f'make CMDLINE checks: {len(results) - failed} passed, {failed} failed')
    return 1 if failed else 0


if __name__ == '__main__':
    os.environ.pop('MAKEFLAGS', None)   # not the -j or -s of a calling make
    sys.exit(main(sys.argv))
