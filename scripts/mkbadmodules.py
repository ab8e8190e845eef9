#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Makes the corpus of broken modules from one good module.

    scripts/mkbadmodules.py GOOD.ko OUTDIR
    scripts/mkbadmodules.py --list

writes OUTDIR/bad_<what>.ko, one file per way a module can be broken, each
the good module renamed (name= in .modinfo, which the loader checks
against the blob's name: so <what> is short) with one thing wrong (a field of the ELF header, a section
header, a symbol, a relocation, a jump entry or a site's bytes). The
booted kernel's module_corpus suite (kernel/module/corpus_test.c) loads
every bad_* blob and expects the loader to refuse it with the message its
table names, leaving nothing behind. The good module must be a GPL module
with a __jump_table, a relocation against an undefined GPL-only symbol in
its init text, and sites in .text (tests/modules/jump_label/jlm_core_user.c).

The ELF is read with pyelftools and patched as bytes; the patched files
are not re-read (several would not parse).
"""

import os
import struct
import sys

from elftools.elf.elffile import ELFFile
from elftools.elf.relocation import RelocationSection

R_X86_64_32 = 10
R_X86_64_GOTPCREL = 9
SHT_PROGBITS = 1
SHT_REL = 9


class Module:
    """The good module: its bytes and where things are in them."""

    def __init__(self, path):
        with open(path, "rb") as f:
            self.data = f.read()
        with open(path, "rb") as f:
            elf = ELFFile(f)
            self.shoff = elf["e_shoff"]
            self.shentsize = elf["e_shentsize"]
            self.shnum = elf["e_shnum"]
            self.sections = {}
            for i, sec in enumerate(elf.iter_sections()):
                self.sections[sec.name] = (i, sec.header)
            symtab = elf.get_section_by_name(".symtab")
            self.nsyms = symtab.num_symbols()
            self.syms = {s.name: (i, s.entry) for i, s in
                         enumerate(symtab.iter_symbols())}
            self.section_syms = {}
            for i, s in enumerate(symtab.iter_symbols()):
                if s["st_info"]["type"] == "STT_SECTION":
                    self.section_syms[s["st_shndx"]] = i
            self.relas = {}
            for sec in elf.iter_sections():
                if isinstance(sec, RelocationSection):
                    self.relas[sec.name] = [r.entry for r in
                                            sec.iter_relocations()]

    def shdr_off(self, name):
        return self.shoff + self.sections[name][0] * self.shentsize

    def renamed(self, name):
        """The bytes with .modinfo's name= set to name (no longer than it)."""
        info = self.sec(".modinfo")
        start = info["sh_offset"]
        blob = self.data[start:start + info["sh_size"]]
        old = blob.index(b"name=")
        end = blob.index(b"\0", old)
        new = b"name=" + name.encode()
        if len(new) > end - old:
            raise SystemExit("mkbadmodules: %s is longer than the good "
                             "module's name" % name)
        data = bytearray(self.data)
        data[start + old:start + end] = new.ljust(end - old, b"\0")
        return data

    def section_sym(self, name):
        return self.section_syms[self.sections[name][0]]

    def sec(self, name):
        return self.sections[name][1]

    def rela_off(self, relsec, i):
        return self.sec(relsec)["sh_offset"] + 24 * i

    def sym_off(self, name):
        return self.sec(".symtab")["sh_offset"] + 24 * self.syms[name][0]

    def jump_rela(self, field, entry=0):
        """Index in .rela__jump_table of entry's field (0 code, 1 target, 2 key).

        Every field of an entry is relocated, once, and the fields come in
        that order: the relocations sorted by offset are the fields in
        order, so the entry's layout (jump_label_fixup's to know) is not
        needed here."""
        relas = self.relas[".rela__jump_table"]
        order = sorted(range(len(relas)), key=lambda i: relas[i]["r_offset"])
        if 3 * entry + field >= len(order):
            raise SystemExit("mkbadmodules: no relocation for jump entry field")
        return order[3 * entry + field]


def put(data, off, fmt, *values):
    data[off:off + struct.calcsize(fmt)] = struct.pack("<" + fmt, *values)


def variants(m):
    """Yields (name, patch(bytearray) -> bytearray)."""

    def at(off, fmt, *values):
        def patch(d):
            put(d, off, fmt, *values)
            return d
        return patch

    text = m.sec(".text")
    strtab = m.sec(".strtab")
    shdr_text = m.shdr_off(".text")
    rjt = ".rela__jump_table"
    rinit = ".rela.init.text"
    code0 = m.relas[rjt][m.jump_rela(0)]
    site0 = text["sh_offset"] + code0["r_addend"]

    yield "truncated", lambda d: d[:len(d) * 3 // 5]
    yield "magic", at(1, "3s", b"ELG")
    yield "class32", at(4, "B", 1)
    yield "endian", at(5, "B", 2)
    yield "identver", at(6, "B", 0)
    yield "exec", at(16, "H", 2)
    yield "machine", at(18, "H", 3)
    yield "version", at(20, "I", 0)
    yield "shentsize", at(58, "H", 32)
    yield "shoff", at(40, "Q", len(m.data) + 64)
    yield "shstrndx", at(62, "H", m.shnum + 5)
    yield "secpast", at(shdr_text + 24, "Q", len(m.data) - 16)
    yield "secsize", at(shdr_text + 32, "Q", 2**64 - 8)
    yield "align", at(shdr_text + 48, "Q", 24)
    yield "strtab", at(strtab["sh_offset"] + strtab["sh_size"] - 1,
                                    "B", ord("x"))
    yield "nosymtab", at(m.shdr_off(".symtab") + 4, "I", SHT_PROGBITS)
    yield "symname", at(m.sym_off("jlm_register"), "I",
                         strtab["sh_size"] + 100)
    yield "symshndx", at(m.sym_off("init_module") + 6, "H", m.shnum + 3)
    yield "symcommon", at(m.sym_off("init_module") + 6, "H", 0xfff2)
    yield "relsec", at(m.shdr_off(rinit) + 4, "I", SHT_REL)
    yield "rtarget", at(m.shdr_off(rinit) + 44, "I", m.shnum + 1)
    yield "rlink", at(m.shdr_off(rinit) + 40, "I",
                          m.sections[".strtab"][0])
    r0 = m.relas[rinit][1]
    yield "rsymbol", at(m.rela_off(rinit, 1) + 8, "Q",
                            ((m.nsyms + 10) << 32) | (r0["r_info"] & 0xffffffff))
    yield "roffset", at(m.rela_off(rinit, 1), "Q",
                            m.sec(".init.text")["sh_size"] - 2)
    yield "rtype", at(m.rela_off(rinit, 1) + 8, "I", R_X86_64_GOTPCREL)
    yield "roverflow", at(m.rela_off(rinit, 1) + 8, "I", R_X86_64_32)

    name = m.syms["jlm_register"][1]["st_name"]
    yield "undefined", at(strtab["sh_offset"] + name, "12s", b"jlm_registeX")

    modinfo = m.sec(".modinfo")
    blob = m.data[modinfo["sh_offset"]:modinfo["sh_offset"] + modinfo["sh_size"]]
    lic = blob.index(b"license=GPL")
    yield "gplonly", at(modinfo["sh_offset"] + lic, "11s", b"license=BSD")

    yield "jsite", at(m.rela_off(rjt, m.jump_rela(0)) + 16, "q",
                                  text["sh_size"] + 0x1000)
    # The key field: PC32 against .text's section symbol, addend 0.
    key = m.rela_off(rjt, m.jump_rela(2))
    yield "jkey", lambda d: at(key + 16, "q", 0)(
        at(key + 8, "Q", (m.section_sym(".text") << 32) | 2)(d))
    yield "jbytes", at(site0, "2s", b"\x0f\x0b")

    # Entry 1's key (jlm_core_true) moved 8 bytes in: kernel data, no key.
    k1 = m.relas[rjt][m.jump_rela(2, 1)]
    yield "jkeyoff", at(m.rela_off(rjt, m.jump_rela(2, 1)) + 16, "q",
                        k1["r_addend"] + 8)
    # Entry 0's key aimed at the module's own cu_probe: its data, no key.
    k0 = m.relas[rjt][m.jump_rela(2)]
    probe = m.syms["cu_probe"]
    yield "jkeydata", lambda d: at(key + 16, "q", probe[1]["st_value"] +
                                   (k0["r_addend"] & 1))(
        at(key + 8, "Q", (probe[0] << 32) | 2)(d))

    # Entry 1 (jlm_core_true) given entry 0's site and target (jlm_core_ro).
    def dup(d):
        for field in (0, 1):
            src = m.relas[rjt][m.jump_rela(field)]
            off = m.rela_off(rjt, m.jump_rela(field, 1))
            put(d, off + 8, "Qq", src["r_info"], src["r_addend"])
        return d
    yield "jdup", dup


# What variants() makes, for make (--list) before any module exists.
NAMES = """truncated magic class32 endian identver exec machine version
    shentsize shoff shstrndx secpast secsize align strtab nosymtab
    symname symshndx symcommon relsec rtarget rlink rsymbol roffset
    rtype roverflow undefined gplonly jsite jkey jbytes jkeyoff jkeydata
    jdup""".split()


def main(argv):
    if argv[1:] == ["--list"]:
        print(" ".join(NAMES))
        return 0
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    m = Module(argv[1])
    made = [name for name, _ in variants(m)]
    if made != NAMES:
        raise SystemExit("mkbadmodules: NAMES and variants() disagree")
    os.makedirs(argv[2], exist_ok=True)
    n = 0
    for name, patch in variants(m):
        data = m.renamed("bad_" + name)
        data = patch(data)
        with open(os.path.join(argv[2], "bad_%s.ko" % name), "wb") as f:
            f.write(data)
        n += 1
    print("  mkbadmodules: %d broken modules from %s" % (n, argv[1]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
