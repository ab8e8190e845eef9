/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A KUnit-compatible test harness: suites of cases registered through the
 * .kunit_test_suites section, run at boot, reported as KTAP version 1.
 *
 * EXPECT records a failure and lets the case go on; ASSERT records it and
 * ends the case at once (the runner catches the abort with setjmp/longjmp,
 * as Linux does with a kthread exit).
 */
#ifndef _KUNIT_TEST_H
#define _KUNIT_TEST_H

#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>

enum kunit_status {
	KUNIT_SUCCESS,
	KUNIT_FAILURE,
	KUNIT_SKIPPED,
};

#define KUNIT_STATUS_COMMENT_SIZE 256

struct kunit_resource_node;

struct kunit {
	void *priv;
	/* private: */
	const char *name;
	enum kunit_status status;
	char status_comment[KUNIT_STATUS_COMMENT_SIZE];
	void *abort_buf[5];
	struct kunit_resource_node *resources;
	unsigned int failures; /* failed expectations and assertions */
	bool silent; /* reports are counted but not printed (self-tests) */
};

/*
 * How long a case runs, Linux's test attribute: kunit.filter=speed>slow on
 * the command line leaves the slow cases out (make run does).
 */
enum kunit_speed {
	KUNIT_SPEED_UNSET,
	KUNIT_SPEED_VERY_SLOW,
	KUNIT_SPEED_SLOW,
	KUNIT_SPEED_NORMAL,
};

struct kunit_attributes {
	enum kunit_speed speed;
};

struct kunit_case {
	void (*run_case)(struct kunit *test);
	const char *name;
	struct kunit_attributes attr;
	/* private: */
	enum kunit_status status;
};

struct kunit_suite {
	const char name[256];
	int (*suite_init)(struct kunit_suite *suite);
	void (*suite_exit)(struct kunit_suite *suite);
	int (*init)(struct kunit *test);
	void (*exit)(struct kunit *test);
	struct kunit_case *test_cases;
	/* private: */
	enum kunit_status status;
	const char *module; /* the test module it came from, or NULL */
};

#define KUNIT_CASE(test_name) { .run_case = test_name, .name = #test_name }
#define KUNIT_CASE_ATTR(test_name, attributes) \
	{ .run_case = test_name, .name = #test_name, .attr = attributes }
#define KUNIT_CASE_SLOW(test_name) \
	KUNIT_CASE_ATTR(test_name, { .speed = KUNIT_SPEED_SLOW })

#ifndef MODULE
#define kunit_test_suites(__suites...)                                      \
	static struct kunit_suite *__UNIQUE_ID(kunit_suites)[] __used       \
		__aligned(sizeof(void *))                                   \
		__section(".kunit_test_suites") = { __suites }
#else
/*
 * In a test module (CONFIG_FOO_TEST=m, lib/kunit/modules.c): its init
 * hands the suites to the harness, which runs them now (insmod) or from
 * the run that loaded the module (boot, the console's test command); its
 * exit takes them back before the module's memory goes.
 */
#include <linux/module.h>
#define kunit_test_suites(__suites...)                                      \
	static struct kunit_suite *kunit_module_suites[] = { __suites };    \
	static int kunit_module_init(void)                                  \
	{                                                                   \
		return __kunit_test_suites_init(kunit_module_suites,        \
						ARRAY_SIZE(kunit_module_suites), \
						KBUILD_MODNAME);            \
	}                                                                   \
	module_init(kunit_module_init);                                     \
	static void kunit_module_exit(void)                                 \
	{                                                                   \
		__kunit_test_suites_exit(kunit_module_suites,               \
					 ARRAY_SIZE(kunit_module_suites));  \
	}                                                                   \
	module_exit(kunit_module_exit);                                     \
	MODULE_LICENSE("GPL")
#endif
int __kunit_test_suites_init(struct kunit_suite *const *suites, unsigned int n,
			     const char *modname);
void __kunit_test_suites_exit(struct kunit_suite *const *suites,
			      unsigned int n);

#define kunit_test_suite(suite) kunit_test_suites(&suite)

/*
 * Runs every registered suite (and case) that kunit.filter_glob selects and
 * prints KTAP; returns the number of failed cases, or -ENOENT when the
 * filters select no case at all.
 */
int kunit_run_all_tests(void);
/* The same with kunit.filter_glob=glob and no kunit.filter, for one run. */
int kunit_run_glob(const char *glob);

/* Internals the harness's own tests use. */
bool __kunit_try_run(struct kunit *test, void (*fn)(struct kunit *test));
bool kunit_filter_match(const char *glob, const char *suite, const char *name);
/*
 * Whether @c passes an attribute filter "speed<op><value>" (op: = != < <= >
 * >=, value: very_slow, slow or normal; unset counts as normal). Returns 1,
 * 0, or -EINVAL for a filter it cannot parse.
 */
int kunit_attr_match(const char *filter, const struct kunit_case *c);

void __noreturn kunit_abort(struct kunit *test);
void kunit_set_failure(struct kunit *test);
void kunit_log(struct kunit *test, const char *fmt, ...) __printf(2, 3);
void kunit_mark_skipped_fmt(struct kunit *test, const char *fmt, ...)
	__printf(2, 3);

/*
 * Bounded waits for a case that waits on other threads: yield until the
 * condition holds or ms milliseconds have passed, and return whether it
 * holds. kunit_wait_for() calls cond(arg); kunit_wait_eq() reads *v.
 */
bool kunit_wait_for(bool (*cond)(void *arg), void *arg, unsigned int ms);
bool kunit_wait_eq(int *v, int want, unsigned int ms);

void *kunit_kmalloc(struct kunit *test, size_t size, unsigned int gfp);
void *kunit_kzalloc(struct kunit *test, size_t size, unsigned int gfp);
void kunit_kfree(struct kunit *test, const void *ptr);

#define kunit_info(test, fmt, ...) kunit_log(test, fmt, ##__VA_ARGS__)
#define kunit_warn(test, fmt, ...) kunit_log(test, fmt, ##__VA_ARGS__)
#define kunit_err(test, fmt, ...) kunit_log(test, fmt, ##__VA_ARGS__)

#define kunit_mark_skipped(test, fmt, ...) \
	kunit_mark_skipped_fmt(test, fmt, ##__VA_ARGS__)

#define kunit_skip(test, fmt, ...)                                   \
	do {                                                         \
		kunit_mark_skipped(test, fmt, ##__VA_ARGS__);        \
		kunit_abort(test);                                   \
	} while (0)

/* Failure reports; one helper per kind of value keeps the macros small. */
void kunit_fail_int(struct kunit *test, const char *file, int line,
		    bool assert, const char *op, const char *ltext,
		    const char *rtext, long long lval, long long rval,
		    bool is_unsigned);
void kunit_fail_ptr(struct kunit *test, const char *file, int line,
		    bool assert, const char *op, const char *ltext,
		    const char *rtext, const void *lval, const void *rval);
void kunit_fail_str(struct kunit *test, const char *file, int line,
		    bool assert, const char *op, const char *ltext,
		    const char *rtext, const char *lval, const char *rval);
void kunit_fail_mem(struct kunit *test, const char *file, int line,
		    bool assert, const char *op, const char *ltext,
		    const char *rtext, const void *lval, const void *rval,
		    size_t size);
void kunit_fail_msg(struct kunit *test, const char *file, int line,
		    bool assert, const char *fmt, ...) __printf(5, 6);

#define __kunit_is_unsigned(x) ((typeof(x))-1 > (typeof(x))0)

#define KUNIT_BINARY_INT(test, assert, left, op, right, fmt...)              \
	do {                                                                  \
		typeof(left) __left = (left);                                 \
		typeof(right) __right = (right);                              \
		if (!(__left op __right)) {                                   \
			kunit_fail_int(test, __FILE__, __LINE__, assert, #op, \
				       #left, #right, (long long)__left,      \
				       (long long)__right,                    \
				       __kunit_is_unsigned(__left));          \
			__kunit_msg(test, __FILE__, __LINE__, assert, ##fmt); \
			if (assert)                                           \
				kunit_abort(test);                            \
		}                                                             \
	} while (0)

#define KUNIT_BINARY_PTR(test, assert, left, op, right, fmt...)              \
	do {                                                                  \
		const void *__left = (left);                                  \
		const void *__right = (right);                                \
		if (!(__left op __right)) {                                   \
			kunit_fail_ptr(test, __FILE__, __LINE__, assert, #op, \
				       #left, #right, __left, __right);       \
			__kunit_msg(test, __FILE__, __LINE__, assert, ##fmt); \
			if (assert)                                           \
				kunit_abort(test);                            \
		}                                                             \
	} while (0)

#define KUNIT_BINARY_STR(test, assert, left, op, right, fmt...)               \
	do {                                                                   \
		const char *__left = (left);                                   \
		const char *__right = (right);                                 \
		if (!(__left && __right && strcmp(__left, __right) op 0)) {    \
			kunit_fail_str(test, __FILE__, __LINE__, assert, #op,  \
				       #left, #right, __left, __right);        \
			__kunit_msg(test, __FILE__, __LINE__, assert, ##fmt);  \
			if (assert)                                            \
				kunit_abort(test);                             \
		}                                                              \
	} while (0)

#define KUNIT_BINARY_MEM(test, assert, left, op, right, size, fmt...)          \
	do {                                                                   \
		const void *__left = (left);                                   \
		const void *__right = (right);                                 \
		size_t __size = (size);                                        \
		if (!(__left && __right &&                                     \
		      memcmp(__left, __right, __size) op 0)) {                 \
			kunit_fail_mem(test, __FILE__, __LINE__, assert, #op,  \
				       #left, #right, __left, __right,         \
				       __size);                                \
			__kunit_msg(test, __FILE__, __LINE__, assert, ##fmt);  \
			if (assert)                                            \
				kunit_abort(test);                             \
		}                                                              \
	} while (0)

#define KUNIT_UNARY(test, assert, cond, text, fmt...)                         \
	do {                                                                  \
		if (!(cond)) {                                                \
			kunit_fail_msg(test, __FILE__, __LINE__, assert,      \
				       "Expected %s", text);                  \
			__kunit_msg(test, __FILE__, __LINE__, assert, ##fmt); \
			if (assert)                                           \
				kunit_abort(test);                            \
		}                                                             \
	} while (0)

/* The optional user message of the _MSG variants, printed after the report. */
#define __kunit_msg(test, file, line, assert, fmt...) \
	__kunit_msg_n(test, ##fmt, NULL)
#define __kunit_msg_n(test, fmt, ...) \
	__kunit_msg_print(test, fmt, ##__VA_ARGS__)
void __kunit_msg_print(struct kunit *test, const char *fmt, ...);

#define KUNIT_FAIL(test, fmt, ...)                                     \
	kunit_fail_msg(test, __FILE__, __LINE__, false, fmt, ##__VA_ARGS__)

#define KUNIT_SUCCEED(test) do { } while (0)

#define __KUNIT_TRUE(test, a, cond, fmt...) \
	KUNIT_UNARY(test, a, !!(cond), #cond " to be true", ##fmt)
#define __KUNIT_FALSE(test, a, cond, fmt...) \
	KUNIT_UNARY(test, a, !(cond), #cond " to be false", ##fmt)
#define __KUNIT_NULL(test, a, ptr, fmt...) \
	KUNIT_BINARY_PTR(test, a, ptr, ==, NULL, ##fmt)
#define __KUNIT_NOT_NULL(test, a, ptr, fmt...) \
	KUNIT_BINARY_PTR(test, a, ptr, !=, NULL, ##fmt)

#define KUNIT_EXPECT_TRUE(test, c) __KUNIT_TRUE(test, false, c)
#define KUNIT_EXPECT_FALSE(test, c) __KUNIT_FALSE(test, false, c)
#define KUNIT_EXPECT_EQ(test, l, r) KUNIT_BINARY_INT(test, false, l, ==, r)
#define KUNIT_EXPECT_NE(test, l, r) KUNIT_BINARY_INT(test, false, l, !=, r)
#define KUNIT_EXPECT_LT(test, l, r) KUNIT_BINARY_INT(test, false, l, <, r)
#define KUNIT_EXPECT_LE(test, l, r) KUNIT_BINARY_INT(test, false, l, <=, r)
#define KUNIT_EXPECT_GT(test, l, r) KUNIT_BINARY_INT(test, false, l, >, r)
#define KUNIT_EXPECT_GE(test, l, r) KUNIT_BINARY_INT(test, false, l, >=, r)
#define KUNIT_EXPECT_PTR_EQ(test, l, r) KUNIT_BINARY_PTR(test, false, l, ==, r)
#define KUNIT_EXPECT_PTR_NE(test, l, r) KUNIT_BINARY_PTR(test, false, l, !=, r)
#define KUNIT_EXPECT_NULL(test, p) __KUNIT_NULL(test, false, p)
#define KUNIT_EXPECT_NOT_NULL(test, p) __KUNIT_NOT_NULL(test, false, p)
#define KUNIT_EXPECT_STREQ(test, l, r) KUNIT_BINARY_STR(test, false, l, ==, r)
#define KUNIT_EXPECT_STRNEQ(test, l, r) KUNIT_BINARY_STR(test, false, l, !=, r)
#define KUNIT_EXPECT_MEMEQ(test, l, r, n) \
	KUNIT_BINARY_MEM(test, false, l, ==, r, n)
#define KUNIT_EXPECT_MEMNEQ(test, l, r, n) \
	KUNIT_BINARY_MEM(test, false, l, !=, r, n)

#define KUNIT_ASSERT_TRUE(test, c) __KUNIT_TRUE(test, true, c)
#define KUNIT_ASSERT_FALSE(test, c) __KUNIT_FALSE(test, true, c)
#define KUNIT_ASSERT_EQ(test, l, r) KUNIT_BINARY_INT(test, true, l, ==, r)
#define KUNIT_ASSERT_NE(test, l, r) KUNIT_BINARY_INT(test, true, l, !=, r)
#define KUNIT_ASSERT_LT(test, l, r) KUNIT_BINARY_INT(test, true, l, <, r)
#define KUNIT_ASSERT_LE(test, l, r) KUNIT_BINARY_INT(test, true, l, <=, r)
#define KUNIT_ASSERT_GT(test, l, r) KUNIT_BINARY_INT(test, true, l, >, r)
#define KUNIT_ASSERT_GE(test, l, r) KUNIT_BINARY_INT(test, true, l, >=, r)
#define KUNIT_ASSERT_PTR_EQ(test, l, r) KUNIT_BINARY_PTR(test, true, l, ==, r)
#define KUNIT_ASSERT_PTR_NE(test, l, r) KUNIT_BINARY_PTR(test, true, l, !=, r)
#define KUNIT_ASSERT_NULL(test, p) __KUNIT_NULL(test, true, p)
#define KUNIT_ASSERT_NOT_NULL(test, p) __KUNIT_NOT_NULL(test, true, p)
#define KUNIT_ASSERT_STREQ(test, l, r) KUNIT_BINARY_STR(test, true, l, ==, r)
#define KUNIT_ASSERT_STRNEQ(test, l, r) KUNIT_BINARY_STR(test, true, l, !=, r)
#define KUNIT_ASSERT_MEMEQ(test, l, r, n) \
	KUNIT_BINARY_MEM(test, true, l, ==, r, n)
#define KUNIT_ASSERT_MEMNEQ(test, l, r, n) \
	KUNIT_BINARY_MEM(test, true, l, !=, r, n)

/* _MSG variants: a printf-style message follows the report. */
#define KUNIT_EXPECT_TRUE_MSG(test, c, fmt...) __KUNIT_TRUE(test, false, c, fmt)
#define KUNIT_EXPECT_FALSE_MSG(test, c, fmt...) \
	__KUNIT_FALSE(test, false, c, fmt)
#define KUNIT_EXPECT_EQ_MSG(test, l, r, fmt...) \
	KUNIT_BINARY_INT(test, false, l, ==, r, fmt)
#define KUNIT_EXPECT_NE_MSG(test, l, r, fmt...) \
	KUNIT_BINARY_INT(test, false, l, !=, r, fmt)
#define KUNIT_EXPECT_LT_MSG(test, l, r, fmt...) \
	KUNIT_BINARY_INT(test, false, l, <, r, fmt)
#define KUNIT_EXPECT_LE_MSG(test, l, r, fmt...) \
	KUNIT_BINARY_INT(test, false, l, <=, r, fmt)
#define KUNIT_EXPECT_GT_MSG(test, l, r, fmt...) \
	KUNIT_BINARY_INT(test, false, l, >, r, fmt)
#define KUNIT_EXPECT_GE_MSG(test, l, r, fmt...) \
	KUNIT_BINARY_INT(test, false, l, >=, r, fmt)
#define KUNIT_EXPECT_STREQ_MSG(test, l, r, fmt...) \
	KUNIT_BINARY_STR(test, false, l, ==, r, fmt)
#define KUNIT_EXPECT_MEMEQ_MSG(test, l, r, n, fmt...) \
	KUNIT_BINARY_MEM(test, false, l, ==, r, n, fmt)
#define KUNIT_EXPECT_NOT_NULL_MSG(test, p, fmt...) \
	__KUNIT_NOT_NULL(test, false, p, fmt)
#define KUNIT_EXPECT_NULL_MSG(test, p, fmt...) __KUNIT_NULL(test, false, p, fmt)
#define KUNIT_ASSERT_TRUE_MSG(test, c, fmt...) __KUNIT_TRUE(test, true, c, fmt)
#define KUNIT_ASSERT_FALSE_MSG(test, c, fmt...) __KUNIT_FALSE(test, true, c, fmt)
#define KUNIT_ASSERT_NOT_NULL_MSG(test, p, fmt...) \
	__KUNIT_NOT_NULL(test, true, p, fmt)
#define KUNIT_ASSERT_NE_MSG(test, l, r, fmt...) \
	KUNIT_BINARY_INT(test, true, l, !=, r, fmt)
#define KUNIT_ASSERT_EQ_MSG(test, l, r, fmt...) \
	KUNIT_BINARY_INT(test, true, l, ==, r, fmt)

#endif /* _KUNIT_TEST_H */
