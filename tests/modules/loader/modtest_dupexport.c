// SPDX-License-Identifier: GPL-2.0
/* Test module: exports a name modtest_basic already exports. */
#include <linux/module.h>
#include <fixtures/modtest.h>

int modtest_basic_add(int a, int b)
{
	return a - b;
}
EXPORT_SYMBOL(modtest_basic_add);

MODULE_INFO(name, KBUILD_MODNAME);
MODULE_LICENSE("GPL");
