// SPDX-License-Identifier: GPL-2.0
/*
 * x86 time (<linux/tick.h>'s architecture half): the TSC is the clock,
 * and each CPU's local APIC timer, periodic at HZ, its tick. The boot CPU
 * measures the APIC timer's rate against the TSC once; every CPU then
 * starts its own timer with that count, from a cross call, since all are
 * online by the time time_init() runs.
 */
#define pr_fmt(fmt) "time: " fmt

#include <linux/kernel.h>
#include <linux/init.h>
#include <linux/jiffies.h>
#include <linux/process.h>
#include <linux/smp.h>
#include <linux/tick.h>
#include <linux/timekeeping.h>
#include <asm/apic.h>
#include <asm/nmi.h>
#include <asm/traps.h>
#include <asm/tsc.h>
#include <asm/user.h>

/* EOI first: a tick that comes while timers run is not lost. */
static void __irq_entry apic_timer_interrupt(struct pt_regs *regs)
{
	u64 now;

	apic_eoi();
	now = ktime_get_ns();
	account_user_tick(user_mode(regs), now);
	tick_periodic(now);
	nmi_watchdog_tick(); /* nmi_watchdog=TICKS: <asm/nmi.h> */
}

/* The calibrated count, once time_init() started the tick; else 0. */
static u32 lapic_tick_count;

static void __init lapic_timer_start_this_cpu(void *count)
{
	lapic_timer_start(*(u32 *)count);
}

void tick_start_this_cpu(void)
{
	if (lapic_tick_count)
		lapic_timer_start(lapic_tick_count);
}

void __init time_init(void)
{
	u32 count;

	timekeeping_init(tsc_khz);
	if (!tick_enabled()) {
		pr_info("tick=off: no tick, jiffies stay 0, timers never run\n");
		return;
	}
	count = lapic_timer_calibrate(HZ);
	if (!count) {
		pr_err("the local APIC timer does not count: no tick\n");
		return;
	}
	set_irq_handler(LOCAL_TIMER_VECTOR, apic_timer_interrupt);
	on_each_cpu(lapic_timer_start_this_cpu, &count, 1);
	lapic_tick_count = count; /* for CPUs that come online later */
	pr_info("%d Hz tick on %u CPUs: local APIC timer, %u counts a tick\n",
		HZ, num_online_cpus(), count);
}
