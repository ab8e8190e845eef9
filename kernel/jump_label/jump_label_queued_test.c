// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite "jump_label_queued": static_key_enable_queued(),
 * static_key_disable_queued(), static_call_update_queued() and
 * static_key_apply_queued(): eight keys and a static call in one batch of
 * three sync rounds; counts exactly as the plain calls leave them (an
 * enabled key enabled again, a key enabled then disabled, a key with inc
 * references); a site holding unexpected bytes refuses the whole batch,
 * named, and every key and call stays as it was.
 */
#include <linux/kernel.h>
#include <linux/jump_label.h>
#include <linux/jump_label_table.h>
#include <linux/memory.h>
#include <linux/printk.h>
#include <linux/shell.h>
#include <linux/string.h>
#include <linux/static_call.h>
#include <linux/text-patching.h>
#include <asm/text-patching.h>
#include <kunit/test.h>
#include <fixtures/shell_capture.h>
#include <fixtures/text_spoil.h>

#define JQT_KEYS 8

DEFINE_STATIC_KEY_FALSE(jqt_k0);
DEFINE_STATIC_KEY_FALSE(jqt_k1);
DEFINE_STATIC_KEY_FALSE(jqt_k2);
DEFINE_STATIC_KEY_FALSE(jqt_k3);
DEFINE_STATIC_KEY_FALSE(jqt_k4);
DEFINE_STATIC_KEY_FALSE(jqt_k5);
DEFINE_STATIC_KEY_FALSE(jqt_k6);
DEFINE_STATIC_KEY_FALSE(jqt_k7);

#define JQT_FN(n)                                                      \
	static noinline int jqt_fn##n(void)                            \
	{                                                              \
		return static_branch_unlikely(&jqt_k##n) ? 1 : 0;      \
	}
JQT_FN(0) JQT_FN(1) JQT_FN(2) JQT_FN(3) JQT_FN(4) JQT_FN(5) JQT_FN(6)
JQT_FN(7)

static struct static_key_false *const jqt_keys[JQT_KEYS] = {
	&jqt_k0, &jqt_k1, &jqt_k2, &jqt_k3, &jqt_k4, &jqt_k5, &jqt_k6, &jqt_k7,
};
static int (*const jqt_fns[JQT_KEYS])(void) = {
	jqt_fn0, jqt_fn1, jqt_fn2, jqt_fn3, jqt_fn4, jqt_fn5, jqt_fn6, jqt_fn7,
};

static noinline int jqt_one(void)
{
	return 1;
}

static noinline int jqt_two(void)
{
	return 2;
}

DEFINE_STATIC_CALL(jqt_call, jqt_one);

static noinline int jqt_call_fn(void)
{
	return static_call(jqt_call)() * 10;
}

static void jqt_expect_keys(struct kunit *test, unsigned int mask)
{
	unsigned int i;
	bool on;

	for (i = 0; i < JQT_KEYS; i++) {
		on = mask & (1U << i);
		KUNIT_EXPECT_EQ_MSG(test, static_key_count(&jqt_keys[i]->key),
				    on, "jqt_k%u", i);
		KUNIT_EXPECT_EQ_MSG(test, jqt_fns[i](), on, "jqt_fn%u", i);
	}
}

static void jqt_test_one_batch(struct kunit *test)
{
	struct text_poke_stats before = text_poke_get_stats();
	unsigned int i;

	for (i = 0; i < JQT_KEYS; i++)
		static_key_enable_queued(&jqt_keys[i]->key);
	static_call_update_queued(jqt_call, jqt_two);
	KUNIT_EXPECT_EQ(test, static_key_apply_queued(), 0);
	jqt_expect_keys(test, 0xff);
	KUNIT_EXPECT_EQ(test, jqt_call_fn(), 20);
	if (IS_ENABLED(CONFIG_JUMP_LABEL) && IS_ENABLED(CONFIG_STATIC_CALL)) {
		KUNIT_EXPECT_EQ(test, text_poke_get_stats().batches - before.batches, 1);
		KUNIT_EXPECT_EQ(test,
				text_poke_get_stats().sync_rounds - before.sync_rounds, 3);
		/* Eight sites, the call's site and its trampoline. */
		KUNIT_EXPECT_EQ(test, text_poke_get_stats().sites - before.sites, 10);
	}
	before = text_poke_get_stats();
	for (i = 0; i < JQT_KEYS; i++)
		static_key_disable_queued(&jqt_keys[i]->key);
	static_call_update_queued(jqt_call, jqt_one);
	KUNIT_EXPECT_EQ(test, static_key_apply_queued(), 0);
	jqt_expect_keys(test, 0);
	KUNIT_EXPECT_EQ(test, jqt_call_fn(), 10);
	if (IS_ENABLED(CONFIG_JUMP_LABEL) && IS_ENABLED(CONFIG_STATIC_CALL))
		KUNIT_EXPECT_EQ(test,
				text_poke_get_stats().sync_rounds - before.sync_rounds, 3);
	/* Nothing queued: nothing done. */
	KUNIT_EXPECT_EQ(test, static_key_apply_queued(), 0);
}

/* Each key's count as if its calls were made alone, in order. */
static void jqt_test_counting(struct kunit *test)
{
	struct text_poke_stats before;
	unsigned long warns;

	static_branch_enable(jqt_keys[0]);
	static_branch_inc(jqt_keys[2]);
	static_branch_inc(jqt_keys[2]);
	before = text_poke_get_stats();
	warns = nr_warnings;
	static_key_enable_queued(&jqt_keys[0]->key);	/* enabled already */
	static_key_enable_queued(&jqt_keys[1]->key);	/* on, then off */
	static_key_disable_queued(&jqt_keys[1]->key);
	static_key_disable_queued(&jqt_keys[2]->key);	/* 2 incs: misuse */
	static_key_disable_queued(&jqt_keys[3]->key);	/* disabled already */
	static_key_enable_queued(&jqt_keys[3]->key);	/* off, then on */
	KUNIT_EXPECT_EQ(test, static_key_apply_queued(), 0);
	KUNIT_EXPECT_EQ(test, static_key_count(&jqt_keys[0]->key), 1);
	KUNIT_EXPECT_EQ(test, static_key_count(&jqt_keys[1]->key), 0);
	KUNIT_EXPECT_EQ(test, static_key_count(&jqt_keys[2]->key), 2);
	KUNIT_EXPECT_EQ(test, static_key_count(&jqt_keys[3]->key), 1);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1);
	KUNIT_EXPECT_EQ(test, jqt_fn0() + jqt_fn1() + jqt_fn2() + jqt_fn3(), 3);
	if (IS_ENABLED(CONFIG_JUMP_LABEL))	/* jqt_k3's site only */
		KUNIT_EXPECT_EQ(test, text_poke_get_stats().sites - before.sites, 1);
	static_branch_disable(jqt_keys[0]);
	static_branch_dec(jqt_keys[2]);
	static_branch_dec(jqt_keys[2]);
	static_branch_disable(jqt_keys[3]);
	jqt_expect_keys(test, 0);
}

#ifdef CONFIG_JUMP_LABEL
static int jqt_first_site(struct jump_entry *entry, struct module *mod,
			  void *addr)
{
	*(unsigned long *)addr = jump_entry_code(entry);
	return 1;
}

/* A site of jqt_k4 holding other bytes: the batch refused, all unchanged. */
static void jqt_test_bad_site(struct kunit *test)
{
	struct text_poke_stats before;
	unsigned long addr = 0;
	u8 junk = 0x90;
	u64 log = printk_log_end();
	struct text_spoil spoil;
	char msg[96];

	static_key_for_each_site(&jqt_keys[4]->key, jqt_first_site, &addr);
	KUNIT_ASSERT_NE(test, addr, 0UL);
	text_spoil(&spoil, (void *)addr, &junk, 1);
	before = text_poke_get_stats();
	static_key_enable_queued(&jqt_keys[3]->key);
	static_key_enable_queued(&jqt_keys[4]->key);
	static_key_enable_queued(&jqt_keys[5]->key);
	static_call_update_queued(jqt_call, jqt_two);
	KUNIT_EXPECT_EQ(test, static_key_apply_queued(), -EINVAL);
	scnprintf(msg, sizeof(msg), "jump_label: site %pS", (void *)addr);
	KUNIT_EXPECT_TRUE_MSG(test, printk_log_contains(log, msg), "no \"%s\"",
			      msg);
	KUNIT_EXPECT_TRUE(test, printk_log_contains(log,
		"jump_label: a queued batch of 4 changes refused: nothing changed"));
	KUNIT_EXPECT_EQ(test, text_poke_get_stats().batches, before.batches);
	KUNIT_EXPECT_EQ(test, *(u8 *)addr, junk);
	KUNIT_EXPECT_EQ(test, jqt_fn3() + jqt_fn5(), 0);
	KUNIT_EXPECT_EQ(test, static_key_count(&jqt_keys[3]->key), 0);
	KUNIT_EXPECT_EQ(test, static_key_count(&jqt_keys[4]->key), 0);
	KUNIT_EXPECT_EQ(test, static_key_count(&jqt_keys[5]->key), 0);
	KUNIT_EXPECT_EQ(test, jqt_call_fn(), 10);
	text_unspoil(&spoil);
	static_key_enable_queued(&jqt_keys[4]->key);
	KUNIT_EXPECT_EQ(test, static_key_apply_queued(), 0);
	KUNIT_EXPECT_EQ(test, jqt_fn4(), 1);
	static_branch_disable(jqt_keys[4]);
	jqt_expect_keys(test, 0);
}
#else
static void jqt_test_bad_site(struct kunit *test)
{
	kunit_skip(test, "CONFIG_JUMP_LABEL=n: no sites");
}
#endif

/* A console line, its output in jqt_out (<fixtures/shell_capture.h>). */
#define jqt_console shell_capture
#define jqt_out shell_capture_out

/* The console's "key a b c enable": one batch, or nothing. */
static void jqt_test_console(struct kunit *test)
{
	if (!IS_ENABLED(CONFIG_JUMP_LABEL))
		kunit_skip(test, "CONFIG_JUMP_LABEL=n: the console finds keys by their sites");
	KUNIT_EXPECT_EQ(test, jqt_console("key jqt_k0 jqt_k1 jqt_k2 enable"), 0);
	jqt_expect_keys(test, 0x7);
	if (IS_ENABLED(CONFIG_JUMP_LABEL))
		KUNIT_EXPECT_TRUE_MSG(test, strstr(jqt_out,
			"3 keys enabled, 3 sites patched in 1 batches, 3 sync rounds") != NULL,
			"%s", jqt_out);
	/* jqt_k3's count is another user's: the whole line is refused. */
	static_branch_inc(jqt_keys[3]);
	KUNIT_EXPECT_EQ(test, jqt_console("key jqt_k0 jqt_k3 disable"), -EINVAL);
	KUNIT_EXPECT_TRUE_MSG(test, strstr(jqt_out, "key: 2 keys: nothing changed") != NULL,
			      "%s", jqt_out);
	jqt_expect_keys(test, 0xf);
	static_branch_dec(jqt_keys[3]);
	KUNIT_EXPECT_EQ(test, jqt_console("key jqt_k0 jqt_k1 jqt_k2 disable"), 0);
	jqt_expect_keys(test, 0);
	KUNIT_EXPECT_EQ(test, jqt_console("key jqt_k0 jqt_k1 inc"), -EINVAL);
}

static struct kunit_case jqt_cases[] = {
	KUNIT_CASE(jqt_test_one_batch),
	KUNIT_CASE(jqt_test_counting),
	KUNIT_CASE(jqt_test_bad_site),
	KUNIT_CASE(jqt_test_console),
	{}
};

static struct kunit_suite jqt_suite = {
	.name = "jump_label_queued",
	.test_cases = jqt_cases,
};
kunit_test_suite(jqt_suite);
