# SPDX-License-Identifier: GPL-2.0
"""Every console session the documentation shows, played against make
run's kernel, so that one that goes stale fails.

A session is a code block of README.md or of a Documentation/*.rst page
holding lines that start with the prompt "sk> ". Its commands are piped
into `scripts/qemu.py run` (as `make run < script` does) on the kernel
make test builds for make run (build/test-run: defconfig, CMDLINE=shell,
4 CPUs, as make run), and the output of each command must be the lines
the block shows, one for one and in order, except that:

- a line "..." stands for any number of lines;
- addresses (8 to 16 hex digits) and symbol offsets (+0x12/0x34) may
  differ, as may the numbers that change from boot to boot: a CPU's int3
  hits, IPIs, switches and running tasks in `cpus`, a module's size in
  bytes, the text_poke totals of `stats`, the lines `trace` read, uptime,
  memory;
- lines the block shows before its first prompt (the console's banner)
  must come before the first prompt.

A block that needs more than make run's ISO says so in an rst comment
(or an HTML comment in Markdown) just before it, with make's variables:
".. console session: EXTRA_MODULES=tests/extmod/lx_oot"; the test then
builds that ISO from build/test-run (ISO_DIR beside it).
"""
import os
import re
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

from hosttools import PYTHON, REPO, make

RUN_BUILD = 'build/test-run'
PROMPT = 'sk> '
MARKER = re.compile(r'^\s*(?:\.\.|<!--)\s*console session:\s*(.*?)\s*(?:-->)?$')

# Numbers that differ from boot to boot, by the shape of the line: each
# named group of a pattern that matches the documented line is a number
# the kernel may print differently.
VOLATILE = [re.compile(p) for p in (
    r'^\d+ +(?:online|offline) +(?P<a>\d+) +(?P<b>\d+) +(?P<c>\d+) +(?P<d>\d+)$',
    r'loaded, (?P<a>\d+) bytes',
    r'^text_poke: (?P<a>\d+) batches, (?P<b>\d+) sites, (?P<c>\d+) passes, '
    r'(?P<d>\d+) sync rounds, \d+ early flushes, (?P<e>\d+) int3 hits$',
    r'^up (?P<a>\d+)\.(?P<b>\d+) s, jiffies (?P<c>\d+) ',
    r'^trace: (?P<a>\d+) lines \(read lines are consumed\)$',
    r'^frames: (?P<a>\d+) total, (?P<b>\d+) free, (?P<c>\d+) used '
    r'\((?P<d>\d+) KiB free of (?P<e>\d+) KiB\)$',
)]
HEX = re.compile(r'(?<![0-9a-fx])[0-9a-f]{8,16}(?![0-9a-f])')
OFFSET = re.compile(r'\+0x[0-9a-f]+/0x[0-9a-f]+')


def line_regex(doc):
    """The regex a documented output line stands for."""
    spans = []
    for rx in VOLATILE:
        m = rx.search(doc)
        if m:
            spans += [m.span(g) for g in m.groupdict() if m.group(g)]
    for rx, _ in ((HEX, 0), (OFFSET, 0)):
        spans += [m.span() for m in rx.finditer(doc)]
    spans.sort()
    out, pos = '', 0
    for start, end in spans:
        if start < pos:
            continue
        out += re.escape(doc[pos:start])
        piece = doc[start:end]
        out += (r'\+0x[0-9a-f]+/0x[0-9a-f]+' if piece.startswith('+0x')
                else r'[0-9a-f]+' if HEX.fullmatch(piece) else r'\d+')
        pos = end
    return re.compile(out + re.escape(doc[pos:]) + '$')


class Session:
    def __init__(self, path, line, env):
        self.path, self.line, self.env = path, line, env
        self.banner = []
        self.steps = []         # (command, [output lines])

    def __str__(self):
        return f'{self.path.relative_to(REPO)}:{self.line}'


def blocks(path):
    """(first line number, lines, marker) of each code block of path."""
    lines = path.read_text().splitlines()
    found, i, marker = [], 0, ''
    while i < len(lines):
        m = MARKER.match(lines[i])
        if m:
            marker = m.group(1)
        if path.suffix == '.md' and lines[i].startswith('```'):
            j = i + 1
            while j < len(lines) and not lines[j].startswith('```'):
                j += 1
            found.append((i + 2, lines[i + 1:j], marker))
            marker, i = '', j + 1
            continue
        if path.suffix == '.rst' and lines[i].rstrip().endswith('::'):
            j = i + 1
            while j < len(lines) and not lines[j].strip():
                j += 1
            start, body = j, []
            while j < len(lines) and (not lines[j].strip() or
                                      lines[j].startswith((' ', '\t'))):
                body.append(lines[j])
                j += 1
            found.append((start + 1, body, marker))
            marker, i = '', j
            continue
        i += 1
    return found


def sessions():
    files = [REPO / 'README.md'] + sorted((REPO / 'Documentation').glob('*.rst'))
    out = []
    for path in files:
        for first, body, marker in blocks(path):
            indent = min((len(x) - len(x.lstrip()) for x in body if x.strip()),
                         default=0)
            body = [x[indent:].rstrip() for x in body]
            while body and not body[-1]:
                body.pop()
            if not any(x.startswith(PROMPT) for x in body):
                continue
            s = Session(path, first, marker)
            for x in body:
                if x.startswith(PROMPT):
                    s.steps.append((x[len(PROMPT):], []))
                elif s.steps:
                    s.steps[-1][1].append(x)
                else:
                    s.banner.append(x)
            out.append(s)
    return out


def play(iso, commands):
    """The console's output (CR LF as LF) for the commands piped in."""
    with tempfile.TemporaryFile() as stdin:
        stdin.write(''.join(c + '\n' for c in commands).encode())
        stdin.seek(0)
        proc = subprocess.run([PYTHON, str(REPO / 'scripts/qemu.py'), 'run',
                               '--iso', str(iso), '--cpus', '4'],
                              stdin=stdin, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, timeout=300,
                              check=False)
    return proc.stdout.decode('utf-8', 'replace').replace('\r\n', '\n')


def compare(session, out):
    """The differences between the session and the output, one a line."""
    lines = out.split('\n')
    errors = []
    first = next((i for i, x in enumerate(lines) if x.startswith(PROMPT)),
                 len(lines))
    for b in session.banner:
        if not any(line_regex(b).match(x) for x in lines[:first]):
            errors.append(f'banner {b!r} not printed before the first prompt')
    pos = first
    for cmd, want in session.steps:
        if pos >= len(lines) or lines[pos] != PROMPT + cmd:
            errors.append(f'{PROMPT}{cmd}: not run next (got '
                          f'{lines[pos] if pos < len(lines) else "EOF"!r})')
            return errors
        end = next((i for i in range(pos + 1, len(lines))
                    if lines[i].startswith(PROMPT)), len(lines))
        got = [x for x in lines[pos + 1:end] if x]
        if cmd == 'poweroff' or end == len(lines):
            got = got[:len(want)]   # what QEMU prints after the end
        errors += [f'{PROMPT}{cmd}: {e}' for e in match(want, got)]
        pos = end
    return errors


def match(want, got):
    """want's lines against got's, "..." standing for any lines."""
    i = 0
    for k, w in enumerate(want):
        if w.strip() == '...':
            rest = [x for x in want[k + 1:] if x.strip() != '...']
            if not rest:
                return []
            rx = line_regex(rest[0])
            while i < len(got) and not rx.match(got[i]):
                i += 1
            continue
        if i >= len(got):
            return [f'documented {w!r}, the kernel printed nothing more']
        if not line_regex(w).match(got[i]):
            return [f'documented {w!r}, the kernel printed {got[i]!r}']
        i += 1
    if i < len(got):
        return [f'the kernel printed {got[i]!r} (and {len(got) - i - 1} '
                'more lines) that the session does not show']
    return []


def iso_for(env):
    iso = REPO / RUN_BUILD / 'kernel.iso'
    if not iso.exists():
        raise AssertionError(f'{iso} is missing: make test builds it before '
                             f'these tests (make O={RUN_BUILD} CMDLINE=shell '
                             'iso, defconfig)')
    if not env:
        return iso
    words = env.split()
    iso_dir = f'{RUN_BUILD}/doc-' + re.sub(r'[^A-Za-z0-9]+', '-', env)[:40]
    args = []
    for w in words:
        key, _, value = w.partition('=')
        if key == 'EXTRA_MODULES':
            value = ' '.join(str(REPO / v) for v in value.split(','))
        args.append(f'{key}={value}')
    res = make('-j2', f'O={RUN_BUILD}', f'ISO_DIR={iso_dir}', 'CMDLINE=shell',
               *args, 'iso')
    if res.returncode:
        raise AssertionError(f'building the ISO for {env!r} failed:\n'
                             f'{res.stdout}{res.stderr}')
    return REPO / iso_dir / 'kernel.iso'


class DocSessionsTest(unittest.TestCase):
    def test_regex_rules(self):
        """The rules themselves: exact but for what a boot changes."""
        rx = line_regex('4 of 17 keys')
        self.assertTrue(rx.match('4 of 17 keys'))
        self.assertFalse(rx.match('4 of 15 keys'))
        rx = line_regex('  ffffffff8016a153 kunit_x+0x43/0x86     eb 3b '
                        '-> ffffffff8016a190')
        self.assertTrue(rx.match('  ffffffff80170000 kunit_x+0x1/0x9     '
                                 'eb 3b -> ffffffff80170021'))
        self.assertFalse(rx.match('  ffffffff80170000 kunit_y+0x1/0x9     '
                                  'eb 3b -> ffffffff80170021'))
        rx = line_regex('3    offline           0         37            4'
                        '        0')
        self.assertTrue(rx.match('3    offline           2         99     '
                                 '       4        1'))
        self.assertFalse(rx.match('3    online            2         99    '
                                  '        4        1'))
        self.assertEqual(match(['a', '...', 'c'], ['a', 'b', 'b2', 'c']), [])
        self.assertTrue(match(['a', 'c'], ['a', 'b', 'c']))

    def test_sessions_found(self):
        names = {str(s).split(':')[0] for s in sessions()}
        self.assertIn('README.md', names)
        self.assertIn('Documentation/modules.rst', names)

    def test_sessions(self):
        for s in sessions():
            with self.subTest(session=str(s)):
                out = play(iso_for(s.env), [c for c, _ in s.steps])
                errors = compare(s, out)
                self.assertFalse(errors, f'{s}: the documented session is '
                                 'stale:\n  ' + '\n  '.join(errors) +
                                 '\n--- the kernel printed:\n' + out[-6000:])


if __name__ == '__main__':
    unittest.main()
