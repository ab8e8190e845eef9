// SPDX-License-Identifier: GPL-2.0
/*
 * A test module that cannot load (CONFIG_KUNIT_BAD_MODULE_TEST): it uses
 * a symbol nobody exports, so the loader refuses it. The harness must
 * say so in one line, count it as a failure and run the other modules.
 * Built outside make modules (modpost would stop the build on it).
 */
#include <linux/kernel.h>
#include <kunit/test.h>

void kunit_no_such_export(void);

static void kunit_unloadable_case(struct kunit *test)
{
	kunit_no_such_export();
	KUNIT_FAIL(test, "not reached: the module cannot load");
}

static struct kunit_case kunit_unloadable_cases[] = {
	KUNIT_CASE(kunit_unloadable_case),
	{}
};

static struct kunit_suite kunit_unloadable_suite = {
	.name = "kunit_unloadable",
	.test_cases = kunit_unloadable_cases,
};
kunit_test_suite(kunit_unloadable_suite);
