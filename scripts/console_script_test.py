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


# Names of the test fixtures' keys and tracepoints, and any splat: none of
# them may show in make run's kernel.
FIXTURES = (r'\b(jlt|jlx|jlm|jls|jlr|tpt|cht|clt|lot|bst|tet|mtt|tpm)_\w+',
            r'\btrace_test_\w+')
SPLATS = (r'WARNING', r'\bBUG\b', r'Oops', r'Call Trace', r'panic')


def clean_cases():
    """make run's kernel (defconfig): only the kernel's own keys, no
    splat, the test suites in test modules."""
    return [
        ('keys and tracepoints', b'keys\ntracepoints\n', 0,
         [r'^sched_switch +- +tracepoint +0 disabled ',
          r'^sched_switch +disabled +0 off ',
          END_RE.format(lines=2, cmds=2) + 'all succeeded$'],
         list(FIXTURES + SPLATS)),
        ('test jump_label* from modules', b'test jump_label*\nlsmod\n', 0,
         [r'^    # Subtest: jump_label_ratelimit\n    # module: '
          r'jump_label_ratelimit_test$',
          r'^ok 1 jump_label_ratelimit$',
          r'^kunit: test module jump_label_ratelimit_test: 1 suites run, '
          r'unloaded$',
          r'^test: 0 failed$', r'^0 loaded; on the ISO: .*\bvsprintf_test\b',
          END_RE.format(lines=2, cmds=2) + 'all succeeded$'],
         [r'not ok', r'^    # module: (?!jump_label_ratelimit_test)']),
        ('test with no match', b'test no_such*\necho after\n', 1,
         [r'^sk> test no_such\*\ntest: no_such\*: no suite matches\nsk> ',
          r'^after$',
          r'the first: line 1: test no_such\* \(status -2\)$'],
         [r'KTAP']),
        ('insmod runs, rmmod frees', b'insmod vsprintf_test\nlsmod\n'
         b'rmmod vsprintf_test\nlsmod\n', 0,
         [r'^    # Subtest: vsprintf\n    # module: vsprintf_test$',
          r'^ok 1 vsprintf$', r'^vsprintf_test +[0-9]+ +[0-9]+ +live ',
          r'^vsprintf_test: unloaded$',
          END_RE.format(lines=4, cmds=4) + 'all succeeded$'], [r'not ok']),
    ]


def bad_cases():
    """A test module that crashes and one that cannot load
    (tests/configs/kunit_module_bad.config)."""
    return [
        ('crash in a test module', b'test kunit_*\nlsmod\necho still here\n',
         1,
         [r'^kunit: test module kunit_unloadable_test: load failed: -[0-9]+ ',
          r'^    # Subtest: kunit_crash\n    # module: kunit_crash_test$',
          r'^BUG: unable to handle page fault for address: 0+10$',
          r'^RIP: 0008:ffffffff[0-9a-f]{8} kunit_crash_write_bad_pointer\+'
          r'0x[0-9a-f]+/0x[0-9a-f]+ \[kunit_crash_test\]$',
          r'^    not ok 1 kunit_crash_page_fault$',
          r'^    not ok 3 kunit_crash_divide_error$',
          r'^    ok 4 kunit_crash_survived$',
          r'^kunit: test module kunit_crash_test: 1 suites run, unloaded$',
          r'^test: 4 failed$',
          r'^0 loaded; on the ISO:', r'^still here$',
          r'the first: line 1: test kunit_\* \(status 4\)$'], []),
        ('a test module that cannot load', b'insmod kunit_unloadable_test\n'
         b'test kunit_unloadable\necho still here\n', 1,
         [r'^insmod: kunit_unloadable_test: failed: -[0-9]+ ',
          r'^kunit: test module kunit_unloadable_test: load failed: -[0-9]+ ',
          r'^test: 1 failed$', r'^still here$',
          r'the first: line 1: insmod kunit_unloadable_test'], []),
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
    parser.add_argument('--bad', action='store_true',
                        help="the bad test modules' cases only (an ISO of "
                             'tests/configs/kunit_module_bad.config)')
    args = parser.parse_args()
    log_path = args.log or os.path.join(os.path.dirname(args.iso),
                                        'console_script_test.log')
    failures = 0
    with open(log_path, 'w') as log:
        todo = bad_cases() if args.bad else cases(args.lines) + clean_cases()
        for name, script, want, expect, reject in todo:
            log.write(f'\n===== {name} =====\n')
            start = time.monotonic()
            # The long script: 10 ms a line more; jump_label_ratelimit's
            # storm runs 12 s of pacing alone, far more on a loaded host.
            timeout = args.timeout + (args.lines / 100 if 'lines' in name
                                      else 0) + (480 if 'jump_label' in name
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
