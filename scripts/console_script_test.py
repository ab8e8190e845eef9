#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Scripts on make run's stdin: the console's end of input (make test).

Each case boots the ISO through scripts/qemu.py run, the code make run
uses, with a script on stdin (a file, as `make run < script` gives it),
and checks the exit code and the output: the end of input powers off
with 0 when every command succeeded and 1 otherwise, naming the first
failing command; a last line without a newline still runs; a long script
loses no byte.  Exit status 0 when every case passed.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
END_RE = r'^shell: end of input after {lines} lines, {cmds} commands, '


def cases(lines):
    """(name, script bytes, exit code, regexes that must match, must not)."""
    long_script = ''.join(f'echo line{i}\n' for i in range(1, lines + 1))
    return [
        ('empty input', b'', 0,
         [END_RE.format(lines=0, cmds=0) + 'all succeeded$',
          r'^reboot: Power down$'], []),
        ('all succeed', b'echo one\nhelp help\nstatus\n', 0,
         [r'^one$', END_RE.format(lines=3, cmds=3) + 'all succeeded$'], []),
        ('first failure named',
         b'echo a\nno_such_cmd x\necho b; key no_such_key enable\nstatus\n',
         1, [r'^no_such_cmd: unknown command',
             r'^b$',
             r'^-2$',
             END_RE.format(lines=4, cmds=5) +
             r'2 failed; the first: line 2: no_such_cmd x \(status -2\)$'],
         []),
        ('bad quote', b'echo "open\n', 1,
         [r'the first: line 1: \(a command that did not parse\) '
          r'\(status -22\)$'], []),
        ('partial last line', b'echo one\necho two', 0,
         [r'^one$', r'^two$', END_RE.format(lines=2, cmds=2)], []),
        (f'{lines} lines', long_script.encode(), 0,
         [END_RE.format(lines=lines, cmds=lines) + 'all succeeded$'], []),
    ]


def check_long(out, lines):
    """Every echoed line, once and in order."""
    got = [int(m) for m in re.findall(r'^line(\d+)$', out, re.M)]
    if got != list(range(1, lines + 1)):
        missing = sorted(set(range(1, lines + 1)) - set(got))[:5]
        return [f'{len(got)} of {lines} lines echoed in order; missing '
                f'e.g. {missing}']
    return []


def run_case(iso, cpus, script, timeout, log):
    with tempfile.TemporaryFile() as stdin:
        stdin.write(script)
        stdin.seek(0)
        try:
            proc = subprocess.run(
                [sys.executable, os.path.join(HERE, 'qemu.py'), 'run',
                 '--iso', iso, '--cpus', str(cpus)],
                stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                timeout=timeout)
        except subprocess.TimeoutExpired as exc:
            out = (exc.stdout or b'').decode('utf-8', 'replace')
            log.write(out)
            return None, out.replace('\r\n', '\n')
    out = proc.stdout.decode('utf-8', 'replace')
    log.write(out)
    return proc.returncode, out.replace('\r\n', '\n')


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--iso', required=True)
    parser.add_argument('--cpus', type=int, default=2)
    parser.add_argument('--lines', type=int, default=10000,
                        help='lines of the long script (default 10000)')
    parser.add_argument('--timeout', type=float, default=120,
                        help='seconds per boot (default 120; the long '
                             'script gets 10 ms a line more)')
    parser.add_argument('--log', help='output file (default: beside the ISO)')
    args = parser.parse_args()
    log_path = args.log or os.path.join(os.path.dirname(args.iso),
                                        'console_script_test.log')
    failures = 0
    with open(log_path, 'w') as log:
        for name, script, want, expect, reject in cases(args.lines):
            log.write(f'\n===== {name} =====\n')
            start = time.monotonic()
            timeout = args.timeout + (args.lines / 100 if 'lines' in name
                                      else 0)
            code, out = run_case(args.iso, args.cpus, script, timeout, log)
            errors = []
            if code != want:
                errors.append(f'exit code {code}, expected {want}')
            errors += [f'expected /{rx}/' for rx in expect
                       if not re.search(rx, out, re.M)]
            errors += [f'unexpected /{rx}/' for rx in reject
                       if re.search(rx, out, re.M)]
            if 'lines' in name:
                errors += check_long(out, args.lines)
            failures += bool(errors)
            print(f'console script {name!r}: '
                  f'{"FAIL" if errors else "ok"} '
                  f'({time.monotonic() - start:.1f}s)')
            for e in errors:
                print(f'  FAIL {e}')
    print(f'serial log: {log_path}')
    print('console scripts: ' + ('FAILED' if failures else 'passed'))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
