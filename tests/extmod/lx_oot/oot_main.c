// SPDX-License-Identifier: GPL-2.0
/* Module lx_oot_multi, first object: init calls the second object. */
#include <linux/module.h>
#include <linux/printk.h>
#include <lx_oot.h>

static int __init lx_oot_multi_init(void)
{
	int v = lx_oot_helper(20);

	pr_info("lx_oot_multi: helper says %d\n", v);
	return v == 21 ? 0 : -EINVAL;
}

module_init(lx_oot_multi_init);
MODULE_LICENSE("GPL");
