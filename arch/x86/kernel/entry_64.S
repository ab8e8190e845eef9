/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Exception and interrupt entry. Each vector's stub makes the stack look the
 * same (a dummy error code where the CPU pushes none, then the vector), and
 * common_entry saves the general registers into a struct pt_regs, calls
 * do_exception(regs) and returns with iretq to whatever regs->ip and regs->sp
 * say by then (handlers may change them: fixups, int3 emulation).
 *
 * An int3 in the kernel gets room below the interrupted stack: the int3
 * handler emulates a patched CALL by pushing a return address there, at
 * regs->sp - 8, which is where the CPU put its own frame (it pushes onto
 * the same stack, no IST, no privilege change). int3_entry copies that
 * frame five words down first, so the push lands on the old copy.
 */
#include <asm/calling.h>

#define HAS_ERROR_CODE(v) ((v) == 8 || ((v) >= 10 && (v) <= 14) || (v) == 17 || (v) == 21 || (v) == 29 || (v) == 30)

	.text
	.balign 16
	.globl idt_stubs
idt_stubs:
	vector = 0
	.rept 256
	.balign 16
	.if vector == 3
	jmp	int3_entry
	.else
	.if HAS_ERROR_CODE(vector)
	.else
	pushq	$0
	.endif
	pushq	$vector
	jmp	common_entry
	.endif
	vector = vector + 1
	.endr

int3_entry:
	testb	$3, 8(%rsp)			/* cs: from user mode, no copy */
	jnz	1f
	/* ss, sp, flags, cs, ip: each push moves the next one to 32(%rsp). */
	pushq	32(%rsp)
	pushq	32(%rsp)
	pushq	32(%rsp)
	pushq	32(%rsp)
	pushq	32(%rsp)
1:	pushq	$0
	pushq	$3
	jmp	common_entry

common_entry:
	/*
	 * From user mode (cs at 24(%rsp)), or from ring 0 on the user's %gs
	 * (ip between user_gs_start and user_gs_end, entry_syscall_64.S: an
	 * IRET to user mode that faulted, an NMI there): this CPU's %gs.
	 */
	testb	$3, 24(%rsp)
	jnz	1f
	cmpq	$user_gs_start, 16(%rsp)
	jb	2f
	cmpq	$user_gs_end, 16(%rsp)
	jae	2f
1:	swapgs
2:	PUSH_REGS
	cld
	mov	%rsp, %rdi
	/* A frame record so that backtraces walk from the handler into the
	 * interrupted code: the interrupted ip above the saved rbp. */
	pushq	17*8(%rsp)			/* regs->ip */
	pushq	%rbp
	mov	%rsp, %rbp
	call	do_exception
	add	$16, %rsp
	POP_REGS
	add	$16, %rsp			/* vector, error code */
	testb	$3, 8(%rsp)			/* back to user mode: its %gs */
	jnz	user_iret_tail
	cmpq	$user_gs_start, (%rsp)		/* back into the window too */
	jb	3f
	cmpq	$user_gs_end, (%rsp)
	jb	user_iret_tail
3:	iretq

	.section .note.GNU-stack, "", @progbits
