// SPDX-License-Identifier: GPL-2.0
/* The name of an in-tree module: make refuses a second one. */
#include <linux/module.h>

MODULE_LICENSE("GPL");
