// SPDX-License-Identifier: GPL-2.0
/*
 * Test module: per-CPU variables, then an init that fails: the chunk must
 * go back to the reserve, zeroed.
 */
#include <linux/errno.h>
#include <linux/init.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <fixtures/modtest.h>

static DEFINE_PER_CPU(int, mpcf_count) = 3;
static DEFINE_PER_CPU(struct modtest_percpu_block, mpcf_block);

static const struct modtest_percpu_ops mpcf_ops = {
	.name = "modtest_percpu_initfail",
	.seed = &mpcf_count,
	.block = &mpcf_block,
};

static int __init mpcf_init(void)
{
	this_cpu_inc(mpcf_count);
	this_cpu_ptr(&mpcf_block)->words[2] = 77;
	modtest_percpu_register(&mpcf_ops);
	return -ENODEV;
}

static void mpcf_exit(void)
{
}

module_init(mpcf_init);
module_exit(mpcf_exit);
MODULE_INFO(name, KBUILD_MODNAME);
MODULE_LICENSE("GPL");
