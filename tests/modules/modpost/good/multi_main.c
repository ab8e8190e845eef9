// SPDX-License-Identifier: GPL-2.0
/* Module multi, first object: its init calls the second object. */
#include <linux/module.h>

int multi_helper(void);

static int __init multi_init(void)
{
	return multi_helper();
}
module_init(multi_init);
MODULE_LICENSE("GPL");
