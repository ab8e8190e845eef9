// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite "rcu": synchronize_rcu() waits for a reader that began
 * before it and not for later ones, a pointer swap + synchronize + free
 * under readers on every CPU, call_rcu() order, rcu_barrier(),
 * kfree_rcu(), nesting, synchronize_rcu() inside a reader, idle CPUs
 * reported for without an IPI and a reader in an interrupt that woke an
 * idle CPU waited for. Every wait
 * is bounded: synchronize_rcu() and rcu_barrier() run in a helper thread
 * that the case waits for with a deadline (a thread stuck past it is
 * left behind and the case fails).
 */
#include <linux/kernel.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/timer.h>
#include <kunit/test.h>

#define RT_WAIT_MS 3000
#define RT_READER_MS 50
#define RT_SWAPS 2000
#define RT_SWAP_BUDGET_MS 2500
#define RT_CBS 16
#define RT_CANARY 0x5ca1ab1eUL

static u64 rt_deadline(unsigned int ms)
{
	return ktime_get_ns() + (u64)ms * 1000000;
}

/* Waits (yielding) until *v == want or ms pass: true if it got there. */
/* A call in its own thread, so that the case can wait with a deadline. */
struct rt_call {
	void (*fn)(void);
	struct completion done;
	u64 ns; /* how long fn took */
};

static int rt_call_fn(void *data)
{
	struct rt_call *c = data;
	u64 t0 = ktime_get_ns();

	c->fn();
	c->ns = ktime_get_ns() - t0;
	complete(&c->done);
	kthread_wait_stop(); /* kthread_stop() must find the thread alive */
	return 0;
}

/* Starts fn on cpu; rt_call_wait() collects it. */
static struct task_struct *rt_call_start(struct rt_call *c, void (*fn)(void),
					 unsigned int cpu)
{
	c->fn = fn;
	init_completion(&c->done);
	return kthread_run_on_cpu(rt_call_fn, c, cpu, "rcu_test_call");
}

/* True if fn returned within ms; then the thread is stopped. */
static bool rt_call_wait(struct task_struct *t, struct rt_call *c,
			 unsigned int ms)
{
	if (!wait_for_completion_timeout(&c->done, msecs_to_jiffies(ms)) &&
	    !completion_done(&c->done))
		return false; /* left behind */
	kthread_stop(t);
	return true;
}

/* A static call: the struct must outlive a thread left behind. */
static bool rt_call_bounded(void (*fn)(void), unsigned int ms)
{
	static struct rt_call c;
	struct task_struct *t = rt_call_start(&c, fn, smp_processor_id());

	if (IS_ERR(t))
		return false;
	return rt_call_wait(t, &c, ms);
}

static unsigned int rt_other_cpu(void)
{
	unsigned int cpu;

	for_each_online_cpu(cpu)
		if (cpu != smp_processor_id())
			return cpu;
	return smp_processor_id();
}

static int rt_in_reader, rt_reader_done;

/* One reader section of RT_READER_MS, flagged on both sides. */
static int rt_long_reader(void *unused)
{
	rcu_read_lock();
	WRITE_ONCE(rt_in_reader, 1);
	mdelay(RT_READER_MS);
	WRITE_ONCE(rt_reader_done, 1);
	rcu_read_unlock();
	while (!kthread_should_stop())
		msleep(1);
	return 0;
}

/* Once a reader has started: synchronize_rcu() returns after its end. */
static void rt_expect_sync_waits(struct kunit *test)
{
	bool ok;

	KUNIT_EXPECT_TRUE(test, kunit_wait_eq(&rt_in_reader, 1, RT_WAIT_MS));
	ok = rt_call_bounded(synchronize_rcu, RT_WAIT_MS);
	KUNIT_EXPECT_TRUE(test, ok);
	/* synchronize_rcu() returned: the reader must have unlocked. */
	if (ok)
		KUNIT_EXPECT_EQ(test, READ_ONCE(rt_reader_done), 1);
	kunit_wait_eq(&rt_reader_done, 1, RT_WAIT_MS);
}

static void rcu_test_waits_for_reader(struct kunit *test)
{
	struct task_struct *r;

	rt_in_reader = rt_reader_done = 0;
	r = kthread_run_on_cpu(rt_long_reader, NULL, rt_other_cpu(),
			       "rcu_reader");
	KUNIT_ASSERT_FALSE(test, IS_ERR(r));
	rt_expect_sync_waits(test);
	kthread_stop(r);
}

/* Back-to-back short sections until stopped or a second passes. */
static int rt_short_readers(void *unused)
{
	u64 deadline = rt_deadline(1000);

	WRITE_ONCE(rt_in_reader, 1);
	while (!READ_ONCE(rt_reader_done) && ktime_get_ns() < deadline) {
		rcu_read_lock();
		mdelay(5);
		rcu_read_unlock();
	}
	WRITE_ONCE(rt_in_reader, 2);
	while (!kthread_should_stop())
		msleep(1);
	return 0;
}

static void rcu_test_no_wait_for_later_readers(struct kunit *test)
{
	struct task_struct *r;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs a second CPU for the readers");
	rt_in_reader = rt_reader_done = 0;
	r = kthread_run_on_cpu(rt_short_readers, NULL, rt_other_cpu(),
			       "rcu_readers");
	KUNIT_ASSERT_FALSE(test, IS_ERR(r));
	KUNIT_EXPECT_TRUE(test, kunit_wait_eq(&rt_in_reader, 1, RT_WAIT_MS));
	KUNIT_EXPECT_TRUE(test, rt_call_bounded(synchronize_rcu, RT_WAIT_MS));
	/* Returned while new sections kept starting on the reader's CPU. */
	KUNIT_EXPECT_EQ(test, READ_ONCE(rt_in_reader), 1);
	WRITE_ONCE(rt_reader_done, 1);
	kthread_stop(r);
}

struct rt_obj {
	unsigned long canary;
	struct rcu_head rh;
};

static struct rt_obj *rt_ptr;
static unsigned long rt_bad_reads, rt_reads, rt_swaps;

static int rt_canary_reader(void *unused)
{
	struct rt_obj *p;
	int i, n = 0;

	while (!kthread_should_stop()) {
		rcu_read_lock();
		p = rcu_dereference(rt_ptr);
		for (i = 0; p && i < 16; i++)
			if (READ_ONCE(p->canary) != RT_CANARY)
				__atomic_add_fetch(&rt_bad_reads, 1,
						   __ATOMIC_RELAXED);
		rcu_read_unlock();
		__atomic_add_fetch(&rt_reads, 1, __ATOMIC_RELAXED);
		if (++n % 256)
			yield();
		else
			msleep(1); /* idle CPUs too, and less host load */
	}
	return 0;
}

/* Swap, wait, poison, free: RT_SWAPS times or until the budget ends. */
static void rt_swapper(void)
{
	u64 deadline = rt_deadline(RT_SWAP_BUDGET_MS);
	struct rt_obj *n, *old;

	for (rt_swaps = 0; rt_swaps < RT_SWAPS; rt_swaps++) {
		if (ktime_get_ns() > deadline)
			break;
		n = kmalloc(sizeof(*n), GFP_KERNEL);
		if (!n)
			break;
		n->canary = RT_CANARY;
		old = rcu_dereference_protected(rt_ptr, 1);
		rcu_assign_pointer(rt_ptr, n);
		synchronize_rcu();
		if (old) {
			memset(old, 0x6b, sizeof(*old));
			kfree(old);
		}
	}
}

static void rt_stop_all(struct task_struct **t, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (t[i] && !IS_ERR(t[i]))
			kthread_stop(t[i]);
}

static void rcu_test_swap_free(struct kunit *test)
{
	struct task_struct *t[NR_CPUS] = {};
	unsigned long gp0 = rcu_get_stats().gp_completed;
	unsigned int cpu;
	bool ok;

	rt_bad_reads = rt_reads = 0;
	for_each_online_cpu(cpu) {
		t[cpu] = kthread_create(rt_canary_reader, NULL, "rcu_canary/%u",
					cpu);
		KUNIT_EXPECT_FALSE(test, IS_ERR(t[cpu]));
		if (!IS_ERR(t[cpu])) {
			kthread_bind(t[cpu], cpu);
			wake_up_process(t[cpu]);
		}
	}
	ok = rt_call_bounded(rt_swapper, RT_SWAP_BUDGET_MS + RT_WAIT_MS);
	KUNIT_EXPECT_TRUE(test, ok);
	rt_stop_all(t, NR_CPUS);
	pr_info("rcu_test: %lu swaps, %lu reads, %lu grace periods\n", rt_swaps,
		rt_reads, rcu_get_stats().gp_completed - gp0);
	KUNIT_EXPECT_EQ(test, rt_bad_reads, 0UL);
	KUNIT_EXPECT_GE(test, rt_swaps, 100UL);
	KUNIT_EXPECT_GT(test, rt_reads, 0UL);
	if (ok) {
		kfree(rt_ptr);
		rt_ptr = NULL;
	}
}

static struct rcu_head rt_heads[RT_CBS];
static int rt_order[RT_CBS], rt_saw_done[RT_CBS], rt_nr_run;
static DECLARE_COMPLETION(rt_cbs_done);

static void rt_ordered_cb(struct rcu_head *head)
{
	int i = head - rt_heads;

	rt_order[rt_nr_run] = i;
	rt_saw_done[i] = READ_ONCE(rt_reader_done);
	if (++rt_nr_run == RT_CBS)
		complete(&rt_cbs_done);
}

/* Queued while a reader runs on another CPU: they wait for it, in order. */
static void rcu_test_call_rcu_order(struct kunit *test)
{
	unsigned long gp0 = rcu_get_stats().gp_completed;
	struct task_struct *r;
	int i;

	rt_in_reader = rt_reader_done = rt_nr_run = 0;
	reinit_completion(&rt_cbs_done);
	r = kthread_run_on_cpu(rt_long_reader, NULL, rt_other_cpu(),
			       "rcu_reader");
	KUNIT_ASSERT_FALSE(test, IS_ERR(r));
	KUNIT_EXPECT_TRUE(test, kunit_wait_eq(&rt_in_reader, 1, RT_WAIT_MS));
	for (i = 0; i < RT_CBS; i++)
		call_rcu(&rt_heads[i], rt_ordered_cb);
	KUNIT_EXPECT_TRUE(test,
			  wait_for_completion_timeout(
				  &rt_cbs_done, msecs_to_jiffies(RT_WAIT_MS)));
	kunit_wait_eq(&rt_reader_done, 1, RT_WAIT_MS);
	kthread_stop(r);
	KUNIT_ASSERT_EQ(test, READ_ONCE(rt_nr_run), RT_CBS);
	for (i = 0; i < RT_CBS; i++) {
		KUNIT_EXPECT_EQ(test, rt_order[i], i);
		KUNIT_EXPECT_EQ(test, rt_saw_done[i], 1);
	}
	KUNIT_EXPECT_GT(test, rcu_get_stats().gp_completed, gp0);
}

static int rt_barrier_count;

static void rt_count_cb(struct rcu_head *head)
{
	WRITE_ONCE(rt_barrier_count, rt_barrier_count + 1);
}

static void rcu_test_barrier(struct kunit *test)
{
	unsigned long inv0 = rcu_get_stats().cbs_invoked;
	int i;

	rt_barrier_count = 0;
	for (i = 0; i < RT_CBS; i++)
		call_rcu(&rt_heads[i], rt_count_cb);
	KUNIT_EXPECT_TRUE(test, rt_call_bounded(rcu_barrier, RT_WAIT_MS));
	KUNIT_EXPECT_EQ(test, READ_ONCE(rt_barrier_count), RT_CBS);
	KUNIT_EXPECT_GE(test, rcu_get_stats().cbs_invoked - inv0,
			(unsigned long)RT_CBS);
}

static void rcu_test_kfree_rcu(struct kunit *test)
{
	unsigned long kf0 = rcu_get_stats().kfrees;
	struct rt_obj *o;
	int i, queued = 0;

	for (i = 0; i < RT_CBS; i++) {
		o = kmalloc(sizeof(*o), GFP_KERNEL);
		if (!o)
			continue;
		o->canary = RT_CANARY;
		kfree_rcu(o, rh);
		queued++;
	}
	KUNIT_EXPECT_EQ(test, queued, RT_CBS);
	KUNIT_EXPECT_TRUE(test, rt_call_bounded(rcu_barrier, RT_WAIT_MS));
	KUNIT_EXPECT_EQ(test, rcu_get_stats().kfrees - kf0,
			(unsigned long)queued);
}

static int rt_nest_flag;

static void rt_flag_cb(struct rcu_head *head)
{
	WRITE_ONCE(rt_nest_flag, 1);
}

/* A grace period cannot end while this CPU is in a nested reader. */
static void rcu_test_nesting(struct kunit *test)
{
	int pc = preempt_count();

	rt_nest_flag = 0;
	KUNIT_EXPECT_FALSE(test, rcu_read_lock_held());
	rcu_read_lock();
	rcu_read_lock();
	KUNIT_EXPECT_EQ(test, preempt_count(), pc + 2);
	KUNIT_EXPECT_TRUE(test, rcu_read_lock_held());
	call_rcu(&rt_heads[0], rt_flag_cb);
	mdelay(20);
	KUNIT_EXPECT_EQ(test, READ_ONCE(rt_nest_flag), 0);
	rcu_read_unlock();
	mdelay(20);
	KUNIT_EXPECT_EQ(test, READ_ONCE(rt_nest_flag), 0);
	KUNIT_EXPECT_TRUE(test, rcu_read_lock_held());
	rcu_read_unlock();
	KUNIT_EXPECT_EQ(test, preempt_count(), pc);
	KUNIT_EXPECT_FALSE(test, rcu_read_lock_held());
	KUNIT_EXPECT_TRUE(test, kunit_wait_eq(&rt_nest_flag, 1, RT_WAIT_MS));
}

/*
 * A CPU idle or in user mode runs no reader: a grace period reports for
 * it (an extended quiescent state) instead of interrupting it. The other
 * CPUs are idle here but for their ticks, so of RT_EQS_GPS grace periods
 * most end without an IPI round, and some report for a CPU.
 */
#define RT_EQS_GPS 20

static void rcu_test_idle_cpus_not_interrupted(struct kunit *test)
{
	struct rcu_stats s0, s1;
	int i;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs a second CPU, idle");
	s0 = rcu_get_stats();
	for (i = 0; i < RT_EQS_GPS; i++)
		synchronize_rcu();
	s1 = rcu_get_stats();
	KUNIT_EXPECT_GE(test, s1.gp_completed - s0.gp_completed,
			(unsigned long)RT_EQS_GPS);
	KUNIT_EXPECT_GT(test, s1.eqs_reports - s0.eqs_reports, 0UL);
	KUNIT_EXPECT_LT(test, s1.fqs_ipis - s0.fqs_ipis,
			(unsigned long)RT_EQS_GPS / 2);
}

/*
 * But an interrupt that wakes an idle CPU marks it in the kernel before
 * its handler can read: a grace period waits for a reader in a timer
 * callback that runs on a CPU that was idle.
 */
static struct timer_list rt_timer;

static void rt_timer_reader(struct timer_list *t)
{
	rcu_read_lock();
	WRITE_ONCE(rt_in_reader, 1);
	mdelay(RT_READER_MS);
	WRITE_ONCE(rt_reader_done, 1);
	rcu_read_unlock();
}

static void rcu_test_waits_for_reader_from_idle(struct kunit *test)
{
	if (num_online_cpus() < 2)
		kunit_skip(test, "needs a second CPU, idle");
	rt_in_reader = rt_reader_done = 0;
	timer_setup(&rt_timer, rt_timer_reader, 0);
	rt_timer.expires = jiffies + 2;
	add_timer_on(&rt_timer, rt_other_cpu());
	rt_expect_sync_waits(test);
	del_timer_sync(&rt_timer);
}

/* Would deadlock: WARNs once, names the caller, returns. */
static void rcu_test_sync_in_reader_warns(struct kunit *test)
{
	unsigned long warns = nr_warnings;

	rcu_read_lock();
	synchronize_rcu();
	synchronize_rcu();
	rcu_read_unlock();
	KUNIT_EXPECT_EQ(test, nr_warnings - warns, 1UL);
}

static struct kunit_case rcu_test_cases[] = {
	KUNIT_CASE(rcu_test_waits_for_reader),
	KUNIT_CASE(rcu_test_no_wait_for_later_readers),
	KUNIT_CASE(rcu_test_swap_free),
	KUNIT_CASE(rcu_test_call_rcu_order),
	KUNIT_CASE(rcu_test_barrier),
	KUNIT_CASE(rcu_test_kfree_rcu),
	KUNIT_CASE(rcu_test_nesting),
	KUNIT_CASE(rcu_test_sync_in_reader_warns),
	KUNIT_CASE(rcu_test_idle_cpus_not_interrupted),
	KUNIT_CASE(rcu_test_waits_for_reader_from_idle),
	{}
};

static struct kunit_suite rcu_test_suite = {
	.name = "rcu",
	.test_cases = rcu_test_cases,
};
kunit_test_suite(rcu_test_suite);
