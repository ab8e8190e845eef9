// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite "sched_keys": the static keys on the scheduler's switch and
 * wake-up paths. Schedstats count only while on, and their sites follow
 * the key; preempt notifiers are called on every switch out and in of
 * the task that registered them, and only then; the sched tracepoints
 * pass the tasks they are about.
 */
#include <linux/kernel.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/tracepoint.h>
#include <trace/events/sched.h>
#include <fixtures/static_key_sites.h>
#include <kunit/test.h>

#define SKT_SLEEPS 5
#define SKT_YIELDS 50

struct skt_sleeper {
	int done;
	struct sched_statistics stats; /* its own, copied at the end */
};

static int skt_sleeper_fn(void *data)
{
	struct skt_sleeper *s = data;
	int i;

	for (i = 0; i < SKT_SLEEPS; i++)
		msleep(2);
	s->stats = current->stats;
	WRITE_ONCE(s->done, 1);
	kthread_wait_stop();
	return 0;
}

/* Runs a sleeper on this CPU to its end; false if it did not finish. */
static bool skt_run_sleeper(struct skt_sleeper *s)
{
	struct task_struct *t;
	int ms;

	memset(s, 0, sizeof(*s));
	t = kthread_run_on_cpu(skt_sleeper_fn, s, smp_processor_id(),
			       "skt_sleep");
	if (IS_ERR(t))
		return false;
	for (ms = 0; ms < 2000 && !READ_ONCE(s->done); ms++)
		msleep(1);
	kthread_stop(t);
	return READ_ONCE(s->done);
}

#ifdef CONFIG_JUMP_LABEL
static void skt_expect_site_bytes(struct kunit *test, bool on)
{
	KUNIT_EXPECT_GE(test, static_key_test_entries(&sched_schedstats.key),
			5);
	KUNIT_EXPECT_EQ(test,
			static_key_test_wrong_sites(&sched_schedstats.key, on),
			0);
}
#else /* no patching: no sites */
static void skt_expect_site_bytes(struct kunit *test, bool on)
{
}
#endif

static void skt_expect_sites(struct kunit *test, bool on)
{
	KUNIT_EXPECT_EQ(test, schedstat_enabled(), on);
	skt_expect_site_bytes(test, on);
}

static void skt_test_schedstats(struct kunit *test)
{
	struct skt_sleeper *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	bool was_on = schedstat_enabled();
	struct sched_schedstats a, b;
	unsigned int cpu = smp_processor_id();

	KUNIT_ASSERT_NOT_NULL(test, s);
	sched_set_schedstats(true);
	skt_expect_sites(test, true);
	a = sched_cpu_schedstats(cpu);
	KUNIT_EXPECT_TRUE(test, skt_run_sleeper(s));
	b = sched_cpu_schedstats(cpu);
	/* Each msleep() ends with a wake-up; the first wake-up is its start. */
	KUNIT_EXPECT_GE(test, s->stats.nr_wakeups, SKT_SLEEPS + 1);
	KUNIT_EXPECT_GE(test, s->stats.sum_sleep_runtime,
			SKT_SLEEPS * 1000000ULL);
	KUNIT_EXPECT_GE(test, s->stats.sleep_max, 1000000ULL);
	KUNIT_EXPECT_GE(test, s->stats.wait_count, SKT_SLEEPS);
	KUNIT_EXPECT_GE(test, b.ttwu_count - a.ttwu_count, SKT_SLEEPS + 1);
	KUNIT_EXPECT_GE(test, b.sched_count - a.sched_count, 2 * SKT_SLEEPS);
	sched_set_schedstats(false);
	skt_expect_sites(test, false);
	a = sched_cpu_schedstats(cpu);
	KUNIT_EXPECT_TRUE(test, skt_run_sleeper(s));
	b = sched_cpu_schedstats(cpu);
	KUNIT_EXPECT_EQ(test, s->stats.nr_wakeups, 0);
	KUNIT_EXPECT_EQ(test, s->stats.sum_sleep_runtime, 0);
	KUNIT_EXPECT_EQ(test, s->stats.wait_count, 0);
	KUNIT_EXPECT_EQ(test, b.sched_count, a.sched_count);
	KUNIT_EXPECT_EQ(test, b.ttwu_count, a.ttwu_count);
	sched_set_schedstats(was_on);
}

struct skt_notified {
	struct preempt_notifier pn;
	int ins, outs, bad_cpu;
	struct task_struct *partner;
	int next_partner; /* sched_out calls whose next was the partner */
	int phase; /* 1: registered, 2: unregistered */
	int after; /* calls in phase 2 (must stay 0) */
	int done;
};

static void skt_sched_in(struct preempt_notifier *pn, int cpu)
{
	struct skt_notified *n = container_of(pn, struct skt_notified, pn);

	n->ins++;
	n->bad_cpu += cpu != smp_processor_id();
	n->after += n->phase == 2;
}

static void skt_sched_out(struct preempt_notifier *pn, struct task_struct *next)
{
	struct skt_notified *n = container_of(pn, struct skt_notified, pn);

	n->outs++;
	n->next_partner += next == READ_ONCE(n->partner);
	n->after += n->phase == 2;
}

static struct preempt_ops skt_ops = {
	.sched_in = skt_sched_in,
	.sched_out = skt_sched_out,
};

static int skt_notified_fn(void *data)
{
	struct skt_notified *n = data;
	int i;

	preempt_notifier_init(&n->pn, &skt_ops);
	preempt_notifier_register(&n->pn);
	n->phase = 1;
	for (i = 0; i < SKT_YIELDS; i++)
		yield();
	preempt_notifier_unregister(&n->pn);
	n->phase = 2;
	for (i = 0; i < 10; i++)
		yield();
	WRITE_ONCE(n->done, 1);
	kthread_wait_stop();
	return 0;
}

static int skt_partner_fn(void *data)
{
	struct skt_notified *n = data;

	while (!READ_ONCE(n->done))
		yield();
	kthread_wait_stop();
	return 0;
}

static void skt_run_notified(struct kunit *test, struct skt_notified *n)
{
	unsigned int cpu = smp_processor_id();
	struct task_struct *a, *b;
	int ms;

	a = kthread_create_on_cpu(skt_notified_fn, n, cpu, "skt_notified");
	b = kthread_create_on_cpu(skt_partner_fn, n, cpu, "skt_partner");
	KUNIT_ASSERT_FALSE(test, IS_ERR(a) || IS_ERR(b));
	n->partner = b;
	wake_up_process(b);
	wake_up_process(a);
	for (ms = 0; ms < 5000 && !READ_ONCE(n->done); ms++)
		msleep(1);
	WRITE_ONCE(n->done, 1);
	kthread_stop(a);
	kthread_stop(b);
}

static void skt_test_preempt_notifiers(struct kunit *test)
{
	struct skt_notified *n = kunit_kzalloc(test, sizeof(*n), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, n);
	preempt_notifier_inc();
	skt_run_notified(test, n);
	preempt_notifier_dec();
	KUNIT_EXPECT_GE(test, n->outs, SKT_YIELDS);
	KUNIT_EXPECT_EQ(test, n->ins, n->outs);
	KUNIT_EXPECT_GE(test, n->next_partner, SKT_YIELDS / 2);
	KUNIT_EXPECT_EQ(test, n->bad_cpu, 0);
	KUNIT_EXPECT_EQ(test, n->after, 0);
}

/*
 * With the key off (no preempt_notifier_inc()), registering WARNs, and
 * the switch does not look at the list: no call at all.
 */
static void skt_test_notifier_key_off(struct kunit *test)
{
	struct skt_notified *n = kunit_kzalloc(test, sizeof(*n), GFP_KERNEL);
	unsigned long warns = nr_warnings;

	KUNIT_ASSERT_NOT_NULL(test, n);
	skt_run_notified(test, n);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1);
	KUNIT_EXPECT_EQ(test, n->outs + n->ins, 0);
}

/* The sched tracepoints' arguments, for one task. */
struct skt_seen {
	struct task_struct *task;
	int waking, wakeup, switch_in, switch_out, sleep_out;
};

static void skt_probe_waking(void *data, struct task_struct *p)
{
	struct skt_seen *s = data;

	if (p == READ_ONCE(s->task))
		__atomic_fetch_add(&s->waking, 1, __ATOMIC_RELAXED);
}

static void skt_probe_wakeup(void *data, struct task_struct *p)
{
	struct skt_seen *s = data;

	if (p == READ_ONCE(s->task) && p->state == TASK_RUNNING)
		__atomic_fetch_add(&s->wakeup, 1, __ATOMIC_RELAXED);
}

static void skt_probe_switch(void *data, bool preempt, struct task_struct *prev,
			     struct task_struct *next, unsigned int prev_state)
{
	struct skt_seen *s = data;
	struct task_struct *t = READ_ONCE(s->task);

	if (next == t)
		__atomic_fetch_add(&s->switch_in, 1, __ATOMIC_RELAXED);
	if (prev == t && prev == current) {
		__atomic_fetch_add(&s->switch_out, 1, __ATOMIC_RELAXED);
		if (!preempt && prev_state != TASK_RUNNING)
			__atomic_fetch_add(&s->sleep_out, 1, __ATOMIC_RELAXED);
	}
}

static void skt_test_sched_tracepoints(struct kunit *test)
{
	struct skt_sleeper *sl = kunit_kzalloc(test, sizeof(*sl), GFP_KERNEL);
	struct skt_seen *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	struct task_struct *t;
	int ms;

	KUNIT_ASSERT_NOT_NULL(test, sl);
	KUNIT_ASSERT_NOT_NULL(test, s);
	KUNIT_ASSERT_EQ(test, register_trace_sched_waking(skt_probe_waking, s),
			0);
	KUNIT_ASSERT_EQ(test, register_trace_sched_wakeup(skt_probe_wakeup, s),
			0);
	KUNIT_ASSERT_EQ(test, register_trace_sched_switch(skt_probe_switch, s),
			0);
	t = kthread_create_on_cpu(skt_sleeper_fn, sl, smp_processor_id(),
				  "skt_traced");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	s->task = t;
	wake_up_process(t);
	for (ms = 0; ms < 2000 && !READ_ONCE(sl->done); ms++)
		msleep(1);
	WRITE_ONCE(s->task, NULL);
	kthread_stop(t);
	unregister_trace_sched_switch(skt_probe_switch, s);
	unregister_trace_sched_wakeup(skt_probe_wakeup, s);
	unregister_trace_sched_waking(skt_probe_waking, s);
	tracepoint_synchronize_unregister();
	KUNIT_EXPECT_GE(test, s->waking, SKT_SLEEPS + 1);
	KUNIT_EXPECT_EQ(test, s->wakeup, s->waking);
	KUNIT_EXPECT_GE(test, s->switch_in, SKT_SLEEPS + 1);
	KUNIT_EXPECT_GE(test, s->sleep_out, SKT_SLEEPS);
	KUNIT_EXPECT_GE(test, s->switch_out, s->sleep_out);
}

static struct kunit_case skt_cases[] = { KUNIT_CASE(skt_test_schedstats),
					 KUNIT_CASE(skt_test_preempt_notifiers),
					 KUNIT_CASE(skt_test_notifier_key_off),
					 KUNIT_CASE(skt_test_sched_tracepoints),
					 {} };

static struct kunit_suite skt_suite = {
	.name = "sched_keys",
	.test_cases = skt_cases,
};
kunit_test_suite(skt_suite);
