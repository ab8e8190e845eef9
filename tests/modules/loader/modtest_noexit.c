// SPDX-License-Identifier: GPL-2.0
/*
 * Test module: an init and no exit. Nothing could stop what such an init
 * starts, so rmmod must refuse it (-EBUSY), as Linux does.
 */
#include <linux/init.h>
#include <linux/module.h>
#include <fixtures/modtest.h>

static int __init modtest_noexit_init(void)
{
	modtest_value("modtest_noexit", 1);
	return 0;
}

module_init(modtest_noexit_init);
MODULE_INFO(name, KBUILD_MODNAME);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("module loader test: an init without an exit");
