/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_TRAPS_H
#define _ASM_X86_TRAPS_H

#include <linux/types.h>
#include <asm/ptrace.h>

enum {
	X86_TRAP_DE = 0,
	X86_TRAP_DB = 1,
	X86_TRAP_NMI = 2,
	X86_TRAP_BP = 3,
	X86_TRAP_OF = 4,
	X86_TRAP_BR = 5,
	X86_TRAP_UD = 6,
	X86_TRAP_NM = 7,
	X86_TRAP_DF = 8,
	X86_TRAP_TS = 10,
	X86_TRAP_NP = 11,
	X86_TRAP_SS = 12,
	X86_TRAP_GP = 13,
	X86_TRAP_PF = 14,
	X86_TRAP_MF = 16,
	X86_TRAP_AC = 17,
	X86_TRAP_MC = 18,
	X86_TRAP_XF = 19,
	X86_TRAP_NR_EXCEPTIONS = 32,
};

/* Page fault error code bits. */
#define X86_PF_PROT (1UL << 0)
#define X86_PF_WRITE (1UL << 1)
#define X86_PF_USER (1UL << 2)
#define X86_PF_RSVD (1UL << 3)
#define X86_PF_INSTR (1UL << 4)

/*
 * int3 hooks: do_int3() offers each #BP to the registered hooks in turn; the
 * first to return true has handled it (it may have moved regs->ip, e.g. to
 * emulate a patched instruction). regs->ip points after the int3 byte. An
 * int3 no hook claims is fatal. Hooks run with interrupts off and must not
 * sleep or take locks the interrupted code may hold.
 */
struct int3_hook {
	bool (*handler)(struct pt_regs *regs);
	struct int3_hook *next;
};

void register_int3_hook(struct int3_hook *hook);
void unregister_int3_hook(struct int3_hook *hook);

/*
 * The single-step trap (#DB with EFLAGS.TF set): one hook, for the
 * benchmarks' instruction counting (bench_step.c), NULL when unset.
 * It runs after every instruction while TF is set, interrupts off, and
 * returns true when it handled the trap (it clears X86_EFLAGS_TF in
 * regs->flags to stop); a #DB no hook claims is fatal.
 */
void set_debug_trap_hook(bool (*hook)(struct pt_regs *regs));

/*
 * Interrupt vectors 32..255: a handler per vector, NULL if unused. A
 * handler may be __irq_entry: in .irqentry.text, which the linker script
 * places after the rest of the text, as Linux does.
 */
#define __irq_entry __section(".irqentry.text")
typedef void (*irq_handler_t)(struct pt_regs *regs);
void set_irq_handler(unsigned int vector, irq_handler_t handler);

/* Builds the IDT; sets up the boot CPU as below. */
void trap_init(void);
void cpu_load_idt(void);

/*
 * A CPU's GDT, TSS and IST stacks. cpu_init_exception_handling() loads
 * them on the calling CPU, with the shared IDT: each CPU runs it on itself,
 * the APs with an area from cpu_entry_area_alloc() (NULL: no memory).
 */
struct cpu_entry_area;
struct cpu_entry_area *cpu_entry_area_alloc(void);
void cpu_init_exception_handling(struct cpu_entry_area *cea);
void __noreturn die(const char *str, struct pt_regs *regs, unsigned long err);

#endif /* _ASM_X86_TRAPS_H */
