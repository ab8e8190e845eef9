// SPDX-License-Identifier: GPL-2.0
/* MODULE_LICENSE("GPL and additional rights") may use GPL-only exports. */
#include <linux/module.h>
#include <linux/rcupdate.h>

static int __init lic_init(void)
{
	synchronize_rcu();
	return 0;
}
module_init(lic_init);
MODULE_LICENSE("GPL and additional rights");
