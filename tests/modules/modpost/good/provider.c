// SPDX-License-Identifier: GPL-2.0
/*
 * Exports a GPL-only variable for consumer, and a plain one whose name
 * makes its entry __ksymtab_gpl_named: its section says it is not GPL-only.
 */
#include <linux/module.h>

int provider_value = 42;
EXPORT_SYMBOL_GPL(provider_value);
int gpl_named = 1;
EXPORT_SYMBOL(gpl_named);
MODULE_LICENSE("GPL");
