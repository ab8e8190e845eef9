// SPDX-License-Identifier: GPL-2.0
/*
 * A suite that fails on purpose (CONFIG_KUNIT_FAIL_TEST, test-only): "make
 * test" boots it and checks that the host runner reports the failures and
 * exits non-zero.
 */
#include <kunit/test.h>

static void kunit_fail_expect(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, 1 + 1, 3);
}

static void kunit_fail_assert(struct kunit *test)
{
	KUNIT_ASSERT_STREQ(test, "expected", "actual");
	KUNIT_FAIL(test, "not reached: the assertion ends the case");
}

static void kunit_fail_passes(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, true);
}

static struct kunit_case kunit_fail_cases[] = {
	KUNIT_CASE(kunit_fail_expect),
	KUNIT_CASE(kunit_fail_assert),
	KUNIT_CASE(kunit_fail_passes),
	{}
};

static struct kunit_suite kunit_fail_suite = {
	.name = "kunit_fail",
	.test_cases = kunit_fail_cases,
};
kunit_test_suite(kunit_fail_suite);
