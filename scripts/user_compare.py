#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Static binaries on Debian's Linux 6.1 and on this kernel: same output?

make user-compare builds the programs of PROGS (user/tests/NAME.c: gcc
-O2 -static, make user): uconform (the system calls) and uthread
(pthreads), or those --prog names. Each boots as /init of an initramfs on
the Linux that bench_linux.py fetches (linux-image-amd64, cached in
OUT/linux), then as pid 1 of this kernel (init=/bin/NAME, the defconfig
kernel built in OUT/compare), both under the same QEMU flags (1 CPU), and
their "NAME: " lines are diffed.

    OUT/compare/NAME.linux.txt, NAME.ours.txt   the lines of each
    OUT/compare/NAME.{linux,ours}.log           the whole serial consoles
    (uconform's keep their old names: linux.txt, ours.txt, linux.log...)

--expected FILE compares ours with FILE instead of booting Linux (make
test: tests/uconform.linux.out, Linux's output as this script wrote it
with --write-expected); with several programs FILE is the first one's,
and each other program's is tests/NAME.linux.out beside it. The same for
--write-expected. --build DIR uses an existing build directory for our
kernel (make test: build/test-run).

Exit 0: the same lines (or Linux skipped: no package, one line saying so);
1: a difference (the diff is printed) or a boot that did not end in
power-off; 2: usage or build errors.
"""

import argparse
import difflib
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_linux  # noqa: E402
import qemu  # noqa: E402

REPO_ROOT = bench_linux.REPO_ROOT
PROGS = ('uconform', 'uthread')
PREFIX = 'uconform: '  # the first program's, as before
APPEND = 'console=ttyS0 nokaslr quiet panic=-1'
EXIT_OK, EXIT_DIFF, EXIT_USAGE = 0, 1, 2


def prefix_of(prog):
    return f'{prog}: '


def file_name(prog, what):
    """uconform's files keep their old names (linux.txt, ours.log...)."""
    return what if prog == 'uconform' else f'{prog}.{what}'


def program_lines(lines, prog='uconform'):
    """The program's lines: from its prefix on, wherever the line has it."""
    prefix = prefix_of(prog)
    out = []
    for line in lines:
        i = line.find(prefix)
        if i >= 0:
            out.append(line[i:].rstrip())
    return out


def kernel_version(out):
    kernel = bench_linux.unpacked_kernel(out / 'linux' / 'root')
    return kernel.version if kernel else '?'


def build_prog(out, prog='uconform'):
    user_dir = bench_linux.build_user(out / 'compare' / 'user-build')
    return user_dir / prog


def run_linux(out, name, prog, timeout):
    """(lines, None) or (None, why skipped)."""
    try:
        kernel = bench_linux.fetch_kernel(out / 'linux')
    except bench_linux.Skip as exc:
        return None, str(exc)
    files = [('dev', 0o40755, b''), ('dev/console', 0o20600, b'', (5, 1)),
             ('proc', 0o40755, b''),
             ('init', 0o100755, prog.read_bytes())]
    initrd = out / 'compare' / 'initramfs.cpio'
    initrd.write_bytes(bench_linux.cpio_archive(files))
    log = out / 'compare' / file_name(name, 'linux.log')
    print(f'user-compare: Linux {kernel.version}, {name} as /init '
          f'(log {log})')
    argv = bench_linux.qemu_argv(kernel, initrd, APPEND, 1, False)
    lines, result = bench_linux.boot(argv, log, timeout)
    if result.timed_out or result.error:
        raise bench_linux.Failed(f'Linux: {result.describe()}, see {log}')
    return lines, None


def make(args, build_dir):
    done = subprocess.run(['make', '-s', f'O={build_dir}'] + args,
                          cwd=REPO_ROOT, capture_output=True, text=True,
                          check=False)
    if done.returncode:
        raise bench_linux.Failed(f'make {" ".join(args)} failed:\n'
                                 f'{(done.stdout + done.stderr)[-2000:]}')


def run_ours(out, build_dir, name, prog, timeout):
    if not (build_dir / '.config').exists():
        make(['FRAGMENTS=', 'fragconfig'], build_dir)
    iso_dir = build_dir / name
    make([f'ISO_DIR={iso_dir}', f'INIT={prog}', f'USER_PROGS={name}',
          f'CMDLINE=init=/bin/{name}', 'iso'], build_dir)
    log = out / 'compare' / file_name(name, 'ours.log')
    print(f'user-compare: this kernel, {name} as pid 1 (log {log})')
    lines = []
    result = qemu.boot(qemu.command(iso_dir / 'kernel.iso', cpus=1),
                       timeout, lines.append, f'{log}.stderr')
    log.write_text('\n'.join(lines) + '\n', encoding='utf-8')
    if result.status != qemu.STATUS_PASS:
        print(f'user-compare: ours did not power off ({result.describe()})')
        return lines, False
    return lines, True


def diff(name_a, a, name_b, b):
    out = list(difflib.unified_diff(a, b, name_a, name_b, lineterm='', n=1))
    for line in out:
        print(line)
    return not out


def expected_file(first, prog, index):
    """The expected file of the index-th program, FILE for the first."""
    if first is None:
        return None
    first = Path(first)
    return first if index == 0 else first.parent / f'{prog}.linux.out'


def write_expected(path, prog, version, lines):
    path.write_text(
        f'# {prog} (user/tests/{prog}.c) as /init on '
        f"Debian's Linux {version} under\n"
        "# QEMU, 1 CPU: written by scripts/user_compare.py "
        "--write-expected from Linux's\n"
        '# console; make test checks this kernel\'s output '
        'against it.\n' + ''.join(x + '\n' for x in lines))


def compare_one(args, out, build_dir, name, prog, index):
    """One program on both kernels: EXIT_OK, EXIT_DIFF or EXIT_USAGE, and
    whether Linux was skipped (no package: nothing else to compare)."""
    expected = expected_file(args.expected, name, index)
    try:
        if expected:
            try:
                linux = expected.read_text().splitlines()
            except OSError as exc:
                print(f'user-compare: {expected}: {exc.strerror}')
                return EXIT_USAGE, False
            linux = [x for x in linux if x.startswith(prefix_of(name))]
            linux_name = str(expected)
        else:
            lines, skipped = run_linux(out, name, prog, args.timeout)
            if skipped:
                print(f'user-compare: skipped: {skipped}')
                return EXIT_OK, True
            linux = program_lines(lines, name)
            linux_name = 'linux'
            (out / 'compare' / file_name(name, 'linux.txt')).write_text(
                ''.join(x + '\n' for x in linux))
            dest = expected_file(args.write_expected, name, index)
            if dest:
                write_expected(dest, name, kernel_version(out), linux)
        lines, powered_off = run_ours(out, build_dir, name, prog,
                                      args.timeout)
    except bench_linux.Failed as exc:
        print(f'user-compare: failed: {exc}')
        return EXIT_USAGE, False
    ours = program_lines(lines, name)
    (out / 'compare' / file_name(name, 'ours.txt')).write_text(
        ''.join(x + '\n' for x in ours))
    same = diff(linux_name, linux, 'ours', ours)
    if same and linux and powered_off:
        print(f'user-compare: {name}: the same {len(ours)} lines on Linux '
              'and here')
        return EXIT_OK, False
    if not linux:
        print(f'user-compare: {name}: Linux printed no line')
    print(f'user-compare: {name}: different: {out / "compare"}/'
          f'{file_name(name, "{linux,ours}.txt")}')
    return EXIT_DIFF, False


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog='user_compare.py', description='user/tests/uconform.c and '
        "uthread.c on Debian's Linux and on this kernel: the same output?",
        epilog='See the docstring at the top of scripts/user_compare.py.')
    parser.add_argument('--out', default=bench_linux.DEFAULT_OUT,
                        metavar='DIR', help='cache and results (default '
                        'build/bench)')
    parser.add_argument('--build', metavar='DIR', help='our kernel\'s build '
                        'directory (default OUT/compare/kernel)')
    parser.add_argument('--prog', action='append', choices=PROGS,
                        help='a program to compare (repeatable; default: '
                        f'{", ".join(PROGS)})')
    parser.add_argument('--expected', metavar='FILE', help="compare ours "
                        "with FILE (Linux's lines) instead of booting Linux")
    parser.add_argument('--write-expected', metavar='FILE', help="write "
                        "Linux's lines to FILE")
    parser.add_argument('--timeout', type=float, default=120, metavar='S')
    args = parser.parse_args(argv)
    if hasattr(sys.stdout, 'reconfigure'):
        sys.stdout.reconfigure(line_buffering=True, errors='replace')
    out = Path(args.out).resolve()
    (out / 'compare').mkdir(parents=True, exist_ok=True)
    build_dir = Path(args.build).resolve() if args.build else \
        out / 'compare' / 'kernel'
    worst = EXIT_OK
    for index, name in enumerate(args.prog or PROGS):
        try:
            prog = build_prog(out, name)
        except bench_linux.Failed as exc:
            print(f'user-compare: failed: {exc}')
            return EXIT_USAGE
        code, skipped = compare_one(args, out, build_dir, name, prog, index)
        worst = max(worst, code)
        if skipped or code == EXIT_USAGE:
            break
    return worst


if __name__ == '__main__':
    sys.exit(main())
