# SPDX-License-Identifier: GPL-2.0
"""Shared helpers of the host tool tests (tests/tools/test_*.py).

make test runs them after building build/test-default, whose vmlinux and
host tools some of them use; run by hand:

    /usr/bin/python3 -m unittest discover -s tests/tools
"""
import os
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
BUILD = 'build/test-default'
PYTHON = '/usr/bin/python3'


def clean_env(**extra):
    """The environment without what a parent make passes down."""
    env = {k: v for k, v in os.environ.items()
           if k not in ('MAKEFLAGS', 'MFLAGS', 'MAKELEVEL', 'MAKEOVERRIDES')}
    env.update(extra)
    return env


def run(cmd, env=None):
    """Runs cmd in the repository; returns the CompletedProcess (text)."""
    return subprocess.run(cmd, cwd=REPO, env=env or clean_env(),
                          stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, check=False)


def make(*args, env=None):
    return run(['make', '--no-print-directory', *args], env=env)


def built(path):
    """REPO/BUILD/path, which make test builds before these tests run."""
    full = REPO / BUILD / path
    if not full.exists():
        raise AssertionError(f'{full} is missing: these tests need the '
                             f'build make test makes first (make O={BUILD})')
    return full
