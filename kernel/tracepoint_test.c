// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite "tracepoint": probes and priorities, the key and the bytes
 * of the sites following the number of probes, arguments left alone
 * while no probe is attached, regfunc/unregfunc, removal without memory,
 * tables outside the image, and a probe removed while other CPUs fire the
 * tracepoint, which must never run after tracepoint_synchronize_unregister().
 */
#include <linux/kernel.h>
#include <linux/cpu.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/moduleparam.h>
#include <linux/smp.h>
#include <linux/slab.h>
#include <linux/text-patching.h>
#include <linux/timex.h>
#include <linux/tracepoint.h>
#include <asm/tsc.h>
#include <fixtures/static_key_sites.h>
#include <kunit/test.h>
#ifdef CONFIG_JUMP_LABEL
#endif

static unsigned int tpt_rounds = 200;
core_param_named("tracepoint_test.rounds", tpt_rounds, uint);
static unsigned int tpt_budget_s = 120;
core_param_named("tracepoint_test.budget", tpt_budget_s, uint);

DECLARE_TRACE(tpt_order, TP_PROTO(int x), TP_ARGS(x));
DEFINE_TRACE(tpt_order, TP_PROTO(int x), TP_ARGS(x));
DECLARE_TRACE(tpt_sites, TP_PROTO(int x), TP_ARGS(x));
DEFINE_TRACE(tpt_sites, TP_PROTO(int x), TP_ARGS(x));
DECLARE_TRACE(tpt_args, TP_PROTO(int x), TP_ARGS(x));
DEFINE_TRACE(tpt_args, TP_PROTO(int x), TP_ARGS(x));
DECLARE_TRACE(tpt_fire, TP_PROTO(unsigned int cpu), TP_ARGS(cpu));
DEFINE_TRACE(tpt_fire, TP_PROTO(unsigned int cpu), TP_ARGS(cpu));

/* The order in which probes ran: each appends its tag. */
struct tpt_log {
	char tags[16];
	unsigned int n;
	int last_x;
};

static void tpt_log_add(struct tpt_log *log, char tag, int x)
{
	if (log->n < sizeof(log->tags) - 1)
		log->tags[log->n++] = tag;
	log->last_x = x;
}

static void tpt_probe_a(void *data, int x)
{
	tpt_log_add(data, 'a', x);
}

static void tpt_probe_b(void *data, int x)
{
	tpt_log_add(data, 'b', x);
}

static void tpt_probe_c(void *data, int x)
{
	tpt_log_add(data, 'c', x);
}

static void tpt_probe_d(void *data, int x)
{
	tpt_log_add(data, 'd', x);
}

/* Fires tpt_order once; returns the tags of the probes that ran. */
static const char *tpt_order_run(struct tpt_log *log, int x)
{
	memset(log, 0, sizeof(*log));
	trace_tpt_order(x);
	return log->tags;
}

/* Highest priority first, registration order among equals. */
static void tpt_test_priority_order(struct kunit *test)
{
	struct tpt_log log, other;

	KUNIT_EXPECT_STREQ(test, tpt_order_run(&log, 1), "");
	KUNIT_ASSERT_EQ(test, register_trace_tpt_order(tpt_probe_a, &log), 0);
	KUNIT_ASSERT_EQ(
		test, register_trace_prio_tpt_order(tpt_probe_b, &log, 20), 0);
	KUNIT_ASSERT_EQ(test, register_trace_tpt_order(tpt_probe_c, &log), 0);
	KUNIT_ASSERT_EQ(test,
			register_trace_prio_tpt_order(tpt_probe_d, &log, 5), 0);
	KUNIT_EXPECT_STREQ(test, tpt_order_run(&log, 7), "bacd");
	KUNIT_EXPECT_EQ(test, log.last_x, 7);
	/* The same function with other data is another probe. */
	KUNIT_EXPECT_EQ(test, register_trace_tpt_order(tpt_probe_a, &other), 0);
	KUNIT_EXPECT_EQ(test, register_trace_tpt_order(tpt_probe_a, &log),
			-EEXIST);
	KUNIT_EXPECT_EQ(test,
			tracepoint_probe_register(&__tracepoint_tpt_order, NULL,
						  &log),
			-EINVAL);
	memset(&other, 0, sizeof(other));
	KUNIT_EXPECT_STREQ(test, tpt_order_run(&log, 3), "bacd");
	KUNIT_EXPECT_STREQ(test, other.tags, "a");
	KUNIT_EXPECT_EQ(test, unregister_trace_tpt_order(tpt_probe_a, &other),
			0);
	KUNIT_EXPECT_EQ(test, unregister_trace_tpt_order(tpt_probe_b, &log), 0);
	KUNIT_EXPECT_EQ(test, unregister_trace_tpt_order(tpt_probe_b, &log),
			-ENOENT);
	KUNIT_EXPECT_STREQ(test, tpt_order_run(&log, 4), "acd");
	KUNIT_EXPECT_EQ(test, unregister_trace_tpt_order(tpt_probe_a, &log), 0);
	KUNIT_EXPECT_EQ(test, unregister_trace_tpt_order(tpt_probe_c, &log), 0);
	KUNIT_EXPECT_EQ(test, unregister_trace_tpt_order(tpt_probe_d, &log), 0);
	KUNIT_EXPECT_STREQ(test, tpt_order_run(&log, 5), "");
	KUNIT_EXPECT_FALSE(test, trace_tpt_order_enabled());
	tracepoint_synchronize_unregister();
}

/* Two sites of tpt_sites; each returns 1 if a probe ran. */
static int tpt_sites_hits;

static void tpt_sites_probe(void *data, int x)
{
	tpt_sites_hits += x;
}

static noinline int tpt_sites_one(void)
{
	int before = tpt_sites_hits;

	trace_tpt_sites(1);
	return tpt_sites_hits != before;
}

static noinline int tpt_sites_two(void)
{
	int before = tpt_sites_hits;

	trace_tpt_sites(1);
	return tpt_sites_hits != before;
}

struct tpt_patch_count {
	unsigned long sites, batches;
};

#ifdef CONFIG_JUMP_LABEL
static struct tpt_patch_count tpt_patch_now(void)
{
	return (struct tpt_patch_count){ text_poke_get_stats().sites,
					 text_poke_get_stats().batches };
}

/* The key's two sites hold the bytes of its state. */
static void tpt_expect_site_bytes(struct kunit *test, struct static_key *key,
				  bool enabled)
{
	KUNIT_EXPECT_EQ(test, static_key_test_entries(key), 2);
	KUNIT_EXPECT_EQ(test, static_key_test_wrong_sites(key, enabled), 0);
}
#else /* no patching: no sites, nothing patched */
static struct tpt_patch_count tpt_patch_now(void)
{
	return (struct tpt_patch_count){ 0, 0 };
}

static void tpt_expect_site_bytes(struct kunit *test, struct static_key *key,
				  bool enabled)
{
}
#endif

/* The key and the sites after a registration change: on iff a probe. */
static void tpt_expect_sites(struct kunit *test, bool enabled)
{
	struct static_key *key = &__tracepoint_tpt_sites.key.key;

	KUNIT_EXPECT_EQ(test, static_key_enabled(key), enabled);
	KUNIT_EXPECT_EQ(test, tpt_sites_one(), enabled);
	KUNIT_EXPECT_EQ(test, tpt_sites_two(), enabled);
	tpt_expect_site_bytes(test, key, enabled);
}

/* Sites patched (JUMP_LABEL; 0 otherwise) since before. */
static unsigned long tpt_patched_since(struct tpt_patch_count before)
{
	return tpt_patch_now().sites - before.sites;
}

/*
 * The static call tp_func_tpt_sites targets the one probe, else the
 * iterator; each retarget patches its two sites and its trampoline.
 */
static void tpt_expect_target(struct kunit *test, void *func)
{
	KUNIT_EXPECT_PTR_EQ(test, static_call_query(tp_func_tpt_sites), func);
	KUNIT_EXPECT_PTR_EQ(test, __tracepoint_tpt_sites.iterator,
			    (void *)__traceiter_tpt_sites);
}

static void tpt_test_sites_follow_probes(struct kunit *test)
{
	int d1, d2;
	struct tpt_patch_count c;
	unsigned long flip = IS_ENABLED(CONFIG_JUMP_LABEL) ? 2 : 0;
	/* tpt_patch_now() counts nothing without JUMP_LABEL. */
	bool sc = IS_ENABLED(CONFIG_STATIC_CALL) && IS_ENABLED(CONFIG_JUMP_LABEL);
	unsigned long call = sc ? 3 : 0;
	unsigned long call_batch = sc;

	tpt_expect_sites(test, false);
	tpt_expect_target(test, __traceiter_tpt_sites);
	c = tpt_patch_now();
	KUNIT_ASSERT_EQ(test, register_trace_tpt_sites(tpt_sites_probe, &d1),
			0);
	/* 0 -> 1: the key flips, the call goes to the probe. */
	KUNIT_EXPECT_EQ(test, tpt_patched_since(c), flip + call);
	tpt_expect_sites(test, true);
	tpt_expect_target(test, tpt_sites_probe);
	c = tpt_patch_now();
	KUNIT_ASSERT_EQ(test, register_trace_tpt_sites(tpt_sites_probe, &d2),
			0);
	tpt_expect_target(test, __traceiter_tpt_sites);
	KUNIT_EXPECT_EQ(test, unregister_trace_tpt_sites(tpt_sites_probe, &d1),
			0);
	tpt_expect_target(test, tpt_sites_probe);
	/* 1 -> 2 -> 1 probes: a new array each time, no flip; two retargets. */
	KUNIT_EXPECT_EQ(test, tpt_patched_since(c), 2 * call);
	KUNIT_EXPECT_EQ(test, tpt_patch_now().batches, c.batches + 2 * call_batch);
	tpt_expect_sites(test, true);
	c = tpt_patch_now();
	KUNIT_EXPECT_EQ(test, unregister_trace_tpt_sites(tpt_sites_probe, &d2),
			0);
	KUNIT_EXPECT_EQ(test, tpt_patched_since(c), flip + call);
	tpt_expect_sites(test, false);
	tpt_expect_target(test, __traceiter_tpt_sites);
	tracepoint_synchronize_unregister();
}

static int tpt_evals;
static int tpt_args_seen;

static noinline int tpt_side_effect(int v)
{
	tpt_evals++;
	return v;
}

static void tpt_args_probe(void *data, int x)
{
	tpt_args_seen = x;
}

/* trace_x(f()) calls f() only while a probe is attached. */
static void tpt_test_args_not_evaluated(struct kunit *test)
{
	int i;

	tpt_evals = 0;
	for (i = 0; i < 10; i++)
		trace_tpt_args(tpt_side_effect(i));
	KUNIT_EXPECT_EQ(test, tpt_evals, 0);
	KUNIT_ASSERT_EQ(test, register_trace_tpt_args(tpt_args_probe, NULL), 0);
	trace_tpt_args(tpt_side_effect(42));
	KUNIT_EXPECT_EQ(test, tpt_evals, 1);
	KUNIT_EXPECT_EQ(test, tpt_args_seen, 42);
	KUNIT_EXPECT_EQ(test, unregister_trace_tpt_args(tpt_args_probe, NULL),
			0);
	trace_tpt_args(tpt_side_effect(43));
	KUNIT_EXPECT_EQ(test, tpt_evals, 1);
	KUNIT_EXPECT_EQ(test, tpt_args_seen, 42);
	tracepoint_synchronize_unregister();
}

static int tpt_reg_calls, tpt_unreg_calls, tpt_reg_ret;

static int tpt_regfunc(void)
{
	tpt_reg_calls++;
	return tpt_reg_ret;
}

static void tpt_unregfunc(void)
{
	tpt_unreg_calls++;
}

DECLARE_TRACE(tpt_regs, TP_PROTO(int x), TP_ARGS(x));
DEFINE_TRACE_FN(tpt_regs, tpt_regfunc, tpt_unregfunc, TP_PROTO(int x),
		TP_ARGS(x));

/* regfunc before the first probe, unregfunc after the last; errors. */
static void tpt_test_regfunc(struct kunit *test)
{
	int d1, d2;

	tpt_reg_calls = tpt_unreg_calls = 0;
	tpt_reg_ret = -EBUSY;
	KUNIT_EXPECT_EQ(test, register_trace_tpt_regs(tpt_probe_a, &d1),
			-EBUSY);
	KUNIT_EXPECT_FALSE(test, trace_tpt_regs_enabled());
	KUNIT_EXPECT_NULL(test, __tracepoint_tpt_regs.funcs);
	tpt_reg_ret = 0;
	KUNIT_EXPECT_EQ(test, register_trace_tpt_regs(tpt_probe_a, &d1), 0);
	KUNIT_EXPECT_EQ(test, register_trace_tpt_regs(tpt_probe_a, &d2), 0);
	KUNIT_EXPECT_EQ(test, tpt_reg_calls, 2);
	KUNIT_EXPECT_TRUE(test, trace_tpt_regs_enabled());
	KUNIT_EXPECT_EQ(test, unregister_trace_tpt_regs(tpt_probe_a, &d1), 0);
	KUNIT_EXPECT_EQ(test, tpt_unreg_calls, 0);
	KUNIT_EXPECT_EQ(test, unregister_trace_tpt_regs(tpt_probe_a, &d2), 0);
	KUNIT_EXPECT_EQ(test, tpt_unreg_calls, 1);
	KUNIT_EXPECT_FALSE(test, trace_tpt_regs_enabled());
	tracepoint_synchronize_unregister();
}

/* No memory: register fails cleanly, unregister leaves a stub. */
static void tpt_test_no_memory(struct kunit *test)
{
	struct tpt_log log;

	kmalloc_fail_next(1);
	KUNIT_EXPECT_EQ(test, register_trace_tpt_order(tpt_probe_a, &log),
			-ENOMEM);
	kmalloc_fail_next(0);
	KUNIT_EXPECT_FALSE(test, trace_tpt_order_enabled());
	KUNIT_ASSERT_EQ(test, register_trace_tpt_order(tpt_probe_a, &log), 0);
	KUNIT_ASSERT_EQ(test, register_trace_tpt_order(tpt_probe_b, &log), 0);
	KUNIT_ASSERT_EQ(test, register_trace_tpt_order(tpt_probe_c, &log), 0);
	kmalloc_fail_next(1);
	KUNIT_EXPECT_EQ(test, unregister_trace_tpt_order(tpt_probe_b, &log), 0);
	kmalloc_fail_next(0);
	KUNIT_EXPECT_STREQ(test, tpt_order_run(&log, 1), "ac");
	/* The stub is not a probe: it cannot be removed, nor added. */
	KUNIT_EXPECT_EQ(test, unregister_trace_tpt_order(tpt_probe_b, &log),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, register_trace_tpt_order(tpt_probe_d, &log), 0);
	KUNIT_EXPECT_STREQ(test, tpt_order_run(&log, 1), "acd");
	KUNIT_EXPECT_EQ(test, unregister_trace_tpt_order(tpt_probe_a, &log), 0);
	KUNIT_EXPECT_EQ(test, unregister_trace_tpt_order(tpt_probe_c, &log), 0);
	KUNIT_EXPECT_TRUE(test, trace_tpt_order_enabled());
	KUNIT_EXPECT_EQ(test, unregister_trace_tpt_order(tpt_probe_d, &log), 0);
	KUNIT_EXPECT_FALSE(test, trace_tpt_order_enabled());
	KUNIT_EXPECT_NULL(test, __tracepoint_tpt_order.funcs);
	tracepoint_synchronize_unregister();
}

/* Registration flips keys without a WARN (lock order, _cpuslocked). */
static void tpt_test_no_warnings(struct kunit *test)
{
	unsigned long warns = nr_warnings;
	struct tpt_log log;

	KUNIT_ASSERT_EQ(test, register_trace_tpt_order(tpt_probe_a, &log), 0);
	KUNIT_EXPECT_EQ(test, unregister_trace_tpt_order(tpt_probe_a, &log), 0);
	/* With the hotplug lock already held by the caller: a nested read. */
	cpus_read_lock();
	KUNIT_EXPECT_EQ(test, register_trace_tpt_order(tpt_probe_a, &log), 0);
	KUNIT_EXPECT_TRUE(test, trace_tpt_order_enabled());
	KUNIT_EXPECT_EQ(test, unregister_trace_tpt_order(tpt_probe_a, &log), 0);
	cpus_read_unlock();
	KUNIT_EXPECT_FALSE(test, trace_tpt_order_enabled());
	KUNIT_EXPECT_EQ(test, nr_warnings, warns);
	tracepoint_synchronize_unregister();
}

/* A table outside the image, as a module's __tracepoints_ptrs will be. */
DECLARE_TRACE(tpt_modlike, TP_PROTO(int x), TP_ARGS(x));
__DEFINE_TRACE_BODY(tpt_modlike, NULL, NULL, TP_PROTO(int x), TP_ARGS(x))
static struct tracepoint *const tpt_mod_ptrs[] = { &__tracepoint_tpt_modlike };

static void tpt_count_one(struct tracepoint *tp, void *priv)
{
	*(int *)priv += tp == &__tracepoint_tpt_modlike;
}

static void tpt_test_module_table(struct kunit *test)
{
	struct tracepoint_table table = { .start = tpt_mod_ptrs, .num = 1 };
	unsigned long warns;
	struct tpt_log log;
	int seen = 0;

	KUNIT_EXPECT_NULL(test, tracepoint_find("tpt_modlike"));
	KUNIT_EXPECT_PTR_EQ(test, tracepoint_find("tpt_order"),
			    &__tracepoint_tpt_order);
	tracepoint_module_coming(&table);
	KUNIT_EXPECT_PTR_EQ(test, tracepoint_find("tpt_modlike"),
			    &__tracepoint_tpt_modlike);
	for_each_tracepoint(tpt_count_one, &seen);
	KUNIT_EXPECT_EQ(test, seen, 1);
	seen = 0;
	for_each_kernel_tracepoint(tpt_count_one, &seen);
	KUNIT_EXPECT_EQ(test, seen, 0);
	KUNIT_ASSERT_EQ(test, register_trace_tpt_modlike(tpt_probe_a, &log), 0);
	memset(&log, 0, sizeof(log));
	trace_tpt_modlike(9);
	KUNIT_EXPECT_STREQ(test, log.tags, "a");
	warns = nr_warnings;
	tracepoint_module_going(&table);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1);
	KUNIT_EXPECT_NULL(test, tracepoint_find("tpt_modlike"));
	/* Removed with its probes: the key is off, nothing to unregister. */
	KUNIT_EXPECT_FALSE(test, trace_tpt_modlike_enabled());
	KUNIT_EXPECT_NULL(test, __tracepoint_tpt_modlike.funcs);
	KUNIT_EXPECT_EQ(test, unregister_trace_tpt_modlike(tpt_probe_a, &log),
			-ENOENT);
	tracepoint_module_coming(&table);
	warns = nr_warnings;
	tracepoint_module_going(&table);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns);
	tracepoint_synchronize_unregister();
}

/*
 * Removal while other CPUs fire: each round registers a fresh victim
 * probe, waits until it has run, unregisters it, waits with
 * tracepoint_synchronize_unregister() and only then marks it retired.
 * A retired victim that runs again is the bug this looks for. Every
 * other round a keeper probe stays registered, so that removal replaces
 * the array instead of disabling the key (and the flip's int3 batch
 * runs under the firing CPUs the rest of the time).
 */
#define TPT_VICTIMS 8

struct tpt_victim {
	int retired;
	atomic_t calls;
	atomic_t late;
};

struct tpt_fire_ctx {
	struct tpt_victim victims[TPT_VICTIMS];
	atomic_t keeper_calls;
	int stop;
	atomic_t running;
};

static void tpt_victim_probe(void *data, unsigned int cpu)
{
	struct tpt_victim *v = data;
	unsigned int i;

	if (READ_ONCE(v->retired))
		atomic_inc(&v->late);
	atomic_inc(&v->calls);
	for (i = 0; i < 50; i++) /* widen the window inside the probe */
		barrier();
	if (READ_ONCE(v->retired))
		atomic_inc(&v->late);
}

static void tpt_keeper_probe(void *data, unsigned int cpu)
{
	atomic_inc(&((struct tpt_fire_ctx *)data)->keeper_calls);
}

static int tpt_fire_fn(void *data)
{
	struct tpt_fire_ctx *ctx = data;
	unsigned int n = 0;

	while (!READ_ONCE(ctx->stop)) {
		trace_tpt_fire(smp_processor_id());
		if (!(++n & 1023))
			cond_resched(); /* the one-CPU case: let the test run */
	}
	atomic_dec(&ctx->running);
	kthread_wait_stop();
	return 0;
}

/* Waits (sleeping) until v has run; false once the deadline passed. */
static bool tpt_wait_called(struct tpt_victim *v, u64 deadline)
{
	while (!atomic_read(&v->calls)) {
		if (get_cycles() > deadline)
			return false;
		msleep(1);
	}
	return true;
}

/*
 * One round: 0, -ETIMEDOUT if the victim never ran in time, or a
 * registration's error. No ASSERT here: the firing threads must be
 * stopped whatever happens.
 */
static int tpt_fire_round(struct tpt_fire_ctx *ctx, unsigned int r,
			  u64 deadline)
{
	struct tpt_victim *v = &ctx->victims[r % TPT_VICTIMS];
	bool keep = r & 1;
	int err;

	if (keep) {
		err = register_trace_tpt_fire(tpt_keeper_probe, ctx);
		if (err)
			return err;
	}
	WRITE_ONCE(v->retired, 0);
	atomic_set(&v->calls, 0);
	err = register_trace_tpt_fire(tpt_victim_probe, v);
	if (!err && !tpt_wait_called(v, deadline))
		err = -ETIMEDOUT;
	if (!err)
		err = unregister_trace_tpt_fire(tpt_victim_probe, v);
	tracepoint_synchronize_unregister();
	WRITE_ONCE(v->retired, 1);
	if (keep && unregister_trace_tpt_fire(tpt_keeper_probe, ctx))
		err = err ?: -ENOENT;
	return err;
}

static unsigned int tpt_start_firing(struct kunit *test,
				     struct tpt_fire_ctx *ctx,
				     struct task_struct **t)
{
	unsigned int cpu, n = 0, me = smp_processor_id();

	for_each_online_cpu(cpu) {
		if (cpu == me && num_online_cpus() > 1)
			continue;
		t[n] = kthread_run_on_cpu(tpt_fire_fn, ctx, cpu, "tpt_fire/%u");
		if (IS_ERR(t[n])) {
			KUNIT_FAIL(test, "no thread for CPU%u", cpu);
			break;
		}
		atomic_inc(&ctx->running);
		n++;
	}
	return n;
}

static void tpt_test_remove_while_firing(struct kunit *test)
{
	struct tpt_fire_ctx *ctx =
		kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	struct task_struct *t[NR_CPUS];
	u64 deadline = get_cycles() + (u64)tpt_budget_s * 1000 * tsc_khz;
	unsigned int n, r, i, late = 0;
	int err = 0;

	KUNIT_ASSERT_NOT_NULL(test, ctx);
	n = tpt_start_firing(test, ctx, t);
	for (r = 0; r < tpt_rounds; r++) {
		err = tpt_fire_round(ctx, r, deadline);
		if (err)
			break;
	}
	msleep(20); /* the firing goes on: late calls would show up now */
	WRITE_ONCE(ctx->stop, 1);
	for (i = 0; i < n; i++)
		kthread_stop(t[i]);
	for (i = 0; i < TPT_VICTIMS; i++)
		late += atomic_read(&ctx->victims[i].late);
	KUNIT_EXPECT_EQ_MSG(
		test, err, 0,
		"round %u of %u failed (-ETIMEDOUT: out of the %u s budget)", r,
		tpt_rounds, tpt_budget_s);
	KUNIT_EXPECT_EQ(test, late, 0);
	KUNIT_EXPECT_GT(test, atomic_read(&ctx->keeper_calls), 0);
	KUNIT_EXPECT_FALSE(test, trace_tpt_fire_enabled());
	kunit_info(test, "%u rounds, %u firing threads, keeper ran %d times", r,
		   n, atomic_read(&ctx->keeper_calls));
	tracepoint_synchronize_unregister();
}

static struct kunit_case tpt_cases[] = {
	KUNIT_CASE(tpt_test_priority_order),
	KUNIT_CASE(tpt_test_sites_follow_probes),
	KUNIT_CASE(tpt_test_args_not_evaluated),
	KUNIT_CASE(tpt_test_regfunc),
	KUNIT_CASE(tpt_test_no_memory),
	KUNIT_CASE(tpt_test_no_warnings),
	KUNIT_CASE(tpt_test_module_table),
	KUNIT_CASE(tpt_test_remove_while_firing),
	{}
};

static struct kunit_suite tpt_suite = {
	.name = "tracepoint",
	.test_cases = tpt_cases,
};
kunit_test_suite(tpt_suite);
