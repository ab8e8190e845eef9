#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""check_jump_table.py VMLINUX [--objdump OBJDUMP]

Checks every static branch site of a linked kernel against objdump's view
of the code, independently of scripts/jump_label_fixup.c. The __jump_table
entries (three little-endian s32 offsets, each relative to its own field:
site, target, key with bit 0 = branch) and each key's initial count are
read straight from the ELF file; the executable sections are disassembled
once with `objdump -d -w`. For each entry an instruction must start at the
site, it must be nop2 (66 90), nop5 (0f 1f 44 00 00), jmp8 (eb) or jmp32
(e9) as objdump decodes it, a jmp must go to the entry's target, and the
site must be a JMP exactly when (enabled > 0) XOR branch.

Prints one summary line and exits 0 when every site is right; prints each
problem to stderr and exits 1 otherwise (also for an unreadable image or a
failing objdump).
"""
import argparse
import collections
import os
import re
import struct
import subprocess
import sys

PROG = "check_jump_table"
TABLE = "__jump_table"
ENTRY_SIZE = 12

SHT_PROGBITS = 1
SHT_SYMTAB = 2
SHT_STRTAB = 3
SHT_NOBITS = 8
SHF_ALLOC = 0x2
SHF_EXECINSTR = 0x4
SHF_TLS = 0x400
ET_EXEC = 2
EM_X86_64 = 62

EHDR = struct.Struct("<16sHHIQQQIHHHHHH")
SHDR = struct.Struct("<IIQQQQIIQQ")
SYM = struct.Struct("<IBBHQQ")
ENTRY = struct.Struct("<iii")

NOP2 = bytes.fromhex("6690")
NOP5 = bytes.fromhex("0f1f440000")
NOP_MNEMONICS = ("nop", "nopw", "nopl", "xchg", "data16")
JMP_MNEMONICS = ("jmp", "jmpq")

# "ffffffff80101234:\t66 90                \txchg   %ax,%ax"; without the
# last field for the rest of a long instruction's bytes (not with -w).
INSN_RE = re.compile(r"^\s*([0-9a-f]+):\t([0-9a-f]{2}(?: [0-9a-f]{2})*)"
                     r"\s*(?:\t(.*))?$")

Section = collections.namedtuple(
    "Section", "name type flags addr offset size link")
Entry = collections.namedtuple(
    "Entry", "index code target key branch enabled jump")
Insn = collections.namedtuple("Insn", "raw text")


class ElfError(Exception):
    pass


def s32(value):
    return value - (1 << 32) if value & 0x80000000 else value


class Image:
    """The parts of an ELF64 x86-64 executable the check needs."""

    def __init__(self, path):
        with open(path, "rb") as f:
            self.data = f.read()
        self.sections = self._read_sections()

    def _read_sections(self):
        data = self.data
        if len(data) < EHDR.size or data[:4] != b"\x7fELF":
            raise ElfError("not an ELF file")
        eh = EHDR.unpack_from(data)
        ident, etype, machine = eh[0], eh[1], eh[2]
        shoff, shentsize, shnum, shstrndx = eh[6], eh[11], eh[12], eh[13]
        if ident[4] != 2 or ident[5] != 1:
            raise ElfError("not ELF64 little-endian")
        if machine != EM_X86_64 or etype != ET_EXEC:
            raise ElfError("not an x86-64 executable (ET_EXEC)")
        if not shoff or shentsize != SHDR.size:
            raise ElfError("no usable section headers")
        raw = [SHDR.unpack_from(data, shoff)] if shoff < len(data) else []
        if raw and not shnum:
            shnum = raw[0][5]
        if raw and shstrndx == 0xffff:
            shstrndx = raw[0][6]
        if not raw or shoff + shnum * SHDR.size > len(data):
            raise ElfError("section header table lies outside the file")
        raw = [SHDR.unpack_from(data, shoff + i * SHDR.size)
               for i in range(shnum)]
        for i, h in enumerate(raw):
            if h[1] != SHT_NOBITS and h[4] + h[5] > len(data):
                raise ElfError(f"section {i} lies outside the file")
        if not 0 < shstrndx < shnum or raw[shstrndx][1] != SHT_STRTAB:
            raise ElfError("no section header string table")
        names = raw[shstrndx]
        return [Section(self._string(names[4], names[5], h[0]), h[1], h[2],
                        h[3], h[4], h[5], h[6]) for h in raw]

    def _string(self, offset, size, index):
        if index >= size:
            return ""
        end = self.data.find(b"\0", offset + index, offset + size)
        if end < 0:
            return ""
        return self.data[offset + index:end].decode("latin-1")

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
        start = sec.offset + addr - sec.addr
        return self.data[start:start + length]

    def symbol(self, name):
        symtab = self.by_name(".symtab")
        if not symtab or symtab.type != SHT_SYMTAB:
            return None
        strtab = self.sections[symtab.link]
        for i in range(symtab.size // SYM.size):
            sym = SYM.unpack_from(self.data, symtab.offset + i * SYM.size)
            if self._string(strtab.offset, strtab.size, sym[0]) == name:
                return sym[4]
        return None

    def text_sections(self):
        return [s for s in self.sections[1:]
                if s.flags & (SHF_ALLOC | SHF_EXECINSTR) ==
                SHF_ALLOC | SHF_EXECINSTR and s.type != SHT_NOBITS]


def find_table(image):
    """(address, bytes, where) of the table; bytes is empty if none."""
    sec = image.by_name(TABLE)
    if sec:
        if sec.size and (sec.type != SHT_PROGBITS or
                         not sec.flags & SHF_ALLOC):
            raise ElfError(f"{TABLE} is not a loaded (PROGBITS) section")
        data = image.data[sec.offset:sec.offset + sec.size]
        where = f"empty {TABLE} section"
        addr = sec.addr
    else:
        start = image.symbol("__start___jump_table")
        stop = image.symbol("__stop___jump_table")
        if start is None or stop is None or start == stop:
            return 0, b"", f"no {TABLE} section"
        holder = image.find(start, stop - start, SHF_ALLOC)
        if stop < start or not holder or holder.type != SHT_PROGBITS:
            raise ElfError(f"__start/__stop{TABLE} do not span loaded data")
        data = image.read(holder, start, stop - start)
        where = f"__start{TABLE}..__stop{TABLE} in {holder.name}"
        addr = start
    if len(data) % ENTRY_SIZE or addr % 4:
        raise ElfError(f"{TABLE}: {len(data)} bytes at {addr:#x} is not a "
                       f"4-aligned array of {ENTRY_SIZE}-byte entries")
    return addr, data, where


def read_entries(image, addr, data):
    """The entries, each with its key's initial count and the rule."""
    entries = []
    mask = (1 << 64) - 1
    for i, (code, target, key) in enumerate(ENTRY.iter_unpack(data)):
        at = addr + i * ENTRY_SIZE
        key_addr = (at + 8 + (key & ~3)) & mask
        enabled = key_enabled(image, key_addr)
        branch = key & 1
        jump = None if enabled is None else (enabled > 0) != bool(branch)
        entries.append(Entry(i, (at + code) & mask, (at + 4 + target) & mask,
                             key_addr, branch, enabled, jump))
    return entries


def key_enabled(image, addr):
    sec = image.find(addr, 4, SHF_ALLOC, SHF_EXECINSTR | SHF_TLS)
    if not sec:
        return None
    if sec.type == SHT_NOBITS:
        return 0
    return s32(struct.unpack("<I", image.read(sec, addr, 4))[0])


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
        raise ElfError(f"cannot run {objdump}: {e.strerror}") from e
    if out.returncode:
        why = out.stderr.strip() or f"exit status {out.returncode}"
        raise ElfError(f"{objdump} failed: {why}")
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
    if insn.raw == NOP2 and mnemonic in NOP_MNEMONICS:
        if mnemonic != "xchg" or words[1:2] == ["%ax,%ax"]:
            return "nop2"
    if insn.raw == NOP5 and mnemonic in NOP_MNEMONICS:
        return "nop5"
    if mnemonic in JMP_MNEMONICS:
        if len(insn.raw) == 2 and insn.raw[0] == 0xeb:
            return "jmp8"
        if len(insn.raw) == 5 and insn.raw[0] == 0xe9:
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


def describe(image, insns, e, problem):
    insn = insns.get(e.code)
    if insn is not None:
        raw, text = insn.raw, insn.text
    else:
        sec = image.find(e.code, 1, SHF_ALLOC)
        raw = image.read(sec, e.code, 5) if sec else b""
        text = "?"
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


def summary(entries, kinds):
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
            f"{n * ENTRY_SIZE} table bytes ({ENTRY_SIZE} per entry); "
            f"all sites verified")


def check(path, objdump):
    image = Image(path)
    addr, data, where = find_table(image)
    if not data:
        print(f"jump table: 0 entries ({where}); nothing to verify")
        return 0
    entries = read_entries(image, addr, data)
    wanted = {e.code for e in entries} | {e.target for e in entries}
    insns = disassemble(objdump, path, image.text_sections(), wanted)
    kinds, bad = [], 0
    for e in entries:
        problem, kind = check_entry(image, insns, e)
        kinds.append(kind)
        if problem:
            bad += 1
            print(describe(image, insns, e, problem), file=sys.stderr)
    if bad:
        print(f"{PROG}: {path}: {bad} of {len(entries)} entries failed",
              file=sys.stderr)
        return 1
    print(summary(entries, kinds))
    return 0


def main():
    parser = argparse.ArgumentParser(
        description="Verify the kernel's static branch sites with objdump.")
    parser.add_argument("vmlinux")
    parser.add_argument("--objdump", default="objdump",
                        help="objdump to disassemble with (default: objdump)")
    args = parser.parse_args()
    try:
        return check(args.vmlinux, args.objdump)
    except (OSError, ElfError, struct.error) as e:
        msg = e.strerror if isinstance(e, OSError) and e.strerror else e
        print(f"{PROG}: {args.vmlinux}: {msg}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
