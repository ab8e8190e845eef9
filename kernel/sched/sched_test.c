// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite "sched": kthreads (run, bind, stop, park, misuse), yield,
 * preemption by the tick and preempt_disable(), sleeping and waking (no
 * lost wake-ups across CPUs), the preempt count under spinlocks and the
 * stacks of stopped threads. Every wait on another thread is bounded by a
 * deadline; a case fails rather than hang. With one CPU the threads share
 * it with the test, which yields while it waits.
 */
#include <linux/kernel.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include <linux/tick.h>
#include <linux/timekeeping.h>
#include <linux/wait.h>
#include <kunit/test.h>

#define ST_WAIT_MS 2000
#define ST_RACE_ROUNDS 5000
#define ST_YIELDS 200
#define ST_THREADS 100

static u64 st_deadline(unsigned int ms)
{
	return ktime_get_ns() + (u64)ms * 1000000;
}

static bool st_expired(u64 deadline)
{
	return ktime_get_ns() > deadline;
}

/* Waits (yielding) until *v == want or ms pass: true if it got there. */
/* The CPU threads run on in the cases that want another one than ours. */
static unsigned int st_other_cpu(void)
{
	return num_online_cpus() > 1 ? 1 : 0;
}

struct st_bound {
	int cpu_seen;
	int started;
	int saw_stop;
};

static int st_bound_fn(void *data)
{
	struct st_bound *b = data;

	WRITE_ONCE(b->cpu_seen, smp_processor_id());
	WRITE_ONCE(b->started, 1);
	kthread_wait_stop();
	b->saw_stop = kthread_should_stop();
	return 1000 + smp_processor_id();
}

static void sched_test_kthread_bound_stop(struct kunit *test)
{
	unsigned int cpu;

	for_each_online_cpu(cpu) {
		struct st_bound b = { .cpu_seen = -1 };
		struct task_struct *t;

		t = kthread_create(st_bound_fn, &b, "st_bound/%u", cpu);
		KUNIT_ASSERT_FALSE(test, IS_ERR(t));
		KUNIT_EXPECT_EQ(test, t->comm[0], 's');
		kthread_bind(t, cpu);
		wake_up_process(t);
		KUNIT_EXPECT_TRUE(test, kunit_wait_eq(&b.started, 1, ST_WAIT_MS));
		KUNIT_EXPECT_EQ(test, kthread_stop(t), 1000 + (int)cpu);
		KUNIT_EXPECT_EQ(test, b.cpu_seen, (int)cpu);
		KUNIT_EXPECT_EQ(test, b.saw_stop, 1);
	}
}

static int st_never_fn(void *data)
{
	WRITE_ONCE(*(int *)data, 1);
	return 0;
}

/* Stopped before it ever ran: threadfn is not called, -EINTR. */
static void sched_test_kthread_stop_unstarted(struct kunit *test)
{
	int ran = 0;
	struct task_struct *t = kthread_create(st_never_fn, &ran, "st_never");

	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	KUNIT_EXPECT_EQ(test, kthread_stop(t), -EINTR);
	KUNIT_EXPECT_EQ(test, ran, 0);
}

static int st_early_fn(void *data)
{
	WRITE_ONCE(*(int *)data, 1);
	return 7;
}

static void sched_test_kthread_stop_finished_warns(struct kunit *test)
{
	int ran = 0;
	struct task_struct *t = kthread_run(st_early_fn, &ran, "st_early");
	unsigned long warns;
	u64 deadline = st_deadline(ST_WAIT_MS);

	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	while ((READ_ONCE(t->state) != TASK_DEAD || READ_ONCE(t->on_cpu)) &&
	       !st_expired(deadline))
		yield();
	KUNIT_EXPECT_EQ(test, ran, 1);
	warns = nr_warnings;
	KUNIT_EXPECT_EQ(test, kthread_stop(t), 7);
	KUNIT_EXPECT_EQ(test, nr_warnings - warns, 1);
}

struct st_park {
	int count;
};

static int st_park_fn(void *data)
{
	struct st_park *p = data;

	while (!kthread_should_stop()) {
		if (kthread_should_park())
			kthread_parkme();
		WRITE_ONCE(p->count, p->count + 1);
		yield();
	}
	return 0;
}

static void sched_test_kthread_park(struct kunit *test)
{
	struct st_park p = { 0 };
	struct task_struct *t = kthread_create(st_park_fn, &p, "st_park");
	u64 deadline;
	int c;

	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	kthread_bind(t, st_other_cpu());
	wake_up_process(t);
	deadline = st_deadline(ST_WAIT_MS);
	while (!READ_ONCE(p.count) && !st_expired(deadline))
		yield();
	KUNIT_EXPECT_GT(test, READ_ONCE(p.count), 0);
	KUNIT_EXPECT_EQ(test, kthread_park(t), 0);
	c = READ_ONCE(p.count);
	deadline = st_deadline(20);
	while (!st_expired(deadline))
		yield();
	KUNIT_EXPECT_EQ(test, READ_ONCE(p.count), c); /* parked: no progress */
	kthread_unpark(t);
	deadline = st_deadline(ST_WAIT_MS);
	while (READ_ONCE(p.count) == c && !st_expired(deadline))
		yield();
	KUNIT_EXPECT_GT(test, READ_ONCE(p.count), c);
	KUNIT_EXPECT_EQ(test, kthread_stop(t), 0);
}

struct st_yield {
	int log[2 * ST_YIELDS];
	int pos;
	int ready; /* both threads are on the queue: take turns from here */
	int done;
};

static struct st_yield st_yield_log;

static int st_yield_fn(void *data)
{
	int id = (long)data, i;
	u64 deadline = st_deadline(ST_WAIT_MS);

	/* The second may be woken late (a loaded host): wait for it. */
	__atomic_fetch_add(&st_yield_log.ready, 1, __ATOMIC_SEQ_CST);
	while (READ_ONCE(st_yield_log.ready) < 2 && !st_expired(deadline))
		yield();
	for (i = 0; i < ST_YIELDS; i++) {
		int pos = __atomic_fetch_add(&st_yield_log.pos, 1,
					     __ATOMIC_RELAXED);

		st_yield_log.log[pos] = id;
		yield();
	}
	__atomic_fetch_add(&st_yield_log.done, 1, __ATOMIC_RELAXED);
	kthread_wait_stop();
	return 0;
}

/* Two threads on one CPU yielding to each other take turns. */
static void sched_test_yield_alternates(struct kunit *test)
{
	unsigned int cpu = st_other_cpu();
	struct task_struct *a, *b;
	unsigned long switches;
	int i, turns = 0;

	memset(&st_yield_log, 0, sizeof(st_yield_log));
	a = kthread_create(st_yield_fn, (void *)1L, "st_yield_a");
	b = kthread_create(st_yield_fn, (void *)2L, "st_yield_b");
	KUNIT_ASSERT_FALSE(test, IS_ERR(a) || IS_ERR(b));
	kthread_bind(a, cpu);
	kthread_bind(b, cpu);
	switches = sched_cpu_stats(cpu).switches;
	wake_up_process(a);
	wake_up_process(b);
	KUNIT_EXPECT_TRUE(test, kunit_wait_eq(&st_yield_log.done, 2, ST_WAIT_MS));
	for (i = 1; i < 2 * ST_YIELDS; i++)
		turns += st_yield_log.log[i] != st_yield_log.log[i - 1];
	/* A tick may preempt one between its log entry and its yield. */
	KUNIT_EXPECT_GE(test, turns, 2 * ST_YIELDS - 1 - 8);
	KUNIT_EXPECT_GE(test, sched_cpu_stats(cpu).switches - switches,
			2UL * ST_YIELDS - 8);
	kthread_stop(a);
	kthread_stop(b);
}

struct st_busy {
	int other_ran;
	int ran_while_disabled;
	int preempted_in_time;
	int done;
	unsigned int disable_ms; /* preempt_disable() for the first ms */
};

static int st_busy_fn(void *data)
{
	struct st_busy *s = data;
	u64 deadline;

	if (s->disable_ms) {
		preempt_disable();
		deadline = st_deadline(s->disable_ms);
		while (!st_expired(deadline))
			cpu_relax();
		WRITE_ONCE(s->ran_while_disabled, READ_ONCE(s->other_ran));
		preempt_enable();
	}
	/* Never yields: only the tick can let the other thread run. */
	deadline = st_deadline(ST_WAIT_MS);
	while (!READ_ONCE(s->other_ran) && !st_expired(deadline))
		cpu_relax();
	WRITE_ONCE(s->preempted_in_time, READ_ONCE(s->other_ran));
	WRITE_ONCE(s->done, 1);
	kthread_wait_stop();
	return 0;
}

static int st_other_fn(void *data)
{
	struct st_busy *s = data;

	WRITE_ONCE(s->other_ran, 1);
	kthread_wait_stop();
	return 0;
}

static void st_busy_run(struct kunit *test, struct st_busy *s)
{
	unsigned int cpu = st_other_cpu();
	unsigned long preemptions = sched_cpu_stats(cpu).preemptions;
	struct task_struct *busy, *other;

	if (!tick_enabled())
		kunit_skip(test, "needs the tick (tick=off)");
	busy = kthread_create(st_busy_fn, s, "st_busy");
	other = kthread_create(st_other_fn, s, "st_other");
	KUNIT_ASSERT_FALSE(test, IS_ERR(busy) || IS_ERR(other));
	kthread_bind(busy, cpu);
	kthread_bind(other, cpu);
	wake_up_process(busy);
	/* busy runs first if its CPU is another one: wait for that. */
	if (cpu != smp_processor_id()) {
		u64 deadline = st_deadline(ST_WAIT_MS);

		while (!READ_ONCE(busy->on_cpu) && !st_expired(deadline))
			cpu_relax();
	}
	wake_up_process(other);
	KUNIT_EXPECT_TRUE(test, kunit_wait_eq(&s->done, 1, 2 * ST_WAIT_MS));
	KUNIT_EXPECT_EQ(test, s->preempted_in_time, 1);
	KUNIT_EXPECT_GT(test, sched_cpu_stats(cpu).preemptions, preemptions);
	kthread_stop(busy);
	kthread_stop(other);
}

static void sched_test_tick_preempts(struct kunit *test)
{
	struct st_busy s = { 0 };

	st_busy_run(test, &s);
}

static void sched_test_preempt_disable_holds(struct kunit *test)
{
	struct st_busy s = { .disable_ms = 50 };

	st_busy_run(test, &s);
	KUNIT_EXPECT_EQ(test, s.ran_while_disabled, 0);
}

struct st_sleep {
	int armed;
	int woke;
};

static int st_sleep_fn(void *data)
{
	struct st_sleep *s = data;

	set_current_state(TASK_UNINTERRUPTIBLE);
	WRITE_ONCE(s->armed, 1);
	schedule();
	WRITE_ONCE(s->woke, 1);
	kthread_wait_stop();
	return 0;
}

static void sched_test_sleep_until_woken(struct kunit *test)
{
	struct st_sleep s = { 0 };
	struct task_struct *t = kthread_create(st_sleep_fn, &s, "st_sleep");
	u64 deadline;

	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	kthread_bind(t, st_other_cpu());
	wake_up_process(t);
	KUNIT_EXPECT_TRUE(test, kunit_wait_eq(&s.armed, 1, ST_WAIT_MS));
	deadline = st_deadline(20);
	while (!st_expired(deadline))
		yield();
	KUNIT_EXPECT_EQ(test, READ_ONCE(s.woke), 0);
	KUNIT_EXPECT_EQ(test, READ_ONCE(t->on_rq), 0);
	KUNIT_EXPECT_TRUE(test, wake_up_process(t));
	KUNIT_EXPECT_TRUE(test, kunit_wait_eq(&s.woke, 1, ST_WAIT_MS));
	kthread_stop(t);
}

struct st_race {
	int seq; /* rounds the waker has started */
	int ack; /* rounds the sleeper has seen */
};

static int st_race_fn(void *data)
{
	struct st_race *r = data;
	int round;

	for (round = 1; round <= ST_RACE_ROUNDS; round++) {
		for (;;) {
			set_current_state(TASK_UNINTERRUPTIBLE);
			if (READ_ONCE(r->seq) >= round)
				break;
			schedule();
		}
		__set_current_state(TASK_RUNNING);
		WRITE_ONCE(r->ack, round);
	}
	kthread_wait_stop();
	return 0;
}

/* Every wake-up, even one landing before the sleeper's schedule(), counts. */
static void sched_test_no_lost_wakeups(struct kunit *test)
{
	struct st_race r = { 0 };
	struct task_struct *t = kthread_create(st_race_fn, &r, "st_race");
	int round;

	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	kthread_bind(t, st_other_cpu());
	wake_up_process(t);
	for (round = 1; round <= ST_RACE_ROUNDS; round++) {
		WRITE_ONCE(r.seq, round);
		wake_up_process(t);
		if (!kunit_wait_eq(&r.ack, round, ST_WAIT_MS)) {
			KUNIT_FAIL(test, "round %d: the sleeper was not woken",
				   round);
			WRITE_ONCE(r.seq, ST_RACE_ROUNDS);
			break;
		}
	}
	/* Unstick it whatever happened, so that it can be stopped. */
	while (READ_ONCE(r.ack) < ST_RACE_ROUNDS) {
		WRITE_ONCE(r.seq, ST_RACE_ROUNDS);
		wake_up_process(t);
		yield();
	}
	kthread_stop(t);
}

static void sched_test_spinlock_preempt_count(struct kunit *test)
{
	static DEFINE_SPINLOCK(lock);
	static DEFINE_MUTEX(st_mutex);
	int base = preempt_count();
	unsigned long flags;

	KUNIT_EXPECT_EQ(test, base, 0);
	KUNIT_EXPECT_TRUE(test, preemptible());
	spin_lock(&lock);
	KUNIT_EXPECT_EQ(test, preempt_count(), base + 1);
	KUNIT_EXPECT_TRUE(test, in_atomic());
	KUNIT_EXPECT_FALSE(test, preemptible());
	spin_unlock(&lock);
	KUNIT_EXPECT_EQ(test, preempt_count(), base);
	spin_lock_irqsave(&lock, flags);
	KUNIT_EXPECT_EQ(test, preempt_count(), base + 1);
	spin_unlock_irqrestore(&lock, flags);
	mutex_lock(&st_mutex); /* a sleeping lock: still preemptible */
	KUNIT_EXPECT_EQ(test, preempt_count(), base);
	KUNIT_EXPECT_TRUE(test, preemptible());
	mutex_unlock(&st_mutex);
	preempt_disable();
	preempt_disable();
	KUNIT_EXPECT_EQ(test, preempt_count(), base + 2);
	preempt_enable();
	preempt_enable();
	KUNIT_EXPECT_EQ(test, preempt_count(), base);
	KUNIT_EXPECT_FALSE(test, in_interrupt());
}

static int st_quick_fn(void *data)
{
	kthread_wait_stop();
	return 0;
}

static void st_create_stop(struct kunit *test, struct task_struct **t, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		t[i] = kthread_run(st_quick_fn, NULL, "st_quick/%d", i);
		KUNIT_ASSERT_FALSE(test, IS_ERR(t[i]));
	}
	/* Those not run yet never will: threadfn is skipped, -EINTR. */
	for (i = 0; i < n; i++) {
		int ret = kthread_stop(t[i]);

		KUNIT_EXPECT_TRUE(test, ret == 0 || ret == -EINTR);
	}
}

/* 100 threads created and stopped give back every stack frame. */
static void sched_test_no_stack_leak(struct kunit *test)
{
	struct task_struct **t =
		kunit_kzalloc(test, ST_THREADS * sizeof(*t), GFP_KERNEL);
	unsigned long frames, stacks;
	u64 deadline;

	KUNIT_ASSERT_NOT_NULL(test, t);
	st_create_stop(test, t, ST_THREADS); /* page tables, slab: warm */
	task_reap_dead();
	frames = nr_free_frames();
	stacks = nr_task_stacks();
	st_create_stop(test, t, ST_THREADS);
	KUNIT_EXPECT_EQ(test, nr_task_stacks(), stacks);
	deadline = st_deadline(ST_WAIT_MS);
	while (nr_free_frames() != frames && !st_expired(deadline)) {
		task_reap_dead();
		yield();
	}
	KUNIT_EXPECT_EQ(test, nr_free_frames(), frames);
}

struct st_wq {
	struct wait_queue_head wq;
	struct completion started, done;
	int flag;
};

static int st_wq_fn(void *data)
{
	struct st_wq *s = data;

	complete(&s->started);
	wait_event(s->wq, READ_ONCE(s->flag));
	msleep(5);
	complete(&s->done);
	kthread_wait_stop();
	return 0;
}

/* wait_event() sleeps until wake_up(); completions cross CPUs. */
static void sched_test_wait_event_completion(struct kunit *test)
{
	struct st_wq s = { .flag = 0 };
	struct task_struct *t;

	if (!tick_enabled())
		kunit_skip(test, "needs the tick (tick=off)");
	init_waitqueue_head(&s.wq);
	init_completion(&s.started);
	init_completion(&s.done);
	t = kthread_run_on_cpu(st_wq_fn, &s, st_other_cpu(), "st_wq");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	KUNIT_EXPECT_GT(test, wait_for_completion_timeout(&s.started, HZ), 0UL);
	msleep(10);
	KUNIT_EXPECT_FALSE(test, completion_done(&s.done));
	WRITE_ONCE(s.flag, 1);
	wake_up(&s.wq);
	KUNIT_EXPECT_GT(test, wait_for_completion_timeout(&s.done, 2 * HZ),
			0UL);
	kthread_stop(t);
}

/* Two waiters of one completion, for complete_all(). */
struct st_all {
	struct completion go;
	atomic_t through;
};

static int st_all_fn(void *arg)
{
	struct st_all *s = arg;

	wait_for_completion(&s->go);
	atomic_inc(&s->through);
	while (!kthread_should_stop())
		msleep(1);
	return 0;
}

/*
 * complete_all() lets every waiter through, and every later wait, until
 * reinit_completion().
 */
static void sched_test_complete_all(struct kunit *test)
{
	struct st_all s = { .through = ATOMIC_INIT(0) };
	struct task_struct *t[2];
	unsigned long until;
	int i;

	if (!tick_enabled())
		kunit_skip(test, "needs the tick (tick=off)");
	init_completion(&s.go);
	for (i = 0; i < ARRAY_SIZE(t); i++) {
		t[i] = kthread_run(st_all_fn, &s, "st_all/%d", i);
		KUNIT_ASSERT_FALSE(test, IS_ERR(t[i]));
	}
	msleep(10);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.through), 0);
	complete_all(&s.go);
	until = jiffies + 2 * HZ;
	while (atomic_read(&s.through) < 2 && time_before(jiffies, until))
		msleep(1);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.through), 2);
	KUNIT_EXPECT_TRUE(test, completion_done(&s.go));
	wait_for_completion(&s.go); /* at once */
	KUNIT_EXPECT_TRUE(test, completion_done(&s.go));
	reinit_completion(&s.go);
	KUNIT_EXPECT_FALSE(test, completion_done(&s.go));
	for (i = 0; i < ARRAY_SIZE(t); i++)
		kthread_stop(t[i]);
}

/* get_task_struct() takes a reference of the struct, put_task_struct() drops
 * it. */
static void sched_test_task_struct_ref(struct kunit *test)
{
	int usage = atomic_read(&current->usage);

	KUNIT_ASSERT_GT(test, usage, 0);
	get_task_struct(current);
	KUNIT_EXPECT_EQ(test, atomic_read(&current->usage), usage + 1);
	put_task_struct(current);
	KUNIT_EXPECT_EQ(test, atomic_read(&current->usage), usage);
}

/* A timeout that expires returns 0, no sooner than asked; msleep sleeps. */
static void sched_test_timeouts(struct kunit *test)
{
	DECLARE_COMPLETION(never);
	unsigned int cpu = smp_processor_id();
	unsigned long switches = sched_cpu_stats(cpu).switches;
	u64 t0 = ktime_get_ns();

	if (!tick_enabled())
		kunit_skip(test, "needs the tick (tick=off)");
	KUNIT_EXPECT_EQ(test, wait_for_completion_timeout(&never, 20), 0UL);
	/*
	 * 20 jiffies from a jiffy already begun: 19 at least. They count from
	 * the clock's jiffy, not from jiffies, which lags it when the tick
	 * comes late (on a loaded host, by three ticks and more) and then
	 * catches up at once: msleep(20) once slept 16.9 ms so.
	 */
	KUNIT_EXPECT_GE(test, ktime_get_ns() - t0,
			(u64)jiffies_to_msecs(19) * 1000000);
	t0 = ktime_get_ns();
	msleep(20);
	KUNIT_EXPECT_GE(test, ktime_get_ns() - t0, 20ULL * 1000000);
	KUNIT_EXPECT_LT(test, ktime_get_ns() - t0, 2000ULL * 1000000);
	/* Slept: the CPU switched to its idle task (or others) and back. */
	KUNIT_EXPECT_GE(test, sched_cpu_stats(cpu).switches - switches, 4UL);
}

static struct kunit_case sched_test_cases[] = {
	KUNIT_CASE(sched_test_kthread_bound_stop),
	KUNIT_CASE(sched_test_kthread_stop_unstarted),
	KUNIT_CASE(sched_test_kthread_stop_finished_warns),
	KUNIT_CASE(sched_test_kthread_park),
	KUNIT_CASE(sched_test_yield_alternates),
	KUNIT_CASE(sched_test_tick_preempts),
	KUNIT_CASE(sched_test_preempt_disable_holds),
	KUNIT_CASE(sched_test_sleep_until_woken),
	KUNIT_CASE(sched_test_no_lost_wakeups),
	KUNIT_CASE(sched_test_spinlock_preempt_count),
	KUNIT_CASE(sched_test_no_stack_leak),
	KUNIT_CASE(sched_test_wait_event_completion),
	KUNIT_CASE(sched_test_timeouts),
	KUNIT_CASE(sched_test_complete_all),
	KUNIT_CASE(sched_test_task_struct_ref),
	{}
};

static struct kunit_suite sched_test_suite = {
	.name = "sched",
	.test_cases = sched_test_cases,
};
kunit_test_suite(sched_test_suite);
