// SPDX-License-Identifier: GPL-2.0
/* Test module: exports a name the kernel already exports. */
#include <linux/module.h>
#include <fixtures/modtest.h>

int modtest_kernel_export(int x)
{
	return -x;
}
EXPORT_SYMBOL(modtest_kernel_export);

MODULE_INFO(name, KBUILD_MODNAME);
MODULE_LICENSE("GPL");
