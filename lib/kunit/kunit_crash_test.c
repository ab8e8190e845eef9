// SPDX-License-Identifier: GPL-2.0
/*
 * A suite that crashes on purpose (CONFIG_KUNIT_CRASH_TEST, test-only):
 * its cases fault (a write through a bad pointer, BUG(), a division by
 * zero), each in its own kthread. Each must oops, with the vector, error
 * code, registers, CR2 and a symbolized backtrace, fail that case alone,
 * and leave the kernel running: the last case passes. "make test" boots it
 * and matches the oops lines and the failed cases in the serial log.
 */
#include <linux/kernel.h>
#include <linux/completion.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <kunit/test.h>

/* Hidden from the compiler, which would otherwise refuse the write. */
static volatile int *volatile kunit_crash_ptr = (volatile int *)0x10;
static volatile int kunit_crash_zero;

static noinline void kunit_crash_write_bad_pointer(void)
{
	*kunit_crash_ptr = 1;
}

static void kunit_crash_page_fault(struct kunit *test)
{
	kunit_crash_write_bad_pointer();
	KUNIT_FAIL(test, "not reached: the write must fault");
}

static void kunit_crash_bug(struct kunit *test)
{
	BUG_ON(kunit_crash_zero == 0);
	KUNIT_FAIL(test, "not reached: BUG_ON() must oops");
}

/* divl by hand: the compiler may turn n / 0 into anything. */
static noinline unsigned int kunit_crash_divide(unsigned int n)
{
	unsigned int q, r;

	asm volatile("divl %2"
		     : "=a"(q), "=d"(r)
		     : "rm"(kunit_crash_zero), "a"(n), "d"(0));
	return q;
}

static void kunit_crash_divide_error(struct kunit *test)
{
	KUNIT_FAIL(test, "not reached: %u", kunit_crash_divide(1));
}

static int kunit_crash_thread(void *data)
{
	complete(data);
	kthread_wait_stop();
	return 7;
}

/* After three oopses: threads still start and stop, the case passes. */
static void kunit_crash_survived(struct kunit *test)
{
	DECLARE_COMPLETION_ONSTACK(started);
	struct task_struct *t = kthread_run(kunit_crash_thread, &started,
					    "crash_survivor");

	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	KUNIT_EXPECT_NE(test, wait_for_completion_timeout(&started, 10 * HZ), 0);
	KUNIT_EXPECT_EQ(test, kthread_stop(t), 7);
	KUNIT_EXPECT_EQ(test, preempt_count(), 0);
}

static struct kunit_case kunit_crash_cases[] = {
	KUNIT_CASE(kunit_crash_page_fault),
	KUNIT_CASE(kunit_crash_bug),
	KUNIT_CASE(kunit_crash_divide_error),
	KUNIT_CASE(kunit_crash_survived),
	{}
};

static struct kunit_suite kunit_crash_suite = {
	.name = "kunit_crash",
	.test_cases = kunit_crash_cases,
};
kunit_test_suite(kunit_crash_suite);
