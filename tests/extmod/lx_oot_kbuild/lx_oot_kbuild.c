// SPDX-License-Identifier: GPL-2.0
/* Listed by a Kbuild file: the Makefile beside it is not read. */
#include <linux/module.h>
#include <linux/printk.h>

static int __init lx_oot_kbuild_init(void)
{
	pr_info("lx_oot_kbuild: loaded\n");
	return 0;
}

module_init(lx_oot_kbuild_init);
MODULE_LICENSE("GPL");
