// SPDX-License-Identifier: GPL-2.0
/* Test module: uses both exports of modtest_basic, which it so pins. */
#include <linux/init.h>
#include <linux/module.h>
#include <fixtures/modtest.h>

static int __init modtest_user_init(void)
{
	modtest_value("modtest_user",
		      modtest_basic_add(2, 3) + modtest_basic_gpl_twice(100));
	return 0;
}

static void modtest_user_exit(void)
{
	modtest_exit("modtest_user");
}

module_init(modtest_user_init);
module_exit(modtest_user_exit);
MODULE_INFO(name, KBUILD_MODNAME);
MODULE_LICENSE("GPL v2");
