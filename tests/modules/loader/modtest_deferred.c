// SPDX-License-Identifier: GPL-2.0
/*
 * Test module: a deferred key of its own, with a site in .text. Its exit
 * drops the key's last reference, which the key defers, and does not
 * flush it: the loader must, before the key's delayed work is freed.
 */
#include <linux/init.h>
#include <linux/jump_label_ratelimit.h>
#include <linux/module.h>
#include <fixtures/modtest.h>

static DEFINE_STATIC_KEY_DEFERRED_FALSE(modtest_deferred_key, HZ / 10);

static noinline int modtest_deferred_on(void)
{
	return static_branch_unlikely(&modtest_deferred_key.key) ? 1 : 0;
}

static int __init modtest_deferred_init(void)
{
	static_branch_inc(&modtest_deferred_key.key);
	modtest_value("modtest_deferred", modtest_deferred_on());
	return 0;
}

static void modtest_deferred_exit(void)
{
	static_branch_slow_dec_deferred(&modtest_deferred_key);
	modtest_value("modtest_deferred", 2 + modtest_deferred_on());
}

module_init(modtest_deferred_init);
module_exit(modtest_deferred_exit);
MODULE_INFO(name, KBUILD_MODNAME);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("module loader test: a deferred key left pending");
