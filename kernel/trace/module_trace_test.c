// SPDX-License-Identifier: GPL-2.0
/*
 * Tracepoints and trace events in modules: the test modules of
 * tests/modules/trace/ (<fixtures/trace_modules.h>) are loaded from the boot
 * loader's blobs. A module's own tracepoint is found by name while it is
 * loaded, probed from the kernel with its sites in the module following
 * the probes, and its event recorded by the tracer; a module's probe on a
 * kernel tracepoint runs while it is loaded and never after; a probe its
 * module forgot is removed at unload with a WARN; the loader's
 * module_load/module_free events are recorded; nothing leaks.
 */
#include <linux/kernel.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/export.h>
#include <linux/jump_label_arch.h>
#include <linux/jump_label_table.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/string.h>
#include <linux/text-patching.h>
#include <linux/trace.h>
#include <linux/tracepoint.h>
#include <fixtures/mem_snapshot.h>
#include <kunit/test.h>
#include <fixtures/trace_modules.h>
#include <trace/events/sched.h>

atomic_t tpm_probe_hits[TPM_NR_PROBES];
EXPORT_SYMBOL_GPL(tpm_probe_hits);

/* tpm_events' ops, from its init to its exit. */
static DEFINE_MUTEX(mtt_lock);
static const struct tpm_ops *mtt_ops;

int tpm_register(const struct tpm_ops *ops)
{
	int ret = -EBUSY;

	mutex_lock(&mtt_lock);
	if (!mtt_ops) {
		mtt_ops = ops;
		ret = 0;
	}
	mutex_unlock(&mtt_lock);
	return ret;
}
EXPORT_SYMBOL_GPL(tpm_register);

void tpm_unregister(const struct tpm_ops *ops)
{
	mutex_lock(&mtt_lock);
	if (mtt_ops == ops)
		mtt_ops = NULL;
	mutex_unlock(&mtt_lock);
}
EXPORT_SYMBOL_GPL(tpm_unregister);

#define MTT_LINE 256

static struct module *mtt_module(const char *name)
{
	struct module *mod;

	mutex_lock(&module_mutex);
	mod = find_module(name);
	mutex_unlock(&module_mutex);
	return mod;
}

static struct module *mtt_load(struct kunit *test, const char *name)
{
	struct module *mod = load_module(name);

	KUNIT_EXPECT_FALSE_MSG(test, IS_ERR(mod), "load_module(%s): %ld", name,
			       IS_ERR(mod) ? PTR_ERR(mod) : 0L);
	return IS_ERR(mod) ? NULL : mod;
}

static void mtt_unload(struct kunit *test, const char *name)
{
	KUNIT_EXPECT_EQ_MSG(test, delete_module(name), 0, "delete_module(%s)",
			    name);
}

/* What static_key_for_each_site() found in one module for one key. */
struct mtt_sites {
	struct module *mod;
	unsigned int sites, wrong;
};

static int mtt_count_site(struct jump_entry *entry, struct module *mod,
			  void *data)
{
	struct mtt_sites *c = data;
	bool enabled = static_key_enabled(jump_entry_key(entry));

	if (mod != c->mod)
		return 0;
	c->sites++;
	c->wrong += !arch_jump_label_site_holds(
		entry, enabled ^ jump_entry_is_branch(entry));
	return 0;
}

static struct mtt_sites mtt_sites_of(struct tracepoint *tp, struct module *mod)
{
	struct mtt_sites c = { .mod = mod };

	static_key_for_each_site(&tp->key.key, mtt_count_site, &c);
	return c;
}

/* A kernel probe on tpm_fire: what it was called with. */
struct mtt_rec {
	unsigned int calls;
	int value;
	unsigned long cookie;
};

static void mtt_probe(void *data, int value, unsigned long cookie)
{
	struct mtt_rec *r = data;

	r->calls++;
	r->value = value;
	r->cookie = cookie;
}

/* Reads every line left; true if one contained s (the rest consumed). */
static bool mtt_trace_has(char *line, const char *s)
{
	bool found = false;

	while (trace_read_line(line, MTT_LINE))
		found |= strstr(line, s) != NULL;
	return found;
}

/* Context switches on this CPU, to give sched_switch probes a chance. */
static void mtt_switch_a_few(void)
{
	unsigned int i;

	for (i = 0; i < 5; i++)
		msleep(2);
}

static int mtt_init(struct kunit *test)
{
	KUNIT_ASSERT_TRUE_MSG(test, module_blob_find("tpm_events"),
			      "no tpm_events blob: the ISO carries no modules");
	KUNIT_ASSERT_FALSE(test, mtt_module("tpm_events") ||
					 mtt_module("tpm_probe") ||
					 mtt_module("tpm_forget") ||
					 mtt_module("tpm_init_text"));
	return 0;
}

/* Found by name from its load to its unload, and its event with it. */
static void mtt_test_found_by_name(struct kunit *test)
{
	unsigned long warns = nr_warnings;
	struct tracepoint *tp;
	struct module *mod;

	KUNIT_EXPECT_NULL(test, tracepoint_find("tpm_fire"));
	KUNIT_EXPECT_NULL(test, trace_event_find("tpm", "tpm_fire"));
	mod = mtt_load(test, "tpm_events");
	KUNIT_ASSERT_NOT_NULL(test, mod);
	tp = tracepoint_find("tpm_fire");
	KUNIT_ASSERT_NOT_NULL(test, tp);
	KUNIT_EXPECT_STREQ(test, tp->name, "tpm_fire");
	KUNIT_EXPECT_PTR_EQ(test, __module_address((unsigned long)tp), mod);
	KUNIT_EXPECT_EQ(test, mod->tracepoints.num, 1);
	KUNIT_EXPECT_EQ(test, mod->trace_events.num, 1);
	KUNIT_EXPECT_NOT_NULL(test, trace_event_find("tpm", "tpm_fire"));
	KUNIT_EXPECT_FALSE(test, tracepoint_enabled(tp));
	KUNIT_EXPECT_NOT_NULL(test, mtt_ops);
	mtt_unload(test, "tpm_events");
	KUNIT_EXPECT_NULL(test, tracepoint_find("tpm_fire"));
	KUNIT_EXPECT_NULL(test, trace_event_find("tpm", "tpm_fire"));
	KUNIT_EXPECT_NULL(test, mtt_ops);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns);
}

/*
 * A kernel probe on the module's tracepoint: called with the arguments;
 * the site in the module holds a NOP without probes and a JMP with, and
 * only the first probe and the last patch it. Its static call (the one
 * probe or the iterator: its site and trampoline) is retargeted at every
 * change of the number of probes between 0, 1 and more.
 */
static void mtt_test_kernel_probe(struct kunit *test)
{
	struct mtt_rec a = {}, b = {};
	struct text_poke_stats before;
	struct mtt_sites c;
	struct tracepoint *tp;
	struct module *mod;
	unsigned long sc;

	mod = mtt_load(test, "tpm_events");
	KUNIT_ASSERT_NOT_NULL(test, mod);
	tp = tracepoint_find("tpm_fire");
	KUNIT_ASSERT_TRUE(test, tp && mtt_ops);
	c = mtt_sites_of(tp, mod);
	KUNIT_EXPECT_EQ(test, c.sites, 1);
	KUNIT_EXPECT_EQ(test, c.wrong, 0);
	mtt_ops->fire(1, 1);
	sc = IS_ENABLED(CONFIG_STATIC_CALL) ?
		     static_call_nr_sites(tp->static_call_key) :
		     0;

	before = text_poke_get_stats();
	KUNIT_ASSERT_EQ(test, tracepoint_probe_register(tp, mtt_probe, &a), 0);
	KUNIT_EXPECT_EQ(test, text_poke_get_stats().sites - before.sites,
			c.sites + sc);
	KUNIT_EXPECT_TRUE(test, tracepoint_enabled(tp));
	KUNIT_EXPECT_EQ(test, mtt_sites_of(tp, mod).wrong, 0);
	mtt_ops->fire(42, 0xabcdef);
	KUNIT_EXPECT_EQ(test, a.calls, 1);
	KUNIT_EXPECT_EQ(test, a.value, 42);
	KUNIT_EXPECT_EQ(test, a.cookie, 0xabcdefUL);

	before = text_poke_get_stats();
	KUNIT_ASSERT_EQ(test, tracepoint_probe_register(tp, mtt_probe, &b), 0);
	mtt_ops->fire(-7, 3);
	KUNIT_EXPECT_EQ(test, a.calls + b.calls, 3);
	KUNIT_EXPECT_EQ(test, b.value, -7);
	KUNIT_EXPECT_EQ(test, tracepoint_probe_unregister(tp, mtt_probe, &a),
			0);
	KUNIT_EXPECT_EQ(test, text_poke_get_stats().sites - before.sites,
			2 * sc);
	KUNIT_EXPECT_EQ(test, tracepoint_probe_unregister(tp, mtt_probe, &b),
			0);
	KUNIT_EXPECT_EQ(test, text_poke_get_stats().sites - before.sites,
			c.sites + 3 * sc);
	KUNIT_EXPECT_FALSE(test, tracepoint_enabled(tp));
	KUNIT_EXPECT_EQ(test, mtt_sites_of(tp, mod).wrong, 0);
	tracepoint_synchronize_unregister();
	mtt_ops->fire(9, 9);
	KUNIT_EXPECT_EQ(test, a.calls + b.calls, 3);
	mtt_unload(test, "tpm_events");
}

/*
 * A kernel probe still on the module's tracepoint when it goes: the
 * tracepoint goes with its probes, WARNed about, and the probe array is
 * freed (memory as before).
 */
static void mtt_test_probe_left_on_module_tp(struct kunit *test)
{
	struct kunit_mem before, after;
	struct mtt_rec r = {};
	struct tracepoint *tp;
	unsigned long warns;
	u64 log;

	/* Once before counting: caches that fill once. */
	KUNIT_ASSERT_NOT_NULL(test, mtt_load(test, "tpm_events"));
	mtt_unload(test, "tpm_events");
	rcu_barrier();
	kunit_mem_snapshot(&before);
	KUNIT_ASSERT_NOT_NULL(test, mtt_load(test, "tpm_events"));
	tp = tracepoint_find("tpm_fire");
	KUNIT_ASSERT_TRUE(test, tp && mtt_ops);
	KUNIT_ASSERT_EQ(test, tracepoint_probe_register(tp, mtt_probe, &r), 0);
	mtt_ops->fire(3, 4);
	KUNIT_EXPECT_EQ(test, r.calls, 1);
	log = printk_log_end();
	warns = nr_warnings;
	mtt_unload(test, "tpm_events");
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1);
	KUNIT_EXPECT_TRUE(
		test,
		printk_log_contains(
			log,
			"tracepoint tpm_fire goes away with probes attached (first mtt_probe): removed"));
	rcu_barrier();
	kunit_mem_snapshot(&after);
	KUNIT_EXPECT_EQ(test, after.objects, before.objects);
	KUNIT_EXPECT_EQ(test, after.bytes, before.bytes);
}

/*
 * The tracer enables the module's event by name and prints its line; an
 * unload with the event enabled disables it, quietly (not the module's
 * fault), and the event is gone.
 */
static void mtt_test_module_event(struct kunit *test)
{
	char *line = kunit_kzalloc(test, MTT_LINE, GFP_KERNEL);
	unsigned long warns;
	struct tracepoint *tp;

	KUNIT_ASSERT_NOT_NULL(test, line);
	KUNIT_ASSERT_NOT_NULL(test, mtt_load(test, "tpm_events"));
	tp = tracepoint_find("tpm_fire");
	KUNIT_ASSERT_TRUE(test, tp && mtt_ops);
	KUNIT_ASSERT_EQ(test, trace_set_event("tpm:tpm_fire", true), 0);
	KUNIT_EXPECT_TRUE(test, trace_event_is_enabled("tpm", "tpm_fire"));
	KUNIT_EXPECT_TRUE(test, tracepoint_enabled(tp));
	trace_clear();
	mtt_ops->fire(5, 0x1234);
	KUNIT_EXPECT_TRUE(test,
			  mtt_trace_has(line,
					": tpm_fire: value=5 cookie=0x1234\n"));
	warns = nr_warnings;
	mtt_unload(test, "tpm_events");
	KUNIT_EXPECT_EQ(test, nr_warnings, warns);
	KUNIT_EXPECT_NULL(test, trace_event_find("tpm", "tpm_fire"));
	KUNIT_EXPECT_EQ(test, trace_set_event("tpm:tpm_fire", false), -EINVAL);
}

/* A module's probe on sched_switch runs while loaded, never after. */
static void mtt_test_module_probe(struct kunit *test)
{
	atomic_t *hits = &tpm_probe_hits[TPM_PROBE];
	unsigned long warns = nr_warnings;
	int start, after;

	start = atomic_read(hits);
	KUNIT_ASSERT_NOT_NULL(test, mtt_load(test, "tpm_probe"));
	KUNIT_EXPECT_TRUE(test, trace_sched_switch_enabled());
	mtt_switch_a_few();
	KUNIT_EXPECT_GT(test, atomic_read(hits), start);
	mtt_unload(test, "tpm_probe");
	KUNIT_EXPECT_EQ(test, nr_warnings, warns);
	after = atomic_read(hits);
	mtt_switch_a_few();
	KUNIT_EXPECT_EQ(test, atomic_read(hits), after);
}

/*
 * tpm_forget leaves its probe registered: rmmod is refused while it is
 * (-EBUSY, a line naming the probe and the tracepoint: the module stays
 * and its probe keeps running, safely); removing the probes of its text
 * (tracepoint_remove_probes_within(), as the loader does for init text)
 * WARNs naming it and the tracepoint, then the unload goes through and it
 * never runs again (its text is freed: a call would fault).
 */
static void mtt_test_forgotten_probe(struct kunit *test)
{
	atomic_t *hits = &tpm_probe_hits[TPM_FORGET];
	unsigned long warns;
	struct module *mod;
	int start, after;
	u64 log;

	start = atomic_read(hits);
	mod = mtt_load(test, "tpm_forget");
	KUNIT_ASSERT_NOT_NULL(test, mod);
	mtt_switch_a_few();
	KUNIT_EXPECT_GT(test, atomic_read(hits), start);
	log = printk_log_end();
	warns = nr_warnings;
	KUNIT_EXPECT_EQ(test, delete_module("tpm_forget"), -EBUSY);
	KUNIT_EXPECT_TRUE(
		test,
		printk_log_contains(
			log,
			"module tpm_forget: a probe (tpm_forget_switch [tpm_forget]) on tracepoint sched_switch still points into it after its exit: it stays in memory until rmmod finds nothing, refused (-EBUSY)\n"));
	after = atomic_read(hits);
	mtt_switch_a_few();
	KUNIT_EXPECT_GT(test, atomic_read(hits), after);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns);
	KUNIT_EXPECT_EQ(test,
			tracepoint_remove_probes_within(
				(unsigned long)mod->mem[MOD_TEXT].base,
				mod->mem[MOD_TEXT].size, "tpm_forget"),
			1);
	mtt_unload(test, "tpm_forget");
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1);
	KUNIT_EXPECT_TRUE(
		test,
		printk_log_contains(
			log,
			"tracepoint sched_switch: probe tpm_forget_switch+0x0/"));
	KUNIT_EXPECT_TRUE(
		test,
		printk_log_contains(
			log,
			" [tpm_forget] still registered as tpm_forget goes: removed"));
	KUNIT_EXPECT_FALSE(test, trace_sched_switch_enabled());
	after = atomic_read(hits);
	mtt_switch_a_few();
	KUNIT_EXPECT_EQ(test, atomic_read(hits), after);
	KUNIT_EXPECT_EQ(test, delete_module("tpm_forget"), -ENOENT);
}

/* How many of hits' probes ran during a few context switches. */
static int mtt_hits_meanwhile(atomic_t *hits)
{
	int start = atomic_read(hits);

	mtt_switch_a_few();
	return atomic_read(hits) - start;
}

/*
 * tpm_init_fail's init registers a probe and fails: undoing the load
 * removes the probe (WARN), before its text is freed.
 */
static void mtt_test_init_fail_probe(struct kunit *test)
{
	unsigned long warns = nr_warnings;
	u64 log = printk_log_end();
	struct module *mod;

	mod = load_module("tpm_init_fail");
	KUNIT_EXPECT_TRUE(test, IS_ERR(mod) && PTR_ERR(mod) == -ENODEV);
	KUNIT_EXPECT_NULL(test, mtt_module("tpm_init_fail"));
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1);
	KUNIT_EXPECT_TRUE(
		test,
		printk_log_contains(
			log,
			" [tpm_init_fail] still registered as tpm_init_fail goes: removed"));
	KUNIT_EXPECT_FALSE(test, trace_sched_switch_enabled());
	KUNIT_EXPECT_EQ(test,
			mtt_hits_meanwhile(&tpm_probe_hits[TPM_INIT_FAIL]), 0);
}

/*
 * tpm_init_text leaves a probe of its init text registered: it is removed
 * (WARN) before the init text is freed; the module stays loaded.
 */
static void mtt_test_init_text_probe(struct kunit *test)
{
	unsigned long warns = nr_warnings;
	u64 log = printk_log_end();

	KUNIT_ASSERT_NOT_NULL(test, mtt_load(test, "tpm_init_text"));
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1);
	KUNIT_EXPECT_TRUE(
		test,
		printk_log_contains(
			log,
			"tracepoint sched_switch: probe tpm_init_text_switch+0x0/"));
	KUNIT_EXPECT_TRUE(
		test,
		printk_log_contains(
			log,
			" [tpm_init_text] still registered as tpm_init_text's init text goes: removed"));
	KUNIT_EXPECT_FALSE(test, trace_sched_switch_enabled());
	KUNIT_EXPECT_EQ(test,
			mtt_hits_meanwhile(&tpm_probe_hits[TPM_INIT_TEXT]), 0);
	mtt_unload(test, "tpm_init_text");
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1);
}

/* The loader's events, recorded when enabled. */
static void mtt_test_load_events(struct kunit *test)
{
	char *line = kunit_kzalloc(test, MTT_LINE, GFP_KERNEL);
	bool load = false, free = false;

	KUNIT_ASSERT_NOT_NULL(test, line);
	KUNIT_ASSERT_EQ(test, trace_set_event("module:*", true), 0);
	trace_clear();
	KUNIT_EXPECT_NOT_NULL(test, mtt_load(test, "tpm_probe"));
	mtt_unload(test, "tpm_probe");
	KUNIT_EXPECT_EQ(test, trace_set_event("module", false), 0);
	while (trace_read_line(line, MTT_LINE)) {
		load |= strstr(line, ": module_load: tpm_probe\n") != NULL;
		free |= strstr(line, ": module_free: tpm_probe\n") != NULL;
	}
	KUNIT_EXPECT_TRUE(test, load);
	KUNIT_EXPECT_TRUE(test, free);
}

/* One load/probe/fire/unload round of every well-behaved module. */
static void mtt_cycle(struct kunit *test)
{
	struct mtt_rec r = {};
	struct tracepoint *tp;

	KUNIT_ASSERT_NOT_NULL(test, mtt_load(test, "tpm_events"));
	KUNIT_ASSERT_NOT_NULL(test, mtt_load(test, "tpm_probe"));
	tp = tracepoint_find("tpm_fire");
	KUNIT_ASSERT_TRUE(test, tp && mtt_ops);
	KUNIT_EXPECT_EQ(test, tracepoint_probe_register(tp, mtt_probe, &r), 0);
	KUNIT_EXPECT_EQ(test, trace_set_event("tpm_fire", true), 0);
	mtt_ops->fire(1, 2);
	KUNIT_EXPECT_EQ(test, r.calls, 1);
	KUNIT_EXPECT_EQ(test, tracepoint_probe_unregister(tp, mtt_probe, &r),
			0);
	mtt_unload(test, "tpm_probe");
	mtt_unload(test, "tpm_events");
}

static void mtt_cycle_op(struct kunit *test, void *arg)
{
	mtt_cycle(test);
}

/*
 * Load and unload leave memory as it was. The first round runs before
 * the count (caches that fill once); other CPUs allocate meanwhile, so a
 * few tries, but a leak shows on every one.
 */
static void mtt_test_no_leak(struct kunit *test)
{
	mtt_cycle(test);
	trace_clear();
	kunit_expect_no_leak(test, mtt_cycle_op, NULL, rcu_barrier);
	trace_clear();
}

static struct kunit_case mtt_cases[] = {
	KUNIT_CASE(mtt_test_found_by_name),
	KUNIT_CASE(mtt_test_kernel_probe),
	KUNIT_CASE(mtt_test_probe_left_on_module_tp),
	KUNIT_CASE(mtt_test_module_event),
	KUNIT_CASE(mtt_test_module_probe),
	KUNIT_CASE(mtt_test_forgotten_probe),
	KUNIT_CASE(mtt_test_init_fail_probe),
	KUNIT_CASE(mtt_test_init_text_probe),
	KUNIT_CASE(mtt_test_load_events),
	KUNIT_CASE(mtt_test_no_leak),
	{}
};

static struct kunit_suite mtt_suite = {
	.name = "module_trace",
	.init = mtt_init,
	.test_cases = mtt_cases,
};
kunit_test_suite(mtt_suite);
