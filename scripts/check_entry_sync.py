#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""check_entry_sync.py VMLINUX [--objdump OBJDUMP]

Proves, from a linked kernel, that no way into the kernel reaches a
patchable site before it has serialized (<asm/text-sync.h>): a CPU that
was idle or in user mode is not sent the patch engine's sync rounds, and
only the serialization at TEXT_SYNC_ENTER makes it see text changed
meanwhile. The build runs it after the final link and fails if it fails.

The patchable sites: every jump label site (__jump_table, its bytes as
objdump decodes them), every static call site (__static_call_sites: a
5-byte call or jmp) and every static call trampoline (__SCT__* symbols).
The places: the .text_sync_points section, (address, kind) pairs that the
macros of <asm/text-sync.h> emit. The entries: the IDT's 256 stubs
(idt_stubs + 16 * vector), entry_SYSCALL_64 and any other entry_SYSCALL*,
entry_SYSENTER* or entry_INT80* symbol, and every TS_POINT_WAKE (where a
halted CPU goes on).

From each entry the code is walked instruction by instruction, following
both ways of a conditional jump, direct jumps, and direct calls (into the
callee, then on after the call); a path ends at a TS_POINT_ENTER (the
serializing point) or at an instruction that leaves (ret, iretq, sysretq,
hlt, ud2). Reaching a site, or an indirect jump or call (which cannot be
followed), on the way is an error. From each TS_POINT_LEAVE (a CPU about
to count as idle or in user mode) the walk goes on to the sysretq, iretq
or hlt: a site there, or a ret, is an error. Each TS_POINT_ENTER must be
followed by the xchg that marks the CPU (within two instructions), and
the functions it calls (its slow path) must reach no site, make no
indirect call and hold a serializing instruction (mov to %cr2, cpuid,
iretq or serialize).

Prints a summary line and exits 0 when all holds; prints each problem
(the entry, the path to it, the site) to stderr and exits 1 otherwise.
"""
import argparse
import collections
import os
import re
import struct
import subprocess
import sys

from elftools.common.exceptions import ELFError
from elftools.elf.constants import SH_FLAGS
from elftools.elf.elffile import ELFFile
from elftools.elf.sections import SymbolTableSection

PROG = "check_entry_sync"
POINTS = ".text_sync_points"
ENTER, LEAVE, WAKE = 1, 2, 3
STATE_SYMBOL = "text_sync_cpu_state"
ENTRY_RE = re.compile(r"^entry_(SYSCALL|SYSENTER|INT80)\w*$")
IDT_VECTORS, IDT_STUB = 256, 16

ENDS = ("ret", "retq", "iretq", "iret", "sysretq", "sysretl", "sysret",
        "sysexit", "sysexitq", "hlt", "ud2", "int3")
LEAVES = ("iretq", "sysretq", "sysretl", "sysexitq", "hlt")
SERIALIZING = re.compile(r"^(mov\s+%\w+,%cr2|cpuid|iretq|serialize)\b")

# "ffffffff80101234:\t66 90                \txchg   %ax,%ax"
INSN_RE = re.compile(r"^\s*([0-9a-f]+):\t([0-9a-f]{2}(?: [0-9a-f]{2})*)"
                     r"\s*(?:\t(.*))?$")
Insn = collections.namedtuple("Insn", "addr size text mnemonic target")


class CheckError(Exception):
    pass


class Kernel:
    """The image: symbols, sections, the sites, the code."""

    def __init__(self, path, objdump):
        self.path = path
        try:
            self.f = open(path, "rb")
            self.elf = ELFFile(self.f)
        except (OSError, ELFError) as e:
            raise CheckError(f"cannot read: {e}") from e
        symtab = self.elf.get_section_by_name(".symtab")
        if not isinstance(symtab, SymbolTableSection):
            raise CheckError("no .symtab (a stripped image?)")
        self.syms = {}
        self.funcs = []
        for s in symtab.iter_symbols():
            if s.name and s["st_shndx"] != "SHN_UNDEF":
                self.syms.setdefault(s.name, (s["st_value"], s["st_size"]))
                if s["st_info"]["type"] in ("STT_FUNC", "STT_NOTYPE"):
                    self.funcs.append((s["st_value"], s.name))
        self.funcs.sort()
        self.insns = self.disassemble(objdump)
        self.sites = {}          # address -> what
        self.read_jump_table()
        self.read_static_calls()

    def sym(self, name):
        if name not in self.syms:
            raise CheckError(f"no symbol {name}")
        return self.syms[name][0]

    def where(self, addr):
        """name+0xoff for addr."""
        lo, hi = 0, len(self.funcs)
        while lo < hi:
            mid = (lo + hi) // 2
            if self.funcs[mid][0] <= addr:
                lo = mid + 1
            else:
                hi = mid
        if not lo:
            return f"{addr:#x}"
        base, name = self.funcs[lo - 1]
        return f"{name}+{addr - base:#x}"

    def section_bytes(self, addr, size):
        for sec in self.elf.iter_sections():
            start = sec["sh_addr"]
            if (sec["sh_flags"] & SH_FLAGS.SHF_ALLOC and
                    sec["sh_type"] != "SHT_NOBITS" and
                    start <= addr and addr + size <= start + sec["sh_size"]):
                return sec.data()[addr - start:addr - start + size]
        raise CheckError(f"{size} bytes at {addr:#x} are in no section")

    def disassemble(self, objdump):
        cmd = [objdump, "-d", "-w"]
        for sec in self.elf.iter_sections():
            if (sec["sh_flags"] & SH_FLAGS.SHF_EXECINSTR and
                    sec["sh_type"] == "SHT_PROGBITS"):
                cmd += ["-j", sec.name]
        env = dict(os.environ, LC_ALL="C")
        try:
            out = subprocess.run(cmd + [self.path], capture_output=True,
                                 text=True, env=env, check=False)
        except OSError as e:
            raise CheckError(f"cannot run {objdump}: {e.strerror}") from e
        if out.returncode:
            raise CheckError(f"{objdump} failed: {out.stderr.strip()}")
        insns, last = {}, None
        for line in out.stdout.splitlines():
            m = INSN_RE.match(line)
            if not m:
                continue
            addr, size = int(m.group(1), 16), len(m.group(2).split())
            if m.group(3) is None:       # the rest of a long one
                if last is not None:
                    insns[last] = insns[last]._replace(
                        size=insns[last].size + size)
                continue
            text = " ".join(m.group(3).split("#")[0].split())
            words = text.split()
            mnemonic = words[0] if words else ""
            if mnemonic in ("bnd", "notrack", "rep", "repz", "lock") and \
                    len(words) > 1:
                mnemonic = words[1]
            target = None
            if mnemonic.startswith("j") or mnemonic.startswith("call"):
                m2 = re.search(r"\s([0-9a-f]+) <", m.group(3))
                if m2:
                    target = int(m2.group(1), 16)
            insns[addr] = Insn(addr, size, text, mnemonic, target)
            last = addr
        if not insns:
            raise CheckError(f"{objdump} found no instructions")
        return insns

    def table(self, start, stop, fmt):
        a, b = self.sym(start), self.sym(stop)
        if b <= a:
            return a, []
        data = self.section_bytes(a, b - a)
        return a, list(struct.iter_unpack(fmt, data))

    def read_jump_table(self):
        base, entries = self.table("__start___jump_table",
                                   "__stop___jump_table", "<iii")
        for i, (code, _, key) in enumerate(entries):
            at = base + 12 * i
            site = (at + code) & (2 ** 64 - 1)
            key = (at + 8 + (key & ~3)) & (2 ** 64 - 1)
            insn = self.insns.get(site)
            size = insn.size if insn else 5
            self.add_site(site, size,
                          f"jump label site (key {self.where_data(key)})")

    def where_data(self, addr):
        for name, (value, size) in self.syms.items():
            if value <= addr < value + max(size, 1):
                return name
        return f"{addr:#x}"

    def read_static_calls(self):
        if "__start_static_call_sites" not in self.syms:
            return
        base, entries = self.table("__start_static_call_sites",
                                   "__stop_static_call_sites", "<ii")
        for i, (addr, _) in enumerate(entries):
            site = (base + 8 * i + addr) & (2 ** 64 - 1)
            self.add_site(site, 5, "static call site")
        for name, (value, size) in self.syms.items():
            if name.startswith("__SCT__"):
                self.add_site(value, max(size, 5),
                              f"static call trampoline {name}")

    def add_site(self, addr, size, what):
        for a in range(addr, addr + size):
            self.sites.setdefault(a, (addr, what))

    def site_in(self, insn):
        for a in range(insn.addr, insn.addr + insn.size):
            if a in self.sites:
                return self.sites[a]
        return None

    def points(self):
        sec = self.elf.get_section_by_name(POINTS)
        if sec is None:
            raise CheckError(f"no {POINTS} section: nothing marks the "
                             "entries' serializing points")
        out = collections.defaultdict(list)
        for addr, kind in struct.iter_unpack("<QQ", sec.data()):
            out[kind].append(addr)
        return out


def successors(insn):
    """The addresses after insn on its paths, or None if it ends them."""
    m = insn.mnemonic
    nxt = insn.addr + insn.size
    if m in ENDS:
        return []
    if m.startswith("jmp"):
        return None if insn.target is None else [insn.target]
    if m.startswith("j"):
        return [nxt, insn.target] if insn.target is not None else None
    if m.startswith("call"):
        return [insn.target, nxt] if insn.target is not None else None
    return [nxt]


def walk(k, starts, stops, problems, label, leaving=False):
    """Walks from each start; appends a problem per site reached."""
    seen = {}
    todo = [(s, None) for s in starts]
    for s in starts:
        seen[s] = None
    while todo:
        addr, _ = todo.pop()
        if addr in stops:
            continue
        insn = k.insns.get(addr)
        if insn is None:
            problems.append(f"{label}: the path reaches {k.where(addr)}, "
                            "which is not an instruction" +
                            path_of(k, seen, addr))
            continue
        site = k.site_in(insn)
        if site:
            what = f"the {site[1]} at {k.where(site[0])}"
            if leaving:
                what = f"reaches {what} after the CPU counted as gone"
            else:
                what = f"reaches {what} before serializing"
            problems.append(f"{label}: {what}" + path_of(k, seen, addr))
            continue
        if leaving and insn.mnemonic in LEAVES:
            continue
        if leaving and insn.mnemonic.startswith("ret"):
            problems.append(f"{label}: returns at {k.where(addr)} while "
                            "counted as idle or in user mode" +
                            path_of(k, seen, addr))
            continue
        nxt = successors(insn)
        if nxt is None:
            problems.append(f"{label}: an indirect {insn.mnemonic} at "
                            f"{k.where(addr)} ('{insn.text}') before "
                            "serializing: cannot follow it" +
                            path_of(k, seen, addr))
            continue
        for n in nxt:
            if n not in seen:
                seen[n] = addr
                todo.append((n, addr))
    return len(seen)


def path_of(k, seen, addr, limit=12):
    """ '\n    path: a -> b -> ...' back from addr to its start."""
    chain = []
    while addr is not None and len(chain) < 400:
        chain.append(addr)
        addr = seen.get(addr)
    chain.reverse()
    # One name per function the path passes through, in order.
    names = []
    for a in chain:
        name = k.where(a).split("+")[0]
        if not names or names[-1][0] != name:
            names.append((name, a))
    shown = [k.where(a) for _, a in names[-limit:]]
    if names[-1][1] != chain[-1]:
        shown.append(k.where(chain[-1]))
    return "\n    path: " + " -> ".join(shown)


def check_enter_points(k, enters, problems):
    """Each ENTER point marks the CPU, and its slow path serializes."""
    state = k.sym(STATE_SYMBOL)
    slow = set()
    for p in enters:
        insn, ok = k.insns.get(p), False
        for _ in range(8):
            if insn is None:
                break
            if (insn.mnemonic.startswith("xchg") and
                    f"%gs:{state:#x}" in insn.text):
                ok = True
            if insn.mnemonic.startswith("call") and insn.target:
                slow.add(insn.target)    # the first call: the slow path
                break
            insn = k.insns.get(insn.addr + insn.size)
        if not ok:
            problems.append(f"the serializing point at {k.where(p)} does "
                            f"not mark the CPU (no xchg of %gs:"
                            f"{STATE_SYMBOL} right after it)")
    for fn in sorted(slow):
        before = len(problems)
        walk(k, [fn], set(), problems, f"{k.where(fn)} (a slow path of "
             "TEXT_SYNC_ENTER)")
        if len(problems) == before and not serializes(k, fn):
            problems.append(f"{k.where(fn)} (a slow path of TEXT_SYNC_ENTER)"
                            " holds no serializing instruction")
    return slow


def serializes(k, start):
    seen, todo = {start}, [start]
    while todo:
        insn = k.insns.get(todo.pop())
        if insn is None:
            continue
        if SERIALIZING.match(insn.text):
            return True
        for n in successors(insn) or []:
            if n not in seen:
                seen.add(n)
                todo.append(n)
    return False


def entries(k, wakes):
    out = []
    stubs = k.sym("idt_stubs")
    for v in range(IDT_VECTORS):
        out.append((f"IDT vector {v} ({k.where(stubs + IDT_STUB * v)})",
                    stubs + IDT_STUB * v))
    names = sorted(n for n in k.syms if ENTRY_RE.match(n))
    if "entry_SYSCALL_64" not in names:
        raise CheckError("no symbol entry_SYSCALL_64")
    out += [(n, k.sym(n)) for n in names]
    out += [(f"the wake-up after the halt at {k.where(w)}", w) for w in wakes]
    return out


def check(k):
    pts = k.points()
    enters, leaves, wakes = pts[ENTER], pts[LEAVE], pts[WAKE]
    if not enters or not wakes:
        raise CheckError(f"{POINTS} has no serializing point or no wake-up")
    problems = []
    check_enter_points(k, enters, problems)
    stops, walked = set(enters), 0
    reported = set()
    for label, addr in entries(k, wakes):
        mine = []
        walked += walk(k, [addr], stops, mine, label)
        for p in mine:
            # Many entries share their paths (256 stubs, one common_entry):
            # each problem once, under the first entry that meets it.
            key = p.split(": ", 1)[1].split("\n")[0]
            if key not in reported:
                reported.add(key)
                problems.append(p)
    for p in leaves:
        walk(k, [p], set(), problems,
             f"the CPU leaves at {k.where(p)}", leaving=True)
    return problems, len(enters), len(leaves), len(wakes), walked


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("vmlinux")
    ap.add_argument("--objdump", default="objdump")
    a = ap.parse_args(argv)
    try:
        k = Kernel(a.vmlinux, a.objdump)
        problems, ne, nl, nw, walked = check(k)
    except CheckError as e:
        print(f"{PROG}: {a.vmlinux}: {e}", file=sys.stderr)
        return 1
    for p in problems:
        print(f"{PROG}: {a.vmlinux}: {p}", file=sys.stderr)
    if problems:
        print(f"{PROG}: {a.vmlinux}: {len(problems)} problem(s): a CPU "
              "coming back from idle or user mode could run a patched site "
              "before serializing", file=sys.stderr)
        return 1
    sites = len({v[0] for v in k.sites.values()})
    print(f"{PROG}: {len(entries(k, []))} entries and {nw} wake-up(s) reach "
          f"none of {sites} patchable sites before one of {ne} serializing "
          f"points ({walked} instructions walked); {nl} ways out reach none "
          "after leaving")
    return 0


if __name__ == "__main__":
    sys.exit(main())
