// SPDX-License-Identifier: GPL-2.0
/* Says its name, nothing else. */
#include <linux/module.h>
#include <linux/printk.h>

static int __init hello_init(void)
{
	pr_info("%s\n", KBUILD_MODNAME);
	return 0;
}
module_init(hello_init);
MODULE_LICENSE("GPL");
