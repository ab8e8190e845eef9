// SPDX-License-Identifier: GPL-2.0
/*
 * Static key tests. "static_keys" checks the API's semantics and runs with
 * CONFIG_JUMP_LABEL=y and =n alike; "jump_label_sites" checks the patched
 * bytes themselves and the table, and exists only with =y.
 *
 * Each test site lives alone in a function of its own, so that the test
 * can find its entry by address and knows, independently of the code under
 * test, which macro and which length the site has.
 */
#include <linux/cpu.h>
#include <linux/init.h>
#include <linux/jump_label.h>
#include <linux/kallsyms.h>
#include <linux/moduleparam.h>
#include <linux/string.h>
#include <linux/uaccess.h>
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
DEFINE_STATIC_KEY_FALSE(jlt_early);
DEFINE_STATIC_KEY_FALSE(jlt_initsite);
DEFINE_STATIC_KEY_FALSE(jlt_corrupt);

/* The old API, as an old caller writes it; the warnings are expected. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
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
#pragma GCC diagnostic pop

/*
 * Site functions: 1 when the branch is taken. The short ones keep both
 * blocks within a jmp8's reach; the long ones put 200 bytes of NOPs in the
 * fall-through block so the assembler must use a jmp32.
 */
#define JLT_PAD() asm volatile(".skip 200, 0x90")

#define JLT_UNLIKELY(name, key)                                       \
	static noinline __maybe_unused int name(void)                 \
	{                                                             \
		if (static_branch_unlikely(key))                      \
			return 1;                                     \
		return 0;                                             \
	}                                                             \
	static noinline __maybe_unused int name##_long(void)          \
	{                                                             \
		if (static_branch_unlikely(key))                      \
			return 1;                                     \
		JLT_PAD();                                            \
		return 0;                                             \
	}

#define JLT_LIKELY(name, key)                                         \
	static noinline __maybe_unused int name(void)                 \
	{                                                             \
		if (static_branch_likely(key))                        \
			return 1;                                     \
		return 0;                                             \
	}                                                             \
	static noinline __maybe_unused int name##_long(void)          \
	{                                                             \
		if (static_branch_likely(key)) {                      \
			JLT_PAD();                                    \
			return 1;                                     \
		}                                                     \
		return 0;                                             \
	}

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
JLT_UNLIKELY(jlt_early_fn, &jlt_early)
JLT_UNLIKELY(jlt_initsite_fn, &jlt_initsite)
JLT_UNLIKELY(jlt_corrupt_fn, &jlt_corrupt)

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

/* Before jump_label_init(): called from start_kernel(). */
void __init jump_label_test_early(void)
{
	unsigned long before = nr_warnings;

	static_branch_enable(&jlt_early);
	early_warnings = nr_warnings - before;
	early_init_fn_result = jlt_initsite_init_fn();
}

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
	int v = 0;

	KUNIT_EXPECT_TRUE(test, static_key_enabled(&jlt_ro));
	KUNIT_EXPECT_EQ(test, jlt_ro_fn(), 1);
	KUNIT_EXPECT_FALSE(test, static_key_enabled(&jlt_ro_true));
	KUNIT_EXPECT_EQ(test, jlt_ro_true_fn(), 0);
	KUNIT_EXPECT_EQ(test, copy_to_kernel_nofault(&jlt_ro.key.enabled, &v,
						     sizeof(v)), -EFAULT);
	static_branch_disable(&jlt_ro);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1);
	KUNIT_EXPECT_TRUE(test, static_key_enabled(&jlt_ro));
	KUNIT_EXPECT_EQ(test, jlt_ro_fn(), 1);
	KUNIT_EXPECT_FALSE(test, static_branch_inc(&jlt_ro));
	KUNIT_EXPECT_EQ(test, static_key_count(&jlt_ro.key), 1);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1); /* once per key */
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

	KUNIT_ASSERT_TRUE(test, static_branch_inc(&jlt_ref));
	atomic_set(&jlt_ref.key.enabled, INT_MAX);
	warns = nr_warnings;
	KUNIT_EXPECT_FALSE(test, static_branch_inc(&jlt_ref));
	KUNIT_EXPECT_EQ(test, static_key_count(&jlt_ref.key), INT_MAX);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1);
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

	static_branch_dec(&jlt_ref);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1);
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

	static_key_slow_inc(key);
	static_key_slow_inc(key);
	warns = nr_warnings;
	static_key_enable(key);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1);
	KUNIT_EXPECT_EQ(test, static_key_count(key), 2);
	static_key_disable(key);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1); /* once per key */
	KUNIT_EXPECT_EQ(test, static_key_count(key), 2);
	static_key_slow_dec(key);
	static_key_slow_dec(key);
	KUNIT_EXPECT_EQ(test, static_key_count(key), 0);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1);
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
	KUNIT_CASE(jlt_test_old_api),
	KUNIT_CASE(jlt_test_refcount_nested),
	KUNIT_CASE(jlt_test_inc_overflow),
	KUNIT_CASE(jlt_test_fast_inc),
	KUNIT_CASE(jlt_test_underflow),
	KUNIT_CASE(jlt_test_mixed),
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
#include <asm/text-patching.h>

static const u8 jlt_nop2[2] = { 0x66, 0x90 };
static const u8 jlt_nop5[5] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 };

/* The one entry whose site lies in fn, or NULL. */
static struct jump_entry *jlt_entry(const void *fn)
{
	unsigned long start = (unsigned long)fn, size = 0;
	struct jump_entry *iter, *found = NULL;

	if (!kallsyms_lookup(start, &size, NULL))
		return NULL;
	for (iter = __start___jump_table; iter < __stop___jump_table; iter++) {
		unsigned long code = jump_entry_code(iter);

		if (code >= start && code < start + size) {
			if (found)
				return NULL;
			found = iter;
		}
	}
	return found;
}

/*
 * The exact bytes at the site in fn: a JMP exactly when enabled XOR likely,
 * of the length the test built the function for.
 */
static void jlt_expect_site(struct kunit *test, const void *fn, bool likely,
			    bool long_site, bool enabled)
{
	struct jump_entry *e = jlt_entry(fn);
	int size = long_site ? 5 : 2;
	const u8 *code;

	KUNIT_ASSERT_NOT_NULL_MSG(test, e, "no single site in %ps", fn);
	code = (const u8 *)jump_entry_code(e);
	KUNIT_EXPECT_EQ(test, jump_entry_is_branch(e), likely);
	if (enabled ^ likely) {
		long disp = (long)jump_entry_target(e) - (long)(code + size);
		long found = size == 2 ? (long)(s8)code[1] : (long)*(s32 *)(code + 1);

		KUNIT_EXPECT_EQ_MSG(test, code[0], size == 2 ? 0xeb : 0xe9,
				    "%ps: %*ph", fn, size, code);
		KUNIT_EXPECT_EQ_MSG(test, found, disp, "%ps: %*ph", fn, size, code);
	} else {
		KUNIT_EXPECT_MEMEQ_MSG(test, code, size == 2 ? jlt_nop2 : jlt_nop5,
				       size, "%ps", fn);
	}
}

static void jlt_check_bytes(struct kunit *test, const struct jlt_key *k,
			    bool enabled)
{
	int l, n;

	jlt_check_branches(test, k, enabled);
	for (l = 0; l < 2; l++)
		for (n = 0; n < 2; n++)
			jlt_expect_site(test, k->fns[l][n], l, n, enabled);
}

static void jlt_sites_initial(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(jlt_keys); i++)
		jlt_check_bytes(test, &jlt_keys[i], jlt_keys[i].initially);
	jlt_expect_site(test, jlt_ref_fn, false, false, false);
	jlt_expect_site(test, jlt_ref_fn_long, false, true, false);
	jlt_expect_site(test, jlt_array_true1_fn, true, false, true);
	jlt_expect_site(test, jlt_maybe_on_fn, true, false, true);
	jlt_expect_site(test, jlt_maybe_off_fn, false, false, false);
}

static void jlt_sites_flip_bytes(struct kunit *test)
{
	jlt_flip_all(test, jlt_check_bytes);
}

/* One flip, one batch, however many sites; none for refcount changes. */
static void jlt_sites_batches(struct kunit *test)
{
	struct text_poke_stats before = text_poke_stats;
	/* Unbatched (text_poke.batch=0): every site is a batch of its own. */
	unsigned long four = text_poke_batching ? 1 : 4;
	unsigned long two = text_poke_batching ? 1 : 2;

	static_branch_enable(&jlt_false);
	KUNIT_EXPECT_EQ(test, text_poke_stats.batches, before.batches + four);
	KUNIT_EXPECT_EQ(test, text_poke_stats.sites, before.sites + 4);
	KUNIT_EXPECT_EQ(test, text_poke_stats.sync_rounds,
			before.sync_rounds + 3 * four);
	static_branch_disable(&jlt_false);
	KUNIT_EXPECT_EQ(test, text_poke_stats.batches, before.batches + 2 * four);
	KUNIT_EXPECT_EQ(test, text_poke_stats.sites, before.sites + 8);

	before = text_poke_stats;
	static_branch_inc(&jlt_ref);
	static_branch_inc(&jlt_ref);
	static_branch_dec(&jlt_ref);
	KUNIT_EXPECT_EQ(test, text_poke_stats.batches, before.batches + two);
	static_branch_dec(&jlt_ref);
	KUNIT_EXPECT_EQ(test, text_poke_stats.batches, before.batches + 2 * two);
	KUNIT_EXPECT_EQ(test, text_poke_stats.sites, before.sites + 4);
}

/* text_poke.batch=0 on the command line switches batching off. */
static void jlt_sites_batch_param(struct kunit *test)
{
	bool off = strstr(saved_command_line, "text_poke.batch=0") ||
		   strstr(saved_command_line, "text_poke.batch=n");

	KUNIT_EXPECT_EQ(test, text_poke_batching, !off);
}

/* The table is sorted by (key, site) and each key points at its first entry. */
static void jlt_sites_table(struct kunit *test)
{
	struct jump_entry *iter, *prev = NULL;
	unsigned int n = __stop___jump_table - __start___jump_table, bad = 0;

	KUNIT_EXPECT_EQ(test, sizeof(struct jump_entry), 12);
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
			bad += (key->type & ~JUMP_TYPE_MASK) != (unsigned long)iter;
		}
		prev = iter;
	}
	KUNIT_EXPECT_EQ(test, bad, 0);
}

static void jlt_sites_early_and_ro(struct kunit *test)
{
	jlt_expect_site(test, jlt_early_fn, false, false, true);
	jlt_expect_site(test, jlt_early_fn_long, false, true, true);
	jlt_expect_site(test, jlt_ro_fn, false, false, true);
	jlt_expect_site(test, jlt_ro_true_fn, true, false, false);
}

/* The init-text site of jlt_initsite is gone: a flip patches only the other. */
static void jlt_sites_init_skipped(struct kunit *test)
{
	struct text_poke_stats before = text_poke_stats;
	struct jump_entry *iter;
	unsigned int entries = 0, init = 0;

	for (iter = __start___jump_table; iter < __stop___jump_table; iter++) {
		if (jump_entry_key(iter) != &jlt_initsite.key)
			continue;
		entries++;
		init += jump_entry_is_init(iter);
	}
	KUNIT_EXPECT_EQ(test, entries, 2);
	KUNIT_EXPECT_EQ(test, init, 1);
	static_branch_enable(&jlt_initsite);
	KUNIT_EXPECT_EQ(test, text_poke_stats.sites, before.sites + 1);
	KUNIT_EXPECT_EQ(test, jlt_initsite_fn(), 1);
	static_branch_disable(&jlt_initsite);
	KUNIT_EXPECT_EQ(test, text_poke_stats.sites, before.sites + 2);
	KUNIT_EXPECT_EQ(test, jlt_initsite_fn(), 0);
}

/* A site whose bytes are not what the key says is refused, not patched. */
static void jlt_sites_corrupt_refused(struct kunit *test)
{
	static const u8 int3s[2] = { 0xcc, 0xcc };
	struct jump_entry *e = jlt_entry(jlt_corrupt_fn);
	u8 saved[2];
	void *code;

	KUNIT_ASSERT_NOT_NULL(test, e);
	code = (void *)jump_entry_code(e);
	KUNIT_ASSERT_EQ(test, arch_jump_entry_size(e), 2);
	KUNIT_EXPECT_EQ(test, arch_jump_label_check_site(e, JUMP_LABEL_NOP), 0);
	KUNIT_EXPECT_EQ(test, arch_jump_label_check_site(e, JUMP_LABEL_JMP),
			-EINVAL);
	memcpy(saved, code, sizeof(saved));
	text_poke(code, int3s, sizeof(int3s));
	KUNIT_EXPECT_EQ(test, arch_jump_label_check_site(e, JUMP_LABEL_NOP),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, arch_jump_label_check_site(e, JUMP_LABEL_JMP),
			-EINVAL);
	text_poke(code, saved, sizeof(saved));
	KUNIT_EXPECT_EQ(test, arch_jump_label_check_site(e, JUMP_LABEL_NOP), 0);
	KUNIT_EXPECT_EQ(test, jlt_corrupt_fn(), 0);
}

static void jlt_sites_text_reserved(struct kunit *test)
{
	struct jump_entry *e = jlt_entry(jlt_false_unlikely_long);
	unsigned long size = 0;
	u8 *code;

	KUNIT_ASSERT_NOT_NULL(test, e);
	code = (u8 *)jump_entry_code(e);
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

static struct kunit_case jlt_sites_cases[] = {
	KUNIT_CASE(jlt_sites_initial),
	KUNIT_CASE(jlt_sites_flip_bytes),
	KUNIT_CASE(jlt_sites_batches),
	KUNIT_CASE(jlt_sites_batch_param),
	KUNIT_CASE(jlt_sites_table),
	KUNIT_CASE(jlt_sites_early_and_ro),
	KUNIT_CASE(jlt_sites_init_skipped),
	KUNIT_CASE(jlt_sites_corrupt_refused),
	KUNIT_CASE(jlt_sites_text_reserved),
	{}
};

static struct kunit_suite jlt_sites_suite = {
	.name = "jump_label_sites",
	.test_cases = jlt_sites_cases,
};

kunit_test_suites(&jlt_sites_suite, &jlt_api_suite);
#else
kunit_test_suites(&jlt_api_suite);
#endif
