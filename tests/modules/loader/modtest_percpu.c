// SPDX-License-Identifier: GPL-2.0
/*
 * Test module: per-CPU variables of a module, through Linux's API only. A
 * zeroed counter, an initialised one (both exported), a 64-byte aligned
 * struct and a pointer to module data (a relocation inside the per-CPU
 * section). The module_percpu suite drives them through the ops.
 */
#include <linux/init.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/smp.h>
#include <fixtures/modtest.h>

static int mpc_target = 7;
DEFINE_PER_CPU(unsigned long, mpc_hits);
EXPORT_PER_CPU_SYMBOL(mpc_hits);
DEFINE_PER_CPU(int, mpc_seed) = 1000;
EXPORT_PER_CPU_SYMBOL_GPL(mpc_seed);
static DEFINE_PER_CPU(struct modtest_percpu_block, mpc_block) = {
	.words = { 1, 2, 3, 4, 5 },
};
static DEFINE_PER_CPU(int *, mpc_ptr) = &mpc_target;

/* On one CPU, interrupts off (on_each_cpu()): one of each operation. */
static void mpc_bump(void *unused)
{
	struct modtest_percpu_block *b = this_cpu_ptr(&mpc_block);

	this_cpu_inc(mpc_hits);
	this_cpu_add(mpc_seed, 2);
	this_cpu_dec(mpc_seed);
	b->words[0]++;
	if (this_cpu_read(mpc_ptr) == &mpc_target)
		this_cpu_write(mpc_block.words[1], b->words[1] + 1);
}

static unsigned long mpc_sum(void)
{
	unsigned long sum = 0;
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		sum += per_cpu(mpc_hits, cpu) +
		       per_cpu_ptr(&mpc_block, cpu)->words[0];
	return sum;
}

static unsigned long mpc_this(void)
{
	unsigned long v = get_cpu_var(mpc_hits);

	put_cpu_var(mpc_hits);
	return v;
}

static const struct modtest_percpu_ops mpc_ops = {
	.name = "modtest_percpu",
	.hits = &mpc_hits,
	.seed = &mpc_seed,
	.block = &mpc_block,
	.ptr = &mpc_ptr,
	.target = &mpc_target,
	.bump = mpc_bump,
	.sum = mpc_sum,
	.this_hits = mpc_this,
};

static int __init mpc_init(void)
{
	/* Every CPU's copy holds the initial values before init runs. */
	if (this_cpu_read(mpc_seed) != 1000 || this_cpu_read(mpc_hits))
		return -EINVAL;
	modtest_percpu_register(&mpc_ops);
	return 0;
}

static void mpc_exit(void)
{
	modtest_percpu_unregister(&mpc_ops);
}

module_init(mpc_init);
module_exit(mpc_exit);
MODULE_INFO(name, KBUILD_MODNAME);
MODULE_LICENSE("GPL");
