// SPDX-License-Identifier: GPL-2.0
/*
 * The periodic tick's generic half (<linux/tick.h>): jiffies, the per-CPU
 * tick counts, tick=off. The architecture starts the interrupt and calls
 * tick_periodic() from it.
 */
#include <linux/kernel.h>
#include <linux/export.h>
#include <linux/init.h>
#include <linux/jiffies.h>
#include <linux/moduleparam.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/tick.h>
#include <linux/timekeeping.h>
#include <linux/timer.h>

/* jiffies is this variable too: see the linker script. */
u64 jiffies_64 __aligned(64);
EXPORT_SYMBOL(jiffies_64);
EXPORT_SYMBOL(jiffies);
DEFINE_PER_CPU(unsigned long, tick_count);

/* tick=off (or any false spelling of a bool): no periodic tick. */
static bool tick_on __ro_after_init = true;
core_param_named("tick", tick_on, bool);

bool tick_enabled(void)
{
	return tick_on;
}
EXPORT_SYMBOL_GPL(tick_enabled);

/*
 * Only the boot CPU writes jiffies_64, from its tick, so a plain store is
 * enough: readers see the old value or the new one (an aligned u64).
 */
static void tick_do_update_jiffies64(u64 now)
{
	u64 j = now / TICK_NSEC;

	if (j > jiffies_64)
		WRITE_ONCE(jiffies_64, j);
}

void tick_periodic(u64 now)
{
	if (smp_processor_id() == TICK_DO_TIMER_CPU)
		tick_do_update_jiffies64(now);
	this_cpu_inc(tick_count);
	scheduler_tick();
	rcu_tick_qs();
	run_local_timers();
}
