/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_JUMP_LABEL_INSN_H
#define _ASM_X86_JUMP_LABEL_INSN_H

/*
 * The encoding of a static branch site, defined once for everyone who
 * reads or writes one: the kernel (asm/jump_label.h, the text patcher, the
 * tests), the host tools written in C (scripts/jump_label_fixup.c includes
 * this file) and those in Python (scripts/jl_insn.py reads the #defines
 * below). Plain macros only, no types: this file must build on the host.
 *
 * A site is a 2-byte or a 5-byte instruction:
 *
 *   length   NOP                  JMP
 *   2        66 90                eb rel8
 *   5        0f 1f 44 00 00       e9 rel32
 *
 * and while it is being rewritten its first byte is an int3 (cc).
 * Each byte list is an initializer: { JUMP_LABEL_NOP2_BYTES }.
 */
#define JUMP_LABEL_SHORT_SIZE 2
#define JUMP_LABEL_LONG_SIZE 5
#define JUMP_LABEL_MAX_SIZE 5

#define JUMP_LABEL_NOP2_BYTES 0x66, 0x90
#define JUMP_LABEL_NOP5_BYTES 0x0f, 0x1f, 0x44, 0x00, 0x00

#define JMP8_INSN_OPCODE 0xeb
#define JMP32_INSN_OPCODE 0xe9
#define INT3_INSN_OPCODE 0xcc

#endif /* _ASM_X86_JUMP_LABEL_INSN_H */
