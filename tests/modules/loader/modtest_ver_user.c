// SPDX-License-Identifier: GPL-2.0
/*
 * Test module: calls modtest_ver_base's export with the type as it was
 * when it was built (MODTEST_VER_V2: a member more). Were it loaded, the
 * sum would read the wrong member; the loader refuses it by the version
 * of modtest_ver_sum.
 */
#include <linux/init.h>
#include <linux/module.h>
#include <linux/printk.h>
#include <fixtures/modtest_ver.h>

static int __init modtest_ver_user_init(void)
{
	struct modtest_ver_pair p = { .a = 2, .b = 3 };

	pr_info("modtest_ver_user: 2 + 3 = %d\n", modtest_ver_sum(&p));
	return 0;
}

static void modtest_ver_user_exit(void)
{
}

module_init(modtest_ver_user_init);
module_exit(modtest_ver_user_exit);
MODULE_LICENSE("GPL");
MODULE_INFO(name, KBUILD_MODNAME);
