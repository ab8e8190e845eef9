/* SPDX-License-Identifier: GPL-2.0 */
/*
 * struct task_struct *__switch_to_asm(prev, next): saves the callee-saved
 * registers on prev's stack and its stack pointer in prev->sp (offset 0),
 * loads next's and returns on next's stack, to where next called it (or
 * to ret_from_kthread for a new task), with prev in %rax.
 */
	.text
	.globl __switch_to_asm
__switch_to_asm:
	pushq	%rbp
	pushq	%rbx
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
	movq	%rsp, (%rdi)
	movq	(%rsi), %rsp
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rbx
	popq	%rbp
	movq	%rdi, %rax
	ret

/*
 * A new task's first instructions (the frame is arch_task_init_frame()'s):
 * finish the switch (unlock the run queue, interrupts and preemption on),
 * then entry(arg) from %r12 and %r13. entry never returns (do_exit()).
 */
	.globl ret_from_kthread
ret_from_kthread:
	movq	%rax, %rdi
	call	schedule_tail
	movq	%r13, %rdi
	call	*%r12
	ud2

	.section .note.GNU-stack, "", @progbits
