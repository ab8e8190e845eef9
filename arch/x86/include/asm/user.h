/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_USER_H
#define _ASM_X86_USER_H

/*
 * The arch side of user mode (arch/x86/kernel/syscall_64.c,
 * entry_syscall_64.S): SYSCALL set up per CPU, the registers of a task in
 * user mode (a struct pt_regs at the top of its kernel stack, as Linux
 * keeps them), the switch of page tables, FPU state and FS base between
 * processes, and exceptions taken in user mode.
 */
#include <linux/compiler.h>
#include <linux/types.h>
#include <asm/ptrace.h>

#define USER_CS 0x3b
#define USER32_CS 0x2b /* 32-bit code: SYSRET's layout needs it */
#define USER_DS 0x33
#define SYSCALL_VECTOR 0x100 /* regs->vector of a system call's frame */

struct task_struct;

static inline bool user_mode(const struct pt_regs *regs)
{
	return regs->cs & 3;
}

/* The user registers of t (only meaningful for a process's task). */
struct pt_regs *task_pt_regs(struct task_struct *t);
/* Sets up MSR_STAR/LSTAR/SYSCALL_MASK, EFER.SCE, SSE and SMEP: per CPU. */
void syscall_cpu_init(void);
/* TSS.rsp0 of this CPU (arch/x86/kernel/traps.c). */
void cpu_set_rsp0(unsigned long sp);
/* From context_switch(), interrupts off: the next task's user state. */
void arch_switch_user(struct task_struct *prev, struct task_struct *next);
/* Loads the kernel's page tables if a process's are loaded. */
void switch_to_kernel_mm(void);
struct mm_struct;
/* execve: mm becomes the current thread's, loaded here. Preemption off. */
void switch_to_user_mm(struct mm_struct *mm);
/* A thread leaving its process: the kernel's page tables, no user state. */
void arch_user_detach(void);
/* The CMOS clock: seconds since 1970-01-01 UTC, 0 if it reads nonsense. */
u64 rtc_read_seconds(void);
/* An exception in user mode: signals the process (traps.c calls it). */
void user_exception(struct pt_regs *regs, unsigned long vector,
		    const char *name);
/*
 * A ring-0 fault of the IRET to user mode (traps.c): true if it was, and
 * regs now returns to the fixup that signals the process.
 */
bool bad_iret(struct pt_regs *regs);
/* A fault's signal (Linux's force_sig()): blocked or ignored, it kills. */
void force_sig_fault(int sig);
/* Before any return to user mode: pending kills and reschedules. */
void exit_to_user_mode(struct pt_regs *regs);
/* Returns to user mode with regs (at the top of the kernel stack). */
void __noreturn ret_to_user(struct pt_regs *regs);
/* A new user register set: ip, sp, user segments, IF. */
void start_thread(struct pt_regs *regs, unsigned long ip, unsigned long sp);
/* The FPU/SSE state a new program starts with, into buf (512 bytes). */
void fpu_init_state(void *buf);

#endif /* _ASM_X86_USER_H */
