// SPDX-License-Identifier: GPL-2.0
/*
 * Test module: half the per-CPU reserve in one variable, so that the
 * module_percpu suite can fragment the reserve and fill it.
 */
#include <linux/init.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <fixtures/modtest.h>

static DEFINE_PER_CPU(char[CONFIG_MODULE_PERCPU_RESERVE / 2], mpch_buf);

static const struct modtest_percpu_ops mpch_ops = {
	.name = "modtest_percpu_half",
	.block = (struct modtest_percpu_block *)&mpch_buf,
};

static int __init mpch_init(void)
{
	this_cpu_write(mpch_buf[sizeof(mpch_buf) - 1], 1);
	modtest_percpu_register(&mpch_ops);
	return 0;
}

static void mpch_exit(void)
{
	modtest_percpu_unregister(&mpch_ops);
}

module_init(mpch_init);
module_exit(mpch_exit);
MODULE_INFO(name, KBUILD_MODNAME);
MODULE_LICENSE("GPL");
