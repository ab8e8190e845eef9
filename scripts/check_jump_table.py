#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""check_jump_table.py VMLINUX [--objdump OBJDUMP] [--fixup JUMP_LABEL_FIXUP]

Checks every static branch site of a linked kernel against objdump's view
of the code. The __jump_table entries and the verdict on their order come
from "jump_label_fixup --list" (scripts/jump_label_fixup.c, the host's one
reader of the entry format and statement of the (key, code) order; by
default the one beside the image, DIR/scripts/jump_label_fixup); the
sections and each key's initial count are read with pyelftools; the site
encodings come from <asm/jump_label_insn.h> through scripts/jl_insn.py; the
executable sections are disassembled once with `objdump -d -w`. For each
entry an instruction must start at the site, it must be nop2, nop5, jmp8
or jmp32 as objdump decodes it, a jmp must go to the entry's target, and
the site must be a JMP exactly when (enabled > 0) XOR branch. The table
must also be in order, as jump_label_fixup leaves it.

Prints one summary line and exits 0 when every site is right; prints each
problem to stderr and exits 1 otherwise (also for an unreadable image, one
without the table's section or symbols, a stripped one, or a failing
objdump or jump_label_fixup).
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

import jl_insn

PROG = "check_jump_table"
TABLE = "__jump_table"
FIXUP = "jump_label_fixup"

SHF_ALLOC = SH_FLAGS.SHF_ALLOC
SHF_EXECINSTR = SH_FLAGS.SHF_EXECINSTR
SHF_TLS = SH_FLAGS.SHF_TLS

NOP_MNEMONICS = ("nop", "nopw", "nopl", "xchg", "data16")
JMP_MNEMONICS = ("jmp", "jmpq")

# "ffffffff80101234:\t66 90                \txchg   %ax,%ax"; without the
# last field for the rest of a long instruction's bytes (not with -w).
INSN_RE = re.compile(r"^\s*([0-9a-f]+):\t([0-9a-f]{2}(?: [0-9a-f]{2})*)"
                     r"\s*(?:\t(.*))?$")

Section = collections.namedtuple("Section", "name type flags addr size index")
Entry = collections.namedtuple(
    "Entry", "index code target key branch enabled jump")
Insn = collections.namedtuple("Insn", "raw text")


class CheckError(Exception):
    pass


class Image:
    """The parts of an ELF64 x86-64 executable the check needs."""

    def __init__(self, f):
        self.elf = ELFFile(f)
        if self.elf.elfclass != 64 or not self.elf.little_endian:
            raise CheckError("not ELF64 little-endian")
        if (self.elf["e_machine"] != "EM_X86_64" or
                self.elf["e_type"] != "ET_EXEC"):
            raise CheckError("not an x86-64 executable (ET_EXEC)")
        check_links(self.elf, f)
        self.sections = [
            Section(s.name, s["sh_type"], s["sh_flags"], s["sh_addr"],
                    s["sh_size"], i)
            for i, s in enumerate(self.elf.iter_sections())]
        self._data = {}

    def by_name(self, name):
        for sec in self.sections[1:]:
            if sec.name == name:
                return sec
        return None

    def find(self, addr, length, want, avoid=0):
        """The section holding [addr, addr + length) with flags `want`
        set and `avoid` clear."""
        for sec in self.sections[1:]:
            if sec.flags & (want | avoid) != want:
                continue
            if sec.addr <= addr and addr + length <= sec.addr + sec.size:
                return sec
        return None

    def read(self, sec, addr, length):
        """length bytes at addr, which lie in sec."""
        if sec.index not in self._data:
            self._data[sec.index] = self.elf.get_section(sec.index).data()
        start = addr - sec.addr
        data = self._data[sec.index][start:start + length]
        if len(data) != length:
            raise CheckError(f"section {sec.name}: {length} bytes at "
                             f"{addr:#x} lie outside the file")
        return data

    def symbols(self, names):
        """The values of names in .symtab; CheckError naming what is
        missing (the whole .symtab of a stripped image, or symbols)."""
        symtab = self.elf.get_section_by_name(".symtab")
        if not isinstance(symtab, SymbolTableSection):
            raise CheckError(f"no {TABLE} section and no .symtab (a "
                             "stripped image?): cannot locate the jump "
                             f"table ({', '.join(names)})")
        values = [symtab.get_symbol_by_name(name) for name in names]
        missing = [n for n, v in zip(names, values) if not v]
        if missing:
            raise CheckError(f"no {TABLE} section, and .symtab lacks "
                             f"{', '.join(missing)}: cannot locate the "
                             "jump table")
        return [v[0]["st_value"] for v in values]

    def text_sections(self):
        return [s for s in self.sections[1:]
                if s.flags & (SHF_ALLOC | SHF_EXECINSTR) ==
                SHF_ALLOC | SHF_EXECINSTR and s.type != "SHT_NOBITS"]


SHDR = struct.Struct("<IIQQQQIIQQ")
SHT_SYMTAB, SHT_STRTAB, SHT_DYNSYM = 2, 3, 11


def check_links(elf, f):
    """Every section's sh_link is a section, and a symbol table's is a
    string table: pyelftools follows these links as it builds the
    sections and fails with a traceback on a bad one."""
    num = elf.num_sections()
    headers = []
    for i in range(num):
        f.seek(elf["e_shoff"] + i * elf["e_shentsize"])
        raw = f.read(SHDR.size)
        if len(raw) != SHDR.size:
            raise CheckError(f"section header {i} lies outside the file")
        headers.append(SHDR.unpack(raw))

    def name(i):
        """Section i's name, read by hand; '?' if it cannot be."""
        strtab = elf.get_shstrndx()
        if strtab >= num:
            return "?"
        f.seek(headers[strtab][4] + headers[i][0])
        return f.read(64).split(b"\0")[0].decode("ascii", "replace") or "?"

    for i, (_, sh_type, _, _, _, _, sh_link, _, _, _) in enumerate(headers):
        if sh_type in (SHT_SYMTAB, SHT_DYNSYM) and (
                sh_link >= num or headers[sh_link][1] != SHT_STRTAB):
            raise CheckError(f"{name(i)}: sh_link {sh_link} is not a string "
                             f"table ({num} sections)")
        if sh_link >= num:
            raise CheckError(f"section {i} ({name(i)}): sh_link {sh_link} "
                             f"is not a section ({num} sections)")


def default_fixup(path):
    """The jump_label_fixup of the build that made the image."""
    return os.path.join(os.path.dirname(os.path.abspath(path)), "scripts",
                        FIXUP)


def list_table(path, fixup=None):
    """[(code, target, key, flags)] of the image's table, in its order, the
    first pair of indices out of order (or None) and the entry's size, as
    jump_label_fixup --list reads them; CheckError with the tool's own
    message otherwise."""
    fixup = fixup or default_fixup(path)
    try:
        out = subprocess.run([fixup, "--list", path], capture_output=True,
                             text=True, check=False)
    except OSError as e:
        raise CheckError(f"cannot run {fixup} (pass --fixup): "
                         f"{e.strerror}") from e
    if out.returncode:
        prefix = f"{FIXUP}: {path}: "
        lines = [line[len(prefix):] if line.startswith(prefix) else line
                 for line in out.stderr.splitlines()]
        raise CheckError("; ".join(lines) or f"{fixup} failed")
    rows, order, size = [], None, None
    for line in out.stdout.splitlines():
        words = line.split()
        if words[0] == "table" and len(words) == 4:
            size = int(words[3])
        elif words[0] == "entry" and len(words) == 6:
            rows.append(tuple(int(w, 16) for w in words[2:5]) +
                        (int(words[5]),))
        elif words[:2] == ["order", "ok"]:
            order = False
        elif words[0] == "order" and len(words) == 3:
            order = (int(words[1]), int(words[2]))
    if order is None or size is None:
        raise CheckError(f"{fixup} --list gave no table or order line")
    return rows, order or None, size


def read_entries(image, rows):
    """The entries of list_table(), each with its key's initial count and
    the rule."""
    entries = []
    for i, (code, target, key, flags) in enumerate(rows):
        enabled = key_enabled(image, key)
        branch = flags & 1
        jump = None if enabled is None else (enabled > 0) != bool(branch)
        entries.append(Entry(i, code, target, key, branch, enabled, jump))
    return entries


def key_enabled(image, addr):
    sec = image.find(addr, 4, SHF_ALLOC, SHF_EXECINSTR | SHF_TLS)
    if not sec:
        return None
    if sec.type == "SHT_NOBITS":
        return 0
    return int.from_bytes(image.read(sec, addr, 4), "little", signed=True)


def disassemble(objdump, path, sections, wanted):
    """Map address -> Insn for every instruction objdump starts at an
    address in `wanted`."""
    cmd = [objdump, "-d", "-w"]
    for sec in sections:
        cmd += ["-j", sec.name]
    env = dict(os.environ, LC_ALL="C")
    try:
        out = subprocess.run(cmd + [path], capture_output=True, text=True,
                             env=env, check=False)
    except OSError as e:
        raise CheckError(f"cannot run {objdump}: {e.strerror}") from e
    if out.returncode:
        why = out.stderr.strip() or f"exit status {out.returncode}"
        raise CheckError(f"{objdump} failed: {why}")
    insns = {}
    last = None
    for line in out.stdout.splitlines():
        m = INSN_RE.match(line)
        if not m:
            continue
        addr, raw = int(m.group(1), 16), bytes.fromhex(m.group(2))
        if m.group(3) is None:
            if last is not None:
                insns[last] = insns[last]._replace(raw=insns[last].raw + raw)
            continue
        last = addr if addr in wanted else None
        if last is not None:
            insns[addr] = Insn(raw, " ".join(m.group(3).split()))
    return insns


def classify(insn):
    """'nop2', 'nop5', 'jmp8', 'jmp32' or None, from bytes and mnemonic."""
    words = insn.text.split()
    mnemonic = words[0] if words else ""
    if insn.raw == jl_insn.NOP2 and mnemonic in NOP_MNEMONICS:
        if mnemonic != "xchg" or words[1:2] == ["%ax,%ax"]:
            return "nop2"
    if insn.raw == jl_insn.NOP5 and mnemonic in NOP_MNEMONICS:
        return "nop5"
    if mnemonic in JMP_MNEMONICS:
        if (len(insn.raw) == jl_insn.SHORT_SIZE and
                insn.raw[0] == jl_insn.JMP8):
            return "jmp8"
        if (len(insn.raw) == jl_insn.LONG_SIZE and
                insn.raw[0] == jl_insn.JMP32):
            return "jmp32"
    return None


def jmp_dest(insn):
    words = insn.text.split()
    try:
        return int(words[1], 16)
    except (IndexError, ValueError):
        return None


def check_entry(image, insns, e):
    """The problem with entry e, or None; and the site's kind."""
    text = (SHF_ALLOC | SHF_EXECINSTR, SHF_TLS)
    if not image.find(e.code, 1, *text):
        return "code is outside text", None
    if not image.find(e.target, 1, *text):
        return f"target {e.target:#x} is outside text", None
    if e.enabled is None:
        return f"key {e.key:#x} is outside data", None
    insn = insns.get(e.code)
    if insn is None:
        return "no instruction starts at the site", None
    kind = classify(insn)
    if kind is None:
        return "not a nop2/nop5/jmp8/jmp32", None
    if e.target not in insns:
        return f"target {e.target:#x} is not an instruction boundary", kind
    is_jmp = kind.startswith("jmp")
    if is_jmp and jmp_dest(insn) != e.target:
        return f"jmp does not go to the target {e.target:#x}", kind
    if is_jmp != e.jump:
        want = "JMP" if e.jump else "NOP"
        return (f"key {e.key:#x} (enabled {e.enabled}, branch {e.branch}) "
                f"requires a {want}"), kind
    return None, kind


def site_bytes(image, addr):
    """Up to a site's length of bytes at addr, for a report."""
    sec = image.find(addr, 1, SHF_ALLOC)
    if not sec or sec.type == "SHT_NOBITS":
        return b""
    length = min(jl_insn.MAX_SIZE, sec.addr + sec.size - addr)
    return image.read(sec, addr, length)


def describe(image, insns, e, problem):
    insn = insns.get(e.code)
    if insn is not None:
        raw, text = insn.raw, insn.text
    else:
        raw, text = site_bytes(image, e.code), "?"
    return (f"{PROG}: entry {e.index}: site {e.code:#x}: bytes "
            f"{raw.hex(' ') or '-'}: '{text}': {problem}")


# Keys with more sites than this are generated (tests, benchmarks): their
# out-of-line blocks are all far away, so they would drown the share of
# short sites in hand-written code.
GENERATED_KEY_SITES = 16


def short_share(pairs):
    """'S of N (P%)' for (entry, kind) pairs."""
    n = len(pairs)
    short = sum(1 for _, k in pairs if k in ("nop2", "jmp8"))
    return f"{short} of {n} ({100.0 * short / n if n else 0:.1f}%)"


def summary(entries, kinds, entry_size):
    n = len(entries)
    per_key = {}
    for e in entries:
        per_key[e.key] = per_key.get(e.key, 0) + 1
    pairs = list(zip(entries, kinds))
    written = [(e, k) for e, k in pairs
               if per_key[e.key] <= GENERATED_KEY_SITES]
    return (f"jump table: {n} entries, {len(per_key)} keys; "
            f"short (2-byte) sites: {short_share(pairs)} of all, "
            f"{short_share(written)} of keys with <= "
            f"{GENERATED_KEY_SITES} sites; "
            f"{n * entry_size} table bytes ({entry_size} per entry); "
            f"sorted by (key, code); all sites verified")


def describe_order(entries, order):
    """The pair of neighbours jump_label_fixup found out of order."""
    a, b = (entries[i] for i in order)
    return (f"table not sorted by (key, code): entry {a.index} "
            f"(key {a.key:#x}, code {a.code:#x}) comes before "
            f"entry {b.index} (key {b.key:#x}, code {b.code:#x})")


def check(path, objdump, fixup):
    if os.path.isdir(path):
        raise CheckError("is a directory, not a kernel image")
    with open(path, "rb") as f:
        return check_image(Image(f), path, objdump, fixup)


def check_image(image, path, objdump, fixup):
    rows, order, entry_size = list_table(path, fixup)
    if not rows:
        print("jump table: 0 entries; nothing to verify")
        return 0
    entries = read_entries(image, rows)
    wanted = {e.code for e in entries} | {e.target for e in entries}
    insns = disassemble(objdump, path, image.text_sections(), wanted)
    kinds, bad = [], 0
    for e in entries:
        problem, kind = check_entry(image, insns, e)
        kinds.append(kind)
        if problem:
            bad += 1
            print(describe(image, insns, e, problem), file=sys.stderr)
    order = order and describe_order(entries, order)
    if order:
        print(f"{PROG}: {path}: {order}", file=sys.stderr)
    if bad:
        print(f"{PROG}: {path}: {bad} of {len(entries)} entries failed",
              file=sys.stderr)
    if bad or order:
        return 1
    print(summary(entries, kinds, entry_size))
    return 0


def main():
    parser = argparse.ArgumentParser(
        description="Verify the kernel's static branch sites with objdump.")
    parser.add_argument("vmlinux")
    parser.add_argument("--objdump", default="objdump",
                        help="objdump to disassemble with (default: objdump)")
    parser.add_argument("--fixup", help="the jump_label_fixup to read the "
                        "table with (default: DIR/scripts/jump_label_fixup "
                        "beside VMLINUX)")
    args = parser.parse_args()
    try:
        return check(args.vmlinux, args.objdump, args.fixup)
    except (OSError, CheckError, ELFError, jl_insn.JlInsnError,
            struct.error) as e:
        msg = e.strerror if isinstance(e, OSError) and e.strerror else e
        if isinstance(e, ELFError):
            msg = f"not a readable ELF file: {e}"
        print(f"{PROG}: {args.vmlinux}: {msg}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
