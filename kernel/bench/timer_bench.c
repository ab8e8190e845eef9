// SPDX-License-Identifier: GPL-2.0
/*
 * The tick's cost (bench=GLOB; scripts/bench.py runs it under QEMU
 * -icount, where it counts instructions, and boots with tick=off so that
 * no real tick lands in a timed region).
 *
 * timer_tick_insns: tick_periodic() called directly, each call one jiffy
 * later than the last: the jiffies update, the CPU's count and one jiffy
 * of the wheel (its slot bit tests), with no timer due. Not included: the
 * interrupt's entry and exit (int3_trap_insns is of that order), the EOI
 * and the clock read. Measured with no timer pending and with 1,000
 * pending far away: the figure must not move.
 */
#include <linux/kernel.h>
#include <linux/bench.h>
#include <linux/irqflags.h>
#include <linux/jiffies.h>
#include <linux/smp.h>
#include <linux/tick.h>
#include <linux/timer.h>

#define TTB_CALLS 10000
#define TTB_PENDING 1000
#define TTB_FAR 10000000UL /* jiffies: well past the bench's ticks */

static u64 ttb_now;
static struct timer_list ttb_timers[TTB_PENDING];

static int ttb_tick(void)
{
	ttb_now += TICK_NSEC;
	tick_periodic(ttb_now);
	return 0;
}

/* Per tick, in hundredths; interrupts off, as in the tick interrupt. */
static u64 ttb_measure(void)
{
	unsigned long flags;
	u64 x100;

	local_irq_save(flags);
	ttb_now = get_jiffies_64() * TICK_NSEC;
	x100 = bench_per_call_x100(ttb_tick, TTB_CALLS);
	local_irq_restore(flags);
	return x100;
}

static void ttb_nop(struct timer_list *t)
{
}

static void bench_timer_tick(void)
{
	unsigned int i;

	/* Jiffies would run ahead of the clock, and the tick add noise. */
	if (tick_enabled()) {
		pr_warn("bench timer_tick: needs tick=off on the command line\n");
		return;
	}
	bench_report("timer_tick_insns", "pending=0", ttb_measure(), "insns");
	for (i = 0; i < TTB_PENDING; i++) {
		timer_setup(&ttb_timers[i], ttb_nop, 0);
		mod_timer(&ttb_timers[i], jiffies + TTB_FAR + i);
	}
	bench_report("timer_tick_insns", "pending=1000", ttb_measure(),
		     "insns");
	for (i = 0; i < TTB_PENDING; i++)
		del_timer(&ttb_timers[i]);
}
bench_case("timer_tick", bench_timer_tick);
