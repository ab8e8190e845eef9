/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_PTRACE_H
#define _ASM_X86_PTRACE_H

/* The frame the exception entry code builds; see entry_64.S. */
struct pt_regs {
	unsigned long r15, r14, r13, r12, rbp, rbx, r11, r10;
	unsigned long r9, r8, rax, rcx, rdx, rsi, rdi;
	unsigned long vector;
	unsigned long error_code;
	/* pushed by the CPU */
	unsigned long ip, cs, flags, sp, ss;
};

#endif /* _ASM_X86_PTRACE_H */
