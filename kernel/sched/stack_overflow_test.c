// SPDX-License-Identifier: GPL-2.0
/*
 * A suite that crashes on purpose (CONFIG_SCHED_OVERFLOW_TEST, test-only):
 * a kthread, "stack_hog", recurses until its stack runs into the guard
 * below it. The push of the #PF frame on the guard faults again, so the
 * CPU raises a double fault on its IST stack, whose handler must name the
 * task and the guard page before the oops and the panic. "make test" boots
 * it and matches those lines (the "stack_overflow" run of tests/plan.json).
 */
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <kunit/test.h>

/* Far beyond any stack: a limit the compiler cannot see through. */
static volatile int stack_hog_limit = 1 << 30;

static noinline int stack_hog_recurse(int depth)
{
	volatile char frame[512];

	if (depth >= stack_hog_limit)
		return 0;
	memset((char *)frame, depth, sizeof(frame));
	return stack_hog_recurse(depth + 1) + frame[depth % sizeof(frame)];
}

static int stack_hog(void *unused)
{
	return stack_hog_recurse(0);
}

static void sched_overflow_guard_page(struct kunit *test)
{
	struct task_struct *t = kthread_run(stack_hog, NULL, "stack_hog");
	u64 deadline = ktime_get_ns() + 2000000000ULL;

	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	while (ktime_get_ns() < deadline)
		yield();
	KUNIT_FAIL(test, "not reached: the thread must overflow its stack");
}

static struct kunit_case sched_overflow_cases[] = {
	KUNIT_CASE(sched_overflow_guard_page), {}
};

static struct kunit_suite sched_overflow_suite = {
	.name = "sched_overflow",
	.test_cases = sched_overflow_cases,
};
kunit_test_suite(sched_overflow_suite);
