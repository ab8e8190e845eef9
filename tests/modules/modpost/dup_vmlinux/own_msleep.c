// SPDX-License-Identifier: GPL-2.0
/* Exports a symbol vmlinux exports already. */
#include <linux/delay.h>
#include <linux/module.h>

void msleep(unsigned int msecs)
{
}
EXPORT_SYMBOL(msleep);
MODULE_LICENSE("GPL");
