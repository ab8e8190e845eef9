// SPDX-License-Identifier: GPL-2.0
/*
 * The x86 half of <linux/smp.h>'s IPIs: the call-function vector, and
 * stopping the other CPUs for panic() with NMIs, which reach a CPU even
 * while it spins with interrupts disabled.
 */
#include <linux/kernel.h>
#include <linux/delay.h>
#include <linux/init.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <asm/apic.h>
#include <asm/reboot.h>
#include <asm/traps.h>

#define STOP_TIMEOUT_MS 100

static bool cpus_stopping;

/* IPIs this CPU took, call-function and reschedule (the console shows them). */
static DEFINE_PER_CPU(unsigned long, ipis_received);

unsigned long arch_ipis_received(unsigned int cpu)
{
	return READ_ONCE(per_cpu(ipis_received, cpu));
}

static void call_function_interrupt(struct pt_regs *regs)
{
	/*
	 * EOI first: a request queued from now on raises a new interrupt,
	 * even while a func below runs with interrupts enabled.
	 */
	apic_eoi();
	this_cpu_inc(ipis_received);
	flush_smp_call_function_queue();
}

/* The IDT is shared: one handler serves every CPU. */
/* Preemption, if due, happens on the interrupt's way out (traps.c). */
static void __irq_entry reschedule_interrupt(struct pt_regs *regs)
{
	apic_eoi();
	this_cpu_inc(ipis_received);
}

void __init smp_ipi_init(void)
{
	set_irq_handler(CALL_FUNCTION_VECTOR, call_function_interrupt);
	set_irq_handler(RESCHEDULE_VECTOR, reschedule_interrupt);
}

void arch_smp_send_reschedule(unsigned int cpu)
{
	apic_send_ipi(x86_cpu_to_apicid[cpu],
		      APIC_DM_FIXED | APIC_INT_ASSERT | RESCHEDULE_VECTOR);
}

void arch_send_call_function_single_ipi(unsigned int cpu)
{
	apic_send_ipi(x86_cpu_to_apicid[cpu],
		      APIC_DM_FIXED | APIC_INT_ASSERT | CALL_FUNCTION_VECTOR);
}

void smp_send_stop(void)
{
	unsigned int cpu, this = smp_processor_id(), ms;

	if (num_online_cpus() == 1)
		return;
	WRITE_ONCE(cpus_stopping, true);
	for_each_online_cpu(cpu)
		if (cpu != this)
			apic_send_ipi(x86_cpu_to_apicid[cpu],
				      APIC_DM_NMI | APIC_INT_ASSERT);
	for (ms = 0; ms < STOP_TIMEOUT_MS && num_online_cpus() > 1; ms++)
		mdelay(1);
	if (num_online_cpus() > 1)
		pr_emerg("smp: %u other CPUs did not stop\n",
			 num_online_cpus() - 1);
}

void smp_stop_nmi_check(void)
{
	if (!READ_ONCE(cpus_stopping))
		return;
	set_cpu_online(smp_processor_id(), false);
	machine_halt();
}
