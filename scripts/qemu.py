#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The QEMU command line that boots the kernel ISO, and running it.

command() is the one place the command line is built: `make run`,
`make debug`, scripts/kunit.py (and so scripts/bench.py) all use it.
Run "scripts/qemu.py run --help" for the command line interface.
"""

import argparse
import os
import queue
import shlex
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass

DEFAULT_QEMU = 'qemu-system-x86_64'
DEFAULT_MEM = '256M'
ICOUNT = 'shift=0,align=off,sleep=off'

# The kernel powers off through isa-debug-exit (port 0xf4), which makes QEMU
# exit with (value << 1) | 1; status 0 is a reset (triple fault), since
# QEMU runs with -no-reboot. 39: the filters selected no test; 41: GRUB
# could not load the kernel (scripts/mkiso.sh writes 0x14 to the port).
STATUS_PASS, STATUS_FAIL, STATUS_PANIC, STATUS_RESET = 33, 35, 37, 0
STATUS_NO_TESTS, STATUS_NO_KERNEL = 39, 41
# 43: the kernel rebooted (machine_restart() says so before resetting);
# 0x20 + code: an INIT= program (pid 1) exited with that code (its low 5
# bits); 0x40 + signal: it was killed (kernel/process.c).
STATUS_REBOOT = 43
INIT_EXITED, INIT_KILLED = 0x20, 0x40

# `qemu.py run` exit code and message for each QEMU status; any other
# status exits with 2.
RUN_EXITS = {
    STATUS_PASS: (0, None),
    STATUS_FAIL: (1, 'kernel reported failed tests'),
    STATUS_PANIC: (2, 'kernel panic'),
    STATUS_RESET: (2, 'the machine reset (triple fault?)'),
    STATUS_NO_TESTS: (2, 'no test ran: the filters select none (the kernel '
                         'said which)'),
    STATUS_NO_KERNEL: (2, 'GRUB could not load the kernel (its error is '
                          'above; out of memory: too little RAM)'),
    STATUS_REBOOT: (0, 'the kernel rebooted: QEMU runs with -no-reboot, so '
                       'the machine stops here'),
}
EXIT_INTERRUPTED = 130


def default_qemu():
    """$KUNIT_QEMU split like a shell would, else qemu-system-x86_64."""
    return shlex.split(os.environ.get('KUNIT_QEMU', '')) or [DEFAULT_QEMU]


def command(iso, cpus=4, mem=DEFAULT_MEM, icount=False, gdb=False,
            extra=(), qemu=None):
    """The argv that boots iso with the serial console on stdio.

    icount: deterministic timing, rdtsc counts instructions; gdb: halt at
    the start with a gdb stub on port 1234; extra: more QEMU arguments;
    qemu: the QEMU command as a list (default: default_qemu()).
    """
    argv = list(qemu or default_qemu())
    argv += ['-cdrom', str(iso), '-m', mem, '-smp', str(cpus),
             '-display', 'none', '-no-reboot', '-monitor', 'none',
             '-serial', 'stdio',
             '-device', 'isa-debug-exit,iobase=0xf4,iosize=0x04']
    if icount:
        argv += ['-icount', ICOUNT]
    if gdb:
        argv += ['-s', '-S']
    return argv + list(extra)


# ---------------------------------------------------------------------------
# Booting with a timeout, the serial console streamed line by line
# ---------------------------------------------------------------------------

@dataclass
class QemuResult:
    timeout: float
    status: int | None = None         # negative: killed by that signal
    timed_out: bool = False
    interrupted: bool = False
    error: str | None = None          # QEMU could not be started
    elapsed: float = 0.0

    def describe(self):
        if self.error:
            return 'did not start'
        if self.interrupted:
            return 'interrupted'
        if self.timed_out:
            return f'killed after {self.timeout:g}s timeout'
        return f'exit status {self.status}'


def _pump(stream, lines):
    """Reader thread: decoded serial lines into a queue, None at EOF."""
    try:
        for raw in iter(stream.readline, b''):
            lines.put(raw.decode('utf-8', 'replace').rstrip('\r\n'))
    finally:
        lines.put(None)


def _kill_group(proc):
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _stream(proc, lines, deadline, on_line):
    """Pass lines to on_line until the output ends.

    Returns 'eof', 'timeout', or 'orphaned' (QEMU exited but something it
    started still holds the serial pipe open).
    """
    exited_at = None
    while True:
        now = time.monotonic()
        if now >= deadline:
            return 'timeout'
        try:
            line = lines.get(timeout=min(0.5, deadline - now))
        except queue.Empty:
            if proc.poll() is not None:
                exited_at = exited_at or now
                if now - exited_at > 2:
                    return 'orphaned'
            continue
        if line is None:
            return 'eof'
        on_line(line)


def _drain(lines, on_line):
    while True:
        try:
            line = lines.get_nowait()
        except queue.Empty:
            return
        if line is not None:
            on_line(line)


# The QEMUs boot() is running, for kill_all().
_running = set()


def kill_all():
    """Kills every QEMU boot() started and has not seen end (^C)."""
    for proc in list(_running):
        _kill_group(proc)


def cpu_seconds(pid):
    """User plus system CPU time of a live process, or None."""
    try:
        with open(f'/proc/{pid}/stat', encoding='ascii') as stat:
            fields = stat.read().rsplit(')', 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf('SC_CLK_TCK')
    except (OSError, ValueError, IndexError):
        return None


def boot(argv, timeout, on_line, stderr_path, on_start=None):
    """Run argv, calling on_line(line) for each serial line; kill it after
    timeout seconds.  QEMU's stderr goes to stderr_path; on_start(pid) is
    called once it runs."""
    result = QemuResult(timeout=timeout)
    start = time.monotonic()
    deadline = start + timeout
    with open(stderr_path, 'wb') as stderr:
        try:
            proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL,
                                    stdout=subprocess.PIPE, stderr=stderr,
                                    start_new_session=True)
        except OSError as exc:
            result.error = f'cannot run {argv[0]}: {exc.strerror}'
            return result
        _running.add(proc)
        if on_start:
            on_start(proc.pid)
        lines = queue.Queue()
        reader = threading.Thread(target=_pump, args=(proc.stdout, lines),
                                  daemon=True)
        reader.start()
        clean = False
        try:
            end = _stream(proc, lines, deadline, on_line)
            result.timed_out = end == 'timeout'
            if end == 'eof':
                proc.wait(timeout=max(0.1, deadline - time.monotonic()))
                clean = True
        except subprocess.TimeoutExpired:
            result.timed_out = True
        except KeyboardInterrupt:
            result.interrupted = True
        finally:
            if not clean:
                _kill_group(proc)   # QEMU itself, or what it left behind
            result.status = proc.wait()
            _running.discard(proc)
        reader.join(timeout=2)
        _drain(lines, on_line)
    result.elapsed = time.monotonic() - start
    return result


# ---------------------------------------------------------------------------
# Command line: `make run` and `make debug`
# ---------------------------------------------------------------------------

def run_exit(status):
    """The exit code for a QEMU status, and what to say about it."""
    if status < 0:
        return 2, f'killed by signal {-status}'
    value = status >> 1
    if status & 1 and INIT_EXITED <= value < INIT_KILLED:
        code = value - INIT_EXITED
        return (1 if code else 0), f'the init program exited with {code}'
    if status & 1 and INIT_KILLED <= value < 0x80:
        return 2, f'the init program was killed by signal {value - INIT_KILLED}'
    return RUN_EXITS.get(status, (2, f'exited with status {status} (not a '
                                     'status the kernel gives)'))


# At a terminal: ^C goes to the kernel's console (it drops the line; a
# second one in a row powers off), and ^] x ends QEMU whatever the kernel
# does (QEMU's multiplexer, its escape moved off ^A, the console's home key).
TERMINAL_SERIAL = ['-chardev', 'stdio,id=console,signal=off,mux=on',
                   '-serial', 'chardev:console', '-echr', '29']


def terminal_argv(argv):
    """argv with the serial console on stdio as TERMINAL_SERIAL has it."""
    for i in range(len(argv) - 1):
        if argv[i:i + 2] == ['-serial', 'stdio']:
            return argv[:i] + TERMINAL_SERIAL + argv[i + 2:]
    return argv


def run_interactive(argv):
    """Run QEMU on this terminal (TERMINAL_SERIAL).  Returns the exit
    code of `qemu.py run`."""
    argv = terminal_argv(argv)
    try:
        proc = subprocess.Popen(argv)
    except OSError as exc:
        print(f'qemu: cannot run {argv[0]}: {exc.strerror}', file=sys.stderr)
        return 2
    interrupted = []
    signal.signal(signal.SIGINT, lambda signum, frame: interrupted.append(1))
    status = proc.wait()
    if interrupted:
        print('qemu: interrupted', file=sys.stderr)
        return EXIT_INTERRUPTED
    code, message = run_exit(status)
    if status == STATUS_RESET:     # at a terminal, ^] x ends QEMU so too
        message = ('QEMU ended with status 0: ^] x, or a reset the kernel '
                   'did not ask for (triple fault?)')
    if message:
        print(f'qemu: {message}', file=sys.stderr)
    return code


EOF_BYTE = b'\x04'   # ^D: the console's end of input


def _forward(src, dst):
    """Copies src to dst as it comes, then ends the console's input: a
    newline if the last line had none (it runs), ^D, and dst is closed."""
    last = b'\n'
    try:
        while True:
            chunk = os.read(src, 65536)
            if not chunk:
                break
            dst.write(chunk)
            dst.flush()
            last = chunk[-1:]
        dst.write((b'' if last in (b'\n', b'\r') else b'\n') + EOF_BYTE)
        dst.flush()
        dst.close()
    except (BrokenPipeError, ValueError, OSError):
        pass      # QEMU is gone: nothing more to say to it


def run_scripted(argv, stdin_fd=0):
    """Run QEMU with stdin (a pipe or a file, not a terminal) forwarded to
    the serial console, followed by the end of input: the kernel's console
    runs each command and powers off when it reads ^D, with status 33 if
    every command succeeded, 35 otherwise.  Returns the exit code."""
    try:
        proc = subprocess.Popen(argv, stdin=subprocess.PIPE)
    except OSError as exc:
        print(f'qemu: cannot run {argv[0]}: {exc.strerror}', file=sys.stderr)
        return 2
    threading.Thread(target=_forward, args=(stdin_fd, proc.stdin),
                     daemon=True).start()
    try:
        status = proc.wait()
    except KeyboardInterrupt:
        proc.kill()
        proc.wait()
        print('qemu: interrupted', file=sys.stderr)
        return EXIT_INTERRUPTED
    if status == STATUS_FAIL:
        print('qemu: a console command failed (the console named the first '
              'one above), or, with shell=off, a test', file=sys.stderr)
        return 1
    code, message = run_exit(status)
    if message:
        print(f'qemu: {message}', file=sys.stderr)
    return code


RUN_HELP = """\
exit codes:
  0    QEMU exited with status 33: clean power-off, the tests passed (or,
       stdin a pipe or a file, the console ran every command of it)
  1    status 35: some test failed, or (stdin a pipe or a file) a console
       command failed
  2    status 37 (kernel panic), 0 (triple fault: the machine reset), 39
       (no test matched the filters), 41 (GRUB could not load the kernel),
       any other status, or QEMU could not be started
  130  interrupted (a signal; at a terminal ^C goes to the console, which
       drops the line, and a second ^C powers off; ^] x ends QEMU)
  0 or 1 after an INIT= program exited (0 or another code), 0 after the
       kernel's reboot

environment:
  KUNIT_QEMU  the QEMU command when --qemu is not given"""


def build_arg_parser():
    parser = argparse.ArgumentParser(
        prog='qemu.py', epilog=RUN_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description='Boot the kernel ISO under QEMU with the serial console '
                    'on this terminal\n(make run, make debug).')
    sub = parser.add_subparsers(dest='command', required=True,
                                metavar='COMMAND')
    run = sub.add_parser('run', help='boot the ISO and map the exit status',
                         formatter_class=argparse.RawDescriptionHelpFormatter,
                         description='Boot the ISO; the exit code says '
                                     'whether the tests passed.',
                         epilog=RUN_HELP)
    run.add_argument('--iso', required=True, help='the GRUB ISO to boot')
    run.add_argument('--cpus', type=int, default=4, metavar='N',
                     help='QEMU -smp (default 4)')
    run.add_argument('--mem', default=DEFAULT_MEM, metavar='SIZE',
                     help=f'QEMU -m (default {DEFAULT_MEM})')
    run.add_argument('--icount', action='store_true',
                     help=f'deterministic timing: -icount {ICOUNT}')
    run.add_argument('--gdb', action='store_true',
                     help='start halted with a gdb stub on port 1234 (-s -S)')
    run.add_argument('--qemu', metavar='CMD',
                     help='QEMU command, split like a shell would (default '
                          '$KUNIT_QEMU, else qemu-system-x86_64)')
    run.add_argument('extra', nargs='*', metavar='QEMU_ARG',
                     help='more QEMU arguments (write "--" before the first)')
    return parser


def main(argv=None):
    args = build_arg_parser().parse_args(argv)
    qemu = shlex.split(args.qemu) if args.qemu else None
    run = run_interactive
    if not args.gdb and not os.isatty(0):
        run = run_scripted     # a script: its end is the console's
    return run(command(args.iso, cpus=args.cpus, mem=args.mem,
                                   icount=args.icount, gdb=args.gdb,
                                   extra=args.extra, qemu=qemu))


if __name__ == '__main__':
    sys.exit(main())
