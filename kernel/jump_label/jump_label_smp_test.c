// SPDX-License-Identifier: GPL-2.0
/*
 * Static key reference counts changed from a thread on every CPU at once
 * (boot with 4 CPUs): the count and the code must agree at the end. The patch engine's
 * own concurrency tests are in arch/x86/kernel/text_patch_test.c.
 *
 * Every 0 <-> 1 crossing is a flip, with three rounds in which all CPUs
 * must run: on a loaded host that is slow, so the operations are counted
 * (jump_label_smp_test.ops=N, default 20,000) and bounded in time
 * (jump_label_smp_test.budget=S seconds, default 300): a run out of time
 * fails, saying how far it got.
 */
#include <linux/delay.h>
#include <linux/jump_label.h>
#include <linux/kthread.h>
#include <linux/moduleparam.h>
#include <linux/smp.h>
#include <linux/timex.h>
#include <asm/tsc.h>
#include <fixtures/static_key_sites.h>
#include <kunit/test.h>

static unsigned int jls_ops = 20000;
core_param_named("jump_label_smp_test.ops", jls_ops, uint);
static unsigned int jls_budget_s = 300;
core_param_named("jump_label_smp_test.budget", jls_budget_s, uint);

DEFINE_STATIC_KEY_FALSE(jls_count);

static noinline int jls_count_fn(void)
{
	return static_branch_unlikely(&jls_count) ? 1 : 0;
}

struct jls_count_ctx {
	unsigned int pairs;	/* inc+dec pairs per CPU */
	u64 deadline;		/* get_cycles() value: the time budget */
	atomic_t done;		/* pairs made, all CPUs */
	atomic_t running;
};

/* Up to pairs inc/dec pairs, then one more inc: each thread leaves +1. */
static int jls_incdec_fn(void *data)
{
	struct jls_count_ctx *ctx = data;
	unsigned int i;

	for (i = 0; i < ctx->pairs && get_cycles() < ctx->deadline; i++) {
		static_branch_inc(&jls_count);
		static_branch_dec(&jls_count);
	}
	static_branch_inc(&jls_count);
	atomic_add(i, &ctx->done);
	atomic_dec(&ctx->running);
	kthread_wait_stop();
	return 0;
}

/* A thread on every CPU: a flip's mutex holder sleeps, waiters too. */
static void jls_test_inc_dec_concurrent(struct kunit *test)
{
	unsigned int n = num_online_cpus(), i = 0, cpu;
	struct jls_count_ctx ctx = { .pairs = jls_ops / n / 2 };
	struct task_struct *t[NR_CPUS];

	ctx.deadline = get_cycles() + (u64)jls_budget_s * 1000 * tsc_khz;
	atomic_set(&ctx.done, 0);
	atomic_set(&ctx.running, n);
	for_each_online_cpu(cpu) {
		t[i] = kthread_run_on_cpu(jls_incdec_fn, &ctx, cpu, "jls/%u");
		KUNIT_ASSERT_FALSE(test, IS_ERR(t[i]));
		i++;
	}
	while (atomic_read(&ctx.running))
		msleep(1);
	for (i = 0; i < n; i++)
		kthread_stop(t[i]);
	KUNIT_EXPECT_EQ_MSG(test, atomic_read(&ctx.done), n * ctx.pairs,
			    "out of time: %d of %u inc/dec pairs in %u s",
			    atomic_read(&ctx.done), n * ctx.pairs, jls_budget_s);
	KUNIT_EXPECT_EQ(test, static_key_count(&jls_count.key), n);
	KUNIT_EXPECT_EQ(test, jls_count_fn(), 1);
	KUNIT_EXPECT_EQ(test, static_key_test_wrong_sites(&jls_count.key, true), 0);
	kunit_info(test, "%u CPUs, %d operations", n,
		   2 * atomic_read(&ctx.done) + n);
	for (i = 0; i < n; i++)
		static_branch_dec(&jls_count);
	KUNIT_EXPECT_EQ(test, static_key_count(&jls_count.key), 0);
	KUNIT_EXPECT_EQ(test, jls_count_fn(), 0);
	KUNIT_EXPECT_EQ(test, static_key_test_wrong_sites(&jls_count.key, false), 0);
}

static struct kunit_case jls_cases[] = {
	KUNIT_CASE(jls_test_inc_dec_concurrent),
	{}
};

static struct kunit_suite jls_suite = {
	.name = "static_keys_smp",
	.test_cases = jls_cases,
};
kunit_test_suite(jls_suite);
