"""The user-space figures of make bench (Documentation/userspace.rst).

For each of the y and n runs, the kernel bench.py built in OUT/<run> gets
a second ISO (OUT/<run>/user/kernel.iso) whose command line is
"init=/bin/benchinit tick=off": the project's benchmark programs
(user/bench/, the same static binaries scripts/bench_linux.py boots on
Debian's Linux) run as processes under -icount on one CPU, and their
"bench: ..." lines become records of that run's config:

    user_getppid_insns          per getppid()
    user_pipe_roundtrip_insns   per round trip, params schedstats=0|1;
                                threads=1: two threads (perf's -T)
    user_futex_wake_insns       a FUTEX_WAKE of a waiting thread, round
                                trip (two wake-ups), one CPU
    user_schedstats_flip_insns  a write of /proc/sys/kernel/sched_schedstats,
                                params on|off|noop
    user_schedstats_flip_insns_per_site   on / the sched_schedstats key's
                                sites in OUT/<run>/vmlinux's __jump_table
                                (params sites=N), as for Linux
    boot_first_user_insns       rdtsc at benchinit's first instruction

A second boot, OUT/<run>/user-smp/, on SMP_CPUS CPUs ("init_args=smp":
benchinit's run_smp()) records

    user_pipe_roundtrip_insns   params schedstats=0,cpus=4 (processes)
                                and schedstats=0,threads=1,cpus=4, not
                                pinned: the scheduler places them
    user_cross_cpu_wake_insns   a futex wake-up of a thread waiting on
                                another CPU (half the round trip)

A boot that fails or prints no "bench: done" line is an error of the
report, naming the log (OUT/<run>/user/serial.log); the figures found are
kept. With --from-logs nothing is built or booted: the logs are read.
"""

import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_linux  # noqa: E402
import check_jump_table  # noqa: E402
import qemu  # noqa: E402

REPO_ROOT = Path(__file__).resolve().parent.parent
USER_RUNS = ('y', 'n')
USER_CMDLINE = 'init=/bin/benchinit tick=off'
SMP_CMDLINE = USER_CMDLINE + ' init_args=smp'
SMP_CPUS = 4


def build_iso(build_dir, iso_dir, report, cmdline=USER_CMDLINE):
    argv = ['make', '-s', f'O={build_dir}', f'ISO_DIR={iso_dir}',
            f'CMDLINE={cmdline}', 'iso']
    proc = subprocess.run(argv, cwd=REPO_ROOT, capture_output=True,
                          text=True)
    if proc.returncode:
        report.error(f'user: {" ".join(argv)} failed:\n{proc.stderr[-2000:]}')
        return False
    return True


def boot_log(iso_dir, timeout, report, cpus=1):
    log = iso_dir / 'serial.log'
    lines = []
    result = qemu.boot(qemu.command(iso_dir / 'kernel.iso', cpus=cpus,
                                    icount=True), timeout, lines.append,
                       iso_dir / 'qemu.stderr')
    log.write_text('\n'.join(lines) + '\n', encoding='utf-8')
    if result.error or result.timed_out:
        report.error(f'user: {log}: {result.describe()}')
    return log


def key_sites(vmlinux, name, report):
    """The sites of key name in vmlinux's __jump_table, or None."""
    try:
        with open(vmlinux, 'rb') as f:
            key, = check_jump_table.Image(f).symbols([name])
        rows = check_jump_table.list_table(str(vmlinux))[0]
    except (OSError, ValueError, check_jump_table.CheckError) as exc:
        report.warn(f'user: {vmlinux}: no site count of {name}: {exc}')
        return None
    return sum(1 for row in rows if row[2] == key) or None


def records_of(config, log, report, sites=None):
    try:
        lines = log.read_text(encoding='utf-8', errors='replace').splitlines()
    except OSError as exc:
        report.error(f'user: {log}: {exc.strerror}')
        return []
    parsed = bench_linux.parse_bench_lines(lines)
    out = bench_linux.linux_records(parsed, sites)
    for error in parsed.errors:
        report.error(f'user ({config}): {error} (see {log})')
    if not parsed.done:
        report.error(f'user ({config}): no "bench: done" line in {log}')
    for r in out:
        r['config'] = config
    return out


def collect(run_names, base, args, report):
    """The records of the user runs among run_names (bench.py's hook)."""
    out = []
    for config in USER_RUNS:
        if config not in run_names:
            continue
        build_dir, iso_dir = base / config, base / config / 'user'
        if args.from_logs:
            log = iso_dir / 'serial.log'
        else:
            print(f'user ({config}): benchinit as pid 1, 1 CPU, icount')
            if not build_iso(build_dir, iso_dir, report):
                continue
            log = boot_log(iso_dir, args.timeout, report)
        sites = key_sites(build_dir / 'vmlinux', bench_linux.SCHEDSTATS_KEY,
                          report)
        out += records_of(config, log, report, sites)
        out += collect_smp(config, build_dir, args, report)
    return out


def collect_smp(config, build_dir, args, report):
    """The records of benchinit smp on SMP_CPUS CPUs."""
    iso_dir = build_dir / 'user-smp'
    if args.from_logs:
        log = iso_dir / 'serial.log'
    else:
        print(f'user ({config}): benchinit smp as pid 1, {SMP_CPUS} CPUs, '
              'icount')
        if not build_iso(build_dir, iso_dir, report, SMP_CMDLINE):
            return []
        log = boot_log(iso_dir, args.timeout, report, SMP_CPUS)
    return records_of(config, log, report)
