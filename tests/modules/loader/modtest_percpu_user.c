// SPDX-License-Identifier: GPL-2.0
/*
 * Test module: uses modtest_percpu's exported per-CPU variables (mpc_hits,
 * mpc_seed: EXPORT_PER_CPU_SYMBOL(_GPL)) beside per-CPU variables of its
 * own, a byte among them, so that two modules hold chunks at once.
 */
#include <linux/init.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/smp.h>
#include <fixtures/modtest.h>

DECLARE_PER_CPU(unsigned long, mpc_hits);
DECLARE_PER_CPU(int, mpc_seed);

static int mpcu_target = 9;
static DEFINE_PER_CPU(char, mpcu_byte) = 'u';
static DEFINE_PER_CPU(struct modtest_percpu_block, mpcu_block) = {
	.words = { 10, 20, 30, 40, 50 },
};
static DEFINE_PER_CPU(int *, mpcu_ptr) = &mpcu_target;

/* The other module's counter, this module's block. */
static void mpcu_bump(void *unused)
{
	this_cpu_inc(mpc_hits);
	this_cpu_inc(mpc_seed);
	this_cpu_ptr(&mpcu_block)->words[0] += this_cpu_read(mpcu_byte) == 'u';
	this_cpu_write(mpcu_byte, 'u');
}

static unsigned long mpcu_sum(void)
{
	unsigned long sum = 0;
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		sum += per_cpu(mpc_hits, cpu) +
		       per_cpu(mpcu_block, cpu).words[0];
	return sum;
}

static unsigned long mpcu_this(void)
{
	unsigned long v = get_cpu_var(mpc_hits);

	put_cpu_var(mpc_hits);
	return v;
}

static const struct modtest_percpu_ops mpcu_ops = {
	.name = "modtest_percpu_user",
	.hits = &mpc_hits,
	.seed = &mpc_seed,
	.block = &mpcu_block,
	.ptr = &mpcu_ptr,
	.target = &mpcu_target,
	.bump = mpcu_bump,
	.sum = mpcu_sum,
	.this_hits = mpcu_this,
};

static int __init mpcu_init(void)
{
	modtest_percpu_register(&mpcu_ops);
	return 0;
}

static void mpcu_exit(void)
{
	modtest_percpu_unregister(&mpcu_ops);
}

module_init(mpcu_init);
module_exit(mpcu_exit);
MODULE_INFO(name, KBUILD_MODNAME);
MODULE_LICENSE("GPL");
