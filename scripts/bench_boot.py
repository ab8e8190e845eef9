#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Boot time to the console's prompt (make bench; scripts/bench.py calls
run()).

Builds make run's kernel (defconfig, CMDLINE="shell shell.report_boot") in
build/bench/boot and boots it:

* under icount (-icount shift=0: rdtsc counts instructions from QEMU's
  start), where the console prints the TSC at its first prompt: the
  instructions to the prompt, firmware and GRUB included, deterministic;
* without icount, as make run does, BOOT_RUNS times: wall time from
  starting QEMU to the prompt on its serial output (the median), for this
  tree and, with --prev REV (default: the merge base with main, if it
  differs from HEAD), for that tree's make run kernel, built from
  `git archive REV` in build/bench/boot-prev.

Each boot ends at once: stdin is ^D, the console's end of input.  Prints a
table and writes build/bench/boot.json; exit 1 if a boot fails or the wall
time to the prompt is 3 s or more.
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import qemu  # noqa: E402

REPO_ROOT = Path(__file__).resolve().parent.parent
CMDLINE = 'shell shell.report_boot'
PROMPT = b'sk> '
TSC_RE = re.compile(rb'shell: prompt at TSC (\d+)')
BOOT_RUNS = 3
WALL_LIMIT_S = 3.0
CPUS = 4


def build(src, out, cmdline, log):
    """make fragconfig (defconfig) and iso in src, O=out; True if it built."""
    for goal in (['FRAGMENTS=', 'fragconfig'], [f'CMDLINE={cmdline}', '-j2',
                                                'iso']):
        if subprocess.run(['make', f'O={out}'] + goal, cwd=src, stdout=log,
                          stderr=subprocess.STDOUT).returncode:
            return False
    return True


def boot(iso, icount, timeout=120):
    """(seconds to the prompt, TSC the console printed or None, output)."""
    argv = qemu.command(iso, cpus=CPUS, icount=icount)
    start = time.monotonic()
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    proc.stdin.write(b'\x04')
    proc.stdin.close()
    out, prompt_at = b'', None
    watchdog = threading.Timer(timeout, proc.kill)
    watchdog.start()
    try:
        while True:
            chunk = os.read(proc.stdout.fileno(), 4096)
            if not chunk:
                break
            out += chunk
            if prompt_at is None and PROMPT in out:
                prompt_at = time.monotonic() - start
            if time.monotonic() - start > timeout:
                break
    finally:
        watchdog.cancel()
        proc.kill()
        proc.wait()
    match = TSC_RE.search(out)
    return prompt_at, int(match.group(1)) if match else None, out


def prev_tree(rev, dest, log):
    """The source of rev in dest (git archive); False if it cannot be."""
    dest.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(['git', 'archive', rev], cwd=REPO_ROOT,
                             stdout=subprocess.PIPE, stderr=log)
    if archive.returncode:
        return False
    return subprocess.run(['tar', '-x', '-C', str(dest)], input=archive.stdout,
                          stderr=log).returncode == 0


def default_prev():
    """The merge base with main when HEAD is past it, else None."""
    base = subprocess.run(['git', 'merge-base', 'HEAD', 'main'], cwd=REPO_ROOT,
                          capture_output=True, text=True).stdout.strip()
    head = subprocess.run(['git', 'rev-parse', 'HEAD'], cwd=REPO_ROOT,
                          capture_output=True, text=True).stdout.strip()
    return base if base and base != head else None


def measure(name, src, out, log, errors):
    """The figures of one tree's make run kernel, or None."""
    if not build(src, out, CMDLINE, log):
        errors.append(f'boot: {name}: build failed (see {log.name})')
        return None
    iso = out / 'kernel.iso'
    _, tsc, text = boot(iso, icount=True, timeout=600)
    walls = []
    for _ in range(BOOT_RUNS):
        wall, _, text = boot(iso, icount=False)
        if wall is None:
            errors.append(f'boot: {name}: no prompt without icount')
            return None
        walls.append(wall)
    warns = len(re.findall(rb'WARNING|\bBUG\b|Oops', text))
    return {'tree': name, 'prompt_insns': tsc, 'prompt_wall_s':
            round(statistics.median(walls), 3), 'wall_runs_s':
            [round(w, 3) for w in walls], 'splats': warns}


def run(out_dir=REPO_ROOT / 'build' / 'bench', prev='auto'):
    """Measures, prints the table, writes boot.json; returns the errors."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    errors, rows = [], []
    with open(out_dir / 'boot-build.log', 'w') as log:
        row = measure('this tree', REPO_ROOT, out_dir / 'boot', log, errors)
        if row:
            rows.append(row)
            if row['prompt_insns'] is None:
                errors.append('boot: no "shell: prompt at TSC" line')
            if row['prompt_wall_s'] >= WALL_LIMIT_S:
                errors.append(f'boot: {row["prompt_wall_s"]} s to the prompt, '
                              f'the limit is {WALL_LIMIT_S:g} s')
        rev = default_prev() if prev == 'auto' else prev
        if rev:
            src = out_dir / 'boot-prev-src'
            if prev_tree(rev, src, log):
                # The old tree has no shell.report_boot: wall time only.
                prow = measure(f'{rev[:12]}', src, src / 'build', log, errors)
                if prow:
                    rows.append(prow)
    print('\nBoot to the console prompt (make run\'s kernel, '
          f'{CPUS} CPUs; wall: median of {BOOT_RUNS}):')
    print(f'  {"tree":<14} {"instructions (icount)":>22} {"wall s":>8} '
          f'{"WARN/BUG/Oops":>14}')
    for row in rows:
        insns = (f'{row["prompt_insns"]:,}' if row['prompt_insns'] is not None
                 else '-')
        print(f'  {row["tree"]:<14} {insns:>22} {row["prompt_wall_s"]:>8.3f} '
              f'{row["splats"]:>14}')
    (out_dir / 'boot.json').write_text(json.dumps(rows, indent=1) + '\n')
    for e in errors:
        print(f'error: {e}')
    return errors


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--out', default=str(REPO_ROOT / 'build' / 'bench'))
    parser.add_argument('--prev', default='auto',
                        help='git revision to compare (default: the merge '
                             'base with main; "" for none)')
    args = parser.parse_args()
    return 1 if run(args.out, args.prev or None) else 0


if __name__ == '__main__':
    sys.exit(main())
