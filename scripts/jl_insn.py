# SPDX-License-Identifier: GPL-2.0
"""The encoding of a static branch site, for the Python host tools.

arch/x86/include/asm/jump_label_insn.h is the single definition, shared
with the kernel and scripts/jump_label_fixup.c. This module reads its
`#define NAME value, value, ...` lines when imported, so nothing is repeated
here; a missing or malformed definition raises JlInsnError naming it.

    NOP2, NOP5          the NOPs, as bytes
    JMP8, JMP32, INT3   opcodes, as ints
    SHORT_SIZE, LONG_SIZE, MAX_SIZE
                        site lengths in bytes
"""
import os
import re

HEADER = os.path.normpath(os.path.join(
    os.path.dirname(os.path.abspath(__file__)), os.pardir,
    "arch", "x86", "include", "asm", "jump_label_insn.h"))

# "#define NAME 0x0f, 0x1f" -> NAME, "0x0f, 0x1f"; a define without a value
# (the include guard) does not match.
DEFINE_RE = re.compile(r"^\s*#\s*define\s+(\w+)\s+(\S.*?)\s*$")
COMMENT_RE = re.compile(r"/\*.*?\*/|//.*$")


class JlInsnError(Exception):
    pass


def read_defines(path=HEADER):
    """NAME -> list of ints, for each #define whose value is a
    comma-separated list of integer literals; other lines are skipped."""
    defines = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = DEFINE_RE.match(COMMENT_RE.sub("", line))
            if not m:
                continue
            try:
                defines[m.group(1)] = [int(v, 0)
                                       for v in m.group(2).split(",")]
            except ValueError:
                continue
    return defines


def _get(defines, name, count=None):
    values = defines.get(name)
    if values is None:
        raise JlInsnError(f"{HEADER}: no '#define {name} <integers>'")
    if count is not None and len(values) != count:
        raise JlInsnError(f"{HEADER}: {name} has {len(values)} values, "
                          f"expected {count}")
    if any(not 0 <= v <= 0xff for v in values):
        raise JlInsnError(f"{HEADER}: {name} has a value outside 0..0xff")
    return values


def _load():
    try:
        d = read_defines()
    except OSError as e:
        raise JlInsnError(f"{HEADER}: {e.strerror}") from e
    short, long_, max_ = (_get(d, n, 1)[0] for n in (
        "JUMP_LABEL_SHORT_SIZE", "JUMP_LABEL_LONG_SIZE",
        "JUMP_LABEL_MAX_SIZE"))
    nop2 = bytes(_get(d, "JUMP_LABEL_NOP2_BYTES", short))
    nop5 = bytes(_get(d, "JUMP_LABEL_NOP5_BYTES", long_))
    opcodes = [_get(d, n, 1)[0] for n in (
        "JMP8_INSN_OPCODE", "JMP32_INSN_OPCODE", "INT3_INSN_OPCODE")]
    return (short, long_, max_, nop2, nop5, *opcodes)


(SHORT_SIZE, LONG_SIZE, MAX_SIZE, NOP2, NOP5,
 JMP8, JMP32, INT3) = _load()
