// SPDX-License-Identifier: GPL-2.0
/* Two modules export twin_value. */
#include <linux/module.h>

int twin_value = 1;
EXPORT_SYMBOL_GPL(twin_value);
MODULE_LICENSE("GPL");
