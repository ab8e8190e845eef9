// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite "static_call_api", a test module written only against
 * Linux's <linux/static_call.h> API (and KUnit, kthreads, jiffies): what
 * an out-of-tree suite may do. Its calls are its own, so every site is a
 * module site, set before its init.
 *
 * The SMP case runs a caller on every online CPU while the test retargets
 * the calls back and forth (a function, another, NULL for the _cond call,
 * return-0); every result a caller sees must be one of the targets', and
 * every caller must have called while the updates ran.
 * Bounded by a count of updates and by a time budget (jiffies), both
 * module parameters.
 */
#include <linux/module.h>
#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/static_call.h>
#include <linux/string.h>
#include <kunit/test.h>

static unsigned int updates = 400;
module_param(updates, uint, 0444);
MODULE_PARM_DESC(updates, "retargets in the SMP case");
static unsigned int budget_s = 120;
module_param(budget_s, uint, 0444);
MODULE_PARM_DESC(budget_s, "seconds the SMP case may take");

static noinline int sca_add1(int x)
{
	return x + 1;
}

static noinline int sca_add2(int x)
{
	return x + 2;
}

static atomic_t sca_hook_calls = ATOMIC_INIT(0);
static noinline void sca_hook(void)
{
	atomic_inc(&sca_hook_calls);
}

static noinline long sca_seven(void)
{
	return 7;
}

DEFINE_STATIC_CALL(sca_add, sca_add1);
DEFINE_STATIC_CALL_NULL(sca_cond, sca_hook);
DEFINE_STATIC_CALL_RET0(sca_ret, sca_seven);

static noinline int sca_call_add(int x)
{
	return static_call(sca_add)(x) * 3;
}

static noinline void sca_call_cond(void)
{
	static_call_cond(sca_cond)();
	barrier();
}

static noinline long sca_call_ret(void)
{
	return static_call(sca_ret)() + 1;
}

static void sca_test_call_update(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, sca_call_add(1), 6);
	KUNIT_EXPECT_PTR_EQ(test, static_call_query(sca_add), (void *)sca_add1);
	static_call_update(sca_add, sca_add2);
	KUNIT_EXPECT_EQ(test, sca_call_add(1), 9);
	KUNIT_EXPECT_PTR_EQ(test, static_call_query(sca_add), (void *)sca_add2);
	static_call_update(sca_add, &sca_add1);
	KUNIT_EXPECT_EQ(test, sca_call_add(1), 6);
}

static void sca_test_cond_null(struct kunit *test)
{
	atomic_set(&sca_hook_calls, 0);
	sca_call_cond();
	KUNIT_EXPECT_EQ(test, atomic_read(&sca_hook_calls), 0);
	KUNIT_EXPECT_PTR_EQ(test, static_call_query(sca_cond), NULL);
	static_call_update(sca_cond, sca_hook);
	sca_call_cond();
	KUNIT_EXPECT_EQ(test, atomic_read(&sca_hook_calls), 1);
	static_call_update(sca_cond, NULL);
	sca_call_cond();
	KUNIT_EXPECT_EQ(test, atomic_read(&sca_hook_calls), 1);
}

static void sca_test_ret0(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, sca_call_ret(), 1);
	KUNIT_EXPECT_PTR_EQ(test, static_call_query(sca_ret),
			    (void *)__static_call_return0);
	static_call_update(sca_ret, sca_seven);
	KUNIT_EXPECT_EQ(test, sca_call_ret(), 8);
	static_call_update(sca_ret, __static_call_return0);
	KUNIT_EXPECT_EQ(test, sca_call_ret(), 1);
}

/* Code that takes the trampoline's address gets the current target. */
static void sca_test_address(struct kunit *test)
{
	int (*volatile fp)(int) = STATIC_CALL_TRAMP_ADDR(sca_add);

	if (!fp)
		kunit_skip(test, "no trampoline: static calls are indirect calls");
	KUNIT_EXPECT_EQ(test, fp(10), 11);
	static_call_update(sca_add, sca_add2);
	KUNIT_EXPECT_EQ(test, fp(10), 12);
	static_call_update(sca_add, sca_add1);
}

struct sca_smp {
	atomic_t bad, calls, running;
	int first_bad;
	bool updating;
	/* Each caller's calls while the updates ran. */
	int during[NR_CPUS];
};

struct sca_caller_arg {
	struct sca_smp *s;
	int *during;
};

static int sca_caller(void *data)
{
	struct sca_caller_arg *a = data;
	struct sca_smp *s = a->s;
	int i = 0, v;
	long r;

	atomic_inc(&s->running);
	while (!kthread_should_stop()) {
		v = sca_call_add(i);
		if (v != 3 * (i + 1) && v != 3 * (i + 2) &&
		    atomic_inc_return(&s->bad) == 1)
			s->first_bad = v;
		sca_call_cond();
		r = sca_call_ret();
		if (r != 1 && r != 8)
			atomic_inc(&s->bad);
		atomic_inc(&s->calls);
		if (READ_ONCE(s->updating))
			(*a->during)++;
		i = (i + 1) & 0xffff;
		if (!(i & 63))
			cond_resched();
	}
	return 0;
}

/* Has every caller called while the updates ran? */
static bool sca_all_called(struct sca_smp *s, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (!READ_ONCE(s->during[i]))
			return false;
	return true;
}

static void sca_test_smp(struct kunit *test)
{
	static struct sca_caller_arg args[NR_CPUS];
	static struct sca_smp s;
	struct task_struct *t[NR_CPUS];
	unsigned long deadline = jiffies + budget_s * HZ;
	unsigned int n = 0, i, done = 0;
	int cpu, calls, fewest = INT_MAX;

	memset(&s, 0, sizeof(s));
	atomic_set(&s.bad, 0);
	atomic_set(&s.calls, 0);
	atomic_set(&s.running, 0);
	for_each_online_cpu(cpu) {
		args[n].s = &s;
		args[n].during = &s.during[n];
		t[n] = kthread_create(sca_caller, &args[n], "sca/%d", cpu);
		KUNIT_ASSERT_FALSE(test, IS_ERR(t[n]));
		kthread_bind(t[n], cpu);
		wake_up_process(t[n]);
		n++;
	}
	while (atomic_read(&s.running) < n && time_before(jiffies, deadline))
		msleep(1);
	WRITE_ONCE(s.updating, true);
	/*
	 * At least updates rounds, and on until every caller has called
	 * during them: an update without text to patch (STATIC_CALL=n) is a
	 * store, and 400 of them end before a caller on this CPU runs, so
	 * the CPU is given up now and then.
	 */
	for (i = 0; (i < updates || !sca_all_called(&s, n)) &&
		    time_before(jiffies, deadline);
	     i++) {
		static_call_update(sca_add, i & 1 ? sca_add1 : sca_add2);
		static_call_update(sca_cond, i & 1 ? NULL : sca_hook);
		static_call_update(sca_ret, i & 1 ? __static_call_return0 :
						    sca_seven);
		done++;
		if (!(i & 15))
			msleep(1);
	}
	WRITE_ONCE(s.updating, false);
	calls = atomic_read(&s.calls);
	for (i = 0; i < n; i++)
		kthread_stop(t[i]);
	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_GT_MSG(test, s.during[i], 0,
				    "caller %u never called during the updates",
				    i);
		fewest = min(fewest, s.during[i]);
	}
	KUNIT_EXPECT_GE_MSG(test, done, updates,
			    "out of time: %u of %u updates in %u s", done,
			    updates, budget_s);
	KUNIT_EXPECT_EQ_MSG(test, atomic_read(&s.bad), 0,
			    "a caller saw %d", s.first_bad);
	KUNIT_EXPECT_GT(test, calls, 0);
	kunit_info(test,
		   "%u CPUs, %u x 3 updates, %d calls, at least %d on each CPU during the updates",
		   n, done, atomic_read(&s.calls), fewest);
	static_call_update(sca_add, sca_add1);
	static_call_update(sca_cond, NULL);
	static_call_update(sca_ret, __static_call_return0);
	KUNIT_EXPECT_EQ(test, sca_call_add(1), 6);
	KUNIT_EXPECT_EQ(test, sca_call_ret(), 1);
}

static struct kunit_case sca_cases[] = {
	KUNIT_CASE(sca_test_call_update),
	KUNIT_CASE(sca_test_cond_null),
	KUNIT_CASE(sca_test_ret0),
	KUNIT_CASE(sca_test_address),
	KUNIT_CASE(sca_test_smp),
	{}
};

static struct kunit_suite sca_suite = {
	.name = "static_call_api",
	.test_cases = sca_cases,
};
kunit_test_suite(sca_suite);

MODULE_DESCRIPTION("static calls through Linux's API only");
MODULE_LICENSE("GPL");
