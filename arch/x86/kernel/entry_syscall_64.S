/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The SYSCALL entry and the ways back to user mode (Documentation/userspace.rst).
 *
 * SYSCALL leaves the user's rip in %rcx, its rflags in %r11, masks
 * IF/TF/DF/AC/NT (MSR_SYSCALL_MASK: DF is clear, no cld) and changes
 * nothing else: no stack switch.
 * 1. swapgs: %gs now addresses this CPU's area;
 * 2. the user's %rsp goes to cpu_user_sp, the task's kernel stack top
 *    (cpu_kernel_sp, set at every switch) becomes %rsp;
 * 3. a struct pt_regs is built as the exception entry builds it, the
 *    syscall number in error_code (Linux's orig_ax) and -ENOSYS in rax;
 *    then TEXT_SYNC_ENTER marks the CPU in the kernel (<asm/text-sync.h>),
 *    before the first patchable site; each way out marks it CT_USER;
 * 4. the fast path, while both raw_syscalls tracepoints are dormant (each
 *    one's static branch a NOP): the table's function is called here with
 *    interrupts on, its value stored in pt_regs' rax; with interrupts off,
 *    no exit work (cpu_exit_work: the running thread's exit_work) and no
 *    reschedule: SYSRET, with pt_regs' rcx and r11 (the user's rip and
 *    rflags, which nothing on this path changes; whatever rewrites the
 *    registers sets exit_work);
 * 5. otherwise C: do_syscall_64(regs) (a tracepoint on at entry, a number
 *    past the table), syscall_exit_traced(regs) (sys_exit on),
 *    syscall_exit_work(regs); each returns true if SYSRET may return,
 *    false for IRET (execve rewrote the registers), with interrupts off.
 * rbp keeps the user's value in the kernel: a backtrace stops at it (a
 * frame below the kernel stack, see dumpstack.c). C keeps rbx, rbp and
 * r12-r15, so SYSRET restores the caller-saved registers only.
 */
#include <asm/calling.h>
#include <asm/text-sync.h>

#define USER_DS 0x33
#define USER_CS 0x3b
#define SYSCALL_VECTOR 0x100
#define NR_syscalls 436			/* <linux/syscalls.h>, checked there */
#define PT_RAX (10 * 8)			/* pt_regs' rax, checked in syscall_64.c */
#define TP_KEY 8			/* struct tracepoint's key, checked there */

/*
 * static_branch_unlikely(&__tracepoint_<tp>.key) in assembly: a NOP while
 * the tracepoint is dormant (CONFIG_JUMP_LABEL=y: a site of the key, the
 * table entry as <asm/jump_label.h> writes it, branch bit 0), else a jump
 * to target; =n: the key's count read and tested.
 */
.macro TRACEPOINT_BRANCH tp, target
#ifdef CONFIG_JUMP_LABEL
1:	jmp	\target
	.pushsection __jump_table, "aw"
	.balign 4
	.long	1b - .
	.long	\target - .
	.long	\tp + TP_KEY - .
	.popsection
#else
	cmpl	$0, \tp + TP_KEY(%rip)
	jg	\target
#endif
.endm

	.text
	.globl entry_SYSCALL_64
	.balign 16
entry_SYSCALL_64:
	swapgs
	movq	%rsp, %gs:cpu_user_sp
	movq	%gs:cpu_kernel_sp, %rsp
	pushq	$USER_DS			/* ss */
	pushq	%gs:cpu_user_sp			/* sp */
	pushq	%r11				/* flags */
	pushq	$USER_CS			/* cs */
	pushq	%rcx				/* ip */
	pushq	%rax				/* error_code: orig_ax */
	pushq	$SYSCALL_VECTOR			/* vector */
	PUSH_REGS rax=$-38			/* rax: -ENOSYS */
	TEXT_SYNC_PLANT
	TEXT_SYNC_ENTER %ecx from_user=1	/* before the first site, below */
	TRACEPOINT_BRANCH __tracepoint_sys_enter, .Lsyscall_slow
	movl	%eax, %eax			/* an int, as Linux's number */
	cmpq	$NR_syscalls, %rax
	jae	.Lsyscall_slow
	sti
	movq	%r10, %rcx			/* the fourth argument */
	call	*sys_call_table(, %rax, 8)
	movq	%rax, PT_RAX(%rsp)
	TRACEPOINT_BRANCH __tracepoint_sys_exit, .Lsyscall_exit_traced
	cli
	movq	%gs:cpu_exit_work, %rcx
	movl	(%rcx), %ecx
	orl	%gs:sched_need_resched, %ecx
	jnz	.Lsyscall_exit_work
	addq	$6*8, %rsp			/* r15..rbx: kept by the C code */
	POP_CALLER_SAVED			/* rcx: the ip, r11: the flags */
	movq	40(%rsp), %rsp			/* the user's stack */
	TEXT_SYNC_LEAVE CT_USER
	swapgs
	sysretq

.Lsyscall_slow:
	movq	%rsp, %rdi
	call	do_syscall_64
	jmp	.Lsyscall_return
.Lsyscall_exit_traced:
	movq	%rsp, %rdi
	call	syscall_exit_traced
	jmp	.Lsyscall_return
.Lsyscall_exit_work:
	movq	%rsp, %rdi
	call	syscall_exit_work
/* From C with interrupts off: %al true for SYSRET with pt_regs' ip, flags. */
.Lsyscall_return:
	cli
	testb	%al, %al
	jz	ret_to_user_iret
	addq	$6*8, %rsp			/* r15..rbx: kept by the C code */
	POP_CALLER_SAVED
	movq	16(%rsp), %rcx			/* ip */
	movq	32(%rsp), %r11			/* flags */
	movq	40(%rsp), %rsp			/* the user's stack */
	TEXT_SYNC_LEAVE CT_USER
	swapgs
	sysretq

/*
 * ret_to_user(regs): a task's first return to user mode (exec, fork):
 * regs is at the top of its kernel stack; interrupts may be on.
 */
	.globl ret_to_user
ret_to_user:
	cli
	movq	%rdi, %rsp
ret_to_user_iret:
	POP_REGS
	addq	$16, %rsp			/* vector, error_code */
/*
 * Every IRET to user mode ends here (entry_64.S's too). Between
 * user_gs_start and user_gs_end the CPU is in ring 0 on the user's GS:
 * at user_iretq (the IRET itself faults on a selector of the frame that
 * rt_sigreturn took, see bad_iret() in traps.c; or an NMI comes just
 * before it) and in entry_SYSCALL_compat. The exception entry swaps GS
 * for an ip in that window, and swaps back to return to it.
 */
	.globl user_iret_tail, user_iretq, user_gs_start, user_gs_end
user_iret_tail:
	TEXT_SYNC_LEAVE CT_USER
	swapgs
user_gs_start:
user_iretq:
	iretq

/*
 * SYSCALL from 32-bit code (MSR_CSTAR): there is no 32-bit system-call
 * ABI here, so the call is -ENOSYS, straight back to the caller's mode
 * (SYSRETL: cs 0x2b, eip = ecx, eflags = r11). Two instructions in ring 0
 * on the user's stack and GS, which touch neither; SYSCALL masked IF.
 */
	.globl entry_SYSCALL_compat
entry_SYSCALL_compat:
	movl	$-38, %eax			/* -ENOSYS */
	sysretl
user_gs_end:

/*
 * bad_iret_landing: where bad_iret() sends an IRET to user mode that
 * faulted: on the kernel's GS, interrupts off, %rsp at the task's user
 * pt_regs, which bad_iret_fault() fills with the frame that could not be
 * returned to, then signals; then back to user mode, to a handler.
 */
	.globl bad_iret_landing
bad_iret_landing:
	movq	%rsp, %rdi
	call	bad_iret_fault
	movq	%rsp, %rdi
	jmp	ret_to_user

/*
 * The user-copy primitives: rep movsb / a byte loop whose faults the
 * exception table turns into a return of the bytes not done (%rcx).
 * __copy_user(dst, src, n): bytes not copied.
 */
	.globl __copy_user
__copy_user:
	movq	%rdx, %rcx
1:	rep movsb
2:	movq	%rcx, %rax
	ret
	.pushsection __ex_table, "a"
	.balign 4
	.long 1b - .
	.long 2b - .
	.long 0
	.popsection

/*
 * __strncpy_user(dst, src, n): copies up to n bytes, stopping after a NUL:
 * the length without the NUL, n if none was found, -14 (-EFAULT) on a fault.
 */
	.globl __strncpy_user
__strncpy_user:
	xorl	%eax, %eax
3:	cmpq	%rdx, %rax
	je	5f
4:	movb	(%rsi,%rax), %cl
	movb	%cl, (%rdi,%rax)
	testb	%cl, %cl
	jz	5f
	incq	%rax
	jmp	3b
5:	ret
6:	movq	$-14, %rax
	ret
	.pushsection __ex_table, "a"
	.balign 4
	.long 4b - .
	.long 6b - .
	.long 0
	.popsection

/*
 * __probe_user_write(p): 0 if the user byte at p can be read and written
 * back (it is, unchanged), -14 (-EFAULT) if either faults.
 */
	.globl __probe_user_write
__probe_user_write:
7:	movb	(%rdi), %al
8:	movb	%al, (%rdi)
	xorl	%eax, %eax
	ret
9:	movq	$-14, %rax
	ret
	.pushsection __ex_table, "a"
	.balign 4
	.long 7b - .
	.long 9b - .
	.long 0
	.long 8b - .
	.long 9b - .
	.long 0
	.popsection

	.section .note.GNU-stack, "", @progbits
