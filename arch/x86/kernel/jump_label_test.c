// SPDX-License-Identifier: GPL-2.0
/*
 * The bytes of x86 static branch sites: every key type, macro and length,
 * in the image as shipped and after every kind of flip, for keys changed
 * before jump_label_init() and _RO keys; one batch per flip; sites in freed
 * init text skipped; a site holding unexpected bytes refused.
 */
#include <linux/init.h>
#include <linux/jump_label_arch.h>
#include <linux/kallsyms.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/string.h>
#include <asm/jump_label_insn.h>
#include <asm/text-patching.h>
#include <asm/text-patching-stats.h>
#include <fixtures/static_key_sites.h>
#include <kunit/test.h>

DEFINE_STATIC_KEY_FALSE(jlx_false);
DEFINE_STATIC_KEY_TRUE(jlx_true);
DEFINE_STATIC_KEY_FALSE(jlx_ref);
DEFINE_STATIC_KEY_TRUE(jlx_maybe);
DEFINE_STATIC_KEY_FALSE(jlx_early);
DEFINE_STATIC_KEY_FALSE_RO(jlx_ro);
DEFINE_STATIC_KEY_TRUE_RO(jlx_ro_true);
DEFINE_STATIC_KEY_FALSE(jlx_initsite);
DEFINE_STATIC_KEY_FALSE(jlx_corrupt);

STATIC_KEY_TEST_UNLIKELY(jlx_false_unlikely, &jlx_false)
STATIC_KEY_TEST_LIKELY(jlx_false_likely, &jlx_false)
STATIC_KEY_TEST_UNLIKELY(jlx_true_unlikely, &jlx_true)
STATIC_KEY_TEST_LIKELY(jlx_true_likely, &jlx_true)
STATIC_KEY_TEST_UNLIKELY(jlx_ref_fn, &jlx_ref)
STATIC_KEY_TEST_UNLIKELY(jlx_early_fn, &jlx_early)
STATIC_KEY_TEST_UNLIKELY(jlx_ro_fn, &jlx_ro)
STATIC_KEY_TEST_LIKELY(jlx_ro_true_fn, &jlx_ro_true)
STATIC_KEY_TEST_UNLIKELY(jlx_initsite_fn, &jlx_initsite)
STATIC_KEY_TEST_UNLIKELY(jlx_corrupt_fn, &jlx_corrupt)

static noinline int jlx_maybe_fn(void)
{
	return static_branch_maybe(CONFIG_JUMP_LABEL, &jlx_maybe) ? 1 : 0;
}

/* A site in init text, gone after boot. */
static __init noinline int jlx_initsite_init_fn(void)
{
	return static_branch_unlikely(&jlx_initsite) ? 1 : 0;
}

/* Before jump_label_init(): the image's NOP must become a JMP at init. */
static int __init jlx_early_initcall(void)
{
	static_branch_enable(&jlx_early);
	jlx_initsite_init_fn();
	return 0;
}
early_initcall(jlx_early_initcall);

/* During init, after jump_label_init(): _RO keys may still change. */
static int __init jlx_ro_initcall(void)
{
	static_branch_enable(&jlx_ro);
	static_branch_disable(&jlx_ro_true);
	return 0;
}
late_initcall(jlx_ro_initcall);

static const u8 jlx_nop2[] = { JUMP_LABEL_NOP2_BYTES };
static const u8 jlx_nop5[] = { JUMP_LABEL_NOP5_BYTES };

/* The one entry whose site lies in fn, or NULL. */
static struct jump_entry *jlx_entry(const void *fn)
{
	unsigned long start = (unsigned long)fn, size = 0;
	struct jump_entry *iter, *found = NULL;

	if (!kallsyms_lookup(start, &size, NULL))
		return NULL;
	for (iter = __start___jump_table; iter < __stop___jump_table; iter++) {
		if (jump_entry_code(iter) - start >= size)
			continue;
		if (found)
			return NULL;
		found = iter;
	}
	return found;
}

/*
 * The exact bytes at the site in fn: a JMP to the entry's target exactly
 * when enabled XOR likely, of the length the test built the function for.
 */
static void jlx_expect_site(struct kunit *test, int (*fn)(void), bool likely,
			    bool long_site, bool enabled)
{
	struct jump_entry *e = jlx_entry(fn);
	int size = long_site ? JUMP_LABEL_LONG_SIZE : JUMP_LABEL_SHORT_SIZE;
	const u8 *code;

	KUNIT_ASSERT_NOT_NULL_MSG(test, e, "no single site in %ps", fn);
	code = (const u8 *)jump_entry_code(e);
	KUNIT_EXPECT_EQ(test, jump_entry_is_branch(e), likely);
	KUNIT_EXPECT_EQ(test, arch_jump_entry_is_short(e), !long_site);
	KUNIT_EXPECT_EQ_MSG(test, fn(), enabled, "branch of %ps", fn);
	if (enabled ^ likely) {
		long disp = (long)jump_entry_target(e) - (long)(code + size);
		long found = long_site ? (long)*(s32 *)(code + 1) : (long)(s8)code[1];

		KUNIT_EXPECT_EQ_MSG(test, code[0], long_site ? JMP32_INSN_OPCODE :
				    JMP8_INSN_OPCODE, "%ps: %*ph", fn, size, code);
		KUNIT_EXPECT_EQ_MSG(test, found, disp, "%ps: %*ph", fn, size, code);
	} else {
		KUNIT_EXPECT_MEMEQ_MSG(test, code, long_site ? jlx_nop5 : jlx_nop2,
				       size, "%ps", fn);
	}
}

/* A key and its four sites: [likely][long]. */
struct jlx_key {
	struct static_key *key;
	bool initially;
	int (*fns[2][2])(void);
};

static const struct jlx_key jlx_keys[] = {
	{ &jlx_false.key, false,
	  { { jlx_false_unlikely, jlx_false_unlikely_long },
	    { jlx_false_likely, jlx_false_likely_long } } },
	{ &jlx_true.key, true,
	  { { jlx_true_unlikely, jlx_true_unlikely_long },
	    { jlx_true_likely, jlx_true_likely_long } } },
};

static void jlx_check_key(struct kunit *test, const struct jlx_key *k,
			  bool enabled)
{
	int l, n;

	KUNIT_EXPECT_EQ(test, static_key_enabled(k->key), enabled);
	for (l = 0; l < 2; l++)
		for (n = 0; n < 2; n++)
			jlx_expect_site(test, k->fns[l][n], l, n, enabled);
}

static void jlx_sites_initial(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(jlx_keys); i++)
		jlx_check_key(test, &jlx_keys[i], jlx_keys[i].initially);
	jlx_expect_site(test, jlx_ref_fn, false, false, false);
	jlx_expect_site(test, jlx_ref_fn_long, false, true, false);
	jlx_expect_site(test, jlx_maybe_fn, true, false, true);
}

/* Each key away from its default and back, twice, with both API pairs. */
static void jlx_sites_flip_bytes(struct kunit *test)
{
	unsigned int i, round;

	for (i = 0; i < ARRAY_SIZE(jlx_keys); i++) {
		const struct jlx_key *k = &jlx_keys[i];
		bool state = k->initially;

		for (round = 0; round < 4; round++) {
			state = !state;
			if (state)
				static_key_enable(k->key);
			else
				static_key_disable(k->key);
			jlx_check_key(test, k, state);
		}
		for (round = 0; round < 2 && !k->initially; round++) {
			KUNIT_EXPECT_TRUE(test, static_key_slow_inc(k->key));
			jlx_check_key(test, k, true);
			static_key_slow_dec(k->key);
			jlx_check_key(test, k, false);
		}
	}
}

/* One flip, one batch, however many sites; none for refcount changes. */
static void jlx_sites_batches(struct kunit *test)
{
	struct text_poke_stats before = text_poke_stats;
	/* Unbatched (text_poke.batch=0): every site is a batch of its own. */
	unsigned long four = text_poke_batching ? 1 : 4;
	unsigned long two = text_poke_batching ? 1 : 2;

	static_branch_enable(&jlx_false);
	KUNIT_EXPECT_EQ(test, text_poke_stats.batches, before.batches + four);
	KUNIT_EXPECT_EQ(test, text_poke_stats.sites, before.sites + 4);
	KUNIT_EXPECT_EQ(test, text_poke_stats.sync_rounds,
			before.sync_rounds + 3 * four);
	KUNIT_EXPECT_EQ(test, text_poke_stats.passes, before.passes + 3 * four);
	static_branch_disable(&jlx_false);
	KUNIT_EXPECT_EQ(test, text_poke_stats.batches, before.batches + 2 * four);
	KUNIT_EXPECT_EQ(test, text_poke_stats.sites, before.sites + 8);

	before = text_poke_stats;
	static_branch_inc(&jlx_ref);
	static_branch_inc(&jlx_ref);
	static_branch_dec(&jlx_ref);
	KUNIT_EXPECT_EQ(test, text_poke_stats.batches, before.batches + two);
	static_branch_dec(&jlx_ref);
	KUNIT_EXPECT_EQ(test, text_poke_stats.batches, before.batches + 2 * two);
	KUNIT_EXPECT_EQ(test, text_poke_stats.sites, before.sites + 4);
}

/*
 * text_poke.batch= on the command line sets batching: the line is parsed
 * again into a variable of ours (any bool spelling, the last word wins,
 * a refused value changes nothing), whose default is batching on.
 */
static void jlx_sites_batch_param(struct kunit *test)
{
	bool want = true;
	const struct kernel_param kp = { .name = "text_poke.batch",
					 .set = param_set_bool,
					 .arg = &want };

	KUNIT_ASSERT_GE(test, parse_args_for(saved_command_line, &kp), 0);
	KUNIT_EXPECT_EQ(test, text_poke_batching, want);
}

/* Enabled before jump_label_init() and by an initcall (_RO): patched. */
static void jlx_sites_early_and_ro(struct kunit *test)
{
	jlx_expect_site(test, jlx_early_fn, false, false, true);
	jlx_expect_site(test, jlx_early_fn_long, false, true, true);
	jlx_expect_site(test, jlx_ro_fn, false, false, true);
	jlx_expect_site(test, jlx_ro_true_fn, true, false, false);
}

/* The init-text site of jlx_initsite is gone: a flip patches the others. */
static void jlx_sites_init_skipped(struct kunit *test)
{
	struct text_poke_stats before = text_poke_stats;
	struct jump_entry *entry;
	unsigned int entries = 0, init = 0;

	for_each_key_entry(&jlx_initsite.key, entry) {
		entries++;
		init += jump_entry_is_init(entry);
	}
	KUNIT_EXPECT_EQ(test, entries, 3);
	KUNIT_EXPECT_EQ(test, init, 1);
	static_branch_enable(&jlx_initsite);
	KUNIT_EXPECT_EQ(test, text_poke_stats.sites, before.sites + 2);
	jlx_expect_site(test, jlx_initsite_fn, false, false, true);
	jlx_expect_site(test, jlx_initsite_fn_long, false, true, true);
	static_branch_disable(&jlx_initsite);
	KUNIT_EXPECT_EQ(test, text_poke_stats.sites, before.sites + 4);
	jlx_expect_site(test, jlx_initsite_fn, false, false, false);
}

/* A site whose bytes are not what the key says is refused, not patched. */
static void jlx_sites_corrupt_refused(struct kunit *test)
{
	static const u8 int3s[2] = { INT3_INSN_OPCODE, INT3_INSN_OPCODE };
	struct jump_entry *e = jlx_entry(jlx_corrupt_fn);
	u8 saved[2];
	void *code;

	KUNIT_ASSERT_NOT_NULL(test, e);
	code = (void *)jump_entry_code(e);
	KUNIT_ASSERT_EQ(test, arch_jump_entry_size(e), 2);
	KUNIT_EXPECT_EQ(test, arch_jump_label_check_site(e, JUMP_LABEL_NOP), 0);
	KUNIT_EXPECT_EQ(test, arch_jump_label_check_site(e, JUMP_LABEL_JMP),
			-EINVAL);
	memcpy(saved, code, sizeof(saved));
	mutex_lock(&text_mutex);
	text_poke(code, int3s, sizeof(int3s));
	mutex_unlock(&text_mutex);
	KUNIT_EXPECT_EQ(test, arch_jump_label_check_site(e, JUMP_LABEL_NOP),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, arch_jump_label_check_site(e, JUMP_LABEL_JMP),
			-EINVAL);
	mutex_lock(&text_mutex);
	text_poke(code, saved, sizeof(saved));
	mutex_unlock(&text_mutex);
	KUNIT_EXPECT_EQ(test, arch_jump_label_check_site(e, JUMP_LABEL_NOP), 0);
	KUNIT_EXPECT_EQ(test, jlx_corrupt_fn(), 0);
}

static struct kunit_case jlx_sites_cases[] = {
	KUNIT_CASE(jlx_sites_initial),
	KUNIT_CASE(jlx_sites_flip_bytes),
	KUNIT_CASE(jlx_sites_batches),
	KUNIT_CASE(jlx_sites_batch_param),
	KUNIT_CASE(jlx_sites_early_and_ro),
	KUNIT_CASE(jlx_sites_init_skipped),
	KUNIT_CASE(jlx_sites_corrupt_refused),
	{}
};

static struct kunit_suite jlx_sites_suite = {
	.name = "jump_label_sites",
	.test_cases = jlx_sites_cases,
};
kunit_test_suite(jlx_sites_suite);
