// SPDX-License-Identifier: GPL-2.0
/*
 * Static call benchmarks (bench=static_call*, scripts/bench_static_call.py):
 *
 *   static_call_insns              one call through a static call, a
 *                                  direct call, an indirect call (params
 *                                  static, direct, indirect)
 *   static_call_update_insns,      retargeting a call of 1, 56 and 1,024
 *   static_call_update_sync_rounds sites (and its trampoline)
 *   trace_on_sync_rounds,          enabling (disabling) every sched event
 *   trace_off_sync_rounds          at once (params events=N), as "trace on
 *                                  sched:*", and every event of the kernel
 *                                  (all,events=N), as "trace on *"
 *                                  and a probe on every tracepoint with one
 *                                  tracepoint_probe_register_batch()
 *                                  (tracepoints=N)
 *   trace_on_events                N of all, and of tracepoints
 */
#include <linux/kernel.h>
#include <linux/bench.h>
#include <linux/slab.h>
#include <linux/static_call.h>
#include <linux/trace.h>
#include <linux/tracepoint.h>
#include <linux/text-patching.h>

#define SCB_CALLS 10000

static noinline int scb_target(int x)
{
	return x + 1;
}

static noinline int scb_other(int x)
{
	return x + 2;
}

static int (*scb_ptr)(int) = scb_target;

DEFINE_STATIC_CALL(scb_call, scb_target);

static noinline int scb_static_fn(void)
{
	return static_call(scb_call)(1);
}

static noinline int scb_direct_fn(void)
{
	return scb_target(1);
}

static noinline int scb_indirect_fn(void)
{
	return READ_ONCE(scb_ptr)(1);
}

/* Calls of 56 and 1,024 sites. */
DEFINE_STATIC_CALL(scb_56, scb_target);
DEFINE_STATIC_CALL(scb_1024, scb_target);
#define SCB_4(x) x x x x
#define SCB_16(x) SCB_4(SCB_4(x))
#define SCB_56(x) SCB_16(x) SCB_16(x) SCB_16(x) SCB_4(x) SCB_4(x)
#define SCB_1024(x) SCB_16(SCB_16(SCB_4(x)))

static noinline __used BENCH_SITES_SCB56 unsigned int scb_56_fn(void)
{
	unsigned int s = 0;

	SCB_56(s += static_call(scb_56)(s);)
	return s;
}

static noinline __used BENCH_SITES_SCB1024 unsigned int scb_1024_fn(void)
{
	unsigned int s = 0;

	SCB_1024(s += static_call(scb_1024)(s);)
	return s;
}

static void bench_static_call_calls(void)
{
	bench_report("static_call_insns", "static",
		     bench_per_call_x100(scb_static_fn, SCB_CALLS), "insns");
	bench_report("static_call_insns", "direct",
		     bench_per_call_x100(scb_direct_fn, SCB_CALLS), "insns");
	bench_report("static_call_insns", "indirect",
		     bench_per_call_x100(scb_indirect_fn, SCB_CALLS), "insns");
}

/* One update there and one back; figures per update. */
static void bench_static_call_update_one(struct static_call_key *key,
					 void *tramp)
{
	struct text_poke_stats before = text_poke_get_stats();
	u64 empty = bench_empty_region(), t0, t;
	char params[32];

	t0 = bench_cycles();
	__static_call_update(key, tramp, scb_other);
	__static_call_update(key, tramp, scb_target);
	t = bench_cycles() - t0 - empty;
	snprintf(params, sizeof(params), "sites=%u",
		 static_call_nr_sites(key) - !!tramp);
	bench_report("static_call_update_insns", params, 50 * t, "insns");
	bench_report("static_call_update_sync_rounds", params,
		     50 * (text_poke_get_stats().sync_rounds - before.sync_rounds),
		     "rounds");
}

static void bench_static_call_update(void)
{
	bench_static_call_update_one(&STATIC_CALL_KEY(scb_call),
				     STATIC_CALL_TRAMP_ADDR(scb_call));
	bench_static_call_update_one(&STATIC_CALL_KEY(scb_56),
				     STATIC_CALL_TRAMP_ADDR(scb_56));
	bench_static_call_update_one(&STATIC_CALL_KEY(scb_1024),
				     STATIC_CALL_TRAMP_ADDR(scb_1024));
}

struct scb_tps {
	unsigned int on, all;
	struct tracepoint_batch_probe *batch;
};

static void scb_count_enabled(struct tracepoint *tp, void *priv)
{
	struct scb_tps *n = priv;

	n->on += tracepoint_enabled(tp);
	n->all++;
}

/*
 * spec on with one call, as the console's "trace on <spec>", then off:
 * the sync rounds of each, params "<what>events=N" (N tracepoints on).
 */
static void bench_trace_spec(const char *spec, const char *what)
{
	struct text_poke_stats before = text_poke_get_stats();
	struct scb_tps n = { 0 };
	unsigned long on;
	char params[64];

	if (!IS_ENABLED(CONFIG_TRACING) || trace_set_event(spec, true))
		return;
	on = text_poke_get_stats().sync_rounds - before.sync_rounds;
	for_each_tracepoint(scb_count_enabled, &n);
	snprintf(params, sizeof(params), "%sevents=%u", what, n.on);
	bench_report("trace_on_sync_rounds", params, 100 * on, "rounds");
	before = text_poke_get_stats();
	trace_set_event(spec, false);
	bench_report("trace_off_sync_rounds", params,
		     100 * (text_poke_get_stats().sync_rounds - before.sync_rounds),
		     "rounds");
	tracepoint_synchronize_unregister();
	if (what[0])
		bench_report("trace_on_events", "all", 100 * n.on, "events");
}

/* Does nothing: the x86-64 calling convention lets it ignore any arguments. */
static void scb_nop_probe(void)
{
}

static void scb_add_tp(struct tracepoint *tp, void *priv)
{
	struct scb_tps *n = priv;

	n->batch[n->all++] = (struct tracepoint_batch_probe){
		.tp = tp,
		.probe = (void *)scb_nop_probe,
		.prio = TRACEPOINT_DEFAULT_PRIO,
	};
}

/*
 * A probe on every tracepoint of the kernel (those without an event too)
 * with one tracepoint_probe_register_batch(), then off: params
 * tracepoints=N.
 */
static void bench_trace_all_tracepoints(void)
{
	struct text_poke_stats before;
	struct scb_tps n = { 0 };
	unsigned long on;
	char params[32];

	for_each_tracepoint(scb_count_enabled, &n);
	n.batch = kcalloc(n.all, sizeof(*n.batch), GFP_KERNEL);
	if (!n.batch || n.on)
		goto out;
	n.all = 0;
	for_each_tracepoint(scb_add_tp, &n);
	before = text_poke_get_stats();
	if (tracepoint_probe_register_batch(n.batch, n.all))
		goto out;
	on = text_poke_get_stats().sync_rounds - before.sync_rounds;
	snprintf(params, sizeof(params), "tracepoints=%u", n.all);
	bench_report("trace_on_sync_rounds", params, 100 * on, "rounds");
	before = text_poke_get_stats();
	tracepoint_probe_unregister_batch(n.batch, n.all);
	bench_report("trace_off_sync_rounds", params,
		     100 * (text_poke_get_stats().sync_rounds - before.sync_rounds),
		     "rounds");
	bench_report("trace_on_events", "tracepoints", 100 * n.all,
		     "tracepoints");
	tracepoint_synchronize_unregister();
out:
	kfree(n.batch);
}

/*
 * Every sched event (3), every event of the kernel, a probe on every
 * tracepoint: each at once.
 */
static void bench_trace_on(void)
{
	bench_trace_spec("sched:*", "");
	bench_trace_spec("*", "all,");
	bench_trace_all_tracepoints();
}

static void bench_static_call(void)
{
	bench_static_call_calls();
	bench_static_call_update();
	bench_trace_on();
}
bench_case("static_call", bench_static_call);
