/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_CALLING_H
#define _ASM_X86_CALLING_H

/*
 * For the entry code (assembly only): building and taking down the part of a
 * struct pt_regs (<asm/ptrace.h>) below vector and error_code, the general
 * registers, from rdi (highest) down to r15 (at the stack pointer after
 * PUSH_REGS). Both entries, exceptions (entry_64.S) and SYSCALL
 * (entry_syscall_64.S), build the same frame with it.
 */
#ifdef __ASSEMBLY__

/*
 * rdi .. r15. rax= is what goes into pt_regs' rax: the register itself, or
 * SYSCALL's -ENOSYS (its number is in orig_ax already).
 */
.macro PUSH_REGS rax=%rax
	pushq	%rdi
	pushq	%rsi
	pushq	%rdx
	pushq	%rcx
	pushq	\rax
	pushq	%r8
	pushq	%r9
	pushq	%r10
	pushq	%r11
	pushq	%rbx
	pushq	%rbp
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
.endm

/* r15 .. rbx: the registers C code keeps. */
.macro POP_CALLEE_SAVED
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rbp
	popq	%rbx
.endm

/* r11 .. rdi: the registers C code may clobber. */
.macro POP_CALLER_SAVED
	popq	%r11
	popq	%r10
	popq	%r9
	popq	%r8
	popq	%rax
	popq	%rcx
	popq	%rdx
	popq	%rsi
	popq	%rdi
.endm

/* What PUSH_REGS pushed, back in the registers. */
.macro POP_REGS
	POP_CALLEE_SAVED
	POP_CALLER_SAVED
.endm

#endif /* __ASSEMBLY__ */
#endif /* _ASM_X86_CALLING_H */
