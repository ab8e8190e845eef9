// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite "static_call_api_mod", Linux's <linux/static_call.h> API
 * only, as an out-of-tree suite uses it beyond static_call_api_test.c:
 * another module's static calls (sca_provider.ko: key exported, or the
 * trampoline only), six arguments and tail calls, long, void and pointer
 * types, a _NULL call declared from an ops member's type, updates to
 * __static_call_return0 and back of calls not defined _RET0, DECLARE
 * before DEFINE, static_call_cond() of a call that is not _NULL,
 * __static_call() and __raw_static_call(), the trampoline's address and
 * the names' macros.
 */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/static_call.h>
#include <linux/string.h>
#include <kunit/test.h>
#include "sca_provider.h"

static noinline long sca2_weigh6(long a, long b, long c, long d, long e, long f)
{
	return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f;
}

/* A tail call: "jmp" at the site. */
static noinline long sca2_tail6(long a, long b, long c, long d, long e, long f)
{
	return static_call(sca_prov_six)(a, b, c, d, e, f);
}

static noinline long sca2_call6(long a, long b, long c, long d, long e, long f)
{
	return static_call(sca_prov_six)(a, b, c, d, e, f) + 1000;
}

/* The other module's key, updated from here, to a function of ours too. */
static void sca2_test_exported_key(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, sca2_call6(1, 2, 3, 4, 5, 6), 1021L);
	KUNIT_EXPECT_EQ(test, sca2_tail6(1, 2, 3, 4, 5, 6), 21L);
	KUNIT_EXPECT_EQ(test, sca_prov_call_six(1, 2, 3, 4, 5, 6), 21L);
	KUNIT_EXPECT_PTR_EQ(test, static_call_query(sca_prov_six),
			    (void *)sca_prov_sum6);

	static_call_update(sca_prov_six, sca2_weigh6);
	KUNIT_EXPECT_EQ(test, sca2_call6(1, 2, 3, 4, 5, 6), 1091L);
	KUNIT_EXPECT_EQ(test, sca2_tail6(1, 2, 3, 4, 5, 6), 91L);
	KUNIT_EXPECT_EQ(test, sca_prov_call_six(1, 2, 3, 4, 5, 6), 91L);
	KUNIT_EXPECT_PTR_EQ(test, static_call_query(sca_prov_six),
			    (void *)sca2_weigh6);

	static_call_update(sca_prov_six, (void *)__static_call_return0);
	KUNIT_EXPECT_EQ(test, sca2_call6(1, 2, 3, 4, 5, 6), 1000L);
	KUNIT_EXPECT_EQ(test, sca2_tail6(1, 2, 3, 4, 5, 6), 0L);
	KUNIT_EXPECT_EQ(test, sca_prov_call_six(1, 2, 3, 4, 5, 6), 0L);

	static_call_update(sca_prov_six, sca_prov_sum6);
	KUNIT_EXPECT_EQ(test, sca2_call6(6, 5, 4, 3, 2, 1), 1021L);
	KUNIT_EXPECT_EQ(test, sca_prov_call_six(-1, -2, -3, -4, -5, -6), -21L);
}

static noinline const char *sca2_call_ptr(int i)
{
	return static_call_mod(sca_prov_ptr)(i);
}

static noinline void sca2_call_void(int v)
{
	static_call_mod(sca_prov_void)(v);
	barrier();
}

/* Trampoline only: we call, the provider retargets. */
static void sca2_test_tramp_only(struct kunit *test)
{
	KUNIT_EXPECT_PTR_EQ(test, sca2_call_ptr(1), NULL);
	KUNIT_EXPECT_PTR_EQ(test, sca_prov_call_ptr(1), NULL);
	sca2_call_void(5);
	KUNIT_EXPECT_EQ(test, sca_prov_noted, 5);

	sca_prov_set(1, 0);
	KUNIT_EXPECT_STREQ(test, sca2_call_ptr(1), "one");
	KUNIT_EXPECT_STREQ(test, sca_prov_call_ptr(2), "two");
	sca2_call_void(5);
	KUNIT_EXPECT_EQ(test, sca_prov_noted, -5);
	sca_prov_call_void(6);
	KUNIT_EXPECT_EQ(test, sca_prov_noted, -6);

	sca_prov_set(0, 1);
	KUNIT_EXPECT_PTR_EQ(test, sca2_call_ptr(1), NULL);
	sca2_call_void(8);
	KUNIT_EXPECT_EQ(test, sca_prov_noted, 8);
}

static int sca2_hooked;
static noinline void sca2_hook(int v)
{
	sca2_hooked += v;
}

/* static_call_cond() last in a void function: a tail call. */
static noinline void sca2_cond_tail(int v)
{
	static_call_cond(sca_prov_hook)(v);
}

/* DEFINE_STATIC_CALL_NULL(name, *ops.member), as Linux's users declare. */
static void sca2_test_null_from_ops_type(struct kunit *test)
{
	void (*tramp)(int) = STATIC_CALL_TRAMP_ADDR(sca_prov_hook);

	sca2_hooked = 0;
	sca2_cond_tail(1);
	sca_prov_call_hook(2);
	if (tramp)
		tramp(4); /* the trampoline of NULL returns */
	KUNIT_EXPECT_EQ(test, sca2_hooked, 0);
	KUNIT_EXPECT_PTR_EQ(test, static_call_query(sca_prov_hook), NULL);

	sca_prov_ops.hook = sca2_hook;
	static_call_update(sca_prov_hook, sca_prov_ops.hook);
	sca2_cond_tail(1);
	sca_prov_call_hook(2);
	if (tramp)
		tramp(4);
	KUNIT_EXPECT_EQ(test, sca2_hooked, tramp ? 7 : 3);

	sca_prov_ops.hook = NULL;
	static_call_update(sca_prov_hook, sca_prov_ops.hook);
	sca2_cond_tail(1);
	sca_prov_call_hook(2);
	KUNIT_EXPECT_EQ(test, sca2_hooked, tramp ? 7 : 3);
}

struct sca2_obj {
	int v;
};

static struct sca2_obj sca2_the_obj = { .v = 42 };

static noinline struct sca2_obj *sca2_get_obj(void)
{
	return &sca2_the_obj;
}

static int sca2_counted;
static noinline void sca2_count(void)
{
	sca2_counted++;
}

static noinline long sca2_five(void)
{
	return 5;
}

/* Declared first (a header's job), then defined. */
DECLARE_STATIC_CALL(sca2_obj, sca2_get_obj);
DEFINE_STATIC_CALL(sca2_obj, sca2_get_obj);
DECLARE_STATIC_CALL(sca2_v, sca2_count);
DEFINE_STATIC_CALL(sca2_v, sca2_count);
DEFINE_STATIC_CALL_RET0(sca2_long, sca2_five);

static noinline struct sca2_obj *sca2_call_obj(void)
{
	return static_call(sca2_obj)();
}

static noinline void sca2_call_v(void)
{
	static_call_cond(sca2_v)();
	barrier();
}

static noinline long sca2_call_long(void)
{
	return static_call(sca2_long)();
}

/* A pointer-returning call set to return 0 gives NULL, and back. */
static void sca2_test_return0_and_back(struct kunit *test)
{
	KUNIT_EXPECT_PTR_EQ(test, sca2_call_obj(), &sca2_the_obj);
	static_call_update(sca2_obj, (void *)__static_call_return0);
	KUNIT_EXPECT_PTR_EQ(test, sca2_call_obj(), NULL);
	KUNIT_EXPECT_PTR_EQ(test, static_call_query(sca2_obj),
			    (void *)__static_call_return0);
	static_call_update(sca2_obj, sca2_get_obj);
	KUNIT_EXPECT_EQ(test, sca2_call_obj()->v, 42);

	KUNIT_EXPECT_EQ(test, sca2_call_long(), 0L);
	static_call_update(sca2_long, sca2_five);
	KUNIT_EXPECT_EQ(test, sca2_call_long(), 5L);
	static_call_update(sca2_long, __static_call_return0);
	KUNIT_EXPECT_EQ(test, sca2_call_long(), 0L);
	static_call_update(sca2_long, &sca2_five);
	KUNIT_EXPECT_EQ(test, sca2_call_long(), 5L);
	static_call_update(sca2_long, __static_call_return0);
}

/* static_call_cond() of a call not defined _NULL calls its target. */
static void sca2_test_cond_not_null(struct kunit *test)
{
	sca2_counted = 0;
	sca2_call_v();
	sca2_call_v();
	KUNIT_EXPECT_EQ(test, sca2_counted, 2);
	/* Linux's lower-level spellings of the same call. */
	__static_call(sca2_v)();
	__raw_static_call(sca2_v)();
	KUNIT_EXPECT_EQ(test, sca2_counted, 4);
}

static void sca2_test_names(struct kunit *test)
{
	void *tramp = STATIC_CALL_TRAMP_ADDR(sca2_obj);

	KUNIT_EXPECT_STREQ(test, STATIC_CALL_TRAMP_STR(sca2_obj),
			   "__SCT__sca2_obj");
	KUNIT_EXPECT_STREQ(test, STATIC_CALL_KEY_STR(sca2_obj),
			   "__SCK__sca2_obj");
	KUNIT_EXPECT_PTR_EQ(test, static_call_query(sca2_obj),
			    READ_ONCE(STATIC_CALL_KEY(sca2_obj).func));
	if (!tramp)
		kunit_skip(test,
			   "no trampoline: static calls are indirect calls");
	KUNIT_EXPECT_PTR_NE(test, tramp, STATIC_CALL_TRAMP_ADDR(sca2_v));
	KUNIT_EXPECT_PTR_EQ(test, ((struct sca2_obj * (*)(void)) tramp)(),
			    &sca2_the_obj);
	KUNIT_EXPECT_EQ(test,
			((long (*)(void))STATIC_CALL_TRAMP_ADDR(sca2_long))(),
			0L);
}

static struct kunit_case sca2_cases[] = {
	KUNIT_CASE(sca2_test_exported_key),
	KUNIT_CASE(sca2_test_tramp_only),
	KUNIT_CASE(sca2_test_null_from_ops_type),
	KUNIT_CASE(sca2_test_return0_and_back),
	KUNIT_CASE(sca2_test_cond_not_null),
	KUNIT_CASE(sca2_test_names),
	{}
};

static struct kunit_suite sca2_suite = {
	.name = "static_call_api_mod",
	.test_cases = sca2_cases,
};
kunit_test_suite(sca2_suite);

MODULE_SOFTDEP("pre: sca_provider");
MODULE_DESCRIPTION("another module's static calls, through Linux's API only");
MODULE_LICENSE("GPL");
