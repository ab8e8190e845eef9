// SPDX-License-Identifier: GPL-2.0
/*
 * context_switch_insns (bench=GLOB; scripts/bench.py boots it on 1 CPU
 * under QEMU -icount with tick=off): two kthreads bound to this CPU yield
 * to each other CSB_ROUNDS times each; the figure is the instructions per
 * switch, the whole of yield() included: one thread's timed region spans
 * its rounds, each round two switches (there and back). The thread that
 * started them sleeps in kthread_stop() meanwhile, off the run queue.
 * Then CSB_STEP_ROUNDS more rounds are single-stepped (bench_step.c):
 * context_switch_stepped_insns is the same figure counted one instruction
 * at a time, context_switch_static_branches the static branch sites a
 * switch passes (y only).
 */
#include <linux/kernel.h>
#include <linux/bench.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/tick.h>

#define CSB_ROUNDS 10000
#define CSB_STEP_ROUNDS 100

static u64 csb_insns;
static struct bench_step_counts csb_steps, csb_step_empty;
static int csb_done;
static struct task_struct *csb_waiter;

/* A thread's end: tell the waiter, then sleep until kthread_stop(). */
static int csb_finish(void)
{
	if (__atomic_add_fetch(&csb_done, 1, __ATOMIC_SEQ_CST) == 2)
		wake_up_process(csb_waiter);
	kthread_wait_stop();
	return 0;
}

static int csb_timed(void *unused)
{
	u64 t0;
	int i;

	yield(); /* both threads are running from here on */
	t0 = bench_cycles();
	for (i = 0; i < CSB_ROUNDS; i++)
		yield();
	csb_insns = bench_cycles() - t0 - bench_empty_region();
	/* The same switches single-stepped: their static branch sites. */
	if (!bench_step_start())
		bench_step_stop(&csb_step_empty);
	if (!bench_step_start()) {
		for (i = 0; i < CSB_STEP_ROUNDS; i++)
			yield();
		bench_step_stop(&csb_steps);
	}
	return csb_finish();
}

static int csb_partner(void *unused)
{
	int i;

	for (i = 0; i < CSB_ROUNDS + 2 + CSB_STEP_ROUNDS; i++)
		yield();
	return csb_finish();
}

static void bench_context_switch(void)
{
	unsigned int cpu = smp_processor_id();
	struct task_struct *a, *b;

	if (tick_enabled()) {
		pr_warn("bench context_switch: needs tick=off on the command line\n");
		return;
	}
	a = kthread_create(csb_timed, NULL, "csb_timed");
	b = kthread_create(csb_partner, NULL, "csb_partner");
	if (IS_ERR(a) || IS_ERR(b)) {
		pr_err("bench context_switch: no memory for the threads\n");
		return;
	}
	kthread_bind(a, cpu);
	kthread_bind(b, cpu);
	csb_waiter = current;
	wake_up_process(a);
	wake_up_process(b);
	for (;;) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		if (READ_ONCE(csb_done) == 2)
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
	kthread_stop(a);
	kthread_stop(b);
	/* 100 * insns / (2 * rounds) switches, in hundredths. */
	bench_report("context_switch_insns", "",
		     csb_insns * 100 / (2 * CSB_ROUNDS), "insns");
	bench_report("context_switch_stepped_insns", "",
		     (csb_steps.insns - csb_step_empty.insns) * 100 /
			     (2 * CSB_STEP_ROUNDS), "insns");
	if (IS_ENABLED(CONFIG_JUMP_LABEL))
		bench_report("context_switch_static_branches", "",
			     csb_steps.sites * 100 / (2 * CSB_STEP_ROUNDS),
			     "branches");
}
bench_case("context_switch", bench_context_switch);
