#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The gdb commands of scripts/gdb/ against the console, on one kernel.

Boots an ISO whose command line says "shell" under QEMU's gdb stub (4
CPUs), and:

0. halted at the reset vector, before GRUB: sk-keys, sk-batch, sk-lsmod
   and sk-dmesg must each say what they cannot read (nothing is mapped
   yet), then gdb detaches and the kernel boots;
1. at the console loads a module with keys of its own (jlm_base by
   default) and runs keys, sites of a kernel key, a tracepoint and the
   module's key, calls, lsmod and dmesg; then gdb -batch attaches (which
   stops every CPU wherever it is), runs sk-keys, sk-sites, sk-calls,
   sk-lsmod, sk-dmesg and sk-batch, and detaches. The lines must be the
   console's (sk-sites adds the decoded bytes and a verdict after them;
   sk-dmesg holds the console's dmesg, and what came after);
2. gdb attaches again, loads the module's symbols (sk-symbols --auto),
   puts a breakpoint in the module's exit and continues; rmmod at the
   console must stop there, in the module's source; then a pending
   breakpoint in its init, and insmod must stop there (the symbols
   loaded by the loader's breakpoint before init), the module coming;
3. gdb stops the kernel in a flip of a key, in the first sync round's
   IPI and in the last round's park: sk-batch must show the batch in
   flight at step 2 (int3 over every old tail), every online CPU holding
   its reference, sk-sites every site in flight, then step 3 (tails);
4. gdb writes a NOP over one site of a key (QEMU writes the RAM, page
   protections aside) and sk-sites must name that site; then it breaks
   in machine_power_off and continues, the console flips the key, the
   kernel refuses the site and panics, and in the panic sk-sites, sk-keys,
   sk-batch and sk-dmesg still work and name the site; last it spoils a
   key's entries pointer and the module list, and the commands must say
   which structure reads as corrupt instead of printing it.

Exit status 0 if everything matched, 1 otherwise (each mismatch said);
the console's log and gdb's output are written to --log-dir.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from qemu_console import PROMPT, Console, free_port  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GDB_SCRIPTS = os.path.join(REPO, 'scripts', 'gdb', 'vmlinux-gdb.py')


class Gdb:
    """gdb -batch on vmlinux with the commands, attached to the stub."""

    def __init__(self, vmlinux, port, log_dir):
        self.vmlinux, self.port, self.log_dir = vmlinux, port, log_dir
        self.n = 0

    def start(self, commands):
        """gdb running commands (a list); returns (process, output path)."""
        self.n += 1
        script = os.path.join(self.log_dir, f'gdb-{self.n}.cmds')
        out = os.path.join(self.log_dir, f'gdb-{self.n}.out')
        with open(script, 'w') as f:
            f.write('set pagination off\nset confirm off\n')
            f.write(f'file {self.vmlinux}\nsource {GDB_SCRIPTS}\n')
            f.write(f'target remote 127.0.0.1:{self.port}\n')
            for c in commands:
                f.write(c + '\n')
        fh = open(out, 'w')
        proc = subprocess.Popen(['gdb', '-nx', '-batch', '-x', script],
                                stdin=subprocess.DEVNULL, stdout=fh,
                                stderr=subprocess.STDOUT,
                                start_new_session=True)
        return proc, out, fh

    @staticmethod
    def finish(proc, out, fh, timeout):
        """Waits for a gdb of start() (killed after timeout s); its output."""
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, 9)
            proc.wait()
        fh.close()
        with open(out) as f:
            return f.read()

    def run(self, commands, timeout=120):
        return self.finish(*self.start(commands), timeout)


def sections(text, marks):
    """gdb's output cut at echo lines ">>> name" into {name: [lines]}."""
    out, cur = {}, None
    for line in text.split('\n'):
        m = re.match(r'^>>> (\S+)$', line)
        if m:
            cur = m.group(1)
            out[cur] = []
        elif cur:
            out[cur].append(line)
    for name in marks:
        out.setdefault(name, [])
        while out[name] and out[name][-1] == '':
            out[name].pop()
    return out


class Checker:
    def __init__(self):
        self.failures = []
        self.passed = 0

    def ok(self, cond, what):
        if cond:
            self.passed += 1
            print(f'ok: {what}')
        else:
            self.failures.append(what)
            print(f'FAIL: {what}')
        return cond

    def same(self, console, gdb_lines, what):
        if console == gdb_lines:
            return self.ok(True, f'{what}: {len(console)} lines alike')
        for i, (a, b) in enumerate(zip(console, gdb_lines)):
            if a != b:
                print(f'  line {i}: console {a!r}\n  line {i}: gdb     {b!r}')
                break
        else:
            print(f'  console {len(console)} lines, gdb {len(gdb_lines)}')
        return self.ok(False, f'{what}: the lines differ')


SITES_KEYS = ('sched_schedstats', 'sched_switch')


def part_before_boot(gdb, chk):
    """0: QEMU halted at the reset vector, nothing of the kernel mapped:
    the commands say what they cannot read (and detach lets it boot)."""
    got = sections(gdb.run(['echo >>> reset\\n', 'sk-keys', 'sk-batch',
                            'sk-lsmod', 'sk-dmesg', 'echo >>> end\\n',
                            'detach']), ['reset'])
    lines = [l for l in got['reset'] if l]
    chk.ok(len(lines) == 4 and all(l.startswith('unreadable: ') and
                                   'not up yet' in l for l in lines),
           f'before boot, every command says what it cannot read: '
           f'{lines[:1]}')


def part_same_state(con, gdb, chk, module, modkey):
    """1: every command's lines against the console's."""
    out = con.command(f'insmod {module}')
    chk.ok(not any('error' in l or 'fail' in l for l in out),
           f'insmod {module}: {" / ".join(out)}')
    console = {'keys': con.command('keys'), 'calls': con.command('calls'),
               'lsmod': con.command('lsmod')}
    keys = SITES_KEYS + (f'{module}:{modkey}',)
    for k in keys:
        console[f'sites:{k}'] = con.command(f'sites {k}')
    console['dmesg'] = con.command('dmesg')
    cmds = []
    for name, cmd in [('keys', 'sk-keys'), ('calls', 'sk-calls'),
                      ('lsmod', 'sk-lsmod'), ('dmesg', 'sk-dmesg'),
                      ('batch', 'sk-batch')] + \
            [(f'sites:{k}', f'sk-sites {k}') for k in keys]:
        cmds += [f'echo >>> {name}\\n', cmd]
    cmds += ['echo >>> end\\n', 'detach']
    got = sections(gdb.run(cmds), list(console) + ['batch'])
    for name in ('keys', 'calls', 'lsmod'):
        chk.same(console[name], got[name], f'sk-{name} against {name}')
    chk.ok(len(console['keys']) > 3 and
           any(l.startswith(modkey) for l in console['keys']),
           f'keys lists {modkey} of {module}')
    for k in keys:
        c, g = console[f'sites:{k}'], got[f'sites:{k}']
        # sk-sites: the console's line, two blanks, what the bytes are.
        cut = [g[i][:len(c[i])] if i < len(c) - 1 and
               g[i].startswith(c[i] + '  ') else g[i]
               for i in range(min(len(g), len(c)))]
        chk.same(c, cut, f'sk-sites {k} against sites {k}')
        chk.ok(len(c) > 1 and len(g) == len(c) + 1 and
               'agree with the key' in g[-1] and
               all(l.endswith(': ok') for l in g[:len(c) - 1]),
               f'sk-sites {k}: every site agrees with its key')
    dm = '\n'.join(console['dmesg']).strip('\n')
    gd = '\n'.join(got['dmesg'])
    chk.ok(dm and dm[-2000:] in gd,
           'sk-dmesg holds the console\'s dmesg')
    chk.ok(got['batch'] and got['batch'][0].startswith('no batch in flight'),
           f'sk-batch with nothing in flight: {got["batch"][:1]}')


def wait_text(path, text, timeout=60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with open(path) as f:
            if text in f.read():
                return True
        time.sleep(0.2)
    return False


def part_module_breakpoint(con, gdb, chk, module, init_fn, exit_fn):
    """2: breakpoints in the module, from sk-symbols' symbols: in its exit
    (loaded now), then in its init (loaded again later, --auto)."""
    proc, out, fh = gdb.start([
        'set breakpoint pending on',
        'echo >>> symbols\\n', 'sk-symbols --auto', f'break {exit_fn}',
        'echo >>> continue\\n', 'continue', 'echo >>> stopped\\n',
        'bt 1', 'info symbol $pc', f'delete', f'break {init_fn}',
        'echo >>> continue2\\n', 'continue', 'echo >>> init\\n', 'bt 1',
        'sk-lsmod', 'detach'])
    wait_text(out, '>>> continue\n')
    time.sleep(1)                     # gdb has resumed the CPUs
    start = con.mark()
    con.send(f'rmmod {module}')
    if wait_text(out, '>>> continue2\n', 90):
        con.wait_for(start, re.escape(PROMPT), 60)
        time.sleep(1)
        start = con.mark()
        con.send(f'insmod {module}')
    got = sections(gdb.finish(proc, out, fh, 90),
                   ['symbols', 'stopped', 'init'])
    chk.ok(any(l.startswith(f'{module}: ') and '.text' in l
               for l in got['symbols']),
           f'sk-symbols loads {module}: {got["symbols"][:1]}')
    chk.ok(any(exit_fn in l and f'{module}.c' in l for l in got['stopped']),
           f'rmmod {module} stops at the breakpoint in {exit_fn}: '
           f'{got["stopped"][:2]}')
    chk.ok(any(init_fn in l and f'{module}.c' in l for l in got['init']),
           f'insmod {module} again stops in {init_fn}, its symbols loaded '
           f'before its init: {got["init"][:2]}')
    chk.ok(any(l.startswith(module) and ' coming ' in l
               for l in got['init']),
           f'sk-lsmod in its init says {module} is coming')
    con.wait_for(start, re.escape(PROMPT), 60)


def part_batch_in_flight(con, gdb, chk, key):
    """2b: stopped in the middle of a flip of key, on the patching CPU: as
    round 1 picks its CPUs (int3 written) and as round 3's park begins
    (tails written). Not in the other CPUs' IPI functions: idle at the
    console, they get none (text_sync.c)."""
    proc, out, fh = gdb.start([
        'break text_sync_targets', 'echo >>> continue\\n', 'continue',
        'echo >>> round1\\n',
        'sk-batch', 'echo >>> sites1\\n', f'sk-sites {key}', 'delete',
        'break text_sync_park_begin', 'continue', 'echo >>> round3\\n',
        'sk-batch',
        'delete', 'echo >>> end\\n', 'detach'])
    wait_text(out, '>>> continue\n')
    time.sleep(1)                     # gdb has resumed the CPUs
    start = con.mark()
    con.send(f'key {key} enable')
    got = sections(gdb.finish(proc, out, fh, 120),
                   ['round1', 'sites1', 'round3'])
    out1 = con.wait_for(start, re.escape(PROMPT), 60) or ''
    r1, r3 = got['round1'], got['round3']
    chk.ok(r1 and re.match(r'^batch in flight: \d+ sites at 0x[0-9a-f]+, '
                           r'step 2: int3 written$', r1[0]),
           f'stopped in round 1, sk-batch: {r1[:1]}')
    refs = [l.split() for l in r1 if re.match(r'^ +\d+ (yes|no) ', l)]
    chk.ok(len(refs) >= 2 and all(int(r[2]) >= 1 for r in refs
                                  if r[1] == 'yes'),
           f'every online CPU holds its reference on the batch: '
           f'{[(r[0], r[2]) for r in refs]}')
    chk.ok(any(l.startswith('  sites: 0 old, ') and ' int3,' in l and
               ' 0 int3+tail, 0 new' in l for l in r1),
           f'every site holds int3 over its old tail: '
           f'{[l for l in r1 if l.startswith("  sites:")]}')
    summary = [l for l in got['sites1'] if l.startswith('sk-sites: ')]
    site_lines = [l for l in got['sites1'] if l.startswith('  ')]
    chk.ok(summary and 'in the batch in flight' in summary[0] and
           site_lines and all(': in flight: int3, old tail' in l
                              for l in site_lines),
           f'sk-sites {key} in flight: {summary[:1]}')
    chk.ok(r3 and r3[0].endswith('step 3: tails written'),
           f'stopped in round 3\'s park, sk-batch: {r3[:1]}')
    chk.ok(f'{key}: enabled' in out1.replace('\r', ''),
           f'the flip then ends: {key} enabled')
    con.command(f'key {key} disable')


def part_corrupt_panic(con, gdb, chk, key):
    """3: a site spoiled on purpose, named; then the panic it causes."""
    got = sections(gdb.run([
        f'echo >>> before\\n', f'sk-sites {key}', 'detach']), ['before'])
    sites = [l.split()[0] for l in got['before'] if l.startswith('  ')]
    if not chk.ok(sites, f'sk-sites {key} lists sites'):
        return
    site = sites[0]
    proc, out, fh = gdb.start([
        f'set {{unsigned char}}0x{site} = 0x90', 'echo >>> spoilt\\n',
        f'sk-sites {key}', 'break machine_power_off',
        'echo >>> continue\\n', 'continue',
        'echo >>> panic\\n', f'sk-sites {key}', 'echo >>> keys\\n',
        'sk-keys', 'echo >>> batch\\n', 'sk-batch', 'echo >>> dmesg\\n',
        'sk-dmesg', 'echo >>> end\\n',
        # Then structures spoilt: a key's entries pointer, the module list.
        f'set variable {key}.key.entries = (struct jump_entry *)'
        f'((char *)__stop___jump_table + 4096)', 'echo >>> badkey\\n',
        'sk-keys', 'echo >>> badsites\\n', f'sk-sites {key}',
        'set variable modules.next = (struct list_head *)0x1000',
        'echo >>> badlist\\n', 'sk-lsmod', 'sk-keys', 'echo >>> end2\\n',
        'kill'])
    wait_text(out, '>>> continue\n')
    time.sleep(1)                     # gdb has resumed the CPUs
    con.send(f'key {key} enable')
    got = sections(gdb.finish(proc, out, fh, 90),
                   ['spoilt', 'panic', 'keys', 'batch', 'dmesg', 'badkey',
                    'badsites', 'badlist'])
    named = [l for l in got['spoilt'] if l.startswith(f'  {site}')]
    chk.ok(named and 'CORRUPT' in named[0],
           f'sk-sites names the spoilt site {site}: {named[:1]}')
    summary = [l for l in got['spoilt'] if l.startswith('sk-sites:')]
    chk.ok(summary and 'disagree' in summary[0] and site in summary[0],
           f'sk-sites says which site disagrees: {summary[:1]}')
    chk.ok(any('Kernel panic' in l for l in got['dmesg']) and
           any('refusing to patch' in l for l in got['dmesg']),
           'in the panic, sk-dmesg shows the refusal and the panic')
    named = [l for l in got['panic'] if l.startswith(f'  {site}')]
    chk.ok(named and 'CORRUPT' in named[0],
           f'in the panic, sk-sites still names {site}')
    chk.ok(got['keys'] and got['keys'][-1].endswith(' keys') and
           not any(l.startswith('corrupt') for l in got['keys']),
           f'in the panic, sk-keys lists the keys: {got["keys"][-1:]}')
    chk.ok(got['batch'] and not got['batch'][0].startswith('corrupt'),
           f'in the panic, sk-batch reads: {got["batch"][:1]}')
    bad = [l for l in got['badkey'] if l.startswith('corrupt: key ')]
    chk.ok(len(bad) == 1 and 'is not an entry of the kernel' in bad[0] and
           got['badkey'] and any(re.match(r'^\d+ of \d+ keys \(1 corrupt\)',
                                          l) for l in got['badkey']),
           f'a key whose entries pointer is spoilt: sk-keys says so and '
           f'lists the others: {bad[:1]}')
    chk.ok(any(l.startswith('corrupt: ') and 'jump_table' in l
               for l in got['badsites']),
           f'sk-sites {key} says its key reads as corrupt')
    chk.ok(got['badlist'] and all(l.startswith('corrupt: modules')
                                  for l in got['badlist'][:2]) and
           len(got['badlist']) >= 2 and
           'not a kernel address' in got['badlist'][0],
           f'a module list spoilt: sk-lsmod and sk-keys say so: '
           f'{got["badlist"][:2]}')


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--iso', required=True)
    ap.add_argument('--vmlinux', required=True)
    ap.add_argument('--cpus', type=int, default=4)
    ap.add_argument('--module', default='jlm_base')
    ap.add_argument('--module-key', default='jlm_base_false')
    ap.add_argument('--module-init', default='base_init')
    ap.add_argument('--module-exit', default='base_exit')
    ap.add_argument('--corrupt-key', default='sched_schedstats')
    ap.add_argument('--log-dir')
    ap.add_argument('--timeout', type=float, default=120,
                    help='seconds to wait for the first prompt')
    args = ap.parse_args()
    log_dir = args.log_dir or tempfile.mkdtemp(prefix='gdb_check.')
    os.makedirs(log_dir, exist_ok=True)
    port = free_port()
    chk = Checker()
    with open(os.path.join(log_dir, 'serial.log'), 'w') as log:
        con = Console(args.iso, args.cpus, port, log, extra=['-S'])
        try:
            gdb = Gdb(os.path.abspath(args.vmlinux), port, log_dir)
            part_before_boot(gdb, chk)
            if con.wait_for(0, re.escape(PROMPT), args.timeout) is None:
                print('FAIL: no console prompt', file=sys.stderr)
                return 1
            part_same_state(con, gdb, chk, args.module, args.module_key)
            part_module_breakpoint(con, gdb, chk, args.module,
                                   args.module_init, args.module_exit)
            part_batch_in_flight(con, gdb, chk, args.corrupt_key)
            part_corrupt_panic(con, gdb, chk, args.corrupt_key)
        except (RuntimeError, OSError) as exc:
            chk.ok(False, str(exc))
        finally:
            con.kill()
    print(f'gdb_check: {chk.passed} passed, {len(chk.failures)} failed '
          f'(logs in {log_dir})')
    return 1 if chk.failures else 0


if __name__ == '__main__':
    sys.exit(main())
