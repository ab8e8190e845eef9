// SPDX-License-Identifier: GPL-2.0
/*
 * synchronize_rcu_insns: one synchronize_rcu() with no reader anywhere,
 * on one CPU: queue the waker, switch to rcu_gp, the grace period (its own
 * CPU's report), the callback, and the switch back. No tick is needed: a
 * grace period ends through switches and IPIs, so tick=off is fine.
 */
#include <linux/kernel.h>
#include <linux/bench.h>
#include <linux/rcupdate.h>
#include <linux/smp.h>

#define RCU_BENCH_ROUNDS 200

static void bench_synchronize_rcu(void)
{
	u64 t0, insns;
	int i;

	if (num_online_cpus() != 1) {
		pr_warn("bench synchronize_rcu: needs one CPU\n");
		return;
	}
	synchronize_rcu(); /* warm: rcu_gp has run once */
	t0 = bench_cycles();
	for (i = 0; i < RCU_BENCH_ROUNDS; i++)
		synchronize_rcu();
	insns = bench_cycles() - t0 - bench_empty_region();
	bench_report("synchronize_rcu_insns", "",
		     insns * 100 / RCU_BENCH_ROUNDS, "insns");
}
bench_case("synchronize_rcu", bench_synchronize_rcu);
