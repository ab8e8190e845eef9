#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""make iso and make run on bad input (make test runs it).

check_make_input.py O [RUN_O]: O is a configured, built kernel build
directory; RUN_O (default O) the one of the kernel make run boots, with no
test built in, for the cases marked "run_kernel" (the memory limits:
README's MEM=10M is for that kernel; the test kernel carries some eighty
test modules more).
Each case runs make with its variables (each one argument, no shell) and an
ISO_DIR of its own, then checks the words written for grub.cfg, make's
exit status and what it printed (given "stdin", make run reads it as
`echo ... | make run` does); nothing a CMDLINE holds may run as a command.  The make run cases boot QEMU once each (a second or two), or not
at all with QEMU=true.  Exit status 1 if a case fails.
"""

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
WORK = REPO_ROOT / 'build' / 'make-input'
TIMEOUT = 120       # a boot that hangs fails its case


def cases(work):
    """name, target ("cmdline": the ISO_DIR's cmdline file), make
    variables ("cwd": plain make in that directory of the tree), then what
    must hold: "words" for grub.cfg, "fails" (whether make exits
    non-zero), "code" (its exit status), "says" (text in make's
    output)."""
    pwned = work / 'pwned'
    return [
        dict(name='shell quote', target='cmdline',
             vars={'CMDLINE': f"a'; touch {pwned}; echo '"},
             words=f"'a'\\'';' 'touch' '{pwned};' 'echo' ''\\'''",
             fails=False),
        dict(name='make and shell expansions', target='cmdline',
             vars={'CMDLINE': 'x=$HOME y=$(id) z=`id` "w=a b" q=#'},
             words="'x=$HOME' 'y=$(id)' 'z=`id`' 'w=a b' 'q=#'",
             fails=False),
        dict(name='open double quote', target='cmdline',
             vars={'CMDLINE': 'a="b c'}, fails=True,
             says='refused: a \'"\' is not closed'),
        dict(name='newline in a word', target='cmdline',
             vars={'CMDLINE': 'a=b\nc'}, fails=True,
             says="refused: control character '\\n'"),
        dict(name='make run starts the console', target='run',
             vars={'CMDLINE': 'x=1 "y=a b"', 'QEMU': 'true'},
             words="'shell' 'x=1' 'y=a b'"),
        dict(name='make run reads piped stdin', target='run',
             vars={'CPUS': '1'}, stdin='uptime; keys kunit_running\npoweroff\n',
             fails=False, says='1 of '),
        dict(name='make run, shell=off and a filter that matches nothing',
             target='run', vars={'CMDLINE': 'shell=off kunit.filter_glob='
                                            'no_such_suite', 'CPUS': '1'},
             fails=True, says='kunit: no test matches kunit.filter_glob='
                              'no_such_suite kunit.filter=:'),
        # The figures of README and Documentation/boot.rst: the boot
        # archive carries the programs packed, unpacked when first run.
        dict(name='make run with MEM=10M, as README says: it boots and runs '
                  'a program', run_kernel=True,
             target='run', vars={'MEM': '10M', 'CPUS': '1'},
             stdin='exec hello\npoweroff\n', fails=False,
             says='hello: exit status 3'),
        dict(name='make run with MEM=16M, as README says: ucheck passes',
             run_kernel=True, target='run', vars={'MEM': '16M', 'CPUS': '1'},
             stdin='exec ucheck\n', fails=False,
             says='ucheck: exit status 0'),
        dict(name='make run with MEM=5M, without user programs (USER_PROGS=)',
             run_kernel=True, target='run',
             vars={'MEM': '5M', 'CPUS': '1', 'USER_PROGS': ''},
             stdin='poweroff\n', fails=False, says='reboot: Power down'),
        dict(name='make run, too little memory for GRUB', target='run',
             run_kernel=True,
             vars={'MEM': '2M', 'CPUS': '1', 'USER_PROGS': ''}, fails=True,
             says='grub: cannot load the kernel'),
        dict(name='make run < script with a failing command exits 2, as '
                  'README says', run_kernel=True, target='run',
             vars={'CPUS': '1', 'USER_PROGS': ''}, stdin='echo a\nno_such_cmd\n',
             code=2, says='qemu: a console command failed'),
        dict(name='a misspelt variable (CPU=2) draws a warning naming CPUS',
             target='cmdline', vars={'CPU': '2', 'EXTRA_MODULE': 'x'},
             fails=False, says='CPU=: no such variable; did you mean CPUS=?'),
        dict(name='INIT= a file that does not exist', target='cmdline',
             vars={'INIT': 'no_such_prog'}, fails=True,
             says='INIT=no_such_prog: no such file (looked for '
                  f'{REPO_ROOT}/no_such_prog)'),
        dict(name='USER_PROGS= a program that does not exist', target='cmdline',
             vars={'USER_PROGS': 'hello no_such_prog'}, fails=True,
             says='USER_PROGS: no program no_such_prog: looked for '
                  'user/*/no_such_prog.c'),
        dict(name='M= a directory that does not exist', target='cmdline',
             vars={'M': 'no/such/dir'}, fails=True,
             says=f'M=no/such/dir: no such directory: looked for '
                  f'{REPO_ROOT}/no/such/dir'),
        dict(name='make in a subdirectory says where to run it', cwd='kernel',
             target='', vars={}, fails=True,
             says='kernel/Makefile lists objects for the top-level Makefile, '
                  f'which is not here: looked for targets in {REPO_ROOT}/kernel'),
        # GRUB may run out of memory even for its own line (it still
        # powers off with status 41): what make says of that status is
        # the error this case asks for.
        dict(name='the test kernel and its boot archive, too little memory '
                  'for GRUB: an error, not a hang', target='run',
             vars={'MEM': '2M', 'CPUS': '1', 'USER_PROGS': ''}, fails=True,
             says='qemu: GRUB could not load the kernel'),
    ]


def run_case(build, work, case):
    iso_dir = work / 'iso'
    shutil.rmtree(iso_dir, ignore_errors=True)
    target = case['target']
    goal = str(iso_dir / 'cmdline') if target == 'cmdline' else target
    argv = ['make', f'O={build}', f'ISO_DIR={iso_dir}']
    if 'cwd' in case:       # plain make in a directory of the tree
        argv, goal = ['make'], []
    else:
        goal = [goal]
    argv += [f'{key}={value}' for key, value in case['vars'].items()]
    piped = case.get('stdin')
    with subprocess.Popen(argv + goal, cwd=REPO_ROOT / case.get('cwd', '.'),
                          stdin=subprocess.PIPE if piped else subprocess.DEVNULL,
                          stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, errors='replace',
                          start_new_session=True) as proc:
        try:
            out, err = proc.communicate(input=piped, timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)     # make, QEMU and all
            out, err = proc.communicate()
            err += f'\n(killed after {TIMEOUT}s)'
    path = iso_dir / 'cmdline'
    words = path.read_text().rstrip('\n') if path.is_file() else None
    return subprocess.CompletedProcess(argv, proc.returncode, out, err), words


def problems_of(case, proc, words, pwned):
    problems = []
    if pwned.exists():
        problems.append('a command in CMDLINE ran')
        pwned.unlink()
    if 'words' in case and words != case['words']:
        problems.append(f'grub.cfg words {words!r}, expected {case["words"]!r}')
    if 'fails' in case and case['fails'] != (proc.returncode != 0):
        problems.append(f'make exited with {proc.returncode}')
    if 'code' in case and case['code'] != proc.returncode:
        problems.append(f'make exited with {proc.returncode}, not '
                        f'{case["code"]}')
    if 'says' in case and case['says'] not in proc.stdout + proc.stderr:
        problems.append(f'no "{case["says"]}" in make\'s output')
    return problems


def check(build, work, case):
    proc, words = run_case(build, work, case)
    problems = problems_of(case, proc, words, work / 'pwned')
    if problems:
        print(f'[FAILED] {case["name"]}: {case["vars"]!r}: {"; ".join(problems)}')
        for line in (proc.stdout + proc.stderr).splitlines()[-10:]:
            print(f'  | {line}')
        return False
    print(f'[PASSED] {case["name"]}')
    return True


def main(argv):
    if len(argv) not in (2, 3):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    build = Path(argv[1]).resolve()
    run_build = Path(argv[-1]).resolve()
    shutil.rmtree(WORK, ignore_errors=True)
    WORK.mkdir(parents=True)
    results = [check(run_build if case.get('run_kernel') else build, WORK,
                     case) for case in cases(WORK)]
    failed = results.count(False)
    print(f'make input checks: {len(results) - failed} passed, {failed} failed')
    return 1 if failed else 0


if __name__ == '__main__':
    os.environ.pop('MAKEFLAGS', None)   # not the -j or -s of a calling make
    sys.exit(main(sys.argv))
