/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_TIMER_WHEEL_H
#define _LINUX_TIMER_WHEEL_H

#include <linux/types.h>

/*
 * The timer wheel's geometry and counters, for kernel/time/timer.c, its
 * tests and its benchmark (Documentation/time.rst explains the wheel).
 *
 * WHEEL_LEVELS levels of WHEEL_SLOTS slots; a slot of level n spans
 * WHEEL_GRAN(n) = 8^n jiffies. Level n reaches timers due within about
 * 64 * 8^n jiffies; level 7, the last, about 2^27 (37 hours at HZ=1000).
 */
#define WHEEL_LEVELS 8
#define WHEEL_SLOT_BITS 6
#define WHEEL_SLOTS (1U << WHEEL_SLOT_BITS)
#define WHEEL_LEVEL_SHIFT 3
#define WHEEL_GRAN_SHIFT(lvl) ((lvl) * WHEEL_LEVEL_SHIFT)
#define WHEEL_GRAN(lvl) (1UL << WHEEL_GRAN_SHIFT(lvl))

/*
 * Per-CPU counts since boot, under the base's lock (read them without it
 * as hints):
 *   expired        callbacks run
 *   requeued       timers beyond the last level, taken from the slot they
 *                  were parked in and queued again (not due yet)
 *   slots_visited  slots the tick looked at (a bit test each): one per
 *                  jiffy run, plus one per level whose granularity
 *                  divides the jiffy
 *   jiffies_run    jiffies the base has run
 *   migrated       timers taken over from CPUs that went offline
 */
struct timer_stats {
	unsigned long expired;
	unsigned long requeued;
	unsigned long slots_visited;
	unsigned long jiffies_run;
	unsigned long migrated; /* taken from CPUs that went offline */
};

const struct timer_stats *timer_cpu_stats(unsigned int cpu);

/*
 * Where the wheel puts a timer due at expires when the base's next jiffy
 * to run is clk: returns the jiffy whose run takes it from its slot, and
 * its level in *level. Within the wheel's reach that is when it runs:
 * never before expires (or clk, if expires is past), and less than
 * WHEEL_GRAN(*level) after. Beyond the reach it is the last level's
 * farthest slot, before expires, where the timer is queued again.
 */
unsigned long timer_wheel_run_at(unsigned long clk, unsigned long expires,
				 unsigned int *level);

#endif /* _LINUX_TIMER_WHEEL_H */
