// SPDX-License-Identifier: GPL-2.0
/* Test module: init runs, then fails; exit must never run. */
#include <linux/errno.h>
#include <linux/init.h>
#include <linux/module.h>
#include <fixtures/modtest.h>

int modtest_initfail_export(int x)
{
	return x;
}
EXPORT_SYMBOL(modtest_initfail_export);

static int __init modtest_initfail_init(void)
{
	modtest_value("modtest_initfail", modtest_initfail_export(1));
	return -ENODEV;
}

static void modtest_initfail_exit(void)
{
	modtest_exit("modtest_initfail");
}

module_init(modtest_initfail_init);
module_exit(modtest_initfail_exit);
MODULE_INFO(name, KBUILD_MODNAME);
MODULE_LICENSE("GPL");
