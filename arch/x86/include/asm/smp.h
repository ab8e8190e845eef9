/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_SMP_H
#define _ASM_X86_SMP_H

#include <linux/percpu.h>
#include <linux/threads.h>
#include <linux/types.h>

/* Each CPU's own number, in its per-CPU area: what %gs says it is. */
DECLARE_PER_CPU(unsigned int, cpu_number);
#define raw_smp_processor_id() this_cpu_read(cpu_number)

/* The local APIC ID of each possible CPU; CPU 0 is the boot CPU. */
extern u32 x86_cpu_to_apicid[NR_CPUS];

/*
 * The MADT reports a processor: returns its CPU number (0 for the boot
 * CPU, the next free number otherwise and the CPU becomes possible), or
 * -ENOSPC once NR_CPUS are taken.
 */
int smp_register_cpu(u32 apic_id);

/* Installs the call-function IPI handler. */
void smp_ipi_init(void);
/* IPIs cpu has taken since boot (call-function and reschedule). */
unsigned long arch_ipis_received(unsigned int cpu);

/* The NMI handler calls this first: it halts for good if panic() asked. */
void smp_stop_nmi_check(void);

#endif /* _ASM_X86_SMP_H */
