/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_TICK_H
#define _LINUX_TICK_H

#include <linux/init.h>
#include <linux/percpu.h>
#include <linux/types.h>

/*
 * The periodic tick: every online CPU takes an interrupt HZ times a
 * second. The boot CPU's moves jiffies (<linux/jiffies.h>); on every CPU
 * it counts in tick_count and runs the timers due on that CPU
 * (run_local_timers(), <linux/timer.h>).
 *
 * "tick=off" on the command line leaves the tick stopped on every CPU:
 * jiffies stay 0 and timers never run. make bench boots so, since an
 * interrupt inside a timed region would change its instruction counts.
 *
 * What the architecture supplies (x86: arch/x86/kernel/time.c). All are
 * required.
 *
 * void time_init(void)
 *	Called once by start_kernel() on the boot CPU, every CPU online,
 *	interrupts still disabled, after init_timers(). Gives its clock's
 *	rate to timekeeping_init(); then, if tick_enabled(), starts a
 *	periodic interrupt at HZ on every online CPU.
 * the tick interrupt
 *	On each CPU, acknowledges the interrupt first (so that the next
 *	tick can arrive while timers run), then calls
 *	tick_periodic(ktime_get_ns()) with interrupts disabled.
 * void tick_start_this_cpu(void)
 *	On a CPU coming online after boot (CPU hotplug): starts its tick if
 *	time_init() started the others'.
 * u64 get_cycles(void), in <asm/timex.h>
 *	The clock: a counter that never goes back on a CPU, runs at the
 *	rate given to timekeeping_init() and agrees across CPUs.
 */
#define TICK_DO_TIMER_CPU 0 /* the CPU whose tick moves jiffies */

/* Ticks taken by each CPU since boot; written by that CPU only. */
DECLARE_PER_CPU(unsigned long, tick_count);

/* False if the command line said tick=off. */
bool tick_enabled(void);

/*
 * The tick interrupt's work at time now (ns, ktime_get_ns()'s clock), after
 * the acknowledgement: on the boot CPU
 * jiffies catch up with now, then this CPU counts the tick and runs its
 * due timers. Interrupts disabled; disabled again on return (timers run
 * with them enabled). The benchmark calls it with a time of its own.
 */
void tick_periodic(u64 now);

void __init time_init(void);
void tick_start_this_cpu(void);

#endif /* _LINUX_TICK_H */
