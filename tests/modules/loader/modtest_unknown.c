// SPDX-License-Identifier: GPL-2.0
/* Test module: calls a function nobody exports. */
#include <linux/init.h>
#include <linux/module.h>
#include <fixtures/modtest.h>

int modtest_no_such_symbol(int x);

static int __init modtest_unknown_init(void)
{
	return modtest_no_such_symbol(1);
}

module_init(modtest_unknown_init);
MODULE_INFO(name, KBUILD_MODNAME);
MODULE_LICENSE("GPL");
