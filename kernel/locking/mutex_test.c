// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite "mutex": the sleeping mutex (owner, waiters that sleep and
 * are woken in turn, contention from every CPU, misuse) and might_sleep()
 * in atomic context. Every wait on another thread is bounded; a case fails
 * rather than hang.
 */
#include <linux/kernel.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/kallsyms.h>
#include <linux/kthread.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include <linux/timekeeping.h>
#include <kunit/test.h>

#define MT_WAIT_MS 5000
#define MT_INCREMENTS 20000

struct mt_target {
	atomic_t *v;
	unsigned int want;
};

static bool mt_atomic_reached(void *arg)
{
	struct mt_target *t = arg;

	return atomic_read(t->v) == (int)t->want;
}

static DEFINE_MUTEX(mt_lock);

static void mutex_test_owner(struct kunit *test)
{
	KUNIT_EXPECT_FALSE(test, mutex_is_locked(&mt_lock));
	mutex_lock(&mt_lock);
	KUNIT_EXPECT_TRUE(test, mutex_is_locked(&mt_lock));
	KUNIT_EXPECT_TRUE(test, mutex_is_owner(&mt_lock));
	KUNIT_EXPECT_PTR_EQ(test, mutex_owner(&mt_lock), current);
	/* The holder stays preemptible and may sleep. */
	KUNIT_EXPECT_EQ(test, preempt_count(), 0);
	KUNIT_EXPECT_TRUE(test, sched_may_sleep());
	msleep(1);
	KUNIT_EXPECT_TRUE(test, mutex_is_owner(&mt_lock));
	KUNIT_EXPECT_EQ(test, mutex_trylock(&mt_lock), 0);
	mutex_unlock(&mt_lock);
	KUNIT_EXPECT_FALSE(test, mutex_is_locked(&mt_lock));
	KUNIT_EXPECT_EQ(test, mutex_trylock(&mt_lock), 1);
	KUNIT_EXPECT_TRUE(test, mutex_is_owner(&mt_lock));
	mutex_unlock(&mt_lock);
}

struct mt_waiter {
	struct task_struct *task;
	int got; /* order in which it got the lock, from 1; 0: not yet */
};

static atomic_t mt_order;

static int mt_waiter_fn(void *data)
{
	struct mt_waiter *w = data;

	mutex_lock(&mt_lock);
	WRITE_ONCE(w->got, atomic_add_return(1, &mt_order));
	mutex_unlock(&mt_lock);
	kthread_wait_stop();
	return 0;
}

static bool mt_asleep(void *arg)
{
	struct task_struct *t = arg;

	return READ_ONCE(t->state) == TASK_UNINTERRUPTIBLE &&
	       !READ_ONCE(t->on_cpu);
}

/*
 * While the test holds the lock, a waiter on each CPU (this one too)
 * blocks: it must be asleep, off its CPU, not spinning. They are started
 * one at a time, so the queue order is known, and get the lock in it.
 */
static void mutex_test_waiters_sleep(struct kunit *test)
{
	unsigned int n = num_online_cpus(), cpu, i = 0;
	struct mt_waiter w[NR_CPUS] = {};

	atomic_set(&mt_order, 0);
	mutex_lock(&mt_lock);
	for_each_online_cpu(cpu) {
		w[i].task = kthread_run_on_cpu(mt_waiter_fn, &w[i], cpu,
					       "mt_waiter/%u");
		KUNIT_ASSERT_FALSE(test, IS_ERR(w[i].task));
		KUNIT_EXPECT_TRUE(test, kunit_wait_for(mt_asleep, w[i].task, MT_WAIT_MS));
		i++;
	}
	msleep(10); /* the holder sleeps too; nobody gets the lock */
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_EQ(test, READ_ONCE(w[i].got), 0);
	KUNIT_EXPECT_TRUE(test, mutex_is_owner(&mt_lock));
	mutex_unlock(&mt_lock);
	KUNIT_EXPECT_TRUE(test, kunit_wait_for(mt_atomic_reached,
					       &(struct mt_target){ &mt_order, n },
					       MT_WAIT_MS));
	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_EQ(test, READ_ONCE(w[i].got), (int)i + 1);
		kthread_stop(w[i].task);
	}
	KUNIT_EXPECT_FALSE(test, mutex_is_locked(&mt_lock));
}

struct mt_counter {
	unsigned long value;
	unsigned int per_thread;
	atomic_t done;
};

static int mt_count_fn(void *data)
{
	struct mt_counter *c = data;
	unsigned long v;
	unsigned int i;

	for (i = 0; i < c->per_thread; i++) {
		mutex_lock(&mt_lock);
		v = READ_ONCE(c->value);
		if (!(i & 63))
			yield(); /* let another thread find it held */
		WRITE_ONCE(c->value, v + 1);
		mutex_unlock(&mt_lock);
	}
	atomic_inc(&c->done);
	kthread_wait_stop();
	return 0;
}

/* Two threads on every CPU increment under the lock: nothing is lost. */
static void mutex_test_contended(struct kunit *test)
{
	unsigned int n = 2 * num_online_cpus(), cpu, i = 0;
	struct task_struct *t[2 * NR_CPUS];
	struct mt_counter c = { .per_thread = MT_INCREMENTS / n };

	atomic_set(&c.done, 0);
	for_each_online_cpu(cpu) {
		t[i++] = kthread_run_on_cpu(mt_count_fn, &c, cpu, "mt_count/%u");
		t[i++] = kthread_run_on_cpu(mt_count_fn, &c, cpu, "mt_count/%u");
		KUNIT_ASSERT_FALSE(test, IS_ERR(t[i - 2]) || IS_ERR(t[i - 1]));
	}
	KUNIT_EXPECT_TRUE(test, kunit_wait_for(mt_atomic_reached,
					       &(struct mt_target){ &c.done, n },
					       MT_WAIT_MS));
	for (i = 0; i < n; i++)
		kthread_stop(t[i]);
	KUNIT_EXPECT_EQ(test, c.value, (unsigned long)n * c.per_thread);
	KUNIT_EXPECT_FALSE(test, mutex_is_locked(&mt_lock));
}

static int mt_hold_fn(void *data)
{
	mutex_lock(&mt_lock);
	atomic_set(data, 1);
	kthread_wait_stop();
	mutex_unlock(&mt_lock);
	return 0;
}

/* An unlock by a task that does not hold it WARNs and changes nothing. */
static void mutex_test_unlock_not_owner(struct kunit *test)
{
	unsigned long warns = nr_warnings;
	u64 log = printk_log_end();
	struct task_struct *t;
	atomic_t held = ATOMIC_INIT(0);

	t = kthread_run(mt_hold_fn, &held, "mt_hold");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	KUNIT_ASSERT_TRUE(test, kunit_wait_for(mt_atomic_reached,
					       &(struct mt_target){ &held, 1 },
					       MT_WAIT_MS));
	mutex_unlock(&mt_lock);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1);
	KUNIT_EXPECT_TRUE(test, printk_log_contains(log, "mutex mt_lock: unlocked at mutex_test_unlock_not_owner+"));
	KUNIT_EXPECT_PTR_EQ(test, mutex_owner(&mt_lock), t);
	kthread_stop(t);
	KUNIT_EXPECT_FALSE(test, mutex_is_locked(&mt_lock));
}

/* "by <caller>" as the WARN prints it, without the offset. */
static void mt_caller_name(char *buf, size_t size, void *fn)
{
	char *plus;

	snprintf(buf, size, "by %pS", fn);
	plus = strchr(buf, '+');
	if (plus)
		*plus = '\0';
}

static noinline void mt_lock_under_spinlock(void)
{
	static DEFINE_SPINLOCK(lock);

	spin_lock(&lock);
	mutex_lock(&mt_lock); /* free: taken without waiting */
	mutex_unlock(&mt_lock);
	spin_unlock(&lock);
}

/* c is done: the wait takes it without sleeping, but it might have. */
static noinline void mt_wait_preempt_off(struct completion *c)
{
	preempt_disable();
	wait_for_completion(c);
	preempt_enable();
}

static noinline void mt_might_sleep_irqs_off(void)
{
	unsigned long flags;

	local_irq_save(flags);
	might_sleep();
	local_irq_restore(flags);
}

/*
 * might_sleep() in atomic context WARNs once per caller, naming it, and
 * the call goes on; in process context it is silent.
 */
static void mutex_test_might_sleep(struct kunit *test)
{
	unsigned long warns = nr_warnings;
	u64 log = printk_log_end();
	DECLARE_COMPLETION_ONSTACK(done);
	char name[64];

	might_sleep();
	mutex_lock(&mt_lock);
	mutex_unlock(&mt_lock);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns);

	mt_lock_under_spinlock();
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1);
	KUNIT_EXPECT_TRUE(test, printk_log_contains(log,
		"BUG: sleeping function called from invalid context by mt_lock_under_spinlock+"));
	KUNIT_EXPECT_TRUE(test, printk_log_contains(log,
		"in_atomic(): 1, irqs_disabled(): 0"));
	KUNIT_EXPECT_FALSE(test, mutex_is_locked(&mt_lock));
	mt_lock_under_spinlock();
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1); /* once per caller */

	log = printk_log_end();
	mt_might_sleep_irqs_off();
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 2);
	mt_caller_name(name, sizeof(name), (void *)_THIS_IP_);
	KUNIT_EXPECT_TRUE(test, printk_log_contains(log, name));
	KUNIT_EXPECT_TRUE(test, printk_log_contains(log,
		"in_atomic(): 0, irqs_disabled(): 1"));

	log = printk_log_end();
	complete(&done);
	mt_wait_preempt_off(&done);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 3);
	KUNIT_EXPECT_TRUE(test, printk_log_contains(log,
		"BUG: sleeping function called from invalid context by mt_wait_preempt_off+"));
	KUNIT_EXPECT_FALSE(test, completion_done(&done));
	KUNIT_EXPECT_TRUE(test, sched_may_sleep());
}

static struct kunit_case mutex_test_cases[] = {
	KUNIT_CASE(mutex_test_owner),
	KUNIT_CASE(mutex_test_waiters_sleep),
	KUNIT_CASE(mutex_test_contended),
	KUNIT_CASE(mutex_test_unlock_not_owner),
	KUNIT_CASE(mutex_test_might_sleep),
	{}
};

static struct kunit_suite mutex_test_suite = {
	.name = "mutex",
	.test_cases = mutex_test_cases,
};
kunit_test_suite(mutex_test_suite);
