// SPDX-License-Identifier: GPL-2.0
/*
 * Test module: exports modtest_ver_sum(), whose argument's type
 * (<fixtures/modtest_ver.h>) modtest_ver_user was built against in
 * another form. Built twice: this one goes on the ISO; the one built with
 * MODTEST_VER_V2 only gives modtest_ver_user its symbol versions.
 */
#include <linux/init.h>
#include <linux/module.h>
#include <fixtures/modtest_ver.h>

int modtest_ver_sum(const struct modtest_ver_pair *p)
{
	return p->a + p->b;
}
EXPORT_SYMBOL(modtest_ver_sum);

static int __init modtest_ver_base_init(void)
{
	return 0;
}

static void modtest_ver_base_exit(void)
{
}

module_init(modtest_ver_base_init);
module_exit(modtest_ver_base_exit);
MODULE_LICENSE("GPL");
MODULE_INFO(name, KBUILD_MODNAME);
