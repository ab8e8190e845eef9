/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_NMI_H
#define _ASM_X86_NMI_H

#include <linux/percpu.h>
#include <linux/types.h>
#include <asm/ptrace.h>

/*
 * NMIs (arch/x86/kernel/nmi.c): the NMI IPI, a periodic NMI on every CPU
 * (nmi_watchdog=TICKS), and handlers that run in NMI context.
 *
 * nmi_entry (entry_64.S) runs do_nmi() on the NMI stack with the kernel's
 * %gs whatever the NMI interrupted. NMIs do not nest: the CPU blocks them
 * until the NMI's iretq, and an exception taken inside one (an int3 at a
 * site being patched) returns without iretq (ret_in_nmi), so that they
 * stay blocked. nmi_depth is 1 inside do_nmi(), 0 elsewhere.
 */
DECLARE_PER_CPU(int, nmi_depth);

static inline bool in_nmi(void)
{
	return this_cpu_read(nmi_depth) != 0;
}

/*
 * A handler runs for every NMI on every CPU, in NMI context: it must not
 * sleep, take a lock that the interrupted code may hold, print, or send
 * IPIs (it may interrupt apic_send_ipi() between its two writes). It may
 * run static branches and static calls at sites being patched.
 * unregister_nmi_handler() returns once no CPU is still running it.
 */
struct nmi_handler {
	void (*fn)(struct pt_regs *regs);
	struct nmi_handler *next;
};

void register_nmi_handler(struct nmi_handler *h);
void unregister_nmi_handler(struct nmi_handler *h);

/*
 * Sends an NMI to cpu (itself included), or to every online CPU. Not
 * from NMI context.
 */
void nmi_send(unsigned int cpu);
void nmi_send_all(void);

/* NMIs cpu took since boot. */
unsigned long nmi_count(unsigned int cpu);

/*
 * nmi_watchdog=TICKS (0, the default: off): every TICKS ticks of the
 * boot CPU, an NMI to every online CPU, which runs the handlers. From the
 * tick (arch/x86/kernel/time.c).
 */
void nmi_watchdog_tick(void);
/* Sets TICKS (0: off) at run time; returns the old value. */
unsigned int nmi_watchdog_set(unsigned int ticks);
/* The rounds of NMIs the watchdog sent since boot. */
unsigned long nmi_watchdog_sent(void);

#endif /* _ASM_X86_NMI_H */
