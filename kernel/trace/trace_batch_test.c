// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite "trace_batch": many tracepoints, one batch
 * (tracepoint_probe_register_batch(), and the tracer's event switches
 * built on it).
 *
 * Three tracepoints of its own (tbb_a, tbb_b, tbb_c, with regfuncs): a
 * probe on all three in one batch of three sync rounds, and off again
 * in one; a tracepoint that had a probe already (its call leaves that
 * probe for the iterator first: two batches) and back; a regfunc's error,
 * no memory and a site holding unexpected bytes (a key's, a static
 * call's) in the middle of a batch, on and off: every tracepoint, key, static call and probe array as it
 * was, the site named. The tracer: 1, 3 and every event with one spec
 * cost three sync rounds on and three off, record while on and stop
 * after; the console's "trace on sched:*" says so.
 */
#include <linux/kernel.h>
#include <linux/delay.h>
#include <linux/jump_label.h>
#include <linux/jump_label_table.h>
#include <linux/memory.h>
#include <linux/printk.h>
#include <linux/sched.h>
#include <linux/shell.h>
#include <linux/slab.h>
#include <linux/static_call.h>
#include <linux/string.h>
#include <linux/text-patching.h>
#include <linux/trace.h>
#include <linux/tracepoint.h>
#include <asm/text-patching.h>
#include <fixtures/static_key_sites.h>
#include <kunit/test.h>
#include "trace_test_events.h"

#define TBB_LINE 512
#define TBB_TPS 3

DECLARE_TRACE(tbb_a, TP_PROTO(int v), TP_ARGS(v));
DECLARE_TRACE(tbb_b, TP_PROTO(int v), TP_ARGS(v));
DECLARE_TRACE(tbb_c, TP_PROTO(int v), TP_ARGS(v));

/* regfunc and unregfunc of each, counted; tbb_b's may fail or starve. */
static int tbb_regs[TBB_TPS], tbb_unregs[TBB_TPS];
static int tbb_b_reg_error;
static bool tbb_b_reg_starves;

static int tbb_reg_a(void)
{
	tbb_regs[0]++;
	return 0;
}

static void tbb_unreg_a(void)
{
	tbb_unregs[0]++;
}

static int tbb_reg_b(void)
{
	if (tbb_b_reg_error)
		return tbb_b_reg_error;
	if (tbb_b_reg_starves)
		kmalloc_fail_next(1); /* tbb_c's new array, next */
	tbb_regs[1]++;
	return 0;
}

static void tbb_unreg_b(void)
{
	tbb_unregs[1]++;
}

static int tbb_reg_c(void)
{
	tbb_regs[2]++;
	return 0;
}

static void tbb_unreg_c(void)
{
	tbb_unregs[2]++;
}

DEFINE_TRACE_FN(tbb_a, tbb_reg_a, tbb_unreg_a, TP_PROTO(int v), TP_ARGS(v));
DEFINE_TRACE_FN(tbb_b, tbb_reg_b, tbb_unreg_b, TP_PROTO(int v), TP_ARGS(v));
DEFINE_TRACE_FN(tbb_c, tbb_reg_c, tbb_unreg_c, TP_PROTO(int v), TP_ARGS(v));

static struct tracepoint *const tbb_tps[TBB_TPS] = {
	&__tracepoint_tbb_a,
	&__tracepoint_tbb_b,
	&__tracepoint_tbb_c,
};

static noinline void tbb_fire(int v)
{
	trace_tbb_a(v);
	trace_tbb_b(v);
	trace_tbb_c(v);
}

/* What each probe saw: calls per tracepoint (data is its index). */
static int tbb_seen[TBB_TPS], tbb_other_seen;

static void tbb_probe(void *data, int v)
{
	tbb_seen[(unsigned long)data]++;
}

/* Another user's probe, registered alone on tbb_a. */
static void tbb_other(void *data, int v)
{
	tbb_other_seen++;
}

static void tbb_fill(struct tracepoint_batch_probe *b)
{
	unsigned long i;

	memset(b, 0, TBB_TPS * sizeof(*b));
	for (i = 0; i < TBB_TPS; i++) {
		b[i].tp = tbb_tps[i];
		b[i].probe = tbb_probe;
		b[i].data = (void *)i;
		b[i].prio = TRACEPOINT_DEFAULT_PRIO;
	}
}

static void tbb_reset(void)
{
	memset(tbb_seen, 0, sizeof(tbb_seen));
	tbb_other_seen = 0;
}

static void *tbb_call_target(struct tracepoint *tp)
{
	return READ_ONCE(tp->static_call_key->func);
}

/* Batches and sync rounds one change should cost: one batch, or none. */
static unsigned long tbb_rounds(unsigned long batches)
{
	return IS_ENABLED(CONFIG_JUMP_LABEL) || IS_ENABLED(CONFIG_STATIC_CALL) ?
		       3 * batches :
		       0;
}

static unsigned long tbb_batches(unsigned long batches)
{
	return tbb_rounds(batches) / 3;
}

static void tbb_expect_cost(struct kunit *test,
			    const struct text_poke_stats *before,
			    unsigned long batches)
{
	struct text_poke_stats now = text_poke_get_stats();

	KUNIT_EXPECT_EQ(test, now.batches - before->batches,
			tbb_batches(batches));
	KUNIT_EXPECT_EQ(test, now.sync_rounds - before->sync_rounds,
			tbb_rounds(batches));
}

/* tp has no probe: key off, its sites NOPs, its call on the iterator. */
static void tbb_expect_off(struct kunit *test, struct tracepoint *tp)
{
	KUNIT_EXPECT_NULL_MSG(test, tp->funcs, "%s", tp->name);
	KUNIT_EXPECT_FALSE_MSG(test, tracepoint_enabled(tp), "%s", tp->name);
	KUNIT_EXPECT_EQ(test, static_key_count(&tp->key.key), 0);
	KUNIT_EXPECT_PTR_EQ(test, tbb_call_target(tp), tp->iterator);
#ifdef CONFIG_JUMP_LABEL
	KUNIT_EXPECT_EQ(test, static_key_test_wrong_sites(&tp->key.key, false),
			0);
#endif
}

/* tp has probe alone: key on, its sites jumps, its call on the probe. */
static void tbb_expect_one(struct kunit *test, struct tracepoint *tp,
			   void *probe)
{
	KUNIT_ASSERT_NOT_NULL_MSG(test, tp->funcs, "%s", tp->name);
	KUNIT_EXPECT_PTR_EQ(test, tp->funcs[0].func, probe);
	KUNIT_EXPECT_NULL(test, tp->funcs[1].func);
	KUNIT_EXPECT_TRUE_MSG(test, tracepoint_enabled(tp), "%s", tp->name);
	KUNIT_EXPECT_EQ(test, static_key_count(&tp->key.key), 1);
	KUNIT_EXPECT_PTR_EQ(test, tbb_call_target(tp), probe);
#ifdef CONFIG_JUMP_LABEL
	KUNIT_EXPECT_EQ(test, static_key_test_wrong_sites(&tp->key.key, true),
			0);
#endif
}

static void tbb_exit(struct kunit *test)
{
	unsigned int i;

	tbb_b_reg_error = 0;
	tbb_b_reg_starves = false;
	kmalloc_fail_next(0);
	for (i = 0; i < TBB_TPS; i++)
		tracepoint_probe_unregister(tbb_tps[i], tbb_probe,
					    (void *)(unsigned long)i);
	tracepoint_probe_unregister(&__tracepoint_tbb_a, tbb_other, NULL);
	trace_set_clr_event(NULL, NULL, 0);
	tracepoint_synchronize_unregister();
	trace_clear();
}

/* On on three, off on three: one batch each, probes called meanwhile. */
static void tbb_test_one_batch(struct kunit *test)
{
	struct tracepoint_batch_probe b[TBB_TPS];
	struct text_poke_stats before = text_poke_get_stats();
	int regs[TBB_TPS], unregs[TBB_TPS];
	unsigned int i;

	memcpy(regs, tbb_regs, sizeof(regs));
	memcpy(unregs, tbb_unregs, sizeof(unregs));
	tbb_fill(b);
	KUNIT_ASSERT_EQ(test, tracepoint_probe_register_batch(b, TBB_TPS), 0);
	tbb_expect_cost(test, &before, 1);
	for (i = 0; i < TBB_TPS; i++) {
		tbb_expect_one(test, tbb_tps[i], tbb_probe);
		KUNIT_EXPECT_EQ(test, tbb_regs[i], regs[i] + 1);
		KUNIT_EXPECT_PTR_EQ(test, tbb_tps[i]->funcs[0].data, b[i].data);
	}
	tbb_reset();
	tbb_fire(1);
	for (i = 0; i < TBB_TPS; i++)
		KUNIT_EXPECT_EQ_MSG(test, tbb_seen[i], 1, "tbb_%c", 'a' + i);
	/* Already there: -EEXIST, named, nothing changed. */
	before = text_poke_get_stats();
	tbb_fill(b);
	KUNIT_EXPECT_EQ(test, tracepoint_probe_register_batch(b, TBB_TPS),
			-EEXIST);
	KUNIT_EXPECT_EQ(test, text_poke_get_stats().batches, before.batches);
	tbb_fill(b);
	KUNIT_ASSERT_EQ(test, tracepoint_probe_unregister_batch(b, TBB_TPS), 0);
	tbb_expect_cost(test, &before, 1);
	tracepoint_synchronize_unregister();
	tbb_reset();
	tbb_fire(2);
	for (i = 0; i < TBB_TPS; i++) {
		tbb_expect_off(test, tbb_tps[i]);
		KUNIT_EXPECT_EQ(test, tbb_seen[i], 0);
		KUNIT_EXPECT_EQ(test, tbb_unregs[i], unregs[i] + 1);
	}
	/* Not there: -ENOENT, nothing changed. */
	tbb_fill(b);
	KUNIT_EXPECT_EQ(test, tracepoint_probe_unregister_batch(b, TBB_TPS),
			-ENOENT);
	/* A tracepoint twice: misuse, refused. */
	tbb_fill(b);
	b[2].tp = b[0].tp;
	KUNIT_EXPECT_EQ(test, tracepoint_probe_register_batch(b, TBB_TPS),
			-EINVAL);
	tbb_expect_off(test, &__tracepoint_tbb_a);
}

/*
 * tbb_a has another probe, which its call targets: the call goes to the
 * iterator before the two-probe array is published (a batch of its own),
 * both probes run; off again, the call is back on the other probe.
 */
static void tbb_test_second_probe(struct kunit *test)
{
	struct tracepoint *a = &__tracepoint_tbb_a;
	struct tracepoint_batch_probe b[TBB_TPS];
	struct text_poke_stats before;
	unsigned int i;

	KUNIT_ASSERT_EQ(test, tracepoint_probe_register(a, tbb_other, NULL), 0);
	tbb_expect_one(test, a, tbb_other);
	before = text_poke_get_stats();
	tbb_fill(b);
	KUNIT_ASSERT_EQ(test, tracepoint_probe_register_batch(b, TBB_TPS), 0);
	tbb_expect_cost(test, &before, 2);
	KUNIT_EXPECT_PTR_EQ(test, tbb_call_target(a), a->iterator);
	KUNIT_EXPECT_EQ(test, static_key_count(&a->key.key), 1);
	for (i = 1; i < TBB_TPS; i++)
		tbb_expect_one(test, tbb_tps[i], tbb_probe);
	tbb_reset();
	tbb_fire(3);
	KUNIT_EXPECT_EQ(test, tbb_other_seen, 1);
	for (i = 0; i < TBB_TPS; i++)
		KUNIT_EXPECT_EQ(test, tbb_seen[i], 1);
	/* 2 -> 1 and two 1 -> 0: one grace period, one batch. */
	before = text_poke_get_stats();
	tbb_fill(b);
	KUNIT_ASSERT_EQ(test, tracepoint_probe_unregister_batch(b, TBB_TPS), 0);
	tbb_expect_cost(test, &before, 1);
	tbb_expect_one(test, a, tbb_other);
	for (i = 1; i < TBB_TPS; i++)
		tbb_expect_off(test, tbb_tps[i]);
	tracepoint_synchronize_unregister();
	tbb_reset();
	tbb_fire(4);
	KUNIT_EXPECT_EQ(test, tbb_other_seen, 1);
	KUNIT_EXPECT_EQ(test, tbb_seen[0] + tbb_seen[1] + tbb_seen[2], 0);
	KUNIT_EXPECT_EQ(test, tracepoint_probe_unregister(a, tbb_other, NULL),
			0);
	tbb_expect_off(test, a);
}

/* A regfunc's error and no memory, at the second and third tracepoint. */
static void tbb_test_fails_early(struct kunit *test)
{
	struct tracepoint_batch_probe b[TBB_TPS];
	struct text_poke_stats before = text_poke_get_stats();
	int regs[TBB_TPS], unregs[TBB_TPS];
	u64 log = printk_log_end();
	unsigned int i;

	memcpy(regs, tbb_regs, sizeof(regs));
	memcpy(unregs, tbb_unregs, sizeof(unregs));
	tbb_b_reg_error = -EIO;
	tbb_fill(b);
	KUNIT_EXPECT_EQ(test, tracepoint_probe_register_batch(b, TBB_TPS),
			-EIO);
	tbb_b_reg_error = 0;
	KUNIT_EXPECT_TRUE(
		test,
		printk_log_contains(
			log,
			"tracepoint: a batch of 3 tracepoints refused at tbb_b (-5): nothing changed"));
	/* tbb_a's regfunc ran and was undone; tbb_c's never ran. */
	KUNIT_EXPECT_EQ(test, tbb_regs[0], regs[0] + 1);
	KUNIT_EXPECT_EQ(test, tbb_unregs[0], unregs[0] + 1);
	KUNIT_EXPECT_EQ(test, tbb_regs[2], regs[2]);
	log = printk_log_end();
	tbb_b_reg_starves = true;
	tbb_fill(b);
	KUNIT_EXPECT_EQ(test, tracepoint_probe_register_batch(b, TBB_TPS),
			-ENOMEM);
	tbb_b_reg_starves = false;
	KUNIT_EXPECT_TRUE(
		test,
		printk_log_contains(
			log,
			"tracepoint: a batch of 3 tracepoints refused at tbb_c (-12): nothing changed"));
	KUNIT_EXPECT_EQ(test, tbb_unregs[1], unregs[1] + 1);
	KUNIT_EXPECT_EQ(test, text_poke_get_stats().batches, before.batches);
	tbb_reset();
	tbb_fire(5);
	for (i = 0; i < TBB_TPS; i++) {
		tbb_expect_off(test, tbb_tps[i]);
		KUNIT_EXPECT_EQ(test, tbb_seen[i], 0);
	}
}

#ifdef CONFIG_JUMP_LABEL
static int tbb_first_site(struct jump_entry *entry, struct module *mod,
			  void *addr)
{
	*(unsigned long *)addr = jump_entry_code(entry);
	return 1;
}

/* Writes junk over the first byte of key's first site: the old byte. */
static u8 tbb_spoil(struct kunit *test, struct static_key *key,
		    unsigned long *addr, u8 junk)
{
	u8 saved;

	*addr = 0;
	static_key_for_each_site(key, tbb_first_site, addr);
	KUNIT_ASSERT_NE(test, *addr, 0UL);
	saved = *(u8 *)*addr;
	mutex_lock(&text_mutex);
	text_poke((void *)*addr, &junk, 1);
	mutex_unlock(&text_mutex);
	return saved;
}

static void tbb_restore(unsigned long addr, u8 saved)
{
	mutex_lock(&text_mutex);
	text_poke((void *)addr, &saved, 1);
	mutex_unlock(&text_mutex);
}

static void tbb_expect_site_named(struct kunit *test, u64 log,
				  unsigned long addr)
{
	char msg[96];

	scnprintf(msg, sizeof(msg),
		  "jump_label: site %pS (key __tracepoint_tbb_b", (void *)addr);
	KUNIT_EXPECT_TRUE_MSG(test, printk_log_contains(log, msg), "no \"%s\"",
			      msg);
	KUNIT_EXPECT_TRUE(
		test,
		printk_log_contains(
			log,
			"tracepoint: a batch of 3 tracepoints refused (-22): nothing changed"));
}

/*
 * A site of tbb_b holding other bytes, with tbb_a on another probe (so
 * its call went to the iterator in a first batch): the second batch is
 * refused and everything goes back, tbb_a's very array and call included.
 */
static void tbb_test_bad_site_on(struct kunit *test)
{
	struct tracepoint *a = &__tracepoint_tbb_a;
	struct tracepoint_batch_probe b[TBB_TPS];
	struct tracepoint_func *a_funcs;
	int unregs[TBB_TPS];
	unsigned long addr;
	u64 log;
	u8 saved;

	KUNIT_ASSERT_EQ(test, tracepoint_probe_register(a, tbb_other, NULL), 0);
	a_funcs = a->funcs;
	memcpy(unregs, tbb_unregs, sizeof(unregs));
	saved = tbb_spoil(test, &__tracepoint_tbb_b.key.key, &addr, 0x90);
	log = printk_log_end();
	tbb_fill(b);
	KUNIT_EXPECT_EQ(test, tracepoint_probe_register_batch(b, TBB_TPS),
			-EINVAL);
	tbb_expect_site_named(test, log, addr);
	KUNIT_EXPECT_EQ(test, *(u8 *)addr, 0x90);
	tbb_restore(addr, saved);
	KUNIT_EXPECT_PTR_EQ(test, a->funcs, a_funcs);
	tbb_expect_one(test, a, tbb_other);
	tbb_expect_off(test, &__tracepoint_tbb_b);
	tbb_expect_off(test, &__tracepoint_tbb_c);
	KUNIT_EXPECT_EQ(test, tbb_unregs[1], unregs[1] + 1);
	KUNIT_EXPECT_EQ(test, tbb_unregs[2], unregs[2] + 1);
	tracepoint_synchronize_unregister();
	tbb_reset();
	tbb_fire(6);
	KUNIT_EXPECT_EQ(test, tbb_other_seen, 1);
	KUNIT_EXPECT_EQ(test, tbb_seen[0] + tbb_seen[1] + tbb_seen[2], 0);
	/* The same batch with the site whole again. */
	tbb_fill(b);
	KUNIT_EXPECT_EQ(test, tracepoint_probe_register_batch(b, TBB_TPS), 0);
	tbb_expect_one(test, &__tracepoint_tbb_b, tbb_probe);
	tbb_fill(b);
	KUNIT_EXPECT_EQ(test, tracepoint_probe_unregister_batch(b, TBB_TPS), 0);
	KUNIT_EXPECT_EQ(test, tracepoint_probe_unregister(a, tbb_other, NULL),
			0);
}

/* The same site spoiled while all three are on: the off batch refused. */
static void tbb_test_bad_site_off(struct kunit *test)
{
	struct tracepoint_batch_probe b[TBB_TPS];
	struct tracepoint_func *funcs[TBB_TPS];
	unsigned long addr;
	unsigned int i;
	u64 log;
	u8 saved;

	tbb_fill(b);
	KUNIT_ASSERT_EQ(test, tracepoint_probe_register_batch(b, TBB_TPS), 0);
	for (i = 0; i < TBB_TPS; i++)
		funcs[i] = tbb_tps[i]->funcs;
	saved = tbb_spoil(test, &__tracepoint_tbb_b.key.key, &addr, 0x90);
	log = printk_log_end();
	tbb_fill(b);
	KUNIT_EXPECT_EQ(test, tracepoint_probe_unregister_batch(b, TBB_TPS),
			-EINVAL);
	tbb_expect_site_named(test, log, addr);
	tbb_restore(addr, saved);
	tbb_reset();
	tbb_fire(7);
	for (i = 0; i < TBB_TPS; i++) {
		KUNIT_EXPECT_PTR_EQ(test, tbb_tps[i]->funcs, funcs[i]);
		tbb_expect_one(test, tbb_tps[i], tbb_probe);
		KUNIT_EXPECT_EQ(test, tbb_seen[i], 1);
	}
	tbb_fill(b);
	KUNIT_EXPECT_EQ(test, tracepoint_probe_unregister_batch(b, TBB_TPS), 0);
	for (i = 0; i < TBB_TPS; i++)
		tbb_expect_off(test, tbb_tps[i]);
}
#else
static void tbb_test_bad_site_on(struct kunit *test)
{
	kunit_skip(test, "CONFIG_JUMP_LABEL=n: no sites");
}

static void tbb_test_bad_site_off(struct kunit *test)
{
	kunit_skip(test, "CONFIG_JUMP_LABEL=n: no sites");
}
#endif

/* A site of tbb_c's static call holding other bytes: refused, all off. */
static void tbb_test_bad_call_site(struct kunit *test)
{
#ifdef CONFIG_STATIC_CALL
	struct tracepoint *c = &__tracepoint_tbb_c;
	u8 *site = static_call_site_addr(c->static_call_key, 0);
	u8 saved[5], junk[5] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 };
	struct tracepoint_batch_probe b[TBB_TPS];
	u64 log = printk_log_end();
	unsigned int i;
	char msg[128];

	KUNIT_ASSERT_NOT_NULL(test, site);
	memcpy(saved, site, 5);
	mutex_lock(&text_mutex);
	text_poke(site, junk, 5);
	mutex_unlock(&text_mutex);
	tbb_fill(b);
	KUNIT_EXPECT_EQ(test, tracepoint_probe_register_batch(b, TBB_TPS),
			-EINVAL);
	mutex_lock(&text_mutex);
	text_poke(site, saved, 5);
	mutex_unlock(&text_mutex);
	scnprintf(msg, sizeof(msg),
		  "static_call: site %pS of call tp_func_tbb_c holds 0f 1f 44 00 00",
		  site);
	KUNIT_EXPECT_TRUE_MSG(test, printk_log_contains(log, msg), "no \"%s\"",
			      msg);
	KUNIT_EXPECT_TRUE(test, printk_log_contains(log,
		"tracepoint: a batch of 3 tracepoints refused (-22): nothing changed"));
	for (i = 0; i < TBB_TPS; i++)
		tbb_expect_off(test, tbb_tps[i]);
	tbb_fill(b);
	KUNIT_EXPECT_EQ(test, tracepoint_probe_register_batch(b, TBB_TPS), 0);
	tbb_reset();
	tbb_fire(8);
	KUNIT_EXPECT_EQ(test, tbb_seen[2], 1);
	tbb_fill(b);
	KUNIT_EXPECT_EQ(test, tracepoint_probe_unregister_batch(b, TBB_TPS), 0);
#else
	kunit_skip(test, "CONFIG_STATIC_CALL=n: no sites");
#endif
}

/* The tracer */

#ifdef CONFIG_JUMP_LABEL
static unsigned int tbb_key_sites(struct tracepoint *tp)
{
	return static_key_test_entries(&tp->key.key);
}
#else /* no sites */
static unsigned int tbb_key_sites(struct tracepoint *tp)
{
	return 0;
}
#endif

struct tbb_events {
	const char *system, *name; /* NULL: all */
	unsigned int n, on;
	unsigned long sites; /* of their keys and static calls */
	unsigned long key_sites, call_sites; /* the same, by kind */
};

static void tbb_count_event(struct trace_event_call *call, void *priv)
{
	struct tbb_events *e = priv;
	struct tracepoint *tp = call->tp;

	if ((e->system && strcmp(e->system, call->class->system)) ||
	    (e->name && strcmp(e->name, call->name)))
		return;
	e->n++;
	e->on += call->enabled;
	e->key_sites += tbb_key_sites(tp);
	if (IS_ENABLED(CONFIG_JUMP_LABEL) && IS_ENABLED(CONFIG_STATIC_CALL))
		e->call_sites += static_call_nr_sites(tp->static_call_key);
	e->sites = e->key_sites + e->call_sites;
}

static struct tbb_events tbb_events_named(const char *system, const char *name)
{
	struct tbb_events e = { .system = system, .name = name };

	for_each_trace_event(tbb_count_event, &e);
	return e;
}

static struct tbb_events tbb_events_of(const char *system)
{
	struct tbb_events e = { .system = system };

	for_each_trace_event(tbb_count_event, &e);
	return e;
}

/*
 * The n events of system (NULL: all) called name (NULL: any) on with
 * spec, then off: one batch of three sync rounds each way, every site of
 * their keys and calls patched.
 */
static void tbb_expect_spec(struct kunit *test, const char *spec,
			    const char *system, const char *name,
			    unsigned int n)
{
	struct tbb_events e = tbb_events_named(system, name);
	struct text_poke_stats before = text_poke_get_stats();

	KUNIT_ASSERT_EQ(test, e.on, 0);
	KUNIT_EXPECT_EQ(test, e.n, n);
	KUNIT_ASSERT_EQ(test, trace_set_event(spec, true), 0);
	tbb_expect_cost(test, &before, 1);
	if (IS_ENABLED(CONFIG_JUMP_LABEL))
		KUNIT_EXPECT_EQ(test,
				text_poke_get_stats().sites - before.sites,
				e.sites);
	KUNIT_EXPECT_EQ(test, tbb_events_named(system, name).on, n);
	KUNIT_EXPECT_EQ(test, tbb_events_of(NULL).on, n);
	before = text_poke_get_stats();
	KUNIT_ASSERT_EQ(test, trace_set_event(spec, false), 0);
	tbb_expect_cost(test, &before, 1);
	KUNIT_EXPECT_EQ(test, tbb_events_of(NULL).on, 0);
	kunit_info(test,
		   "%s: %u events, %lu sites, %lu sync rounds on, as many off",
		   spec, n, e.sites, tbb_rounds(1));
}

/* N = 1, 3 and every event of the kernel: three rounds on, three off. */
static void tbb_test_rounds(struct kunit *test)
{
	unsigned int all = tbb_events_of(NULL).n;

	tbb_expect_spec(test, "trace_test:trace_test_two", "trace_test",
			"trace_test_two", 1);
	tbb_expect_spec(test, "sched:*", "sched", NULL, 3);
	KUNIT_EXPECT_GT(test, all, 10U);
	tbb_expect_spec(test, "*", NULL, NULL, all);
	/* A list, an event named twice, one that is on already. */
	KUNIT_ASSERT_EQ(test, trace_set_event("trace_test_one", true), 0);
	KUNIT_EXPECT_EQ(test,
			trace_set_event_list("sched,trace_test:*,sched_switch",
					     true),
			0);
	KUNIT_EXPECT_EQ(test, tbb_events_of("sched").on, 3);
	KUNIT_EXPECT_EQ(test, tbb_events_of("trace_test").on, 3);
	KUNIT_EXPECT_EQ(test, trace_set_clr_event(NULL, NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, tbb_events_of(NULL).on, 0);
}

/* Reads every line: how many contain each of the n strings of s. */
static void tbb_read_lines(const char *const *s, unsigned int *found,
			   unsigned int n)
{
	char *line = kmalloc(TBB_LINE, GFP_KERNEL);
	unsigned int i;

	memset(found, 0, n * sizeof(*found));
	if (!line)
		return;
	while (trace_read_line(line, TBB_LINE))
		for (i = 0; i < n; i++)
			found[i] += strstr(line, s[i]) != NULL;
	kfree(line);
}

/* trace_test_two: trace_events counts trace_test_one's sites. */
static noinline void tbb_fire_events(void)
{
	trace_trace_test_two(41);
	trace_trace_test_two(42);
	msleep(2); /* a switch away from this task and back */
}

/* Events switched on in one batch record; switched off, they stop. */
static void tbb_test_events_fire(struct kunit *test)
{
	char prev[48];
	const char *const want[] = { ": trace_test_two: v=41\n",
				     ": trace_test_two: v=42\n", prev,
				     ": sched_", ": trace_test_" };
	unsigned int found[ARRAY_SIZE(want)];

	snprintf(prev, sizeof(prev), "sched_switch: prev_comm=%s ",
		 current->comm);
	KUNIT_ASSERT_EQ(test,
			trace_set_event_list("sched:*,trace_test:*", true), 0);
	trace_clear();
	tbb_fire_events();
	tbb_read_lines(want, found, ARRAY_SIZE(want));
	KUNIT_EXPECT_EQ(test, found[0], 1U);
	KUNIT_EXPECT_EQ(test, found[1], 1U);
	KUNIT_EXPECT_GE(test, found[2], 1U);
	KUNIT_ASSERT_EQ(test, trace_set_event_list("sched,trace_test", false),
			0);
	tracepoint_synchronize_unregister();
	trace_clear();
	tbb_fire_events();
	tbb_read_lines(want, found, ARRAY_SIZE(want));
	KUNIT_EXPECT_EQ(test, found[3], 0U);
	KUNIT_EXPECT_EQ(test, found[4], 0U);
}

static char tbb_out[1024];
static size_t tbb_out_len;

static void tbb_sink(const char *str, size_t len)
{
	len = min(len, sizeof(tbb_out) - 1 - tbb_out_len);
	memcpy(tbb_out + tbb_out_len, str, len);
	tbb_out_len += len;
	tbb_out[tbb_out_len] = '\0';
}

static int tbb_console(const char *line)
{
	void (*saved)(const char *s, size_t len) = shell_write;
	char buf[64];
	int ret;

	strscpy(buf, line, sizeof(buf));
	tbb_out_len = 0;
	tbb_out[0] = '\0';
	shell_write = tbb_sink;
	ret = shell_run_line(buf);
	shell_write = saved;
	return ret;
}

/* The console's output for what the last command cost. */
static void tbb_expect_said(struct kunit *test, unsigned int now,
			    unsigned int was, unsigned long batches)
{
	struct tbb_events e = tbb_events_of("sched");
	char want[160];

	/* The sites, and how many are the keys' and how many the calls'. */
	if (IS_ENABLED(CONFIG_JUMP_LABEL))
		snprintf(
			want, sizeof(want),
			"%u events enabled now (was %u), %lu sites patched (%lu jump-label, %lu static-call) in %lu batches, %lu sync rounds\n",
			now, was, batches ? e.sites : 0,
			batches ? e.key_sites : 0, batches ? e.call_sites : 0,
			tbb_batches(batches), tbb_rounds(batches));
	else
		snprintf(want, sizeof(want),
			 " static-call) in %lu batches, %lu sync rounds\n",
			 tbb_batches(batches), tbb_rounds(batches));
	KUNIT_EXPECT_TRUE_MSG(test, strstr(tbb_out, want) != NULL,
			      "no \"%s\" in \"%s\"", want, tbb_out);
}

/* The console's trace on|off <glob>: what it says it cost. */
static void tbb_test_console(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, tbb_console("trace on sched:*"), 0);
	tbb_expect_said(test, 3, 0, 1);
	/* On already: skipped, nothing patched. */
	KUNIT_EXPECT_EQ(test, tbb_console("trace on sched_*"), 0);
	tbb_expect_said(test, 3, 3, 0);
	KUNIT_EXPECT_EQ(test, tbb_console("trace off sched"), 0);
	tbb_expect_said(test, 0, 3, 1);
}

static struct kunit_case tbb_cases[] = {
	KUNIT_CASE(tbb_test_one_batch),
	KUNIT_CASE(tbb_test_second_probe),
	KUNIT_CASE(tbb_test_fails_early),
	KUNIT_CASE(tbb_test_bad_site_on),
	KUNIT_CASE(tbb_test_bad_site_off),
	KUNIT_CASE(tbb_test_bad_call_site),
	KUNIT_CASE(tbb_test_rounds),
	KUNIT_CASE(tbb_test_events_fire),
	KUNIT_CASE(tbb_test_console),
	{}
};

static struct kunit_suite tbb_suite = {
	.name = "trace_batch",
	.exit = tbb_exit,
	.test_cases = tbb_cases,
};
kunit_test_suites(&tbb_suite);
