// SPDX-License-Identifier: GPL-2.0
/*
 * Static key tests of the generic engine. "static_keys" checks the API's
 * semantics and runs with CONFIG_JUMP_LABEL=y and =n alike;
 * "jump_label_table" checks the sorted table, and exists only with =y. The
 * bytes at the sites are checked by arch/x86/kernel/jump_label_test.c.
 */
#include <linux/cpu.h>
#include <linux/init.h>
#include <linux/jump_label.h>
#include <linux/kallsyms.h>
#include <linux/moduleparam.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <fixtures/static_key_sites.h>
#include <kunit/test.h>

DEFINE_STATIC_KEY_FALSE(jlt_false);
DEFINE_STATIC_KEY_TRUE(jlt_true);
DEFINE_STATIC_KEY_FALSE(jlt_ref);
DEFINE_STATIC_KEY_ARRAY_FALSE(jlt_array, 4);
DEFINE_STATIC_KEY_ARRAY_TRUE(jlt_array_true, 2);
DEFINE_STATIC_KEY_MAYBE(CONFIG_JUMP_LABEL_TEST, jlt_maybe_on);
DEFINE_STATIC_KEY_MAYBE(CONFIG_JUMP_LABEL_TEST_UNDEFINED, jlt_maybe_off);
DEFINE_STATIC_KEY_FALSE_RO(jlt_ro);
DEFINE_STATIC_KEY_TRUE_RO(jlt_ro_true);
DEFINE_STATIC_KEY_MAYBE_RO(CONFIG_JUMP_LABEL_TEST, jlt_maybe_ro_on);
DEFINE_STATIC_KEY_MAYBE_RO(CONFIG_JUMP_LABEL_TEST_UNDEFINED, jlt_maybe_ro_off);
DEFINE_STATIC_KEY_FALSE(jlt_early);
DEFINE_STATIC_KEY_FALSE(jlt_initsite);
DEFINE_STATIC_KEY_ARRAY_FALSE(jlt_negative, 4);
DEFINE_STATIC_KEY_FALSE(jlt_held);
DEFINE_STATIC_KEY_FALSE(jlt_held_bool);
DEFINE_STATIC_KEY_TRUE(jlt_held_true);

/* The old API, as an old caller writes it (old-api: allowed, a test of it). */
struct static_key jlt_old_false = STATIC_KEY_INIT_FALSE;
struct static_key jlt_old_true = STATIC_KEY_INIT_TRUE;

static noinline int jlt_old_false_fn(void)
{
	return static_key_false(&jlt_old_false) ? 1 : 0;
}

static noinline int jlt_old_true_fn(void)
{
	return static_key_true(&jlt_old_true) ? 1 : 0;
}

/* Site functions: <fixtures/static_key_sites.h>. */
#define JLT_UNLIKELY STATIC_KEY_TEST_UNLIKELY
#define JLT_LIKELY STATIC_KEY_TEST_LIKELY

JLT_UNLIKELY(jlt_false_unlikely, &jlt_false)
JLT_LIKELY(jlt_false_likely, &jlt_false)
JLT_UNLIKELY(jlt_true_unlikely, &jlt_true)
JLT_LIKELY(jlt_true_likely, &jlt_true)
JLT_UNLIKELY(jlt_ref_fn, &jlt_ref)
JLT_UNLIKELY(jlt_array0_fn, &jlt_array[0])
JLT_UNLIKELY(jlt_array3_fn, &jlt_array[3])
JLT_LIKELY(jlt_array_true1_fn, &jlt_array_true[1])
JLT_UNLIKELY(jlt_ro_fn, &jlt_ro)
JLT_LIKELY(jlt_ro_true_fn, &jlt_ro_true)
JLT_LIKELY(jlt_maybe_ro_on_fn, &jlt_maybe_ro_on)
JLT_UNLIKELY(jlt_maybe_ro_off_fn, &jlt_maybe_ro_off)
JLT_UNLIKELY(jlt_early_fn, &jlt_early)
JLT_UNLIKELY(jlt_initsite_fn, &jlt_initsite)
JLT_UNLIKELY(jlt_held_fn, &jlt_held)

static noinline int jlt_maybe_on_fn(void)
{
	return static_branch_maybe(CONFIG_JUMP_LABEL_TEST, &jlt_maybe_on) ? 1 : 0;
}

static noinline int jlt_maybe_off_fn(void)
{
	return static_branch_maybe(CONFIG_JUMP_LABEL_TEST_UNDEFINED,
				   &jlt_maybe_off) ? 1 : 0;
}

/* A site in init text, gone after boot. */
static __init noinline int jlt_initsite_init_fn(void)
{
	return static_branch_unlikely(&jlt_initsite) ? 1 : 0;
}

static unsigned long early_warnings;
static int early_init_fn_result;

/* Before jump_label_init(). */
static int __init jlt_early_initcall(void)
{
	unsigned long before = nr_warnings;

	static_branch_enable(&jlt_early);
	early_warnings = nr_warnings - before;
	early_init_fn_result = jlt_initsite_init_fn();
	return 0;
}
early_initcall(jlt_early_initcall);

/* During init, after jump_label_init(): _RO keys may still change. */
static int __init jlt_ro_initcall(void)
{
	static_branch_enable(&jlt_ro);
	static_branch_disable(&jlt_ro_true);
	return 0;
}
late_initcall(jlt_ro_initcall);

typedef int (*jlt_fn_t)(void);

/* Flips the key with one API pair and checks the branch both ways, twice. */
enum jlt_op { JLT_ENABLE_DISABLE, JLT_INC_DEC };

static void jlt_set(struct static_key *key, enum jlt_op op, bool on)
{
	if (op == JLT_ENABLE_DISABLE)
		on ? static_key_enable(key) : static_key_disable(key);
	else
		on ? (void)static_key_slow_inc(key) : static_key_slow_dec(key);
}

/* A key and its four sites: [likely][long]. */
struct jlt_key {
	struct static_key *key;
	bool initially;
	jlt_fn_t fns[2][2];
};

static const struct jlt_key jlt_keys[] = {
	{ &jlt_false.key, false,
	  { { jlt_false_unlikely, jlt_false_unlikely_long },
	    { jlt_false_likely, jlt_false_likely_long } } },
	{ &jlt_true.key, true,
	  { { jlt_true_unlikely, jlt_true_unlikely_long },
	    { jlt_true_likely, jlt_true_likely_long } } },
};

typedef void (*jlt_check_t)(struct kunit *test, const struct jlt_key *k,
			    bool enabled);

static void jlt_check_branches(struct kunit *test, const struct jlt_key *k,
			       bool enabled)
{
	int l, n;

	KUNIT_EXPECT_EQ(test, static_key_enabled(k->key), enabled);
	for (l = 0; l < 2; l++)
		for (n = 0; n < 2; n++)
			KUNIT_EXPECT_EQ_MSG(test, k->fns[l][n](), enabled,
					    "site in %ps", k->fns[l][n]);
}

/* Every key x both API pairs: flipped away from its default and back, twice. */
static void jlt_flip_all(struct kunit *test, jlt_check_t check)
{
	unsigned int i, round;
	enum jlt_op op;

	for (i = 0; i < ARRAY_SIZE(jlt_keys); i++) {
		const struct jlt_key *k = &jlt_keys[i];

		for (op = JLT_ENABLE_DISABLE; op <= JLT_INC_DEC; op++) {
			bool state = k->initially;

			check(test, k, state);
			for (round = 0; round < 4; round++) {
				state = !state;
				jlt_set(k->key, op, state);
				check(test, k, state);
			}
		}
	}
}

static void jlt_test_flip_branches(struct kunit *test)
{
	jlt_flip_all(test, jlt_check_branches);
}

static void jlt_test_arrays(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, jlt_array3_fn(), 0);
	static_branch_enable(&jlt_array[3]);
	KUNIT_EXPECT_EQ(test, jlt_array3_fn(), 1);
	KUNIT_EXPECT_EQ(test, jlt_array3_fn_long(), 1);
	KUNIT_EXPECT_EQ(test, jlt_array0_fn(), 0);
	KUNIT_EXPECT_FALSE(test, static_key_enabled(&jlt_array[0]));
	static_branch_disable(&jlt_array[3]);
	KUNIT_EXPECT_EQ(test, jlt_array3_fn(), 0);

	KUNIT_EXPECT_TRUE(test, static_key_enabled(&jlt_array_true[0]));
	KUNIT_EXPECT_EQ(test, jlt_array_true1_fn(), 1);
	static_branch_disable(&jlt_array_true[1]);
	KUNIT_EXPECT_EQ(test, jlt_array_true1_fn(), 0);
	KUNIT_EXPECT_EQ(test, jlt_array_true1_fn_long(), 0);
	KUNIT_EXPECT_TRUE(test, static_key_enabled(&jlt_array_true[0]));
	static_branch_enable(&jlt_array_true[1]);
	KUNIT_EXPECT_EQ(test, jlt_array_true1_fn(), 1);
}

static void jlt_test_maybe(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, __same_type(jlt_maybe_on, struct static_key_true));
	KUNIT_EXPECT_TRUE(test, __same_type(jlt_maybe_off, struct static_key_false));
	KUNIT_EXPECT_EQ(test, jlt_maybe_on_fn(), 1);
	KUNIT_EXPECT_EQ(test, jlt_maybe_off_fn(), 0);
	static_branch_disable(&jlt_maybe_on);
	static_branch_enable(&jlt_maybe_off);
	KUNIT_EXPECT_EQ(test, jlt_maybe_on_fn(), 0);
	KUNIT_EXPECT_EQ(test, jlt_maybe_off_fn(), 1);
	static_branch_enable(&jlt_maybe_on);
	static_branch_disable(&jlt_maybe_off);
	KUNIT_EXPECT_EQ(test, jlt_maybe_on_fn(), 1);
	KUNIT_EXPECT_EQ(test, jlt_maybe_off_fn(), 0);
}

/* Flipped by an initcall; sealed read-only since. */
static void jlt_test_ro(struct kunit *test)
{
	unsigned long warns = nr_warnings;
	u64 log = printk_log_end();
	int v = 0;

	KUNIT_EXPECT_TRUE(test, static_key_enabled(&jlt_ro));
	KUNIT_EXPECT_EQ(test, jlt_ro_fn(), 1);
	KUNIT_EXPECT_FALSE(test, static_key_enabled(&jlt_ro_true));
	KUNIT_EXPECT_EQ(test, jlt_ro_true_fn(), 0);
	KUNIT_EXPECT_EQ(test, copy_to_kernel_nofault(&jlt_ro.key.enabled, &v,
						     sizeof(v)), -EFAULT);
	static_branch_disable(&jlt_ro);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1);
	STATIC_KEY_TEST_EXPECT_WARN(test, log, jlt_test_ro, "read-only (_RO)");
	KUNIT_EXPECT_TRUE(test, static_key_enabled(&jlt_ro));
	KUNIT_EXPECT_EQ(test, jlt_ro_fn(), 1);
	KUNIT_EXPECT_FALSE(test, static_branch_inc(&jlt_ro));
	KUNIT_EXPECT_EQ(test, static_key_count(&jlt_ro.key), 1);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1); /* once per key */
}

static bool jlt_in_ro_after_init(const void *p)
{
	return p >= (void *)__start_ro_after_init &&
	       p < (void *)__end_ro_after_init;
}

/* _MAYBE_RO: the type follows the option, the key is sealed read-only. */
static void jlt_test_maybe_ro(struct kunit *test)
{
	int v = 0;

	KUNIT_EXPECT_TRUE(test,
			  __same_type(jlt_maybe_ro_on, struct static_key_true));
	KUNIT_EXPECT_TRUE(test,
			  __same_type(jlt_maybe_ro_off, struct static_key_false));
	KUNIT_EXPECT_EQ(test, jlt_maybe_ro_on_fn(), 1);
	KUNIT_EXPECT_EQ(test, jlt_maybe_ro_off_fn(), 0);
	KUNIT_EXPECT_TRUE(test, jlt_in_ro_after_init(&jlt_maybe_ro_on));
	KUNIT_EXPECT_TRUE(test, jlt_in_ro_after_init(&jlt_maybe_ro_off));
	KUNIT_EXPECT_EQ(test,
			copy_to_kernel_nofault(&jlt_maybe_ro_off.key.enabled,
					       &v, sizeof(v)),
			-EFAULT);
}

static void jlt_test_old_api(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, jlt_old_false_fn(), 0);
	KUNIT_EXPECT_TRUE(test, static_key_slow_inc(&jlt_old_false));
	KUNIT_EXPECT_EQ(test, jlt_old_false_fn(), 1);
	static_key_slow_dec(&jlt_old_false);
	KUNIT_EXPECT_EQ(test, jlt_old_false_fn(), 0);

	KUNIT_EXPECT_EQ(test, jlt_old_true_fn(), 1);
	static_key_disable(&jlt_old_true);
	KUNIT_EXPECT_EQ(test, jlt_old_true_fn(), 0);
	KUNIT_EXPECT_FALSE(test, static_key_enabled(&jlt_old_true));
	static_key_enable(&jlt_old_true);
	KUNIT_EXPECT_EQ(test, jlt_old_true_fn(), 1);
}

static void jlt_test_refcount_nested(struct kunit *test)
{
	int i;

	for (i = 1; i <= 3; i++) {
		KUNIT_EXPECT_TRUE(test, static_branch_inc(&jlt_ref));
		KUNIT_EXPECT_EQ(test, static_key_count(&jlt_ref.key), i);
		KUNIT_EXPECT_EQ(test, jlt_ref_fn(), 1);
	}
	for (i = 2; i >= 0; i--) {
		static_branch_dec(&jlt_ref);
		KUNIT_EXPECT_EQ(test, static_key_count(&jlt_ref.key), i);
		KUNIT_EXPECT_EQ(test, jlt_ref_fn(), i > 0);
		KUNIT_EXPECT_EQ(test, jlt_ref_fn_long(), i > 0);
	}
}

static void jlt_test_inc_overflow(struct kunit *test)
{
	unsigned long warns;
	u64 log;

	KUNIT_ASSERT_TRUE(test, static_branch_inc(&jlt_ref));
	atomic_set(&jlt_ref.key.enabled, INT_MAX);
	warns = nr_warnings;
	log = printk_log_end();
	KUNIT_EXPECT_FALSE(test, static_branch_inc(&jlt_ref));
	KUNIT_EXPECT_EQ(test, static_key_count(&jlt_ref.key), INT_MAX);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1);
	STATIC_KEY_TEST_EXPECT_WARN(test, log, jlt_test_inc_overflow,
				    "count would overflow INT_MAX");
	KUNIT_EXPECT_FALSE(test, static_key_fast_inc_not_disabled(&jlt_ref.key));
	KUNIT_EXPECT_EQ(test, jlt_ref_fn(), 1);
	atomic_set(&jlt_ref.key.enabled, 1);
	static_branch_dec(&jlt_ref);
	KUNIT_EXPECT_EQ(test, jlt_ref_fn(), 0);
}

static void jlt_test_fast_inc(struct kunit *test)
{
	KUNIT_EXPECT_FALSE(test, static_key_fast_inc_not_disabled(&jlt_ref.key));
	KUNIT_EXPECT_EQ(test, static_key_count(&jlt_ref.key), 0);
	KUNIT_EXPECT_EQ(test, jlt_ref_fn(), 0);
	static_branch_inc(&jlt_ref);
	KUNIT_EXPECT_TRUE(test, static_key_fast_inc_not_disabled(&jlt_ref.key));
	KUNIT_EXPECT_EQ(test, static_key_count(&jlt_ref.key), 2);
	static_branch_dec(&jlt_ref);
	static_branch_dec(&jlt_ref);
	KUNIT_EXPECT_EQ(test, static_key_count(&jlt_ref.key), 0);
	KUNIT_EXPECT_EQ(test, jlt_ref_fn(), 0);
}

static void jlt_test_underflow(struct kunit *test)
{
	unsigned long warns = nr_warnings;
	u64 log = printk_log_end();

	static_branch_dec(&jlt_ref);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1);
	STATIC_KEY_TEST_EXPECT_WARN(test, log, jlt_test_underflow,
				    "decremented below zero");
	KUNIT_EXPECT_EQ(test, static_key_count(&jlt_ref.key), 0);
	KUNIT_EXPECT_EQ(test, jlt_ref_fn(), 0);
	static_branch_dec(&jlt_ref);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1); /* once */
	KUNIT_EXPECT_EQ(test, static_key_count(&jlt_ref.key), 0);
	/* Still usable afterwards. */
	static_branch_inc(&jlt_ref);
	KUNIT_EXPECT_EQ(test, jlt_ref_fn(), 1);
	static_branch_dec(&jlt_ref);
	KUNIT_EXPECT_EQ(test, jlt_ref_fn(), 0);
}

static void jlt_test_mixed(struct kunit *test)
{
	struct static_key *key = &jlt_array[1].key;
	unsigned long warns;
	u64 log;

	static_key_slow_inc(key);
	static_key_slow_inc(key);
	warns = nr_warnings;
	log = printk_log_end();
	static_key_enable(key);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1);
	STATIC_KEY_TEST_EXPECT_WARN(test, log, jlt_test_mixed,
				    "mixed with inc/dec");
	KUNIT_EXPECT_EQ(test, static_key_count(key), 2);
	static_key_disable(key);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1); /* once per key */
	KUNIT_EXPECT_EQ(test, static_key_count(key), 2);
	static_key_slow_dec(key);
	static_key_slow_dec(key);
	KUNIT_EXPECT_EQ(test, static_key_count(key), 0);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1);
}

/*
 * A negative count (memory corruption, a write behind the API) is named as
 * such by every change, which leaves it alone; -1 exists only inside
 * jump_label_mutex, so -2 stands for any.
 */
static void jlt_test_negative_count(struct kunit *test)
{
	struct static_key *keys[] = {
		&jlt_negative[0].key, &jlt_negative[1].key,
		&jlt_negative[2].key, &jlt_negative[3].key,
	};
	unsigned long warns;
	unsigned int i;
	u64 log;

	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		atomic_set(&keys[i]->enabled, -2);
		warns = nr_warnings;
		log = printk_log_end();
		if (i == 0)
			KUNIT_EXPECT_FALSE(test, static_key_slow_inc(keys[i]));
		else if (i == 1)
			static_key_slow_dec(keys[i]);
		else if (i == 2)
			static_key_enable(keys[i]);
		else
			static_key_disable(keys[i]);
		KUNIT_EXPECT_EQ_MSG(test, nr_warnings, warns + 1, "op %u", i);
		STATIC_KEY_TEST_EXPECT_WARN(test, log, jlt_test_negative_count,
					    "has a negative count");
		KUNIT_EXPECT_EQ_MSG(test, atomic_read(&keys[i]->enabled), -2,
				    "op %u", i);
		KUNIT_EXPECT_FALSE(test,
				   static_key_fast_inc_not_disabled(keys[i]));
		KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1);
		atomic_set(&keys[i]->enabled, 0);
	}
}

static noinline void jlt_disable_held(struct static_key_false *key)
{
	static_branch_disable(key);
	barrier(); /* not a tail call: the WARN names this function */
}

/*
 * static_branch_disable() of a key at 1 disables it even when the 1 is an
 * inc's reference (Linux does): it cannot WARN, since the holder may be
 * the one disabling. The holder's later dec underflows, and that WARN
 * names the disable. A 1 from enable, or a TRUE key back at its default
 * after a dec and an inc, draws no such note.
 */
static void jlt_test_disable_held(struct kunit *test)
{
	unsigned long warns;
	u64 log;

	KUNIT_EXPECT_TRUE(test, static_branch_inc(&jlt_held));
	warns = nr_warnings;
	log = printk_log_end();
	jlt_disable_held(&jlt_held);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns);
	KUNIT_EXPECT_EQ(test, static_key_count(&jlt_held.key), 0);
	KUNIT_EXPECT_EQ(test, jlt_held_fn(), 0);
	static_branch_dec(&jlt_held);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1);
	STATIC_KEY_TEST_EXPECT_WARN(test, log, jlt_test_disable_held,
				    "decremented below zero (unbalanced dec) "
				    "(count 0): jlt_disable_held+");
	KUNIT_EXPECT_EQ(test, static_key_count(&jlt_held.key), 0);

	log = printk_log_end();
	static_branch_enable(&jlt_held_bool);
	jlt_disable_held(&jlt_held_bool);
	static_branch_dec(&jlt_held_bool);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 2);
	STATIC_KEY_TEST_EXPECT_WARN(test, log, jlt_test_disable_held,
				    "decremented below zero");
	KUNIT_EXPECT_FALSE(test, printk_log_contains(log, "had disabled it"));

	static_branch_dec(&jlt_held_true);
	KUNIT_EXPECT_TRUE(test, static_branch_inc(&jlt_held_true));
	static_branch_disable(&jlt_held_true);
	static_branch_enable(&jlt_held_true);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 2);
	KUNIT_EXPECT_TRUE(test, static_key_enabled(&jlt_held_true));
}

static void jlt_test_before_init(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, early_warnings, 1);
	KUNIT_EXPECT_TRUE(test, static_key_initialized);
	KUNIT_EXPECT_TRUE(test, static_key_enabled(&jlt_early));
	KUNIT_EXPECT_EQ(test, jlt_early_fn(), 1);
	KUNIT_EXPECT_EQ(test, jlt_early_fn_long(), 1);
	KUNIT_EXPECT_EQ(test, early_init_fn_result, 0);
}

static void jlt_test_cpuslocked(struct kunit *test)
{
	cpus_read_lock();
	static_branch_enable_cpuslocked(&jlt_false);
	KUNIT_EXPECT_EQ(test, jlt_false_unlikely(), 1);
	static_branch_disable_cpuslocked(&jlt_false);
	KUNIT_EXPECT_EQ(test, jlt_false_unlikely(), 0);
	KUNIT_EXPECT_TRUE(test, static_branch_inc_cpuslocked(&jlt_false));
	KUNIT_EXPECT_EQ(test, jlt_false_likely(), 1);
	static_branch_dec_cpuslocked(&jlt_false);
	KUNIT_EXPECT_EQ(test, jlt_false_likely(), 0);
	cpus_read_unlock();
}

static void jlt_test_count_states(struct kunit *test)
{
	struct static_key *key = &jlt_array[2].key;

	KUNIT_EXPECT_FALSE(test, static_key_enabled(key));
	KUNIT_EXPECT_TRUE(test, static_key_enabled(&jlt_true));
	KUNIT_EXPECT_TRUE(test, static_key_enabled(&jlt_true.key));
	KUNIT_EXPECT_FALSE(test, static_key_enabled(&jlt_false));
	/* -1: the first inc is patching; it already counts as enabled. */
	atomic_set(&key->enabled, -1);
	KUNIT_EXPECT_EQ(test, static_key_count(key), 1);
	KUNIT_EXPECT_TRUE(test, static_key_enabled(key));
	atomic_set(&key->enabled, 0);
}

static struct kunit_case jlt_api_cases[] = {
	KUNIT_CASE(jlt_test_flip_branches),
	KUNIT_CASE(jlt_test_arrays),
	KUNIT_CASE(jlt_test_maybe),
	KUNIT_CASE(jlt_test_ro),
	KUNIT_CASE(jlt_test_maybe_ro),
	KUNIT_CASE(jlt_test_old_api),
	KUNIT_CASE(jlt_test_refcount_nested),
	KUNIT_CASE(jlt_test_inc_overflow),
	KUNIT_CASE(jlt_test_fast_inc),
	KUNIT_CASE(jlt_test_underflow),
	KUNIT_CASE(jlt_test_mixed),
	KUNIT_CASE(jlt_test_negative_count),
	KUNIT_CASE(jlt_test_disable_held),
	KUNIT_CASE(jlt_test_before_init),
	KUNIT_CASE(jlt_test_cpuslocked),
	KUNIT_CASE(jlt_test_count_states),
	{}
};

static struct kunit_suite jlt_api_suite = {
	.name = "static_keys",
	.test_cases = jlt_api_cases,
};

#ifdef CONFIG_JUMP_LABEL
#include <linux/jump_label_arch.h>

/*
 * The image's table came sorted from the build, boot found it so, and each
 * key points at the first of its contiguous entries.
 */
static void jlt_table_sorted_linked(struct kunit *test)
{
	struct jump_entry *iter, *prev = NULL;
	unsigned int n = __stop___jump_table - __start___jump_table, bad = 0;

	KUNIT_EXPECT_EQ(test, sizeof(struct jump_entry), 12);
	KUNIT_EXPECT_FALSE_MSG(test, jump_label_stats.sorted_at_boot,
			       "the image's table was not sorted by the build");
	KUNIT_EXPECT_EQ(test, jump_label_stats.entries, n);
	KUNIT_EXPECT_GE(test, jump_label_stats.keys, 14);
	KUNIT_EXPECT_GT(test, jump_label_stats.short_sites, 0);
	KUNIT_EXPECT_LT(test, jump_label_stats.short_sites, n);
	for (iter = __start___jump_table; iter < __stop___jump_table; iter++) {
		struct static_key *key = jump_entry_key(iter);

		if (prev && jump_entry_key(prev) == key) {
			bad += jump_entry_code(prev) >= jump_entry_code(iter);
		} else {
			bad += prev && jump_entry_key(prev) > key;
			bad += static_key_entries(key) != iter;
		}
		prev = iter;
	}
	KUNIT_EXPECT_EQ(test, bad, 0);
}

static void jlt_table_key_entries(struct kunit *test)
{
	struct jump_entry *entry;

	/* Four sites each: short and long, likely and unlikely. */
	KUNIT_EXPECT_EQ(test, static_key_test_entries(&jlt_false.key), 4);
	KUNIT_EXPECT_EQ(test, static_key_test_entries(&jlt_true.key), 4);
	KUNIT_EXPECT_EQ(test, static_key_test_entries(&jlt_array[3].key), 2);
	KUNIT_EXPECT_EQ(test, static_key_test_entries(&jlt_ref.key), 2);
	for_each_key_entry(&jlt_true.key, entry)
		KUNIT_EXPECT_PTR_EQ(test, jump_entry_key(entry), &jlt_true.key);
}

/*
 * A copy of some real entries in a scrambled order: boot's sort fallback
 * must put it in (key, code) order with every entry still pointing where it
 * did. The copy lives in .data, within reach of the s32 offsets.
 */
#define JLT_FAKE_ENTRIES 8
static struct jump_entry jlt_fake[JLT_FAKE_ENTRIES];

struct jlt_abs_entry {
	unsigned long code, target;
	s32 key_bits;
	struct static_key *key;
};

static bool jlt_abs_equal(const struct jlt_abs_entry *a,
			  const struct jlt_abs_entry *b)
{
	return a->code == b->code && a->target == b->target &&
	       a->key == b->key && a->key_bits == b->key_bits;
}

static void jlt_abs_put(struct jump_entry *e, const struct jlt_abs_entry *a)
{
	jump_entry_set(e, a->code, a->target, a->key, a->key_bits);
}

static void jlt_abs_get(const struct jump_entry *e, struct jlt_abs_entry *a)
{
	a->code = jump_entry_code(e);
	a->target = jump_entry_target(e);
	a->key = jump_entry_key(e);
	a->key_bits = jump_entry_flags(e);
}

static void jlt_table_sort_fallback(struct kunit *test)
{
	struct jlt_abs_entry orig[JLT_FAKE_ENTRIES], got;
	struct jump_entry *src[] = {
		static_key_entries(&jlt_true.key) + 3,
		static_key_entries(&jlt_false.key) + 1,
		static_key_entries(&jlt_true.key),
		static_key_entries(&jlt_array[3].key) + 1,
		static_key_entries(&jlt_false.key) + 3,
		static_key_entries(&jlt_array[3].key),
		static_key_entries(&jlt_false.key),
		static_key_entries(&jlt_true.key) + 1,
	};
	unsigned int i, j, found;

	BUILD_BUG_ON(ARRAY_SIZE(src) != JLT_FAKE_ENTRIES);
	for (i = 0; i < JLT_FAKE_ENTRIES; i++) {
		jlt_abs_get(src[i], &orig[i]);
		jlt_abs_put(&jlt_fake[i], &orig[i]);
	}
	KUNIT_EXPECT_TRUE(test, jump_label_sort_entries(jlt_fake,
						jlt_fake + JLT_FAKE_ENTRIES));
	for (i = 1; i < JLT_FAKE_ENTRIES; i++) {
		struct jump_entry *a = &jlt_fake[i - 1], *b = &jlt_fake[i];

		KUNIT_EXPECT_LT_MSG(test, jump_entry_cmp(a, b), 0,
				    "entries %u and %u out of order", i - 1, i);
	}
	/* Every original entry is there, unchanged, exactly once. */
	for (i = 0; i < JLT_FAKE_ENTRIES; i++) {
		for (found = 0, j = 0; j < JLT_FAKE_ENTRIES; j++) {
			jlt_abs_get(&jlt_fake[j], &got);
			found += jlt_abs_equal(&got, &orig[i]);
		}
		KUNIT_EXPECT_EQ_MSG(test, found, 1, "original entry %u", i);
	}
	/* Sorted now: one pass, no sort. */
	KUNIT_EXPECT_FALSE(test, jump_label_sort_entries(jlt_fake,
						 jlt_fake + JLT_FAKE_ENTRIES));
}

/* The entry of @key whose site lies in @fn, or NULL. */
static struct jump_entry *jlt_entry_in(struct static_key *key, const void *fn)
{
	unsigned long start = (unsigned long)fn, size = 0;
	struct jump_entry *entry;

	if (!kallsyms_lookup(start, &size, NULL))
		return NULL;
	for_each_key_entry(key, entry)
		if (jump_entry_code(entry) - start < size)
			return entry;
	return NULL;
}

static void jlt_table_text_reserved(struct kunit *test)
{
	struct jump_entry *e = jlt_entry_in(&jlt_false.key,
					    jlt_false_unlikely_long);
	unsigned long size = 0;
	u8 *code;

	KUNIT_ASSERT_NOT_NULL(test, e);
	code = (u8 *)jump_entry_code(e);
	KUNIT_ASSERT_EQ(test, arch_jump_entry_size(e), 5);
	KUNIT_EXPECT_EQ(test, jump_label_text_reserved(code, code + 4), 1);
	KUNIT_EXPECT_EQ(test, jump_label_text_reserved(code - 8, code), 1);
	KUNIT_EXPECT_EQ(test, jump_label_text_reserved(code + 4, code + 9), 1);
	KUNIT_EXPECT_EQ(test, jump_label_text_reserved(code + 5, code + 9), 0);
	KUNIT_EXPECT_EQ(test, jump_label_text_reserved(code - 1, code - 1), 0);
	/* A function with no site at all. */
	KUNIT_ASSERT_NOT_NULL(test, kallsyms_lookup((unsigned long)jlt_flip_all,
						    &size, NULL));
	KUNIT_EXPECT_EQ(test, jump_label_text_reserved((void *)jlt_flip_all,
				(u8 *)jlt_flip_all + size - 1), 0);
}

static struct kunit_case jlt_table_cases[] = {
	KUNIT_CASE(jlt_table_sorted_linked),
	KUNIT_CASE(jlt_table_key_entries),
	KUNIT_CASE(jlt_table_sort_fallback),
	KUNIT_CASE(jlt_table_text_reserved),
	{}
};

static struct kunit_suite jlt_table_suite = {
	.name = "jump_label_table",
	.test_cases = jlt_table_cases,
};

kunit_test_suites(&jlt_table_suite, &jlt_api_suite);
#else
kunit_test_suites(&jlt_api_suite);
#endif
