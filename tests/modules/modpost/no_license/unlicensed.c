// SPDX-License-Identifier: GPL-2.0
/* No MODULE_LICENSE(): modpost refuses it, as Linux's does. */
#include <linux/module.h>
#include <linux/printk.h>

static int __init unlicensed_init(void)
{
	pr_info("unlicensed\n");
	return 0;
}
module_init(unlicensed_init);
