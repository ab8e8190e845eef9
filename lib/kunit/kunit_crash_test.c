// SPDX-License-Identifier: GPL-2.0
/*
 * A suite that crashes on purpose (CONFIG_KUNIT_CRASH_TEST, test-only): a
 * write through a bad pointer must oops with the vector, the error code,
 * the registers, CR2 and a symbolized backtrace, then panic. "make test"
 * boots it and matches those lines in the serial log (expect_crash).
 */
#include <kunit/test.h>

/* Hidden from the compiler, which would otherwise refuse the write. */
static volatile int *volatile kunit_crash_ptr = (volatile int *)0x10;

static noinline void kunit_crash_write_bad_pointer(void)
{
	*kunit_crash_ptr = 1;
}

static void kunit_crash_page_fault(struct kunit *test)
{
	kunit_crash_write_bad_pointer();
	KUNIT_FAIL(test, "not reached: the write must fault");
}

static struct kunit_case kunit_crash_cases[] = {
	KUNIT_CASE(kunit_crash_page_fault),
	{}
};

static struct kunit_suite kunit_crash_suite = {
	.name = "kunit_crash",
	.test_cases = kunit_crash_cases,
};
kunit_test_suite(kunit_crash_suite);
