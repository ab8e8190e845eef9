// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite "workqueue": where and how often items run, pending items
 * queued again, flush and cancel of pending and running items, delayed
 * work against jiffies, and the WARN of an item waiting for itself.
 * Every wait is bounded by a deadline; with one CPU the kworker shares it
 * with the test, which sleeps while it waits.
 */
#include <linux/kernel.h>
#include <linux/bug.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/workqueue.h>
#include <kunit/test.h>

#define WQT_WAIT_MS 5000
#define WQT_SLEEP_MS 50

struct wqt_item {
	struct delayed_work dw; /* .work for the plain cases */
	int runs;
	int cpu;
	bool in_kworker;
	unsigned long ran_at; /* jiffies when it last started */
	int started;
	int release; /* a blocker spins (sleeping) until set */
	int finished;
	unsigned int sleep_ms; /* sleeps this long before it finishes */
};

/* Waits (sleeping) until *v >= want or ms pass: true if it got there. */
static bool wqt_wait_ge(int *v, int want, unsigned int ms)
{
	u64 deadline = ktime_get_ns() + (u64)ms * 1000000;

	while (READ_ONCE(*v) < want) {
		if (ktime_get_ns() > deadline)
			return false;
		msleep(1);
	}
	return true;
}

static void wqt_fn(struct work_struct *work)
{
	struct wqt_item *it = container_of(work, struct wqt_item, dw.work);
	char comm[TASK_COMM_LEN];

	snprintf(comm, sizeof(comm), "kworker/%d", smp_processor_id());
	it->ran_at = jiffies;
	it->cpu = smp_processor_id();
	it->in_kworker = !strcmp(current->comm, comm);
	WRITE_ONCE(it->runs, it->runs + 1);
	WRITE_ONCE(it->started, it->started + 1);
	if (it->sleep_ms)
		msleep(it->sleep_ms);
	wqt_wait_ge(&it->release, 1, WQT_WAIT_MS);
	WRITE_ONCE(it->finished, it->finished + 1);
}

static void wqt_init(struct wqt_item *it, unsigned int sleep_ms, int release)
{
	memset(it, 0, sizeof(*it));
	INIT_DELAYED_WORK(&it->dw, wqt_fn);
	it->sleep_ms = sleep_ms;
	it->release = release;
}

static void wqt_runs_where_asked(struct kunit *test)
{
	static struct wqt_item it;
	unsigned int cpu;

	for_each_online_cpu(cpu) {
		wqt_init(&it, 0, 1);
		KUNIT_EXPECT_TRUE(test,
				  queue_work_on(cpu, system_wq, &it.dw.work));
		KUNIT_ASSERT_TRUE(test,
				  wqt_wait_ge(&it.finished, 1, WQT_WAIT_MS));
		flush_work(&it.dw.work);
		KUNIT_EXPECT_EQ(test, it.runs, 1);
		KUNIT_EXPECT_EQ(test, it.cpu, cpu);
		KUNIT_EXPECT_TRUE(test, it.in_kworker);
	}
	wqt_init(&it, 0, 1);
	KUNIT_EXPECT_TRUE(test, schedule_work(&it.dw.work));
	KUNIT_EXPECT_TRUE(test, wqt_wait_ge(&it.finished, 1, WQT_WAIT_MS));
	KUNIT_EXPECT_TRUE(test, schedule_work(&it.dw.work));
	KUNIT_EXPECT_TRUE(test, wqt_wait_ge(&it.finished, 2, WQT_WAIT_MS));
	flush_work(&it.dw.work);
	KUNIT_EXPECT_EQ(test, it.runs, 2); /* once per queueing */
}

/* A blocker running on cpu's kworker: what is queued there stays pending. */
static void wqt_block(struct kunit *test, struct wqt_item *blk, int cpu)
{
	wqt_init(blk, 0, 0);
	KUNIT_ASSERT_TRUE(test, queue_work_on(cpu, system_wq, &blk->dw.work));
	KUNIT_ASSERT_TRUE(test, wqt_wait_ge(&blk->started, 1, WQT_WAIT_MS));
}

static void wqt_unblock(struct wqt_item *blk)
{
	WRITE_ONCE(blk->release, 1);
	flush_work(&blk->dw.work);
}

static void wqt_requeue_pending(struct kunit *test)
{
	static struct wqt_item blk, it;

	wqt_block(test, &blk, 0);
	wqt_init(&it, 0, 1);
	KUNIT_EXPECT_TRUE(test, queue_work_on(0, system_wq, &it.dw.work));
	KUNIT_EXPECT_TRUE(test, work_pending(&it.dw.work));
	KUNIT_EXPECT_FALSE(test, queue_work_on(0, system_wq, &it.dw.work));
	KUNIT_EXPECT_FALSE(test, schedule_work(&it.dw.work));
	wqt_unblock(&blk);
	flush_work(&it.dw.work); /* may have run already: true or false */
	KUNIT_EXPECT_FALSE(test, work_pending(&it.dw.work));
	KUNIT_EXPECT_EQ(test, it.runs, 1);
	KUNIT_EXPECT_FALSE(test, flush_work(&it.dw.work)); /* nothing left */
}

static void wqt_flush_waits(struct kunit *test)
{
	static struct wqt_item it;

	wqt_init(&it, WQT_SLEEP_MS, 1);
	KUNIT_ASSERT_TRUE(test, schedule_work(&it.dw.work));
	KUNIT_ASSERT_TRUE(test, wqt_wait_ge(&it.started, 1, WQT_WAIT_MS));
	KUNIT_EXPECT_TRUE(test, flush_work(&it.dw.work));
	KUNIT_EXPECT_EQ(test, it.finished, 1);
}

static void wqt_cancel_sync(struct kunit *test)
{
	static struct wqt_item blk, it;

	wqt_block(test, &blk, 0);
	wqt_init(&it, 0, 1);
	KUNIT_EXPECT_TRUE(test, queue_work_on(0, system_wq, &it.dw.work));
	KUNIT_EXPECT_TRUE(test, cancel_work_sync(&it.dw.work));
	KUNIT_EXPECT_FALSE(test, work_pending(&it.dw.work));
	wqt_unblock(&blk);
	KUNIT_EXPECT_FALSE(test, flush_work(&it.dw.work));
	KUNIT_EXPECT_EQ(test, it.runs, 0);

	wqt_init(&it, WQT_SLEEP_MS, 1); /* now a running one */
	KUNIT_ASSERT_TRUE(test, schedule_work(&it.dw.work));
	KUNIT_ASSERT_TRUE(test, wqt_wait_ge(&it.started, 1, WQT_WAIT_MS));
	KUNIT_EXPECT_FALSE(test, cancel_work_sync(&it.dw.work));
	KUNIT_EXPECT_EQ(test, it.finished, 1);
}

static void wqt_delayed_not_early(struct kunit *test)
{
	static struct wqt_item it;
	unsigned long delay = max(HZ / 10, 2), t0;

	wqt_init(&it, 0, 1);
	t0 = jiffies;
	KUNIT_EXPECT_TRUE(test, schedule_delayed_work(&it.dw, delay));
	KUNIT_EXPECT_TRUE(test, delayed_work_pending(&it.dw));
	KUNIT_EXPECT_FALSE(test, schedule_delayed_work(&it.dw, delay));
	KUNIT_ASSERT_TRUE(test, wqt_wait_ge(&it.finished, 1, WQT_WAIT_MS));
	KUNIT_EXPECT_GE(test, (long)(it.ran_at - t0), (long)delay);
	KUNIT_EXPECT_EQ(test, it.runs, 1);
	KUNIT_EXPECT_TRUE(test, it.in_kworker);
}

static void wqt_mod_delayed(struct kunit *test)
{
	static struct wqt_item it;
	unsigned long delay = max(HZ / 5, 4), t1;

	wqt_init(&it, 0, 1);
	KUNIT_EXPECT_TRUE(test, schedule_delayed_work(&it.dw, delay / 2));
	msleep(1000 * (delay / 4) / HZ);
	t1 = jiffies;
	KUNIT_EXPECT_TRUE(test, mod_delayed_work(system_wq, &it.dw, delay));
	KUNIT_ASSERT_TRUE(test, wqt_wait_ge(&it.finished, 1, WQT_WAIT_MS));
	KUNIT_EXPECT_GE(test, (long)(it.ran_at - t1), (long)delay);
	KUNIT_EXPECT_EQ(test, it.runs, 1);
	/* Not pending: mod queues it (0: at once) and says it was not. */
	KUNIT_EXPECT_FALSE(test, mod_delayed_work(system_wq, &it.dw, 0));
	KUNIT_EXPECT_TRUE(test, wqt_wait_ge(&it.finished, 2, WQT_WAIT_MS));
}

static void wqt_cancel_delayed(struct kunit *test)
{
	static struct wqt_item it;
	unsigned long delay = max(HZ / 20, 2);

	wqt_init(&it, 0, 1);
	KUNIT_EXPECT_TRUE(test, schedule_delayed_work(&it.dw, delay));
	KUNIT_EXPECT_TRUE(test, cancel_delayed_work_sync(&it.dw));
	KUNIT_EXPECT_FALSE(test, delayed_work_pending(&it.dw));
	msleep(4 * 1000 * delay / HZ);
	KUNIT_EXPECT_EQ(test, it.runs, 0);
	KUNIT_EXPECT_FALSE(test, cancel_delayed_work_sync(&it.dw));

	KUNIT_EXPECT_TRUE(test, schedule_delayed_work(&it.dw, delay));
	KUNIT_EXPECT_TRUE(test, cancel_delayed_work(&it.dw));
	msleep(4 * 1000 * delay / HZ);
	KUNIT_EXPECT_EQ(test, it.runs, 0);
}

static void wqt_flush_delayed(struct kunit *test)
{
	static struct wqt_item it;
	unsigned long t0;

	wqt_init(&it, 0, 1);
	t0 = jiffies;
	KUNIT_EXPECT_TRUE(test, schedule_delayed_work_on(0, &it.dw, 100 * HZ));
	KUNIT_EXPECT_TRUE(test, flush_delayed_work(&it.dw));
	KUNIT_EXPECT_EQ(test, it.runs, 1);
	KUNIT_EXPECT_EQ(test, it.cpu, 0);
	KUNIT_EXPECT_LT(test, (long)(it.ran_at - t0), (long)(10 * HZ));
	KUNIT_EXPECT_FALSE(test, delayed_work_pending(&it.dw));
	KUNIT_EXPECT_FALSE(test, flush_delayed_work(&it.dw));
}

static int wqt_static_runs;

static void wqt_static_fn(struct work_struct *work)
{
	WRITE_ONCE(wqt_static_runs, wqt_static_runs + 1);
}

static DECLARE_DELAYED_WORK(wqt_static_dw, wqt_static_fn);
static DECLARE_WORK(wqt_static_w, wqt_static_fn);

static void wqt_static(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, schedule_delayed_work(&wqt_static_dw, 2));
	KUNIT_EXPECT_TRUE(test, wqt_wait_ge(&wqt_static_runs, 1, WQT_WAIT_MS));
	KUNIT_EXPECT_TRUE(test, schedule_work(&wqt_static_w));
	KUNIT_EXPECT_TRUE(test, wqt_wait_ge(&wqt_static_runs, 2, WQT_WAIT_MS));
	flush_work(&wqt_static_w);
	KUNIT_EXPECT_EQ(test, to_delayed_work(&wqt_static_dw.work),
			&wqt_static_dw);
}

struct wqt_self {
	struct work_struct work;
	int done;
	bool cancel_ret, flush_ret;
	unsigned long warns;
};

static void wqt_self_fn(struct work_struct *work)
{
	struct wqt_self *s = container_of(work, struct wqt_self, work);
	unsigned long before = nr_warnings;

	s->cancel_ret = cancel_work_sync(work);
	s->flush_ret = flush_work(work);
	s->warns = nr_warnings - before;
	WRITE_ONCE(s->done, 1);
}

static void wqt_self_wait_warns(struct kunit *test)
{
	static struct wqt_self s;

	INIT_WORK(&s.work, wqt_self_fn);
	KUNIT_ASSERT_TRUE(test, schedule_work(&s.work));
	KUNIT_ASSERT_TRUE(test, wqt_wait_ge(&s.done, 1, WQT_WAIT_MS));
	flush_work(&s.work);
	KUNIT_EXPECT_FALSE(test, s.cancel_ret);
	KUNIT_EXPECT_FALSE(test, s.flush_ret);
	KUNIT_EXPECT_EQ(test, s.warns, 1); /* once, for both */
}

static struct kunit_case workqueue_test_cases[] = {
	KUNIT_CASE(wqt_runs_where_asked),
	KUNIT_CASE(wqt_requeue_pending),
	KUNIT_CASE(wqt_flush_waits),
	KUNIT_CASE(wqt_cancel_sync),
	KUNIT_CASE(wqt_delayed_not_early),
	KUNIT_CASE(wqt_mod_delayed),
	KUNIT_CASE(wqt_cancel_delayed),
	KUNIT_CASE(wqt_flush_delayed),
	KUNIT_CASE(wqt_static),
	KUNIT_CASE(wqt_self_wait_warns),
	{}
};

static struct kunit_suite workqueue_test_suite = {
	.name = "workqueue",
	.test_cases = workqueue_test_cases,
};
kunit_test_suite(workqueue_test_suite);
