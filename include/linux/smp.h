/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_SMP_H
#define _LINUX_SMP_H

#include <linux/cpumask.h>
#include <linux/percpu.h>
#include <linux/types.h>
#include <asm/smp.h>

/*
 * Running functions on other CPUs. A call queues a request on each target
 * and interrupts it with the call-function IPI; the target's handler
 * acknowledges the interrupt, then takes its requests one at a time and
 * runs func(info) with interrupts disabled and no lock held. So a func may
 * enable interrupts and run for a long time, taking further (nested) calls
 * meanwhile; interrupts are disabled again when it returns.
 *
 * wait: 0 returns once every request is queued; 1 returns once func has
 * returned on every target. A CPU that waits with interrupts disabled runs
 * its own queue while it waits, so two CPUs calling each other at once
 * both finish. The caller's own func (on_each_cpu(), or
 * smp_call_function_single() to itself) runs directly, interrupts
 * disabled. Offline CPUs in a mask are skipped. Any context may call,
 * including a func.
 */
#define smp_processor_id() raw_smp_processor_id()

typedef void (*smp_call_func_t)(void *info);

/* func on cpu; 0, or -ENXIO if cpu is not online. */
int smp_call_function_single(int cpu, smp_call_func_t func, void *info,
			     int wait);
/* func on every online CPU in mask except this one. */
void smp_call_function_many(const struct cpumask *mask, smp_call_func_t func,
			    void *info, int wait);
/* func on every other online CPU. */
void smp_call_function(smp_call_func_t func, void *info, int wait);
/* func on every online CPU, this one included. */
void on_each_cpu(smp_call_func_t func, void *info, int wait);

/*
 * Counts since boot, updated atomically: ipis_sent, requests sent to other
 * CPUs, one call-function IPI each (one per target of a call); calls, calls
 * of the four functions above. Both are deterministic: the IPIs the
 * machinery sends on its own (see kernel/smp.c) are not counted.
 */
struct smp_stats {
	unsigned long ipis_sent;
	unsigned long calls;
};
extern struct smp_stats smp_stats;

/* Brings every possible CPU online; start_kernel() calls it once. */
void smp_init(void);

/* Runs this CPU's queued requests; interrupts must be disabled. */
void flush_smp_call_function_queue(void);

/*
 * One step of a busy-wait for another CPU. With interrupts disabled this
 * CPU cannot take the call-function IPI, so it runs its queue itself: of
 * two CPUs waiting for each other, both make progress. Then cpu_relax().
 */
void smp_wait_relax(void);

/*
 * What the architecture supplies (x86: arch/x86/kernel/smpboot.c, smp.c).
 * All are required.
 *
 * int smp_prepare_cpus(void)
 *	Called once by smp_init() on the boot CPU before any __cpu_up():
 *	whatever starting a CPU needs, and the call-function IPI handler.
 *	Non-zero: no other CPU can be started (the error is printed).
 * int __cpu_up(unsigned int cpu)
 *	Starts possible CPU cpu and returns 0 once it is online, idling with
 *	interrupts enabled, or a negative errno (printed) if it did not come
 *	up in time. One CPU at a time, from the boot CPU.
 * void smp_cpus_done(void)
 *	After the last __cpu_up(), also if smp_prepare_cpus() failed: undo
 *	what only startup needed.
 * void arch_send_call_function_single_ipi(unsigned int cpu)
 *	Interrupts cpu so that it runs flush_smp_call_function_queue(), with
 *	interrupts disabled, after acknowledging the interrupt. Any context;
 *	cpu may be the calling CPU (which takes the interrupt once it enables
 *	interrupts). Ordering: everything the caller wrote before is visible
 *	to cpu's handler. IPIs sent before the handler acknowledged the
 *	interrupt may merge into one handler run.
 * void smp_send_stop(void)
 *	For panic(): stops every other online CPU, best effort, and returns
 *	within a bounded time even if some do not stop.
 *
 * CPU hotplug (kernel/cpu.c; process context, hotplug lock held for
 * writing):
 * int arch_cpu_up(unsigned int cpu)
 *	Starts cpu at run time, again or for the first time, and returns 0
 *	once it is online, as __cpu_up() does; the CPU runs sync_core()
 *	before any kernel text it may have cached, and starts its tick if
 *	the others have one.
 * int arch_cpu_kill(unsigned int cpu)
 *	cpu has left the online mask and has been told to die: wakes it so
 *	that its idle loop calls arch_cpu_die(), waits (bounded) for it to
 *	acknowledge, then parks it for good. 0, or -ETIMEDOUT (printed).
 * void arch_cpu_die(void)
 *	On the dying CPU, from its idle task: stops its tick, runs the
 *	requests still queued for it, acknowledges and stops with interrupts
 *	off. Never returns: the CPU comes back through arch_cpu_up().
 */
int smp_prepare_cpus(void);
int __cpu_up(unsigned int cpu);
void smp_cpus_done(void);
int arch_cpu_up(unsigned int cpu);
int arch_cpu_kill(unsigned int cpu);
void __noreturn arch_cpu_die(void);
void arch_send_call_function_single_ipi(unsigned int cpu);
void smp_send_stop(void);

#endif /* _LINUX_SMP_H */
