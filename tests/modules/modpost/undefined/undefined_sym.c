// SPDX-License-Identifier: GPL-2.0
/* Calls a function nobody exports. */
#include <linux/module.h>

void no_such_function(void);

static int __init undefined_sym_init(void)
{
	no_such_function();
	return 0;
}
module_init(undefined_sym_init);
MODULE_LICENSE("GPL");
