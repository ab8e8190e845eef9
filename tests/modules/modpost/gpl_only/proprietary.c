// SPDX-License-Identifier: GPL-2.0
/* A module that is not GPL-compatible calls a GPL-only export. */
#include <linux/module.h>
#include <linux/rcupdate.h>

static int __init proprietary_init(void)
{
	synchronize_rcu();
	return 0;
}
module_init(proprietary_init);
MODULE_LICENSE("Proprietary");
