#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The kernel's console on QEMU's serial pipes, driven command by command.

Console boots an ISO whose command line says "shell", optionally with a
gdb stub on a TCP port (scripts/gdb_check.py), and runs console commands
one at a time, returning each one's lines (scripts/trace_flip.py).
"""
import os
import re
import socket
import subprocess
import threading
import time

import qemu

PROMPT = '\r\nsk> '


def free_port():
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


class Console:
    """QEMU with its serial console on pipes (and a gdb stub on port)."""

    def __init__(self, iso, cpus, port, log, extra=()):
        gdb = ['-gdb', f'tcp:127.0.0.1:{port}'] if port else []
        argv = qemu.command(iso, cpus=cpus, extra=gdb + list(extra))
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT,
                                     start_new_session=True)
        self.buf = ''
        self.lock = threading.Lock()
        self.log = log
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for chunk in iter(lambda: os.read(self.proc.stdout.fileno(), 4096),
                          b''):
            text = chunk.decode('utf-8', 'replace')
            self.log.write(text)
            self.log.flush()
            with self.lock:
                self.buf += text

    def mark(self):
        with self.lock:
            return len(self.buf)

    def since(self, start):
        with self.lock:
            return self.buf[start:]

    def send(self, line):
        self.proc.stdin.write((line + '\r').encode())
        self.proc.stdin.flush()

    def wait_for(self, start, pattern, timeout):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            text = self.since(start)
            if re.search(pattern, text):
                return text
            if self.proc.poll() is not None:
                return None
            time.sleep(0.05)
        return None

    def command(self, line, timeout=60):
        """The output of one console command (its lines, CR LF -> LF)."""
        start = self.mark()
        self.send(line)
        text = self.wait_for(start, re.escape(PROMPT) + '$', timeout)
        if text is None:
            raise RuntimeError(f'console: no prompt after {line!r}')
        text = text.replace('\r\n', '\n')
        lines = text.split('\n')
        # The echo of the command first, the next prompt last.
        return lines[1:-1]

    def kill(self):
        try:
            os.killpg(self.proc.pid, 9)
        except ProcessLookupError:
            pass
        self.proc.wait()
