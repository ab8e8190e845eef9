// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite "text_batch": the contract of <linux/text_batch.h>.
 *
 *  - the locks: a batch takes them in their order and drops what it took,
 *    never a hotplug lock that was its caller's; a lock asked for out of
 *    order WARNs once per caller, naming both, and is not taken;
 *  - a refusal writes nothing: a queue or an apply by a batch without the
 *    hotplug lock and text_mutex (or a TEXT_BATCH_NX batch) WARNs and
 *    leaves the site's bytes and the engine's counters as they were;
 *  - the two applies: text_batch_apply() writes with the live protocol
 *    (one batch, three sync rounds), text_batch_apply_nx() writes text
 *    mapped NX in one pass with no sync round, and falls back to the live
 *    protocol for a site that is executable after all.
 *
 * The sites written are in a kmalloc() buffer (data, mapped NX), with
 * jump entries built beside them, or a static call of this file.
 */
#include <linux/kernel.h>
#include <linux/cpu.h>
#include <linux/jump_label.h>
#include <linux/jump_label_table.h>
#include <linux/memory.h>
#include <linux/mutex.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/static_call.h>
#include <linux/string.h>
#include <linux/text-patching.h>
#include <linux/text_batch.h>
#include <kunit/test.h>
#include "internal.h"

/* Fake sites in data: NX, so no CPU runs them; the engine writes them. */
struct tbt_sites {
#ifdef CONFIG_JUMP_LABEL
	struct jump_entry e[2]; /* a 2-byte and a 5-byte site */
	struct static_key key;
#endif
	u8 text[64];
};

static const u8 tbt_nop2[] = { 0x66, 0x90 };
static const u8 tbt_nop5[] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 };

/* Sites at text + 0 (2 bytes) and text + 8 (5 bytes), both NOPs. */
static struct tbt_sites *tbt_sites_new(struct kunit *test)
{
	struct tbt_sites *s = kzalloc(sizeof(*s), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, s);
	memcpy(s->text, tbt_nop2, sizeof(tbt_nop2));
	memcpy(s->text + 8, tbt_nop5, sizeof(tbt_nop5));
#ifdef CONFIG_JUMP_LABEL
	/* Each field an offset from itself; targets 16 bytes past a site. */
	s->e[0].code = (long)s->text - (long)&s->e[0].code;
	s->e[0].target = (long)(s->text + 18) - (long)&s->e[0].target;
	s->e[0].key = (long)&s->key - (long)&s->e[0].key;
	s->e[1].code = (long)(s->text + 8) - (long)&s->e[1].code;
	s->e[1].target = (long)(s->text + 29) - (long)&s->e[1].target;
	s->e[1].key = (long)&s->key - (long)&s->e[1].key;
#endif
	return s;
}

/* The mutexes a batch may hold, as this task sees them. */
static unsigned int tbt_held(void)
{
	return (cpus_lock_held() ? TEXT_BATCH_CPUS : 0) |
	       (mutex_is_owner(&jump_label_mutex) ? TEXT_BATCH_KEYS : 0) |
	       (mutex_is_owner(&static_call_mutex) ? TEXT_BATCH_CALLS : 0) |
	       (mutex_is_owner(&text_mutex) ? TEXT_BATCH_TEXT : 0);
}

/* The barrier keeps the refusal a call, not a tail call: this is its site. */
static noinline void tbt_misordered(struct text_batch *b)
{
	text_batch_lock(b, TEXT_BATCH_CALLS);
	barrier();
}

/* In order they are taken, over several calls; out of order refused. */
static void tbt_test_lock_order(struct kunit *test)
{
	struct text_batch b = {};
	unsigned long warns;
	u64 log;

	KUNIT_ASSERT_EQ(test, tbt_held(), 0U);
	text_batch_lock(&b, TEXT_BATCH_CPUS);
	KUNIT_EXPECT_EQ(test, tbt_held(), TEXT_BATCH_CPUS);
	text_batch_lock(&b, TEXT_BATCH_KEYS | TEXT_BATCH_TEXT);
	KUNIT_EXPECT_EQ(test, tbt_held(),
			TEXT_BATCH_CPUS | TEXT_BATCH_KEYS | TEXT_BATCH_TEXT);
	KUNIT_EXPECT_EQ(test, (unsigned int)b.held, tbt_held());

	/* static_call_mutex ranks before text_mutex, which b holds. */
	warns = nr_warnings;
	log = printk_log_end();
	tbt_misordered(&b);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1);
	KUNIT_EXPECT_FALSE(test, mutex_is_owner(&static_call_mutex));
	KUNIT_EXPECT_EQ(test, b.held & TEXT_BATCH_CALLS, 0);
	KUNIT_EXPECT_TRUE(
		test,
		printk_log_contains(
			log,
			"text_batch: static_call_mutex asked for while holding text_mutex: "
			"out of order, not taken"));
	KUNIT_EXPECT_TRUE(test,
			  printk_log_contains(log, " at tbt_misordered+"));
	/* Once per caller. */
	tbt_misordered(&b);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1);

	/* Dropped the last first, in part and then all. */
	text_batch_unlock(&b, TEXT_BATCH_TEXT);
	KUNIT_EXPECT_EQ(test, tbt_held(), TEXT_BATCH_CPUS | TEXT_BATCH_KEYS);
	text_batch_lock(&b, TEXT_BATCH_CALLS | TEXT_BATCH_TEXT);
	KUNIT_EXPECT_EQ(test, tbt_held(), TEXT_BATCH_ALL);
	text_batch_unlock(&b, TEXT_BATCH_ALL);
	KUNIT_EXPECT_EQ(test, tbt_held(), 0U);
	KUNIT_EXPECT_EQ(test, (unsigned int)b.held, 0U);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1);
}

/* The caller's hotplug lock is the batch's, and stays the caller's. */
static void tbt_test_callers_cpus_lock(struct kunit *test)
{
	unsigned long warns = nr_warnings;
	struct text_batch b = {};

	cpus_read_lock();
	text_batch_lock(&b, TEXT_BATCH_KEYS | TEXT_BATCH_TEXT);
	KUNIT_EXPECT_EQ(test, (unsigned int)b.held,
			TEXT_BATCH_CPUS | TEXT_BATCH_KEYS | TEXT_BATCH_TEXT);
	KUNIT_EXPECT_EQ(test, (unsigned int)b.taken,
			TEXT_BATCH_KEYS | TEXT_BATCH_TEXT);
	text_batch_unlock(&b, TEXT_BATCH_ALL);
	KUNIT_EXPECT_EQ(test, tbt_held(), TEXT_BATCH_CPUS);
	KUNIT_EXPECT_EQ(test, current->cpus_read_depth, 1U);
	cpus_read_unlock();
	KUNIT_EXPECT_EQ(test, tbt_held(), 0U);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns);
}

static noinline void tbt_queue_unlocked(struct text_batch *b, void *addr)
{
	text_batch_queue_call(b, addr, NULL, false);
	barrier();
}

static noinline void tbt_apply_unlocked(struct text_batch *b)
{
	text_batch_apply(b);
	barrier();
}

static noinline void tbt_nx_apply(struct text_batch *b)
{
	text_batch_apply_nx(b);
	barrier();
}

/* A queue or an apply without the batch's locks: refused, nothing written. */
static void tbt_test_refusal(struct kunit *test)
{
	struct tbt_sites *s = tbt_sites_new(test);
	struct text_poke_stats before = text_poke_get_stats(), after;
	struct text_batch b = {};
	unsigned long warns = nr_warnings;
	u64 log = printk_log_end();
	u8 saved[8];

	memcpy(s->text + 16, (u8[]){ 0xe8, 1, 2, 3, 4 }, 5); /* a call */
	memcpy(saved, s->text + 16, sizeof(saved));

	/* Neither lock: the queue and the apply are refused. */
	tbt_queue_unlocked(&b, s->text + 16);
	tbt_apply_unlocked(&b);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 2);
	KUNIT_EXPECT_TRUE(
		test,
		printk_log_contains(
			log,
			"text_batch: queue without cpu_hotplug_lock held: refused"));
	KUNIT_EXPECT_TRUE(
		test,
		printk_log_contains(
			log,
			"text_batch: apply without cpu_hotplug_lock held: refused"));

	/* text_mutex alone (TEXT_BATCH_NX): no hotplug lock, no apply. */
	text_batch_lock(&b, TEXT_BATCH_TEXT | TEXT_BATCH_NX);
	KUNIT_EXPECT_EQ(test, tbt_held(), TEXT_BATCH_TEXT);
	tbt_nx_apply(&b);
	text_batch_unlock(&b, TEXT_BATCH_ALL);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 3);
	KUNIT_EXPECT_TRUE(
		test,
		printk_log_contains(
			log,
			"text_batch: apply_nx without cpu_hotplug_lock held (TEXT_BATCH_NX): refused"));

	/* Nothing was queued: a locked batch now applies nothing. */
	text_batch_lock(&b, TEXT_BATCH_CPUS | TEXT_BATCH_TEXT);
	text_batch_apply(&b);
	text_batch_unlock(&b, TEXT_BATCH_ALL);
	after = text_poke_get_stats();
	KUNIT_EXPECT_EQ(test, after.sites, before.sites);
	KUNIT_EXPECT_EQ(test, after.batches, before.batches);
	KUNIT_EXPECT_EQ(test, after.passes, before.passes);
	KUNIT_EXPECT_EQ(test, memcmp(s->text + 16, saved, sizeof(saved)), 0);
	KUNIT_EXPECT_EQ(test, tbt_held(), 0U);
	kfree(s);
}

/* Queues every fake site: the two jump sites to JMP, a call site to NULL. */
static unsigned int tbt_queue_fakes(struct text_batch *b, struct tbt_sites *s)
{
	unsigned int n = 0;

#ifdef CONFIG_JUMP_LABEL
	text_batch_queue_jump(b, &s->e[0], JUMP_LABEL_JMP);
	text_batch_queue_jump(b, &s->e[1], JUMP_LABEL_JMP);
	n += 2;
#endif
	text_batch_queue_call(b, s->text + 40, NULL, false);
	return n + 1;
}

static void tbt_expect_fakes(struct kunit *test, struct tbt_sites *s)
{
#ifdef CONFIG_JUMP_LABEL
	/* jmp8 +16 and jmp32 +16. */
	KUNIT_EXPECT_EQ(test, s->text[0], 0xeb);
	KUNIT_EXPECT_EQ(test, s->text[1], 16);
	KUNIT_EXPECT_EQ(test, s->text[8], 0xe9);
	KUNIT_EXPECT_EQ(test, s->text[9], 16);
	KUNIT_EXPECT_EQ(test, s->text[10] | s->text[11] | s->text[12], 0);
#endif
	KUNIT_EXPECT_EQ(test, memcmp(s->text + 40, tbt_nop5, 5), 0);
}

/*
 * Queues the fake sites into a batch of their own and applies it, live or
 * NX; the sites end right either way. Returns the engine's counters'
 * change in *d, and the number of sites queued.
 */
static unsigned int tbt_apply_fakes(struct kunit *test, bool nx,
				    struct text_poke_stats *d)
{
	struct tbt_sites *s = tbt_sites_new(test);
	struct text_poke_stats before = text_poke_get_stats(), after;
	struct text_batch b = {};
	unsigned int n;

	memcpy(s->text + 40, (u8[]){ 0xe8, 1, 2, 3, 4 }, 5);
	text_batch_lock(&b, TEXT_BATCH_CPUS | TEXT_BATCH_TEXT);
	n = tbt_queue_fakes(&b, s);
	if (nx)
		text_batch_apply_nx(&b);
	else
		text_batch_apply(&b);
	text_batch_unlock(&b, TEXT_BATCH_ALL);
	after = text_poke_get_stats();
	tbt_expect_fakes(test, s);
	kfree(s);
	d->batches = after.batches - before.batches;
	d->sync_rounds = after.sync_rounds - before.sync_rounds;
	d->passes = after.passes - before.passes;
	d->sites = after.sites - before.sites;
	d->nx_sites = after.nx_sites - before.nx_sites;
	return n;
}

/* Live: the int3 protocol, three rounds; NX: one pass, none. */
static void tbt_test_live_and_nx(struct kunit *test)
{
	struct text_poke_stats d;
	unsigned int n;

	n = tbt_apply_fakes(test, false, &d);
	KUNIT_EXPECT_EQ(test, d.batches, 1);
	KUNIT_EXPECT_EQ(test, d.sync_rounds, 3);
	KUNIT_EXPECT_EQ(test, d.sites, n);
	KUNIT_EXPECT_EQ(test, d.nx_sites, 0);

	n = tbt_apply_fakes(test, true, &d);
	KUNIT_EXPECT_EQ(test, d.batches, 0);
	KUNIT_EXPECT_EQ(test, d.sync_rounds, 0);
	KUNIT_EXPECT_EQ(test, d.passes, 1);
	KUNIT_EXPECT_EQ(test, d.nx_sites, n);
	KUNIT_EXPECT_EQ(test, d.sites, n);
}

static noinline int tbt_one(void)
{
	return 1;
}

static noinline int tbt_two(void)
{
	return 2;
}

DEFINE_STATIC_CALL(tbt_call, tbt_one);

static noinline int tbt_call_fn(void)
{
	return static_call(tbt_call)();
}

/*
 * An NX apply of sites that are executable after all (a static call's, in
 * the kernel's text) is the live protocol: three rounds, nothing NX.
 */
static void tbt_test_nx_falls_back(struct kunit *test)
{
	struct text_poke_stats before, after;
	struct text_batch b = {};
	void *f;

	for (f = tbt_two; f; f = f == tbt_two ? tbt_one : NULL) {
		before = text_poke_get_stats();
		text_batch_lock(&b, TEXT_BATCH_CPUS | TEXT_BATCH_CALLS |
					    TEXT_BATCH_TEXT);
		KUNIT_EXPECT_EQ(
			test,
			__static_call_check(&STATIC_CALL_KEY(tbt_call), f), 0);
		__static_call_queue_checked(&b, &STATIC_CALL_KEY(tbt_call), f);
		text_batch_apply_nx(&b);
		text_batch_unlock(&b, TEXT_BATCH_ALL);
		after = text_poke_get_stats();
		KUNIT_EXPECT_EQ(test, tbt_call_fn(), f == tbt_two ? 2 : 1);
		KUNIT_EXPECT_PTR_EQ(test, static_call_query(tbt_call), f);
		if (!IS_ENABLED(CONFIG_STATIC_CALL))
			continue;
		KUNIT_EXPECT_EQ(test, after.batches - before.batches, 1);
		KUNIT_EXPECT_EQ(test, after.sync_rounds - before.sync_rounds,
				3);
		KUNIT_EXPECT_EQ(test, after.nx_sites, before.nx_sites);
		/* Its site and its trampoline. */
		KUNIT_EXPECT_EQ(test, after.sites - before.sites, 2);
	}
}

static struct kunit_case tbt_cases[] = { KUNIT_CASE(tbt_test_lock_order),
					 KUNIT_CASE(tbt_test_callers_cpus_lock),
					 KUNIT_CASE(tbt_test_refusal),
					 KUNIT_CASE(tbt_test_live_and_nx),
					 KUNIT_CASE(tbt_test_nx_falls_back),
					 {} };

static struct kunit_suite tbt_suite = {
	.name = "text_batch",
	.test_cases = tbt_cases,
};
kunit_test_suite(tbt_suite);
