// SPDX-License-Identifier: GPL-2.0
/* Test module: no MODULE_LICENSE(), so no GPL-only symbol for it. */
#include <linux/init.h>
#include <linux/module.h>
#include <fixtures/modtest.h>

static int __init modtest_nolicense_init(void)
{
	return modtest_gpl_only(0);
}

module_init(modtest_nolicense_init);
MODULE_INFO(name, KBUILD_MODNAME);
