// SPDX-License-Identifier: GPL-2.0
/*
 * Test module whose exit forgets what its init started (leave=timer,
 * work, rcu, kthread or probe; leave=none starts nothing): rmmod must be
 * refused while that still points into the module (module_unload suite,
 * kernel/module/module_test.c). Each leftover ends by itself once the
 * suite sets modtest_leak_release (the probe is unregistered by the
 * suite, from what modtest_leak_report() told it), and says so through
 * modtest_leak_done(); then rmmod succeeds.
 */
#include <linux/init.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/string.h>
#include <linux/timer.h>
#include <linux/workqueue.h>
#include <trace/events/sched.h>
#include <fixtures/modtest.h>

static char *leave = "none";
module_param(leave, charp, 0444);

static struct timer_list modtest_leak_timer;
static struct work_struct modtest_leak_work;
static struct rcu_head modtest_leak_rcu;

static void modtest_leak_timer_fn(struct timer_list *t)
{
	modtest_leak_done("timer");
}

static void modtest_leak_work_fn(struct work_struct *w)
{
	while (!READ_ONCE(modtest_leak_release))
		msleep(1);
	modtest_leak_done("work");
}

/* A chain: one callback queued or running until the release. */
static void modtest_leak_rcu_fn(struct rcu_head *head)
{
	if (!READ_ONCE(modtest_leak_release))
		call_rcu(head, modtest_leak_rcu_fn);
	else
		modtest_leak_done("rcu");
}

static int modtest_leak_thread(void *unused)
{
	while (!kthread_should_stop() && !READ_ONCE(modtest_leak_release))
		msleep(1);
	modtest_leak_done("kthread");
	return 0;
}

static void modtest_leak_probe(void *data, bool preempt,
			       struct task_struct *prev,
			       struct task_struct *next,
			       unsigned int prev_state)
{
}

static int __init modtest_leak_init(void)
{
	struct task_struct *t;

	if (!strcmp(leave, "timer")) {
		timer_setup(&modtest_leak_timer, modtest_leak_timer_fn, 0);
		mod_timer(&modtest_leak_timer, jiffies + msecs_to_jiffies(200));
	} else if (!strcmp(leave, "work")) {
		INIT_WORK(&modtest_leak_work, modtest_leak_work_fn);
		schedule_work(&modtest_leak_work);
	} else if (!strcmp(leave, "rcu")) {
		call_rcu(&modtest_leak_rcu, modtest_leak_rcu_fn);
	} else if (!strcmp(leave, "kthread")) {
		t = kthread_run(modtest_leak_thread, NULL, "modtest_leak");
		if (IS_ERR(t))
			return PTR_ERR(t);
	} else if (!strcmp(leave, "probe")) {
		modtest_leak_report(modtest_leak_probe, NULL);
		return register_trace_sched_switch(modtest_leak_probe, NULL);
	} else if (strcmp(leave, "none")) {
		return -EINVAL;
	}
	return 0;
}

/* The bug under test: nothing is stopped, cancelled or unregistered. */
static void modtest_leak_exit(void)
{
	modtest_exit(KBUILD_MODNAME);
}

module_init(modtest_leak_init);
module_exit(modtest_leak_exit);
MODULE_LICENSE("GPL");
MODULE_INFO(name, KBUILD_MODNAME);
