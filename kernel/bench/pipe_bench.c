// SPDX-License-Identifier: GPL-2.0
/*
 * bench=pipe: perf bench sched pipe pinned to one CPU (sched_pipe_run(),
 * <linux/pipe.h>), under QEMU -icount with tick=off (scripts/bench.py),
 * the seed's comparison of CONFIG_JUMP_LABEL=y and =n
 * (Documentation/static-keys.rst). Each figure is per round trip (two
 * wake-ups, two switches), from the start of round trip PB_WARMUP to the
 * start of round trip PB_WARMUP + rounds, measured by the ping thread
 * between round trips, while pong sleeps:
 *
 *   pipe_roundtrip_insns             as built: every key off
 *   pipe_roundtrip_switches          context switches on the CPU
 *   pipe_roundtrip_traced_insns      a probe on sched_switch (probe=), or
 *                                    the tracer's sched_switch event (event=)
 *   pipe_roundtrip_schedstats_insns  schedstats on
 *   pipe_roundtrip_stepped_insns     single-stepped (bench_step.c):
 *   pipe_roundtrip_branches          the same instructions counted one by
 *   pipe_roundtrip_static_branches   one, their branches, and the static
 *                                    branch sites among them, in total and
 *                                    per key (y only: =n has no sites)
 *   pipe_roundtrip_fn_insns,         the same per function (fn=), to see
 *   pipe_roundtrip_fn_branches       where y and n differ
 *
 * The stepped round trips are also traced (bench_trace_start()): the
 * trace, printed on the console, gives the host its footprint figures
 * (scripts/bench_footprint.py, Documentation/footprint.rst). A round
 * trip there starts where pb_mark() does: the trace needs no marks, and
 * the stepped figures above stay what they were.
 */
#include <linux/kernel.h>
#include <linux/bench.h>
#include <linux/pipe.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/tick.h>
#include <linux/trace.h>
#include <trace/events/sched.h>

#define PB_WARMUP 10
#define PB_ROUNDS 10000
#define PB_STEP_ROUNDS 100
/* About 3 bytes an instruction, 1,700 instructions a round trip. */
#define PB_TRACE_BYTES (PB_STEP_ROUNDS * 16384)

struct pipe_bench {
	unsigned int rounds;
	bool step;
	u64 t0, insns;
	unsigned long sw0, switches;
	struct bench_step_counts steps;
	int step_err;
	bool traced;
};

static void pb_mark(struct sched_pipe *sp, unsigned int i)
{
	struct pipe_bench *pb = sp->priv;

	if (i == PB_WARMUP) {
		pb->sw0 = sched_cpu_stats(sp->cpu).switches;
		if (pb->step) {
			pb->traced = !bench_trace_start(PB_TRACE_BYTES);
			pb->step_err = bench_step_start();
		}
		pb->t0 = bench_cycles();
	} else if (i == PB_WARMUP + pb->rounds) {
		u64 t1 = bench_cycles();

		if (pb->step && !pb->step_err) {
			bench_step_stop(&pb->steps);
			bench_trace_stop();
		}
		pb->insns = t1 - pb->t0 - bench_empty_region();
		pb->switches = sched_cpu_stats(sp->cpu).switches - pb->sw0;
	}
}

/* One run: false (and a message) if the exchange went wrong. */
static bool pb_run(struct pipe_bench *pb, unsigned int rounds, bool step)
{
	struct sched_pipe sp = { .loops = PB_WARMUP + rounds + 1,
				 .cpu = smp_processor_id(),
				 .mark = pb_mark,
				 .priv = pb };

	memset(pb, 0, sizeof(*pb));
	pb->rounds = rounds;
	pb->step = step;
	if (sched_pipe_run(&sp) || sp.bad_tokens || pb->step_err) {
		pr_err("bench pipe: run failed (err %d, %u bad tokens, step %d)\n",
		       sp.err, sp.bad_tokens, pb->step_err);
		return false;
	}
	return true;
}

static void pb_report_insns(const char *name, const char *params,
			    const struct pipe_bench *pb)
{
	bench_report(name, params, pb->insns * 100 / pb->rounds, "insns");
}

static unsigned long pb_probe_calls;

static void pb_probe(void *data, bool preempt, struct task_struct *prev,
		     struct task_struct *next, unsigned int prev_state)
{
	(*(unsigned long *)data)++;
}

/* The cheapest probe: what an enabled tracepoint costs by itself. */
static void pb_traced_probe(struct pipe_bench *pb)
{
	pb_probe_calls = 0;
	if (register_trace_sched_switch(pb_probe, &pb_probe_calls))
		return;
	if (pb_run(pb, PB_ROUNDS, false))
		pb_report_insns("pipe_roundtrip_traced_insns",
				"probe=sched_switch", pb);
	unregister_trace_sched_switch(pb_probe, &pb_probe_calls);
	tracepoint_synchronize_unregister();
}

#ifdef CONFIG_TRACING
/* The tracer's event: a record per switch in the ring buffer. */
static void pb_traced_event(struct pipe_bench *pb)
{
	if (trace_set_clr_event("sched", "sched_switch", 1))
		return;
	if (pb_run(pb, PB_ROUNDS, false))
		pb_report_insns("pipe_roundtrip_traced_insns",
				"event=sched_switch", pb);
	trace_set_clr_event("sched", "sched_switch", 0);
	tracepoint_synchronize_unregister();
	trace_clear();
}
#else
static void pb_traced_event(struct pipe_bench *pb)
{
}
#endif

static void pb_key_report(struct static_key *key, u64 hits, void *priv)
{
	char params[80];

	snprintf(params, sizeof(params), "key=%ps", key);
	bench_report("pipe_roundtrip_static_branches", params,
		     hits * 100 / *(unsigned int *)priv, "branches");
}

/* Per function: where y and n differ shows in scripts/bench.py's table. */
static void pb_func_report(const struct bench_step_func *f, void *priv)
{
	unsigned int rounds = *(unsigned int *)priv;
	char params[64];

	if (!strncmp(f->name, "bench_", 6) || !strcmp(f->name, "pb_mark"))
		return; /* the session's own edges */
	snprintf(params, sizeof(params), "fn=%s", f->name);
	bench_report("pipe_roundtrip_fn_insns", params,
		     f->c.insns * 100 / rounds, "insns");
	bench_report("pipe_roundtrip_fn_branches", params,
		     f->c.branches * 100 / rounds, "branches");
}

static void pb_stepped(struct pipe_bench *pb)
{
	unsigned int rounds = PB_STEP_ROUNDS;
	struct bench_step_counts empty;

	/* A session around nothing: its own edges, to subtract. */
	if (bench_step_start())
		return;
	bench_step_stop(&empty);
	if (!pb_run(pb, rounds, true))
		return;
	bench_report("pipe_roundtrip_stepped_insns", "",
		     (pb->steps.insns - empty.insns) * 100 / rounds, "insns");
	bench_report("pipe_roundtrip_branches", "",
		     (pb->steps.branches - empty.branches) * 100 / rounds,
		     "branches");
	bench_report("pipe_roundtrip_branches", "conditional",
		     (pb->steps.cond_branches - empty.cond_branches) * 100 /
			     rounds,
		     "branches");
	bench_step_funcs(pb_func_report, &rounds);
	if (pb->traced)
		bench_trace_dump("pipe_roundtrip");
	else
		pr_warn("bench pipe: no memory for the trace\n");
	bench_trace_free();
	if (!IS_ENABLED(CONFIG_JUMP_LABEL))
		return;
	bench_report("pipe_roundtrip_static_branches", "",
		     pb->steps.sites * 100 / rounds, "branches");
	bench_step_keys(pb_key_report, &rounds);
}

static void bench_pipe(void)
{
	struct pipe_bench pb;

	if (tick_enabled()) {
		pr_warn("bench pipe: needs tick=off on the command line\n");
		return;
	}
	if (!pb_run(&pb, PB_ROUNDS, false))
		return;
	pb_report_insns("pipe_roundtrip_insns", "", &pb);
	bench_report("pipe_roundtrip_switches", "",
		     pb.switches * 100 / pb.rounds, "switches");
	pb_traced_probe(&pb);
	pb_traced_event(&pb);
	sched_set_schedstats(true);
	if (pb_run(&pb, PB_ROUNDS, false))
		pb_report_insns("pipe_roundtrip_schedstats_insns", "", &pb);
	sched_set_schedstats(false);
	pb_stepped(&pb);
}
bench_case("pipe", bench_pipe);
