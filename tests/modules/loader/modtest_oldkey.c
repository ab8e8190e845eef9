// SPDX-License-Identifier: GPL-2.0
/*
 * Test module (old-api: allowed, a test of it): a key of its own from the
 * old API's initializer, which no DEFINE_ macro lists in __static_keys,
 * with a site in .text: Linux code written so must still load
 * (kernel/jump_label/module.c finds the key through the module's symbols).
 */
#include <linux/init.h>
#include <linux/jump_label.h>
#include <linux/module.h>
#include <fixtures/modtest.h>

static struct static_key modtest_old_key = STATIC_KEY_INIT_FALSE;

static noinline int modtest_oldkey_on(void)
{
	return static_key_false(&modtest_old_key) ? 1 : 0;
}

static int __init modtest_oldkey_init(void)
{
	int v;

	static_key_slow_inc(&modtest_old_key);
	v = modtest_oldkey_on();
	static_key_slow_dec(&modtest_old_key);
	modtest_value("modtest_oldkey", v + 2 * modtest_oldkey_on());
	return 0;
}

static void modtest_oldkey_exit(void)
{
}

module_init(modtest_oldkey_init);
module_exit(modtest_oldkey_exit);
MODULE_INFO(name, KBUILD_MODNAME);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("module loader test: an old-API key of its own");
