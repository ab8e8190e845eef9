// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the harness itself: expectations run against a silent scratch
 * struct kunit, so their failures are counted there and not reported as
 * failures of these cases.
 */
#include <kunit/test.h>
#include <kunit/test-bug.h>

static int steps;

static void run_failing_expect(struct kunit *t)
{
	KUNIT_EXPECT_EQ(t, 1, 2);
	steps++;
	KUNIT_EXPECT_STREQ(t, "a", "b");
	steps++;
}

static void run_failing_assert(struct kunit *t)
{
	steps++;
	KUNIT_ASSERT_TRUE(t, false);
	steps++; /* not reached */
}

static void run_skip(struct kunit *t)
{
	kunit_skip(t, "reason %d", 7);
	steps++; /* not reached */
}

static void run_passing(struct kunit *t)
{
	static const u8 a[3] = { 1, 2, 3 }, b[3] = { 1, 2, 3 };
	int x = 5;

	KUNIT_EXPECT_EQ(t, x, 5);
	KUNIT_EXPECT_NE(t, x, 6);
	KUNIT_EXPECT_LT(t, x, 6);
	KUNIT_EXPECT_LE(t, x, 5);
	KUNIT_EXPECT_GT(t, x, 4);
	KUNIT_EXPECT_GE(t, x, 5);
	KUNIT_EXPECT_TRUE(t, x);
	KUNIT_EXPECT_FALSE(t, !x);
	KUNIT_EXPECT_PTR_EQ(t, &x, &x);
	KUNIT_EXPECT_PTR_NE(t, &x, NULL);
	KUNIT_EXPECT_NULL(t, NULL);
	KUNIT_EXPECT_NOT_NULL(t, &x);
	KUNIT_EXPECT_STREQ(t, "abc", "abc");
	KUNIT_EXPECT_STRNEQ(t, "abc", "abd");
	KUNIT_EXPECT_MEMEQ(t, a, b, sizeof(a));
	KUNIT_ASSERT_EQ(t, x, 5);
	steps++;
}

/* Each failing macro marks the test failed exactly by its own verdict. */
static void run_each_failing(struct kunit *t)
{
	static const u8 a[3] = { 1, 2, 3 }, b[3] = { 1, 2, 4 };
	int x = 5;

	KUNIT_EXPECT_NE(t, x, 5);
	KUNIT_EXPECT_LT(t, x, 5);
	KUNIT_EXPECT_GT(t, x, 5);
	KUNIT_EXPECT_PTR_EQ(t, &x, NULL);
	KUNIT_EXPECT_NOT_NULL(t, NULL);
	KUNIT_EXPECT_MEMEQ(t, a, b, sizeof(a));
	KUNIT_EXPECT_STREQ(t, NULL, "x");
	steps++;
}

static struct kunit scratch(void)
{
	struct kunit t = { .name = "scratch", .silent = true };

	steps = 0;
	return t;
}

static void kunit_selftest_expect_continues(struct kunit *test)
{
	struct kunit t = scratch();

	KUNIT_EXPECT_TRUE(test, __kunit_try_run(&t, run_failing_expect));
	KUNIT_EXPECT_EQ(test, t.status, KUNIT_FAILURE);
	KUNIT_EXPECT_EQ(test, t.failures, 2);
	KUNIT_EXPECT_EQ(test, steps, 2);
}

static void kunit_selftest_assert_aborts(struct kunit *test)
{
	struct kunit t = scratch();

	KUNIT_EXPECT_FALSE(test, __kunit_try_run(&t, run_failing_assert));
	KUNIT_EXPECT_EQ(test, t.status, KUNIT_FAILURE);
	KUNIT_EXPECT_EQ(test, steps, 1);
}

static void kunit_selftest_skip(struct kunit *test)
{
	struct kunit t = scratch();

	KUNIT_EXPECT_FALSE(test, __kunit_try_run(&t, run_skip));
	KUNIT_EXPECT_EQ(test, t.status, KUNIT_SKIPPED);
	KUNIT_EXPECT_STREQ(test, t.status_comment, "reason 7");
	KUNIT_EXPECT_EQ(test, steps, 0);
}

static void kunit_selftest_passing_macros(struct kunit *test)
{
	struct kunit t = scratch();

	KUNIT_EXPECT_TRUE(test, __kunit_try_run(&t, run_passing));
	KUNIT_EXPECT_EQ(test, t.status, KUNIT_SUCCESS);
	KUNIT_EXPECT_EQ(test, steps, 1);

	KUNIT_EXPECT_EQ(test, t.failures, 0);

	t = scratch();
	KUNIT_EXPECT_TRUE(test, __kunit_try_run(&t, run_each_failing));
	KUNIT_EXPECT_EQ(test, t.status, KUNIT_FAILURE);
	KUNIT_EXPECT_EQ(test, t.failures, 7);
	KUNIT_EXPECT_EQ(test, steps, 1);
}

static void kunit_selftest_filter(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, kunit_filter_match(NULL, "paging", "x"));
	KUNIT_EXPECT_TRUE(test, kunit_filter_match("pag*", "paging", NULL));
	KUNIT_EXPECT_FALSE(test, kunit_filter_match("kmalloc", "paging", NULL));
	KUNIT_EXPECT_FALSE(test, kunit_filter_match("", "paging", NULL));
	KUNIT_EXPECT_FALSE(test, kunit_filter_match("", "paging", "x"));
	KUNIT_EXPECT_TRUE(test, kunit_filter_match("paging.*ro*", "paging",
						   "paging_test_rodata"));
	KUNIT_EXPECT_FALSE(test, kunit_filter_match("paging.*ro*", "paging",
						    "paging_test_data"));
	/* A suite is selected if the suite part matches, whatever the case. */
	KUNIT_EXPECT_TRUE(test, kunit_filter_match("paging.nothing", "paging",
						   NULL));
}

/* A list selects what any item selects, minus what a "-" item matches. */
static void kunit_selftest_glob_list(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test,
			  kunit_filter_match("kmalloc,pag*", "paging", "x"));
	KUNIT_EXPECT_FALSE(test,
			   kunit_filter_match("kmalloc,rcu", "paging", NULL));
	KUNIT_EXPECT_FALSE(test,
			   kunit_filter_match("kmalloc,", "paging", NULL));
	KUNIT_EXPECT_TRUE(test, kunit_filter_match("-rcu", "paging", "x"));
	KUNIT_EXPECT_FALSE(test, kunit_filter_match("-pag*", "paging", NULL));
	KUNIT_EXPECT_FALSE(test, kunit_filter_match("-pag*", "paging", "x"));
	KUNIT_EXPECT_FALSE(test,
			   kunit_filter_match("pag*,-paging", "paging", "x"));
	/* "-suite.case" drops that case; the suite runs its others. */
	KUNIT_EXPECT_TRUE(test,
			  kunit_filter_match("-paging.x*", "paging", NULL));
	KUNIT_EXPECT_FALSE(test,
			   kunit_filter_match("-paging.x*", "paging", "xy"));
	KUNIT_EXPECT_TRUE(test,
			  kunit_filter_match("-paging.x*", "paging", "yx"));
	KUNIT_EXPECT_TRUE(test,
			  kunit_filter_match("-rcu,-paging.x", "paging", "y"));
	KUNIT_EXPECT_FALSE(test, kunit_filter_match("paging.x,-paging.x*",
						    "paging", "x"));
	/* A lone "-" excludes nothing: it is an item matching no suite. */
	KUNIT_EXPECT_FALSE(test, kunit_filter_match("-", "paging", NULL));
}

/*
 * A glob longer than any buffer is matched whole: cut at 255 characters,
 * "a*" and 298 'b's would have become "a*" and 253 'b's, which matches
 * "a" and 260 'b's.
 */
static void kunit_selftest_long_glob(struct kunit *test)
{
	char *glob = kunit_kzalloc(test, 304, GFP_KERNEL);
	char *suite = kunit_kzalloc(test, 301, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, glob);
	KUNIT_ASSERT_NOT_NULL(test, suite);
	memset(glob, 'b', 300);
	memcpy(glob, "a*", 2);
	memcpy(glob + 300, ".x*", 3); /* then a case part */
	memset(suite, 'b', 261);
	suite[0] = 'a';
	KUNIT_EXPECT_FALSE(test, kunit_filter_match(glob, suite, NULL));
	memset(suite, 'b', 300);
	suite[0] = 'a';
	KUNIT_EXPECT_TRUE(test, kunit_filter_match(glob, suite, NULL));
	KUNIT_EXPECT_TRUE(test, kunit_filter_match(glob, suite, "xyz"));
	KUNIT_EXPECT_FALSE(test, kunit_filter_match(glob, suite, "yx"));
}

/* kunit.filter=speed...: Linux's order, very_slow < slow < normal = unset. */
static void kunit_selftest_attributes(struct kunit *test)
{
	struct kunit_case slow = KUNIT_CASE_SLOW(kunit_selftest_attributes);
	struct kunit_case plain = KUNIT_CASE(kunit_selftest_attributes);

	KUNIT_EXPECT_EQ(test, slow.attr.speed, KUNIT_SPEED_SLOW);
	KUNIT_EXPECT_EQ(test, kunit_attr_match(NULL, &slow), 1);
	KUNIT_EXPECT_EQ(test, kunit_attr_match("speed>slow", &slow), 0);
	KUNIT_EXPECT_EQ(test, kunit_attr_match("speed>slow", &plain), 1);
	KUNIT_EXPECT_EQ(test, kunit_attr_match("speed=slow", &slow), 1);
	KUNIT_EXPECT_EQ(test, kunit_attr_match("speed!=slow", &slow), 0);
	KUNIT_EXPECT_EQ(test, kunit_attr_match("speed<=slow", &slow), 1);
	KUNIT_EXPECT_EQ(test, kunit_attr_match("speed<normal", &plain), 0);
	KUNIT_EXPECT_EQ(test, kunit_attr_match("speed>=very_slow", &plain), 1);
	KUNIT_EXPECT_EQ(test, kunit_attr_match("speed>fast", &plain), -EINVAL);
	KUNIT_EXPECT_EQ(test, kunit_attr_match("size>slow", &plain), -EINVAL);
	KUNIT_EXPECT_EQ(test, kunit_attr_match("speed=>slow", &plain), -EINVAL);
}

static int init_calls, exit_calls;

static int kunit_selftest_init(struct kunit *test)
{
	init_calls++;
	test->priv = kunit_kzalloc(test, 64, GFP_KERNEL);
	return test->priv ? 0 : -ENOMEM;
}

static void kunit_selftest_exit(struct kunit *test)
{
	exit_calls++;
}

/* init ran before this case, with its resource; exit after each earlier one. */
static void kunit_selftest_init_exit(struct kunit *test)
{
	u8 *p = test->priv;

	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_EXPECT_EQ(test, p[0] + p[63], 0);
	KUNIT_EXPECT_EQ(test, init_calls, exit_calls + 1);
}

/* The suites run with kunit_running on, its sites patched to match. */
static void kunit_selftest_running_key(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, static_key_enabled(&kunit_running));
	KUNIT_EXPECT_TRUE(test, static_branch_unlikely(&kunit_running));
}

static struct kunit_case kunit_selftest_cases[] = {
	KUNIT_CASE(kunit_selftest_expect_continues),
	KUNIT_CASE(kunit_selftest_assert_aborts),
	KUNIT_CASE(kunit_selftest_skip),
	KUNIT_CASE(kunit_selftest_passing_macros),
	KUNIT_CASE(kunit_selftest_filter),
	KUNIT_CASE(kunit_selftest_glob_list),
	KUNIT_CASE(kunit_selftest_long_glob),
	KUNIT_CASE(kunit_selftest_attributes),
	KUNIT_CASE(kunit_selftest_init_exit),
	KUNIT_CASE(kunit_selftest_running_key),
	{}
};

static struct kunit_suite kunit_selftest_suite = {
	.name = "kunit_selftest",
	.init = kunit_selftest_init,
	.exit = kunit_selftest_exit,
	.test_cases = kunit_selftest_cases,
};
kunit_test_suite(kunit_selftest_suite);
