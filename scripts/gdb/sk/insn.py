# SPDX-License-Identifier: GPL-2.0
"""The instructions a patched site may hold, decoded from its bytes.

Jump label sites (arch/x86/include/asm/jump_label_insn.h, read through
scripts/jl_insn.py, so the bytes are defined once): nop2, nop5, jmp8,
jmp32, and int3 while a batch rewrites the site. Static call sites
(<asm/static_call.h>): call, jmp (tail sites, trampolines), nop5 (NULL),
ret (a NULL trampoline), mov $imm, %eax (return0).
"""
import jl_insn

CALL, RET, MOV_EAX = 0xe8, 0xc3, 0xb8


def _rel(data, at, size):
    return int.from_bytes(data[at:at + size], 'little', signed=True)


def decode(data, addr):
    """(kind, length, target or None) of the instruction data starts
    with at addr; kind None when it is none of a site's."""
    if data[:2] == jl_insn.NOP2:
        return 'nop2', 2, None
    if data[:5] == jl_insn.NOP5:
        return 'nop5', 5, None
    op = data[0] if data else None
    if op == jl_insn.JMP8 and len(data) >= 2:
        return 'jmp8', 2, addr + 2 + _rel(data, 1, 1)
    if op == jl_insn.JMP32 and len(data) >= 5:
        return 'jmp32', 5, addr + 5 + _rel(data, 1, 4)
    if op == jl_insn.INT3:
        return 'int3', 1, None
    if op == CALL and len(data) >= 5:
        return 'call', 5, addr + 5 + _rel(data, 1, 4)
    if op == MOV_EAX and len(data) >= 5:
        return f'mov ${int.from_bytes(data[1:5], "little"):#x},%eax', 5, None
    if op == RET:
        return 'ret', 1, None
    return None, 0, None


def hexbytes(data):
    return ' '.join(f'{b:02x}' for b in data)


def jump_label_want(size, jump, addr, target):
    """The bytes a jump label site of size bytes must hold: a jmp to
    target if jump, else the NOP of its size."""
    if not jump:
        return jl_insn.NOP2 if size == jl_insn.SHORT_SIZE else jl_insn.NOP5
    rel = target - (addr + size)
    if size == jl_insn.SHORT_SIZE:
        if not -128 <= rel < 128:
            return None
        return bytes([jl_insn.JMP8]) + rel.to_bytes(1, 'little', signed=True)
    return bytes([jl_insn.JMP32]) + rel.to_bytes(4, 'little', signed=True)


def is_short(first_byte):
    """The kernel's own rule for a site's length (text_insn_is_short())."""
    return first_byte in (jl_insn.JMP8, jl_insn.NOP2[0])
