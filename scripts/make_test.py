#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""make test and make check: every check of the tree, on both host cores.

    make_test.py [--check] [--jobs N] [--plan FILE]

One job graph (scripts/testsched.py) holds the runs of tests/plan.json
(each kernel built once, then booted by every run that needs it) and the
host steps of STEPS below; while it runs, each job that ends prints one
line, "[3/40] jump_label_n: 291 passed, 8 skipped, 41 s", and the host
checks print each test's name as it passes. A failed job prints its log's
last lines and the jobs that need it do not run. At the end: the plan's
table, the time table of every run and step, and the closing line "N
passed, N failed", which counts the plan's cases, each host check of
tests/tools and each other host step; build/test-results/ then holds
results.json (Linux kunit.py's JSON, KernelCI's), results.xml (JUnit),
times.txt and times.json (the next run's order: longest first), and each
step's log in logs/.

--check (make check): the static-key subsystem only, for the edit-compile-
test loop: its suites on JUMP_LABEL=y and =n less their stresses (the
runs of CHECK_PLAN) and the host steps marked check.

A new host step is one entry of STEPS; a new plan run one entry of
tests/plan.json (Documentation/testing.rst).
"""

import argparse
import json
import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import kunit
import kunit_results
import testsched
from ktap import Counts

REPO_ROOT = Path(__file__).resolve().parent.parent
PY = '/usr/bin/python3'
RESULTS = REPO_ROOT / 'build' / 'test-results'
FAILED_SHOWN = 10     # failed cases named at the end of the run
DEFAULT = 'build/test-default'      # the plan's "default" kernel
RUN = 'build/test-run'              # make run's kernel (defconfig)
BADMOD = 'build/test-badmod'
PLANT = 'build/test-entry-plant'    # tests/tools/test_entry_sync.py's
PLAN = REPO_ROOT / 'tests' / 'plan.json'
# The static-key subsystem's suites less its five stresses (make test
# runs them): the 2,000-flip int3 stress and the one whose readers come
# and go (idle, user mode, NMIs), the modules' 1,000 load/unload cycles
# and their race against flips, the plain-key storm.
CHECK_FILTER = ('jump_label*,static_key*,text_patch,'
                '-text_patch.tpt_test_stress,'
                '-text_patch.tpt_test_stress_entry,'
                '-jump_label_modules.jlm_test_cycles,'
                '-jump_label_modules.jlm_test_race,'
                '-jump_label_ratelimit.jlr_test_storm*')

# The static-key subsystem's runs for make check: its suites, y and n.
CHECK_PLAN = [
    {'name': 'default', 'filter': CHECK_FILTER, 'cores': 2},
    {'name': 'jump_label_n', 'kconfig_add': ['tests/configs/jump_label_n.config'],
     'filter': CHECK_FILTER},
]


@dataclass
class Step:
    """A host step: argv lists run one after the other in the tree.

    after: jobs (plan jobs "build:default", "iso:*" of a kernel, or other
    steps) that must pass first; locks: the build directories it runs make
    in (two makes never share one); cores: what it keeps busy, min_cores:
    fewer it may start on (its JOBS argument says how many); check: also
    in make check; live: print its lines that match this regex as they
    come (the host checks' names)."""
    name: str
    commands: list
    after: list = field(default_factory=list)
    locks: list = field(default_factory=list)
    cores: int = 1
    min_cores: int = 0
    estimate: float = 10.0
    check: bool = False
    live: str | None = None
    unittest: bool = False          # count each "... ok" line as a case


def make(*args):
    return ['make', '--no-print-directory', *args]


# In a step's argv: -j and the cores the step was started on.
JOBS = '-j{cores}'


TOOLS = REPO_ROOT / 'tests' / 'tools'
LIVE_CHECK = r' \.\.\. (ok|FAIL|ERROR|skipped)'
# Host checks that build and boot nothing of make test's directories.
PURE_CHECKS = ['test_arch_includes', 'test_bench_readme', 'test_check_old_api',
               'test_footprint_model', 'test_jump_table_tools',
               'test_kunit_results', 'test_testsched',
               'test_tracepoint_calls', 'test_user_compare',
               'test_check_init_refs']
# Host checks with a step of their own.
OWN_STEP = PURE_CHECKS + ['test_entry_sync', 'test_doc_sessions']


def host_checks(names):
    """Commands running tests/tools/<name>.py for each name; None: every
    file there no other step runs."""
    if names is None:
        names = sorted(p.stem for p in TOOLS.glob('test_*.py')
                       if p.stem not in OWN_STEP)
    return [[PY, '-m', 'unittest', 'discover', '-v', '-s', 'tests/tools',
             '-p', f'{name}.py'] for name in names]


STEPS = [
    Step('buildcheck', [make(f'O={DEFAULT}', 'buildcheck')],
         after=['build:default'], locks=[DEFAULT], estimate=15, check=True),
    Step('runner selftest', [[PY, 'scripts/kunit.py', 'selftest',
                              'tests/kunit_runner_selftest']],
         estimate=3, check=True),
    Step('jump table', [[PY, 'scripts/check_jump_table.py',
                         f'{DEFAULT}/vmlinux']],
         after=['build:default'], locks=[DEFAULT], estimate=5, check=True),
    Step('grub cmdline', [[PY, 'scripts/grub_cmdline.py', '--selftest']],
         estimate=2, check=True),
    # In a build directory of its own: its seeds are read from DEFAULT's.
    Step('fuzz', [make('O=build/test-fuzz', 'fuzz-smoke')],
         after=['build:default'], locks=['build/test-fuzz'], estimate=40),
    Step('shell iso', [make(f'O={DEFAULT}', f'ISO_DIR={DEFAULT}/shell',
                            'CMDLINE=shell', 'iso')],
         after=['build:default'], locks=[DEFAULT], estimate=3),
    Step('shell session', [[PY, 'scripts/shell_test.py', '--iso',
                            f'{DEFAULT}/shell/kernel.iso', '--cpus', '4',
                            '--timeout', '120', 'tests/shell_session.json']],
         after=['shell iso'], estimate=20),
    Step('run build', [make(f'O={RUN}', 'FRAGMENTS=', 'fragconfig'),
                       make(f'O={RUN}', JOBS, 'CMDLINE=shell', 'iso')],
         locks=[RUN], cores=2, min_cores=1, estimate=40),
    # 2,000 lines of a long script, not its 10,000: QEMU hands the UART
    # (no FIFO) a byte at a time, 0.25 ms each, so 10,000 took 27 s.
    Step('console scripts', [[PY, 'scripts/console_script_test.py', '--iso',
                              f'{RUN}/kernel.iso', '--lines', '2000']],
         after=['run build'], estimate=25),
    Step('make input', [[PY, 'scripts/check_make_input.py', DEFAULT, RUN]],
         after=['run build', 'build:default', 'seed:*'], locks=[DEFAULT, RUN],
         estimate=25),
    Step('uconform', [[PY, 'scripts/user_compare.py', '--out', RUN,
                       '--build', RUN, '--expected',
                       'tests/uconform.linux.out']],
         after=['run build'], locks=[RUN], estimate=15),
    # Builds of make run's configuration and a little more start as copies
    # of RUN's (scripts/seed_build.py; under RUN's lock, only the copy).
    Step('badmod seed', [[PY, 'scripts/seed_build.py', RUN, BADMOD]],
         after=['run build'], locks=[RUN, BADMOD], estimate=1),
    Step('badmod build', [make(f'O={BADMOD}', 'FRAGMENTS=tests/configs/'
                               'kunit_module_bad.config', 'fragconfig'),
                          make(f'O={BADMOD}', JOBS, 'CMDLINE=shell', 'iso')],
         after=['badmod seed'], locks=[BADMOD], cores=2, min_cores=1,
         estimate=40),
    Step('badmod console', [[PY, 'scripts/console_script_test.py', '--bad',
                             '--iso', f'{BADMOD}/kernel.iso']],
         after=['badmod build'], estimate=5),
    # The host checks in four steps, so that they spread over both cores:
    # the pure ones (no build directory of make test's; also in make
    # check), the entry check's planted kernel (a build of its own), the
    # documented console sessions (RUN's kernel), and the rest, after
    # every other make of DEFAULT, whose ISO and modules they rebuild.
    Step('host checks, pure', host_checks(PURE_CHECKS),
         estimate=15, live=LIVE_CHECK, unittest=True, check=True),
    Step('plant seed', [[PY, 'scripts/seed_build.py', RUN, PLANT]],
         after=['run build'], locks=[RUN, PLANT], estimate=1),
    Step('entry check', host_checks(['test_entry_sync']),
         after=['build:default', 'plant seed'], locks=[PLANT],
         cores=2, estimate=70, live=LIVE_CHECK, unittest=True),
    Step('doc sessions', host_checks(['test_doc_sessions']),
         after=['run build', 'make input', 'uconform'], locks=[RUN],
         estimate=60, live=LIVE_CHECK, unittest=True),
    # After the copies of DEFAULT too: they would wait for its lock.
    Step('host checks', host_checks(None),
         after=['build:default', 'iso:*default', 'shell iso', 'buildcheck',
                'jump table', 'make input', 'seed:*'],
         locks=[DEFAULT], estimate=240, live=LIVE_CHECK, unittest=True),
    # In a build directory of its own: it builds host programs only.
    Step('fuzz engine', [make('O=build/test-fuzz', 'fuzz-engine-smoke')],
         locks=['build/test-fuzz'], cores=2, estimate=60),
    # A pan search per core it got; the bounded ones for 5 s each (make
    # model: MODEL_MINUTES, which also applies here when set).
    Step('model', [[PY, 'scripts/check_model.py', JOBS, '--build-dir',
                    'build/test-model'] +
                   (['--minutes', os.environ['MODEL_MINUTES']]
                    if os.environ.get('MODEL_MINUTES') else
                    ['--seconds', '5'])],
         cores=2, min_cores=1, estimate=120),
]

def run_step(step, log_path, cases, cores):
    """Runs a step's commands into its log (JOBS given cores); returns a
    JobResult."""
    env = {k: v for k, v in os.environ.items()
           if k not in ('MAKEFLAGS', 'MFLAGS', 'MAKELEVEL', 'KCONFIG_CONFIG')}
    live = re.compile(step.live) if step.live else None
    lines = []
    with open(log_path, 'w', encoding='utf-8') as log:
        for argv in step.commands:
            argv = [JOBS.format(cores=cores) if a == JOBS else a
                    for a in argv]
            log.write(f'$ {" ".join(argv)}\n')
            log.flush()
            try:
                proc = subprocess.Popen(argv, cwd=REPO_ROOT, env=env,
                                        stdin=subprocess.DEVNULL,
                                        stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT, text=True,
                                        errors='replace',
                                        start_new_session=True)
            except OSError as exc:
                log.write(f'cannot run {argv[0]}: {exc.strerror}\n')
                return testsched.JobResult(False, f'cannot run {argv[0]}')
            kunit._children.add(proc)
            try:
                for line in proc.stdout:
                    log.write(line)
                    line = line.rstrip('\n')
                    lines.append(line)
                    if live and live.search(line):
                        testsched.say(f'  {step.name}: {line}')
                code = proc.wait()
            finally:
                kunit._children.discard(proc)
            if code:
                tail = [l for l in lines if l.strip()][-40:]
                return testsched.JobResult(False, f'failed (exit {code})',
                                           tail)
    if step.unittest:
        cases.extend(unittest_cases(lines))
    last = next((l for l in reversed(lines) if l.strip()), 'passed')
    return testsched.JobResult(True, last.strip()[:100])


def unittest_cases(lines):
    """(name, status) of each test unittest -v reported."""
    out = []
    for line in lines:
        match = re.match(r'^(test\w+) \(([\w.]+)\)', line)
        if not match:
            continue
        tail = line.rsplit(' ... ', 1)[-1] if ' ... ' in line else ''
        status = ('PASS' if tail == 'ok' else 'SKIP' if tail.startswith('skipped')
                  else 'FAIL' if tail in ('FAIL', 'ERROR') else None)
        if status:
            out.append((f'{match.group(2)}.{match.group(1)}', status))
    return out


def step_jobs(steps, plan_jobs, args):
    """Jobs for the host steps, their dependencies resolved; returns (jobs,
    {step name: collected unittest cases})."""
    logs = RESULTS / 'logs'
    logs.mkdir(parents=True, exist_ok=True)
    by_name = {job.name: job for job in plan_jobs}
    jobs, cases = [], {}
    for step in steps:
        found = cases[step.name] = []
        log = logs / (re.sub(r'\W+', '-', step.name) + '.log')
        job = testsched.Job(
            step.name, None, cores=min(step.cores, args.jobs),
            min_cores=step.min_cores, estimate=step.estimate,
            lock=tuple(str(REPO_ROOT / d) for d in step.locks) or None)
        job.run = lambda s=step, l=log, c=found, j=job: run_step(
            s, l, c, j.granted)
        by_name[step.name] = job
        jobs.append((step, job))
    for step, job in jobs:
        for dep in step.after:
            if dep.startswith('iso:*'):
                # Every ISO of that kernel's runs (kernel_from).
                kernel = dep[len('iso:*'):]
                job.deps += [j for j in plan_jobs if j.name.startswith('iso:')
                             and j.lock == str(REPO_ROOT / 'build' /
                                               f'test-{kernel}')]
            elif dep == 'seed:*':
                # Every copy of a build directory (plan.json's build_from).
                job.deps += [j for j in plan_jobs
                             if j.name.startswith('seed:')]
            elif dep in by_name:
                job.deps.append(by_name[dep])
    return [job for _, job in jobs], cases


def host_group(done, steps, cases):
    """The host steps as a JSON group: each unittest test a case, each
    other step one."""
    names = {s.name for s in steps}
    groups = []
    for job in done:
        if job.name not in names:
            continue
        found = cases.get(job.name)
        if found and job.result.ok:
            tests = [{'name': n, 'status': s} for n, s in found]
        else:
            tests = [{'name': job.name,
                      'status': 'PASS' if job.result.ok else 'FAIL'}]
        groups.append(kunit_results._group(job.name, cases=tests))
    return kunit_results._group('host', groups=groups)


def check_files(pargs, total):
    """The results files, read back, must count what the closing line
    does; the lines saying where they do not."""
    problems = []
    try:
        with open(pargs.json, encoding='utf-8') as f:
            got = kunit_results.count_json(json.load(f))
        if got != total:
            problems.append(f'{pargs.json} counts {got.final_line()}, the '
                            f'closing line {total.final_line()}')
        with open(pargs.junit, 'rb') as f:
            got = kunit_results.count_junit(f.read())
        want = (total.passed + total.xfail, total.failed, total.skipped)
        if (got.passed, got.failed, got.skipped) != want:
            problems.append(f'{pargs.junit} counts {got.final_line()}, the '
                            f'closing line {total.final_line()}')
    except (OSError, ValueError, SyntaxError) as exc:
        problems.append(f'the results files do not read back: {exc}')
    return problems


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--check', action='store_true',
                        help='make check: the static-key suites and the quick '
                             'host steps')
    parser.add_argument('--jobs', type=int, default=min(os.cpu_count() or 1, 2))
    parser.add_argument('--plan', default=str(PLAN))
    args = parser.parse_args(argv)
    sys.stdout.reconfigure(line_buffering=True, errors='replace')
    testsched.thread_output()
    start = time.monotonic()
    global RESULTS
    if args.check:      # its own results: make test's order stays make test's
        RESULTS = RESULTS / 'check'
        entries = CHECK_PLAN
        plan_dir = REPO_ROOT
        steps = [s for s in STEPS if s.check]
    else:
        entries = kunit.load_plan(args.plan)
        plan_dir = Path(args.plan).resolve().parent
        steps = STEPS
    pargs = argparse.Namespace(
        cpus=4, mem=kunit.qemu.DEFAULT_MEM, timeout=300, icount=False,
        qemu_args='', raw_output=False, no_build=False, jobs=args.jobs,
        json=str(RESULTS / 'results.json'), junit=str(RESULTS / 'results.xml'),
        results=str(RESULTS))
    RESULTS.mkdir(parents=True, exist_ok=True)
    estimates = kunit.load_estimates(RESULTS / 'times.json')
    runs, plan_jobs = kunit.plan_jobs(entries, pargs, plan_dir, estimates)
    extra, cases = step_jobs(steps, plan_jobs, args)
    for job in extra:
        job.estimate = estimates.get(job.name, job.estimate)
    sched = testsched.Scheduler(args.jobs, kunit.print_progress)
    try:
        done = sched.run(plan_jobs + extra)
    except KeyboardInterrupt:
        sched.stop()
        kunit.kill_children()
        kunit.qemu.kill_all()
        print('\nerror: interrupted by user')
        print(Counts().final_line())
        return 130
    return finish(pargs, entries, runs, done, steps, cases,
                  time.monotonic() - start)


def finish(pargs, entries, runs, done, steps, cases, elapsed):
    names = {s.name for s in steps}
    step_times = [(j.name, j.result.ok, j.elapsed) for j in done
                  if j.name in names]
    # The plan's tables and files, then the host steps added to both.
    outcomes = {n: r.outcome for n, r in runs.items() if r.outcome}
    kunit.print_plan_results(entries, outcomes)
    records = [kunit.record_of(n, runs[n].cfg, outcomes[n])
               for n in (e['name'] for e in entries) if n in outcomes]
    table = kunit_results.time_table(records, [(n, t) for n, _, t in
                                               step_times])
    table.append(f'  total (wall)           {elapsed:7.1f}')
    print()
    print('\n'.join(table))
    (RESULTS / 'times.txt').write_text('\n'.join(table) + '\n',
                                       encoding='utf-8')
    kunit.write_times(RESULTS / 'times.json', done, records)
    group = kunit_results.to_json(records, 'make test')
    host = host_group(done, steps, cases)
    group['sub_groups'].append(host)
    times = {f'{r.name}.{s}': t for r in records
             for s, t in r.suite_times.items()}
    kunit_results.write(pargs.json, pargs.junit, group, times)
    total = kunit_results.count_json(group)
    mismatch = check_files(pargs, total)
    failed_steps = [n for n, ok, _ in step_times if not ok]
    not_run = [e['name'] for e in entries if e['name'] not in outcomes]
    print()
    plan = kunit_results.count_json(dict(group, sub_groups=group['sub_groups'][:-1]))
    print(f'plan: {plan.final_line()}; host: {kunit_results.count_json(host).final_line()}'
          f'; {elapsed:.0f} s; results in {kunit.display_path(RESULTS)}/')
    if failed_steps:
        print(f'failed host steps: {", ".join(failed_steps)}')
    if not_run:
        print(f'plan runs not run: {", ".join(not_run)}')
    # Last, so that a log's tail (CI keeps only that) names what failed.
    failed = kunit_results.failed_json(group)
    for name in failed[:FAILED_SHOWN]:
        print(f'failed: {name}')
    if len(failed) > FAILED_SHOWN:
        print(f'failed: ... {len(failed) - FAILED_SHOWN} more in '
              f'{kunit.display_path(RESULTS)}/results.json')
    for line in mismatch:
        print(f'error: {line}')
    print(total.final_line())
    codes = [o.verdict.code for o in outcomes.values()]
    if failed_steps or not_run or any(codes) or total.failed or mismatch:
        return 2
    return 0


if __name__ == '__main__':
    sys.exit(main())
