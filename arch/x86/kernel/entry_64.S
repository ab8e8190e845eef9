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
 * frame five words down first, so the push lands on the old copy, and
 * calls do_int3(regs) itself: the int3 of a site in flight is the one
 * exception on the patch engine's path, so it skips do_exception()'s
 * dispatch.
 *
 * Every entry marks this CPU in the kernel with TEXT_SYNC_ENTER
 * (<asm/text-sync.h>) before it can reach a patchable site, and serializes
 * if text changed while it was idle or in user mode; the way back to user
 * mode marks it CT_USER just before the swapgs. NMIs have an entry of
 * their own (nmi_entry, below).
 */
#include <asm/calling.h>
#include <asm/text-sync.h>

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
	.elseif vector == 2
	jmp	nmi_entry
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

/*
 * The kernel half of an exception entry, from the %gs check to the
 * handler's frame record, with the handler's pt_regs in %rdi. \from_user=0:
 * the entry comes from ring 0 only (the int3 of a kernel site), so only
 * the user-%gs window is looked at (entry_syscall_64.S, linked just
 * after this file).
 */
.macro ENTRY_SAVE from_user=1
	.if \from_user
	testb	$3, 24(%rsp)			/* cs */
	jnz	1f
	.endif
	cmpq	$user_gs_start, 16(%rsp)	/* ip */
	jb	2f
	cmpq	$user_gs_end, 16(%rsp)
	jae	2f
1:	swapgs
2:	PUSH_REGS
	cld
	TEXT_SYNC_PLANT call=1
	TEXT_SYNC_ENTER %ecx			/* before any patchable site */
	mov	%rsp, %rdi
	/* A frame record so that backtraces walk from the handler into the
	 * interrupted code: the interrupted ip above the saved rbp. */
	pushq	17*8(%rsp)			/* regs->ip */
	pushq	%rbp
	mov	%rsp, %rbp
.endm

/* An int3 in the kernel goes straight to do_int3(); from user mode, to
 * do_exception() (a SIGTRAP). */
int3_entry:
	testb	$3, 8(%rsp)			/* cs: from user mode, no copy */
	jnz	.Lint3_user
	/* ss, sp, flags, cs, ip: each push moves the next one to 32(%rsp). */
	pushq	32(%rsp)
	pushq	32(%rsp)
	pushq	32(%rsp)
	pushq	32(%rsp)
	pushq	32(%rsp)
	pushq	$0
	pushq	$3
	ENTRY_SAVE from_user=0
	call	do_int3
	add	$16, %rsp
	POP_REGS
	add	$16, %rsp			/* vector, error code */
	jmp	kernel_return			/* int3 emulation keeps cs */
.Lint3_user:
	pushq	$0
	pushq	$3
	jmp	common_entry

common_entry:
	/*
	 * From user mode (cs at 24(%rsp)), or from ring 0 on the user's %gs
	 * (ip between user_gs_start and user_gs_end, entry_syscall_64.S: an
	 * IRET to user mode that faulted, an NMI there): this CPU's %gs.
	 */
	ENTRY_SAVE
	call	do_exception
	add	$16, %rsp
	POP_REGS
	add	$16, %rsp			/* vector, error code */
	testb	$3, 8(%rsp)			/* back to user mode: its %gs */
	jnz	user_iret_tail
kernel_return:
	cmpq	$user_gs_start, (%rsp)		/* back into the window too */
	jb	3f
	cmpq	$user_gs_end, (%rsp)
	jb	user_iret_tail
3:	cmpl	$0, %gs:nmi_depth		/* an exception inside an NMI */
	jne	ret_in_nmi
	iretq

/*
 * Back to kernel code that an NMI handler runs: iretq would unblock NMIs
 * (the SDM: NMIs stay blocked until the next iret) and let a second NMI
 * overwrite the first one's frame on the NMI stack. Return as the iretq
 * would (same ring, same stack), without one: the ip, flags and rax go
 * below the stack being returned to, then popfq and ret. Those three
 * words lie above this frame, and each overlapping slot of it is read
 * before it is written.
 */
ret_in_nmi:
	pushq	%rax
	pushq	%rbx				/* rbx, rax, ip, cs, flags, sp, ss */
	movq	5*8(%rsp), %rax			/* sp */
	movq	2*8(%rsp), %rbx
	movq	%rbx, -8(%rax)			/* ip */
	movq	4*8(%rsp), %rbx
	movq	%rbx, -16(%rax)			/* flags */
	movq	1*8(%rsp), %rbx
	movq	%rbx, -24(%rax)			/* rax */
	popq	%rbx
	leaq	-24(%rax), %rsp
	popq	%rax
	popfq
	ret

/*
 * NMIs, on their own IST stack. Any code may be interrupted, also with
 * the user's %gs in kernel mode (between SYSCALL and its swapgs, after the
 * swapgs of a way out): the GS base says whose it is. The kernel's is
 * negative (setup_percpu.c); a user's never is (user space cannot set it:
 * no ARCH_SET_GS, CR4.FSGSBASE off). %ebx remembers a swapgs to undo,
 * %r12d the text_sync state to put back (both kept by C). The state is
 * compared whatever it was: the NMI may have come between an entry's
 * marking and its check. No exit work: do_nmi() cannot schedule.
 */
nmi_entry:
	pushq	$0
	pushq	$2				/* X86_TRAP_NMI */
	PUSH_REGS
	cld
	movl	$0xc0000101, %ecx		/* MSR_GS_BASE */
	rdmsr
	xorl	%ebx, %ebx
	testl	%edx, %edx
	js	1f
	swapgs
	movl	$1, %ebx
1:	TEXT_SYNC_PLANT
	TEXT_SYNC_POINT TS_POINT_ENTER
	movl	$CT_KERNEL, %r12d
	xchgl	%r12d, %gs:text_sync_cpu_state
	movl	text_sync_gen(%rip), %eax
	cmpl	%eax, %gs:text_sync_cpu_gen
	je	2f
	call	__text_sync_nmi_enter
2:	mov	%rsp, %rdi
	call	do_nmi
	TEXT_SYNC_POINT TS_POINT_LEAVE
	movl	%r12d, %gs:text_sync_cpu_state
	testl	%ebx, %ebx
	jz	3f
	swapgs
3:	POP_REGS
	add	$16, %rsp			/* vector, error code */
	iretq

/* TEXT_SYNC_ENTER's slow half: every register kept but the flags. */
	.globl text_sync_enter_slow
text_sync_enter_slow:
	pushq	%rax
	pushq	%rcx
	pushq	%rdx
	pushq	%rsi
	pushq	%rdi
	pushq	%r8
	pushq	%r9
	pushq	%r10
	pushq	%r11
	call	__text_sync_enter
	popq	%r11
	popq	%r10
	popq	%r9
	popq	%r8
	popq	%rdi
	popq	%rsi
	popq	%rdx
	popq	%rcx
	popq	%rax
	ret

/*
 * arch_cpu_idle_halt(): the idle loop's halt, interrupts off on entry, on
 * at return. The CPU counts as idle from just before the sti; hlt; the
 * interrupt that wakes it enters through common_entry, which marks it in
 * the kernel again (and serializes if text changed). The TEXT_SYNC_ENTER
 * after the hlt covers a wake-up that entered nothing.
 */
	.globl arch_cpu_idle_halt
arch_cpu_idle_halt:
	TEXT_SYNC_LEAVE CT_IDLE
	sti
	hlt
	TEXT_SYNC_POINT TS_POINT_WAKE
	TEXT_SYNC_PLANT
	TEXT_SYNC_ENTER %ecx
	ret

	.section .note.GNU-stack, "", @progbits
