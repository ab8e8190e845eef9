// SPDX-License-Identifier: GPL-2.0
/*
 * Test module: half the per-CPU reserve in one variable (so that the
 * module_percpu suite can fragment the reserve and fill it) and a counter
 * initialised to 3. With fail=1 its init fails after using both; the
 * suite also loads copies of it made NOBITS, or larger than the reserve.
 */
#include <linux/errno.h>
#include <linux/init.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <fixtures/modtest.h>

static bool fail;
module_param(fail, bool, 0444);

static DEFINE_PER_CPU(char[CONFIG_MODULE_PERCPU_RESERVE / 2], mpch_buf);
static DEFINE_PER_CPU(int, mpch_count) = 3;

static const struct modtest_percpu_ops mpch_ops = {
	.name = "modtest_percpu_half",
	.seed = &mpch_count,
	.block = (struct modtest_percpu_block *)&mpch_buf,
};

static int __init mpch_init(void)
{
	this_cpu_inc(mpch_count);
	this_cpu_ptr(&mpch_buf)[0][16] = 77;
	modtest_percpu_register(&mpch_ops);
	return fail ? -ENODEV : 0;
}

static void mpch_exit(void)
{
	modtest_percpu_unregister(&mpch_ops);
}

module_init(mpch_init);
module_exit(mpch_exit);
MODULE_INFO(name, KBUILD_MODNAME);
MODULE_LICENSE("GPL");
