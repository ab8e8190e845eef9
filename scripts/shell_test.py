#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Drives the kernel console through QEMU's serial console (make test).

Boots an ISO whose command line says "shell" twice:

1. interactive: waits for the prompt, then for each step of the session
   file (tests/shell_session.json) writes the bytes, reads until the next
   prompt and checks that every regex of "expect" matches the output and
   none of "reject" does (re.M, CR LF read as LF); the last step is
   poweroff, and QEMU must exit with status 33;
2. piped: writes a few commands at once before the kernel is up and closes
   stdin, as `echo "...; poweroff" | make run` does; the output must show
   them and QEMU must exit with 33 (a session file without "piped" has
   the interactive boot only).

Exit status 0 when everything matched, 1 otherwise. Each boot has a timeout.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import qemu  # noqa: E402

PROMPT = '\r\nsk> '
STATUS_POWEROFF = qemu.STATUS_PASS


class Console:
    """QEMU with the serial console on pipes; output collected by a thread."""

    def __init__(self, iso, cpus, log):
        argv = qemu.command(iso, cpus=cpus)
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT,
                                     start_new_session=True)
        self.buf = ''
        self.lock = threading.Lock()
        self.log = log
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for chunk in iter(lambda: os.read(self.proc.stdout.fileno(), 4096),
                          b''):
            text = chunk.decode('utf-8', 'replace')
            self.log.write(text)
            with self.lock:
                self.buf += text

    def send(self, data):
        self.proc.stdin.write(data.encode())
        self.proc.stdin.flush()

    def wait_prompt(self, start, deadline):
        """The output from start up to a prompt that ends it, or None."""
        while time.monotonic() < deadline:
            with self.lock:
                text = self.buf[start:]
            if text.endswith(PROMPT):
                time.sleep(0.1)  # a prompt, not the start of more output
                with self.lock:
                    if self.buf[start:] == text:
                        return text
                continue
            if self.proc.poll() is not None:
                return None
            time.sleep(0.05)
        return None

    def wait_exit(self, deadline):
        """QEMU's exit status, once all it wrote is in buf (the reader
        sees EOF after the exit: checking before that loses the last
        lines, such as the echo of the poweroff that ended it)."""
        try:
            status = self.proc.wait(
                timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            self.kill()
            status = None
        self.reader.join(timeout=10)
        return status

    def kill(self):
        try:
            os.killpg(self.proc.pid, 9)
        except ProcessLookupError:
            pass
        self.proc.wait()


def check(name, text, step):
    """Failures of one step's regexes against its output."""
    text = text.replace('\r\n', '\n')
    errors = []
    for rx in step.get('expect', []):
        if not re.search(rx, text, re.M):
            errors.append(f'{name}: expected /{rx}/')
    for rx in step.get('reject', []):
        if re.search(rx, text, re.M):
            errors.append(f'{name}: unexpected /{rx}/')
    return errors


def step_name(step):
    return repr(step.get('name', step['send']))


def run_session(con, steps, deadline):
    errors = []
    if con.wait_prompt(0, deadline) is None:
        return ['no prompt after boot']
    for step in steps[:-1]:
        start = len(con.buf)
        con.send(step['send'])
        out = con.wait_prompt(start, min(deadline, time.monotonic() +
                                         step.get('timeout', 20)))
        if out is None:
            return errors + [f'{step_name(step)}: no prompt after it']
        errors += check(step_name(step), out, step)
    last = steps[-1]
    start = len(con.buf)
    con.send(last['send'])
    status = con.wait_exit(deadline)
    errors += check(step_name(last), con.buf[start:], last)
    if status != STATUS_POWEROFF:
        errors.append(f'{step_name(last)}: QEMU exit status {status}, '
                      f'expected {STATUS_POWEROFF}')
    return errors


def run_piped(con, piped, deadline):
    con.send(piped['send'])
    con.proc.stdin.close()
    status = con.wait_exit(deadline)
    errors = check('piped', con.buf, piped)
    if status != STATUS_POWEROFF:
        errors.append(f'piped: QEMU exit status {status}, expected '
                      f'{STATUS_POWEROFF}')
    return errors


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--iso', required=True)
    parser.add_argument('--cpus', type=int, default=4)
    parser.add_argument('--timeout', type=float, default=60,
                        help='seconds per boot (default 60)')
    parser.add_argument('--log', default=None,
                        help='serial output file (default: beside the ISO)')
    parser.add_argument('session', help='the session file (JSON)')
    args = parser.parse_args()
    with open(args.session) as f:
        session = json.load(f)
    log_path = args.log or os.path.join(os.path.dirname(args.iso),
                                        'shell_test.log')
    errors = []
    with open(log_path, 'w') as log:
        for mode in [m for m in ('interactive', 'piped')
                     if m == 'interactive' or m in session]:
            log.write(f'\n===== {mode} =====\n')
            start = time.monotonic()
            con = Console(args.iso, args.cpus, log)
            try:
                deadline = start + args.timeout
                if mode == 'interactive':
                    found = run_session(con, session['steps'], deadline)
                else:
                    found = run_piped(con, session['piped'], deadline)
            finally:
                if con.proc.poll() is None:
                    con.kill()
            errors += found
            n = len(session['steps']) if mode == 'interactive' else 1
            print(f'shell {mode}: {n} steps, {len(found)} failures '
                  f'({time.monotonic() - start:.1f}s)')
    for e in errors:
        print(f'  FAIL {e}')
    print(f'serial log: {log_path}')
    print('shell session: ' + ('FAILED' if errors else 'passed'))
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
