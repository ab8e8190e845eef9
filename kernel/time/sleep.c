// SPDX-License-Identifier: GPL-2.0
/*
 * Sleeping for a time: schedule_timeout() arms a timer on this CPU that
 * wakes the task, then schedules; msleep() on top. The caller sets its
 * sleeping state first (as Linux), so a wake-up meanwhile is not lost.
 * Without a tick (tick=off) timers never run: msleep() then spins
 * (mdelay()) and schedule_timeout() only schedules once.
 */
#include <linux/kernel.h>
#include <linux/delay.h>
#include <linux/export.h>
#include <linux/jiffies.h>
#include <linux/sched.h>
#include <linux/tick.h>
#include <linux/timekeeping.h>
#include <linux/timer.h>
#include <linux/wait.h>

struct process_timer {
	struct timer_list timer;
	struct task_struct *task;
};

static void process_timeout(struct timer_list *t)
{
	struct process_timer *pt = from_timer(pt, t, timer);

	wake_up_process(pt->task);
}

/*
 * The jiffy the clock is in. jiffies lags it by the ticks the boot CPU has
 * yet to take (a loaded host delays them, and the next one catches up at
 * once): a timeout counted from that jiffies would end early.
 */
static unsigned long jiffies_of_clock(void)
{
	unsigned long clock = ktime_get_ns() / TICK_NSEC;
	unsigned long now = jiffies;

	return time_after(clock, now) ? clock : now;
}

/* Returns the jiffies left of timeout (0 if it expired). */
long schedule_timeout(long timeout)
{
	struct process_timer pt;
	unsigned long expire;

	might_sleep();
	if (timeout <= 0 || !tick_enabled()) {
		__set_current_state(TASK_RUNNING);
		return 0;
	}
	expire = jiffies_of_clock() + timeout;
	pt.task = current;
	timer_setup(&pt.timer, process_timeout, 0);
	mod_timer(&pt.timer, expire);
	schedule();
	del_timer_sync(&pt.timer);
	timeout = (long)(expire - jiffies_of_clock());
	return timeout < 0 ? 0 : timeout;
}
EXPORT_SYMBOL(schedule_timeout);

/* Sleeps at least msecs milliseconds; the CPU runs others meanwhile. */
void msleep(unsigned int msecs)
{
	unsigned long timeout = msecs_to_jiffies(msecs) + 1;

	might_sleep();
	if (!tick_enabled()) {
		mdelay(msecs);
		return;
	}
	while (timeout) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		timeout = schedule_timeout(timeout);
	}
}
EXPORT_SYMBOL(msleep);
