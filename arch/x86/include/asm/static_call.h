/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_STATIC_CALL_H
#define _ASM_X86_STATIC_CALL_H

/*
 * x86's static calls (HAVE_STATIC_CALL_INLINE): the instructions of a
 * site and of a trampoline, and the trampolines themselves.
 *
 *   target       call site           tail site / trampoline
 *   a function   call <func>  (e8)   jmp <func>              (e9)
 *   NULL         5-byte NOP          ret; int3 x4            (c3 cc..)
 *   return0      mov $0, %eax (b8)   jmp __static_call_return0
 *
 * Every one is a single 5-byte instruction (or a 1-byte one whose
 * padding never runs), so that the int3 handler emulates it whole.
 * "mov $0, %eax" clears all of %rax, as a "return 0" of any integer or
 * pointer type does, and leaves the flags alone, which a call may clobber.
 */
#define STATIC_CALL_INSN_SIZE 5
#define CALL_INSN_OPCODE 0xe8
#define RET_INSN_OPCODE 0xc3
#define MOV_EAX_IMM_OPCODE 0xb8
#define JMP32_OPCODE 0xe9

/* Trampolines: 8-byte aligned (bit 0 of a site's tramp offset is free). */
#define __ARCH_DEFINE_STATIC_CALL_TRAMP(name, insn)                            \
	asm(".pushsection .static_call.text, \"ax\"\n\t"                       \
	    ".balign 8\n\t"                                                    \
	    ".globl " STATIC_CALL_TRAMP_STR(name) "\n\t"                       \
	    ".type " STATIC_CALL_TRAMP_STR(name) ", @function\n"               \
	    STATIC_CALL_TRAMP_STR(name) ":\n\t"                                \
	    insn "\n\t"                                                        \
	    ".byte 0xcc, 0xcc, 0xcc\n\t"                                       \
	    ".size " STATIC_CALL_TRAMP_STR(name) ", . - "                      \
	    STATIC_CALL_TRAMP_STR(name) "\n\t"                                 \
	    ".popsection\n\t"                                                  \
	    ".pushsection .static_call_tramp_key, \"a\"\n\t"                   \
	    ".balign 4\n\t"                                                    \
	    ".long " STATIC_CALL_TRAMP_STR(name) " - .\n\t"                    \
	    ".long " STATIC_CALL_KEY_STR(name) " - .\n\t"                      \
	    ".popsection\n")

#define ARCH_DEFINE_STATIC_CALL_TRAMP(name, func)                              \
	__ARCH_DEFINE_STATIC_CALL_TRAMP(name, ".byte 0xe9; .long " #func       \
					" - (. + 4)")
#define ARCH_DEFINE_STATIC_CALL_NULL_TRAMP(name)                               \
	__ARCH_DEFINE_STATIC_CALL_TRAMP(name, ".byte 0xc3, 0xcc, 0xcc, 0xcc, 0xcc")
#define ARCH_DEFINE_STATIC_CALL_RET0_TRAMP(name)                               \
	ARCH_DEFINE_STATIC_CALL_TRAMP(name, __static_call_return0)

#endif /* _ASM_X86_STATIC_CALL_H */
