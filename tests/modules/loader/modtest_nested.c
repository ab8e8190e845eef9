// SPDX-License-Identifier: GPL-2.0
/* Test module: its init loads modtest_basic (init runs unlocked). */
#include <linux/init.h>
#include <linux/module.h>
#include <fixtures/modtest.h>

static int __init modtest_nested_init(void)
{
	modtest_value("modtest_nested", modtest_request("modtest_basic"));
	return 0;
}

/* Without an exit it could not be removed. */
static void modtest_nested_exit(void)
{
}

module_init(modtest_nested_init);
module_exit(modtest_nested_exit);
MODULE_INFO(name, KBUILD_MODNAME);
MODULE_LICENSE("GPL");
