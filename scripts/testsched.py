# SPDX-License-Identifier: GPL-2.0
"""Runs a graph of jobs on the host's cores: make test's builds, boots and
host checks (scripts/make_test.py) and a plan's runs (scripts/kunit.py plan).

A job holds `cores` of the `slots` cores while it runs (a make -j2 build or
a boot whose vCPUs are all busy holds two, a boot whose cases run one CPU
at a time one), starts once every job it depends on has passed, and never
runs beside another job with the same `lock` (two makes of one build
directory). Of the jobs that could start, the one with the longest chain
of estimated work behind it goes first (longest first, so the tail is
short). When it does not fit, a smaller job overtakes it only if its
estimate ends before the running jobs' do by theirs (backfilling: the
core it takes would otherwise wait, and the longest is not delayed by
the estimates). A job that can also run on fewer cores (min_cores, a
make -jN build) starts on what is free when waiting for all its cores
would take longer than the job itself: on half the cores it takes about
twice as long, which still ends sooner than waiting and then running.

Each job's output goes to its own log; a job prints to the terminal only
through report(), one progress line when it ends.
"""

import io
import sys
import threading
import time
from dataclasses import dataclass, field


class ThreadOutput(io.TextIOBase):
    """sys.stdout for threads: each job thread writes to its own stream
    (set by redirect()), the others to the real stdout."""

    def __init__(self, real):
        super().__init__()
        self.real = real
        self.local = threading.local()

    def target(self):
        return getattr(self.local, 'stream', None) or self.real

    def write(self, text):
        return self.target().write(text)

    def flush(self):
        self.target().flush()

    def isatty(self):
        return self.target() is self.real and self.real.isatty()

    def redirect(self, stream):
        self.local.stream = stream


_output = None
_print_lock = threading.Lock()


def thread_output():
    """Installs (once) and returns the per-thread sys.stdout."""
    global _output
    if _output is None:
        _output = ThreadOutput(sys.stdout)
        sys.stdout = _output
    return _output


def say(line):
    """A line on the real terminal, whole, whichever thread prints it."""
    out = thread_output().real
    with _print_lock:
        out.write(line + '\n')
        out.flush()


@dataclass(eq=False)
class Job:
    name: str
    run: object                         # callable() -> JobResult
    cores: int = 1
    min_cores: int = 0                  # fewer it can run on (0: cores only)
    deps: list = field(default_factory=list)     # Jobs
    lock: object = None                 # a name, or a tuple of names
    estimate: float = 10.0              # seconds, for the order
    quiet: bool = False                 # no progress line (a build step)
    # Filled in by the scheduler:
    granted: int = 0                    # the cores it was started on
    share: float = 1.0                  # granted / the cores it fits on
    result: object = None
    start: float | None = None
    end: float | None = None

    @property
    def elapsed(self):
        if self.start is None or self.end is None:
            return 0.0
        return self.end - self.start

    @property
    def span(self):
        """The estimate on the cores it was granted."""
        return self.estimate / self.share

    @property
    def full_elapsed(self):
        """What it took, scaled to all its cores (the next estimate)."""
        return self.elapsed * self.share


@dataclass
class JobResult:
    ok: bool
    summary: str = ''                   # "212 passed" or "passed"
    details: list = field(default_factory=list)  # lines printed on failure
    data: object = None                 # what the caller wants back


def _critical(jobs):
    """Each job's estimate plus the longest chain of jobs waiting on it."""
    after = {job: [] for job in jobs}
    for job in jobs:
        for dep in job.deps:
            after.setdefault(dep, []).append(job)
    memo = {}

    def chain(job):
        if job not in memo:
            memo[job] = job.estimate + max((chain(j) for j in after[job]),
                                           default=0.0)
        return memo[job]
    return {job: chain(job) for job in jobs}


class Scheduler:
    def __init__(self, slots=2, on_done=None):
        self.slots = max(1, slots)
        self.on_done = on_done          # on_done(job, index, total)
        self.cond = threading.Condition()
        self.stopping = False

    def stop(self):
        with self.cond:
            self.stopping = True
            self.cond.notify_all()

    @staticmethod
    def _locks(job):
        if not job.lock:
            return ()
        return (job.lock,) if isinstance(job.lock, str) else tuple(job.lock)

    def _worker(self, job):
        thread_output()
        try:
            job.result = job.run()
        except Exception as exc:   # a bug in a job: say so, go on
            job.result = JobResult(False, f'internal error: {exc!r}')
        with self.cond:
            job.end = time.monotonic()
            self.busy -= job.granted
            self.locks.difference_update(self._locks(job))
            self.running.discard(job)
            self.done.append(job)
            self.cond.notify_all()

    def _free_at(self, need):
        """When, by the running jobs' estimates, need cores will be free."""
        now = time.monotonic()
        ends = sorted((max(j.start + j.span, now), j.granted)
                      for j in self.running)
        free = self.slots - self.busy
        for end, cores in ends:
            free += cores
            if free >= need:
                return end
        return now

    def _shrunk(self, job, need):
        """The cores a job that does not fit may start on now, or 0."""
        free = self.slots - self.busy
        if not job.min_cores or free < job.min_cores:
            return 0
        if self._free_at(need) - time.monotonic() <= job.estimate:
            return 0
        return free

    def _ready(self, job):
        return all(dep.end is not None for dep in job.deps)

    def _blocked(self, job):
        """A job whose dependency failed: it is not run."""
        return next((dep for dep in job.deps
                     if dep.result is not None and not dep.result.ok), None)

    def run(self, jobs):
        """Runs every job; returns them in the order they ended."""
        order = _critical(jobs)
        pending = sorted(jobs, key=lambda j: -order[j])
        self.busy, self.locks, self.done = 0, set(), []
        self.running = set()
        finished = []
        total = sum(not j.quiet for j in jobs)
        shown = 0
        with self.cond:
            while pending or self.busy or self.done:
                for job in list(pending):
                    failed = self._blocked(job)
                    if failed:
                        pending.remove(job)
                        job.start = job.end = time.monotonic()
                        job.result = JobResult(
                            False, f'not run: {failed.name} failed')
                        self.done.append(job)
                if self.stopping:
                    for job in pending:
                        job.result = JobResult(False, 'not run: interrupted')
                    pending = []
                head_waits = None   # when the longest that waits may start
                for job in [j for j in pending if self._ready(j)]:
                    need = min(job.cores, self.slots)
                    if self.locks.intersection(self._locks(job)):
                        continue
                    grant = need
                    if self.busy + need > self.slots:
                        grant = self._shrunk(job, need)
                    if not grant:
                        if head_waits is None:
                            head_waits = self._free_at(need)
                        continue
                    if head_waits is not None and time.monotonic() + \
                            job.estimate * need / grant > head_waits:
                        continue    # it would delay the longest
                    job.granted, job.share = grant, grant / need
                    pending.remove(job)
                    self.busy += grant
                    self.locks.update(self._locks(job))
                    job.start = time.monotonic()
                    self.running.add(job)
                    threading.Thread(target=self._worker, args=(job,),
                                     daemon=True).start()
                while self.done:
                    job = self.done.pop(0)
                    finished.append(job)
                    if not job.quiet or not job.result.ok:
                        shown += 1
                        if self.on_done:
                            self.cond.release()
                            try:
                                self.on_done(job, shown, total)
                            finally:
                                self.cond.acquire()
                if pending or self.busy:
                    self.cond.wait(timeout=1.0)
        return finished
